#[derive(Default)]
struct Users;

impl Users {
    #[restlight::get("/users")]
    async fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {
    let _ = Users.list();
}
