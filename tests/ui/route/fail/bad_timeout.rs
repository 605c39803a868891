#[restlight::get("/a")]
#[timeout("2 hours")]
async fn unit() -> &'static str {
    "a"
}

#[restlight::get("/b")]
#[timeout(0)]
async fn zero() -> &'static str {
    "b"
}

#[restlight::get("/c")]
#[timeout]
async fn missing() -> &'static str {
    "c"
}

#[restlight::get("/d")]
#[timeout("1s")]
#[timeout("2s")]
async fn twice() -> &'static str {
    "d"
}

fn main() {}
