#[derive(Default)]
struct Users;

#[restlight::rest_controller]
#[request_mapping("/users")]
impl Users {
    #[get_mapping]
    async fn list(&self, #[request_param(name = "limit", required = false)] limit: usize) -> String {
        limit.to_string()
    }

    #[post_mapping]
    async fn create(&self, #[request_body(required = false)] body: String) -> String {
        body
    }
}

fn main() {}
