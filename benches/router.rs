//! Router micro-benchmarks (`cargo bench --bench router`).
//!
//! - `router/java_shape/N`: the shape of the Java original's
//!   `CachedRouteRegistryBenchmark` over N = 10, 20, 50, 100 and 1,000
//!   routes. Every route has a templated path (the original's Ant pattern
//!   `/f?o/b*r/**/??x{i}` written as a JAX-RS template), a method, consumes
//!   `application/json` and produces `text/plain`; every request carries the
//!   route's required query parameters and headers, `Content-Type` and
//!   `Accept`, and the requests are picked with a Poisson distribution of
//!   lambda = N/2, as in the original. Restlight's routes do not match on
//!   query parameters or headers (JAX-RS has no such conditions: a missing
//!   required parameter is a 400 from argument resolution), so those take no
//!   part in the lookup here.
//! - `router/templated/N`: the same with plain one-segment variables
//!   (`/foo/{a}/bar{i}/{b}`), next to matchit on the same paths.
//! - `router/static`: the static routes of the GitHub table, each looked up
//!   once per iteration, Restlight and matchit.
//! - `router/github`: the GitHub REST API table and the four requests of
//!   matchit's own benchmark, Restlight and matchit.
//!
//! matchit only matches paths: it sees no method, no media types and returns
//! borrowed, undecoded parameters, so its figure is the floor of a path match.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use http::Method;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Poisson};
use restlight_core::media::MediaType;
use restlight_core::router::{Lookup, RouteEntry, Router};

#[path = "support/github.rs"]
mod github;

const SIZES: &[usize] = &[10, 20, 50, 100, 1000];
const METHODS: &[Method] = &[Method::GET, Method::POST, Method::PUT, Method::DELETE, Method::PATCH];
/// Poisson-picked request indices per table (cycled through by the bench loop
/// so the random draw stays out of the measurement).
const PICKS: usize = 4096;

fn media(s: &str) -> MediaType {
    MediaType::parse(s).expect("valid media type")
}

fn entry(method: Method, template: String, i: usize, consumes: &[MediaType], produces: &[MediaType]) -> RouteEntry {
    RouteEntry {
        method,
        template,
        parsed: None,
        consumes: consumes.to_vec(),
        produces: produces.to_vec(),
        location: format!("benches/router.rs:{i}"),
        name: format!("route{i}"),
        conditions: Default::default(),
        precedence: Default::default(),
    }
}

fn compile(entries: &[RouteEntry]) -> Router {
    let (router, _warnings) = Router::new(entries).expect("the benchmark table compiles");
    router
}

/// One request of the Java-shaped tables.
#[derive(Debug)]
struct Req {
    method: Method,
    /// Path and query, as sent.
    target: String,
    /// The route's required headers (carried, not matched: see the module doc).
    headers: [(String, &'static str); 2],
}

/// Request indices with a Poisson distribution of lambda = n/2, capped at n-1.
fn poisson_picks(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = StdRng::seed_from_u64(seed);
    let dist = Poisson::new(n as f64 / 2.0).expect("positive lambda");
    (0..PICKS).map(|_| (dist.sample(&mut rng) as usize).min(n - 1)).collect()
}

/// The Java benchmark's table with `template(i)` paths; the requests go to
/// `path(i)` with the query parameters `a{i}=a&b{i}=1`.
fn java_table(
    n: usize,
    template: impl Fn(usize) -> String,
    path: impl Fn(usize) -> String,
) -> (Vec<RouteEntry>, Vec<Req>) {
    let mut rng = StdRng::seed_from_u64(n as u64);
    let json = [media("application/json")];
    let text = [media("text/plain")];
    let mut entries = Vec::with_capacity(n);
    let mut reqs = Vec::with_capacity(n);
    for i in 0..n {
        let method = METHODS[rng.random_range(0..METHODS.len())].clone();
        entries.push(entry(method.clone(), template(i), i, &json, &text));
        reqs.push(Req {
            method,
            target: format!("{}?a{i}=a&b{i}=1", path(i)),
            headers: [(format!("c{i}"), "c"), (format!("d{i}"), "1")],
        });
    }
    (entries, reqs)
}

fn expect_index(found: Result<Lookup<'_>, restlight_core::router::RouteError>, want: usize) {
    match found {
        Ok(Lookup::Matched(m)) => assert_eq!(m.index, want, "wrong route"),
        other => panic!("route {want} not matched: {other:?}"),
    }
}

fn java_shape(c: &mut Criterion) {
    let mut group = c.benchmark_group("router/java_shape");
    group.throughput(Throughput::Elements(1));
    for &n in SIZES {
        // Tables are built and checked inside the closures, which criterion
        // calls only for the benchmarks its filter selects.
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            // `/f?o/b*r/**/??x{i}`: `?` is one character, `*` any run of
            // characters inside a segment, `**` any number of segments.
            let (entries, reqs) = java_table(
                n,
                |i| format!("/f{{c1: [^/]}}o/b{{c2: [^/]*}}r/{{rest: .*}}/{{c3: [^/][^/]}}x{i}"),
                |i| format!("/foo/bar/baz/qux{i}"),
            );
            let router = compile(&entries);
            for (i, r) in reqs.iter().enumerate() {
                expect_index(router.lookup(&r.method, &r.target, Some("application/json"), Some("text/plain")), i);
                black_box(&r.headers);
            }
            let picks = poisson_picks(n, 7);
            let mut k = 0;
            b.iter(|| {
                let r = &reqs[picks[k & (PICKS - 1)]];
                k += 1;
                black_box(router.lookup(
                    black_box(&r.method),
                    black_box(&r.target),
                    Some("application/json"),
                    Some("text/plain"),
                ))
                .is_ok()
            });
        });
    }
    group.finish();
}

fn templated_table(n: usize) -> (Vec<RouteEntry>, Vec<Req>) {
    java_table(n, |i| format!("/foo/{{a}}/bar{i}/{{b}}"), |i| format!("/foo/x{i}/bar{i}/y{i}"))
}

fn templated(c: &mut Criterion) {
    let mut group = c.benchmark_group("router/templated");
    group.throughput(Throughput::Elements(1));
    for &n in SIZES {
        group.bench_function(BenchmarkId::new("restlight", n), |b| {
            let (entries, reqs) = templated_table(n);
            let router = compile(&entries);
            for (i, r) in reqs.iter().enumerate() {
                expect_index(router.lookup(&r.method, &r.target, Some("application/json"), Some("text/plain")), i);
            }
            let picks = poisson_picks(n, 11);
            let mut k = 0;
            b.iter(|| {
                let r = &reqs[picks[k & (PICKS - 1)]];
                k += 1;
                black_box(router.lookup(
                    black_box(&r.method),
                    black_box(&r.target),
                    Some("application/json"),
                    Some("text/plain"),
                ))
                .is_ok()
            });
        });
        group.bench_function(BenchmarkId::new("matchit", n), |b| {
            let (entries, reqs) = templated_table(n);
            let mut tree = matchit::Router::new();
            for (i, e) in entries.iter().enumerate() {
                tree.insert(e.template.clone(), i).expect("matchit accepts the table");
            }
            let paths: Vec<&str> = reqs.iter().map(|r| r.target.split('?').next().unwrap_or("")).collect();
            for (i, p) in paths.iter().enumerate() {
                assert_eq!(*tree.at(p).expect("matchit match").value, i);
            }
            let picks = poisson_picks(n, 11);
            let mut k = 0;
            b.iter(|| {
                let p = paths[picks[k & (PICKS - 1)]];
                k += 1;
                black_box(tree.at(black_box(p))).is_ok()
            });
        });
    }
    group.finish();
}

fn restlight_get_table(routes: &[&str]) -> Router {
    let entries: Vec<RouteEntry> =
        routes.iter().enumerate().map(|(i, r)| entry(Method::GET, (*r).to_string(), i, &[], &[])).collect();
    compile(&entries)
}

fn matchit_table(routes: &[&str]) -> matchit::Router<usize> {
    let mut tree = matchit::Router::new();
    for (i, r) in routes.iter().enumerate() {
        tree.insert(*r, i).expect("matchit accepts the table");
    }
    tree
}

fn compare(c: &mut Criterion, name: &str, routes: &[&str], lookups: &[&str]) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(lookups.len() as u64));
    group.bench_function("restlight", |b| {
        let router = restlight_get_table(routes);
        let tree = matchit_table(routes);
        for p in lookups {
            let want = *tree.at(p).expect("matchit match").value;
            expect_index(router.lookup(&Method::GET, p, None, None), want);
        }
        b.iter(|| {
            for p in lookups {
                let _ = black_box(router.lookup(&Method::GET, black_box(p), None, None));
            }
        });
    });
    group.bench_function("matchit", |b| {
        let tree = matchit_table(routes);
        b.iter(|| {
            for p in lookups {
                let _ = black_box(tree.at(black_box(p)));
            }
        });
    });
    group.finish();
}

fn static_only(c: &mut Criterion) {
    let routes = github::static_routes();
    compare(c, "router/static", &routes, &routes);
}

fn github_api(c: &mut Criterion) {
    compare(c, "router/github", github::ROUTES, github::LOOKUPS);
}

criterion_group!(benches, java_shape, templated, static_only, github_api);
criterion_main!(benches);
