#[restlight::get("/hello")]
async fn hello(#[query_param] (a, b): (String, String)) -> String {
    a + &b
}

fn main() {}
