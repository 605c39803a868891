#[derive(Default)]
struct Items;

#[restlight::rest_controller]
#[request_mapping("/items")]
impl Items {
    #[get_mapping(headers = "Accept=text/plain")]
    async fn list(&self) -> String {
        String::new()
    }
}

fn main() {}
