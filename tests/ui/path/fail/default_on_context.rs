use restlight::prelude::*;

#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list(&self, #[context] #[default_value("x")] req: &RequestContext) -> String {
        req.uri().to_string()
    }
}

fn main() {}
