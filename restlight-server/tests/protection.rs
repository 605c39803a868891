//! Connection protection over a real socket: the allow-list, the connection
//! limit and the rate limit refuse by closing at once, and every refusal is
//! counted by cause.

mod support;

use std::time::{Duration, Instant};

use restlight_server::Refusal;
use support::{get_request, with_ping, Raw};

#[test]
fn a_peer_off_the_allow_list_is_closed_without_an_answer() {
    let server = with_ping().allow_ips(["10.0.0.0/8".parse().unwrap(), "::1".parse().unwrap()]).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    assert!(raw.closed_within(Duration::from_secs(2)).is_some(), "the refused connection stayed open");
    assert!(raw.received().is_empty());
    let stats = server.stats();
    assert_eq!(stats.refused_by(Refusal::AllowList), 1);
    assert_eq!(stats.accepted, 0);
    server.shutdown();

    let server = with_ping().allow_ips(["127.0.0.0/8".parse().unwrap()]).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/ping"));
    assert_eq!(raw.response().status, 200);
    assert_eq!(server.stats().refused(), 0);
    server.shutdown();
}

#[test]
fn connections_beyond_the_limit_are_closed_and_counted() {
    let server = with_ping().max_connections(2).start().unwrap();
    let mut first = Raw::connect(server.local_addr());
    let mut second = Raw::connect(server.local_addr());
    first.send(get_request("/ping"));
    second.send(get_request("/ping"));
    assert_eq!(first.response().status, 200);
    assert_eq!(second.response().status, 200);
    assert_eq!(server.stats().open_connections, 2);

    let mut third = Raw::connect(server.local_addr());
    assert!(third.closed_within(Duration::from_secs(2)).is_some(), "a third connection was kept");
    assert_eq!(server.stats().refused_by(Refusal::ConnectionLimit), 1);

    // A freed slot is usable again.
    drop(first);
    let start = Instant::now();
    loop {
        let mut again = Raw::connect(server.local_addr());
        if again.try_send(get_request("/ping")) && !again.server_closed_soon() {
            assert_eq!(again.response().status, 200);
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(3), "the slot was never freed");
        std::thread::sleep(Duration::from_millis(20));
    }
    server.shutdown();
}

#[test]
fn connections_that_end_one_after_another_are_each_served_and_free_their_slot() {
    // One slot: each connection needs the one before to have given it
    // back, which it does as it ends, with no new connection accepted yet.
    let server = with_ping().max_connections(1).start().unwrap();
    for i in 0..60 {
        support::eventually("the connection before counted closed", || server.stats().open_connections == 0);
        let mut raw = Raw::connect(server.local_addr());
        raw.send("GET /ping HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        let res = raw.response();
        assert_eq!(res.status, 200, "connection {i}");
        assert_eq!(res.text(), "pong", "connection {i}");
        assert!(raw.closed_within(Duration::from_secs(5)).is_some(), "connection {i} was not closed");
    }
    // The last one too, with no new connection coming.
    support::eventually("no connection open", || server.stats().open_connections == 0);
    let stats = server.stats();
    assert_eq!(stats.accepted, 60);
    assert_eq!(stats.refused(), 0);
    server.shutdown();
}

#[test]
fn new_connections_past_the_rate_are_refused() {
    let server = with_ping().max_connections_per_second(Some(3)).start().unwrap();
    let conns: Vec<Raw> = (0..8).map(|_| Raw::connect(server.local_addr())).collect();
    let deadline = Instant::now() + Duration::from_secs(2);
    while server.stats().accepted + server.stats().refused() < 8 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let stats = server.stats();
    assert!(stats.refused_by(Refusal::RateLimit) >= 4, "{stats:?}");
    assert!(stats.accepted >= 3, "{stats:?}");
    drop(conns);
    server.shutdown();
}
