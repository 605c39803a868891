#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list(self: std::sync::Arc<Self>) -> &'static str {
        "users"
    }
}

fn main() {}
