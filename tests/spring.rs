//! The Spring front end, attribute by attribute, through the mock client:
//! mappings (methods, paths, inherited settings, every method), parameter
//! attributes with Spring's required-by-default, `#[response_status]`,
//! exception handlers in the controller and in a controller advice,
//! `#[request_attribute]` values an interceptor stored, and
//! `ResponseBuilder` as the `ResponseEntity`.

use restlight::prelude::*;
use restlight::test::MockClient;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
struct Note {
    id: u64,
    text: String,
}

/// An error of the controller, mapped by its own exception handler.
#[derive(Debug)]
struct Missing(u64);
impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no note {}", self.0)
    }
}
impl std::error::Error for Missing {}

/// Two errors mapped by one handler listing both types.
#[derive(Debug)]
struct Locked;
impl std::fmt::Display for Locked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("locked")
    }
}
impl std::error::Error for Locked {}

#[derive(Debug)]
struct Frozen;
impl std::fmt::Display for Frozen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("frozen")
    }
}
impl std::error::Error for Frozen {}

/// An error no controller maps: the advice does.
#[derive(Debug)]
struct Teapot;
impl std::fmt::Display for Teapot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("short and stout")
    }
}
impl std::error::Error for Teapot {}

/// An error caused by one of the others: mapped by its cause's handler.
#[derive(Debug)]
enum Stuck {
    Locked(Locked),
    Frozen(Frozen),
    Teapot(Teapot),
}
impl std::fmt::Display for Stuck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stuck")
    }
}
impl std::error::Error for Stuck {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            Self::Locked(e) => e,
            Self::Frozen(e) => e,
            Self::Teapot(e) => e,
        })
    }
}

/// Query values gathered into one struct (`@ModelAttribute`).
#[derive(BeanParam)]
struct Paging {
    #[query_param]
    #[default_value("10")]
    size: usize,
    #[query_param]
    page: Option<usize>,
}

#[derive(Default)]
struct Notes;

#[restlight::rest_controller]
#[request_mapping(path = "/notes", produces = "text/plain")]
impl Notes {
    /// `@RequestParam` is required unless `required = false`, `Option` or a default.
    #[get_mapping("/search")]
    async fn search(
        &self,
        #[request_param] q: String,
        #[request_param(name = "max", required = false)] max: Option<u32>,
        #[request_param(value = "order", default_value = "asc")] order: String,
        #[request_param("tag")] tags: Vec<String>,
    ) -> String {
        format!("q={q} max={max:?} order={order} tags={tags:?}")
    }

    #[get_mapping(path = "/headers")]
    async fn headers(
        &self,
        #[request_header("X-Count")] count: u32,
        #[request_header(name = "X-Mode", default_value = "fast")] mode: String,
        #[cookie_value("session")] session: Option<String>,
    ) -> String {
        format!("count={count} mode={mode} session={session:?}")
    }

    #[get_mapping("/paint/{name}")]
    async fn paint(&self, #[path_variable] name: String, #[matrix_variable] color: Option<String>) -> String {
        format!("{name} in {color:?}")
    }

    #[get_mapping("/pages")]
    async fn pages(&self, #[model_attribute] paging: Paging) -> String {
        format!("size={} page={:?}", paging.size, paging.page)
    }

    /// No method: every method.
    #[request_mapping("/any")]
    async fn any(&self, #[context] method: &restlight::http::Method) -> String {
        format!("any {method}")
    }

    /// A list of methods.
    #[request_mapping(path = "/two/methods", method = [RequestMethod::PUT, PATCH])]
    async fn two(&self, #[context] method: &restlight::http::Method) -> String {
        format!("two {method}")
    }

    /// The body, optional.
    #[post_mapping(path = "/maybe", consumes = "application/json")]
    async fn maybe(&self, #[request_body(required = false)] note: Option<Note>) -> String {
        format!("{note:?}")
    }

    #[put_mapping("/{id}")]
    #[response_status(ACCEPTED)]
    async fn replace(&self, #[path_variable] id: u64, #[request_body] note: Note) -> String {
        format!("{id}: {}", note.text)
    }

    #[delete_mapping("/{id}")]
    #[response_status(code = HttpStatus::GONE, reason = "notes are never deleted")]
    async fn delete(&self, #[path_variable] id: u64) -> String {
        id.to_string()
    }

    #[patch_mapping("/{id}")]
    async fn patch(&self, #[path_variable] id: u64) -> Result<String, Missing> {
        Err(Missing(id))
    }

    #[get_mapping("/locked/{which}")]
    async fn locked(&self, #[path_variable] which: String) -> Result<String, Stuck> {
        match which.as_str() {
            "locked" => Err(Stuck::Locked(Locked)),
            "frozen" => Err(Stuck::Frozen(Frozen)),
            _ => Err(Stuck::Teapot(Teapot)),
        }
    }

    /// `ResponseEntity`: status, headers and body in one value.
    #[get_mapping(path = "/entity", produces = "application/json")]
    async fn entity(&self) -> ResponseBuilder {
        ResponseBuilder::new(StatusCode::CREATED).header("x-id", "7").entity(Note { id: 7, text: "seven".into() })
    }

    /// Spring's path syntax: `*` is one segment, `**` and `{*rest}` the rest.
    #[get_mapping("/star/*/end")]
    async fn star(&self) -> &'static str {
        "star"
    }

    #[get_mapping("/files/{*path}")]
    async fn files(&self, #[path_variable] path: String) -> String {
        path
    }

    #[exception_handler]
    fn on_missing(&self, e: &Missing) -> (StatusCode, String) {
        (StatusCode::NOT_FOUND, e.to_string())
    }

    #[exception_handler(Locked, Frozen)]
    fn on_locked(&self, e: &(dyn std::error::Error + 'static)) -> (StatusCode, String) {
        (StatusCode::CONFLICT, e.to_string())
    }
}

#[derive(Default)]
struct Advice;

#[restlight::rest_controller_advice]
impl Advice {
    #[exception_handler(Teapot)]
    fn on_teapot(&self) -> HttpError {
        HttpError::new(StatusCode::IM_A_TEAPOT, "advised")
    }
}

/// A controller without a class mapping, and a mapped free function.
#[derive(Default)]
struct Root;

#[restlight::rest_controller]
impl Root {
    #[get_mapping("/root")]
    async fn root(&self) -> &'static str {
        "root"
    }
}

#[restlight::post_mapping("/free", consumes = "text/plain")]
#[response_status(CREATED)]
async fn free(#[request_body] body: String) -> String {
    body
}

fn client() -> MockClient {
    Restlight::new().mock().unwrap()
}

#[test]
fn request_params_are_required_unless_optional_or_defaulted() {
    let c = client();
    let res = c.get("/notes/search").send_blocking();
    assert_eq!(res.status(), 400);
    assert!(res.text().contains("`q`"), "{}", res.text());
    let res = c.get("/notes/search?q=rust&tag=a&tag=b").send_blocking();
    assert_eq!(res.text(), r#"q=rust max=None order=asc tags=["a", "b"]"#);
    let res = c.get("/notes/search?q=rust&max=3&order=desc").send_blocking();
    assert_eq!(res.text(), "q=rust max=Some(3) order=desc tags=[]");
    let res = c.get("/notes/search?q=rust&max=many").send_blocking();
    assert_eq!(res.status(), 400);
    assert!(res.text().contains("`max`"), "{}", res.text());
}

#[test]
fn headers_cookies_matrix_and_model_attributes() {
    let c = client();
    assert_eq!(c.get("/notes/headers").send_blocking().status(), 400);
    let res = c.get("/notes/headers").header("x-count", "2").cookie("session", "s1").send_blocking();
    assert_eq!(res.text(), r#"count=2 mode=fast session=Some("s1")"#);
    assert_eq!(c.get("/notes/paint/wall;color=red").send_blocking().text(), r#"wall in Some("red")"#);
    assert_eq!(c.get("/notes/pages?page=3").send_blocking().text(), "size=10 page=Some(3)");
}

#[test]
fn a_mapping_without_method_serves_every_method() {
    let c = client();
    for method in ["GET", "POST", "PUT", "DELETE", "PATCH"] {
        let res = c.request(method.parse().unwrap(), "/notes/any").send_blocking();
        assert_eq!(res.text(), format!("any {method}"));
    }
    assert_eq!(c.head("/notes/any").send_blocking().status(), 200);
    assert_eq!(c.put("/notes/two/methods").send_blocking().text(), "two PUT");
    assert_eq!(c.patch("/notes/two/methods").send_blocking().text(), "two PATCH");
    let res = c.get("/notes/two/methods").send_blocking();
    assert_eq!((res.status().as_u16(), res.header("allow")), (405, Some("PUT, PATCH, OPTIONS")));
}

#[test]
fn request_body_may_be_optional() {
    let c = client();
    assert_eq!(c.post("/notes/maybe").send_blocking().text(), "None");
    let res = c.post("/notes/maybe").json(&Note { id: 1, text: "hi".into() }).send_blocking();
    assert_eq!(res.text(), r#"Some(Note { id: 1, text: "hi" })"#);
    assert_eq!(c.post("/notes/maybe").content_type("application/json").body("{").send_blocking().status(), 400);
}

#[test]
fn response_status_sets_the_status_of_a_success() {
    let c = client();
    let res = c.put("/notes/4").json(&Note { id: 4, text: "four".into() }).send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (202, "4: four".to_owned()));
    let res = c.delete("/notes/4").send_blocking();
    assert_eq!(res.status(), 410);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    assert!(res.text().contains("notes are never deleted"), "{}", res.text());
    let res = c.post("/free").content_type("text/plain").body("made").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (201, "made".to_owned()));
}

#[test]
fn exception_handlers_of_the_controller_then_the_advice() {
    let c = client();
    let res = c.patch("/notes/9").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (404, "no note 9".to_owned()));
    let res = c.get("/notes/locked/locked").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (409, "locked".to_owned()));
    let res = c.get("/notes/locked/frozen").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (409, "frozen".to_owned()));
    let res = c.get("/notes/locked/other").send_blocking();
    assert_eq!(res.status(), 418);
    assert!(res.text().contains("advised"), "{}", res.text());
}

#[test]
fn response_builder_is_the_response_entity() {
    let res = client().get("/notes/entity").send_blocking();
    assert_eq!((res.status().as_u16(), res.header("x-id")), (201, Some("7")));
    assert_eq!(res.json::<Note>(), Note { id: 7, text: "seven".into() });
}

#[test]
fn spring_path_syntax() {
    let c = client();
    assert_eq!(c.get("/notes/star/x/end").send_blocking().text(), "star");
    assert_eq!(c.get("/notes/star/x/y/end").send_blocking().status(), 404);
    assert_eq!(c.get("/notes/files/a/b.txt").send_blocking().text(), "/a/b.txt");
    assert_eq!(c.get("/root").send_blocking().text(), "root");
}

#[derive(Default)]
struct Paths;

/// Spring's `PathPattern` syntax and precedence.
#[restlight::rest_controller]
#[request_mapping(path = "/paths", produces = "text/plain")]
impl Paths {
    #[get_mapping("/static/**")]
    async fn any_static(&self) -> &'static str {
        "static any"
    }

    #[get_mapping("/static/{name}")]
    async fn one_static(&self, #[path_variable] name: String) -> String {
        format!("static one {name}")
    }

    #[get_mapping("/static/index.html")]
    async fn index(&self) -> &'static str {
        "static index"
    }

    #[get_mapping("/docs/{*path}")]
    async fn docs(&self, #[path_variable] path: String) -> String {
        format!("docs [{path}]")
    }

    #[get_mapping("/docs/{section}/intro")]
    async fn intro(&self, #[path_variable] section: String) -> String {
        format!("docs intro {section}")
    }

    #[get_mapping("/one/*")]
    async fn one(&self) -> &'static str {
        "one"
    }

    #[get_mapping("/exact")]
    async fn exact(&self) -> &'static str {
        "exact"
    }
}

/// Requests and the answer of the `Paths` controller: Spring's matching
/// and precedence (a catch-all last, then fewer variables and wildcards,
/// then the longer pattern: `tests/spring_precedence.rs` has the cases
/// where JAX-RS would rank otherwise), and Spring 6's trailing-slash rule.
const PATH_TABLE: &[(&str, &str)] = &[
    // `**` at the end: zero or more segments, a trailing `/` included.
    ("/paths/static", "200 static any"),
    ("/paths/static/", "200 static any"),
    ("/paths/static/a/b.css", "200 static any"),
    // A variable beats the catch-all, a literal beats the variable.
    ("/paths/static/a", "200 static one a"),
    ("/paths/static/index.html", "200 static index"),
    // `{*path}`: the rest with its leading `/`, empty for none.
    ("/paths/docs", "200 docs []"),
    // (The router drops one trailing `/` before matching: Spring gives `/`.)
    ("/paths/docs/", "200 docs []"),
    ("/paths/docs/a/b", "200 docs [/a/b]"),
    ("/paths/docs/guide/intro", "200 docs intro guide"),
    ("/paths/docs/guide/intro/more", "200 docs [/guide/intro/more]"),
    // `*`: exactly one segment.
    ("/paths/one/x", "200 one"),
    ("/paths/one", "404 "),
    ("/paths/one/x/y", "404 "),
    // Spring 6: a trailing `/` does not match a pattern without one.
    ("/paths/exact", "200 exact"),
    ("/paths/exact/", "404 "),
    ("/paths/one/x/", "404 "),
    ("/paths/static/a/", "200 static any"),
];

#[test]
fn spring_path_patterns_match_and_rank_as_spring_does() {
    let c = client();
    for (path, expected) in PATH_TABLE {
        let res = c.get(path).send_blocking();
        let text = if res.status() == 200 { res.text() } else { String::new() };
        assert_eq!(format!("{} {text}", res.status().as_u16()), *expected, "GET {path}");
    }
}

/// `#[validated]` (and `#[valid]`) bodies, checked with garde as in the JAX-RS style.
#[cfg(feature = "validation")]
mod validated {
    use restlight::prelude::*;
    use serde::Deserialize;

    #[derive(Deserialize, garde::Validate)]
    struct Signup {
        #[garde(length(min = 2))]
        name: String,
    }

    #[derive(Default)]
    struct Signups;

    #[restlight::rest_controller]
    #[request_mapping("/signups")]
    impl Signups {
        #[post_mapping]
        async fn create(
            &self,
            #[request_body]
            #[validated]
            signup: Signup,
        ) -> String {
            signup.name
        }
    }

    #[test]
    fn validated_bodies_are_checked() {
        let client = Restlight::new().mock().unwrap();
        let ok = client.post("/signups").json(&serde_json::json!({"name": "Ada"})).send_blocking();
        assert_eq!(ok.text(), "Ada");
        let bad = client.post("/signups").json(&serde_json::json!({"name": "A"})).send_blocking();
        assert_eq!(bad.status(), 400);
    }
}

/// `#[request_attribute]` in a controller reads what an interceptor stored,
/// as in a JAX-RS resource (Spring's `@RequestAttribute`).
mod request_attribute {
    use restlight::prelude::*;

    #[derive(Clone)]
    struct Principal(String);

    struct Authenticate;
    impl Interceptor for Authenticate {
        async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
            if let Some(name) = ctx.header("x-user").map(str::to_owned) {
                ctx.set_attribute(Principal(name));
            }
            ControlFlow::Continue(())
        }
    }

    #[derive(Default)]
    struct Whoami;

    #[restlight::rest_controller]
    #[request_mapping(path = "/whoami", produces = "text/plain")]
    impl Whoami {
        #[get_mapping]
        async fn who(&self, #[request_attribute] who: Option<&Principal>) -> String {
            who.map_or("nobody".to_owned(), |p| p.0.clone())
        }

        #[get_mapping("/required")]
        async fn required(&self, #[request_attribute] who: &Principal) -> String {
            who.0.clone()
        }
    }

    #[test]
    fn a_controller_reads_request_attributes() {
        let client = Restlight::new().interceptor(Intercept::new(Authenticate)).mock().unwrap();
        assert_eq!(client.get("/whoami").header("x-user", "ada").send_blocking().text(), "ada");
        assert_eq!(client.get("/whoami").send_blocking().text(), "nobody");
        assert_eq!(client.get("/whoami/required").header("x-user", "bob").send_blocking().text(), "bob");
        let missing = client.get("/whoami/required").send_blocking();
        assert_eq!(missing.status(), 500);
        assert!(missing.text().contains("Principal"), "{}", missing.text());
    }
}
