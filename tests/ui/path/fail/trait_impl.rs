#[derive(Default)]
struct Users;

trait Listing {
    fn list(&self) -> &'static str;
}

#[restlight::path("/users")]
impl Listing for Users {
    fn list(&self) -> &'static str {
        "users"
    }
}

fn main() {}
