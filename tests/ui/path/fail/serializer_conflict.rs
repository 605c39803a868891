#[restlight::get("/item")]
#[serializer("json")]
#[response_serializer("form")]
async fn one() -> &'static str {
    "x"
}

fn main() {}
