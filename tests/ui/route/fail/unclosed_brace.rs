#[restlight::get("/hello/{name")]
async fn hello(#[path_param] name: String) -> String {
    name
}

fn main() {}
