//! `#[request_part]` (Spring's `@RequestPart`) through the mock client: a
//! part as text, bytes, a `MultipartFile` or a value decoded by the part's
//! Content-Type; `Option` for a part that may be absent; the errors a
//! client sees (a missing part, a malformed one, a body that is not a
//! form); the same attribute in a JAX-RS resource; and the parts in the
//! OpenAPI document's `multipart/form-data` request body.

use restlight::openapi::OpenApiVersion;
use restlight::prelude::*;
use restlight::test::MockClient;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct Meta {
    title: String,
    tags: Vec<String>,
}

#[derive(Default)]
struct Uploads;

#[restlight::rest_controller]
#[request_mapping(path = "/uploads", produces = "application/json")]
impl Uploads {
    /// A JSON part, a file and an optional text part.
    #[post_mapping("/profile")]
    async fn profile(
        &self,
        #[request_part("meta")] meta: Meta,
        #[request_part(name = "avatar")] avatar: MultipartFile,
        #[request_part(value = "note", required = false)] note: Option<String>,
    ) -> Value {
        json!({
            "title": meta.title,
            "tags": meta.tags,
            "avatar": {
                "name": avatar.name(),
                "fileName": avatar.file_name(),
                "contentType": avatar.content_type(),
                "size": avatar.len(),
            },
            "note": note,
        })
    }

    /// Parts named by their parameters: bytes and text.
    #[post_mapping("/raw")]
    async fn raw(&self, #[request_part] data: Vec<u8>, #[request_part] label: String) -> Value {
        json!({ "size": data.len(), "label": label })
    }
}

#[derive(Default)]
struct Files;

/// The same attribute in a JAX-RS resource.
#[restlight::path("/files")]
impl Files {
    #[post]
    #[produces("text/plain")]
    async fn store(&self, #[request_part("file")] file: bytes::Bytes, #[request_part] owner: Option<String>) -> String {
        format!("{} bytes for {}", file.len(), owner.as_deref().unwrap_or("nobody"))
    }
}

const BOUNDARY: &str = "b0undary-restlight";

/// One part: name, file name, Content-Type, content.
type Part<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a [u8]);

fn multipart(parts: &[Part<'_>]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, file_name, content_type, content) in parts {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        let mut disposition = format!("Content-Disposition: form-data; name=\"{name}\"");
        if let Some(f) = file_name {
            disposition.push_str(&format!("; filename=\"{f}\""));
        }
        body.extend_from_slice(disposition.as_bytes());
        body.extend_from_slice(b"\r\n");
        if let Some(ct) = content_type {
            body.extend_from_slice(format!("Content-Type: {ct}\r\n").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

fn client() -> MockClient {
    Restlight::new().mock().unwrap()
}

fn send(client: &MockClient, path: &str, parts: &[Part<'_>]) -> restlight::test::MockResponse {
    client
        .post(path)
        .header("content-type", &format!("multipart/form-data; boundary={BOUNDARY}"))
        .body(multipart(parts))
        .send_blocking()
}

const META: Part<'static> = ("meta", None, Some("application/json"), br#"{"title":"me","tags":["a","b"]}"#);
const AVATAR: Part<'static> = ("avatar", Some("me.png"), Some("image/png"), b"\x89PNG\r\n\x1a\n....");

#[test]
fn parts_are_read_by_their_types() {
    let client = client();
    let res = send(&client, "/uploads/profile", &[META, AVATAR, ("note", None, None, b"hello")]);
    assert_eq!(res.status(), 200, "{}", res.text());
    assert_eq!(
        res.json::<Value>(),
        json!({
            "title": "me",
            "tags": ["a", "b"],
            "avatar": { "name": "avatar", "fileName": "me.png", "contentType": "image/png", "size": 12 },
            "note": "hello",
        })
    );
}

#[test]
fn an_optional_part_that_is_absent_is_none_and_order_does_not_matter() {
    let client = client();
    let res = send(&client, "/uploads/profile", &[AVATAR, META]);
    assert_eq!(res.status(), 200, "{}", res.text());
    assert_eq!(res.json::<Value>()["note"], Value::Null);
}

#[test]
fn a_part_without_content_type_is_decoded_as_json() {
    let client = client();
    let res = send(&client, "/uploads/profile", &[("meta", None, None, br#"{"title":"t","tags":[]}"#), AVATAR]);
    assert_eq!(res.status(), 200, "{}", res.text());
    assert_eq!(res.json::<Value>()["title"], "t");
}

#[test]
fn a_missing_required_part_is_400_naming_it() {
    let client = client();
    let res = send(&client, "/uploads/profile", &[META]);
    assert_eq!(res.status(), 400);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    let problem: Value = res.json();
    assert_eq!(problem["parameter"], "avatar");
    assert_eq!(problem["source"], "part");
    // The wording and fields of every missing parameter (`missing required
    // query parameter `q``), from the same function.
    assert_eq!(problem["detail"], "missing required part `avatar`", "{problem}");
    let mut fields: Vec<&String> = problem.as_object().unwrap().keys().collect();
    fields.sort();
    assert_eq!(fields, ["detail", "parameter", "source", "status", "title", "type"], "{problem}");
}

#[test]
fn a_malformed_json_part_is_400_naming_the_part_and_the_field() {
    let client = client();
    let res = send(&client, "/uploads/profile", &[("meta", None, Some("application/json"), br#"{"title":1}"#), AVATAR]);
    assert_eq!(res.status(), 400);
    let problem: Value = res.json();
    assert_eq!(problem["parameter"], "meta");
    assert_eq!(problem["path"], "title");
    assert!(problem["detail"].as_str().unwrap().contains("part `meta`"), "{problem}");
}

#[test]
fn a_part_whose_content_type_no_codec_reads_is_415() {
    let client = client();
    let res = send(&client, "/uploads/profile", &[("meta", None, Some("application/xml"), b"<meta/>"), AVATAR]);
    assert_eq!(res.status(), 415);
    let problem: Value = res.json();
    assert_eq!(problem["contentType"], "application/xml");
    assert!(problem["detail"].as_str().unwrap().contains("part `meta`"), "{problem}");
}

#[test]
fn a_body_that_is_not_multipart_is_415() {
    let client = client();
    let res = client.post("/uploads/profile").json(&json!({ "title": "x" })).send_blocking();
    assert_eq!(res.status(), 415);
    assert_eq!(res.json::<Value>()["consumable"], json!(["multipart/form-data"]));
}

#[test]
fn parts_named_by_the_parameters_read_bytes_and_text() {
    let client = client();
    let res = send(
        &client,
        "/uploads/raw",
        &[("data", Some("x.bin"), None, &[0, 159, 146, 150]), ("label", None, None, b"x")],
    );
    assert_eq!(res.status(), 200, "{}", res.text());
    assert_eq!(res.json::<Value>(), json!({ "size": 4, "label": "x" }));
}

#[test]
fn a_text_part_that_is_not_utf8_is_400_naming_it() {
    let client = client();
    let res = send(&client, "/uploads/raw", &[("data", None, None, b"x"), ("label", None, None, &[0, 159, 146, 150])]);
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<Value>()["parameter"], "label");
}

#[test]
fn a_jaxrs_resource_reads_parts_too() {
    let client = client();
    let res =
        send(&client, "/files", &[("file", Some("a.txt"), Some("text/plain"), b"abc"), ("owner", None, None, b"ada")]);
    assert_eq!(res.text(), "3 bytes for ada");
    let res = send(&client, "/files", &[("file", Some("a.txt"), None, b"abcd")]);
    assert_eq!(res.text(), "4 bytes for nobody");
    let res = send(&client, "/files", &[("owner", None, None, b"ada")]);
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<Value>()["parameter"], "file");
}

#[test]
fn the_parts_are_the_properties_of_the_multipart_request_body() {
    let app = Restlight::new().build().unwrap();
    let doc = app.openapi().to_value(OpenApiVersion::V3_0);
    let body = &doc["paths"]["/uploads/profile"]["post"]["requestBody"];
    assert_eq!(body["required"], true);
    let form = &body["content"]["multipart/form-data"];
    let schema = &form["schema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["properties"]["meta"]["$ref"], "#/components/schemas/Meta");
    assert_eq!(schema["properties"]["avatar"], json!({ "type": "string", "format": "binary" }));
    assert_eq!(schema["properties"]["note"]["type"], "string");
    assert_eq!(schema["required"], json!(["meta", "avatar"]));
    assert_eq!(form["encoding"], json!({ "meta": { "contentType": "application/json" } }));
    assert!(doc["paths"]["/uploads/profile"]["post"]["parameters"].is_null());

    let doc = app.openapi().to_value(OpenApiVersion::V3_1);
    let schema = &doc["paths"]["/files"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"];
    assert_eq!(schema["required"], json!(["file"]));
    assert_eq!(schema["properties"]["owner"]["type"], "string");
}
