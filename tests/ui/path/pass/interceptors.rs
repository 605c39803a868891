//! Interceptor opt-outs, exception handlers and `#[valid]` entities, and
//! handlers returning `Result<T, E>` for any error type.
#![deny(warnings)]

use restlight::prelude::*;

#[derive(Default)]
struct Auth;
impl Interceptor for Auth {}

#[derive(Default)]
struct Audit;
impl Interceptor for Audit {}

#[derive(Debug)]
struct DbError;
impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("db")
    }
}
impl std::error::Error for DbError {}

#[derive(serde::Deserialize, serde::Serialize, garde::Validate)]
struct Note {
    #[garde(length(min = 1))]
    text: String,
}

#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
#[skip_interceptor(Audit)]
impl Notes {
    #[get]
    #[no_interceptors]
    async fn list(&self) -> Result<Vec<String>, DbError> {
        Ok(Vec::new())
    }

    #[post]
    #[skip_interceptor(Auth, crate::Audit)]
    async fn create(&self, #[valid] note: Note) -> Result<Created<Note>, DbError> {
        Ok(Created(note))
    }

    #[exception_handler]
    fn on_db(&self, e: &DbError) -> HttpError {
        HttpError::service_unavailable(e.to_string())
    }

    #[exception_handler]
    fn on_io(e: &std::io::Error) -> (StatusCode, String) {
        (StatusCode::BAD_GATEWAY, e.to_string())
    }
}

fn main() {
    let client = Restlight::new().interceptor(Auth).mock().unwrap();
    assert_eq!(client.get("/notes").send_blocking().status(), 200);
}
