//! Filters, interceptors and tower layers: ordering, short-circuit at each
//! stage, after-completion on errors, opt-outs, the startup classification
//! as the application reports it, and a tower-http layer over a socket.
#![deny(warnings)]

mod support;

use std::sync::{Arc, Mutex};

use restlight::filter::{FilterRequest, Next};
use restlight::intercept::Affinity;
use restlight::prelude::*;
use restlight::test::MockClient;
use restlight::{AppBuilder, Body};
use support::{http1, TestServer};

type Log = Arc<Mutex<Vec<String>>>;

fn log() -> Log {
    Arc::new(Mutex::new(Vec::new()))
}

fn take(log: &Log) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

/// Records every hook; stops the request in `pre_handle` when `stop`.
struct Rec {
    name: &'static str,
    log: Log,
    stop: bool,
}

impl Rec {
    fn new(name: &'static str, log: &Log) -> Self {
        Self { name, log: Arc::clone(log), stop: false }
    }
    fn push(&self, what: String) {
        self.log.lock().unwrap().push(what);
    }
}

impl Interceptor for Rec {
    async fn pre_handle(&self, _ctx: &mut RequestContext) -> ControlFlow<Response> {
        self.push(format!("pre {}", self.name));
        if self.stop {
            return ControlFlow::Break(HttpError::forbidden(format!("stopped by {}", self.name)).into_response());
        }
        ControlFlow::Continue(())
    }
    async fn post_handle(&self, _req: &RequestHead, res: &mut Response) {
        self.push(format!("post {}", self.name));
        res.headers_mut().append("x-post", http::HeaderValue::from_static("1"));
    }
    async fn after_completion(&self, _req: &RequestHead, status: StatusCode, failure: Option<&Failure>) {
        let failure =
            failure.map_or_else(|| "-".to_owned(), |f| f.type_name().rsplit("::").next().unwrap_or("").to_owned());
        self.push(format!("after {} {} {failure}", self.name, status.as_u16()));
    }
}

#[derive(Debug)]
struct Boom;
impl std::fmt::Display for Boom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("boom")
    }
}
impl std::error::Error for Boom {}

fn routes(builder: AppBuilder, log: &Log) -> AppBuilder {
    let handler_log = Arc::clone(log);
    builder
        .annotated_routes(false)
        .annotated_interceptors(false)
        .route(get("/api/ok").handle(move |_| {
            handler_log.lock().unwrap().push("handler".into());
            async { "ok" }
        }))
        .route(get("/api/fail").handle(|_| async { restlight::Fallible::<&str, _>(Err(Boom)) }))
        .route(get("/api/panic").handle(|_| async {
            if true {
                panic!("kaboom");
            }
            "unreachable"
        }))
        .route(get("/api/quiet").no_interceptors().handle(|_| async { "quiet" }))
        .route(get("/public").handle(|_| async { "public" }))
}

#[test]
fn interceptors_run_by_order_then_in_reverse() {
    let log = log();
    let app = routes(AppBuilder::new(), &log)
        .interceptor(Intercept::new(Rec::new("b", &log)).order(10))
        .interceptor(Intercept::new(Rec::new("a", &log)).order(-5))
        .interceptor(Intercept::new(Rec::new("c", &log)).order(10).include("/api/**"))
        .build()
        .unwrap();
    let client = MockClient::new(app);
    let res = client.get("/api/ok").send_blocking();
    assert_eq!(res.status(), 200);
    assert_eq!(
        take(&log),
        [
            "pre a",
            "pre b",
            "pre c",
            "handler",
            "post c",
            "post b",
            "post a",
            "after c 200 -",
            "after b 200 -",
            "after a 200 -"
        ]
    );
    // `c` includes /api/** only.
    client.get("/public").send_blocking();
    assert_eq!(take(&log), ["pre a", "pre b", "post b", "post a", "after b 200 -", "after a 200 -"]);
}

#[test]
fn pre_handle_stops_the_request() {
    let log = log();
    let stopper = Rec { stop: true, ..Rec::new("stop", &log) };
    let app = routes(AppBuilder::new(), &log)
        .interceptor(Intercept::new(Rec::new("first", &log)).order(1))
        .interceptor(Intercept::new(stopper).order(2))
        .interceptor(Intercept::new(Rec::new("never", &log)).order(3))
        .build()
        .unwrap();
    let res = MockClient::new(app).get("/api/ok").send_blocking();
    assert_eq!(res.status(), 403);
    assert!(res.text().contains("stopped by stop"));
    // No handler, no post_handle; after_completion only for `first`, which let it through.
    assert_eq!(take(&log), ["pre first", "pre stop", "after first 403 HttpError"]);
}

#[test]
fn after_completion_sees_errors_and_panics() {
    let log = log();
    let app = routes(AppBuilder::new(), &log).interceptor(Rec::new("i", &log)).build().unwrap();
    let client = MockClient::new(app);
    let res = client.get("/api/fail").send_blocking();
    assert_eq!(res.status(), 500);
    assert_eq!(res.json::<serde_json::Value>()["errorType"], std::any::type_name::<Boom>());
    assert_eq!(take(&log), ["pre i", "post i", "after i 500 Boom"]);
    let res = client.get("/api/panic").send_blocking();
    assert_eq!(res.status(), 500);
    // No post_handle after a panic; after_completion still runs.
    assert_eq!(take(&log), ["pre i", "after i 500 panic"]);
}

#[test]
fn routes_opt_out_and_mapping_interceptors_test_the_request() {
    let log = log();
    let app = routes(AppBuilder::new(), &log)
        .interceptor(Rec::new("all", &log))
        .interceptor(Intercept::new(Rec::new("tagged", &log)).when_request(|ctx| ctx.header("x-tag").is_some()))
        .build()
        .unwrap();
    let client = MockClient::new(app);
    assert_eq!(client.get("/api/quiet").send_blocking().text(), "quiet");
    assert!(take(&log).is_empty());
    client.get("/public").send_blocking();
    assert_eq!(take(&log), ["pre all", "post all", "after all 200 -"]);
    client.get("/public").header("x-tag", "1").send_blocking();
    assert_eq!(take(&log).len(), 6);
}

#[test]
fn route_interceptors_decide_at_startup() {
    let log = log();
    let app = routes(AppBuilder::new(), &log)
        .interceptor(Intercept::new(Rec::new("api", &log)).when_route(|r| r.path.starts_with("/api")))
        .interceptor(Intercept::new(Rec::new("maybe", &log)).include("/api/o?"))
        .interceptor(Intercept::new(Rec::new("never", &log)).exclude("/**"))
        .build()
        .unwrap();
    let bound = |path: &str| {
        app.routes()
            .iter()
            .find(|r| r.path == path)
            .unwrap()
            .interceptors
            .iter()
            .map(|(name, a)| (name.rsplit("::").next().unwrap().to_owned(), *a))
            .collect::<Vec<_>>()
    };
    assert_eq!(bound("/api/ok"), [("Rec".to_owned(), Affinity::Always), ("Rec".to_owned(), Affinity::Always)]);
    assert_eq!(bound("/public"), []);
    assert_eq!(bound("/api/quiet"), []);
}

#[test]
fn filters_wrap_routing_in_order_and_may_answer() {
    let log = log();
    let (l1, l2) = (Arc::clone(&log), Arc::clone(&log));
    let app = routes(AppBuilder::new(), &log)
        .filter(move |req: FilterRequest, next: Next| {
            let log = Arc::clone(&l1);
            async move {
                log.lock().unwrap().push("filter 1 in".into());
                let mut res = next.run(req).await;
                log.lock().unwrap().push("filter 1 out".into());
                res.headers_mut().insert("x-filtered", http::HeaderValue::from_static("yes"));
                res
            }
        })
        .filter(move |mut req: FilterRequest, next: Next| {
            let log = Arc::clone(&l2);
            async move {
                log.lock().unwrap().push("filter 2".into());
                if req.uri().path() == "/blocked" {
                    return HttpError::forbidden("blocked by a filter").into_response();
                }
                req.headers_mut().insert("x-seen", http::HeaderValue::from_static("1"));
                next.run(req).await
            }
        })
        .route(
            get("/seen").handle(|ctx: RequestContext| async move { ctx.header("x-seen").unwrap_or("no").to_owned() }),
        )
        .build()
        .unwrap();
    let client = MockClient::new(app);
    let res = client.get("/api/ok").send_blocking();
    assert_eq!(res.header("x-filtered"), Some("yes"));
    assert_eq!(take(&log), ["filter 1 in", "filter 2", "handler", "filter 1 out"]);
    // A filter short-circuits before routing: even an unknown path.
    let res = client.get("/blocked").send_blocking();
    assert_eq!(res.status(), 403);
    assert_eq!(res.header("x-filtered"), Some("yes"));
    assert_eq!(take(&log), ["filter 1 in", "filter 2", "filter 1 out"]);
    assert_eq!(client.get("/seen").send_blocking().text(), "1");
}

#[test]
fn bad_patterns_fail_startup() {
    struct Noop;
    impl Interceptor for Noop {}
    let err = AppBuilder::new().annotated_routes(false).interceptor(Intercept::new(Noop).include("/a/{x")).build();
    let message = err.unwrap_err().to_string();
    assert!(message.contains("/a/{x") && message.contains("Noop"), "{message}");
}

// ---- by attribute ------------------------------------------------------------------

static ATTR_LOG: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

#[derive(Default)]
struct Stamp;

#[restlight::interceptor(includes = ["/attr/**"], excludes = ["/attr/skip/**"], order = -1)]
impl Interceptor for Stamp {
    async fn post_handle(&self, _req: &RequestHead, res: &mut Response) {
        ATTR_LOG.lock().unwrap().push("stamp");
        res.headers_mut().insert("x-stamp", http::HeaderValue::from_static("1"));
    }
}

#[derive(Default)]
struct Deny;

#[restlight::interceptor(includes = ["/attr/**"])]
impl Interceptor for Deny {
    async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
        if ctx.header("x-deny").is_some() {
            return ControlFlow::Break(HttpError::forbidden("denied").into_response());
        }
        ControlFlow::Continue(())
    }
}

#[derive(Default)]
struct AttrResource;

#[restlight::path("/attr")]
impl AttrResource {
    #[get("/a")]
    async fn a(&self) -> &'static str {
        "a"
    }

    #[get("/open")]
    #[skip_interceptor(Deny)]
    async fn open(&self) -> &'static str {
        "open"
    }

    #[get("/none")]
    #[no_interceptors]
    async fn none(&self) -> &'static str {
        "none"
    }
}

#[test]
fn attribute_interceptors_and_opt_outs() {
    let client = Restlight::new().mock().unwrap();
    let res = client.get("/attr/a").send_blocking();
    assert_eq!((res.status().as_u16(), res.header("x-stamp")), (200, Some("1")));
    assert_eq!(client.get("/attr/a").header("x-deny", "1").send_blocking().status(), 403);
    let res = client.get("/attr/open").header("x-deny", "1").send_blocking();
    assert_eq!((res.status().as_u16(), res.header("x-stamp")), (200, Some("1")));
    let res = client.get("/attr/none").header("x-deny", "1").send_blocking();
    assert_eq!((res.status().as_u16(), res.header("x-stamp")), (200, None));
    assert!(ATTR_LOG.lock().unwrap().len() >= 2);
}

// ---- tower ---------------------------------------------------------------------------

#[test]
fn tower_http_cors_answers_a_preflight_over_a_socket() {
    use tower_http::cors::{Any, CorsLayer};
    let server = TestServer::start(
        Restlight::new()
            .route(post("/cors/items").handle(|_| async { "created" }))
            .layer(CorsLayer::new().allow_origin(Any).allow_methods([http::Method::POST]))
            .io_threads(1)
            .biz_threads(1),
    );
    let url = server.url("/cors/items");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let client = http1();
        let res = client
            .request(reqwest::Method::OPTIONS, &url)
            .header("origin", "https://example.com")
            .header("access-control-request-method", "POST")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["access-control-allow-origin"], "*");
        assert!(res.headers()["access-control-allow-methods"].to_str().unwrap().contains("POST"));
        let res = client.post(&url).header("origin", "https://example.com").send().await.unwrap();
        assert_eq!(res.headers()["access-control-allow-origin"], "*");
        assert_eq!(res.text().await.unwrap(), "created");
    });
}

#[test]
fn the_app_is_a_tower_service() {
    use tower::ServiceExt;
    let app = AppBuilder::new().annotated_routes(false).route(get("/svc").handle(|_| async { "svc" })).build().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let res = rt.block_on(app.oneshot(http::Request::get("/svc").header("host", "x").body(Body::empty()).unwrap()));
    let res = res.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(rt.block_on(res.into_body().collect_bytes()).unwrap(), "svc");
}
