#[derive(Debug)]
struct NotAnError;

#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
impl Notes {
    #[get]
    async fn list(&self) -> Result<String, NotAnError> {
        Err(NotAnError)
    }
}

fn main() {}
