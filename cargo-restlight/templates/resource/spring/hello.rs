#[derive(Default)]
struct Hello;

#[restlight::rest_controller]
#[request_mapping(path = "/hello", produces = "text/plain")]
impl Hello {
    #[get_mapping]
    async fn hello(&self, #[request_param] name: Option<String>) -> String {
        format!("Hello, {}!", name.as_deref().unwrap_or("world"))
    }
}
