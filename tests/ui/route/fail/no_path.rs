#[restlight::get]
async fn hello() -> &'static str {
    "hello"
}

fn main() {}
