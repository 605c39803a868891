//! One engine, two front ends: the README's users resource written with the
//! JAX-RS attributes and as a Spring controller yields the same route table
//! and the same answers, errors included, to a table of requests.

use restlight::prelude::*;
use restlight::test::MockClient;
use serde::{Deserialize, Serialize};

/// A user.
#[derive(Debug, Serialize, Deserialize, Clone)]
pub struct User {
    pub id: u64,
    pub name: String,
}

mod jaxrs {
    use super::*;
    use std::sync::Mutex;

    #[derive(Debug, Default)]
    pub struct Users {
        users: Mutex<Vec<User>>,
    }

    #[restlight::path("/users")]
    #[produces("application/json")]
    impl Users {
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

        #[get]
        #[path("/{id: \\d+}")]
        async fn get(&self, #[path_param("id")] id: u64) -> Result<User, HttpError> {
            let users = self.users.lock().unwrap();
            users.iter().find(|u| u.id == id).cloned().ok_or_else(|| HttpError::not_found(format!("no user {id}")))
        }

        #[post]
        #[consumes("application/json")]
        async fn create(&self, user: User) -> Created<User> {
            self.users.lock().unwrap().push(user.clone());
            Created(user)
        }

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
}

mod spring {
    use super::*;
    use std::sync::Mutex;

    #[derive(Debug, Default)]
    pub struct Users {
        users: Mutex<Vec<User>>,
    }

    #[restlight::rest_controller]
    #[request_mapping(path = "/users", produces = "application/json")]
    impl Users {
        #[get_mapping]
        async fn list(
            &self,
            #[request_param(name = "limit", default_value = "20")] limit: usize,
            #[request_header(name = "X-Tenant", required = false)] tenant: Option<String>,
        ) -> Vec<User> {
            let _ = tenant;
            self.users.lock().unwrap().iter().take(limit).cloned().collect()
        }

        #[get_mapping("/{id: \\d+}")]
        async fn get(&self, #[path_variable("id")] id: u64) -> Result<User, HttpError> {
            let users = self.users.lock().unwrap();
            users.iter().find(|u| u.id == id).cloned().ok_or_else(|| HttpError::not_found(format!("no user {id}")))
        }

        #[post_mapping(consumes = "application/json")]
        #[response_status(CREATED)]
        async fn create(&self, #[request_body] user: User) -> User {
            self.users.lock().unwrap().push(user.clone());
            user
        }

        #[delete_mapping(value = "/{id}")]
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
}

fn jaxrs_client() -> MockClient {
    Restlight::new().exclude_resource::<spring::Users>().mock().unwrap()
}

fn spring_client() -> MockClient {
    Restlight::new().exclude_resource::<jaxrs::Users>().mock().unwrap()
}

/// The routes as a user sees them, but for the source location; the
/// conditions as the listing shows them (parameters and headers: the
/// trailing-slash rule is the styles' one difference, tested below).
fn table(client: &MockClient) -> Vec<String> {
    client
        .app()
        .routes()
        .iter()
        .filter(|r| r.path.starts_with("/users"))
        .map(|r| {
            format!(
                "{} {} produces={:?} consumes={:?} on={} max_body={} timeout={:?} {} {:?} conditions=[{}]",
                r.method,
                r.path,
                r.produces,
                r.consumes,
                r.scheduler,
                r.max_body,
                r.timeout,
                r.name,
                r.interceptors,
                r.conditions
            )
        })
        .collect()
}

#[test]
fn both_styles_compile_to_the_same_route_table() {
    let (jaxrs, spring) = (table(&jaxrs_client()), table(&spring_client()));
    assert_eq!(jaxrs.len(), 4, "{jaxrs:#?}");
    assert_eq!(jaxrs, spring);
}

/// One request of the table: method, target, headers, body.
type Request = (&'static str, &'static str, &'static [(&'static str, &'static str)], &'static str);

const JSON: &[(&str, &str)] = &[("content-type", "application/json")];

/// The requests, in order: each sees the state the ones before it left.
const REQUESTS: &[Request] = &[
    ("GET", "/users", &[], ""),
    ("POST", "/users", JSON, r#"{"id":1,"name":"Ada"}"#),
    ("POST", "/users", JSON, r#"{"id":2,"name":"Grace"}"#),
    ("POST", "/users", &[("content-type", "text/plain")], "Ada"),
    ("POST", "/users", JSON, r#"{"id":"x"}"#),
    ("POST", "/users", JSON, "{"),
    ("GET", "/users", &[], ""),
    ("GET", "/users?limit=1", &[], ""),
    ("GET", "/users?limit=lots", &[], ""),
    ("GET", "/users", &[("x-tenant", "acme")], ""),
    ("GET", "/users", &[("accept", "text/html")], ""),
    ("GET", "/users", &[("accept", "text/plain")], ""),
    ("GET", "/users/1", &[], ""),
    ("GET", "/users/7", &[], ""),
    ("GET", "/users/abc", &[], ""),
    ("HEAD", "/users/1", &[], ""),
    ("OPTIONS", "/users/1", &[], ""),
    ("OPTIONS", "/users", &[], ""),
    ("PUT", "/users/1", JSON, "{}"),
    ("PATCH", "/users", JSON, "{}"),
    ("DELETE", "/users/1", &[], ""),
    ("DELETE", "/users/1", &[], ""),
    ("DELETE", "/users/abc", &[], ""),
    ("DELETE", "/users", &[], ""),
    ("GET", "/users/1", &[], ""),
    ("GET", "/users", &[], ""),
    ("GET", "/nothing", &[], ""),
    ("GET", "/users/1;a=b", &[], ""),
    ("GET", "/users/%zz", &[], ""),
];

fn answer(client: &MockClient, (method, target, headers, body): &Request) -> String {
    let mut req = client.request(method.parse().unwrap(), target);
    for (name, value) in *headers {
        req = req.header(name, value);
    }
    if !body.is_empty() {
        req = req.body(body.to_owned());
    }
    let res = req.send_blocking();
    let mut headers: Vec<String> = res
        .headers()
        .iter()
        .filter(|(name, _)| name.as_str() != "date")
        .map(|(name, value)| format!("{name}: {}", value.to_str().unwrap_or("?")))
        .collect();
    headers.sort();
    format!("{method} {target} -> {} {headers:?} {}", res.status(), res.text())
}

/// Where the styles differ on purpose: a trailing `/` is matched by the
/// JAX-RS route without it, and not by the Spring one (Spring 6's rule).
#[test]
fn a_trailing_slash_matches_in_jaxrs_and_not_in_spring() {
    let (jaxrs, spring) = (jaxrs_client(), spring_client());
    let post = |c: &MockClient, path: &str| {
        c.post(path).header("content-type", "application/json").body(r#"{"id":1,"name":"Ada"}"#).send_blocking()
    };
    assert_eq!(post(&jaxrs, "/users/").status(), 201);
    assert_eq!(post(&spring, "/users/").status(), 404);
    assert_eq!(post(&spring, "/users").status(), 201);
    assert_eq!(jaxrs.get("/users/1/").send_blocking().status(), 200);
    assert_eq!(spring.get("/users/1/").send_blocking().status(), 404);
    assert_eq!(spring.get("/users/1").send_blocking().status(), 200);
    let rule = |c: &MockClient| {
        let routes = c.app().routes();
        routes
            .iter()
            .filter(|r| r.path.starts_with("/users"))
            .map(|r| r.conditions.matches_trailing_slash())
            .collect::<Vec<_>>()
    };
    assert!(rule(&jaxrs).iter().all(|m| *m));
    assert!(rule(&spring).iter().all(|m| !*m));
}

#[test]
fn both_styles_answer_the_request_table_alike() {
    let (jaxrs, spring) = (jaxrs_client(), spring_client());
    let mut statuses = Vec::new();
    for request in REQUESTS {
        let (a, b) = (answer(&jaxrs, request), answer(&spring, request));
        assert_eq!(a, b);
        statuses.push(a.split(" -> ").nth(1).unwrap_or_default()[..3].to_owned());
    }
    // The table covers successes and each framework error.
    for status in ["200", "201", "204", "400", "404", "405", "406", "415"] {
        assert!(statuses.iter().any(|s| s == status), "no {status} in {statuses:?}");
    }
}
