#[derive(Default)]
struct Users;

#[restlight::rest_controller]
#[request_mapping("/users")]
impl Users {
    #[get_mapping("/{id}")]
    async fn get(&self, #[response_status(OK)] #[path_variable] id: u64) -> String {
        id.to_string()
    }
}

fn main() {}
