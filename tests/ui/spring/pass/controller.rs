use restlight::prelude::*;

#[derive(Default)]
struct Users;

#[restlight::rest_controller]
#[request_mapping(path = "/users", produces = "text/plain")]
impl Users {
    #[get_mapping]
    async fn list(&self, #[request_param(required = false)] limit: Option<usize>) -> String {
        format!("{limit:?}")
    }

    #[post_mapping(consumes = "text/plain")]
    #[response_status(CREATED)]
    async fn create(&self, #[request_body] name: String) -> String {
        name
    }
}

#[restlight::delete_mapping("/sessions/{id}")]
#[response_status(204)]
async fn logout(#[path_variable] id: u64) -> String {
    id.to_string()
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    assert_eq!(client.get("/users?limit=2").send_blocking().text(), "Some(2)");
    assert_eq!(client.post("/users").content_type("text/plain").body("Ada").send_blocking().status(), 201);
    assert_eq!(client.delete("/sessions/1").send_blocking().status(), 204);
}
