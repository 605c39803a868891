//! Handlers that read nothing of the request (an `async fn` without
//! `.await` and without parameters besides `&self`, or a handler built with
//! `Handler::immediate_no_input`) answer exactly as the same handler does
//! when it reads something or waits: same status, headers and body, HEAD,
//! 405, 406, interceptors and filters, panics answered 500 with problem
//! details; through the mock client, HTTP/1.1 and h2c.
#![deny(warnings)]

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use restlight::filter::{FilterRequest, Next};
use restlight::prelude::*;
use restlight::Handler;
use serde::Serialize;
use support::{Answer, Transport};

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

fn boom() -> &'static str {
    // Called, not written in the handler: a macro call in its body would
    // make the macros treat the handler as one that may wait.
    panic!("a no-input handler failed")
}

async fn later() {
    tokio::task::yield_now().await;
}

/// Each answer three times: reading nothing (the no-input path), reading
/// a header it ignores (a context built), waiting (a boxed future).
#[derive(Default)]
struct Same;

#[restlight::path("/n")]
impl Same {
    #[get]
    #[path("/hello")]
    async fn hello(&self) -> &'static str {
        "Hello, World!"
    }

    #[get]
    #[path("/hello-reads")]
    async fn hello_reads(&self, #[header_param("x-unused")] _unused: Option<String>) -> &'static str {
        "Hello, World!"
    }

    #[get]
    #[path("/hello-waits")]
    async fn hello_waits(&self) -> &'static str {
        later().await;
        "Hello, World!"
    }

    #[get]
    #[path("/json")]
    #[produces("application/json")]
    async fn json(&self) -> Message {
        Message { message: "Hello, World!" }
    }

    #[get]
    #[path("/json-reads")]
    #[produces("application/json")]
    async fn json_reads(&self, #[header_param("x-unused")] _unused: Option<String>) -> Message {
        Message { message: "Hello, World!" }
    }

    #[get]
    #[path("/json-waits")]
    #[produces("application/json")]
    async fn json_waits(&self) -> Message {
        later().await;
        Message { message: "Hello, World!" }
    }

    #[get]
    #[path("/panics")]
    async fn panics(&self) -> &'static str {
        boom()
    }

    #[get]
    #[path("/panics-reads")]
    async fn panics_reads(&self, #[header_param("x-unused")] _unused: Option<String>) -> &'static str {
        boom()
    }

    #[get]
    #[path("/panics-waits")]
    async fn panics_waits(&self) -> &'static str {
        later().await;
        boom()
    }

    #[get]
    #[path("/guarded")]
    async fn guarded(&self) -> &'static str {
        "guarded"
    }
}

/// A free function reading nothing.
#[restlight::get("/free")]
async fn free() -> &'static str {
    "Hello, World!"
}

/// Counts the requests it sees and marks their answers.
struct Mark(Arc<AtomicUsize>);

impl Interceptor for Mark {
    async fn pre_handle(&self, _ctx: &mut RequestContext) -> ControlFlow<Response> {
        self.0.fetch_add(1, Ordering::SeqCst);
        ControlFlow::Continue(())
    }
    async fn post_handle(&self, _req: &RequestHead, res: &mut Response) {
        res.headers_mut().insert("x-intercepted", http::HeaderValue::from_static("yes"));
    }
}

fn app(seen: &Arc<AtomicUsize>) -> Restlight {
    // A short shutdown: the test's clients keep their connections open.
    Restlight::new()
        .shutdown_timeout(Duration::from_millis(200))
        .interceptor(Intercept::new(Mark(Arc::clone(seen))).include("/n/guarded"))
}

fn transports(app: impl Fn() -> Restlight) -> Vec<(&'static str, Transport)> {
    vec![("mock", Transport::mock(app())), ("http1", Transport::http1(app())), ("h2c", Transport::h2c(app()))]
}

/// An answer without what differs between two requests or two paths:
/// `Date`, and the path named in problem details (with the
/// `Content-Length` that follows from it: the bodies are compared).
fn plain(answer: &Answer, path: &str, as_path: &str) -> (u16, Vec<(String, String)>, String) {
    let mut headers: Vec<(String, String)> = answer
        .headers
        .iter()
        .filter(|(name, _)| *name != http::header::DATE && *name != http::header::CONTENT_LENGTH)
        .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
        .collect();
    headers.sort();
    (answer.status, headers, answer.body.replace(path, as_path))
}

/// `method path` answers as its `-reads` and `-waits` twins do.
async fn same_as_twins(name: &str, t: &Transport, method: &str, path: &str, headers: &[(&str, &str)]) -> Answer {
    let answer = t.call(method, path, headers, "").await;
    for twin in ["-reads", "-waits"] {
        let other = format!("{path}{twin}");
        let theirs = t.call(method, &other, headers, "").await;
        assert_eq!(plain(&answer, path, path), plain(&theirs, &other, path), "{name}: {method} {path} vs {other}");
    }
    answer
}

#[tokio::test]
async fn bodies_and_content_types_are_unchanged() {
    let seen = Arc::new(AtomicUsize::new(0));
    for (name, t) in transports(|| app(&seen)) {
        let hello = same_as_twins(name, &t, "GET", "/n/hello", &[]).await;
        assert_eq!((hello.status, hello.body.as_str()), (200, "Hello, World!"), "{name}");
        assert_eq!(hello.header("content-type"), Some("text/plain; charset=utf-8"), "{name}");
        let json = same_as_twins(name, &t, "GET", "/n/json", &[("accept", "application/json")]).await;
        assert_eq!(json.status, 200, "{name}");
        assert_eq!(json.header("content-type"), Some("application/json"), "{name}");
        assert_eq!(json.json(), serde_json::json!({"message": "Hello, World!"}), "{name}");
        let free = t.call("GET", "/free", &[], "").await;
        assert_eq!(plain(&free, "/free", "/n/hello"), plain(&hello, "/n/hello", "/n/hello"), "{name}");
    }
}

#[tokio::test]
async fn head_has_the_headers_of_get_and_no_body() {
    let seen = Arc::new(AtomicUsize::new(0));
    for (name, t) in transports(|| app(&seen)) {
        for path in ["/n/hello", "/n/json"] {
            let get = t.call("GET", path, &[], "").await;
            let head = same_as_twins(name, &t, "HEAD", path, &[]).await;
            assert_eq!(head.status, 200, "{name} {path}");
            assert_eq!(head.body, "", "{name} {path}");
            let (_, get_headers, _) = plain(&get, path, path);
            let (_, head_headers, _) = plain(&head, path, path);
            assert_eq!(head_headers, get_headers, "{name} {path}");
            assert_eq!(head.header("content-length"), Some(get.body.len().to_string().as_str()), "{name} {path}");
        }
    }
}

#[tokio::test]
async fn method_not_allowed_and_not_acceptable_are_unchanged() {
    let seen = Arc::new(AtomicUsize::new(0));
    for (name, t) in transports(|| app(&seen)) {
        let wrong = same_as_twins(name, &t, "DELETE", "/n/hello", &[]).await;
        assert_eq!(wrong.status, 405, "{name}");
        let allow = wrong.header("allow").unwrap_or_default();
        assert!(allow.contains("GET") && allow.contains("HEAD"), "{name}: {allow}");
        assert_eq!(wrong.header("content-type"), Some("application/problem+json"), "{name}");

        let refused = same_as_twins(name, &t, "GET", "/n/json", &[("accept", "image/png")]).await;
        assert_eq!(refused.status, 406, "{name}");
        assert_eq!(refused.header("content-type"), Some("application/problem+json"), "{name}");
        assert_eq!(refused.json()["status"], 406, "{name}");
    }
}

#[tokio::test]
async fn a_panic_is_answered_500_with_problem_details() {
    let seen = Arc::new(AtomicUsize::new(0));
    for (name, t) in transports(|| app(&seen)) {
        let answer = same_as_twins(name, &t, "GET", "/n/panics", &[]).await;
        assert_eq!(answer.status, 500, "{name}");
        assert_eq!(answer.header("content-type"), Some("application/problem+json"), "{name}");
        assert_eq!(answer.json()["status"], 500, "{name}");
        // The connection still serves the next request.
        assert_eq!(t.call("GET", "/n/hello", &[], "").await.body, "Hello, World!", "{name}");
    }
}

#[tokio::test]
async fn interceptors_and_filters_still_run() {
    let seen = Arc::new(AtomicUsize::new(0));
    let filtered = || {
        app(&seen).filter(|req: FilterRequest, next: Next| async move {
            let mut res = next.run(req).await;
            res.headers_mut().insert("x-filtered", http::HeaderValue::from_static("yes"));
            res
        })
    };
    for (name, t) in transports(filtered) {
        let before = seen.load(Ordering::SeqCst);
        let guarded = t.call("GET", "/n/guarded", &[], "").await;
        assert_eq!((guarded.status, guarded.body.as_str()), (200, "guarded"), "{name}");
        assert_eq!(guarded.header("x-intercepted"), Some("yes"), "{name}");
        assert_eq!(guarded.header("x-filtered"), Some("yes"), "{name}");
        assert_eq!(seen.load(Ordering::SeqCst), before + 1, "{name}: the interceptor saw the request");
        let hello = t.call("GET", "/n/hello", &[], "").await;
        assert_eq!((hello.status, hello.body.as_str()), (200, "Hello, World!"), "{name}");
        assert_eq!(hello.header("x-filtered"), Some("yes"), "{name}");
        assert_eq!(hello.header("x-intercepted"), None, "{name}: not an intercepted route");
        assert_eq!(seen.load(Ordering::SeqCst), before + 1, "{name}");
    }
}

#[tokio::test]
async fn a_built_no_input_handler_runs_anywhere() {
    // The same handler inline, on the business executor, within a time
    // limit (both run it as a future), and on a route that is sent a body.
    let built = || {
        let hello = || Handler::immediate_no_input(|| "built".into_response());
        let boom = Handler::immediate_no_input(|| boom().into_response());
        Restlight::new()
            .shutdown_timeout(Duration::from_millis(200))
            .annotated_routes(false)
            .route(restlight::get("/b/io").handler(hello()))
            .route(restlight::get("/b/biz").scheduled("biz").handler(hello()))
            .route(restlight::get("/b/timed").timeout(Duration::from_secs(5)).handler(hello()))
            .route(restlight::post("/b/posted").max_body_size(8).handler(hello()))
            .route(restlight::get("/b/boom").scheduled("biz").handler(boom))
    };
    for (name, t) in transports(built) {
        let io = t.call("GET", "/b/io", &[], "").await;
        assert_eq!((io.status, io.body.as_str()), (200, "built"), "{name}");
        for path in ["/b/biz", "/b/timed"] {
            let other = t.call("GET", path, &[], "").await;
            assert_eq!(plain(&other, path, "/b/io"), plain(&io, "/b/io", "/b/io"), "{name} {path}");
        }
        let posted = t.call("POST", "/b/posted", &[], "12345678").await;
        assert_eq!(plain(&posted, "/b/posted", "/b/io"), plain(&io, "/b/io", "/b/io"), "{name}");
        let too_large = t.call("POST", "/b/posted", &[], "123456789").await;
        assert_eq!(too_large.status, 413, "{name}: the body is read and its limit checked");
        let failed = t.call("GET", "/b/boom", &[], "").await;
        assert_eq!(failed.status, 500, "{name}");
        assert_eq!(failed.json()["status"], 500, "{name}");
    }
}
