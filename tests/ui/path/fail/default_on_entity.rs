#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[post]
    async fn create(&self, #[default_value("nobody")] name: String) -> String {
        name
    }
}

fn main() {}
