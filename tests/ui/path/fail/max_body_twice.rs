#[restlight::post("/up")]
#[max_body("1MiB")]
#[max_body("2MiB")]
async fn upload(body: String) -> String {
    body
}

fn main() {}
