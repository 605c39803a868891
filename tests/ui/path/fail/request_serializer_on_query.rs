#[restlight::get("/item")]
async fn one(#[query_param] #[request_serializer("json")] id: u64) -> String {
    id.to_string()
}

fn main() {}
