#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    #[scheduled(IO)]
    async fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {}
