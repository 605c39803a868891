use std::any::Any;

#[derive(Default)]
struct Shops;

#[restlight::path("/shops")]
impl Shops {
    #[path("/items/{id}")]
    fn item(&self, #[path_param] id: u32) -> Box<dyn Any + Send + Sync> {
        Box::new(id)
    }
}

fn main() {}
