#[derive(Default)]
struct Hello;

#[restlight::path("/hello")]
#[produces("text/plain")]
impl Hello {
    #[get]
    async fn hello(&self, #[query_param] name: Option<String>) -> String {
        format!("Hello, {}!", name.as_deref().unwrap_or("world"))
    }
}
