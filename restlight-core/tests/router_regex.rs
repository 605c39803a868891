//! Regex variables, multi-segment variables and template validation.

use http::Method;
use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};

mod support;
use support::{route, EntryExt};

fn entry(template: &str) -> RouteEntry {
    route("GET", template).named("Api::get").at("src/api.rs:7")
}

fn lookup(template: &str, path: &str) -> Result<Vec<(String, String)>, RouteError> {
    let (r, _) = Router::new(&[entry(template)]).expect("valid template");
    match r.lookup(&Method::GET, path, None, None)? {
        Lookup::Matched(m) => Ok(m.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect()),
        Lookup::Options { .. } => panic!("OPTIONS"),
    }
}

#[test]
fn regex_table() {
    // (template, path, Some(params) | None for 404)
    type Case<'a> = (&'a str, &'a str, Option<&'a [(&'a str, &'a str)]>);
    let cases: &[Case<'_>] = &[
        ("/users/{id: \\d+}", "/users/42", Some(&[("id", "42")])),
        ("/users/{id: \\d+}", "/users/4x", None),
        ("/users/{id:\\d+}", "/users/1", Some(&[("id", "1")])),
        ("/users/{ id  :  \\d+ }", "/users/1", Some(&[("id", "1")])),
        ("/zip/{code: \\d{3}-\\d{4}}", "/zip/123-4567", Some(&[("code", "123-4567")])),
        ("/zip/{code: \\d{3}-\\d{4}}", "/zip/12-4567", None),
        ("/{lang: [a-z]{2}}/home", "/en/home", Some(&[("lang", "en")])),
        ("/{lang: [a-z]{2}}/home", "/eng/home", None),
        ("/f/{name: [a-z]+}.{ext: (png|jpe?g)}", "/f/cat.jpeg", Some(&[("name", "cat"), ("ext", "jpeg")])),
        ("/f/{name: [a-z]+}.{ext: (png|jpe?g)}", "/f/cat.gif", None),
        ("/f/{name}.{ext: png}", "/f/a.b.png", Some(&[("name", "a.b"), ("ext", "png")])),
        // regexes with '/' or '.' span segments
        ("/files/{path: .*}", "/files/a/b/c", Some(&[("path", "a/b/c")])),
        ("/files/{path: [a-z/]+}", "/files/a/b", Some(&[("path", "a/b")])),
        ("/files/{path: .+}.txt", "/files/a/b.txt", Some(&[("path", "a/b")])),
        ("/repo/{path: .+}/blob/{rev}", "/repo/x/y/blob/main", Some(&[("path", "x/y"), ("rev", "main")])),
        ("/r/{a: [^/]+}/{b: .*}", "/r/x/y/z", Some(&[("a", "x"), ("b", "y/z")])),
        // a constrained single-segment variable never spans segments
        ("/n/{id: \\w+}", "/n/a/b", None),
        ("/n/{id: [^/]+}", "/n/a", Some(&[("id", "a")])),
        ("/n/{id: [^/]+}", "/n/a/b", None),
        // literal text next to a constrained variable may arrive escaped;
        // regexes see the raw text and their values are decoded after
        ("/at/{a: \\d+}@{b: [a-z]+}", "/at/1%40x", Some(&[("a", "1"), ("b", "x")])),
        ("/at/{a: \\d+}@{b: [a-z]+}", "/at/1@x", Some(&[("a", "1"), ("b", "x")])),
        ("/u/{n: [^/]+}", "/u/%C3%A9t%C3%A9", Some(&[("n", "été")])),
        ("/u/{n: [a-z]+}", "/u/%C3%A9t%C3%A9", None),
        ("/v/{v: v\\d{1,2}}", "/v/v12", Some(&[("v", "v12")])),
        ("/v/{v: v\\d{1,2}}", "/v/v123", None),
        ("/t/{a: \\d*}{b: \\w*}", "/t/12ab", Some(&[("a", "12"), ("b", "ab")])),
        // groups inside the user's regex do not shift the variables
        ("/g/{a: (x)(y)?}/{b: (\\d)+}", "/g/x/12", Some(&[("a", "x"), ("b", "12")])),
        ("/g/{a: (?P<inner>x)}-{b}", "/g/x-y", Some(&[("a", "x"), ("b", "y")])),
    ];
    for (template, path, expected) in cases {
        let expected = match expected {
            Some(pairs) => Ok(pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()),
            None => Err(RouteError::NotFound),
        };
        assert_eq!(lookup(template, path), expected, "{template} {path}");
    }
}

#[test]
fn malformed_templates_table() {
    // (template, part of the message)
    let cases = [
        ("/users/{id", "unclosed `{` in the path template"),
        ("/users/{id: \\d{3}", "unclosed `{` in the path template"),
        ("/users/id}", "unmatched `}` in the path template"),
        ("/users/{}", "empty variable name"),
        ("/users/{ : \\d+}", "empty variable name"),
        ("/users/{id:}", "empty regex"),
        ("/users/{id: [}", "invalid regex"),
        ("/users/{id: (}", "invalid regex"),
        // A shape matched by hand, but beyond what the engine compiles: refused alike.
        ("/big/{n: \\d{1000000}}", "invalid regex"),
        // The engine (`regex-lite`) has no Unicode classes; the reason is its own.
        ("/tags/{t: \\p{L}+}", "invalid regex `\\p{L}+` for variable `t`: Unicode character classes are not supported"),
        ("/users/{a b}", "invalid character ` ` of the variable name `a b`"),
        ("/users/{id}/{id}", "the variable `id` appears twice"),
        ("/users/{id}-{id: \\d+}", "the variable `id` appears twice"),
        ("/users;x", "`;` cannot appear in a path template"),
        ("/users?x", "`?` cannot appear in a path template"),
        ("/bad%zz", "malformed percent-escape"),
    ];
    for (template, needle) in cases {
        let err = Router::new(&[entry(template)]).expect_err(template);
        let msg = err.to_string();
        assert!(msg.contains(needle), "{template}: {msg}");
        assert!(msg.contains(template) && msg.contains("src/api.rs:7") && msg.contains("Api::get"), "{msg}");
        assert_eq!(err.conflicts(), 0);
    }
}

#[test]
fn every_bad_template_is_reported_at_once() {
    let mut entries = vec![entry("/a/{x"), entry("/b/{}"), entry("/c/{y: [}"), entry("/ok/{z}")];
    entries[1].location = "src/b.rs:2".into();
    let err = Router::new(&entries).unwrap_err();
    assert_eq!(err.problems().len(), 3, "{err}");
    for needle in ["/a/{x", "/b/{}", "/c/{y: [}", "src/b.rs:2"] {
        assert!(err.to_string().contains(needle), "{needle}: {err}");
    }
}

#[test]
fn many_variables_have_no_limit() {
    let template: String = (0..40).map(|i| format!("/{{v{i}}}")).collect();
    let path: String = (0..40).map(|i| format!("/{i}")).collect();
    let params = lookup(&template, &path).unwrap();
    assert_eq!(params.len(), 40);
    assert_eq!(params[39], ("v39".to_owned(), "39".to_owned()));
}
