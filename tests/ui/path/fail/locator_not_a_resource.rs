#[derive(Default)]
struct Shops;

struct Item {
    id: u32,
}

#[restlight::path("/shops")]
impl Shops {
    #[path("/items/{id}")]
    fn item(&self, #[path_param] id: u32) -> Item {
        Item { id }
    }
}

fn main() {}
