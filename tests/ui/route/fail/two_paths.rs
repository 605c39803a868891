#[restlight::get("/a")]
#[path("/b")]
async fn hello() -> &'static str {
    "hello"
}

fn main() {}
