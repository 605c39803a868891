#[derive(Default)]
struct Users;

#[restlight::rest_controller]
#[request_mapping("/users")]
impl Users {
    #[get_mapping("/{id}")]
    #[path_variable]
    async fn get(&self, #[path_variable] id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
