//! The users resource: a user store in memory, with the routes of the README quick start and a DELETE.
//!
//! ```text
//! cargo run --example users
//! curl -i localhost:8080/users
//! curl -i -X POST localhost:8080/users -H 'content-type: application/json' -d '{"id":1,"name":"Ada"}'
//! curl -i localhost:8080/users/1
//! curl -i --http2-prior-knowledge localhost:8080/users/1
//! curl -i -X DELETE localhost:8080/users/1
//! curl -i localhost:8080/users/abc       # 405: only DELETE takes a non-numeric id
//! curl -i localhost:8080/users?limit=x   # 400: problem details naming `limit`
//! curl -i localhost:8080/openapi.json     # the OpenAPI 3.1 document; the UI: open localhost:8080/swagger-ui
//! ```
//!
//! `examples/openapi/users.json` (and `.yaml`, `-3.0.json`) is this
//! example's document, checked by `tests/openapi.rs`; after a change here,
//! regenerate it with `UPDATE_OPENAPI=1 cargo test --test openapi`.

use std::sync::Mutex;

use restlight::prelude::*;
use serde::{Deserialize, Serialize};

/// A user.
#[derive(Debug, Serialize, Deserialize, Clone, schemars::JsonSchema)]
pub struct User {
    /// The id.
    pub id: u64,
    /// The name.
    pub name: String,
}

/// The resource: its state lives in the struct, shared by all requests.
#[derive(Debug, Default)]
pub struct UserResource {
    users: Mutex<Vec<User>>,
}

#[restlight::path("/users")]
#[produces("application/json")]
impl UserResource {
    /// Lists the users.
    ///
    /// At most `limit` of them, in the order they were created.
    #[get]
    async fn list(
        &self,
        #[query_param("limit")]
        #[default_value("20")]
        limit: usize,
        #[header_param("X-Tenant")] tenant: Option<String>,
    ) -> Vec<User> {
        let _ = tenant;
        self.users.lock().unwrap().iter().take(limit).cloned().collect()
    }

    /// Finds one user by id.
    #[get]
    #[path("/{id: \\d+}")]
    async fn get(&self, #[path_param("id")] id: u64) -> Result<User, HttpError> {
        self.users
            .lock()
            .unwrap()
            .iter()
            .find(|u| u.id == id)
            .cloned()
            .ok_or_else(|| HttpError::not_found(format!("no user {id}")))
    }

    /// Creates a user.
    #[post]
    #[consumes("application/json")]
    async fn create(&self, user: User) -> Created<User> {
        self.users.lock().unwrap().push(user.clone());
        Created(user)
    }

    /// Deletes a user: 204 when it existed, 404 otherwise.
    #[delete]
    #[path("/{id}")]
    #[scheduled(biz)]
    fn delete(&self, #[path_param] id: u64) -> StatusCode {
        let mut users = self.users.lock().unwrap();
        let before = users.len();
        users.retain(|u| u.id != id);
        if users.len() < before {
            StatusCode::NO_CONTENT
        } else {
            StatusCode::NOT_FOUND
        }
    }
}

#[restlight::get("/hello")]
#[produces("text/plain")]
async fn hello() -> &'static str {
    "Hello Restlight!"
}

/// The application: the resource (its routes come from the macros) and a builder route.
pub fn app() -> Restlight {
    Restlight::new().resource(UserResource::default()).route(get("/ping").handle(|_ctx| async { "pong" }))
}

fn main() -> restlight::Result<()> {
    let port = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(8080);
    // GET /openapi.json, /openapi.yaml and the Swagger UI at /swagger-ui.
    let docs = restlight::openapi::OpenApiDocs::new().title("Users").api_version("1.0.0");
    app().openapi(docs).port(port).run()
}
