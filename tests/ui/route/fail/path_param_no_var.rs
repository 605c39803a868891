#[restlight::get("/hello")]
async fn hello(#[path_param] name: String) -> String {
    name
}

fn main() {}
