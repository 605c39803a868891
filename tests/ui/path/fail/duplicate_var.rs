#[derive(Default)]
struct Users;

#[restlight::path("/users/{id}")]
impl Users {
    #[get("/friends/{id}")]
    async fn friend(&self, #[path_param] id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
