//! The cost of an argument resolver against the same code written in the
//! handler (`cargo bench --bench resolve`), a request through the whole
//! application in-process with the mock client:
//!
//! - `header/inline`: the handler takes `#[context] req: &RequestContext`
//!   and parses `Authorization: Bearer <name>` itself (401 when absent);
//! - `header/resolved`: the handler takes `#[resolve] user: CurrentUser`,
//!   whose `FromRequest` does the same;
//! - `attribute/inline`: the handler reads the principal an interceptor
//!   stored with `req.attribute::<Principal>()`;
//! - `attribute/request_attribute`: the handler takes
//!   `#[request_attribute] p: &Principal`.
//!
//! Both routes of a pair have paths of the same length, so routing costs
//! the same. For instruction counts (callgrind, see BENCHMARKS.md), run
//! the bench binary with `RESOLVE_COUNT=<path>` and `RESOLVE_N=<requests>`:
//! it sends that many requests to that path and exits.

use std::hint::black_box;
use std::ops::ControlFlow;

use criterion::{criterion_group, Criterion};
use restlight::prelude::*;
use restlight::test::MockClient;

struct CurrentUser(String);

fn bearer(req: &RequestContext) -> Result<String, HttpError> {
    match req.header("authorization").and_then(|h| h.strip_prefix("Bearer ")) {
        Some(name) => Ok(name.to_owned()),
        None => Err(HttpError::unauthorized("sign in")),
    }
}

impl FromRequest for CurrentUser {
    type Error = HttpError;
    async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, HttpError> {
        bearer(req).map(CurrentUser)
    }
}

#[derive(Clone)]
struct Principal(String);

struct Store;

impl Interceptor for Store {
    async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
        ctx.set_attribute(Principal("ada".to_owned()));
        ControlFlow::Continue(())
    }
}

#[derive(Default)]
struct Bench;

#[restlight::path("/b")]
#[produces("text/plain")]
impl Bench {
    #[get]
    #[path("/inline")]
    async fn inline(&self, #[context] req: &RequestContext) -> Result<String, HttpError> {
        let user = bearer(req)?;
        Ok(user)
    }

    #[get]
    #[path("/resolv")]
    async fn resolved(&self, #[resolve] user: CurrentUser) -> Result<String, HttpError> {
        Ok(user.0)
    }

    #[get]
    #[path("/attr-in")]
    async fn attribute_inline(&self, #[context] req: &RequestContext) -> Result<String, HttpError> {
        match req.attribute::<Principal>() {
            Some(p) => Ok(p.0.clone()),
            None => Err(HttpError::internal("no principal")),
        }
    }

    #[get]
    #[path("/attr-rs")]
    async fn attribute(&self, #[request_attribute] p: &Principal) -> Result<String, HttpError> {
        Ok(p.0.clone())
    }
}

fn client() -> MockClient {
    Restlight::new().interceptor(Intercept::new(Store).include("/b/attr-*")).mock().expect("app builds")
}

const CASES: [(&str, &str); 4] = [
    ("header/inline", "/b/inline"),
    ("header/resolved", "/b/resolv"),
    ("attribute/inline", "/b/attr-in"),
    ("attribute/request_attribute", "/b/attr-rs"),
];

fn dispatch(c: &mut Criterion) {
    let client = client();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let mut group = c.benchmark_group("resolve");
    for (name, path) in CASES {
        let res = rt.block_on(client.get(path).header("authorization", "Bearer ada").send());
        assert_eq!((res.status().as_u16(), res.text()), (200, "ada".to_owned()), "{name}");
        group.bench_function(name, |b| {
            b.iter(|| rt.block_on(client.get(black_box(path)).header("authorization", "Bearer ada").send()));
        });
    }
    group.finish();
}

criterion_group!(benches, dispatch);

fn main() {
    if let Ok(path) = std::env::var("RESOLVE_COUNT") {
        let n: usize = std::env::var("RESOLVE_N").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000);
        let client = client();
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        rt.block_on(async {
            for _ in 0..n {
                let res = client.get(&path).header("authorization", "Bearer ada").send().await;
                assert_eq!(res.status(), 200);
                black_box(res);
            }
        });
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
