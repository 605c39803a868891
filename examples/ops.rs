//! Hello with the operations features switched by `OPS`, to measure what
//! they cost (see "Operations" in BENCHMARKS.md):
//!
//! ```text
//! cargo run --release --features access-log-file --example ops            # OPS=off
//! OPS=metrics cargo run --release --features access-log-file --example ops
//! OPS=log     ...   # access log to /tmp/restlight-access/access.YYYY-MM-DD
//! OPS=both    ...
//! OPS=ids     ...   # request IDs (x-request-id kept or made, sent back)
//! OPS=trace   ...   # request IDs and trace context; no subscriber wants the span
//! OPS=spans   ...   # the same with a subscriber that records every span
//! curl localhost:18089/hello
//! curl localhost:18089/actuator/metrics   # with OPS=metrics or both
//! ```

use restlight::prelude::*;
use restlight::{AccessLog, Actuator, Endpoint};

fn main() -> restlight::Result<()> {
    let ops = std::env::var("OPS").unwrap_or_else(|_| "off".to_owned());
    let mut server = Restlight::new()
        .route(get("/hello").handle(|_ctx| async { "Hello Restlight!" }))
        .bind([127, 0, 0, 1])
        .port(18089);
    if ops == "metrics" || ops == "both" {
        server = server.actuator(Actuator::new().expose(&[Endpoint::Health, Endpoint::Metrics]));
    }
    if ops == "log" || ops == "both" {
        server = server.access_log(AccessLog::new().daily_file("/tmp/restlight-access", "access"));
    }
    if ops == "ids" || ops == "trace" || ops == "spans" {
        server = server.request_ids(true);
    }
    if ops == "trace" || ops == "spans" {
        server = server.trace_context(true);
    }
    if ops == "spans" {
        // Every span is built and recorded (the registry keeps its fields'
        // storage), and nothing is printed.
        use tracing_subscriber::layer::SubscriberExt;
        let subscriber = tracing_subscriber::registry().with(tracing_subscriber::filter::LevelFilter::INFO);
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
    }
    server.run()
}
