use restlight::prelude::*;

#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list(&self, #[context] req: &mut RequestContext) -> String {
        req.uri().to_string()
    }
}

fn main() {}
