//! The walk of the segment tree over a request path: a plain path is read
//! where it lies, a path with escapes or matrix parameters is taken apart
//! first, and both must answer alike. Backtracking from a literal branch
//! into a variable branch several segments down, escapes inside variable
//! segments, and the segments a capture covers.

use http::Method;
use restlight_core::router::{Lookup, RouteEntry, RouteError, RouteMatch, Router};

mod support;
use support::{route, EntryExt};

const TEMPLATES: &[&str] = &[
    "/a/b/c/d",
    "/a/{x}/c/{y}",
    "/a/b/{z}/e",
    "/a/b/c/d/{deep}",
    "/files/{path: .*}",
    "/users/{id}",
    "/users/{id}/v{major: \\d+}.{minor}",
    "/repos/{owner}/{repo}/stargazers",
];

fn router() -> Router {
    let entries: Vec<RouteEntry> = TEMPLATES.iter().map(|t| route("GET", t).named(t)).collect();
    Router::new(&entries).expect("valid table").0
}

fn matched<'r>(r: &'r Router, path: &str) -> Result<RouteMatch<'r>, RouteError> {
    match r.lookup(&Method::GET, path, None, None)? {
        Lookup::Matched(m) => Ok(m),
        Lookup::Options { .. } => panic!("unexpected OPTIONS answer for {path}"),
    }
}

/// (template, params) of the match of `path`.
fn find(r: &Router, path: &str) -> (&'static str, Vec<(String, String)>) {
    let m = matched(r, path).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    (TEMPLATES[m.index], m.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect())
}

fn p(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[test]
fn a_literal_branch_that_fails_deep_down_gives_way_to_the_variable_branch() {
    let r = router();
    // `a/b/c` follows the literals, `q` fails `d` at the fourth segment,
    // `a/b/{z}` fails `e`: back to `a/{x}/c/{y}`.
    assert_eq!(find(&r, "/a/b/c/q"), ("/a/{x}/c/{y}", p(&[("x", "b"), ("y", "q")])));
    assert_eq!(find(&r, "/a/b/c/d"), ("/a/b/c/d", p(&[])));
    assert_eq!(find(&r, "/a/b/c/e"), ("/a/b/{z}/e", p(&[("z", "c")])));
    assert_eq!(find(&r, "/a/b/c/d/7"), ("/a/b/c/d/{deep}", p(&[("deep", "7")])));
    assert_eq!(find(&r, "/a/zz/c/d"), ("/a/{x}/c/{y}", p(&[("x", "zz"), ("y", "d")])));
    // One segment too many for every branch but `{deep}`'s, one too few for all.
    assert!(matches!(matched(&r, "/a/b/c/q/r/s"), Err(RouteError::NotFound)));
    assert!(matches!(matched(&r, "/a/b/c"), Err(RouteError::NotFound)));
}

#[test]
fn escapes_and_matrix_parameters_take_the_same_branches_as_the_plain_path() {
    let r = router();
    // Literal text sees the decoded segment: `%62` is `b`.
    assert_eq!(find(&r, "/a/%62/c/d"), ("/a/b/c/d", p(&[])));
    assert_eq!(find(&r, "/a/b/c/q%20r"), ("/a/{x}/c/{y}", p(&[("x", "b"), ("y", "q r")])));
    assert_eq!(find(&r, "/a/b;m=1/c/q"), ("/a/{x}/c/{y}", p(&[("x", "b"), ("y", "q")])));
    let m = matched(&r, "/a/b;m=1/c/d;n=2").expect("matched");
    assert_eq!(TEMPLATES[m.index], "/a/b/c/d");
    assert_eq!(m.matrix.iter().collect::<Vec<_>>(), [(1, "m", "1"), (3, "n", "2")]);
    assert_eq!(m.matrix.last_segment(), Some(3));
}

#[test]
fn escapes_inside_a_variable_segment_are_decoded_in_its_value_only() {
    let r = router();
    assert_eq!(find(&r, "/users/a%2Fb"), ("/users/{id}", p(&[("id", "a/b")])));
    assert_eq!(find(&r, "/users/%41x%C3%A9"), ("/users/{id}", p(&[("id", "Axé")])));
    assert_eq!(find(&r, "/users/a+b"), ("/users/{id}", p(&[("id", "a+b")])));
    assert_eq!(
        find(&r, "/users/%61/v2.1%2E0"),
        ("/users/{id}/v{major: \\d+}.{minor}", p(&[("id", "a"), ("major", "2"), ("minor", "1.0")]))
    );
    assert!(matches!(matched(&r, "/users/%zz"), Err(RouteError::BadPath { .. })));
    assert!(matches!(matched(&r, "/users/a%00"), Err(RouteError::BadPath { .. })));
}

#[test]
fn captures_name_the_segments_they_cover() {
    let r = router();
    for path in ["/files/a/b/c", "/files/a/b/c/", "/files/a/%62/c", "/files/a;k=v/b/c", "/files/a/b/c?q=1#f"] {
        let m = matched(&r, path).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        assert_eq!(m.params.get("path"), Some("a/b/c"), "{path}");
        assert_eq!(m.params.segments("path"), Some(1..4), "{path}");
    }
    let m = matched(&r, "/files/a%2Fb").expect("matched");
    assert_eq!((m.params.get("path"), m.params.segments("path")), (Some("a/b"), Some(1..2)));
    let m = matched(&r, "/users/7/v2.1").expect("matched");
    assert_eq!(m.params.segments("id"), Some(1..2));
    assert_eq!(m.params.segments("major"), Some(2..3));
    assert_eq!(m.matrix.last_segment(), Some(2));
    // Plain paths longer than the values' inline buffer (24 bytes): the
    // same values and segments as a short path's.
    let m = matched(&r, "/files/a-rather-long-directory/b/c").expect("matched");
    assert_eq!((m.params.get("path"), m.params.segments("path")), (Some("a-rather-long-directory/b/c"), Some(1..4)));
    let m = matched(&r, "/users/a-rather-long-user-id/v12.3-rc1").expect("matched");
    let values = m.params.iter().collect::<Vec<_>>();
    assert_eq!(values, [("id", "a-rather-long-user-id"), ("major", "12"), ("minor", "3-rc1")]);
    let segments = ["id", "major", "minor"].map(|name| m.params.segments(name));
    assert_eq!(segments, [Some(1..2), Some(2..3), Some(2..3)]);
}

#[test]
fn long_paths_with_queries_and_fragments_are_cut_where_they_end() {
    let r = router();
    let want = ("/repos/{owner}/{repo}/stargazers", p(&[("owner", "rust-lang"), ("repo", "rust")]));
    for path in [
        "/repos/rust-lang/rust/stargazers",
        "/repos/rust-lang/rust/stargazers/",
        "repos/rust-lang/rust/stargazers",
        "/repos/rust-lang/rust/stargazers?page=2&per_page=100",
        "/repos/rust-lang/rust/stargazers#top",
        "/repos/rust-lang/rust/stargazers/?x=/a/b",
        "/repos/rust-lang/rust/stargazers#frag?not=query",
    ] {
        assert_eq!(find(&r, path), want, "{path}");
    }
    assert!(matches!(matched(&r, "/repos/rust-lang/rust?/stargazers"), Err(RouteError::NotFound)));
    assert!(matches!(matched(&r, "/repos/rust-lang/rust/stargazers//"), Err(RouteError::NotFound)));
}

#[test]
fn a_failed_literal_branch_leaves_no_captures_to_the_variable_branch() {
    // Below `lit` the walk has one way on (`{x}`, then `end`): it captures
    // `x` and fails at the last segment; the values of `{y}/{z}` are theirs.
    let table = ["/a/lit/{x}/end", "/a/{y}/{z}/other", "/a/lit/{x}/{w}/more"];
    let entries: Vec<RouteEntry> = table.iter().map(|t| route("GET", t).named(t)).collect();
    let r = Router::new(&entries).expect("valid table").0;
    let values = |path: &str| {
        let m = matched(&r, path).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        (table[m.index], m.params.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect::<Vec<_>>())
    };
    assert_eq!(values("/a/lit/q/other"), ("/a/{y}/{z}/other", p(&[("y", "lit"), ("z", "q")])));
    assert_eq!(values("/a/lit/q/end"), ("/a/lit/{x}/end", p(&[("x", "q")])));
    assert_eq!(values("/a/lit/q/r/more"), ("/a/lit/{x}/{w}/more", p(&[("x", "q"), ("w", "r")])));
    assert_eq!(values("/a/lit%71/q/other"), ("/a/{y}/{z}/other", p(&[("y", "litq"), ("z", "q")])));
    assert!(matches!(matched(&r, "/a/lit/q/r/less"), Err(RouteError::NotFound)));
}

#[test]
fn static_routes_longer_than_sixty_three_bytes_and_their_neighbours() {
    // Static paths are looked up by length first; every length from 63
    // bytes on shares one mark.
    let long = format!("/{}", "s".repeat(70));
    let longer = format!("/{}", "s".repeat(90));
    let table = [long.as_str(), "/{v}", "/ab", "/cd/{w}"];
    let entries: Vec<RouteEntry> = table.iter().map(|t| route("GET", t).named(t)).collect();
    let r = Router::new(&entries).expect("valid table").0;
    let index = |path: &str| matched(&r, path).map(|m| m.index).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    assert_eq!(index(&long), 0);
    assert_eq!(index(&format!("{long}/")), 0);
    assert_eq!(index(&longer), 1);
    assert_eq!(index(&long.replace('s', "t")), 1);
    assert_eq!(index("/ab"), 2);
    assert_eq!(index("/ac"), 1);
    assert_eq!(index("/cd/x"), 3);
    assert!(matches!(matched(&r, "/cd"), Ok(m) if m.index == 1));
}
