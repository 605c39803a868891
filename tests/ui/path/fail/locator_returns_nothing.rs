#[derive(Default)]
struct Shops;

#[restlight::path("/shops")]
impl Shops {
    #[path("/items/{id}")]
    fn item(&self, #[path_param] id: u32) {
        let _ = id;
    }
}

fn main() {}
