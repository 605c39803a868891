use restlight::prelude::*;

#[produces("text/plain")]
#[restlight::get("/hello")]
async fn hello() -> &'static str {
    "hello"
}

#[exception_handler]
fn on_error(e: &std::io::Error) -> String {
    e.to_string()
}

fn main() {}
