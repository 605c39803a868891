#[restlight::get("/a")]
#[tag]
async fn missing() -> &'static str {
    "a"
}

#[restlight::get("/b")]
#[tag("")]
async fn empty() -> &'static str {
    "b"
}

#[restlight::get("/c")]
#[tag(users)]
async fn not_a_string() -> &'static str {
    "c"
}

fn main() {}
