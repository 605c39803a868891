#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list(&mut self) -> &'static str {
        "users"
    }
}

fn main() {}
