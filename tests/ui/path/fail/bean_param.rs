#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list(&self, #[bean_param] page: String) -> String {
        page
    }
}

fn main() {}
