#[derive(Default)]
struct Uploads;

#[restlight::path("/uploads")]
impl Uploads {
    #[post]
    async fn upload(&self, #[request_part("note")] #[default_value("none")] note: String) -> String {
        note
    }
}

fn main() {}
