#[derive(Default)]
struct Uploads;

#[restlight::rest_controller]
#[request_mapping("/uploads")]
impl Uploads {
    #[post_mapping]
    async fn upload(&self, #[request_part(name = "file", required = false)] file: String) -> String {
        file
    }
}

fn main() {}
