#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    #[query_param]
    async fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {}
