//! Whole requests through the application (the mock client's path: routing,
//! negotiation, every parameter source and its conversion, percent and
//! matrix decoding, JSON, form and multipart bodies, the exception path).
//!
//! The input is a request written as HTTP/1.1 text: `METHOD target`, then
//! `name: value` header lines, an empty line and the body, so that seeds
//! are requests copied from the tests. Lines that do not parse are
//! skipped: the target only sees what hyper would have handed over.
//!
//! Property: nothing panics and no answer is a 5xx: whatever a client
//! sends, a malformed request is the client's error (4xx), never the
//! server's.
#![no_main]

use std::sync::OnceLock;

use bytes::Bytes;
use http::{HeaderName, HeaderValue, Method, Request};
use http_body_util::Full;
use libfuzzer_sys::fuzz_target;
use restlight::prelude::*;
use restlight::{App, PathSegment};
use serde::{Deserialize, Serialize};

#[derive(Default)]
struct Fuzzed;

#[derive(Debug, Serialize, Deserialize)]
struct Item {
    name: String,
    count: u32,
    tags: Vec<String>,
}

#[derive(Debug, BeanParam)]
struct Paging {
    #[query_param]
    #[default_value("20")]
    limit: usize,
    #[query_param("from")]
    offset: Option<u64>,
    #[header_param]
    x_tenant: Option<String>,
    #[cookie_param("session")]
    session: Option<String>,
    #[path_param]
    shop: String,
    #[matrix_param]
    color: Option<String>,
}

#[restlight::path("/f")]
impl Fuzzed {
    #[get]
    #[path("/q")]
    #[produces("text/plain")]
    async fn query(
        &self,
        #[query_param] n: Option<i64>,
        #[query_param] x: Option<f64>,
        #[query_param] flag: Option<bool>,
        #[query_param] tag: Vec<u16>,
        #[query_param]
        #[default_value("dflt")]
        word: String,
        #[header_param("X-Count")] count: Option<u32>,
        #[cookie_param("s")] session: Option<String>,
    ) -> String {
        format!("{n:?} {x:?} {flag:?} {tag:?} {word} {count:?} {session:?}")
    }

    #[get]
    #[path("/p/{id: \\d+}/{name}.{ext}")]
    #[produces("text/plain")]
    async fn path(&self, #[path_param] id: u64, #[path_param] name: String, #[path_param] ext: String) -> String {
        format!("{id} {name} {ext}")
    }

    #[get]
    #[path("/m/{seg}/end")]
    #[produces("text/plain")]
    async fn matrix(
        &self,
        #[path_param("seg")] seg: PathSegment,
        #[matrix_param] color: Option<String>,
        #[matrix_param] size: Vec<u8>,
    ) -> String {
        format!("{} {:?} {color:?} {size:?}", seg.path(), seg.matrix_params().count())
    }

    #[get]
    #[path("/files/{path: .*}")]
    #[produces("text/plain")]
    async fn files(&self, #[path_param] path: String) -> String {
        path
    }

    #[get]
    #[path("/shops/{shop}/items")]
    #[produces("text/plain")]
    async fn bean(&self, #[bean_param] page: Paging) -> String {
        format!(
            "{} {} {:?} {:?} {:?} {:?}",
            page.shop, page.limit, page.offset, page.x_tenant, page.session, page.color
        )
    }

    #[post]
    #[path("/json")]
    #[consumes("application/json")]
    #[produces("application/json")]
    async fn json(&self, item: Item) -> Item {
        item
    }

    #[post]
    #[path("/form")]
    #[consumes("application/x-www-form-urlencoded")]
    #[produces("text/plain")]
    async fn form(&self, #[form_param] a: Option<String>, #[form_param] n: Option<u16>) -> String {
        format!("{a:?} {n:?}")
    }

    #[post]
    #[path("/text")]
    #[consumes("text/plain")]
    #[produces("text/plain")]
    async fn text(&self, body: String) -> String {
        body
    }

    #[post]
    #[path("/multi")]
    #[produces("text/plain")]
    async fn multipart(&self, mut form: Multipart) -> Result<String, HttpError> {
        let mut out = String::new();
        while let Some(field) = form.next_field().await? {
            let name = field.name().to_owned();
            let size = if field.is_file() { field.bytes().await?.len() } else { field.text().await?.len() };
            out.push_str(&format!("{name}={size};"));
        }
        Ok(out)
    }

    #[get]
    #[path("/neg")]
    #[produces("application/json")]
    async fn neg_json(&self) -> Item {
        Item { name: "n".into(), count: 1, tags: vec![] }
    }

    #[get]
    #[path("/neg")]
    #[produces("text/plain;qs=0.5")]
    async fn neg_text(&self) -> String {
        "n".into()
    }
}

/// A request as HTTP/1.1 text; `None` when the request line is not one
/// hyper would accept.
fn read(input: &[u8]) -> Option<Request<Full<Bytes>>> {
    let split = input.windows(2).position(|w| w == b"\n\n");
    let (head, body) = match split {
        Some(at) => (&input[..at], &input[at + 2..]),
        None => (input, &[][..]),
    };
    let head = std::str::from_utf8(head).ok()?;
    let mut lines = head.split('\n');
    let (method, target) = lines.next()?.split_once(' ')?;
    let method = Method::from_bytes(method.as_bytes()).ok()?;
    let mut req = Request::builder().method(method).uri(target).body(Full::new(Bytes::copy_from_slice(body))).ok()?;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let (Ok(name), Ok(value)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(value.trim()))
        else {
            continue;
        };
        req.headers_mut().append(name, value);
    }
    Some(req)
}

struct Fixture {
    runtime: tokio::runtime::Runtime,
    app: App,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| Fixture {
        runtime: tokio::runtime::Builder::new_current_thread().build().expect("runtime"),
        app: Restlight::new().build().expect("the fuzzed application starts"),
    })
}

fuzz_target!(|input: &[u8]| {
    let Some(req) = read(input) else { return };
    let what = format!("{} {}", req.method(), req.uri());
    let fixture = fixture();
    let res = fixture.runtime.block_on(fixture.app.dispatch(req, None));
    assert!(!res.status().is_server_error(), "{} for {what}", res.status());
});
