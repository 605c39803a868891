//! A request path written exactly as a static template is answered without
//! the full scan of the path; every other spelling of the same path (escapes,
//! matrix parameters, a query, a trailing `/`, a doubled `/`) must reach
//! the same route, or the same refusal, as before, and the method rules
//! (405, HEAD through GET, OPTIONS, strict mode) must not change.

use http::Method;
use restlight_core::router::{Conditions, Lookup, RouteEntry, RouteError, Router};

mod support;
use support::route;

const TEMPLATES: &[&str] = &["/hello", "/users/me", "/users/{id}", "/", "/a//b", "/{any}/b", "/spring"];

fn table() -> Vec<RouteEntry> {
    TEMPLATES
        .iter()
        .map(|t| {
            let mut e = route("GET", t);
            if *t == "/spring" {
                e.conditions = Conditions::default().trailing_slash(false);
            }
            e
        })
        .chain([route("DELETE", "/users/{id}")])
        .collect()
}

fn router() -> Router {
    Router::new(&table()).expect("valid table").0
}

/// The template of the route `method path` reaches, or the error.
fn find(r: &Router, method: &Method, path: &str) -> Result<&'static str, RouteError> {
    match r.lookup(method, path, None, None)? {
        Lookup::Matched(m) => Ok(TEMPLATES.get(m.index).copied().unwrap_or("DELETE /users/{id}")),
        Lookup::Options { allow } => panic!("OPTIONS answer {allow:?} for {path}"),
    }
}

#[test]
fn every_spelling_of_a_static_path_reaches_the_static_route() {
    let r = router();
    for path in [
        "/hello",
        "/hello/",
        "/hello?x=1",
        "/hello#top",
        "/h%65llo",
        "/hello;v=1",
        "hello",
        "/users/me",
        "/users/me/",
        "/users/m%65",
        "/users;x=1/me",
    ] {
        let want = if path.contains("hello") || path.contains("h%65") { "/hello" } else { "/users/me" };
        assert_eq!(find(&r, &Method::GET, path), Ok(want), "{path}");
    }
    assert_eq!(find(&r, &Method::GET, "/"), Ok("/"));
    assert_eq!(find(&r, &Method::GET, ""), Ok("/"));
    assert_eq!(find(&r, &Method::GET, "/a//b"), Ok("/a//b"));
    // One `/` less: `/a/b` is `{any}/b`, not the static `/a//b`.
    assert_eq!(find(&r, &Method::GET, "/a/b"), Ok("/{any}/b"));
    assert_eq!(find(&r, &Method::GET, "/users/7"), Ok("/users/{id}"));
}

#[test]
fn an_exact_static_path_keeps_the_method_rules() {
    let r = router();
    let Ok(Lookup::Matched(m)) = r.lookup(&Method::HEAD, "/hello", None, None) else { panic!("HEAD /hello") };
    assert!(m.head_from_get);
    let Ok(Lookup::Options { allow }) = r.lookup(&Method::OPTIONS, "/hello", None, None) else { panic!("OPTIONS") };
    assert_eq!(allow, "GET, HEAD, OPTIONS");
    let Err(RouteError::MethodNotAllowed { allow }) = r.lookup(&Method::POST, "/hello", None, None) else {
        panic!("POST /hello")
    };
    assert_eq!(allow, "GET, HEAD, OPTIONS");
    // `/users/me` has no DELETE, `/users/{id}` has: the method chooses.
    assert_eq!(find(&r, &Method::DELETE, "/users/me"), Ok("DELETE /users/{id}"));
    // To the letter, the best template decides first: 405.
    let strict = Router::new(&table()).expect("valid table").0.strict(true);
    let Err(RouteError::MethodNotAllowed { allow }) = strict.lookup(&Method::DELETE, "/users/me", None, None) else {
        panic!("strict DELETE /users/me")
    };
    assert_eq!(allow, "GET, HEAD, OPTIONS");
    assert_eq!(find(&strict, &Method::GET, "/users/me"), Ok("/users/me"));
}

#[test]
fn a_route_refusing_a_trailing_slash_still_takes_its_exact_path() {
    let r = router();
    assert_eq!(find(&r, &Method::GET, "/spring"), Ok("/spring"));
    // `/spring/` is refused by the Spring route; `/{any}/b` does not match it.
    assert_eq!(find(&r, &Method::GET, "/spring/"), Err(RouteError::NotFound));
}

/// Static templates of every length up to 40 bytes, and pairs that agree
/// in their first and last eight bytes: each path reaches its own route,
/// written exactly or with an escape, and a path one byte off none.
#[test]
fn static_paths_of_every_length_are_told_apart() {
    let mut templates: Vec<String> = (1..=40u32)
        .map(|n| format!("/{}", (0..n).map(|i| char::from(b'a' + ((i * 5 + n) % 26) as u8)).collect::<String>()))
        .collect();
    templates.push("/aaaaaaaa-one-zzzzzzzz".to_owned());
    templates.push("/aaaaaaaa-two-zzzzzzzz".to_owned());
    templates.push("/aaaaaaaa-zzzzzzzz".to_owned());
    let entries: Vec<RouteEntry> = templates.iter().map(|t| route("GET", t)).collect();
    let r = Router::new(&entries).expect("valid table").0;
    let index = |path: &str| match r.lookup(&Method::GET, path, None, None) {
        Ok(Lookup::Matched(m)) => Ok(m.index),
        Ok(Lookup::Options { allow }) => panic!("OPTIONS answer {allow:?} for {path}"),
        Err(e) => Err(e),
    };
    for (i, t) in templates.iter().enumerate() {
        assert_eq!(index(t), Ok(i), "{t}");
        let escaped = format!("/%{:02X}{}", t.as_bytes()[1], &t[2..]);
        assert_eq!(index(&escaped), Ok(i), "{escaped}");
        for at in 1..t.len() {
            let mut off = t.clone().into_bytes();
            off[at] = b'_';
            let off = String::from_utf8(off).unwrap();
            assert!(matches!(index(&off), Err(RouteError::NotFound)), "{off}");
        }
    }
}
