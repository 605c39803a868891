//! HTTP/1.1 over real sockets: keep-alive, port 0, Host, header limits, idle.

mod support;

use std::time::Duration;

use support::{get_request, restlight, url, with_ping, Raw};

#[test]
fn port_zero_reports_the_bound_address() {
    let server = with_ping().start().unwrap();
    let addr = server.local_addr();
    assert!(addr.ip().is_loopback());
    assert_ne!(addr.port(), 0);

    let mut raw = Raw::connect(addr);
    raw.send(get_request("/ping"));
    assert_eq!(raw.response().status, 200);
    server.shutdown();
}

#[test]
fn keep_alive_serves_two_requests_on_one_connection() {
    let server = with_ping().start().unwrap();
    let mut raw = Raw::connect(server.local_addr());

    raw.send(get_request("/ping"));
    let first = raw.response();
    assert_eq!((first.status, first.text().as_str()), (200, "pong"));
    assert_ne!(first.header("connection"), Some("close"));

    raw.send(get_request("/ping"));
    let second = raw.response();
    assert_eq!((second.status, second.text().as_str()), (200, "pong"));
    server.shutdown();
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let server = with_ping().start().unwrap();
    let mut raw = Raw::connect(server.local_addr());

    raw.send(format!("{}{}", get_request("/ping"), get_request("/missing")));
    assert_eq!(raw.response().status, 200);
    assert_eq!(raw.response().status, 404);
    server.shutdown();
}

#[tokio::test]
async fn reqwest_speaks_http1_by_default() {
    let server = with_ping().start().unwrap();
    let response = reqwest::get(url(server.local_addr(), "/ping")).await.unwrap();
    assert_eq!(response.version(), reqwest::Version::HTTP_11);
    assert_eq!(response.text().await.unwrap(), "pong");
    server.shutdown_async().await;
}

#[test]
fn http11_without_host_is_400() {
    let server = with_ping().start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send("GET /ping HTTP/1.1\r\n\r\n");
    assert_eq!(raw.response().status, 400);
    server.shutdown();
}

#[test]
fn header_section_over_the_limit_is_431() {
    let server = with_ping().max_header_size(4096).start().unwrap();

    let mut fits = Raw::connect(server.local_addr());
    fits.send(format!("GET /ping HTTP/1.1\r\nHost: localhost\r\nX-Fill: {}\r\n\r\n", "a".repeat(3000)));
    assert_eq!(fits.response().status, 200);

    let mut too_big = Raw::connect(server.local_addr());
    too_big.send(format!("GET /ping HTTP/1.1\r\nHost: localhost\r\nX-Fill: {}\r\n\r\n", "a".repeat(5000)));
    assert_eq!(too_big.response().status, 431);
    server.shutdown();
}

#[test]
fn default_header_limit_is_8_kib() {
    let server = with_ping().start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(format!("GET /ping HTTP/1.1\r\nHost: localhost\r\nX-Fill: {}\r\n\r\n", "a".repeat(9 * 1024)));
    assert_eq!(raw.response().status, 431);
    server.shutdown();
}

#[test]
fn idle_keep_alive_connection_is_closed() {
    let idle = Duration::from_millis(300);
    let server = with_ping().idle_timeout(idle).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/ping"));
    assert_eq!(raw.response().status, 200);

    let closed = raw.closed_within(Duration::from_secs(3)).expect("idle connection left open");
    assert!(closed + Duration::from_millis(50) >= idle, "closed after {closed:?}, before the idle timeout");
    assert!(raw.received().is_empty(), "unexpected bytes: {:?}", String::from_utf8_lossy(raw.received()));
    server.shutdown();
}

#[test]
fn unknown_path_is_answered_by_the_app() {
    let server = restlight().start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/nothing-here"));
    assert_eq!(raw.response().status, 404);
    server.shutdown();
}

#[test]
fn a_slow_request_is_not_idle() {
    let server = with_ping()
        .idle_timeout(Duration::from_millis(150))
        .route(restlight_core::get("/slow").handle(|_ctx| async {
            tokio::time::sleep(Duration::from_millis(500)).await;
            "slow done"
        }))
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/slow"));
    let response = raw.response();
    assert_eq!((response.status, response.text().as_str()), (200, "slow done"));
    server.shutdown();
}

#[test]
fn closing_the_connection_drops_the_request_future() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    struct DropFlag(Arc<AtomicBool>);
    impl Drop for DropFlag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    let dropped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&dropped);
    let server = with_ping()
        .route(restlight_core::get("/hang").scheduled("biz").handle(move |_ctx| {
            let guard = DropFlag(Arc::clone(&flag));
            async move {
                let _guard = guard;
                tokio::time::sleep(Duration::from_secs(30)).await;
                "too late"
            }
        }))
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/hang"));
    std::thread::sleep(Duration::from_millis(100));
    drop(raw);

    let start = std::time::Instant::now();
    while !dropped.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(dropped.load(Ordering::SeqCst), "handler still running after the client closed");
    server.shutdown();
}
