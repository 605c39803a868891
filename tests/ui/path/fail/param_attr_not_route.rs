#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    fn helper(&self, #[query_param] limit: usize) -> usize {
        limit
    }
}

fn main() {}
