struct Item;

#[restlight::sub_resource("/items")]
impl Item {
    #[get]
    fn show(&self) -> &'static str {
        "item"
    }
}

fn main() {}
