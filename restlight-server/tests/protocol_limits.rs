//! Protocol limits over a real socket: header count (431), a body that
//! stops arriving or trickles below the minimum rate (408) and a client
//! that stops reading (closed).

mod support;

use std::time::Duration;

use restlight_core::{get, post, RequestContext};
use support::{get_request, restlight, with_ping, Raw};

#[test]
fn too_many_headers_is_431() {
    let server = with_ping().max_headers(8).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    let headers: String = (0..12).map(|i| format!("X-H{i}: {i}\r\n")).collect();
    raw.send(format!("GET /ping HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n"));
    assert_eq!(raw.response().status, 431);

    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/ping"));
    assert_eq!(raw.response().status, 200);
    server.shutdown();
}

#[test]
fn a_body_that_stops_arriving_is_408_naming_the_timeout() {
    let server = restlight()
        .body_read_timeout(Duration::from_millis(300))
        .route(post("/echo").handle(|ctx: RequestContext| async move { ctx.body().clone() }))
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nhalf!");
    let res = raw.response();
    assert_eq!(res.status, 408);
    assert!(res.text().contains("300"), "{}", res.text());

    // A body that keeps coming, slower than nothing but faster than the
    // timeout, is read in full.
    let mut raw = Raw::connect(server.local_addr());
    raw.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\n");
    for byte in ["a", "b", "c", "d"] {
        std::thread::sleep(Duration::from_millis(100));
        raw.send(byte);
    }
    assert_eq!(raw.response().text(), "abcd");
    server.shutdown();
}

/// A byte every 200 ms, eight times or until the server stops reading
/// (5 bytes/s: never a stall the body read timeout would see).
fn trickle(raw: &mut Raw) {
    for _ in 0..8 {
        std::thread::sleep(Duration::from_millis(200));
        if !raw.try_send("x") {
            break;
        }
    }
}

#[test]
fn a_body_that_trickles_below_the_minimum_rate_is_408_naming_the_rate() {
    let server = restlight()
        .min_body_rate(50)
        .min_body_rate_grace(Duration::from_millis(500))
        .route(post("/echo").handle(|ctx: RequestContext| async move { ctx.body().clone() }))
        .start()
        .unwrap();
    // 5 bytes/s: far below 50 bytes/s once the grace has passed.
    let mut raw = Raw::connect(server.local_addr());
    raw.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n");
    trickle(&mut raw);
    let res = raw.response();
    assert_eq!(res.status, 408);
    assert!(res.text().contains("below the minimum of 50 bytes per second"), "{}", res.text());
    assert!(res.text().contains("\"minBytesPerSecond\":50"), "{}", res.text());

    // The same when the start of the body came with the head: the part
    // that was already there does not hide the trickle that follows.
    let mut raw = Raw::connect(server.local_addr());
    raw.send(format!("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{}", "z".repeat(20)));
    trickle(&mut raw);
    let res = raw.response();
    assert_eq!(res.status, 408);
    assert!(res.text().contains("below the minimum of 50 bytes per second"), "{}", res.text());

    // A body sent whole with its head is read at once.
    let mut raw = Raw::connect(server.local_addr());
    raw.send(format!("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{}", "w".repeat(100)));
    let res = raw.response();
    assert_eq!((res.status, res.text()), (200, "w".repeat(100)));

    // A body well above the rate (40 bytes every 100 ms) is read whole,
    // however long it takes.
    let mut raw = Raw::connect(server.local_addr());
    raw.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 400\r\n\r\n");
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(100));
        raw.send([b'y'; 40]);
    }
    let res = raw.response();
    assert_eq!(res.status, 200);
    assert_eq!(res.text().len(), 400);
    server.shutdown();
}

#[test]
fn a_client_that_stops_reading_is_disconnected_after_the_write_timeout() {
    let server = restlight()
        .write_timeout(Duration::from_millis(300))
        .route(get("/huge").handle(|_| async { vec![b'x'; 32 << 20] }))
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/huge"));
    // Read nothing while the buffers fill and the write stalls.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(raw.closed_within(Duration::from_secs(4)).is_some(), "a stalled write kept the connection open");

    let mut other = Raw::connect(server.local_addr());
    other.send(get_request("/huge"));
    assert_eq!(other.response().body.len(), 32 << 20);
    server.shutdown();
}
