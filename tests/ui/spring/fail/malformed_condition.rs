#[derive(Default)]
struct Items;

#[restlight::rest_controller]
#[request_mapping("/items")]
impl Items {
    #[get_mapping(params = "!version=2")]
    async fn list(&self) -> String {
        String::new()
    }
}

fn main() {}
