//! Media types, Accept parsing, `negotiate`, and 415/406 in the router.

use http::Method;
use restlight_core::media::{negotiate, parse_accept, MediaType};
use restlight_core::router::{Lookup, RouteEntry, RouteError, Router};

mod support;
use support::{route, EntryExt};

fn mt(s: &str) -> MediaType {
    MediaType::parse(s).unwrap()
}

fn types(list: &[&str]) -> Vec<MediaType> {
    list.iter().map(|s| mt(s)).collect()
}

#[test]
fn media_type_parse_table() {
    // (input, display, essence, charset)
    let cases = [
        ("application/json", "application/json", "application/json", None),
        ("Application/JSON", "application/json", "application/json", None),
        (" text/plain ; charset=UTF-8 ", "text/plain; charset=utf-8", "text/plain", Some("utf-8")),
        ("text/plain;charset=\"utf-8\"", "text/plain; charset=utf-8", "text/plain", Some("utf-8")),
        ("text/html; level=1; q=0.5; ext=1", "text/html; level=1", "text/html", None),
        ("text/x; name=\"a b\"", "text/x; name=\"a b\"", "text/x", None),
        ("*/*", "*/*", "*/*", None),
        ("text/*", "text/*", "text/*", None),
        ("application/problem+json", "application/problem+json", "application/problem+json", None),
    ];
    for (input, display, essence, charset) in cases {
        let m = mt(input);
        assert_eq!((m.to_string().as_str(), m.essence(), m.param("CHARSET")), (display, essence, charset), "{input}");
        assert_eq!(m.header_value().to_str().unwrap(), display);
        assert_eq!(input.parse::<MediaType>().unwrap(), m);
    }
    assert_eq!((mt("text/plain").type_(), mt("text/plain").subtype()), ("text", "plain"));
    assert!(mt("text/*").is_wildcard() && mt("*/*").is_wildcard() && !mt("text/plain").is_wildcard());
    // Decided at parse time, whatever the case and the parameters.
    assert!(mt("TEXT/*; charset=UTF-8").is_wildcard() && mt("*/*; qs=0.5").is_wildcard());
    assert!(!mt("application/x-star; name=\"*\"").is_wildcard() && !mt("Application/JSON").is_wildcard());
}

#[test]
fn media_type_errors_name_the_value() {
    for bad in
        ["", "json", "text/", "/plain", "*/json", "text/plain; charset", "text/plain; =x", "te xt/plain", "a/b; c=\"x"]
    {
        let err = MediaType::parse(bad).expect_err(bad);
        assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
    }
}

#[test]
fn matches_table() {
    let cases = [
        ("text/plain", "text/plain", true),
        ("text/plain", "TEXT/Plain", true),
        ("text/*", "text/plain", true),
        ("text/plain", "text/*", true),
        ("*/*", "application/json", true),
        ("text/*", "application/json", false),
        ("text/plain", "text/html", false),
        ("text/plain; charset=utf-8", "text/plain; charset=latin1", true),
        ("application/x; version=1", "application/x; version=2", false),
        ("application/x; version=1", "application/x", true),
        ("application/x; version=1", "application/x; other=2", true),
    ];
    for (a, b, expected) in cases {
        assert_eq!(mt(a).matches(&mt(b)), expected, "{a} ~ {b}");
        assert_eq!(mt(b).matches(&mt(a)), expected, "{b} ~ {a}");
    }
}

#[test]
fn parse_accept_is_tolerant() {
    let ranges = parse_accept("text/html, application/json;q=0.5, bogus, */*;q=2, text/x;q=-1, a/b;q=x, *");
    let got: Vec<(String, f32)> = ranges.iter().map(|r| (r.media.to_string(), r.q)).collect();
    let expected = [("text/html", 1.0), ("application/json", 0.5), ("*/*", 1.0), ("text/x", 0.0), ("*/*", 1.0)];
    assert_eq!(got, expected.map(|(m, q)| (m.to_owned(), q)));
    assert!(parse_accept("").is_empty());
}

#[test]
fn negotiate_table() {
    // (accept, producible, expected)
    let cases: &[(Option<&str>, &[&str], Option<&str>)] = &[
        (None, &["application/json", "text/plain"], Some("application/json")),
        (Some(""), &["application/json", "text/plain"], Some("application/json")),
        (Some("garbage"), &["application/json"], Some("application/json")),
        (Some("*/*"), &["application/json", "text/plain"], Some("application/json")),
        (Some("text/plain"), &["application/json", "text/plain"], Some("text/plain")),
        (Some("text/*"), &["application/json", "text/plain"], Some("text/plain")),
        (Some("application/xml"), &["application/json", "text/plain"], None),
        (
            Some("text/plain;q=0.5, application/json;q=0.9"),
            &["text/plain", "application/json"],
            Some("application/json"),
        ),
        // q=0 excludes, even under a wildcard
        (Some("application/json;q=0, */*"), &["application/json", "text/plain"], Some("text/plain")),
        (Some("application/json;q=0"), &["application/json"], None),
        (Some("text/*;q=0.5, text/html;q=0"), &["text/html", "text/plain"], Some("text/plain")),
        // equal q: the more specific accept range wins, then producible order
        (Some("*/*, text/plain"), &["application/json", "text/plain"], Some("text/plain")),
        (Some("text/*, text/plain"), &["text/html", "text/plain"], Some("text/plain")),
        (Some("text/*, application/*"), &["application/json", "text/plain"], Some("application/json")),
        (Some("text/plain;format=flowed, text/plain"), &["text/plain"], Some("text/plain")),
        // the most specific matching range decides the q of a type
        (
            Some("text/*;q=0.9, text/plain;q=0.1, application/json;q=0.5"),
            &["text/plain", "application/json", "text/html"],
            Some("text/html"),
        ),
        // wildcard producibles are returned themselves
        (Some("application/json"), &["*/*"], Some("*/*")),
        (Some("application/json;q=0"), &["*/*"], None),
        (Some("text/html"), &["application/json", "text/*"], Some("text/*")),
        (Some("text/html"), &[], None),
    ];
    for (accept, producible, expected) in cases {
        let producible = types(producible);
        assert_eq!(negotiate(*accept, &producible).map(MediaType::essence), *expected, "{accept:?}");
    }
}

fn entry(method: Method, consumes: &[&str], produces: &[&str], name: &str) -> RouteEntry {
    route(method.as_str(), "/things").consumes(consumes).produces(produces).at(&format!("src/{name}.rs:1")).named(name)
}

fn table() -> Vec<RouteEntry> {
    vec![
        entry(Method::POST, &["application/json"], &["application/json"], "post_json"),
        entry(Method::POST, &["text/*"], &["text/plain"], "post_text"),
        entry(Method::POST, &["text/csv"], &["text/csv"], "post_csv"),
        entry(Method::PUT, &[], &["application/json"], "put_json"),
        entry(Method::PUT, &[], &["application/xml", "text/xml"], "put_xml"),
        entry(Method::PUT, &[], &[], "put_any"),
        entry(Method::GET, &[], &["application/json"], "get_json"),
        entry(Method::GET, &[], &["text/html"], "get_html"),
        entry(Method::PATCH, &["*/*"], &["application/json"], "patch"),
    ]
}

#[test]
fn router_negotiation_table() {
    let entries = table();
    let (r, warnings) = Router::new(&entries).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    // (method, content type, accept, expected "name produce" | "415" | "406")
    let cases: &[(Method, Option<&str>, Option<&str>, &str)] = &[
        (Method::POST, Some("application/json"), None, "post_json application/json"),
        (Method::POST, Some("application/json; charset=utf-8"), None, "post_json application/json"),
        (Method::POST, Some("text/html"), None, "post_text text/plain"),
        (Method::POST, Some("text/csv"), None, "post_csv text/csv"), // most specific consumes
        (Method::POST, Some("image/png"), None, "415"),
        (Method::POST, Some("not a type"), None, "415"),
        (Method::POST, None, Some("application/json"), "post_json application/json"),
        (Method::POST, Some("application/json"), Some("text/plain"), "406"),
        (Method::POST, Some("application/json"), Some("application/json;q=0"), "406"),
        (Method::PUT, Some("whatever/x"), Some("application/json"), "put_json application/json"),
        (Method::PUT, None, Some("text/xml"), "put_xml text/xml"),
        (Method::PUT, None, Some("application/*"), "put_json application/json"),
        (Method::PUT, None, Some("image/png"), "put_any -"),
        (Method::PUT, None, None, "put_json application/json"),
        (Method::PUT, None, Some("*/*;q=0"), "406"),
        (Method::GET, None, Some("text/html, application/json;q=0.8"), "get_html text/html"),
        (Method::GET, None, Some("text/*;q=0.1, application/json;q=0.8"), "get_json application/json"),
        (Method::HEAD, None, Some("text/html"), "get_html text/html"),
        (Method::GET, None, Some("image/png"), "406"),
        (Method::PATCH, Some("anything/at-all"), None, "patch application/json"),
        (Method::PATCH, Some("garbage"), None, "patch application/json"),
    ];
    for (method, ct, accept, expected) in cases {
        let got = match r.lookup(method, "/things", *ct, *accept) {
            Ok(Lookup::Matched(m)) => {
                format!("{} {}", entries[m.index].name, m.produce.map_or("-".to_owned(), ToString::to_string))
            }
            Err(e @ (RouteError::UnsupportedMediaType { .. } | RouteError::NotAcceptable { .. })) => {
                e.status().as_str().to_owned()
            }
            other => panic!("{method} {ct:?} {accept:?}: {other:?}"),
        };
        assert_eq!(got, *expected, "{method} {ct:?} {accept:?}");
    }
}

#[test]
fn errors_list_the_media_types() {
    let (r, _) = Router::new(&table()).unwrap();
    match r.lookup(&Method::POST, "/things", Some("image/png"), None) {
        Err(RouteError::UnsupportedMediaType { content_type, consumable }) => {
            assert_eq!(content_type, "image/png");
            assert_eq!(consumable, types(&["application/json", "text/*", "text/csv"]));
        }
        other => panic!("{other:?}"),
    }
    match r.lookup(&Method::GET, "/things", None, Some("image/png")) {
        Err(e @ RouteError::NotAcceptable { .. }) => {
            assert!(e.to_string().contains("image/png") && e.to_string().contains("text/html"), "{e}");
            let RouteError::NotAcceptable { accept, producible } = e else { unreachable!() };
            assert_eq!(accept, "image/png");
            assert_eq!(producible, types(&["application/json", "text/html"]));
        }
        other => panic!("{other:?}"),
    }
}

/// The route a request reaches among routes of one method and template
/// that differ in consumes and produces: the JAX-RS ranking.
fn chosen(table: &[RouteEntry], content_type: Option<&str>, accept: Option<&str>) -> Result<String, RouteError> {
    let (router, _) = Router::new(table).expect("the table compiles: ranked, not rejected");
    match router.lookup(&Method::POST, "/things", content_type, accept)? {
        Lookup::Matched(m) => Ok(table[m.index].name.clone()),
        Lookup::Options { .. } => panic!("not an OPTIONS request"),
    }
}

#[test]
fn methods_of_one_template_are_ranked_by_what_they_consume() {
    // One method per representation, as JAX-RS resources write them.
    let table = [
        entry(Method::POST, &["text/plain"], &[], "plain"),
        entry(Method::POST, &["text/*"], &[], "text"),
        entry(Method::POST, &[], &[], "anything"),
    ];
    let cases = [
        (Some("text/plain"), "plain"),
        (Some("text/plain; charset=utf-8"), "plain"),
        (Some("text/html"), "text"),
        (Some("application/json"), "anything"),
        (Some("not a media type"), "anything"),
        (None, "plain"),
    ];
    for (content_type, expected) in cases {
        assert_eq!(chosen(&table, content_type, None).unwrap(), expected, "{content_type:?}");
    }
}

#[test]
fn methods_of_one_template_are_ranked_by_what_they_produce() {
    let table = [
        entry(Method::POST, &[], &["text/plain"], "plain"),
        entry(Method::POST, &[], &["text/*"], "text"),
        entry(Method::POST, &[], &["text/html"], "html"),
    ];
    let cases = [
        (Some("text/plain"), "plain"),
        (Some("text/html"), "html"),
        (Some("text/csv"), "text"),
        // n/m before n/* whatever the client's q
        (Some("text/*;q=1, text/html;q=0.5"), "plain"),
        (Some("text/plain;q=0.5, text/html"), "html"),
    ];
    for (accept, expected) in cases {
        assert_eq!(chosen(&table, None, accept).unwrap(), expected, "{accept:?}");
    }
    assert!(matches!(chosen(&table, None, Some("application/json")), Err(RouteError::NotAcceptable { .. })));
}

#[test]
fn the_servers_qs_breaks_the_clients_ties() {
    let table = [
        entry(Method::POST, &[], &["text/html; qs=0.5"], "html"),
        entry(Method::POST, &[], &["application/json"], "json"),
    ];
    assert_eq!(chosen(&table, None, Some("*/*")).unwrap(), "json");
    assert_eq!(chosen(&table, None, None).unwrap(), "json");
    assert_eq!(chosen(&table, None, Some("text/html")).unwrap(), "html");
    // the client's q comes before the server's qs
    assert_eq!(chosen(&table, None, Some("text/html, application/json;q=0.9")).unwrap(), "html");
    let (router, _) = Router::new(&table).unwrap();
    let Ok(Lookup::Matched(m)) = router.lookup(&Method::POST, "/things", None, Some("text/html")) else { panic!() };
    assert_eq!(m.produce.map(ToString::to_string).as_deref(), Some("text/html"), "qs is not written back");
    assert_eq!(m.produce.map(MediaType::qs), Some(500));
}

#[test]
fn a_route_that_no_request_can_reach_is_a_warning() {
    let table = [
        entry(Method::POST, &["text/plain", "text/csv"], &["application/json"], "both"),
        entry(Method::POST, &["text/csv"], &["application/json; qs=0.5"], "csv"),
        entry(Method::POST, &["text/csv"], &["text/plain"], "other"),
    ];
    let (_, warnings) = Router::new(&table).expect("ranked, not rejected");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let text = warnings[0].to_string();
    assert!(text.contains("`csv`") && text.contains("never selected") && text.contains("src/both.rs:1"), "{text}");
    assert_eq!(chosen(&table, Some("text/csv"), Some("text/plain")).unwrap(), "other");
}

#[test]
fn a_qs_that_is_not_a_weight_is_an_error_naming_it() {
    for bad in ["text/html; qs=2", "text/html; qs=x"] {
        let err = MediaType::parse(bad).expect_err(bad);
        assert!(err.to_string().contains(bad) && err.to_string().contains("qs"), "{err}");
    }
    assert_eq!(mt("text/html; qs=0.25; level=1").to_string(), "text/html; level=1");
}
