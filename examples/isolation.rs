//! Isolation: while slow handlers saturate the business executor, routes on
//! the IO threads keep their latency.
//!
//! ```text
//! cargo run --release --example isolation
//! ```
//!
//! Starts a server on 127.0.0.1 (port 0) with an IO route (`/ping`) and a
//! plain `fn` that blocks a business thread for 20 ms (`/slow`, 2 threads,
//! queue 64), then measures `/ping` latency over keep-alive HTTP/1.1
//! connections twice: alone, and while 60 connections keep `/slow` busy
//! (both business threads always blocked, about 58 requests always queued,
//! each waiting about a second; a client answered 429 backs off 20 ms).
//! A third phase shows what the business pool prevents: the same 20 ms of
//! blocking written as an `async fn` scheduled on IO (`/slow-on-io`, a
//! mistake), which stalls the IO threads and every route on them. Prints
//! p50 / p99 / max of `/ping` per phase, and the business metrics. Each
//! phase stops after 20,000 pings or 2 seconds; about eight seconds in all,
//! loopback only.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use restlight::prelude::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `/ping` requests measured per phase (at most), over `PING_CONNECTIONS`
/// connections, for at most `PHASE`.
const PINGS: usize = 20_000;
const PHASE: Duration = Duration::from_secs(2);
const PING_CONNECTIONS: usize = 4;
/// Connections that keep the business executor busy.
const SLOW_CONNECTIONS: usize = 60;

fn main() -> restlight::Result<()> {
    let server = Restlight::new()
        .route(get("/ping").scheduled("io").handle(|_ctx| async { "pong" }))
        .route(get("/slow").handle_blocking(|_ctx| {
            std::thread::sleep(Duration::from_millis(20));
            "slow"
        }))
        .route(get("/slow-on-io").scheduled("io").handle(|_ctx| async {
            // A mistake on purpose: blocking inside an async fn on IO.
            std::thread::sleep(Duration::from_millis(20));
            "slow"
        }))
        .scheduler("biz", Scheduler::threads(2).queue(64))
        .bind(Ipv4Addr::LOCALHOST)
        .port(0)
        .start()?;
    let addr = server.local_addr();
    let client = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;

    let alone = client.block_on(measure_pings(addr));
    let slow_done = Arc::new(AtomicU64::new(0));
    let slow_429 = Arc::new(AtomicU64::new(0));
    let load = |path: &'static str| {
        let stop = Arc::new(AtomicBool::new(false));
        let loaders: Vec<_> = (0..SLOW_CONNECTIONS)
            .map(|_| {
                let (stop, done, rejected) = (Arc::clone(&stop), Arc::clone(&slow_done), Arc::clone(&slow_429));
                client.spawn(hammer(addr, path, stop, done, rejected))
            })
            .collect();
        (stop, loaders)
    };
    let (stop, loaders) = load("/slow");
    // Let the queue fill before measuring.
    std::thread::sleep(Duration::from_secs(1));
    let saturated = client.block_on(measure_pings(addr));
    let biz = server.executors().into_iter().find(|m| m.name == "biz");
    stop.store(true, Ordering::SeqCst);
    for loader in loaders {
        let _ = client.block_on(loader);
    }
    let (slow_200, slow_rejected) = (slow_done.swap(0, Ordering::SeqCst), slow_429.swap(0, Ordering::SeqCst));

    let (stop, loaders) = load("/slow-on-io");
    std::thread::sleep(Duration::from_millis(200));
    let blocked_io = client.block_on(measure_pings(addr));
    stop.store(true, Ordering::SeqCst);
    for loader in loaders {
        let _ = client.block_on(loader);
    }

    println!("/ping on IO over {PING_CONNECTIONS} connections:");
    println!("  alone:                        {}", alone.summary());
    println!("  business pool saturated:      {}", saturated.summary());
    println!("  IO threads blocked (mistake): {}", blocked_io.summary());
    println!("/slow during the second phase: {slow_200} answered 200, {slow_rejected} answered 429");
    if let Some(m) = biz {
        println!(
            "biz while saturated: active {}/{} queued {}/{} rejected {} queue wait p50 <= {} ms p99 <= {} ms",
            m.active,
            m.max_active,
            m.queued,
            m.queue_capacity,
            m.rejected,
            m.queue_wait.p50().as_millis(),
            m.queue_wait.p99().as_millis()
        );
    }
    server.shutdown();
    Ok(())
}

/// Latencies of one phase, sorted.
struct Latencies(Vec<Duration>);

impl Latencies {
    fn at(&self, q: f64) -> Duration {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let i = ((self.0.len() as f64 * q).ceil() as usize).clamp(1, self.0.len()) - 1;
        self.0[i]
    }

    fn summary(&self) -> String {
        format!(
            "{:>6} pings  p50 {:>8.3} ms  p99 {:>8.3} ms  max {:>8.3} ms",
            self.0.len(),
            ms(self.at(0.5)),
            ms(self.at(0.99)),
            ms(self.at(1.0))
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

async fn measure_pings(addr: SocketAddr) -> Latencies {
    let per_connection = PINGS / PING_CONNECTIONS;
    let tasks: Vec<_> = (0..PING_CONNECTIONS)
        .map(|_| {
            tokio::spawn(async move {
                let mut conn = Conn::connect(addr).await;
                let mut times = Vec::with_capacity(per_connection);
                let phase = Instant::now();
                while times.len() < per_connection && phase.elapsed() < PHASE {
                    let start = Instant::now();
                    let status = conn.get("/ping").await;
                    assert_eq!(status, 200);
                    times.push(start.elapsed());
                }
                times
            })
        })
        .collect();
    let mut all = Vec::with_capacity(PINGS);
    for task in tasks {
        all.extend(task.await.expect("ping task"));
    }
    all.sort();
    Latencies(all)
}

async fn hammer(
    addr: SocketAddr,
    path: &'static str,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicU64>,
    rejected: Arc<AtomicU64>,
) {
    let mut conn = Conn::connect(addr).await;
    while !stop.load(Ordering::Relaxed) {
        match conn.get(path).await {
            200 => done.fetch_add(1, Ordering::Relaxed),
            429 => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                rejected.fetch_add(1, Ordering::Relaxed)
            }
            other => panic!("{path} answered {other}"),
        };
    }
}

/// A minimal keep-alive HTTP/1.1 client: GET, read one response with a
/// Content-Length body, return its status.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    async fn connect(addr: SocketAddr) -> Self {
        let stream = TcpStream::connect(addr).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Self { stream, buf: Vec::with_capacity(1024) }
    }

    async fn get(&mut self, path: &str) -> u16 {
        let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n");
        self.stream.write_all(request.as_bytes()).await.expect("write");
        loop {
            if let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buf[..end]).into_owned();
                let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status");
                let len: usize = head
                    .lines()
                    .find_map(|l| l.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case("content-length")))
                    .and_then(|(_, v)| v.trim().parse().ok())
                    .unwrap_or(0);
                if self.buf.len() >= end + 4 + len {
                    self.buf.drain(..end + 4 + len);
                    return status;
                }
            }
            let mut chunk = [0_u8; 4096];
            let n = self.stream.read(&mut chunk).await.expect("read");
            assert!(n > 0, "connection closed");
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }
}
