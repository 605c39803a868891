#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get("/{id")]
    async fn get(&mut self, #[query] id: u64) -> String {
        id.to_string()
    }

    #[post]
    async fn create(&self, a: String, b: String) -> String {
        format!("{a}{b}")
    }
}

fn main() {}
