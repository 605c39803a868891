//! Literal segments among many siblings, next to variables: the child
//! chosen, the variable's value, decoded and escaped segments, and
//! precedence against the variable, for tables with few and with many
//! siblings under one segment.

use http::Method;
use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};

mod support;
use support::{route, EntryExt};

fn router(templates: &[String]) -> Router {
    let entries: Vec<RouteEntry> = templates.iter().map(|t| route("GET", t).named(t)).collect();
    Router::new(&entries).expect("valid table").0
}

/// `(template matched, params)` or the error.
fn find(r: &Router, templates: &[String], path: &str) -> Result<(String, Vec<(String, String)>), RouteError> {
    match r.lookup(&Method::GET, path, None, None)? {
        Lookup::Matched(m) => {
            Ok((templates[m.index].clone(), m.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect()))
        }
        Lookup::Options { .. } => panic!("unexpected OPTIONS answer"),
    }
}

/// (path, template expected to win, params)
type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

fn p(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

/// Literal names that differ only after their fourth byte, only in
/// length, or are shorter than four bytes, so that a cheap first test on
/// length and prefix cannot tell them apart alone.
fn names(count: usize) -> Vec<String> {
    let fixed = ["a", "ab", "abc", "abcd", "abcde", "abcdf", "abcdeg", "subscribers", "subscription", "x", "é", "éé"];
    let mut names: Vec<String> = fixed.iter().map(|s| (*s).to_owned()).collect();
    let mut i = 0;
    while names.len() < count {
        names.push(format!("abcd{i}"));
        i += 1;
    }
    names.truncate(count);
    names
}

/// Under `/r/{owner}/`: `count` literal children, each with a variable
/// child of its own, next to a variable segment `{other}`.
fn table(count: usize) -> Vec<String> {
    let mut templates = vec!["/r/{owner}/{other}".to_owned(), "/r/{owner}".to_owned()];
    for name in names(count) {
        templates.push(format!("/r/{{owner}}/{name}"));
        templates.push(format!("/r/{{owner}}/{name}/{{id}}"));
    }
    templates
}

fn check_table(count: usize) {
    let templates = table(count);
    let r = router(&templates);
    for name in names(count) {
        let lit = format!("/r/{{owner}}/{name}");
        assert_eq!(find(&r, &templates, &format!("/r/o/{name}")), Ok((lit.clone(), p(&[("owner", "o")]))), "{name}");
        assert_eq!(find(&r, &templates, &format!("/r/o/{name}/")), Ok((lit, p(&[("owner", "o")]))), "{name}/");
        let with_id = format!("/r/{{owner}}/{name}/{{id}}");
        assert_eq!(
            find(&r, &templates, &format!("/r/o/{name}/7")),
            Ok((with_id, p(&[("owner", "o"), ("id", "7")]))),
            "{name}/7"
        );
        // The same name escaped is the same literal segment.
        let escaped: String = name.bytes().map(|b| format!("%{b:02X}")).collect();
        assert_eq!(
            find(&r, &templates, &format!("/r/o/{escaped}")).map(|(t, _)| t),
            Ok(format!("/r/{{owner}}/{name}")),
            "{escaped}"
        );
    }
    let other = "/r/{owner}/{other}".to_owned();
    // Not one of the literals (a prefix, a longer name, another case): the variable.
    for seg in ["abcdX", "abcdefgh", "ABC", "subscriber", "subscriptions", "b", "é%C3%A9x"] {
        let want = seg.replace("%C3%A9", "é");
        assert_eq!(
            find(&r, &templates, &format!("/r/o/{seg}")),
            Ok((other.clone(), p(&[("owner", "o"), ("other", &want)]))),
            "{seg}"
        );
    }
    // A decoded `/` stays inside its segment and is no literal's.
    assert_eq!(
        find(&r, &templates, "/r/o/a%2Fb"),
        Ok((other.clone(), p(&[("owner", "o"), ("other", "a/b")]))),
        "a%2Fb"
    );
    // An empty segment matches neither a literal nor a variable.
    assert_eq!(find(&r, &templates, "/r/o//x"), Err(RouteError::NotFound));
    assert_eq!(find(&r, &templates, "/r//abc"), Err(RouteError::NotFound));
    assert_eq!(find(&r, &templates, "/r/o/abc/7/8"), Err(RouteError::NotFound));
    // Matrix parameters are not part of the segment.
    assert_eq!(
        find(&r, &templates, "/r/o;v=1/abc;w=2/9"),
        Ok(("/r/{owner}/abc/{id}".to_owned(), p(&[("owner", "o"), ("id", "9")])))
    );
}

#[test]
fn few_literal_siblings_next_to_a_variable() {
    check_table(12);
}

#[test]
fn many_literal_siblings_next_to_a_variable() {
    check_table(32);
    check_table(33);
    check_table(200);
}

#[test]
fn long_literal_siblings_that_share_their_ends() {
    // Longer than 16 bytes, with one long prefix and one long suffix: the
    // names differ in their middle bytes only, or in their length.
    let mut names: Vec<String> = (0..300).map(|i| format!("a-common-prefix-of-20-{i:03}-and-one-suffix")).collect();
    names.push("a-common-prefix-of-20-000-and-one-suffiy".to_owned());
    names.push("a-common-prefix-of-20-0000-and-one-suffix".to_owned());
    let mut templates = vec!["/l/{other}".to_owned()];
    templates.extend(names.iter().map(|n| format!("/l/{n}")));
    let r = router(&templates);
    for name in &names {
        assert_eq!(find(&r, &templates, &format!("/l/{name}")), Ok((format!("/l/{name}"), vec![])), "{name}");
    }
    for seg in
        ["a-common-prefix-of-20-300-and-one-suffix", "a-common-prefix-of-20-00-and-one-suffix", "a-common-prefix"]
    {
        assert_eq!(
            find(&r, &templates, &format!("/l/{seg}")),
            Ok(("/l/{other}".to_owned(), p(&[("other", seg)]))),
            "{seg}"
        );
    }
}

#[test]
fn a_plain_variable_takes_the_whole_decoded_segment() {
    let templates: Vec<String> =
        ["/u/{id}", "/u/{id}/x", "/u/{id: \\d+}/y", "/v/{a}/{b}/{c}"].iter().map(|s| (*s).to_owned()).collect();
    let r = router(&templates);
    let cases: &[Case<'_>] = &[
        ("/u/42", "/u/{id}", &[("id", "42")]),
        ("/u/a%20b", "/u/{id}", &[("id", "a b")]),
        ("/u/%C3%A9t%C3%A9", "/u/{id}", &[("id", "été")]),
        ("/u/a+b", "/u/{id}", &[("id", "a+b")]),
        ("/u/a%2Fb/x", "/u/{id}/x", &[("id", "a/b")]),
        ("/u/7/y", "/u/{id: \\d+}/y", &[("id", "7")]),
        ("/u/7;m=1/x", "/u/{id}/x", &[("id", "7")]),
        ("/v/1/22/333", "/v/{a}/{b}/{c}", &[("a", "1"), ("b", "22"), ("c", "333")]),
        ("/v/1/%32%32/3?q=1", "/v/{a}/{b}/{c}", &[("a", "1"), ("b", "22"), ("c", "3")]),
    ];
    for (path, template, params) in cases {
        assert_eq!(find(&r, &templates, path), Ok(((*template).to_owned(), p(params))), "{path}");
    }
    for path in ["/u", "/u/", "/u//x", "/u/a/y", "/v/1//3", "/v/1/2"] {
        assert_eq!(find(&r, &templates, path), Err(RouteError::NotFound), "{path}");
    }
    assert!(matches!(r.lookup(&Method::GET, "/u/%zz", None, None), Err(RouteError::BadPath { .. })));
    assert!(matches!(r.lookup(&Method::GET, "/u/%00", None, None), Err(RouteError::BadPath { .. })));
}

#[test]
fn a_method_missing_among_literal_siblings_is_405_with_every_method() {
    let mut entries = vec![route("GET", "/s/a"), route("DELETE", "/s/{any}")];
    for name in names(40) {
        entries.push(route("PUT", &format!("/s/{name}/{{id}}")));
    }
    let (r, _) = Router::new(&entries).expect("valid table");
    let Err(RouteError::MethodNotAllowed { allow }) = r.lookup(&Method::POST, "/s/a", None, None) else { panic!() };
    assert_eq!(allow, "GET, HEAD, DELETE, OPTIONS");
    let Err(RouteError::MethodNotAllowed { allow }) = r.lookup(&Method::GET, "/s/abcd7/1", None, None) else {
        panic!()
    };
    assert_eq!(allow, "PUT, OPTIONS");
    let Ok(Lookup::Matched(m)) = r.lookup(&Method::DELETE, "/s/a", None, None) else { panic!() };
    assert_eq!((m.index, m.params.get("any")), (1, Some("a")));
    let Ok(Lookup::Matched(m)) = r.lookup(&Method::PUT, "/s/abcd7/1", None, None) else { panic!() };
    assert_eq!(m.params.get("id"), Some("1"));
}
