// The users contract, shared by `contract.rs` (the JAX-RS example) and
// `spring_contract.rs` (the Spring one): included after `mod support;`,
// `mod users;` and `const TRAILING_SLASH`, the status of `GET /users/2/`.

use restlight::prelude::*;
use support::Transport;

#[restlight::get("/boom")]
async fn boom() -> String {
    panic!("the handler failed")
}

fn app() -> Restlight {
    users::app().max_body_size(1024)
}

const JSON: (&str, &str) = ("content-type", "application/json");

async fn scenario(t: Transport) {
    let hello = t.call("GET", "/hello", &[], "").await;
    assert_eq!((hello.status, hello.body.as_str()), (200, "Hello Restlight!"));
    assert_eq!(hello.header("content-type"), Some("text/plain"));

    let ping = t.call("GET", "/ping", &[], "").await;
    assert_eq!((ping.status, ping.body.as_str()), (200, "pong"));
    assert_eq!(ping.header("content-type"), Some("text/plain; charset=utf-8"));

    let empty = t.call("GET", "/users", &[], "").await;
    assert_eq!((empty.status, empty.body.as_str()), (200, "[]"));
    assert_eq!(empty.header("content-type"), Some("application/json"));

    for (id, name) in [(1, "Ada"), (2, "Grace"), (3, "Barbara")] {
        let body = format!(r#"{{"id":{id},"name":"{name}"}}"#);
        let created = t.call("POST", "/users", &[JSON], &body).await;
        assert_eq!(created.status, 201, "{}", created.body);
        assert_eq!(created.json(), serde_json::json!({"id": id, "name": name}));
    }

    let two = t.call("GET", "/users?limit=2", &[("x-tenant", "acme")], "").await;
    assert_eq!(two.json(), serde_json::json!([{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]));
    let one = t.call("GET", "/users/2", &[], "").await;
    assert_eq!(one.json(), serde_json::json!({"id":2,"name":"Grace"}));
    let slash = t.call("GET", "/users/2/", &[], "").await;
    assert_eq!(slash.status, TRAILING_SLASH, "a trailing slash: 200 in JAX-RS, 404 in Spring 6");

    // 404: the problem names the user; a non-numeric id matches no template.
    let missing = t.call("GET", "/users/9", &[], "").await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header("content-type"), Some("application/problem+json"));
    assert_eq!(missing.json()["detail"], "no user 9");
    // `/users/abc` fails `{id: \d+}` but matches `/users/{id}`, which has only DELETE.
    let abc = t.call("GET", "/users/abc", &[], "").await;
    assert_eq!(abc.status, 405);
    assert_eq!(abc.header("allow"), Some("DELETE, OPTIONS"));
    assert_eq!(t.call("GET", "/nowhere", &[], "").await.status, 404);

    // 400: bad query value, malformed entity with its position.
    let bad = t.call("GET", "/users?limit=lots", &[], "").await;
    assert_eq!(bad.status, 400);
    let problem = bad.json();
    assert_eq!(problem["parameter"], "limit");
    assert_eq!(problem["source"], "query");
    assert_eq!(problem["value"], "lots");
    let malformed = t.call("POST", "/users", &[JSON], r#"{"id":"x","name":"A"}"#).await;
    assert_eq!(malformed.status, 400);
    assert_eq!(malformed.json()["path"], "id", "{}", malformed.body);

    // 413 past the entity limit, 400 for a NUL or a bad escape in the path.
    let big = format!(r#"{{"id":9,"name":"{}"}}"#, "x".repeat(2000));
    let too_large = t.call("POST", "/users", &[JSON], &big).await;
    assert_eq!(too_large.status, 413);
    assert_eq!(too_large.json()["limit"], 1024);
    assert_eq!(t.call("GET", "/users/1%00", &[], "").await.status, 400);
    assert_eq!(t.call("GET", "/users/%zz", &[], "").await.status, 400);

    // 405 with Allow, 415, 406.
    let put = t.call("PUT", "/users", &[], "").await;
    assert_eq!(put.status, 405);
    let allow = put.header("allow").unwrap().to_owned();
    for m in ["GET", "POST", "HEAD", "OPTIONS"] {
        assert!(allow.contains(m), "Allow: {allow}");
    }
    assert_eq!(t.call("POST", "/users", &[("content-type", "text/csv")], "1,A").await.status, 415);
    assert_eq!(t.call("GET", "/users", &[("accept", "text/html")], "").await.status, 406);

    // HEAD from GET, OPTIONS with Allow.
    let head = t.call("HEAD", "/users/1", &[], "").await;
    assert_eq!((head.status, head.body.as_str()), (200, ""));
    assert_eq!(head.header("content-type"), Some("application/json"));
    let options = t.call("OPTIONS", "/users/1", &[], "").await;
    assert_eq!(options.status, 200);
    // Both `/users/{id: \d+}` (GET) and `/users/{id}` (DELETE) match.
    assert_eq!(options.header("allow"), Some("GET, HEAD, DELETE, OPTIONS"));

    // The plain fn on the business pool; a second delete finds nothing.
    assert_eq!(t.call("DELETE", "/users/1", &[], "").await.status, 204);
    assert_eq!(t.call("DELETE", "/users/1", &[], "").await.status, 404);

    // A panic is a 500 and the server keeps serving.
    let boom = t.call("GET", "/boom", &[], "").await;
    assert_eq!(boom.status, 500);
    assert_eq!(boom.header("content-type"), Some("application/problem+json"));
    assert_eq!(t.call("GET", "/ping", &[], "").await.status, 200);

    // A text-only client gets problems as text.
    let text = t.call("GET", "/nowhere", &[("accept", "text/plain")], "").await;
    assert_eq!(text.status, 404);
    assert!(text.header("content-type").unwrap().starts_with("text/plain"));
}

#[tokio::test]
async fn contract_through_the_mock_client() {
    scenario(Transport::mock(app())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contract_over_http1() {
    scenario(Transport::http1(app())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contract_over_h2c() {
    scenario(Transport::h2c(app())).await;
}

#[test]
fn the_contract_routes_pass_the_startup_checks() {
    restlight::test::check_routes().unwrap();
    let app = app().build().unwrap();
    let routes: Vec<_> = app.routes().iter().map(|r| (r.method.clone(), r.path.clone(), r.scheduler.clone())).collect();
    assert!(routes.contains(&("DELETE".into(), "/users/{id}".into(), "biz".into())), "{routes:?}");
    assert!(routes.contains(&("GET".into(), "/users/{id: \\d+}".into(), "io".into())), "{routes:?}");
}
