//! The variables a match hands to the handler: read by name, or by their
//! place in the template as generated code does, the answer is the same
//! whatever place is asked for.

use http::Method;
use restlight_core::router::{Lookup, RouteEntry, Router};

mod support;
use support::route;

#[test]
fn a_variable_read_at_any_place_gives_the_value_read_by_name() {
    let entries: Vec<RouteEntry> = ["/users/{id}/orders/{order}", "/files/{dir}/{path: .*}", "/v{major}.{minor}/x"]
        .iter()
        .map(|t| route("GET", t))
        .collect();
    let (router, _) = Router::new(&entries).expect("valid table");
    for (path, want) in [
        ("/users/7/orders/42", vec![("id", "7"), ("order", "42")]),
        ("/users/%37/orders/4%32", vec![("id", "7"), ("order", "42")]),
        ("/files/a/b/c%2Fd", vec![("dir", "a"), ("path", "b/c/d")]),
        ("/v1.2/x", vec![("major", "1"), ("minor", "2")]),
        // Values longer together than what is kept inline, and characters
        // of several bytes.
        (
            "/users/a-rather-long-user-name/orders/%C3%A9t%C3%A9-2026",
            vec![("id", "a-rather-long-user-name"), ("order", "été-2026")],
        ),
        ("/files/%E2%82%AC/%F0%9F%A6%80.rs", vec![("dir", "€"), ("path", "🦀.rs")]),
    ] {
        let Ok(Lookup::Matched(m)) = router.lookup(&Method::GET, path, None, None) else { panic!("{path}") };
        assert_eq!(m.params.iter().collect::<Vec<_>>(), want, "{path}");
        for (name, value) in &want {
            for index in 0..4 {
                assert_eq!(m.params.get_at(index, name), Some(*value), "{path}: {name} at {index}");
            }
        }
        for index in 0..4 {
            assert_eq!(m.params.get_at(index, "missing"), None);
        }
    }
}

/// A plain path's values are ranges of the path (copied once, whole); a
/// path with escapes has its values decoded one by one. Both give the same
/// names, values and segments for the same path, whatever kind of
/// variable matched: one whole segment, several in one segment, a regex
/// matched by hand, a regex of the engine, and one spanning segments; and
/// however the values lie in a path longer than what is kept inline: after
/// a long literal head, far apart, or long themselves.
#[test]
fn a_plain_path_and_the_same_path_escaped_give_the_same_values() {
    let templates = [
        "/users/{id}/orders/{order}",
        "/v{major}.{minor}/{name}-{n}/x",
        "/n/{id: \\d+}/{code: [a-z]{2,3}}",
        "/r/{word: (?:ab|cd)+e}/y",
        "/files/{dir}/{path: .*}",
        "/t/{head}/{rest: .+}/end",
        "/api/v1/customers/{customer}/orders/{order}",
        "/orgs/{org}/a-rather-long-literal-segment/{user}",
    ];
    let entries: Vec<RouteEntry> = templates.iter().map(|t| route("GET", t)).collect();
    let (router, _) = Router::new(&entries).expect("valid table");
    // The first segment (a literal) written with escapes: the same path to
    // the router, which then decodes it instead of reading it in place.
    // (Regexes match the raw segment, so the values are left as written.)
    let escaped = |path: &str| -> String {
        let (first, rest) = path[1..].split_once('/').unwrap_or((&path[1..], ""));
        let first: String = first.bytes().map(|b| format!("%{b:02X}")).collect();
        format!("/{first}/{rest}")
    };
    for (path, index) in [
        ("/users/7/orders/42", 0),
        ("/users/été/orders/🦀", 0),
        ("/v1.2/report-2026/x", 1),
        ("/n/123/fr", 2),
        ("/r/abcdcde/y", 3),
        ("/files/a/b/c/d.txt", 4),
        ("/t/h/one/two/three/end", 5),
        ("/t/a-long-head-value/one-long-segment/and-another-one/end", 5),
        // The values close together after a long head.
        ("/api/v1/customers/12345/orders/67890", 6),
        // Far apart, but short together; then long themselves.
        ("/orgs/rust-lang/a-rather-long-literal-segment/niko", 7),
        ("/orgs/a-long-organisation-name/a-rather-long-literal-segment/someone-with-a-long-name", 7),
        ("/orgs/o/a-rather-long-literal-segment/u", 7),
    ] {
        let read = |p: &str| {
            let Ok(Lookup::Matched(m)) = router.lookup(&Method::GET, p, None, None) else {
                panic!("{p} matched nothing")
            };
            assert_eq!(m.index, index, "{p}");
            let names: Vec<&str> = m.params.iter().map(|(n, _)| n).collect();
            let segments: Vec<_> = names.iter().map(|n| m.params.segments(n)).collect();
            let values: Vec<(String, String)> = m.params.iter().map(|(n, v)| (n.to_owned(), v.to_owned())).collect();
            (values, segments)
        };
        let (plain, escaped_path) = (read(path), escaped(path));
        assert!(escaped_path.contains('%'), "{escaped_path}");
        assert_eq!(read(&escaped_path), plain, "{path} and {escaped_path}");
        assert!(!plain.0.is_empty() && plain.0.iter().all(|(_, v)| path.contains(v.as_str())), "{path}: {plain:?}");
    }
}
