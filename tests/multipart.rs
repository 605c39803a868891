//! `multipart/form-data` over real sockets: text fields and files read as
//! they arrive, spooled uploads, the per-file, per-request and field-count
//! limits (413), a body that is not a form (415), and a large file streamed
//! through a route whose limits are raised.

mod support;

use std::path::PathBuf;

use reqwest::multipart::{Form, Part};
use restlight::prelude::*;
use serde_json::{json, Value};
use support::{http1, TestServer};

#[derive(Default)]
struct Forms;

#[restlight::path("/forms")]
impl Forms {
    /// Text fields are echoed, `age` parsed; the file `doc` is spooled to
    /// disk, any other file read in memory.
    #[post]
    async fn upload(&self, mut form: Multipart) -> Result<Value, HttpError> {
        let mut out = serde_json::Map::new();
        while let Some(field) = form.next_field().await? {
            let name = field.name().to_owned();
            let value = if name == "age" {
                json!(field.parse::<u32>().await?)
            } else if name == "doc" {
                let file_name = field.file_name().map(str::to_owned);
                let content_type = field.content_type().map(str::to_owned);
                let file = field.spool().await?;
                let content = std::fs::read_to_string(file.path()).unwrap();
                json!({
                    "fileName": file_name, "contentType": content_type, "size": file.size(),
                    "path": file.path(), "content": content, "spooledName": file.file_name(),
                })
            } else if field.is_file() {
                let file_name = field.file_name().map(str::to_owned);
                let bytes = field.bytes().await?;
                json!({ "fileName": file_name, "size": bytes.len() })
            } else {
                json!(field.text().await?)
            };
            out.insert(name, value);
        }
        Ok(Value::Object(out))
    }

    #[post("/small")]
    async fn small(&self, form: Multipart) -> Result<String, HttpError> {
        drain(form.with_limits(MultipartLimits::default().per_file(1024))).await
    }

    #[post("/total")]
    async fn total(&self, form: Multipart) -> Result<String, HttpError> {
        drain(form.with_limits(MultipartLimits::default().per_request(4096))).await
    }

    #[post("/few")]
    async fn few(&self, form: Multipart) -> Result<String, HttpError> {
        drain(form.with_limits(MultipartLimits::default().max_fields(2))).await
    }

    /// A file larger than the default limits, counted chunk by chunk.
    #[post("/large")]
    #[max_body("32MiB")]
    async fn large(&self, form: Multipart) -> Result<String, HttpError> {
        let limits = MultipartLimits::default().per_file(24 << 20).per_request(32 << 20);
        drain(form.with_limits(limits)).await
    }
}

/// Reads every field chunk by chunk: `name=bytes` pairs.
async fn drain(mut form: Multipart) -> Result<String, HttpError> {
    let mut out = Vec::new();
    while let Some(mut field) = form.next_field().await? {
        let mut size = 0;
        while let Some(chunk) = field.chunk().await {
            size += chunk?.len();
        }
        out.push(format!("{}={size}", field.name()));
    }
    Ok(out.join(","))
}

fn server() -> TestServer {
    let built = post("/built").stream_body().handle(|ctx: RequestContext| async move {
        let form = Multipart::from_request(&ctx)?;
        drain(form).await
    });
    // Not streaming: the form comes from the body read in full.
    let buffered =
        post("/buffered").handle(|ctx: RequestContext| async move { drain(Multipart::from_request(&ctx)?).await });
    TestServer::start(Restlight::new().route(built).route(buffered))
}

async fn send(server: &TestServer, path: &str, form: Form) -> (u16, String) {
    let res = http1().post(server.url(path)).multipart(form).send().await.expect("request sent");
    (res.status().as_u16(), res.text().await.unwrap())
}

fn problem(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

#[tokio::test]
async fn text_fields_and_files_arrive_and_a_spooled_file_is_removed_after_the_request() {
    let server = server();
    let form = Form::new()
        .text("title", "Quarterly report")
        .text("age", " 42 ")
        .part("doc", Part::text("hello from a file").file_name("doc.txt").mime_str("text/plain").unwrap())
        .part("image", Part::bytes(vec![9_u8; 5000]).file_name("img.bin"));
    let (status, body) = send(&server, "/forms", form).await;
    assert_eq!(status, 200, "{body}");
    let v = problem(&body);
    assert_eq!(v["title"], "Quarterly report");
    assert_eq!(v["age"], 42);
    assert_eq!(v["doc"]["fileName"], "doc.txt");
    assert_eq!(v["doc"]["spooledName"], "doc.txt");
    assert_eq!(v["doc"]["contentType"], "text/plain");
    assert_eq!(v["doc"]["size"], 17);
    assert_eq!(v["doc"]["content"], "hello from a file");
    assert_eq!(v["image"], json!({ "fileName": "img.bin", "size": 5000 }));
    let spooled = PathBuf::from(v["doc"]["path"].as_str().unwrap());
    assert!(!spooled.exists(), "the spooled file {} is removed once dropped", spooled.display());
}

#[tokio::test]
async fn a_field_that_does_not_parse_is_400_naming_it() {
    let server = server();
    let (status, body) = send(&server, "/forms", Form::new().text("age", "old")).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(problem(&body)["field"], "age");
}

#[tokio::test]
async fn a_file_past_the_per_file_limit_is_413_naming_the_limit_and_the_field() {
    let server = server();
    let ok = Form::new().part("small", Part::bytes(vec![1_u8; 1024]).file_name("a"));
    assert_eq!(send(&server, "/forms/small", ok).await, (200, "small=1024".to_owned()));

    let form = Form::new().text("note", "hi").part("big", Part::bytes(vec![1_u8; 1025]).file_name("b"));
    let (status, body) = send(&server, "/forms/small", form).await;
    assert_eq!(status, 413, "{body}");
    let p = problem(&body);
    assert_eq!(p["limitName"], "perFile");
    assert_eq!(p["limit"], 1024);
    assert_eq!(p["field"], "big");
}

#[tokio::test]
async fn a_form_past_the_per_request_limit_is_413_naming_the_limit_and_the_field() {
    let server = server();
    let form = Form::new()
        .part("one", Part::bytes(vec![1_u8; 3000]).file_name("1"))
        .part("two", Part::bytes(vec![2_u8; 3000]).file_name("2"));
    let (status, body) = send(&server, "/forms/total", form).await;
    assert_eq!(status, 413, "{body}");
    let p = problem(&body);
    assert_eq!(p["limitName"], "perRequest");
    assert_eq!(p["limit"], 4096);
    // The field being read when the limit passed, if the parser had reached
    // one: it reads ahead whatever has arrived, here likely the whole body.
    assert!(matches!(p.get("field").and_then(Value::as_str), None | Some("one" | "two")), "{p}");
}

#[tokio::test]
async fn too_many_fields_is_413() {
    let server = server();
    let form = Form::new().text("a", "1").text("b", "2").text("c", "3");
    let (status, body) = send(&server, "/forms/few", form).await;
    assert_eq!(status, 413, "{body}");
    let p = problem(&body);
    assert_eq!(p["limitName"], "maxFields");
    assert_eq!(p["field"], "c");
}

#[tokio::test]
async fn a_body_that_is_not_a_form_is_415() {
    let server = server();
    for (content_type, path) in
        [("application/json", "/forms"), ("multipart/form-data", "/forms"), ("text/plain", "/built")]
    {
        let res = http1()
            .post(server.url(path))
            .header("content-type", content_type)
            .body("{}")
            .send()
            .await
            .expect("request sent");
        assert_eq!(res.status(), 415, "{content_type} on {path}");
        let p: Value = res.json().await.unwrap();
        assert_eq!(p["consumable"], json!(["multipart/form-data"]));
    }
    let res = http1().post(server.url("/forms")).body("{}").send().await.unwrap();
    assert_eq!(res.status(), 415, "no Content-Type");
}

#[tokio::test]
async fn a_malformed_form_is_400() {
    let server = server();
    let res = http1()
        .post(server.url("/forms"))
        .header("content-type", "multipart/form-data; boundary=XYZ")
        .body("--XYZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno closing boundary")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn routes_built_in_code_read_forms_streamed_or_buffered() {
    let server = server();
    for path in ["/built", "/buffered"] {
        let form = Form::new().text("a", "xyz").part("f", Part::bytes(vec![0_u8; 70_000]).file_name("f"));
        assert_eq!(send(&server, path, form).await, (200, "a=3,f=70000".to_owned()), "{path}");
    }
}

#[tokio::test]
async fn a_large_file_streams_through_a_route_with_raised_limits() {
    let server = server();
    let size = 20 << 20;
    // Sent as a stream of 64 KiB chunks, so neither side holds it whole.
    let chunks = futures_chunks(size, 64 << 10);
    let part = Part::stream_with_length(reqwest::Body::wrap_stream(chunks), size as u64).file_name("big.bin");
    let form = Form::new().text("name", "big").part("file", part);
    assert_eq!(send(&server, "/forms/large", form).await, (200, format!("name=3,file={size}")));

    // One byte over the default per-file limit of 16 MiB. (Just over, so
    // that the server has read nearly all of the body when it answers: a
    // client still writing megabytes when the server answers and closes
    // may meet the reset before it reads the 413.)
    let part = Part::bytes(vec![0_u8; (16 << 20) + 1]).file_name("big.bin");
    let (status, body) = send(&server, "/forms", Form::new().part("file", part)).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(problem(&body)["limitName"], "perFile");
}

fn futures_chunks(total: usize, chunk: usize) -> impl futures_util::Stream<Item = std::io::Result<Vec<u8>>> + Send {
    let mut left = total;
    futures_util::stream::iter(std::iter::from_fn(move || {
        let n = left.min(chunk);
        left -= n;
        (n > 0).then(|| Ok(vec![7_u8; n]))
    }))
}
