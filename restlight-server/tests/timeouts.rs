//! Slow and silent clients are cut off at the header read timeout while
//! everyone else is served.

mod support;

use std::time::{Duration, Instant};

use support::{get_request, with_ping, Raw, H2_PREFACE};

const HEADER_TIMEOUT: Duration = Duration::from_millis(300);
/// Slack for scheduling on a busy test machine.
const SLACK: Duration = Duration::from_millis(1500);

fn server() -> restlight_server::ServerHandle {
    with_ping().header_read_timeout(HEADER_TIMEOUT).start().unwrap()
}

#[test]
fn silent_connection_is_closed_at_the_deadline_while_others_are_served() {
    let server = server();
    let mut silent = Raw::connect(server.local_addr());

    let mut other = Raw::connect(server.local_addr());
    other.send(get_request("/ping"));
    assert_eq!(other.response().status, 200);

    let closed = silent.closed_within(HEADER_TIMEOUT + SLACK).expect("silent connection left open");
    assert!(closed >= HEADER_TIMEOUT / 2, "closed after {closed:?}, well before the deadline");
    assert!(silent.received().is_empty());

    // Still serving (on a new connection: for HTTP/1 the header timeout
    // also bounds the wait for the next request, so `other` is gone too).
    let mut again = Raw::connect(server.local_addr());
    again.send(get_request("/ping"));
    assert_eq!(again.response().status, 200);
    server.shutdown();
}

#[test]
fn half_an_h2_preface_is_closed_at_the_deadline() {
    let server = server();
    let mut half = Raw::connect(server.local_addr());
    half.send(&H2_PREFACE[..16]);
    assert!(half.closed_within(HEADER_TIMEOUT + SLACK).is_some(), "half preface kept the connection open");

    let mut other = Raw::connect(server.local_addr());
    other.send(get_request("/ping"));
    assert_eq!(other.response().status, 200);
    server.shutdown();
}

#[test]
fn one_byte_is_not_enough_to_hold_a_connection() {
    // "P" could start either protocol.
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send("P");
    assert!(raw.closed_within(HEADER_TIMEOUT + SLACK).is_some());
    server.shutdown();
}

#[test]
fn dribbled_headers_are_cut_off() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send("GET /ping HTTP/1.1\r\nHost: localhost\r\n");
    let start = Instant::now();
    // One header line every 50 ms, never finishing the section.
    let mut cut_off = false;
    while !cut_off && start.elapsed() < 2 * HEADER_TIMEOUT + SLACK {
        std::thread::sleep(Duration::from_millis(50));
        cut_off = !raw.try_send("X-Slow: 1\r\n") || raw.server_gave_up();
    }
    assert!(cut_off, "a slowloris client kept its connection for {:?}", start.elapsed());
    assert!(start.elapsed() >= HEADER_TIMEOUT / 2, "cut off after {:?}", start.elapsed());
    server.shutdown();
}

#[test]
fn a_kept_alive_connection_that_keeps_asking_outlives_the_header_timeout() {
    // The header read timeout counts from the end of the last response, not
    // from the connection's start: a client that keeps sending requests
    // well within it is never cut off.
    let timeout = Duration::from_secs(1);
    let server = with_ping().header_read_timeout(timeout).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    let start = Instant::now();
    let mut answered = 0;
    while start.elapsed() < timeout * 5 / 2 {
        raw.send(get_request("/ping"));
        assert_eq!(raw.response().status, 200, "request {answered} after {:?}", start.elapsed());
        answered += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(answered >= 3, "only {answered} requests in {:?}", start.elapsed());
    server.shutdown();
}
