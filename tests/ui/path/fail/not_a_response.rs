#[derive(Default)]
struct Users;

struct Opaque;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn get(&self) -> Opaque {
        Opaque
    }
}

fn main() {}
