//! The annotation contract users rely on (a resource in the shape of the README quick start), written as a user would but for `main`, which
//! builds the application (running the startup checks) instead of serving.
#![deny(warnings)]

use restlight::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

#[derive(Serialize, Deserialize, Clone)]
pub struct User { pub id: u64, pub name: String }

#[derive(Default)]
pub struct UserResource { users: Mutex<Vec<User>> }   // state lives in the resource

#[restlight::path("/users")]          // bare `path` is a built-in attribute: qualify it here
#[produces("application/json")]        // class level; methods may override
impl UserResource {
    #[get]
    async fn list(&self,
        #[query_param("limit")] #[default_value("20")] limit: usize,
        #[header_param("X-Tenant")] tenant: Option<String>) -> Vec<User> {
        let _ = tenant;
        self.users.lock().unwrap().iter().take(limit).cloned().collect()
    }

    #[get]
    #[path("/{id: \\d+}")]             // inside the impl, `#[path]` is the macro's own helper
    async fn get(&self, #[path_param("id")] id: u64) -> Result<User, HttpError> {
        self.users.lock().unwrap().iter().find(|u| u.id == id).cloned()
            .ok_or_else(|| HttpError::not_found(format!("no user {id}")))
    }

    #[post]
    #[consumes("application/json")]
    async fn create(&self, user: User) -> Created<User> {   // the unannotated parameter is the entity
        self.users.lock().unwrap().push(user.clone());
        Created(user)                                         // 201 with the body
    }

    #[delete]
    #[path("/{id}")]
    #[scheduled(biz)]                   // a plain fn: runs on the business pool
    fn delete(&self, #[path_param] id: u64) -> StatusCode {   // name defaults to the identifier
        let mut users = self.users.lock().unwrap();
        let before = users.len();
        users.retain(|u| u.id != id);
        if users.len() < before { StatusCode::NO_CONTENT } else { StatusCode::NOT_FOUND }
    }
}

#[restlight::get("/hello")]
#[produces("text/plain")]
async fn hello() -> &'static str { "Hello Restlight!" }

fn main() -> restlight::Result<()> {
    let app = Restlight::new()
        .resource(UserResource::default())   // may be left out: a Default resource is built for you
        .route(get("/ping").handle(|_ctx| async { "pong" }))   // the builder API, no macros
        .port(8080);
    let client = app.mock()?;                // builds the router: the startup checks run here
    assert_eq!(client.get("/hello").send_blocking().text(), "Hello Restlight!");
    let created = client.post("/users").json(&User { id: 7, name: "Ada".into() }).send_blocking();
    assert_eq!(created.status(), 201);
    assert_eq!(client.get("/users/7").send_blocking().json::<User>().name, "Ada");
    assert_eq!(client.get("/users?limit=0").send_blocking().json::<Vec<User>>().len(), 0);
    assert_eq!(client.delete("/users/7").send_blocking().status(), 204);
    assert_eq!(client.get("/users/7").send_blocking().status(), 404);
    Ok(())
}
