//! Startup checks: conflicting pairs (errors) and shadowed routes (warnings).

use http::Method;
use restlight_core::router::{RouteEntry, Router, RouterProblem, TemplateError};

mod support;
use support::{route, EntryExt};

fn entry(method: Method, template: &str, consumes: &[&str], produces: &[&str], name: &str) -> RouteEntry {
    route(method.as_str(), template)
        .consumes(consumes)
        .produces(produces)
        .at(&format!("src/{name}.rs:{}", name.len()))
        .named(name)
}

#[test]
fn conflict_table() {
    use Method as M;
    // (a, b, conflict?)
    let cases: &[(RouteEntry, RouteEntry, bool)] = &[
        (entry(M::GET, "/u/{id}", &[], &[], "a"), entry(M::GET, "/u/{uid}", &[], &[], "b"), true),
        (entry(M::GET, "/u/{id}", &[], &[], "a"), entry(M::GET, "u/{id}/", &[], &[], "b"), true),
        (entry(M::GET, "/u/{id}", &[], &[], "a"), entry(M::POST, "/u/{id}", &[], &[], "b"), false),
        (entry(M::GET, "/u/{id: \\d+}", &[], &[], "a"), entry(M::GET, "/u/{x: \\d+}", &[], &[], "b"), true),
        (entry(M::GET, "/u/{id: \\d+}", &[], &[], "a"), entry(M::GET, "/u/{id}", &[], &[], "b"), false),
        (entry(M::GET, "/u/{id: \\d+}", &[], &[], "a"), entry(M::GET, "/u/{id:\\d+}", &[], &[], "b"), true),
        (entry(M::GET, "/u/me", &[], &[], "a"), entry(M::GET, "/u/{id}", &[], &[], "b"), false),
        // consumes: the same set conflicts (none stated is `*/*`); different
        // sets are ranked per request, the most specific match first
        (entry(M::POST, "/u", &["application/json"], &[], "a"), entry(M::POST, "/u", &[], &[], "b"), false),
        (entry(M::POST, "/u", &["*/*"], &[], "a"), entry(M::POST, "/u", &[], &[], "b"), true),
        (entry(M::POST, "/u", &["text/*"], &[], "a"), entry(M::POST, "/u", &["text/plain"], &[], "b"), false),
        (
            entry(M::POST, "/u", &["text/plain", "text/csv"], &[], "a"),
            entry(M::POST, "/u", &["text/csv", "text/plain"], &[], "b"),
            true,
        ),
        (entry(M::POST, "/u", &["application/json"], &[], "a"), entry(M::POST, "/u", &["text/plain"], &[], "b"), false),
        // produces: the same set of essences conflicts, order, parameters
        // and `qs` ignored
        (entry(M::GET, "/u", &[], &["text/html; qs=0.5"], "a"), entry(M::GET, "/u", &[], &["text/html"], "b"), true),
        (entry(M::GET, "/u", &[], &["text/*"], "a"), entry(M::GET, "/u", &[], &["text/html"], "b"), false),
        (entry(M::GET, "/u", &[], &["application/json"], "a"), entry(M::GET, "/u", &[], &["text/plain"], "b"), false),
        (entry(M::GET, "/u", &[], &["application/json"], "a"), entry(M::GET, "/u", &[], &[], "b"), false),
        (
            entry(M::GET, "/u", &[], &["a/x", "b/y"], "a"),
            entry(M::GET, "/u", &[], &["b/y; charset=utf-8", "a/x"], "b"),
            true,
        ),
    ];
    for (a, b, conflict) in cases {
        let result = Router::new(&[a.clone(), b.clone()]);
        match (result, conflict) {
            (Ok(_), false) => {}
            (Err(e), true) => {
                assert_eq!(e.conflicts(), 1, "{e}");
                let msg = e.to_string();
                for needle in [&a.name, &a.location, &b.name, &b.location, &a.template, &b.template] {
                    assert!(msg.contains(needle.as_str()), "{needle} missing in {msg}");
                }
            }
            (Ok(_), true) => panic!("expected a conflict: {a:?} {b:?}"),
            (Err(e), false) => panic!("unexpected error: {e}"),
        }
    }
}

#[test]
fn every_conflicting_pair_is_reported_with_both_locations() {
    let entries = [
        entry(Method::GET, "/x/{a}", &[], &[], "first"),
        entry(Method::GET, "/x/{b}", &[], &[], "second"),
        entry(Method::GET, "/x/{c}", &[], &[], "third"),
        entry(Method::PUT, "/y", &["text/plain"], &[], "put1"),
        entry(Method::PUT, "/y", &["text/plain"], &[], "put2"),
        entry(Method::PUT, "/y", &["text/*"], &[], "put3"),
        entry(Method::GET, "/bad/{", &[], &[], "broken"),
    ];
    let err = Router::new(&entries).unwrap_err();
    assert_eq!(err.conflicts(), 4, "{err}");
    assert_eq!(err.problems().len(), 5, "{err}");
    let msg = err.to_string();
    for (a, b) in [("first", "second"), ("first", "third"), ("second", "third"), ("put1", "put2")] {
        let line = msg
            .lines()
            .find(|l| l.contains(&format!("`{a}`")) && l.contains(&format!("`{b}`")))
            .unwrap_or_else(|| panic!("pair {a}/{b} missing in {msg}"));
        assert!(
            line.contains(&format!("src/{a}.rs:{}", a.len())) && line.contains(&format!("src/{b}.rs:{}", b.len())),
            "{line}"
        );
    }
    assert!(msg.contains("broken") && msg.contains("src/broken.rs:6"), "{msg}");
}

#[test]
fn conflict_report_does_not_depend_on_input_order() {
    let mut entries = vec![
        entry(Method::GET, "/x/{a}", &[], &[], "first"),
        entry(Method::GET, "/x/{b}", &[], &[], "second"),
        entry(Method::GET, "/x/{c}", &[], &[], "third"),
    ];
    let before = Router::new(&entries).unwrap_err().to_string();
    entries.reverse();
    assert_eq!(Router::new(&entries).unwrap_err().to_string(), before);
}

#[test]
fn shadowed_routes_are_warnings_table() {
    // (templates, number of warnings, a route named in the warning)
    let cases: &[(&[&str], usize, &str)] = &[
        (&["/a/b", "/a/{x: b}"], 1, "/a/{x: b}"),
        (&["/v1/items", "/{v: v1}/items"], 1, "/{v: v1}/items"),
        (&["/u/{id: [^/]+}", "/u/{id}"], 1, "/u/{id}"),
        (&["/a/{x: .*}", "/a/b", "/a/{y}"], 0, ""),
        (&["/u/{id: \\d+}", "/u/{id}", "/u/me"], 0, ""),
    ];
    for (templates, count, named) in cases {
        let entries: Vec<RouteEntry> =
            templates.iter().enumerate().map(|(i, t)| entry(Method::GET, t, &[], &[], &format!("r{i}"))).collect();
        let (_, warnings) = Router::new(&entries).unwrap();
        assert_eq!(warnings.len(), *count, "{templates:?}: {warnings:?}");
        if *count > 0 {
            assert!(warnings[0].to_string().contains(named), "{warnings:?}");
        }
    }
}

#[test]
fn problems_are_typed() {
    let entries = [
        entry(Method::GET, "/x/{a}", &[], &[], "first"),
        entry(Method::GET, "/x/{b}", &[], &[], "second"),
        entry(Method::GET, "/bad/{", &[], &[], "broken"),
    ];
    let err = Router::new(&entries).unwrap_err();
    let [RouterProblem::BadTemplate { route, error }, RouterProblem::Conflict { first, second }] = err.problems()
    else {
        panic!("{err:?}");
    };
    assert_eq!((route.name.as_str(), error), ("broken", &TemplateError::UnclosedBrace { at: 5..6 }));
    assert_eq!((first.name.as_str(), second.name.as_str()), ("first", "second"));
}

/// Routes on one template and method told apart by their parameter or
/// header conditions coexist; the same conditions (in another order, a
/// header named in another case) conflict.
#[test]
fn conditions_tell_routes_apart() {
    use restlight_core::router::Conditions;
    use restlight_grammar::condition::Condition;

    let with = |name: &str, params: &[&'static str], headers: &[&'static str]| {
        let parse = |list: &[&'static str]| list.iter().map(|c| Condition::parse(c).unwrap()).collect::<Vec<_>>();
        let mut e = entry(Method::GET, "/items", &[], &[], name);
        e.conditions = Conditions::new(parse(params), parse(headers));
        e
    };
    let apart = [
        (with("a", &["version=2"], &[]), with("b", &["version!=2"], &[])),
        (with("a", &["version=2"], &[]), with("b", &[], &[])),
        (with("a", &[], &["X-Api=1"]), with("b", &[], &["X-Api=2"])),
        (with("a", &["q"], &[]), with("b", &[], &["q"])),
    ];
    for (a, b) in apart {
        assert!(Router::new(&[a.clone(), b.clone()]).is_ok(), "{:?} and {:?}", a.conditions, b.conditions);
    }
    let same = (with("a", &["q", "!debug"], &["X-Api=1"]), with("b", &["!debug", "q", "q"], &["x-api=1"]));
    let err = Router::new(&[same.0, same.1]).unwrap_err();
    assert_eq!(err.conflicts(), 1, "{err}");
}
