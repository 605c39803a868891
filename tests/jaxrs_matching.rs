//! JAX-RS request matching: methods of one template ranked by the media
//! types they consume and produce, through the mock client, HTTP/1.1 and h2c.

mod support;

use restlight::prelude::*;
use support::Transport;

/// One method per representation, as JAX-RS resources are written.
#[derive(Default)]
struct Representations;

#[restlight::path("/sub")]
impl Representations {
    #[post]
    #[consumes("text/plain")]
    async fn plain(&self, body: String) -> String {
        format!("plain:{body}")
    }

    #[post]
    #[consumes("text/*")]
    async fn text(&self, body: String) -> String {
        format!("text:{body}")
    }

    #[post]
    async fn anything(&self, body: String) -> String {
        format!("anything:{body}")
    }

    #[get]
    #[produces("text/plain")]
    async fn get_plain(&self) -> &'static str {
        "plain"
    }

    #[get]
    #[produces("text/*")]
    async fn get_text(&self) -> &'static str {
        "text"
    }

    #[get]
    #[produces("text/html", "application/xhtml+xml")]
    async fn get_html(&self) -> &'static str {
        "html"
    }
}

/// Two representations, the server preferring one (`qs`).
#[derive(Default)]
struct Preferred;

#[restlight::path("/preferred")]
impl Preferred {
    #[get]
    #[produces("text/html; qs=0.5")]
    async fn html(&self) -> &'static str {
        "<p>html</p>"
    }

    #[get]
    #[produces("application/json")]
    async fn json(&self) -> Json<&'static str> {
        Json("json")
    }
}

fn app() -> Restlight {
    Restlight::new()
}

async fn ranking(t: Transport) {
    let post = |ct: &'static str| {
        let t = &t;
        async move { t.call("POST", "/sub", &[("content-type", ct)], "x").await }
    };
    for (ct, expected) in [
        ("text/plain", "plain:x"),
        ("text/plain; charset=utf-8", "plain:x"),
        ("text/csv", "text:x"),
        ("application/octet-stream", "anything:x"),
    ] {
        let answer = post(ct).await;
        assert_eq!((answer.status, answer.body.as_str()), (200, expected), "Content-Type: {ct}");
    }

    let get = |accept: &'static str| {
        let t = &t;
        async move { t.call("GET", "/sub", &[("accept", accept)], "").await }
    };
    for (accept, body, content_type) in [
        ("text/plain", "plain", "text/plain"),
        ("text/html", "html", "text/html"),
        ("application/xhtml+xml", "html", "application/xhtml+xml"),
        // (a wildcard type is not a Content-Type: the string's own type is written)
        ("text/csv", "text", "text/plain; charset=utf-8"),
        // n/m before n/*, whatever the client's q
        ("text/*, text/html;q=0.5", "plain", "text/plain"),
        // the client's q before the server's qs
        ("text/html, text/plain;q=0.9", "html", "text/html"),
    ] {
        let answer = get(accept).await;
        assert_eq!((answer.status, answer.body.as_str()), (200, body), "Accept: {accept}");
        assert_eq!(answer.header("content-type"), Some(content_type), "Accept: {accept}");
    }
    let none = get("application/json").await;
    assert_eq!(none.status, 406, "{}", none.body);

    for (accept, body, content_type) in [
        ("*/*", "\"json\"", "application/json"),
        ("text/html", "<p>html</p>", "text/html"),
        // the client's q before the server's qs
        ("text/html, application/json;q=0.9", "<p>html</p>", "text/html"),
        ("text/html;q=0.9, application/json;q=0.9", "\"json\"", "application/json"),
    ] {
        let answer = t.call("GET", "/preferred", &[("accept", accept)], "").await;
        assert_eq!((answer.status, answer.body.as_str()), (200, body), "Accept: {accept}");
        assert_eq!(answer.header("content-type"), Some(content_type), "Accept: {accept}");
    }
}

#[tokio::test]
async fn methods_are_ranked_by_media_type_over_the_mock_client() {
    ranking(Transport::mock(app())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn methods_are_ranked_by_media_type_over_http1() {
    ranking(Transport::http1(app())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn methods_are_ranked_by_media_type_over_h2c() {
    ranking(Transport::h2c(app())).await;
}
