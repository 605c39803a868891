//! Request IDs: kept when well-formed, made otherwise; on the response, in
//! the access log, in every event made while handling the request (on IO
//! and business threads), and readable by handlers.

mod observe_support;
mod support;

use std::time::Duration;

use observe_support::{access_line, captured, wait_for};
use restlight::prelude::*;
use restlight::AccessLog;
use support::{h2c, http1, TestServer};

#[derive(Default)]
struct Ids;

#[restlight::path("/rid")]
impl Ids {
    /// Answers the request ID it sees, after logging.
    #[get]
    #[path("/io")]
    async fn on_io(&self, #[context] id: &RequestId) -> String {
        tracing::info!(marker = "io-handler", "handling");
        id.to_string()
    }

    /// The same on a business thread.
    #[get]
    #[path("/biz")]
    #[scheduled(biz)]
    fn on_biz(&self, #[context] id: &RequestId) -> String {
        tracing::info!(marker = "biz-handler", "handling");
        id.to_string()
    }
}

fn server() -> Restlight {
    // A short shutdown: the test's clients keep their connections open.
    Restlight::new().request_ids(true).access_log(AccessLog::new()).shutdown_timeout(Duration::from_millis(200))
}

async fn get(client: &reqwest::Client, url: String, id: Option<&str>) -> (Option<String>, String) {
    let mut req = client.get(url);
    if let Some(id) = id {
        req = req.header("x-request-id", id);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200);
    let header = res.headers().get("x-request-id").map(|v| v.to_str().unwrap().to_owned());
    (header, res.text().await.unwrap())
}

fn is_generated(id: &str) -> bool {
    id.len() == 24 && id.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
}

#[tokio::test]
async fn a_well_formed_id_is_kept_everywhere() {
    captured();
    let server = TestServer::start(server());
    let id = "0f8fad5b-d9cb-469f-a165-70867728950e";
    let (header, body) = get(&http1(), server.url("/rid/io"), Some(id)).await;
    assert_eq!((header.as_deref(), body.as_str()), (Some(id), id));
    let line = access_line(&format!("id={id}"));
    assert!(
        line.contains("\"GET /rid/io HTTP/1.1\" 200 ") && line.ends_with(&format!("scheduler=io id={id}")),
        "{line}"
    );
    let event = wait_for(|c| {
        c.events
            .iter()
            .find(|e| {
                e.fields.get("marker").is_some_and(|m| m == "io-handler")
                    && e.scope.get("request_id").is_some_and(|r| r == id)
            })
            .cloned()
    });
    assert_eq!(event.message(), "handling");

    // On a business thread too, over HTTP/2.
    let id = "h2-biz.id:1";
    let (header, body) = get(&h2c(), server.url("/rid/biz"), Some(id)).await;
    assert_eq!((header.as_deref(), body.as_str()), (Some(id), id));
    wait_for(|c| {
        c.events
            .iter()
            .find(|e| {
                e.fields.get("marker").is_some_and(|m| m == "biz-handler")
                    && e.scope.get("request_id").is_some_and(|r| r == id)
            })
            .cloned()
    });
    let line = access_line(&format!("id={id}"));
    assert!(line.contains("/rid/biz HTTP/2.0\" 200 "), "{line}");
}

#[tokio::test]
async fn a_malformed_or_missing_id_is_replaced() {
    captured();
    let server = TestServer::start(server());
    let client = http1();
    let too_long = "a".repeat(129);
    for sent in [None, Some("has space"), Some("quote\"d"), Some(too_long.as_str()), Some("")] {
        let (header, body) = get(&client, server.url("/rid/io"), sent).await;
        let header = header.expect("an ID is always sent back");
        assert!(is_generated(&header), "{sent:?} -> {header}");
        assert_eq!(header, body);
        assert_ne!(Some(header.as_str()), sent);
        access_line(&format!("id={header}"));
    }
    // Two requests, two IDs.
    let (a, _) = get(&client, server.url("/rid/io"), None).await;
    let (b, _) = get(&client, server.url("/rid/io"), None).await;
    assert_ne!(a, b);
}

#[cfg(feature = "config")]
#[tokio::test]
async fn the_header_is_configurable_from_the_file() {
    let path = std::env::temp_dir().join(format!("restlight-rid-{}.toml", std::process::id()));
    std::fs::write(&path, "[server]\nrequest_ids = true\nrequest_id_header = \"X-Correlation-Id\"\n").unwrap();
    let server = TestServer::start(Restlight::new().config_file(&path).unwrap());
    let res = http1().get(server.url("/rid/io")).header("x-correlation-id", "corr-7").send().await.unwrap();
    assert_eq!(res.headers()["x-correlation-id"], "corr-7");
    assert!(res.headers().get("x-request-id").is_none());
    assert_eq!(res.text().await.unwrap(), "corr-7");
    std::fs::remove_file(path).unwrap();

    let bad = std::env::temp_dir().join(format!("restlight-rid-bad-{}.toml", std::process::id()));
    std::fs::write(&bad, "[server]\nrequest_id_header = \"no spaces\"\n").unwrap();
    let err = Restlight::new().config_file(&bad).unwrap_err().to_string();
    assert!(err.contains("server.request_id_header") && err.contains("no spaces"), "{err}");
    std::fs::remove_file(bad).unwrap();
}

#[tokio::test]
async fn off_by_default() {
    let server = TestServer::start(Restlight::new());
    let (header, body) = get(&http1(), server.url("/rid/io"), Some("kept-nowhere")).await;
    assert_eq!(header, None);
    assert_eq!(body, "", "the handler sees an empty ID");
}

#[test]
fn the_mock_client_has_no_id() {
    let client = Restlight::new().request_ids(true).mock().unwrap();
    assert_eq!(client.get("/rid/io").send_blocking().text(), "");
}

#[tokio::test]
async fn builder_routes_and_filters_read_the_same_id() {
    // A builder route reads the ID from its context; a filter before
    // routing finds it in the request's extensions and passes it on in a
    // header of its own.
    let route = restlight::get("/plain").handle(|ctx: RequestContext| async move {
        let attribute = ctx.attribute::<RequestId>().map(ToString::to_string).unwrap_or_default();
        format!("{} {attribute}", ctx.request_id())
    });
    let plain = TestServer::start(server().route(route));
    let (header, body) = get(&http1(), plain.url("/plain"), Some("kept-1")).await;
    assert_eq!((header.as_deref(), body.as_str()), (Some("kept-1"), "kept-1 kept-1"));
    let (header, body) = get(&http1(), plain.url("/plain"), None).await;
    let header = header.unwrap();
    assert!(is_generated(&header), "{header}");
    assert_eq!(body, format!("{header} {header}"));

    let filtered = server()
        .route(restlight::get("/plain").handle(|ctx: RequestContext| async move { ctx.request_id().to_string() }));
    let filtered = filtered.filter(|req: restlight::filter::FilterRequest, next: restlight::filter::Next| async move {
        let seen = req.extensions().get::<RequestId>().map(ToString::to_string).unwrap_or_default();
        let mut res = next.run(req).await;
        res.headers_mut().insert("x-filter-saw", seen.parse().unwrap());
        res
    });
    let with_filter = TestServer::start(filtered);
    let res = http1().get(with_filter.url("/plain")).send().await.unwrap();
    let id = res.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert!(is_generated(&id), "{id}");
    assert_eq!(res.headers()["x-filter-saw"], id.as_str());
    assert_eq!(res.text().await.unwrap(), id);
}
