#[restlight::get("/files/{path: (?<=a)b}")]
async fn file(#[path_param] path: String) -> String {
    path
}

fn main() {}
