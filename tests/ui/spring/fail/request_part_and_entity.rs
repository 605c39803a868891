#[derive(Default)]
struct Uploads;

#[restlight::rest_controller]
#[request_mapping("/uploads")]
impl Uploads {
    #[post_mapping]
    async fn upload(&self, #[request_part("file")] file: String, #[request_body] body: String) -> String {
        format!("{file}{body}")
    }
}

fn main() {}
