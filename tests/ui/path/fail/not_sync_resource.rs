#[derive(Default)]
struct Users;

struct Local(std::cell::Cell<u8>);

impl Default for Local {
    fn default() -> Self {
        Local(std::cell::Cell::new(0))
    }
}

#[restlight::path("/local")]
impl Local {
    #[get]
    async fn get(&self) -> String {
        self.0.get().to_string()
    }
}

fn main() {}
