#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get("/{id:}")]
    async fn get(&self, #[path_param] id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
