//! HTTP/2 by prior knowledge (h2c): streams, resets, idle connections.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use restlight_core::get;
use support::{h2_frame_types, h2c_client, url, with_ping, Raw, H2_EMPTY_SETTINGS, H2_GOAWAY, H2_PREFACE};

#[tokio::test]
async fn prior_knowledge_h2c_is_served_as_http2() {
    let server = with_ping().start().unwrap();
    let response = h2c_client().get(url(server.local_addr(), "/ping")).send().await.unwrap();
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "pong");
    server.shutdown_async().await;
}

#[tokio::test]
async fn concurrent_streams_share_one_connection() {
    let server = with_ping().start().unwrap();
    let client = h2c_client();
    let target = url(server.local_addr(), "/ping");
    let requests = (0..32).map(|_| {
        let request = client.get(&target).send();
        async move { request.await.unwrap().text().await.unwrap() }
    });
    let bodies = futures_util::future::join_all(requests).await;
    assert!(bodies.iter().all(|body| body == "pong"), "{bodies:?}");
    server.shutdown_async().await;
}

/// Sets its flag when dropped: tells whether a handler's future was dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn reset_stream_drops_the_request_future() {
    reset_stream_drops_the_handler("io").await;
}

#[tokio::test]
async fn reset_stream_cancels_work_on_the_business_runtime() {
    reset_stream_drops_the_handler("biz").await;
}

async fn reset_stream_drops_the_handler(executor: &str) {
    let dropped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&dropped);
    let server = with_ping()
        .route(get("/hang").scheduled(executor).handle(move |_ctx| {
            let guard = DropFlag(Arc::clone(&flag));
            async move {
                let _guard = guard;
                tokio::time::sleep(Duration::from_secs(30)).await;
                "too late"
            }
        }))
        .start()
        .unwrap();
    let client = h2c_client();
    let hang = client.get(url(server.local_addr(), "/hang")).timeout(Duration::from_millis(200)).send().await;
    assert!(hang.is_err(), "the hanging request should have timed out");

    // Dropping the client's request future resets the stream.
    for _ in 0..100 {
        if dropped.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(dropped.load(Ordering::SeqCst), "handler still running after the stream was reset");

    // The connection itself is still good.
    let ping = client.get(url(server.local_addr(), "/ping")).send().await.unwrap();
    assert_eq!(ping.text().await.unwrap(), "pong");
    server.shutdown_async().await;
}

#[test]
fn idle_h2_connection_gets_goaway_and_is_closed() {
    let server = with_ping().idle_timeout(Duration::from_millis(200)).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(H2_PREFACE);
    raw.send(H2_EMPTY_SETTINGS);

    // This client never acks the server's ping, so the graceful close cannot
    // complete; the connection is dropped one idle period later.
    let closed = raw.closed_within(Duration::from_secs(3)).expect("idle h2 connection left open");
    assert!(closed >= Duration::from_millis(150), "closed after {closed:?}");
    assert!(h2_frame_types(raw.received()).contains(&H2_GOAWAY), "no GOAWAY in {:?}", h2_frame_types(raw.received()));
    server.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_lets_open_streams_finish() {
    let started = Arc::new(tokio::sync::Notify::new());
    let notify = Arc::clone(&started);
    let server = with_ping()
        .route(get("/slow").handle(move |_ctx| {
            let notify = Arc::clone(&notify);
            async move {
                notify.notify_one();
                tokio::time::sleep(Duration::from_millis(400)).await;
                "slow done"
            }
        }))
        .start()
        .unwrap();
    let client = h2c_client();
    let slow = tokio::spawn(client.get(url(server.local_addr(), "/slow")).send());
    started.notified().await;

    server.shutdown_async().await;
    let response = slow.await.unwrap().unwrap();
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    assert_eq!(response.text().await.unwrap(), "slow done");
}

/// An h2c connection whose client never opens a window again: it announces
/// `window` bytes per stream (h2's default of 64 KiB when `None`) and never
/// releases what it receives.
async fn never_reading_client(
    addr: std::net::SocketAddr,
    window: Option<u32>,
) -> h2::client::SendRequest<bytes::Bytes> {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut builder = h2::client::Builder::new();
    if let Some(window) = window {
        builder.initial_window_size(window);
    }
    let (client, conn) = builder.handshake(tcp).await.unwrap();
    tokio::spawn(conn);
    client
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_whose_client_never_reads_is_reset_after_the_write_timeout() {
    const WRITE_TIMEOUT: Duration = Duration::from_secs(1);
    const MIB: usize = 1024 * 1024;
    let one_piece = Arc::new(AtomicBool::new(false));
    let pieces = Arc::new(AtomicBool::new(false));
    let (one_piece_flag, pieces_flag) = (Arc::clone(&one_piece), Arc::clone(&pieces));
    let server = with_ping()
        .write_timeout(WRITE_TIMEOUT)
        // 1 MiB handed over as one piece, and as 16 pieces of 64 KiB; each
        // body sets its flag when it is dropped.
        .route(get("/one-piece").handle(move |_ctx| {
            let guard = DropFlag(Arc::clone(&one_piece_flag));
            async move {
                let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from(vec![7; MIB]))]);
                restlight_core::Body::from_byte_stream(chunks.map(move |c| {
                    let _ = &guard;
                    c
                }))
            }
        }))
        .route(get("/pieces").handle(move |_ctx| {
            let guard = DropFlag(Arc::clone(&pieces_flag));
            async move {
                let chunks = futures_util::stream::iter(
                    (0..16).map(|_| Ok::<_, std::io::Error>(bytes::Bytes::from(vec![7; MIB / 16]))),
                );
                restlight_core::Body::from_byte_stream(chunks.map(move |c| {
                    let _ = &guard;
                    c
                }))
            }
        }))
        .start()
        .unwrap();

    let cases = [("/one-piece", &one_piece, Some(0)), ("/one-piece", &one_piece, None), ("/pieces", &pieces, Some(0))];
    for (path, dropped, window) in cases {
        dropped.store(false, Ordering::SeqCst);
        let mut client = never_reading_client(server.local_addr(), window).await;
        let request = http::Request::get(format!("http://localhost{path}")).body(()).unwrap();
        let (response, _) = client.send_request(request, true).unwrap();
        let response = response.await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let start = std::time::Instant::now();
        let mut body = response.into_body();
        let mut received = 0;
        // Generous: a reset is expected one write timeout after the client's
        // window ran out; a busy machine may take longer.
        let reset = loop {
            match tokio::time::timeout(Duration::from_secs(15), body.data()).await {
                Ok(Some(Ok(data))) => received += data.len(),
                Ok(Some(Err(err))) => break err,
                other => {
                    panic!("{path}, window {window:?}: expected a reset, got {other:?} after {:?}", start.elapsed())
                }
            }
        };
        let elapsed = start.elapsed();
        assert_eq!(reset.reason(), Some(h2::Reason::CANCEL), "{path}, window {window:?}: {reset}");
        assert!(received < MIB / 2, "{path}, window {window:?}: {received} bytes received past the window");
        assert!(elapsed >= WRITE_TIMEOUT / 2, "{path}: reset after {elapsed:?}, before the write timeout");
        for _ in 0..300 {
            if dropped.load(Ordering::SeqCst) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(dropped.load(Ordering::SeqCst), "{path}, window {window:?}: the response body was not released");
    }

    // Others are served right after.
    let ping = h2c_client().get(url(server.local_addr(), "/ping")).send().await.unwrap();
    assert_eq!(ping.text().await.unwrap(), "pong");
    server.shutdown_async().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_response_waiting_for_the_application_is_not_a_stalled_stream() {
    // The body pauses longer than the write timeout between its pieces; the
    // client reads everything: no reset.
    let server = with_ping()
        .write_timeout(Duration::from_millis(300))
        .route(get("/slow-producer").handle(|_ctx| async {
            let chunks = futures_util::stream::iter(0..3).then(|i| async move {
                if i > 0 {
                    tokio::time::sleep(Duration::from_millis(900)).await;
                }
                Ok::<_, std::io::Error>(bytes::Bytes::from(vec![b'a' + i; 100 * 1024]))
            });
            restlight_core::Body::from_byte_stream(chunks)
        }))
        .start()
        .unwrap();
    let response = h2c_client().get(url(server.local_addr(), "/slow-producer")).send().await.unwrap();
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    let body = response.bytes().await.unwrap();
    assert_eq!(body.len(), 300 * 1024);
    assert!(body[..100 * 1024].iter().all(|&b| b == b'a') && body[200 * 1024..].iter().all(|&b| b == b'c'));
    server.shutdown_async().await;
}

/// How an HPACK field was written (RFC 7541, section 6): its first
/// byte's pattern, and the index of its name (0 for a name written out).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Indexed,
    Incremental(usize),
    WithoutIndexing(usize),
    NeverIndexed(usize),
}

/// The fields of an HPACK block, without decoding names or values.
fn hpack_fields(block: &[u8]) -> Vec<Field> {
    fn int(block: &[u8], at: &mut usize, prefix: u32) -> usize {
        let max = (1 << prefix) - 1;
        let mut value = usize::from(block[*at]) & max;
        *at += 1;
        if value == max {
            let mut shift = 0;
            loop {
                let b = block[*at];
                *at += 1;
                value += usize::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
        }
        value
    }
    fn literal(block: &[u8], at: &mut usize, prefix: u32) -> usize {
        let name = int(block, at, prefix);
        let strings = if name == 0 { 2 } else { 1 };
        for _ in 0..strings {
            let len = int(block, at, 7);
            *at += len;
        }
        name
    }
    let mut fields = Vec::new();
    let mut at = 0;
    while at < block.len() {
        let first = block[at];
        let field = match first {
            0x80.. => {
                int(block, &mut at, 7);
                Field::Indexed
            }
            0x40.. => Field::Incremental(literal(block, &mut at, 6)),
            0x20.. => {
                // A table size update: no field.
                int(block, &mut at, 5);
                continue;
            }
            0x10.. => Field::NeverIndexed(literal(block, &mut at, 4)),
            _ => Field::WithoutIndexing(literal(block, &mut at, 4)),
        };
        fields.push(field);
    }
    fields
}

#[test]
fn a_request_id_enters_the_connections_header_table_once_and_its_name_is_reused() {
    // A response's ID is new every time: were each indexed, every response
    // over the connection would add it to the HPACK table and evict older
    // entries. The first response's ID is indexed, which puts the header's
    // name in the table; later ones are never indexed and name it by its
    // index in the table.
    let server = with_ping().request_ids(true).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(H2_PREFACE);
    raw.send(H2_EMPTY_SETTINGS);
    let mut seen = Vec::new();
    for stream in [1_u8, 3, 5] {
        // GET /ping: `:method GET` and `:scheme http` from the static
        // table, `:path` and `:authority` as literals with static names.
        let mut block = vec![0x82, 0x86, 0x04, 5];
        block.extend_from_slice(b"/ping");
        block.extend_from_slice(&[0x01, 9]);
        block.extend_from_slice(b"localhost");
        let mut frame = vec![0, 0, u8::try_from(block.len()).unwrap(), 1, 0x05, 0, 0, 0, stream];
        frame.extend_from_slice(&block);
        raw.send(frame);
        let block = loop {
            let (kind, _flags, id, payload) = raw.h2_frame();
            if kind == 1 && id == u32::from(stream) {
                break payload;
            }
        };
        // Every other field of this response has a name in the static
        // table (indices 1 to 61: `content-type`, `content-length`,
        // `date`), so the request ID's field is the one whose name is
        // written out or found in the connection's table (62 and above).
        let id_fields: Vec<Field> = hpack_fields(&block)
            .into_iter()
            .filter(|f| match *f {
                Field::Incremental(name) | Field::WithoutIndexing(name) | Field::NeverIndexed(name) => {
                    name == 0 || name >= 62
                }
                Field::Indexed => false,
            })
            .collect();
        seen.push(id_fields);
    }
    assert_eq!(seen[0], [Field::Incremental(0)], "the first response: the name written out, the field indexed");
    for (i, fields) in seen.iter().enumerate().skip(1) {
        assert!(
            matches!(fields[..], [Field::NeverIndexed(name)] if name >= 62),
            "response {}: the name by its index in the connection's table, the field never indexed: {fields:?}",
            i + 1
        );
    }
    drop(raw);
    server.shutdown();
}
