#[derive(Default)]
struct Users;

#[restlight::path("/users")]
#[produces("json")]
impl Users {
    #[get]
    async fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {}
