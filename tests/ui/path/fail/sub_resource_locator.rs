#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[path("/{id}/orders")]
    fn orders(&self) -> &'static str {
        "orders"
    }
}

fn main() {}
