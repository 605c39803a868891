//! Matrix parameters: stripped before matching, collected decoded.

use http::Method;
use restlight_core::router::{Lookup, MatrixParams, Router};

mod support;
use support::{route, EntryExt};

fn matrix(template: &str, path: &str) -> (Vec<(String, String)>, MatrixParams) {
    let entry = route("GET", template).named("m").at("src/m.rs:1");
    let (r, _) = Router::new(&[entry]).unwrap();
    match r.lookup(&Method::GET, path, None, None) {
        Ok(Lookup::Matched(m)) => (m.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect(), m.matrix),
        other => panic!("{template} {path}: {other:?}"),
    }
}

#[test]
fn matrix_table() {
    // (template, path, param id, [(segment, key, value)])
    type Case<'a> = (&'a str, &'a str, Option<&'a str>, &'a [(usize, &'a str, &'a str)]);
    let cases: &[Case<'_>] = &[
        ("/cars/{id}", "/cars/7;color=red", Some("7"), &[(1, "color", "red")]),
        (
            "/cars/{id}",
            "/cars;year=2020/7;color=red;color=blue",
            Some("7"),
            &[(0, "year", "2020"), (1, "color", "red"), (1, "color", "blue")],
        ),
        ("/cars/{id}", "/cars/7;flag", Some("7"), &[(1, "flag", "")]),
        ("/cars/{id}", "/cars/7;a=;=x;;b", Some("7"), &[(1, "a", ""), (1, "b", "")]),
        ("/cars/{id}", "/cars/7;n%20m=v%2Fw", Some("7"), &[(1, "n m", "v/w")]),
        ("/cars/{id}", "/cars/7;k=a=b", Some("7"), &[(1, "k", "a=b")]),
        ("/cars/{id}", "/cars/7;k=v/", Some("7"), &[(1, "k", "v")]),
        ("/cars", "/cars;x=1", None, &[(0, "x", "1")]),
        ("/files/{id: .*}", "/files/a;v=1/b;v=2", Some("a/b"), &[(1, "v", "1"), (2, "v", "2")]),
        ("/cars/{id: \\d+}", "/cars/7;c=1", Some("7"), &[(1, "c", "1")]),
        ("/cars/{id}", "/cars/7%3Bx", Some("7;x"), &[]),
    ];
    for (template, path, id, expected) in cases {
        let (params, m) = matrix(template, path);
        assert_eq!(params.first().map(|(_, v)| v.as_str()), *id, "{path}");
        let got: Vec<(usize, &str, &str)> = m.iter().collect();
        assert_eq!(got, expected.to_vec(), "{path}");
    }
}

#[test]
fn first_searches_the_last_segment_first() {
    let (_, m) = matrix("/a/{b}/c", "/a;k=1;k=0/b;k=2;k=3/c;j=4");
    assert_eq!(m.first("k"), Some("2"));
    assert_eq!(m.first("j"), Some("4"));
    assert_eq!(m.first("none"), None);
    assert_eq!(m.all("k").collect::<Vec<_>>(), ["1", "0", "2", "3"]);
    assert_eq!(m.len(), 5);
}

#[test]
fn matrix_is_empty_without_semicolons() {
    let (_, m) = matrix("/a", "/a");
    assert!(m.is_empty());
    assert_eq!(m, MatrixParams::default());
}
