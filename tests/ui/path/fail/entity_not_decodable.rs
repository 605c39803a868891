#[derive(Default)]
struct Users;

struct Opaque;

#[restlight::path("/users")]
impl Users {
    #[post]
    async fn create(&self, body: Opaque) -> &'static str {
        let _ = body;
        "created"
    }
}

fn main() {}
