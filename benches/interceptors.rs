//! Interceptor binding cost (`cargo bench --bench interceptors`).
//!
//! Twenty no-op handler interceptors with Ant-style includes and excludes
//! around one route, `GET /api/orders/{id}`: 9 are "always" for it, 9
//! "never" and 2 "maybe" (decided at startup, see
//! `restlight_core::intercept::affinity`).
//!
//! - `dispatch/precompiled`: the application as built: never-pairs are not
//!   in the route's chain, always-pairs run without a test, maybe-pairs test
//!   only the patterns that can meet the route;
//! - `dispatch/all_patterns_per_request`: the same twenty interceptors, each
//!   testing all its patterns on every request (what the startup
//!   classification saves);
//! - `dispatch/no_interceptors`: the route alone;
//! - `patterns/*`: only the pattern tests one request makes either way.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use restlight::intercept::{affinity, AntPattern, Intercept, Interceptor};
use restlight::test::MockClient;
use restlight::{get, AppBuilder};

const ROUTE: &str = "/api/orders/{id}";
const PATH: &str = "/api/orders/42";

/// (includes, excludes) of the twenty interceptors.
const SETS: [(Option<&[&str]>, &[&str]); 20] = [
    // Always: includes cover the route, excludes miss it.
    (None, &[]),
    (Some(&["/api/**"]), &[]),
    (Some(&["/api/orders/*"]), &["/admin/**"]),
    (Some(&["/**"]), &["/static/**"]),
    (Some(&["/api/*/*"]), &[]),
    (Some(&["/a?i/**"]), &["/api/users/**"]),
    (None, &["/health", "/metrics/**"]),
    (Some(&["/api/orders/**"]), &[]),
    (Some(&["/*/orders/*"]), &["/internal/**"]),
    // Never: includes miss the route, or an exclude covers it.
    (Some(&["/admin/**"]), &[]),
    (Some(&["/static/**", "/assets/**"]), &[]),
    (None, &["/api/**"]),
    (Some(&["/api/users/**"]), &[]),
    (Some(&["/**"]), &["/api/orders/*"]),
    (Some(&["/api/orders"]), &[]),
    (Some(&[]), &[]),
    (Some(&["/api/**"]), &["/api/orders/**"]),
    (Some(&["/api/orders/*/items"]), &[]),
    // Maybe: intersect the route without certainty.
    (Some(&["/api/orders/4?"]), &[]),
    (Some(&["/api/**"]), &["/api/orders/0*"]),
];

struct Noop;
impl Interceptor for Noop {}

fn patterns(list: &[&str]) -> Vec<AntPattern> {
    list.iter().map(|p| AntPattern::parse(p).expect("valid pattern")).collect()
}

fn app(mode: &str) -> MockClient {
    let mut builder = AppBuilder::new().annotated_routes(false).route(get(ROUTE).handle(|_| async { "order" }));
    if mode != "none" {
        for (includes, excludes) in SETS {
            let reg = if mode == "precompiled" {
                let reg = Intercept::new(Noop).excludes(excludes.iter().copied());
                match includes {
                    Some(list) => reg.includes(list.iter().copied()),
                    None => reg,
                }
            } else {
                let (inc, exc) = (includes.map(patterns), patterns(excludes));
                Intercept::new(Noop).when_request(move |ctx| {
                    let path = ctx.uri().path();
                    inc.as_ref().is_none_or(|i| i.iter().any(|p| p.matches(path)))
                        && !exc.iter().any(|p| p.matches(path))
                })
            };
            builder = builder.interceptor(reg);
        }
    }
    MockClient::new(builder.build().expect("the benchmark application starts"))
}

fn classification(c: &mut Criterion) {
    let counts = SETS.iter().fold([0; 3], |mut n, (inc, exc)| {
        match affinity(*inc, exc, ROUTE).expect("valid") {
            restlight::intercept::Affinity::Always => n[0] += 1,
            restlight::intercept::Affinity::Never => n[1] += 1,
            restlight::intercept::Affinity::Maybe => n[2] += 1,
        }
        n
    });
    assert_eq!(counts, [9, 9, 2], "always, never, maybe");
    c.bench_function("classify/20_interceptors_one_route", |b| {
        b.iter(|| {
            for (inc, exc) in SETS {
                black_box(affinity(inc, exc, black_box(ROUTE)).expect("valid"));
            }
        });
    });
}

fn pattern_tests(c: &mut Criterion) {
    let all: Vec<(Option<Vec<AntPattern>>, Vec<AntPattern>)> =
        SETS.iter().map(|(i, e)| (i.map(patterns), patterns(e))).collect();
    let maybe = [patterns(&["/api/orders/4?"]), patterns(&["/api/orders/0*"])];
    let mut group = c.benchmark_group("patterns");
    group.bench_function("all_20_per_request", |b| {
        b.iter(|| {
            all.iter()
                .filter(|(inc, exc)| {
                    let path = black_box(PATH);
                    inc.as_ref().is_none_or(|i| i.iter().any(|p| p.matches(path)))
                        && !exc.iter().any(|p| p.matches(path))
                })
                .count()
        });
    });
    group.bench_function("precompiled_maybe_only", |b| {
        b.iter(|| maybe.iter().filter(|list| list.iter().any(|p| p.matches(black_box(PATH)))).count());
    });
    group.finish();
}

fn dispatch(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let mut group = c.benchmark_group("dispatch");
    for mode in ["precompiled", "all_patterns_per_request", "none"] {
        let client = app(mode);
        let res = rt.block_on(client.get(PATH).send());
        assert_eq!(res.status(), 200);
        let name = if mode == "none" { "no_interceptors" } else { mode };
        group.bench_function(name, |b| b.iter(|| rt.block_on(client.get(black_box(PATH)).send())));
    }
    group.finish();
}

criterion_group!(benches, classification, pattern_tests, dispatch);
criterion_main!(benches);
