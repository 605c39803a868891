#[restlight::get("/hello")]
async fn hello(#[header] agent: String) -> String {
    agent
}

fn main() {}
