//! A 1 GiB upload through a streaming handler, measuring the peak memory
//! (VmHWM from /proc/self/status) before and after: the body is handed to
//! the handler as it arrives and never held in full.
//!
//! `cargo run --release --example upload [MiB]` (default 1024).

use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::time::Instant;

use restlight::prelude::*;
use restlight::BodyStream;

#[derive(Default)]
struct Sink;

#[restlight::path("/upload")]
#[produces("text/plain")]
impl Sink {
    /// Counts the bytes as they arrive; no limit but the client's patience.
    #[post]
    async fn upload(&self, mut body: BodyStream) -> Result<String, HttpError> {
        let mut total = 0_u64;
        while let Some(chunk) = body.chunk().await {
            total += chunk?.len() as u64;
        }
        Ok(total.to_string())
    }
}

/// The process's peak resident set so far, in KiB.
fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() -> restlight::Result<()> {
    let mib: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1024);
    let size = mib << 20;
    let server = Restlight::new().bind(Ipv4Addr::LOCALHOST).port(0).start()?;
    let addr = server.local_addr();

    // Warm up: one small upload so the runtimes and buffers exist.
    send(addr, 1 << 20);
    let before = vm_hwm_kib();
    let start = Instant::now();
    let answer = send(addr, size);
    let elapsed = start.elapsed();
    let after = vm_hwm_kib();

    assert_eq!(answer, size.to_string(), "the handler saw every byte");
    #[allow(clippy::cast_precision_loss)]
    let rate = size as f64 / (1 << 20) as f64 / elapsed.as_secs_f64();
    println!("uploaded {mib} MiB in {elapsed:.2?} ({rate:.0} MiB/s)");
    println!("VmHWM before {before} KiB, after {after} KiB, growth {} KiB", after.saturating_sub(before));
    server.shutdown();
    Ok(())
}

/// POSTs `size` bytes with Content-Length from a reused 256 KiB buffer and
/// returns the answer's body.
fn send(addr: std::net::SocketAddr, size: u64) -> String {
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(stream, "POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: {size}\r\nConnection: close\r\n\r\n")
        .expect("head");
    let buf = vec![b'x'; 256 * 1024];
    let mut left = size;
    while left > 0 {
        let n = usize::try_from(left.min(buf.len() as u64)).unwrap_or(buf.len());
        stream.write_all(&buf[..n]).expect("body");
        left -= n as u64;
    }
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    let mut last = String::new();
    while reader.read_line(&mut line).map_or(0, |n| n) > 0 {
        last = line.trim().to_owned();
        line.clear();
    }
    last
}
