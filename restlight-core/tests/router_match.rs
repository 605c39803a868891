//! Path matching: static, variables, mixed segments, multi-segment, slashes.

use http::Method;
use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};

mod support;
use support::{route, EntryExt};

fn entry(template: &str) -> RouteEntry {
    route("GET", template).named(template).at(&format!("src/routes.rs:{}", template.len()))
}

fn router(templates: &[&str]) -> Router {
    let entries: Vec<RouteEntry> = templates.iter().map(|t| entry(t)).collect();
    Router::new(&entries).expect("valid table").0
}

/// `(template matched, params)` or the error.
fn find(r: &Router, templates: &[&str], path: &str) -> Result<(String, Vec<(String, String)>), RouteError> {
    match r.lookup(&Method::GET, path, None, None)? {
        Lookup::Matched(m) => {
            Ok((templates[m.index].to_owned(), m.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect()))
        }
        Lookup::Options { .. } => panic!("unexpected OPTIONS answer"),
    }
}

/// (path, template expected to win, params)
type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

fn p(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[test]
fn match_table() {
    let templates = [
        "/",
        "/users",
        "/users/{id}",
        "/users/{id}/posts/{post}",
        "/files/{name}.html",
        "/api/v{major}.{minor}",
        "/static/{path: .*}",
        "/docs/{path: .+}/edit",
        "no-leading-slash",
        "/trailing/",
        "/a/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}/{j}/{k}/{l}",
    ];
    let r = router(&templates);
    let cases: &[Case<'_>] = &[
        ("/", "/", &[]),
        ("", "/", &[]),
        ("/users", "/users", &[]),
        ("/users/", "/users", &[]),
        ("/users/42", "/users/{id}", &[("id", "42")]),
        ("/users/42/", "/users/{id}", &[("id", "42")]),
        ("/users/42/posts/7", "/users/{id}/posts/{post}", &[("id", "42"), ("post", "7")]),
        ("/files/index.html", "/files/{name}.html", &[("name", "index")]),
        ("/files/a.b.html", "/files/{name}.html", &[("name", "a.b")]),
        ("/api/v1.2", "/api/v{major}.{minor}", &[("major", "1"), ("minor", "2")]),
        ("/api/v1.2.3", "/api/v{major}.{minor}", &[("major", "1.2"), ("minor", "3")]),
        ("/static/css/site.css", "/static/{path: .*}", &[("path", "css/site.css")]),
        ("/static/x", "/static/{path: .*}", &[("path", "x")]),
        ("/docs/a/b/edit", "/docs/{path: .+}/edit", &[("path", "a/b")]),
        ("/no-leading-slash", "no-leading-slash", &[]),
        ("/trailing", "/trailing/", &[]),
        ("/trailing/", "/trailing/", &[]),
        ("/users/42?x=1", "/users/{id}", &[("id", "42")]),
        (
            "/a/1/2/3/4/5/6/7/8/9/10/11",
            "/a/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}/{j}/{k}/{l}",
            &[
                ("b", "1"),
                ("c", "2"),
                ("d", "3"),
                ("e", "4"),
                ("f", "5"),
                ("g", "6"),
                ("h", "7"),
                ("i", "8"),
                ("j", "9"),
                ("k", "10"),
                ("l", "11"),
            ],
        ),
    ];
    for (path, template, params) in cases {
        assert_eq!(find(&r, &templates, path), Ok(((*template).to_owned(), p(params))), "path {path}");
    }
}

#[test]
fn not_found_table() {
    let templates = ["/users/{id}", "/files/{name}.html", "/static/{path: .*}", "/api/v{major}.{minor}"];
    let r = router(&templates);
    for path in
        ["/nope", "/users", "/users/1/2", "/files/.html", "/files/x.htm", "/static", "/api/v1", "/api/v.1", "/users//"]
    {
        assert_eq!(find(&r, &templates, path), Err(RouteError::NotFound), "path {path}");
    }
}

#[test]
fn empty_router_finds_nothing() {
    let (r, warnings) = Router::new(&[]).unwrap();
    assert!(r.is_empty() && warnings.is_empty());
    assert_eq!(r.len(), 0);
    assert!(matches!(r.lookup(&Method::GET, "/", None, None), Err(RouteError::NotFound)));
}

#[test]
fn multi_segment_variable_needs_one_segment() {
    let templates = ["/static/{path: .*}"];
    let r = router(&templates);
    assert_eq!(find(&r, &templates, "/static/"), Err(RouteError::NotFound));
    assert_eq!(find(&r, &templates, "/static/a/b/c/"), Ok(("/static/{path: .*}".into(), p(&[("path", "a/b/c")]))));
}

#[test]
fn equivalent_templates_name_their_own_variables() {
    let mut get = entry("/users/{id}");
    get.name = "get".into();
    let mut delete = entry("/users/{userId}");
    delete.method = Method::DELETE;
    delete.name = "delete".into();
    let (r, _) = Router::new(&[get, delete]).unwrap();
    let Ok(Lookup::Matched(m)) = r.lookup(&Method::DELETE, "/users/9", None, None) else { panic!() };
    assert_eq!((m.index, m.params.get("userId"), m.params.get("id")), (1, Some("9"), None));
    let Ok(Lookup::Matched(m)) = r.lookup(&Method::GET, "/users/9", None, None) else { panic!() };
    assert_eq!((m.index, m.params.get("id")), (0, Some("9")));
}

#[test]
fn router_is_send_sync_debug() {
    fn check<T: Send + Sync + std::fmt::Debug>() {}
    check::<Router>();
}

#[test]
fn mixed_segments_capture_like_the_equivalent_regex() {
    // (template, the regex JAX-RS would compile for it)
    let cases = [
        ("/{a}-{b}-{c}", "^(.+)-(.+)-(.+)$"),
        ("/{a}{b}", "^(.+)(.+)$"),
        ("/x{a}.{b}y", "^x(.+)\\.(.+)y$"),
        ("/{a}.{b}", "^(.+)\\.(.+)$"),
        ("/{a}xy", "^(.+)xy$"),
    ];
    let alphabet = ['-', 'a', '.', 'x', 'y'];
    for (template, re) in cases {
        let r = router(&[template]);
        let re = regex_lite::Regex::new(re).unwrap();
        for len in 1..=6u32 {
            for mut code in 0..5usize.pow(len) {
                let mut text = String::new();
                for _ in 0..len {
                    text.push(alphabet[code % 5]);
                    code /= 5;
                }
                let expected = re
                    .captures(&text)
                    .map(|c| c.iter().skip(1).map(|m| m.unwrap().as_str().to_owned()).collect::<Vec<_>>());
                let got = match r.lookup(&Method::GET, &format!("/{text}"), None, None) {
                    Ok(Lookup::Matched(m)) => Some(m.params.iter().map(|(_, v)| v.to_owned()).collect()),
                    Err(RouteError::NotFound) => None,
                    other => panic!("{other:?}"),
                };
                assert_eq!(got, expected, "{template} /{text}");
            }
        }
    }
}

#[test]
fn several_variables_in_one_segment_match_in_linear_time() {
    // A backtracking matcher takes O(n^4) here and never finishes.
    let templates = ["/{a}-{b}-{c}-{d}.json"];
    let r = router(&templates);
    let path = format!("/a{}x", "-".repeat(20_000));
    assert_eq!(find(&r, &templates, &path), Err(RouteError::NotFound));
    let path = format!("/a{}x.json", "-".repeat(20_000));
    let (_, params) = find(&r, &templates, &path).unwrap();
    assert_eq!(params[3].1, "x");
}
