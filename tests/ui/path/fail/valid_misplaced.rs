#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
impl Notes {
    #[get]
    async fn list(&self, #[query_param] #[valid] limit: u32) -> String {
        limit.to_string()
    }
}

fn main() {}
