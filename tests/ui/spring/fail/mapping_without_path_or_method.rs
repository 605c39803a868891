#[derive(Default)]
struct Everything;

#[restlight::rest_controller]
impl Everything {
    #[request_mapping]
    async fn anything(&self) -> &'static str {
        "anything"
    }
}

fn main() {}
