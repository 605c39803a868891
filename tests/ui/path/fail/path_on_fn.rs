#[derive(Default)]
struct Users;

#[restlight::path("/users")]
async fn list() -> &'static str {
    "users"
}

fn main() {}
