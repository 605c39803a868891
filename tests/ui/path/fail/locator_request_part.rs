#[derive(Default)]
struct Shops;

struct Item;

#[restlight::sub_resource]
impl Item {
    #[get]
    fn show(&self) -> &'static str {
        "item"
    }
}

#[restlight::path("/shops")]
impl Shops {
    #[path("/items")]
    fn item(&self, #[request_part("file")] body: String) -> Item {
        let _ = body;
        Item
    }
}

fn main() {}
