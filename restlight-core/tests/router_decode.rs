//! Percent-decoding after matching.

use http::Method;
use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};

mod support;
use support::{route, EntryExt};

fn entry(template: &str) -> RouteEntry {
    route("GET", template).named(template).at("src/d.rs:1")
}

fn router() -> (Router, Vec<&'static str>) {
    let templates =
        vec!["/users/{id}", "/café/menu", "/a b/{x}", "/files/{path: .*}", "/num/{n: \\d+}", "/slash%2Fin/literal"];
    let entries: Vec<RouteEntry> = templates.iter().map(|t| entry(t)).collect();
    (Router::new(&entries).unwrap().0, templates)
}

/// (path, template expected to win, params)
type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

#[test]
fn decode_table() {
    let (r, templates) = router();
    // (path, template, params)
    let cases: &[Case<'_>] = &[
        ("/users/a%2Fb", "/users/{id}", &[("id", "a/b")]),
        ("/users/a%2fb", "/users/{id}", &[("id", "a/b")]),
        ("/users/a+b", "/users/{id}", &[("id", "a+b")]),
        ("/users/a%20b", "/users/{id}", &[("id", "a b")]),
        ("/users/%E2%9C%93", "/users/{id}", &[("id", "✓")]),
        ("/users/%25", "/users/{id}", &[("id", "%")]),
        ("/caf%C3%A9/menu", "/café/menu", &[]),
        ("/%63af%C3%A9/m%65nu", "/café/menu", &[]),
        ("/a%20b/y", "/a b/{x}", &[("x", "y")]),
        ("/files/a%2Fb/c%20d", "/files/{path: .*}", &[("path", "a/b/c d")]),
        ("/num/12", "/num/{n: \\d+}", &[("n", "12")]),
        ("/slash%2Fin/literal", "/slash%2Fin/literal", &[]),
    ];
    for (path, template, params) in cases {
        let Ok(Lookup::Matched(m)) = r.lookup(&Method::GET, path, None, None) else { panic!("{path}") };
        assert_eq!(templates[m.index], *template, "{path}");
        assert_eq!(m.params.iter().collect::<Vec<_>>(), params.to_vec(), "{path}");
    }
}

#[test]
fn encoded_slash_stays_inside_the_segment() {
    let (r, _) = router();
    // `/users/a%2Fb` is one segment; `/users/a/b` is two and matches nothing.
    assert!(matches!(r.lookup(&Method::GET, "/users/a/b", None, None), Err(RouteError::NotFound)));
    // The literal `slash/in` written as `%2F` does not match a real separator.
    assert!(matches!(r.lookup(&Method::GET, "/slash/in/literal", None, None), Err(RouteError::NotFound)));
}

#[test]
fn bad_path_table() {
    let (r, _) = router();
    let cases = [
        ("/users/%00", "NUL"),
        ("/users/a%00b", "NUL"),
        ("/users/%zz", "malformed percent-escape"),
        ("/users/%2", "malformed percent-escape"),
        ("/users/%", "malformed percent-escape"),
        ("/users/%FF", "invalid UTF-8"),
        ("/users/%C3", "invalid UTF-8"),
        ("/nowhere/%00", "NUL"), // decided before matching: 400, not 404
        ("/users/x;k=%zz", "malformed percent-escape"),
    ];
    for (path, needle) in cases {
        match r.lookup(&Method::GET, path, None, None) {
            Err(e @ RouteError::BadPath { .. }) => {
                assert!(e.to_string().contains(needle), "{path}: {e}");
                assert_eq!(e.status(), http::StatusCode::BAD_REQUEST);
            }
            other => panic!("{path}: {other:?}"),
        }
    }
}
