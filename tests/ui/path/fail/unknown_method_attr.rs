#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    #[paht("/{id}")]
    async fn get(&self) -> &'static str {
        "user"
    }
}

fn main() {}
