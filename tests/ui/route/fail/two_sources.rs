#[restlight::get("/hello")]
async fn hello(#[query_param] #[header_param] name: String) -> String {
    name
}

fn main() {}
