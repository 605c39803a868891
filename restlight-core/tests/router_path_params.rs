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
