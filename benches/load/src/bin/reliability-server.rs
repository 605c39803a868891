//! The service the reliability suite (`reliability`) drives: a few routes
//! that sleep, spin, panic or answer at once, a small bounded business pool
//! that overload fills, short timeouts (3 s for headers, bodies and
//! writes, 5 s idle, bodies at 240 bytes/s or more after 2 s), and a count of the requests its handlers started,
//! printed when the server has shut down (`handled=N`), so that the driver
//! can check that every request a handler saw reached its client. With
//! `RELIABILITY_SHED` set, CPU load shedding is on (its defaults).

use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use restlight::prelude::*;
use restlight_load::port_from_args;

static HANDLED: AtomicU64 = AtomicU64::new(0);

#[derive(Default)]
pub struct Reliability;

#[restlight::path("/")]
#[produces("text/plain")]
impl Reliability {
    #[get]
    #[path("/hello")]
    async fn hello(&self) -> &'static str {
        HANDLED.fetch_add(1, Ordering::Relaxed);
        "hello"
    }

    /// Answers after `ms` milliseconds: in flight when shutdown begins.
    #[get]
    #[path("/slow")]
    async fn slow(&self, #[query_param] ms: u64) -> String {
        HANDLED.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(ms)).await;
        format!("slept {ms} ms")
    }

    /// 64 KiB: a response a slow reader cannot take at once.
    #[get]
    #[path("/big")]
    async fn big(&self) -> String {
        "x".repeat(64 * 1024)
    }

    /// Reads a whole body (the slow-body attack's target).
    #[post]
    #[path("/upload")]
    async fn upload(&self, body: bytes::Bytes) -> String {
        format!("{} bytes", body.len())
    }

    #[get]
    #[path("/panic")]
    async fn panic(&self) -> &'static str {
        panic!("a handler bug")
    }

    /// Spins for `us` microseconds on the business pool (2 threads, a
    /// queue of 16): the route overload fills.
    #[get]
    #[path("/work")]
    #[scheduled(biz)]
    fn work(&self, #[query_param] us: u64) -> String {
        HANDLED.fetch_add(1, Ordering::Relaxed);
        let until = Instant::now() + Duration::from_micros(us);
        let mut spins = 0u64;
        while Instant::now() < until {
            spins = std::hint::black_box(spins + 1);
        }
        format!("worked {us} us")
    }
}

fn main() -> restlight::Result<()> {
    let port = port_from_args();
    std::panic::set_hook(Box::new(|_| {})); // 10,000 panics need not fill the log
    let mut server = Restlight::new();
    if std::env::var_os("RELIABILITY_SHED").is_some() {
        // The defaults: from 80 % CPU, refuse 10 % to 80 % of new connections.
        server = server.load_shedding(restlight::LoadShedding::default());
    }
    let result = server
        .bind(Ipv4Addr::LOCALHOST)
        .port(port)
        .io_threads(1)
        .biz_threads(2)
        .biz_queue(16)
        .shutdown_timeout(Duration::from_secs(10))
        // Short timeouts so that the slow-client scenario ends in seconds.
        .header_read_timeout(Duration::from_secs(3))
        .body_read_timeout(Duration::from_secs(3))
        .write_timeout(Duration::from_secs(3))
        .idle_timeout(Duration::from_secs(5))
        .min_body_rate(240)
        .min_body_rate_grace(Duration::from_secs(2))
        .run();
    println!("handled={}", HANDLED.load(Ordering::Relaxed));
    result
}
