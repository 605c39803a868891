//! The edges of what a lookup reads: paths with more segments than the
//! scan keeps in place, literal siblings that share their first bytes or
//! their length (around the 8 and 16 bytes a literal is compared in), a
//! node with a few and a node with many literal children, literals
//! requested percent-encoded, and the names, values and segments a match
//! hands over, before and after a clone.

use http::Method;
use restlight_core::router::{Lookup, PathParams, RouteEntry, RouteError, RouteMatch, Router};

mod support;
use support::{route, EntryExt};

fn router(templates: &[String]) -> Router {
    let entries: Vec<RouteEntry> = templates.iter().map(|t| route("GET", t).named(t)).collect();
    Router::new(&entries).expect("valid table").0
}

fn matched<'r>(r: &'r Router, path: &str) -> Result<RouteMatch<'r>, RouteError> {
    match r.lookup(&Method::GET, path, None, None)? {
        Lookup::Matched(m) => Ok(m),
        Lookup::Options { .. } => panic!("unexpected OPTIONS answer for {path}"),
    }
}

/// (template, params) of the match of `path`.
fn find(r: &Router, templates: &[String], path: &str) -> (String, Vec<(String, String)>) {
    let m = matched(r, path).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    (templates[m.index].clone(), m.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect())
}

fn p(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

/// Every byte of `text` written as `%XX`.
fn encoded(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02X}")).collect()
}

/// `/s/0/1/.../{n - 1}`: a path of `n + 1` segments.
fn counted(n: usize) -> String {
    let mut path = String::from("/s");
    for i in 0..n {
        path.push_str(&format!("/{i}"));
    }
    path
}

#[test]
fn paths_with_more_segments_than_the_scan_keeps_in_place() {
    // Literal routes of 14 to 41 segments (13 to 40 `/` after the first)
    // and one of the same lengths ending in a variable.
    let mut templates = Vec::new();
    for n in 13..=40 {
        templates.push(counted(n));
        templates.push(format!("{}/{{last}}", counted(n)));
    }
    templates.push("/deep/{head}/{rest: .*}".to_owned());
    let r = router(&templates);
    for n in 13..=40 {
        let path = counted(n);
        assert_eq!(find(&r, &templates, &path), (path.clone(), p(&[])), "{n}");
        // A trailing `/`, a query and a fragment drop the same way past the array.
        for suffix in ["/", "?q=1", "/?q=/a/b", "#f/g"] {
            assert_eq!(find(&r, &templates, &format!("{path}{suffix}")).0, path, "{path}{suffix}");
        }
        let with_var = format!("{path}/x{n}");
        let (template, params) = find(&r, &templates, &with_var);
        assert_eq!((template, params), (format!("{path}/{{last}}"), p(&[("last", &format!("x{n}"))])));
        let m = matched(&r, &with_var).expect("matches");
        assert_eq!(m.params.segments("last"), Some(n + 1..n + 2), "{with_var}");
        assert_eq!(m.matrix.last_segment(), Some(n + 1), "{with_var}");
        // The same path with an escape and a matrix parameter is taken apart
        // instead, and answers alike.
        let parsed = format!("/%73{}/x{n};k=v", &path[2..]);
        let m = matched(&r, &parsed).unwrap_or_else(|e| panic!("{parsed}: {e:?}"));
        assert_eq!((m.params.get("last"), m.params.segments("last")), (Some(&*format!("x{n}")), Some(n + 1..n + 2)));
        assert_eq!(m.matrix.iter().collect::<Vec<_>>(), vec![(n + 1, "k", "v")], "{parsed}");
        // One segment more than the variable's route has.
        assert!(matches!(matched(&r, &format!("{with_var}/more")), Err(RouteError::NotFound)), "{with_var}/more");
    }
    assert!(matches!(matched(&r, &format!("{}/x/y", counted(40))), Err(RouteError::NotFound)));
    assert!(matches!(matched(&r, &counted(12)), Err(RouteError::NotFound)));
    // A multi-segment variable over a path of 30 segments: its value and
    // the segments it covers, counted past the array.
    let tail: Vec<String> = (0..28).map(|i| format!("t{i}")).collect();
    let path = format!("/deep/h/{}", tail.join("/"));
    let m = matched(&r, &path).expect("matches");
    assert_eq!(m.params.get("head"), Some("h"));
    assert_eq!(m.params.get("rest"), Some(&*tail.join("/")));
    assert_eq!(m.params.segments("rest"), Some(2..30));
}

/// Literals of 1 to 20 bytes, in families that share a prefix, a suffix
/// or a length, with the 7, 8, 9, 15, 16 and 17-byte texts a comparison by
/// words has at its edges, and texts differing in one byte anywhere.
fn sibling_literals() -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    for len in [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20] {
        let base: String = "abcdefghijklmnopqrstuvwxyz".chars().take(len).collect();
        texts.push(base.clone());
        // The same length, differing in the last byte, and in the middle one.
        let mut last = base.clone().into_bytes();
        last[len - 1] = b'Z';
        texts.push(String::from_utf8(last).expect("ASCII"));
        if len > 2 {
            let mut mid = base.into_bytes();
            mid[len / 2] = b'Y';
            texts.push(String::from_utf8(mid).expect("ASCII"));
        }
    }
    texts.extend(["é", "éé", "日本語", "ünïcödé", "ab-cd_ef.gh~ij"].map(str::to_owned));
    texts.sort();
    texts.dedup();
    texts
}

/// Every literal sibling answers its own route; every text one byte
/// shorter, longer or different answers the variable beside them.
fn check_siblings(texts: &[String]) {
    let mut templates: Vec<String> = texts.iter().map(|t| format!("/lit/{t}/end")).collect();
    templates.push("/lit/{v}/end".to_owned());
    let r = router(&templates);
    let var = "/lit/{v}/end".to_owned();
    for text in texts {
        let path = format!("/lit/{text}/end");
        assert_eq!(find(&r, &templates, &path), (path.clone(), p(&[])), "{text}");
        // Requested percent-encoded, every byte, or just its first byte.
        let enc = format!("/lit/{}/end", encoded(text));
        assert_eq!(find(&r, &templates, &enc).0, path, "{enc}");
        let first = text.chars().next().expect("not empty");
        let enc = format!("/lit/{}{}/end", encoded(&first.to_string()), &text[first.len_utf8()..]);
        assert_eq!(find(&r, &templates, &enc).0, path, "{enc}");
        let mut near: Vec<String> = vec![format!("{text}x"), format!("x{text}"), format!("{text}{text}")];
        if text.is_ascii() {
            near.push(text[..text.len() - 1].to_owned());
            near.push(text[1..].to_owned());
            for at in 0..text.len() {
                let mut bytes = text.clone().into_bytes();
                bytes[at] = if bytes[at] == b'Q' { b'R' } else { b'Q' };
                near.push(String::from_utf8(bytes).expect("ASCII"));
            }
        }
        for other in near.iter().filter(|o| !o.is_empty() && !texts.contains(o)) {
            let path = format!("/lit/{other}/end");
            assert_eq!(find(&r, &templates, &path), (var.clone(), p(&[("v", other)])), "{other} (near {text})");
        }
    }
}

#[test]
fn literal_siblings_that_share_first_bytes_and_lengths() {
    let texts = sibling_literals();
    // 32 literal children (the most a node's table held before every
    // node had one, whatever the number), then more.
    let few: Vec<String> = texts.iter().filter(|t| t.len() <= 9).take(32).cloned().collect();
    assert!(few.len() > 20 && few.len() <= 32, "{}", few.len());
    check_siblings(&few);
    assert!(texts.len() > 32, "{}", texts.len());
    check_siblings(&texts);
    // One literal child alone, at each edge length.
    for len in [7, 8, 9, 15, 16, 17] {
        let text: String = "0123456789abcdefghij".chars().take(len).collect();
        check_siblings(&[text]);
    }
}

#[test]
fn literals_beyond_sixteen_bytes_differ_only_past_the_compared_words() {
    // The same first 16 bytes, and the same last 8 bytes of the first 16.
    let texts: Vec<String> =
        ["abcdefghijklmnopQ", "abcdefghijklmnopR", "abcdefghijklmnopQR", "abcdefghijklmnop"].map(str::to_owned).into();
    let mut templates: Vec<String> = texts.iter().map(|t| format!("/{t}/{{id}}")).collect();
    templates.push("/{name}/{id}".to_owned());
    let r = router(&templates);
    for text in &texts {
        let path = format!("/{text}/7");
        assert_eq!(find(&r, &templates, &path), (format!("/{text}/{{id}}"), p(&[("id", "7")])), "{path}");
    }
    for other in ["abcdefghijklmnopS", "abcdefghijklmnopQRS", "abcdefghijklmnoQ", "bbcdefghijklmnopQ"] {
        let path = format!("/{other}/7");
        assert_eq!(find(&r, &templates, &path), ("/{name}/{id}".to_owned(), p(&[("name", other), ("id", "7")])));
    }
}

#[test]
fn path_params_after_a_match_and_after_a_clone() {
    let templates: Vec<String> =
        ["/repos/{owner}/{repo}/pulls/{number}", "/files/{dir}/{path: .*}", "/plain"].map(str::to_owned).into();
    let r = router(&templates);
    let m = matched(&r, "/repos/rust%2Dlang/r%C3%A9po/pulls/42").expect("matches");
    let params = m.params;
    assert_eq!(params.len(), 3);
    assert!(!params.is_empty());
    let all: Vec<(&str, &str)> = params.iter().collect();
    assert_eq!(all, vec![("owner", "rust-lang"), ("repo", "répo"), ("number", "42")]);
    assert_eq!(
        (params.get("owner"), params.get("repo"), params.get("number")),
        (Some("rust-lang"), Some("répo"), Some("42"))
    );
    assert_eq!(params.get("pulls"), None);
    for (index, name) in ["owner", "repo", "number"].into_iter().enumerate() {
        for at in 0..5 {
            assert_eq!(params.get_at(at, name), params.get(name), "{name} at {at}");
        }
        assert_eq!(params.get_at(index, name), params.get(name));
    }
    assert_eq!(params.segments("owner"), Some(1..2));
    assert_eq!(params.segments("repo"), Some(2..3));
    assert_eq!(params.segments("number"), Some(4..5));
    assert_eq!(params.segments("pulls"), None);

    // A clone answers the same; pushing to it leaves the match alone.
    let mut copy = params.clone();
    assert_eq!(copy, params);
    assert_eq!(format!("{copy:?}"), format!("{params:?}"));
    copy.push("extra", "x");
    copy.push("owner", "someone");
    assert_eq!(copy.len(), 5);
    assert_eq!(params.len(), 3);
    assert_eq!(params.get("extra"), None);
    assert_eq!((copy.get("extra"), copy.segments("extra")), (Some("x"), None));
    // A repeated name: the first value wins, whatever index is asked.
    assert_eq!(copy.get("owner"), Some("rust-lang"));
    assert_eq!(copy.get_at(4, "owner"), Some("rust-lang"));
    assert_eq!(copy.segments("owner"), Some(1..2));
    let names: Vec<&str> = copy.iter().map(|(n, _)| n).collect();
    assert_eq!(names, vec!["owner", "repo", "number", "extra", "owner"]);
    assert_ne!(copy, params);

    // Two matches of one route share its names and keep their own values.
    let a = matched(&r, "/repos/a/b/pulls/1").expect("matches").params;
    let b = matched(&r, "/repos/c/d/pulls/2").expect("matches").params;
    assert_eq!(a.iter().collect::<Vec<_>>(), vec![("owner", "a"), ("repo", "b"), ("number", "1")]);
    assert_eq!(b.iter().collect::<Vec<_>>(), vec![("owner", "c"), ("repo", "d"), ("number", "2")]);
    drop(a);
    assert_eq!(b.get("repo"), Some("d"));

    // A variable spanning segments, and a route without variables.
    let m = matched(&r, "/files/docs/a/b%20c/d.txt").expect("matches");
    assert_eq!(m.params.iter().collect::<Vec<_>>(), vec![("dir", "docs"), ("path", "a/b c/d.txt")]);
    assert_eq!((m.params.segments("dir"), m.params.segments("path")), (Some(1..2), Some(2..5)));
    let m = matched(&r, "/plain/").expect("matches");
    assert!(m.params.is_empty());
    assert_eq!(m.params, PathParams::default());

    // Values pushed by hand, from nothing.
    let mut hand = PathParams::default();
    hand.push("id", "7");
    hand.push(String::from("name"), "é/x");
    assert_eq!(hand.iter().collect::<Vec<_>>(), vec![("id", "7"), ("name", "é/x")]);
    assert_eq!((hand.get_at(1, "name"), hand.segments("id")), (Some("é/x"), None));
    assert_eq!(hand.clone(), hand);
}
