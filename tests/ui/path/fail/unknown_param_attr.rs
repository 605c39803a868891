#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list(&self, #[query] limit: usize) -> String {
        limit.to_string()
    }
}

fn main() {}
