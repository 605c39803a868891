#[derive(Default)]
struct Users;

#[restlight::rest_controller]
#[request_mapping("/users")]
impl Users {
    #[get_mapping(path = "/search", method = GET)]
    async fn search(&self, #[request_param(name = "q", requierd = false)] q: Option<String>) -> String {
        q.unwrap_or_default()
    }
}

fn main() {}
