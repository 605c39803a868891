//! The router: arbitrary request paths, methods, `Content-Type` and `Accept`
//! against a fixed table with literals, variables, regex constraints,
//! multi-segment variables, suffixes and media-type alternatives.
//!
//! Properties: nothing panics; a match names a route of the table whose
//! method serves the request; every variable of the matched template has a
//! value, and that value satisfies the variable's regex (a plain variable is
//! never empty).
#![no_main]

use std::sync::OnceLock;

use http::Method;
use libfuzzer_sys::fuzz_target;
use restlight_core::router::{Lookup, RouteEntry, Router};

const TABLE: &[(&str, &str, &[&str], &[&str])] = &[
    ("GET", "/", &[], &[]),
    ("GET", "/users", &[], &["application/json"]),
    ("POST", "/users", &["application/json"], &["application/json"]),
    ("GET", "/users/{id: \\d+}", &[], &["application/json", "text/plain;qs=0.5"]),
    ("GET", "/users/me", &[], &[]),
    ("DELETE", "/users/{id}", &[], &[]),
    ("GET", "/users/{id}/orders/{order}", &[], &[]),
    ("GET", "/files/{path: .*}", &[], &[]),
    ("GET", "/pages/{name}.html", &[], &["text/html"]),
    ("GET", "/v{major}.{minor}/info", &[], &[]),
    ("PUT", "/sub", &["text/plain"], &[]),
    ("PUT", "/sub", &["text/*"], &[]),
    ("PUT", "/sub", &[], &[]),
    ("GET", "/a/{b: [a-z]+}/{c: .+}/end", &[], &[]),
];

const METHODS: &[Method] =
    &[Method::GET, Method::HEAD, Method::POST, Method::PUT, Method::DELETE, Method::OPTIONS, Method::PATCH];

fn router() -> &'static Router {
    static ROUTER: OnceLock<Router> = OnceLock::new();
    ROUTER.get_or_init(|| {
        let entries: Vec<RouteEntry> = TABLE
            .iter()
            .enumerate()
            .map(|(i, (method, template, consumes, produces))| RouteEntry {
                method: method.parse().expect("method"),
                template: (*template).into(),
                parsed: None,
                consumes: consumes.iter().map(|m| m.parse().expect("media")).collect(),
                produces: produces.iter().map(|m| m.parse().expect("media")).collect(),
                location: format!("table:{i}"),
                name: format!("route{i}"),
                conditions: Default::default(),
                precedence: Default::default(),
            })
            .collect();
        Router::new(&entries).expect("the fixed table compiles").0
    })
}

/// The input is text, one field per line: method, path, then optionally
/// `Content-Type` and `Accept` (an empty line is an absent header).
struct Input<'a> {
    method: &'a Method,
    path: &'a str,
    content_type: Option<&'a str>,
    accept: Option<&'a str>,
}

impl<'a> Input<'a> {
    fn read(text: &'a str) -> Option<Self> {
        let mut lines = text.split('\n');
        let method = lines.next()?;
        let method = METHODS.iter().find(|m| m.as_str() == method).unwrap_or(&METHODS[method.len() % METHODS.len()]);
        let path = lines.next()?;
        let mut header = || lines.next().filter(|h| !h.is_empty());
        Some(Input { method, path, content_type: header(), accept: header() })
    }
}

fuzz_target!(|text: &str| {
    let Some(input) = Input::read(text) else { return };
    let method = input.method;
    let Ok(Lookup::Matched(m)) = router().lookup(method, input.path, input.content_type, input.accept) else {
        return;
    };
    let (route_method, template, ..) = TABLE[m.index];
    assert!(
        route_method == method.as_str() || (route_method == "GET" && method == Method::HEAD),
        "{method} {:?} matched {route_method} {template}",
        input.path
    );
    let vars = template.matches('{').count();
    assert_eq!(m.params.len(), vars, "{:?} matched {template} with {} values", input.path, m.params.len());
    // Constrained values match their regex; a plain `{name}` is one
    // non-empty segment.
    let check = |name: &str, ok: fn(&str) -> bool| {
        if let Some(value) = m.params.get(name) {
            assert!(ok(value), "{:?} matched {template} with {name} = {value:?}", input.path);
        }
    };
    if template.contains("\\d+") {
        check("id", |v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
    }
    check("id", |v| !v.is_empty());
    check("b", |v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_lowercase()));
    check("c", |v| !v.is_empty());
    for name in ["order", "name", "major", "minor"] {
        check(name, |v| !v.is_empty());
    }
});
