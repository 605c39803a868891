#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get("/{id}")]
    async fn get(&self, #[path_param] #[default_value("1")] id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
