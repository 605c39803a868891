use restlight::prelude::*;

#[derive(Default)]
struct Users;

#[restlight::path("/users")]
#[scheduled(io)]
impl Users {
    #[get]
    async fn list(&self) -> &'static str {
        "users"
    }

    #[delete]
    fn clear(&self) -> StatusCode {
        StatusCode::NO_CONTENT
    }
}

fn main() {}
