#[derive(Default)]
struct Uploads;

#[restlight::path("/up")]
impl Uploads {
    #[post]
    #[max_body("16 mebibytes")]
    async fn upload(&self, body: String) -> String {
        body
    }
}

fn main() {}
