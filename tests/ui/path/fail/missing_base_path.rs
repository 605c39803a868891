#[derive(Default)]
struct Users;

#[restlight::path]
impl Users {
    #[get]
    async fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {}
