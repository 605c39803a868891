#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
impl Notes {
    #[get]
    #[skip_interceptor(Missing)]
    async fn list(&self) -> &'static str {
        "notes"
    }

    #[get("/all")]
    #[skip_interceptor()]
    #[no_interceptors(now)]
    async fn all(&self) -> &'static str {
        "all"
    }
}

fn main() {}
