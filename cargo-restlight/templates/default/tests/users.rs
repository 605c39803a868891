//! The users API and the actuator, in-process through the mock client.

use restlight::test::MockClient;
use serde_json::{json, Value};

use {{crate_name}}::app;
use {{crate_name}}::users::User;

fn client() -> MockClient {
    app().ignore_env().mock().expect("the service starts")
}

#[test]
fn a_created_user_is_listed_fetched_and_deleted() {
    let client = client();
    let created = client
        .post("/users")
        .json(&json!({"name": "Ada"}))
        .send_blocking();
    assert_eq!(created.status(), 201);
    let ada: User = created.json();
    assert_eq!(ada.name, "Ada");

    let list: Vec<User> = client.get("/users").send_blocking().json();
    assert_eq!(list, vec![ada.clone()]);
    let fetched = client.get(&format!("/users/{}", ada.id)).send_blocking();
    assert_eq!(fetched.status(), 200);
    assert_eq!(fetched.json::<User>(), ada);

    let deleted = client.delete(&format!("/users/{}", ada.id)).send_blocking();
    assert_eq!(deleted.status(), 204);
    let gone = client.get(&format!("/users/{}", ada.id)).send_blocking();
    assert_eq!(gone.status(), 404);
}

#[test]
fn an_unknown_user_is_a_404_problem() {
    let res = client().get("/users/42").send_blocking();
    assert_eq!(res.status(), 404);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    let problem: Value = res.json();
    assert_eq!(problem["status"], 404);
    assert_eq!(problem["detail"], "no user with id 42");
}

#[test]
fn bad_input_is_a_400_problem() {
    let client = client();
    let empty = client
        .post("/users")
        .json(&json!({"name": " "}))
        .send_blocking();
    assert_eq!(empty.status(), 400);
    assert_eq!(empty.json::<Value>()["field"], "name");
    let not_a_number = client.get("/users/abc").send_blocking();
    assert_eq!(not_a_number.status(), 400);
    let not_json = client
        .post("/users")
        .content_type("text/plain")
        .body("Ada")
        .send_blocking();
    assert_eq!(not_json.status(), 415);
}

#[test]
fn the_list_is_limited() {
    let client = client();
    for name in ["Ada", "Grace", "Barbara"] {
        client
            .post("/users")
            .json(&json!({"name": name}))
            .send_blocking();
    }
    let two: Vec<User> = client.get("/users?limit=2").send_blocking().json();
    let names: Vec<&str> = two.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Grace"]);
}

#[test]
fn health_probes_answer_up() {
    let client = client();
    for path in [
        "/actuator/health",
        "/actuator/health/liveness",
        "/actuator/health/readiness",
    ] {
        let res = client.get(path).send_blocking();
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(res.json::<Value>()["status"], "UP", "{path}");
    }
}

#[test]
fn the_configuration_file_is_valid() {
    let app = app()
        .config_file({{crate_name}}::CONFIG_FILE)
        .expect("restlight.toml parses")
        .ignore_env()
        .build()
        .expect("the service starts with it");
    assert!(app.routes().get("GET", "/actuator/metrics").is_some());
}

#[test]
fn the_route_table_lists_each_route_with_its_source() {
    let app = app().ignore_env().build().expect("the service starts");
    let table = app.routes().to_string();
    let routes = [
        ("GET", "/users"),
        ("POST", "/users"),
        ("GET", "/users/{id}"),
        ("DELETE", "/users/{id}"),
        ("GET", "/actuator/health/readiness"),
    ];
    for (method, path) in routes {
        let listed = table
            .lines()
            .any(|line| line.split_whitespace().take(2).eq([method, path]));
        assert!(listed, "{method} {path} is not in\n{table}");
    }
    assert!(table.starts_with("METHOD"), "{table}");
    assert!(table.contains("src/users.rs:"), "{table}");
}
