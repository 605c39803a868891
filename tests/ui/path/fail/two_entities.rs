#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[post]
    async fn create(&self, name: String, nickname: String) -> String {
        format!("{name} {nickname}")
    }
}

fn main() {}
