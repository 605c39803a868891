//! Per-request micro-benchmarks (`cargo bench --bench request`):
//!
//! - `param/*`: converting a parameter's text with [`FromParam`] (success and
//!   the error path, which builds the message a 400 carries);
//! - `media/*`: parsing a media type and negotiating `Accept` against a
//!   route's produces;
//! - `dispatch/*`: a request through the whole application in-process with the
//!   mock client: routing, argument resolution, the handler, the codec, the
//!   response and the collected body. Annotated resources, as a user writes
//!   them.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use restlight::prelude::*;
use restlight::test::MockClient;
use restlight_core::media::{negotiate, MediaType};
use restlight_core::FromParam;
use serde::{Deserialize, Serialize};

fn params(c: &mut Criterion) {
    let mut group = c.benchmark_group("param");
    group.bench_function("u64", |b| b.iter(|| u64::from_param(black_box("1234567890"))));
    group.bench_function("i32", |b| b.iter(|| i32::from_param(black_box("-42"))));
    group.bench_function("f64", |b| b.iter(|| f64::from_param(black_box("3.25"))));
    group.bench_function("bool", |b| b.iter(|| bool::from_param(black_box("true"))));
    group.bench_function("String", |b| b.iter(|| String::from_param(black_box("restlight"))));
    group.bench_function("u64_invalid", |b| b.iter(|| u64::from_param(black_box("12a"))));
    group.finish();
}

fn media(c: &mut Criterion) {
    let producible =
        [MediaType::parse("application/json").expect("valid"), MediaType::parse("text/plain").expect("valid")];
    let mut group = c.benchmark_group("media");
    group.bench_function("parse", |b| b.iter(|| MediaType::parse(black_box("application/json; charset=utf-8"))));
    let cases: [(&str, Option<&str>); 5] = [
        ("no_accept", None),
        ("exact", Some("application/json")),
        ("wildcard", Some("*/*")),
        ("weighted", Some("text/plain;q=0.5, application/json;q=0.9, */*;q=0.1")),
        ("browser", Some("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8")),
    ];
    for (name, accept) in cases {
        assert!(negotiate(accept, &producible).is_some(), "{name} negotiates");
        group.bench_function(format!("negotiate/{name}"), |b| b.iter(|| negotiate(black_box(accept), &producible)));
    }
    group.finish();
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct User {
    pub id: u64,
    pub name: String,
}

/// The resource the dispatch benchmarks call.
#[derive(Default, Debug)]
pub struct BenchResource;

#[restlight::path("/bench")]
impl BenchResource {
    #[get]
    #[path("/hello")]
    async fn hello(&self) -> &'static str {
        "Hello, World!"
    }

    #[get]
    #[path("/users/{id}")]
    #[produces("application/json")]
    async fn user(
        &self,
        #[path_param] id: u64,
        #[query_param("verbose")]
        #[default_value("false")]
        verbose: bool,
        #[header_param("X-Tenant")] tenant: Option<String>,
    ) -> User {
        let name = if verbose { format!("user {id} of {}", tenant.as_deref().unwrap_or("-")) } else { "u".into() };
        User { id, name }
    }

    #[post]
    #[path("/users")]
    #[consumes("application/json")]
    #[produces("application/json")]
    async fn create(&self, user: User) -> Created<User> {
        Created(user)
    }
}

fn dispatch(c: &mut Criterion) {
    let client: MockClient = Restlight::new().mock().expect("the benchmark application starts");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let res = rt.block_on(client.get("/bench/hello").send());
    assert_eq!((res.status().as_u16(), res.text()), (200, "Hello, World!".to_string()));
    let res = rt.block_on(client.get("/bench/users/42?verbose=true").header("X-Tenant", "acme").send());
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<User>().name, "user 42 of acme");
    let body = User { id: 7, name: "Ada".into() };
    let res = rt.block_on(client.post("/bench/users").json(&body).send());
    assert_eq!(res.status(), 201);

    let mut group = c.benchmark_group("dispatch");
    group.bench_function("hello", |b| b.iter(|| rt.block_on(client.get(black_box("/bench/hello")).send())));
    group.bench_function("json_with_params", |b| {
        b.iter(|| {
            rt.block_on(
                client
                    .get(black_box("/bench/users/42?verbose=true"))
                    .header("X-Tenant", "acme")
                    .accept("application/json")
                    .send(),
            )
        });
    });
    group.bench_function("json_entity", |b| {
        b.iter(|| rt.block_on(client.post(black_box("/bench/users")).json(&body).send()));
    });
    group.bench_function("not_found", |b| b.iter(|| rt.block_on(client.get(black_box("/bench/nope")).send())));
    group.finish();
}

criterion_group!(benches, params, media, dispatch);
criterion_main!(benches);
