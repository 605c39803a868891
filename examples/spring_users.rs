//! The users API of the README written Spring-style: the same routes, the
//! same answers as `examples/users.rs`, from `#[rest_controller]`,
//! `#[get_mapping]` and friends.
//!
//! ```text
//! cargo run --example spring_users
//! curl -i localhost:8080/users
//! curl -i -X POST localhost:8080/users -H 'content-type: application/json' -d '{"id":1,"name":"Ada"}'
//! curl -i localhost:8080/users/1
//! curl -i -X DELETE localhost:8080/users/1
//! curl -i localhost:8080/users/abc       # 405: only DELETE takes a non-numeric id
//! curl -i localhost:8080/users?limit=x   # 400: problem details naming `limit`
//! ```

use std::sync::Mutex;

use restlight::prelude::*;
use serde::{Deserialize, Serialize};

/// A user.
#[derive(Debug, Serialize, Deserialize, Clone)]
pub struct User {
    /// The id.
    pub id: u64,
    /// The name.
    pub name: String,
}

/// The controller: its state lives in the struct, shared by all requests.
#[derive(Debug, Default)]
pub struct UserController {
    users: Mutex<Vec<User>>,
}

#[restlight::rest_controller]
#[request_mapping(path = "/users", produces = "application/json")]
impl UserController {
    #[get_mapping]
    async fn list(
        &self,
        #[request_param(name = "limit", default_value = "20")] limit: usize,
        #[request_header(name = "X-Tenant", required = false)] tenant: Option<String>,
    ) -> Vec<User> {
        let _ = tenant;
        self.users.lock().unwrap().iter().take(limit).cloned().collect()
    }

    #[get_mapping("/{id:\\d+}")]
    async fn get(&self, #[path_variable("id")] id: u64) -> Result<User, HttpError> {
        self.users
            .lock()
            .unwrap()
            .iter()
            .find(|u| u.id == id)
            .cloned()
            .ok_or_else(|| HttpError::not_found(format!("no user {id}")))
    }

    #[post_mapping(consumes = "application/json")]
    #[response_status(CREATED)]
    async fn create(&self, #[request_body] user: User) -> User {
        self.users.lock().unwrap().push(user.clone());
        user
    }

    #[delete_mapping("/{id}")]
    #[scheduled(biz)]
    fn delete(&self, #[path_variable] id: u64) -> StatusCode {
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

#[restlight::get_mapping("/hello", produces = "text/plain")]
async fn hello() -> &'static str {
    "Hello Restlight!"
}

/// The application: the controller (its routes come from the macros) and a builder route.
pub fn app() -> Restlight {
    Restlight::new().resource(UserController::default()).route(get("/ping").handle(|_ctx| async { "pong" }))
}

fn main() -> restlight::Result<()> {
    let port = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(8080);
    app().port(port).run()
}
