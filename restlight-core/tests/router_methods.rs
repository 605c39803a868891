//! Method selection inside the best template group: 405 with Allow, HEAD
//! from GET, OPTIONS.

use http::{HeaderValue, Method};
use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};

mod support;
use support::{route, EntryExt};

fn entry(method: &str, template: &str) -> RouteEntry {
    route(method, template).at(&format!("src/r.rs:{}", template.len()))
}

fn table() -> Vec<RouteEntry> {
    vec![
        entry("GET", "/items"),
        entry("POST", "/items"),
        entry("DELETE", "/items/{id}"),
        entry("PUT", "/items/{key}"),
        entry("PATCH", "/items/{id}"),
        entry("HEAD", "/explicit"),
        entry("GET", "/explicit"),
        entry("OPTIONS", "/opt"),
        entry("POST", "/opt"),
        entry("PURGE", "/cache"),
        entry("TRACE", "/cache"),
        entry("LOCK", "/locks"),
    ]
}

#[test]
fn method_table() {
    let entries = table();
    let (r, _) = Router::new(&entries).unwrap();
    // (method, path, outcome: "route NAME [head]" | "options ALLOW" | "405 ALLOW" | "404")
    let cases = [
        ("GET", "/items", "route GET /items"),
        ("HEAD", "/items", "route GET /items head"),
        ("POST", "/items", "route POST /items"),
        ("PUT", "/items", "405 GET, HEAD, POST, OPTIONS"),
        ("OPTIONS", "/items", "options GET, HEAD, POST, OPTIONS"),
        ("GET", "/items/1", "405 PUT, DELETE, PATCH, OPTIONS"),
        ("HEAD", "/items/1", "405 PUT, DELETE, PATCH, OPTIONS"),
        ("OPTIONS", "/items/1", "options PUT, DELETE, PATCH, OPTIONS"),
        ("PUT", "/items/1", "route PUT /items/{key}"),
        ("HEAD", "/explicit", "route HEAD /explicit"),
        ("OPTIONS", "/explicit", "options GET, HEAD, OPTIONS"),
        ("OPTIONS", "/opt", "route OPTIONS /opt"),
        ("GET", "/opt", "405 POST, OPTIONS"),
        ("GET", "/cache", "405 OPTIONS, TRACE, PURGE"),
        ("PURGE", "/cache", "route PURGE /cache"),
        // A group of one route of an extension method: another extension
        // method is not served, nor is HEAD or GET.
        ("LOCK", "/locks", "route LOCK /locks"),
        ("UNLOCK", "/locks", "405 OPTIONS, LOCK"),
        ("GET", "/locks", "405 OPTIONS, LOCK"),
        ("HEAD", "/locks", "405 OPTIONS, LOCK"),
        ("OPTIONS", "/nowhere", "404"),
        ("HEAD", "/nowhere", "404"),
    ];
    for (method, path, expected) in cases {
        let method: Method = method.parse().unwrap();
        let got = match r.lookup(&method, path, None, None) {
            Ok(Lookup::Matched(m)) => {
                format!("route {}{}", entries[m.index].name, if m.head_from_get { " head" } else { "" })
            }
            Ok(Lookup::Options { allow }) => format!("options {}", allow.to_str().unwrap()),
            Err(e @ RouteError::MethodNotAllowed { .. }) => {
                assert_eq!(e.status(), 405);
                let RouteError::MethodNotAllowed { allow } = e else { unreachable!() };
                format!("405 {}", allow.to_str().unwrap())
            }
            Err(RouteError::NotFound) => "404".to_owned(),
            Err(e) => panic!("{method} {path}: {e}"),
        };
        assert_eq!(got, expected, "{method} {path}");
    }
}

#[test]
fn allow_is_the_same_with_or_without_trailing_slash() {
    let (r, _) = Router::new(&table()).unwrap();
    let Ok(Lookup::Options { allow: a }) = r.lookup(&Method::OPTIONS, "/items", None, None) else { panic!() };
    let Ok(Lookup::Options { allow: b }) = r.lookup(&Method::OPTIONS, "/items/", None, None) else { panic!() };
    assert_eq!(a, b);
    assert_eq!(a, HeaderValue::from_static("GET, HEAD, POST, OPTIONS"));
}
