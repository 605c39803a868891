//! Raw bytes through the server's HTTP/1 connection code: hyper's parser
//! with the server's settings, the request checks, the body limits and the
//! application, over an in-memory duplex stream in place of a socket.
//!
//! The input is written as a client would, then the client's side is shut
//! down; the target reads what comes back until the server closes.
//!
//! Property: nothing panics, the connection ends once the client is done
//! (no hang: bounded at 5 s), and the answer is either empty (the server
//! closed without a response) or starts with a valid status line, as does
//! every response after it that can be found by its framing.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use restlight::prelude::*;
use restlight::App;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The most bytes read back; past it the answer is not read further.
const READ_BOUND: usize = 1 << 20;

struct Fixture {
    runtime: tokio::runtime::Runtime,
    app: App,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| Fixture {
        runtime: tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime"),
        app: Restlight::new()
            .max_body_size(4096)
            .route(get("/ping").handle(|_ctx| async { "pong" }))
            .route(post("/echo").handle(|ctx: RequestContext| async move { ctx.body().len().to_string() }))
            .route(
                get("/files/{path: .*}")
                    .handle(|ctx: RequestContext| async move { ctx.path_param("path").unwrap_or_default().to_owned() }),
            )
            .route(
                get("/q")
                    .handle(|ctx: RequestContext| async move { ctx.query_param("a").unwrap_or_default().to_owned() }),
            )
            .build()
            .expect("the fuzz application"),
    })
}

/// Whether `bytes` start with `HTTP/1.x NNN ` (or `HTTP/1.x NNN\r\n`).
fn is_status_line(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(b"HTTP/1.1 ").or_else(|| bytes.strip_prefix(b"HTTP/1.0 ")) else {
        return false;
    };
    let code = rest.get(..3).and_then(|code| std::str::from_utf8(code).ok()).and_then(|code| code.parse::<u16>().ok());
    code.is_some_and(|code| (100..=599).contains(&code)) && matches!(rest.get(3), Some(b' ' | b'\r'))
}

/// Checks each response found by its Content-Length framing (a chunked
/// one ends the walk); panics on a malformed status line.
fn check_responses(mut bytes: &[u8]) {
    while !bytes.is_empty() {
        assert!(
            is_status_line(bytes),
            "not a status line: {:?}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(64)])
        );
        let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else { return };
        let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
        let interim = head.starts_with("http/1.1 1");
        let len = head.lines().find_map(|line| line.strip_prefix("content-length:")).map(|v| v.trim().parse::<usize>());
        let len = match len {
            Some(Ok(len)) => len,
            Some(Err(_)) => panic!("a bad Content-Length in {head:?}"),
            None if interim || head.starts_with("http/1.1 204") || head.starts_with("http/1.1 304") => 0,
            // Chunked or close-delimited: the rest is this response.
            None => return,
        };
        bytes = &bytes[(end + 4 + len).min(bytes.len())..];
    }
}

fuzz_target!(|input: &[u8]| {
    let fixture = fixture();
    let answer = fixture.runtime.block_on(async {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let served = tokio::spawn(restlight_server::__serve_http1(fixture.app.clone(), server));
        let (mut reader, mut writer) = tokio::io::split(client);
        // Written and read at once, so neither side's buffer can stall the
        // other; the server may close before it read everything: fine.
        let write = async move {
            let _ = writer.write_all(input).await;
            let _ = writer.shutdown().await;
        };
        let read = async move {
            let mut answer = Vec::new();
            let mut chunk = [0_u8; 8192];
            while answer.len() < READ_BOUND {
                match reader.read(&mut chunk).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => answer.extend_from_slice(&chunk[..n]),
                }
            }
            answer
        };
        let exchange = async move { tokio::join!(write, read).1 };
        let answer = tokio::time::timeout(Duration::from_secs(5), exchange)
            .await
            .expect("the connection did not end after the client was done");
        tokio::time::timeout(Duration::from_secs(5), served)
            .await
            .expect("the connection task did not end")
            .expect("the connection task panicked");
        answer
    });
    check_responses(&answer);
});
