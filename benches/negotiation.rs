//! The cost of negotiation by URL as the route table grows
//! (`cargo bench --bench negotiation`).
//!
//! For 10, 100 and 1,000 routes, one request through the whole application
//! in-process (routing, the handler, the codec, the collected body):
//!
//! - `plain/N`: `GET /api/rK/items` with `Accept: application/json`;
//! - `suffix/N`: `GET /api/rK/items.json`, the format suffix on: the suffix is
//!   stripped once before routing (a search for the last `.` and one hash
//!   lookup), so the difference to `plain/N` must not grow with N;
//! - `param/N`: `GET /api/rK/items?format=json`, the format parameter on.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use restlight::prelude::*;
use restlight::test::MockClient;
use restlight::AppBuilder;

fn app(routes: usize) -> MockClient {
    let mut builder = AppBuilder::new().annotated_routes(false).format_suffix(true).format_parameter("format");
    for i in 0..routes {
        builder = builder.route(get(format!("/api/r{i}/items")).handle(|_| async { Entity(vec![1, 2, 3]) }));
    }
    MockClient::new(builder.build().expect("the bench app builds"))
}

fn negotiation(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
    let mut group = c.benchmark_group("negotiation");
    for n in [10, 100, 1000] {
        let client = app(n);
        let target = n / 2;
        let cases = [
            ("plain", format!("/api/r{target}/items"), true),
            ("suffix", format!("/api/r{target}/items.json"), false),
            ("param", format!("/api/r{target}/items?format=json"), false),
        ];
        for (name, uri, with_accept) in cases {
            let send = || {
                let req = client.get(&uri);
                let req = if with_accept { req.accept("application/json") } else { req };
                rt.block_on(req.send())
            };
            let res = send();
            assert_eq!((res.status().as_u16(), res.text()), (200, "[1,2,3]".to_owned()), "{name}/{n}");
            group.bench_function(format!("{name}/{n}"), |b| b.iter(|| black_box(send())));
        }
    }
    group.finish();
}

criterion_group!(benches, negotiation);
criterion_main!(benches);
