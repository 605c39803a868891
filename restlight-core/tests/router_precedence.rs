//! JAX-RS 3.7.2 precedence over full paths, and determinism.

use http::Method;
use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};

mod support;
use support::{route, EntryExt};

fn entry(method: Method, template: &str) -> RouteEntry {
    route(method.as_str(), template).named(template).at(&format!("src/{template}.rs:1"))
}

fn winner(entries: &[RouteEntry], path: &str) -> String {
    let (r, _) = Router::new(entries).expect("valid table");
    winner_in(&r, entries, path)
}

fn winner_in(r: &Router, entries: &[RouteEntry], path: &str) -> String {
    match r.lookup(&Method::GET, path, None, None) {
        Ok(Lookup::Matched(m)) => entries[m.index].template.clone(),
        other => panic!("{path}: {other:?}"),
    }
}

#[test]
fn precedence_table() {
    // (templates, path, expected winner)
    let cases: &[(&[&str], &str, &str)] = &[
        // more literal characters first
        (&["/users/{id}", "/users/me"], "/users/me", "/users/me"),
        (&["/users/{id}", "/users/me"], "/users/you", "/users/{id}"),
        (&["/{a}/b", "/a/{b}"], "/a/b", "/a/{b}"), // equal keys: the shape decides, literal first
        (&["/{a}/{b}", "/a/{b}", "/{a}/b"], "/x/b", "/{a}/b"),
        (&["/{x}.json", "/{x}"], "/a.json", "/{x}.json"),
        // then more variables
        (&["/{a}-{b}", "/{ab}"], "/x-y", "/{a}-{b}"),
        // then more regex variables
        (&["/items/{id}", "/items/{id: \\d+}"], "/items/12", "/items/{id: \\d+}"),
        (&["/items/{id}", "/items/{id: \\d+}"], "/items/ab", "/items/{id}"),
        // literal characters count across the whole path, not per class
        (&["/a/{path: .*}", "/a/b/{c}"], "/a/b/c", "/a/b/{c}"),
        (&["/a/{path: .*}", "/a/b/{c}"], "/a/x/c", "/a/{path: .*}"),
        (&["/{path: .*}", "/users/{id}"], "/users/1", "/users/{id}"),
        (&["/{path: .*}", "/users/{id}"], "/other/1", "/{path: .*}"),
        // a regex variable that matches the empty string may beat a static route
        (&["/ab", "/a{x: b?}b"], "/ab", "/a{x: b?}b"),
        (&["/a", "/{x: [a-z]*}a"], "/a", "/{x: [a-z]*}a"),
    ];
    for (templates, path, expected) in cases {
        let entries: Vec<RouteEntry> = templates.iter().map(|t| entry(Method::GET, t)).collect();
        assert_eq!(winner(&entries, path), *expected, "{templates:?} {path}");
    }
}

#[test]
fn the_best_template_serving_the_method_wins() {
    // `/users/me` is the better path, but only `/users/{id}` has DELETE: the
    // users resource's `GET /users/{id: \d+}` + `DELETE /users/{id}` (README, examples/users.rs) needs this.
    let entries = [entry(Method::GET, "/users/me"), entry(Method::DELETE, "/users/{id}")];
    let (r, _) = Router::new(&entries).unwrap();
    assert!(matches!(r.lookup(&Method::DELETE, "/users/me", None, None), Ok(Lookup::Matched(m)) if m.index == 1));
    assert!(matches!(r.lookup(&Method::GET, "/users/me", None, None), Ok(Lookup::Matched(m)) if m.index == 0));
    assert!(matches!(r.lookup(&Method::DELETE, "/users/7", None, None), Ok(Lookup::Matched(m)) if m.index == 1));
    // No matching template serves PUT: 405 listing the methods of all of them.
    match r.lookup(&Method::PUT, "/users/me", None, None) {
        Err(RouteError::MethodNotAllowed { allow }) => assert_eq!(allow, "GET, HEAD, DELETE, OPTIONS"),
        other => panic!("{other:?}"),
    }
    match r.lookup(&Method::OPTIONS, "/users/me", None, None) {
        Ok(Lookup::Options { allow }) => assert_eq!(allow, "GET, HEAD, DELETE, OPTIONS"),
        other => panic!("{other:?}"),
    }
    match r.lookup(&Method::PUT, "/users/7", None, None) {
        Err(RouteError::MethodNotAllowed { allow }) => assert_eq!(allow, "DELETE, OPTIONS"),
        other => panic!("{other:?}"),
    }
}

/// A fixed pseudo-random permutation (no rand dependency).
fn shuffled<T: Clone>(items: &[T], seed: u64) -> Vec<T> {
    let mut out = items.to_vec();
    let mut state = seed;
    for i in (1..out.len()).rev() {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        out.swap(i, usize::try_from(state >> 33).unwrap() % (i + 1));
    }
    out
}

#[test]
fn determinism_under_shuffled_input() {
    let templates = [
        "/{a}/b",
        "/a/{b}",
        "/{a}/{b}",
        "/a/b/{c: .*}",
        "/{p: .*}",
        "/a/{x: \\d+}",
        "/a/{x: [a-z]+}",
        "/{a}.{b}",
        "/{a}.json",
        "/v{n}",
        "/v{n: \\d+}",
        "/a/b",
        "/x/{y}/z",
    ];
    let paths = ["/a/b", "/q/b", "/a/1", "/a/z", "/a/b/c/d", "/f.json", "/f.txt", "/v1", "/vx", "/x/y/z", "/zz/yy"];
    let entries: Vec<RouteEntry> = templates.iter().map(|t| entry(Method::GET, t)).collect();
    let expected: Vec<String> = paths.iter().map(|p| winner(&entries, p)).collect();
    for seed in 0..32 {
        let mixed = shuffled(&entries, seed);
        let (r, _) = Router::new(&mixed).unwrap();
        let got: Vec<String> = paths.iter().map(|p| winner_in(&r, &mixed, p)).collect();
        assert_eq!(got, expected, "seed {seed}");
    }
    assert_eq!(expected[0], "/a/b");
    assert_eq!(expected[2], "/a/{x: \\d+}");
    assert_eq!(expected[3], "/a/{x: [a-z]+}");
}

/// Routes declared with [`Precedence::Spring`] rank as Spring's
/// `PathPattern` does, whatever order the table lists them in; a JAX-RS
/// route among them is placed by Spring's rule, and JAX-RS routes keep
/// their own order among themselves.
#[test]
fn spring_precedence_table() {
    use restlight_core::router::Precedence;
    let spring = |template: &str, wildcards: u16, catch_all: bool| RouteEntry {
        precedence: Precedence::Spring { wildcards, catch_all },
        ..entry(Method::GET, template)
    };
    let catch_all = |template: &str| spring(template, 0, true);
    // (routes, path, expected winner)
    let cases: Vec<(Vec<RouteEntry>, &str, &str)> = vec![
        // a catch-all last, though JAX-RS prefers its literal text
        (vec![spring("/{x}/{y}", 0, false), catch_all("/api{rest: (?:/.*)?}")], "/api/x", "/{x}/{y}"),
        // a `*` weighs 100 variables
        (vec![spring("/x/{star1}", 1, false), spring("/{p}/{q}", 0, false)], "/x/y", "/{p}/{q}"),
        // fewer variables, whatever the literal text
        (
            vec![spring("/{l}/documentation/{p}", 0, false), spring("/en/{s}/index", 0, false)],
            "/en/documentation/index",
            "/en/{s}/index",
        ),
        // equal scores: the longer pattern
        (vec![spring("/users/{id}", 0, false), spring("/{x}/details", 0, false)], "/users/details", "/{x}/details"),
        // catch-alls: the longer one first
        (
            vec![catch_all("{rest: (?:/.*)?}"), catch_all("/files{rest: (?:/.*)?}")],
            "/files/a",
            "/files{rest: (?:/.*)?}",
        ),
        // Spring's ties: the JAX-RS order
        (vec![spring("/g/{y}", 0, false), spring("/g/{x: \\d+}", 0, false)], "/g/1", "/g/{x: \\d+}"),
        // across styles: the JAX-RS variable before the Spring catch-all
        (vec![catch_all("/m{rest: (?:/.*)?}"), entry(Method::GET, "/m/{x}")], "/m/a", "/m/{x}"),
        // JAX-RS among itself: more literal text first
        (
            vec![entry(Method::GET, "/{l}/documentation/{p}"), entry(Method::GET, "/en/{s}/index")],
            "/en/documentation/index",
            "/{l}/documentation/{p}",
        ),
    ];
    for (routes, path, expected) in cases {
        assert_eq!(winner(&routes, path), expected, "{path}");
        let reversed: Vec<RouteEntry> = routes.iter().rev().cloned().collect();
        assert_eq!(winner(&reversed, path), expected, "{path}, the table reversed");
    }
}
