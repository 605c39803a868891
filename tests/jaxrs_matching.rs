//! JAX-RS request matching: methods of one template ranked by the media
//! types they consume and produce, through the mock client, HTTP/1.1 and h2c.

mod support;

use restlight::prelude::*;
use restlight::PathSegment;
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

/// The example where the two method-selection modes differ.
#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    #[path("/{id: \\d+}")]
    async fn by_id(&self, #[path_param] id: u64) -> String {
        format!("user {id}")
    }

    #[delete]
    #[path("/{id}")]
    async fn remove(&self, #[path_param] id: String) -> String {
        format!("removed {id}")
    }
}

async fn method_selection(t: Transport, strict: bool) {
    let get = t.call("GET", "/users/1", &[], "").await;
    assert_eq!((get.status, get.body.as_str()), (200, "user 1"));
    let delete = t.call("DELETE", "/users/1", &[], "").await;
    if strict {
        // To the letter: `/users/{id: \d+}` is the best template and has no DELETE.
        assert_eq!(delete.status, 405, "{}", delete.body);
        assert_eq!(delete.header("allow"), Some("GET, HEAD, OPTIONS"));
        let options = t.call("OPTIONS", "/users/1", &[], "").await;
        assert_eq!(options.header("allow"), Some("GET, HEAD, OPTIONS"));
    } else {
        assert_eq!((delete.status, delete.body.as_str()), (200, "removed 1"));
        let options = t.call("OPTIONS", "/users/1", &[], "").await;
        assert_eq!(options.header("allow"), Some("GET, HEAD, DELETE, OPTIONS"));
    }
    // Only the less specific template matches: both modes reach DELETE.
    let named = t.call("DELETE", "/users/ada", &[], "").await;
    assert_eq!((named.status, named.body.as_str()), (200, "removed ada"));
    let put = t.call("PUT", "/users/ada", &[], "").await;
    assert_eq!((put.status, put.header("allow")), (405, Some("DELETE, OPTIONS")));
}

#[tokio::test]
async fn method_first_selection_is_the_default() {
    method_selection(Transport::mock(app()), false).await;
    method_selection(Transport::http1(app()), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strict_matching_picks_the_template_before_the_method() {
    method_selection(Transport::mock(app().strict_matching(true)), true).await;
    method_selection(Transport::http1(app().strict_matching(true)), true).await;
    method_selection(Transport::h2c(app().strict_matching(true)), true).await;
}

/// Matrix parameters by segment, and `PathSegment`.
#[derive(Default)]
struct Segments;

#[restlight::path("/mp")]
impl Segments {
    #[get]
    #[path("/resource/sub")]
    async fn sub(&self, #[matrix_param] x: Option<String>, #[context] ctx: &RequestContext) -> String {
        let first = ctx.matrix().iter().map(|(seg, n, v)| format!("{seg}:{n}={v}")).collect::<Vec<_>>();
        format!("x={} all=[{}]", x.as_deref().unwrap_or("-"), first.join(","))
    }

    #[get]
    #[path("/cars/{make}/v{year}")]
    async fn car(&self, #[path_param] make: PathSegment, #[path_param] year: PathSegment) -> String {
        let colors: Vec<String> = make.matrix_params().map(|(n, v)| format!("{n}={v}")).collect();
        format!("{} [{}] {} [{}]", make.path(), colors.join(","), year.path(), year.matrix_param("trim").unwrap_or("-"))
    }

    #[get]
    #[path("/files/{path: .+}")]
    async fn files(&self, #[path_param] path: Vec<PathSegment>) -> String {
        let parts: Vec<String> = path
            .iter()
            .map(|s| format!("{}{}", s.path(), s.matrix_param("v").map(|v| format!("@{v}")).unwrap_or_default()))
            .collect();
        parts.join("|")
    }
}

async fn segments(t: Transport) {
    let cases = [
        // `@MatrixParam` reads the last segment the method's template matched
        ("/mp/resource;x=1/sub", "x=- all=[1:x=1]"),
        ("/mp/resource/sub;x=2", "x=2 all=[2:x=2]"),
        ("/mp/resource;x=1/sub;x=3", "x=3 all=[1:x=1,2:x=3]"),
        // a variable's whole segment, with that segment's parameters only
        ("/mp/cars/fiat;color=red;doors=3/v2020;trim=lx", "fiat [color=red,doors=3] v2020 [lx]"),
        ("/mp/cars/f%C3%AFat/v1999", "fïat [] v1999 [-]"),
        // a variable spanning segments: one `PathSegment` each
        ("/mp/files/a;v=1/b%20c/d;v=2", "a@1|b c|d@2"),
    ];
    for (path, expected) in cases {
        let answer = t.call("GET", path, &[], "").await;
        assert_eq!((answer.status, answer.body.as_str()), (200, expected), "{path}");
    }
}

#[tokio::test]
async fn matrix_parameters_are_read_by_segment_over_the_mock_client() {
    segments(Transport::mock(app())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matrix_parameters_are_read_by_segment_over_http1_and_h2c() {
    segments(Transport::http1(app())).await;
    segments(Transport::h2c(app())).await;
}
