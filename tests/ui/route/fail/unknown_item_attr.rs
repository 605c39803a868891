#[restlight::get("/hello")]
#[produce("text/plain")]
async fn hello() -> &'static str {
    "hello"
}

fn main() {}
