#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    #[scheduled(pool = "reports")]
    async fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {}
