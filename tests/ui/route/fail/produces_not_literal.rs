#[restlight::get("/hello")]
#[produces(application/json)]
async fn hello() -> &'static str {
    "hello"
}

fn main() {}
