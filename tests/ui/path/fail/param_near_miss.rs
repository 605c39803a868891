use restlight::prelude::*;

#[derive(BeanParam)]
pub struct Paging {
    #[query_param]
    limit: Option<usize>,
}

#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[post]
    async fn create(&self, #[bean] page: Paging, #[request_serialiser("json")] body: String) -> String {
        format!("{:?} {body}", page.limit)
    }
}

fn main() {}
