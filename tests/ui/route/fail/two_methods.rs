#[restlight::get("/a")]
#[restlight::post]
async fn hello() -> &'static str {
    "hello"
}

fn main() {}
