use restlight::prelude::*;

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

fn main() -> restlight::Result<()> {
    // Serves on port 8080 until Ctrl-C: curl 'localhost:8080/hello?name=you'
    Restlight::new().port(8080).run()
}
