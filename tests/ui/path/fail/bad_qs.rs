#[derive(Default)]
struct Pages;

#[restlight::path("/pages")]
impl Pages {
    #[get]
    #[produces("application/json", "text/html; qs=2")]
    async fn page(&self) -> &'static str {
        "page"
    }
}

fn main() {}
