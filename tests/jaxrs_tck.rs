//! Request cases derived from the rules of Jakarta REST 3.1 §3.7 (request
//! matching) and §3.2–3.5 (parameters, HEAD and OPTIONS, media types),
//! written for Restlight's resources: template precedence, every parameter
//! source, `#[encoded]`, HEAD/OPTIONS, produces/consumes and sub-resource
//! locators. Every case runs in strict mode (JAX-RS method selection to the
//! letter) and in the default mode; the one case whose answer differs (the
//! method-first selection) states both answers.
//!
//! Two documented differences from the specification hold in both modes: a
//! path or query value that does not convert is 400 (JAX-RS says 404 for
//! path and query, 400 for the others), because that is what a client can
//! act on.

mod support;

use restlight::prelude::*;
use support::Transport;

// ---- template matching (§3.7.2) ------------------------------------------

#[derive(Default)]
struct Matching;

#[restlight::path("/tck/match")]
#[produces("text/plain")]
impl Matching {
    #[get("/widgets/new")]
    fn new_form(&self) -> &'static str {
        "new form"
    }

    #[get("/widgets/{id}")]
    fn widget(&self, #[path_param] id: String) -> String {
        format!("widget {id}")
    }

    #[get("/files/{name}")]
    fn file(&self, #[path_param] name: String) -> String {
        format!("file {name}")
    }

    /// More literal characters than `/files/{name}`.
    #[get("/files/{name}.txt")]
    fn text_file(&self, #[path_param] name: String) -> String {
        format!("text file {name}")
    }

    #[get("/num/{n: \\d+}")]
    fn number(&self, #[path_param] n: u64) -> String {
        format!("number {n}")
    }

    /// As many literal characters and variables, but no regex.
    #[get("/num/{s}")]
    fn word(&self, #[path_param] s: String) -> String {
        format!("word {s}")
    }

    #[get("/tree/{rest: .+}")]
    fn tree(&self, #[path_param] rest: String) -> String {
        format!("tree {rest}")
    }

    #[get("/v{major}.{minor}")]
    fn version(&self, #[path_param] major: u32, #[path_param] minor: u32) -> String {
        format!("version {major} {minor}")
    }
}

/// The case where the two modes differ: the best template lacks DELETE.
#[derive(Default)]
struct Accounts;

#[restlight::path("/tck/accounts")]
#[produces("text/plain")]
impl Accounts {
    #[get("/{id: \\d+}")]
    fn by_number(&self, #[path_param] id: u64) -> String {
        format!("account {id}")
    }

    #[delete("/{id}")]
    fn close(&self, #[path_param] id: String) -> String {
        format!("closed {id}")
    }
}

// ---- parameters (§3.2) ---------------------------------------------------

#[derive(Default)]
struct Params;

#[restlight::path("/tck/params")]
#[produces("text/plain")]
impl Params {
    #[get("/path/{n}")]
    fn path(&self, #[path_param] n: u32) -> String {
        format!("n={n}")
    }

    #[get("/query")]
    fn query(
        &self,
        #[query_param]
        #[default_value("20")]
        limit: u32,
        #[query_param] tag: Vec<String>,
        #[query_param] q: Option<String>,
    ) -> String {
        format!("limit={limit} tags={tag:?} q={q:?}")
    }

    #[get("/header")]
    fn header(
        &self,
        #[header_param("X-Level")]
        #[default_value("low")]
        level: String,
    ) -> String {
        format!("level={level}")
    }

    #[get("/cookie")]
    fn cookie(&self, #[cookie_param] session: Option<String>) -> String {
        format!("session={session:?}")
    }

    #[get("/matrix/{seg}/end")]
    fn matrix(&self, #[matrix_param] m: Option<String>, #[path_param] seg: String) -> String {
        format!("m={m:?} seg={seg}")
    }

    #[post("/form")]
    #[consumes("application/x-www-form-urlencoded")]
    fn form(
        &self,
        #[form_param] name: String,
        #[form_param]
        #[default_value("0")]
        age: u32,
    ) -> String {
        format!("name={name} age={age}")
    }

    #[get("/encoded/{word}")]
    fn encoded_path(
        &self,
        #[path_param]
        #[encoded]
        word: String,
    ) -> String {
        format!("word={word}")
    }

    #[get("/decoded/{word}")]
    fn decoded_path(&self, #[path_param] word: String) -> String {
        format!("word={word}")
    }

    #[get("/encoded-query")]
    fn encoded_query(
        &self,
        #[query_param]
        #[encoded]
        q: Option<String>,
        #[query_param] plain: Option<String>,
    ) -> String {
        format!("q={q:?} plain={plain:?}")
    }

    #[get("/encoded-matrix")]
    fn encoded_matrix(
        &self,
        #[matrix_param]
        #[encoded]
        m: Vec<String>,
    ) -> String {
        format!("m={m:?}")
    }

    /// On the method: every path, query, matrix and form parameter.
    #[get("/encoded-all/{word}")]
    #[encoded]
    fn encoded_all(&self, #[path_param] word: String, #[query_param] q: Option<String>) -> String {
        format!("word={word} q={q:?}")
    }

    #[post("/encoded-form")]
    #[consumes("application/x-www-form-urlencoded")]
    fn encoded_form(
        &self,
        #[form_param]
        #[encoded]
        text: String,
    ) -> String {
        format!("text={text}")
    }
}

// ---- media types (§3.5, §3.7.2 step 3) -----------------------------------

#[derive(Default)]
struct Media;

#[restlight::path("/tck/media")]
impl Media {
    #[post]
    #[consumes("text/plain")]
    fn plain(&self, body: String) -> String {
        format!("plain {body}")
    }

    #[post]
    #[consumes("text/*")]
    fn any_text(&self, body: String) -> String {
        format!("text {body}")
    }

    #[get]
    #[produces("text/html;qs=0.5")]
    fn html(&self) -> &'static str {
        "<p>html</p>"
    }

    #[get]
    #[produces("application/json")]
    fn json(&self) -> Json<&'static str> {
        Json("json")
    }
}

// ---- sub-resource locators (§3.4.1) --------------------------------------

#[derive(Default)]
struct Library;

#[restlight::path("/tck/library")]
impl Library {
    #[get("/books/latest")]
    #[produces("text/plain")]
    fn latest(&self) -> &'static str {
        "latest book"
    }

    #[path("/books/{isbn}")]
    fn book(&self, #[path_param] isbn: String) -> Option<Book> {
        (isbn != "missing").then_some(Book { isbn })
    }
}

struct Book {
    isbn: String,
}

#[restlight::sub_resource]
#[produces("text/plain")]
impl Book {
    #[get]
    fn show(&self) -> String {
        format!("book {}", self.isbn)
    }

    #[put]
    #[consumes("text/plain")]
    fn retitle(&self, title: String) -> String {
        format!("book {} titled {title}", self.isbn)
    }

    #[path("/chapters/{n}")]
    fn chapter(&self, #[path_param] n: u32) -> Chapter {
        Chapter { isbn: self.isbn.clone(), n }
    }
}

struct Chapter {
    isbn: String,
    n: u32,
}

#[restlight::sub_resource]
#[produces("text/plain")]
impl Chapter {
    #[get]
    fn show(
        &self,
        #[query_param]
        #[default_value("1")]
        page: u32,
    ) -> String {
        format!("chapter {} of {} page {page}", self.n, self.isbn)
    }
}

// ---- the cases -------------------------------------------------------------

/// One request and what it gets in strict mode; `default` when the default
/// mode answers otherwise.
struct Case {
    name: &'static str,
    method: &'static str,
    path: &'static str,
    headers: &'static [(&'static str, &'static str)],
    body: &'static str,
    status: u16,
    /// The body (`None`: not checked), or the `Allow` header for 405 and OPTIONS.
    expect: Option<&'static str>,
    default: Option<(u16, Option<&'static str>)>,
}

const fn get(name: &'static str, path: &'static str, status: u16, expect: Option<&'static str>) -> Case {
    Case { name, method: "GET", path, headers: &[], body: "", status, expect, default: None }
}

const CASES: &[Case] = &[
    // §3.7.2: literal characters first, then variables, then regex variables.
    get("literal beats a variable", "/tck/match/widgets/new", 200, Some("new form")),
    get("a variable matches a segment", "/tck/match/widgets/42", 200, Some("widget 42")),
    get("a trailing slash matches", "/tck/match/widgets/42/", 200, Some("widget 42")),
    get("more literal characters win", "/tck/match/files/readme.txt", 200, Some("text file readme")),
    get("the other template still matches", "/tck/match/files/readme.md", 200, Some("file readme.md")),
    get("a regex variable wins a tie", "/tck/match/num/42", 200, Some("number 42")),
    get("the regex refuses, the plain variable takes it", "/tck/match/num/forty", 200, Some("word forty")),
    get("a regex may span segments", "/tck/match/tree/a/b/c", 200, Some("tree a/b/c")),
    get("variables and text in one segment", "/tck/match/v2.7", 200, Some("version 2 7")),
    get("percent-encoded text is decoded before matching", "/tck/match/widgets/a%20b", 200, Some("widget a b")),
    get("no template matches", "/tck/match/nothing/here", 404, None),
    get("a path outside every resource", "/tck/none", 404, None),
    Case {
        name: "a template without the method: 405 with Allow",
        method: "DELETE",
        path: "/tck/match/widgets/42",
        headers: &[],
        body: "",
        status: 405,
        expect: Some("GET, HEAD, OPTIONS"),
        default: None,
    },
    // The method-first case: strict picks `{id: \d+}` (GET only).
    Case {
        name: "the best template lacks the method",
        method: "DELETE",
        path: "/tck/accounts/7",
        headers: &[],
        body: "",
        status: 405,
        expect: Some("GET, HEAD, OPTIONS"),
        default: Some((200, Some("closed 7"))),
    },
    get("the same request by GET", "/tck/accounts/7", 200, Some("account 7")),
    Case {
        name: "only the plain template matches",
        method: "DELETE",
        path: "/tck/accounts/seven",
        headers: &[],
        body: "",
        status: 200,
        expect: Some("closed seven"),
        default: None,
    },
    // §3.3.5: HEAD from GET, OPTIONS with Allow.
    Case {
        name: "HEAD is answered by GET without a body",
        method: "HEAD",
        path: "/tck/match/widgets/42",
        headers: &[],
        body: "",
        status: 200,
        expect: Some(""),
        default: None,
    },
    Case {
        name: "OPTIONS lists the methods",
        method: "OPTIONS",
        path: "/tck/match/widgets/42",
        headers: &[],
        body: "",
        status: 200,
        expect: Some("GET, HEAD, OPTIONS"),
        default: None,
    },
    // §3.2: parameters from every source, defaults, lists, conversion.
    get("a path parameter converts", "/tck/params/path/5", 200, Some("n=5")),
    get("a path parameter that does not convert", "/tck/params/path/five", 400, None),
    get("query defaults", "/tck/params/query", 200, Some("limit=20 tags=[] q=None")),
    get(
        "query values and lists",
        "/tck/params/query?limit=5&tag=a&tag=b&q=x%20y",
        200,
        Some(r#"limit=5 tags=["a", "b"] q=Some("x y")"#),
    ),
    get("a query value that does not convert", "/tck/params/query?limit=many", 400, None),
    get("a header default", "/tck/params/header", 200, Some("level=low")),
    Case {
        name: "a header",
        method: "GET",
        path: "/tck/params/header",
        headers: &[("X-Level", "high")],
        body: "",
        status: 200,
        expect: Some("level=high"),
        default: None,
    },
    Case {
        name: "a cookie",
        method: "GET",
        path: "/tck/params/cookie",
        headers: &[("Cookie", "theme=dark; session=abc")],
        body: "",
        status: 200,
        expect: Some(r#"session=Some("abc")"#),
        default: None,
    },
    get("a matrix parameter of the last segment", "/tck/params/matrix/s/end;m=1", 200, Some(r#"m=Some("1") seg=s"#)),
    get("a matrix parameter of another segment is not read", "/tck/params/matrix/s;m=1/end", 200, Some("m=None seg=s")),
    Case {
        name: "form parameters",
        method: "POST",
        path: "/tck/params/form",
        headers: &[("Content-Type", "application/x-www-form-urlencoded")],
        body: "name=Ada+L&age=36",
        status: 200,
        expect: Some("name=Ada L age=36"),
        default: None,
    },
    // §3.2 @Encoded.
    get("an encoded path parameter", "/tck/params/encoded/a%20b", 200, Some("word=a%20b")),
    get("the same path parameter decoded", "/tck/params/decoded/a%20b", 200, Some("word=a b")),
    get(
        "an encoded query parameter beside a decoded one",
        "/tck/params/encoded-query?q=a%2Bb&plain=a%2Bb",
        200,
        Some(r#"q=Some("a%2Bb") plain=Some("a+b")"#),
    ),
    get(
        "#[encoded] on the method",
        "/tck/params/encoded-all/a%20b?q=c%2Bd",
        200,
        Some(r#"word=a%20b q=Some("c%2Bd")"#),
    ),
    get("encoded matrix parameters", "/tck/params/encoded-matrix;m=x%2Fy;m=z", 200, Some(r#"m=["x%2Fy", "z"]"#)),
    Case {
        name: "an encoded form parameter",
        method: "POST",
        path: "/tck/params/encoded-form",
        headers: &[("Content-Type", "application/x-www-form-urlencoded")],
        body: "text=a+b%21",
        status: 200,
        expect: Some("text=a+b%21"),
        default: None,
    },
    // §3.5, §3.7.2 step 3: consumes and produces.
    Case {
        name: "the exact media type wins",
        method: "POST",
        path: "/tck/media",
        headers: &[("Content-Type", "text/plain")],
        body: "x",
        status: 200,
        expect: Some("plain x"),
        default: None,
    },
    Case {
        name: "the wildcard subtype takes the rest of text",
        method: "POST",
        path: "/tck/media",
        headers: &[("Content-Type", "text/csv")],
        body: "x",
        status: 200,
        expect: Some("text x"),
        default: None,
    },
    Case {
        name: "no method consumes the type: 415",
        method: "POST",
        path: "/tck/media",
        headers: &[("Content-Type", "application/json")],
        body: "{}",
        status: 415,
        expect: None,
        default: None,
    },
    Case {
        name: "Accept picks the representation",
        method: "GET",
        path: "/tck/media",
        headers: &[("Accept", "text/html")],
        body: "",
        status: 200,
        expect: Some("<p>html</p>"),
        default: None,
    },
    Case {
        name: "qs breaks a tie of the client's preferences",
        method: "GET",
        path: "/tck/media",
        headers: &[("Accept", "*/*")],
        body: "",
        status: 200,
        expect: Some("\"json\""),
        default: None,
    },
    Case {
        name: "nothing acceptable: 406",
        method: "GET",
        path: "/tck/media",
        headers: &[("Accept", "image/png")],
        body: "",
        status: 406,
        expect: None,
        default: None,
    },
    // §3.4.1: sub-resource locators.
    get("a locator's sub-resource method", "/tck/library/books/978-3", 200, Some("book 978-3")),
    get("a literal template beats a locator's", "/tck/library/books/latest", 200, Some("latest book")),
    Case {
        name: "a sub-resource method with an entity",
        method: "PUT",
        path: "/tck/library/books/978-3",
        headers: &[("Content-Type", "text/plain")],
        body: "Dune",
        status: 200,
        expect: Some("book 978-3 titled Dune"),
        default: None,
    },
    Case {
        name: "a sub-resource without the method: 405",
        method: "DELETE",
        path: "/tck/library/books/978-3",
        headers: &[],
        body: "",
        status: 405,
        expect: Some("GET, HEAD, PUT, OPTIONS"),
        default: None,
    },
    get("nested locators", "/tck/library/books/978-3/chapters/2?page=9", 200, Some("chapter 2 of 978-3 page 9")),
    get("a nested locator's parameter that does not convert", "/tck/library/books/978-3/chapters/two", 400, None),
    get("a locator that finds nothing: 404", "/tck/library/books/missing", 404, None),
    get("below a locator's path, no method", "/tck/library/books/978-3/index", 404, None),
];

async fn run(t: &Transport, strict: bool) {
    let mut failures = Vec::new();
    for case in CASES {
        let (status, expect) = match (strict, case.default) {
            (false, Some(default)) => default,
            _ => (case.status, case.expect),
        };
        let answer = t.call(case.method, case.path, case.headers, case.body).await;
        let seen = if status == 405 || case.method == "OPTIONS" {
            answer.header("allow").unwrap_or_default().to_owned()
        } else {
            answer.body.clone()
        };
        if answer.status != status || expect.is_some_and(|e| e != seen) {
            failures.push(format!(
                "{}: {} {} -> {} {seen:?}, expected {status} {expect:?}",
                case.name, case.method, case.path, answer.status
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), CASES.len(), failures.join("\n"));
}

#[tokio::test]
async fn every_case_passes_in_strict_mode() {
    run(&Transport::mock(Restlight::new().strict_matching(true)), true).await;
}

#[tokio::test]
async fn every_case_passes_in_strict_mode_over_http1() {
    run(&Transport::http1(Restlight::new().strict_matching(true)), true).await;
}

#[tokio::test]
async fn all_but_the_method_first_case_pass_in_the_default_mode() {
    run(&Transport::mock(Restlight::new()), false).await;
}

#[tokio::test]
async fn the_default_mode_over_http1() {
    run(&Transport::http1(Restlight::new()), false).await;
}

#[test]
fn no_case_is_left_out_at_startup() {
    // Every route of the case set compiles into one router, in both modes:
    // 27 methods of root resources and 3 reached through locators.
    for strict in [true, false] {
        let app = Restlight::new().strict_matching(strict).build().unwrap();
        assert_eq!(app.routes().len(), 30);
    }
}
