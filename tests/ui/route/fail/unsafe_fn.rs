#[restlight::get("/hello")]
async unsafe fn hello() -> &'static str {
    "hello"
}

fn main() {}
