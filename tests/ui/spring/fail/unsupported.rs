#[derive(Default)]
struct Users;

#[restlight::rest_controller]
#[request_mapping("/users")]
impl Users {
    #[get_mapping(path = "/v2", params = "version=2", headers = "X-Api=1", produces = "text/plain")]
    async fn list(&self) -> String {
        String::new()
    }

    #[get_mapping("/twice")]
    #[post_mapping("/twice")]
    #[response_status(CREATD)]
    async fn twice(&self) -> String {
        String::new()
    }
}

fn main() {}
