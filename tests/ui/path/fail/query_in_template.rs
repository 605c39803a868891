#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get("/search?q={q}")]
    async fn search(&self) -> &'static str {
        "found"
    }
}

fn main() {}
