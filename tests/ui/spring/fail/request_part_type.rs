use std::time::Instant;

#[derive(Default)]
struct Uploads;

#[restlight::rest_controller]
#[request_mapping("/uploads")]
impl Uploads {
    #[post_mapping]
    async fn upload(&self, #[request_part("at")] at: Instant) -> String {
        format!("{at:?}")
    }
}

fn main() {}
