#[restlight::get("/item")]
#[serializer("not json")]
async fn one() -> &'static str {
    "x"
}

#[restlight::get("/other")]
#[response_serializer("application/")]
async fn other() -> &'static str {
    "x"
}

#[restlight::get("/third")]
#[compress(no)]
async fn third() -> &'static str {
    "x"
}

fn main() {}
