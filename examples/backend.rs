//! The Thrift lesson: the same handlers written blocking (plain `fn`, run on
//! the business pool) and async, for a call to a 10 ms backend and for CPU
//! work. Measured in BENCHMARKS.md ("Execution model").
//!
//! ```text
//! cargo run --release --example backend            # listens on 127.0.0.1:8081
//! wrk -t1 -c64 -d5s http://127.0.0.1:8081/backend/blocking
//! wrk -t1 -c64 -d5s http://127.0.0.1:8081/backend/async
//! wrk -t1 -c64 -d5s http://127.0.0.1:8081/cpu/blocking
//! wrk -t1 -c64 -d5s http://127.0.0.1:8081/cpu/async          # on the IO threads
//! wrk -t1 -c64 -d5s http://127.0.0.1:8081/cpu/async-biz      # on the business pool
//! wrk -t1 -c64 -d5s http://127.0.0.1:8081/hello              # on the IO threads
//! wrk -t1 -c64 -d5s http://127.0.0.1:8081/hello/biz          # on the business pool
//! ```
//!
//! A blocking call holds a business thread for its whole 10 ms, so the
//! blocking backend route tops out at `threads / 10 ms` (8 threads: 800
//! req/s) and queues (then answers 429) past that; the async one holds no
//! thread while it waits. CPU work is the opposite case: async buys nothing,
//! and on the IO threads it delays every other request of the connection's
//! thread, so it belongs on the business pool either way.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::net::Ipv4Addr;
use std::time::Duration;

use restlight::prelude::*;

/// The backend's latency.
const BACKEND_LATENCY: Duration = Duration::from_millis(10);

/// Hashing rounds per CPU-bound request (about half a millisecond in release).
const CPU_ROUNDS: u64 = 50_000;

/// The handlers.
#[derive(Debug, Default)]
pub struct Backend;

#[restlight::path("/")]
#[produces("text/plain")]
impl Backend {
    /// Calls the backend the blocking way: a plain `fn`, so it runs on the
    /// business pool and holds a thread while it waits.
    #[get]
    #[path("/backend/blocking")]
    fn backend_blocking(&self) -> &'static str {
        std::thread::sleep(BACKEND_LATENCY);
        "backend answered"
    }

    /// Calls the backend the async way: waits without holding a thread.
    #[get]
    #[path("/backend/async")]
    async fn backend_async(&self) -> &'static str {
        tokio::time::sleep(BACKEND_LATENCY).await;
        "backend answered"
    }

    /// CPU work as a plain `fn`: on the business pool.
    #[get]
    #[path("/cpu/blocking")]
    fn cpu_blocking(&self) -> String {
        hash_rounds("restlight", CPU_ROUNDS)
    }

    /// CPU work as an `async fn` on the default scheduler (IO).
    #[get]
    #[path("/cpu/async")]
    async fn cpu_async(&self) -> String {
        hash_rounds("restlight", CPU_ROUNDS)
    }

    /// CPU work as an `async fn` on the business pool.
    #[get]
    #[path("/cpu/async-biz")]
    #[scheduled(biz)]
    async fn cpu_async_biz(&self) -> String {
        hash_rounds("restlight", CPU_ROUNDS)
    }

    /// Hello on the default scheduler (IO).
    #[get]
    #[path("/hello")]
    async fn hello(&self) -> &'static str {
        "Hello Restlight!"
    }

    /// Hello on the business pool.
    #[get]
    #[path("/hello/biz")]
    #[scheduled(biz)]
    async fn hello_biz(&self) -> &'static str {
        "Hello Restlight!"
    }
}

/// Hashes `input` `rounds` times, feeding each result into the next round.
fn hash_rounds(input: &str, rounds: u64) -> String {
    let mut state = 0_u64;
    for round in 0..rounds {
        let mut hasher = DefaultHasher::new();
        (input, state, round).hash(&mut hasher);
        state = hasher.finish();
    }
    format!("{state:016x}")
}

fn main() -> restlight::Result<()> {
    let port = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(8081);
    let biz_threads = std::env::var("BIZ_THREADS").ok().and_then(|n| n.parse().ok()).unwrap_or(8);
    let server = Restlight::new()
        .scheduler("biz", Scheduler::threads(biz_threads))
        .bind(Ipv4Addr::LOCALHOST)
        .port(port)
        .start()?;
    println!("backend example on http://{} (biz: {biz_threads} threads); Ctrl-C to stop", server.local_addr());
    // Every few seconds, the business executor's metrics when they changed.
    let mut last = None;
    loop {
        std::thread::sleep(Duration::from_secs(5));
        let biz = server.executors().into_iter().find(|m| m.name == "biz");
        if let Some(m) = biz.filter(|m| last.as_ref() != Some(m)) {
            println!(
                "biz: completed {} rejected {} fail-fast {} active {} queued {} queue wait p50 {:?} p99 {:?}",
                m.completed,
                m.rejected,
                m.fail_fast,
                m.active,
                m.queued,
                m.queue_wait.p50(),
                m.queue_wait.p99()
            );
            last = Some(m);
        }
    }
}
