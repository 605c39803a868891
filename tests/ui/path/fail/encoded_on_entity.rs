#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
impl Notes {
    #[post]
    fn create(&self, #[encoded] body: String) -> String {
        body
    }
}

fn main() {}
