#[derive(Default)]
struct Users;

#[restlight::rest_controller]
#[request_mapping("/users")]
impl Users {
    #[get]
    async fn list(&self, #[query_param] limit: Option<usize>) -> String {
        format!("{limit:?}")
    }
}

#[derive(Default)]
struct Orders;

#[restlight::path("/orders")]
impl Orders {
    #[get_mapping("/{id}")]
    async fn get(&self, #[path_variable] id: u64) -> String {
        id.to_string()
    }

    #[get]
    async fn list(&self, #[request_param] limit: Option<usize>) -> String {
        format!("{limit:?}")
    }
}

fn main() {}
