//! The OpenAPI document of the users example: checked in, and equal to
//! what the code generates; its operations are the router's.
//!
//! Regenerate the checked-in documents after changing the example with
//!
//! ```text
//! UPDATE_OPENAPI=1 cargo test --test openapi
//! ```

#[allow(dead_code)]
#[path = "../examples/users.rs"]
mod users;

use restlight::openapi::OpenApiVersion;

fn document() -> restlight::openapi::OpenApi {
    let app = users::app().build().unwrap();
    app.openapi().title("Users").version("1.0.0")
}

/// Compares `actual` with the file, or writes the file under `UPDATE_OPENAPI=1`.
fn assert_file(path: &str, actual: &str) {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&full, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&full).unwrap_or_default();
    if expected != actual {
        let mut diff = String::new();
        let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
        for i in 0..e.len().max(a.len()) {
            match (e.get(i), a.get(i)) {
                (Some(x), Some(y)) if x == y => {}
                (x, y) => {
                    if let Some(x) = x {
                        diff.push_str(&format!("{:>5} - {x}\n", i + 1));
                    }
                    if let Some(y) = y {
                        diff.push_str(&format!("{:>5} + {y}\n", i + 1));
                    }
                }
            }
        }
        panic!(
            "{path} differs from the document the code generates (- file, + code):\n{diff}\n\
             regenerate it with: UPDATE_OPENAPI=1 cargo test --test openapi"
        );
    }
}

#[test]
fn the_checked_in_documents_match_the_code() {
    let doc = document();
    assert_file("examples/openapi/users.json", &doc.to_json(OpenApiVersion::V3_1));
    assert_file("examples/openapi/users.yaml", &doc.to_yaml(OpenApiVersion::V3_1));
    assert_file("examples/openapi/users-3.0.json", &doc.to_json(OpenApiVersion::V3_0));
}

#[test]
fn the_documented_operations_are_the_routers() {
    let app = users::app().build().unwrap();
    let doc = app.openapi().to_value(OpenApiVersion::V3_1);
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            documented.push((method.to_uppercase(), path.clone()));
        }
    }
    documented.sort();
    // The router's templates without their regex constraints: `/users/{id: \d+}` is `/users/{id}`.
    let mut routed: Vec<(String, String)> =
        app.routes().iter().map(|r| (r.method.clone(), regex_free(&r.path))).collect();
    routed.sort();
    assert_eq!(documented, routed);
}

/// `/users/{id: \d+}` as `/users/{id}`.
fn regex_free(template: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let mut skipping = false;
    for c in template.chars() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    out.push('{');
                    continue;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    skipping = false;
                    out.push('}');
                    continue;
                }
            }
            ':' if depth == 1 => skipping = true,
            _ => {}
        }
        if depth >= 1 && (skipping || c == ' ') {
            continue;
        }
        out.push(c);
    }
    out
}

#[test]
fn the_document_and_the_ui_are_served_when_turned_on() {
    use restlight::openapi::OpenApiDocs;
    let client = users::app().openapi(OpenApiDocs::new().title("Users")).mock().unwrap();
    let json = client.get("/openapi.json").send_blocking();
    assert_eq!(json.status(), 200);
    assert_eq!(json.header("content-type"), Some("application/json"));
    let doc: serde_json::Value = serde_json::from_str(&json.text()).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Users");
    // The document's own endpoints are not in it.
    assert!(doc["paths"].get("/openapi.json").is_none());
    assert!(doc["paths"]["/users/{id}"]["get"].is_object());

    let yaml = client.get("/openapi.yaml").send_blocking();
    assert_eq!(yaml.status(), 200);
    assert_eq!(yaml.header("content-type"), Some("application/yaml"));
    assert!(yaml.text().contains("\"openapi\": \"3.1.0\""));

    let page = client.get("/swagger-ui").send_blocking();
    assert_eq!(page.status(), 200);
    assert!(page.text().contains("swagger-ui-bundle.js"), "{}", page.text());
    let bundle = client.get("/swagger-ui/swagger-ui-bundle.js").send_blocking();
    assert_eq!(bundle.status(), 200);
    assert!(bundle.text().len() > 100_000);

    // Routes added while serving are in the next document.
    client.app().add_route(restlight::get("/late").handle(|_| async { "late" })).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&client.get("/openapi.json").send_blocking().text()).unwrap();
    assert!(doc["paths"]["/late"]["get"].is_object());
}

#[cfg(feature = "config")]
#[test]
fn the_endpoints_are_off_unless_turned_on_and_follow_the_configuration() {
    let client = users::app().mock().unwrap();
    assert_eq!(client.get("/openapi.json").send_blocking().status(), 404);

    let file = std::env::temp_dir().join(format!("restlight-openapi-{}.toml", std::process::id()));
    std::fs::write(&file, "[openapi]\njson_path = \"/api-docs\"\nversion = \"3.0\"\nui_path = \"\"\n").unwrap();
    let client = users::app().config_file(&file).unwrap().mock().unwrap();
    std::fs::remove_file(&file).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&client.get("/api-docs").send_blocking().text()).unwrap();
    assert_eq!(doc["openapi"], "3.0.3");
    assert_eq!(client.get("/swagger-ui").send_blocking().status(), 404);
    assert_eq!(client.get("/openapi.yaml").send_blocking().status(), 200);
}
