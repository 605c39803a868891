#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get("/{user id}")]
    async fn get(&self) -> &'static str {
        "user"
    }
}

fn main() {}
