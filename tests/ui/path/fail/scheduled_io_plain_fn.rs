#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    #[scheduled(io)]
    fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {}
