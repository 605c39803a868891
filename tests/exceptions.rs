//! Exception mapping (resource-local handlers before global mappers, the
//! nearest mapping first, unmapped errors as 500) and `#[valid]` entities.
#![deny(warnings)]

use std::fmt;

use restlight::prelude::*;
use restlight::test::MockClient;
use serde_json::Value;

#[derive(Debug)]
struct DbError(&'static str);
impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "database: {}", self.0)
    }
}
impl std::error::Error for DbError {}

/// An error caused by a `DbError`: mapped by the nearest mapping.
#[derive(Debug)]
struct ServiceError(DbError);
impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("service failed")
    }
}
impl std::error::Error for ServiceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[derive(Debug)]
struct Unmapped;
impl fmt::Display for Unmapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("secret internals")
    }
}
impl std::error::Error for Unmapped {}

#[derive(Debug)]
struct Teapot;
impl fmt::Display for Teapot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("short and stout")
    }
}
impl std::error::Error for Teapot {}

#[derive(serde::Serialize)]
struct Item {
    id: u64,
}

#[derive(Default)]
struct Local {
    prefix: &'static str,
}

#[restlight::path("/local")]
impl Local {
    #[get("/db")]
    async fn db(&self) -> Result<String, DbError> {
        Err(DbError("down"))
    }

    #[get("/service")]
    async fn service(&self) -> Result<Item, ServiceError> {
        Err(ServiceError(DbError("gone")))
    }

    #[get("/teapot")]
    fn teapot(&self) -> Result<Item, Teapot> {
        Err(Teapot)
    }

    #[get("/ok")]
    async fn ok(&self) -> Result<Item, DbError> {
        Ok(Item { id: 1 })
    }

    #[exception_handler]
    fn on_db(&self, e: &DbError) -> (StatusCode, String) {
        (StatusCode::SERVICE_UNAVAILABLE, format!("{}local {e}", self.prefix))
    }
}

#[derive(Default)]
struct Global;

#[restlight::path("/global")]
impl Global {
    #[get("/db")]
    async fn db(&self) -> Result<String, DbError> {
        Err(DbError("down"))
    }

    #[get("/service")]
    async fn service(&self) -> Result<Item, ServiceError> {
        Err(ServiceError(DbError("gone")))
    }

    #[get("/unmapped")]
    async fn unmapped(&self) -> Result<Item, Unmapped> {
        Err(Unmapped)
    }

    #[get("/panic")]
    async fn panic(&self) -> Result<Item, DbError> {
        panic!("handler bug")
    }

    /// No `.await` and no macro in the body: answered where it is called,
    /// without a future, so its panic is caught there.
    #[get("/panic-at-once")]
    async fn panic_at_once(&self) -> Result<Item, DbError> {
        Ok(Vec::<Item>::new().pop().expect("handler bug"))
    }

    /// The same after its body was read: answered in the future that read
    /// the body, and its panic caught there.
    #[post("/panic-after-body")]
    async fn panic_after_body(&self, body: bytes::Bytes) -> Result<Item, DbError> {
        Ok(Vec::<Item>::new().into_iter().find(|item| item.id == body.len() as u64).expect("handler bug"))
    }

    /// An answer written after the body was read, as any other: the
    /// negotiated codec, `Content-Type`, a mapped error.
    #[post("/after-body")]
    async fn after_body(&self, body: bytes::Bytes) -> Result<Item, DbError> {
        if body.as_ref() == b"none" {
            return Err(DbError("none"));
        }
        Ok(Item { id: body.len() as u64 })
    }
}

fn client() -> MockClient {
    Restlight::new()
        .exception_mapper(|e: &DbError| HttpError::conflict(format!("global {e}")))
        .exception_mapper(|_: &Teapot| StatusCode::IM_A_TEAPOT)
        .mock()
        .unwrap()
}

#[test]
fn resource_local_handlers_come_before_global_mappers() {
    let client = client();
    let res = client.get("/local/db").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (503, "local database: down".to_owned()));
    // The local handler for the source wins over the global mapper: local first.
    let res = client.get("/local/service").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (503, "local database: gone".to_owned()));
    // No local handler for the type: the global mapper.
    assert_eq!(client.get("/local/teapot").send_blocking().status(), 418);
    let res = client.get("/local/ok").send_blocking();
    assert_eq!((res.status().as_u16(), res.json::<Value>()["id"].as_u64()), (200, Some(1)));
}

#[test]
fn global_mappers_use_the_nearest_mapping() {
    let client = Restlight::new()
        .exception_mapper(|e: &DbError| HttpError::conflict(format!("db {e}")))
        .exception_mapper(|e: &ServiceError| HttpError::bad_request(format!("exact {e}")))
        .mock()
        .unwrap();
    // The exact type beats a mapper registered earlier for its source.
    let res = client.get("/global/service").send_blocking();
    assert_eq!(
        (res.status().as_u16(), res.json::<Value>()["detail"].as_str().map(str::to_owned)),
        (400, Some("exact service failed".to_owned()))
    );
    // Only the source is mapped: it is found through `source()`.
    let res = client_db_only().get("/global/service").send_blocking();
    assert_eq!(
        (res.status().as_u16(), res.json::<Value>()["detail"].as_str().map(str::to_owned)),
        (409, Some("global database: gone".to_owned()))
    );
    assert_eq!(client.get("/global/db").send_blocking().status(), 409);
}

fn client_db_only() -> MockClient {
    client()
}

#[test]
fn unmapped_errors_and_panics_are_500_problems() {
    let client = client();
    let res = client.get("/global/unmapped").accept("application/json").send_blocking();
    assert_eq!(res.status(), 500);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    let body = res.json::<Value>();
    assert!(body["errorType"].as_str().unwrap().ends_with("Unmapped"));
    assert!(!body.to_string().contains("secret internals"), "{body}");
    let res = client.get("/global/panic").send_blocking();
    assert_eq!(res.status(), 500);
    assert_eq!(client.get("/global/db").send_blocking().status(), 409, "the server keeps serving");
    let res = client.get("/global/panic-at-once").accept("application/json").send_blocking();
    assert_eq!(res.status(), 500);
    assert_eq!(res.json::<Value>()["detail"], "the handler panicked");
    assert_eq!(client.get("/global/db").send_blocking().status(), 409, "the server keeps serving");
    let res = client.post("/global/panic-after-body").body("four").accept("application/json").send_blocking();
    assert_eq!(res.status(), 500);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    assert_eq!(res.json::<Value>()["detail"], "the handler panicked");
    assert_eq!(client.get("/global/db").send_blocking().status(), 409, "the server keeps serving");
}

#[test]
fn an_answer_after_the_body_is_written_as_any_other() {
    let client = client();
    let res = client.post("/global/after-body").body("four").send_blocking();
    assert_eq!(res.status(), 200);
    assert_eq!(res.header("content-type"), Some("application/json"));
    assert_eq!(res.json::<Value>()["id"], 4);
    // The mapped error, as text for a client that takes only text.
    let res = client.post("/global/after-body").body("none").accept("text/plain").send_blocking();
    assert_eq!(res.status(), 409);
    assert_eq!(res.header("content-type"), Some("text/plain; charset=utf-8"));
    assert!(res.text().contains("global database: none"), "{}", res.text());
}

// ---- #[valid] -------------------------------------------------------------------------

/// `#[valid]` entities, checked with garde (feature `validation`).
#[cfg(feature = "validation")]
mod valid {
    use serde::Deserialize;

    use super::*;

    #[derive(Deserialize, garde::Validate)]
    struct NewUser {
        #[garde(length(min = 1, max = 10))]
        name: String,
        #[garde(range(min = 18))]
        age: u8,
        #[garde(dive)]
        address: Address,
    }

    #[derive(Deserialize, garde::Validate)]
    struct Address {
        #[garde(length(min = 2))]
        city: String,
    }

    #[derive(Default)]
    struct Users;

    #[restlight::path("/valid")]
    impl Users {
        #[post("/users")]
        #[consumes("application/json")]
        async fn create(&self, #[valid] user: NewUser) -> String {
            format!("created {}", user.name)
        }
    }

    #[test]
    fn invalid_entities_get_400_with_every_violation() {
        let client = client();
        let ok = serde_json::json!({"name": "Ada", "age": 36, "address": {"city": "London"}});
        let res = client.post("/valid/users").json(&ok).send_blocking();
        assert_eq!((res.status().as_u16(), res.text()), (200, "created Ada".to_owned()));

        let bad = serde_json::json!({"name": "", "age": 3, "address": {"city": "L"}});
        let res = client.post("/valid/users").json(&bad).send_blocking();
        assert_eq!(res.status(), 400);
        let body = res.json::<Value>();
        assert_eq!(body["detail"], "the entity `user` is invalid: 3 violations");
        let mut fields: Vec<&str> =
            body["violations"].as_array().unwrap().iter().map(|v| v["field"].as_str().unwrap()).collect();
        fields.sort_unstable();
        assert_eq!(fields, ["address.city", "age", "name"]);
        assert!(body["violations"].as_array().unwrap().iter().all(|v| !v["message"].as_str().unwrap().is_empty()));
    }
}
