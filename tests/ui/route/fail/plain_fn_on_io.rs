#[restlight::get("/hello")]
#[scheduled(io)]
fn hello() -> &'static str {
    "hello"
}

fn main() {}
