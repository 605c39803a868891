//! Starting and stopping: bind errors, graceful shutdown, shutdown timeout,
//! dropping the handle.

mod support;

use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use restlight_core::{get, BoxFuture, Executor, Response};
use support::{get_request, thread_name, url, wait_refused, with_ping, Raw};
use tokio::sync::Notify;

/// `with_ping` plus `GET /slow`, which signals `started` and answers after `delay`.
fn with_slow(started: &Arc<Notify>, delay: Duration) -> restlight_server::Restlight {
    let started = Arc::clone(started);
    with_ping().route(get("/slow").handle(move |_ctx| {
        let started = Arc::clone(&started);
        async move {
            started.notify_one();
            tokio::time::sleep(delay).await;
            "slow done"
        }
    }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_finishes_in_flight_requests_and_refuses_new_ones() {
    let started = Arc::new(Notify::new());
    let server = with_slow(&started, Duration::from_millis(800)).start().unwrap();
    let addr = server.local_addr();

    let in_flight = tokio::spawn(async move {
        let response = reqwest::get(url(addr, "/slow")).await.unwrap();
        (response.status(), response.text().await.unwrap())
    });
    started.notified().await;

    let shutdown = tokio::task::spawn_blocking(move || server.shutdown());
    let refused_after = tokio::task::spawn_blocking(move || wait_refused(addr, Duration::from_secs(2))).await.unwrap();
    assert!(refused_after < Duration::from_millis(700), "listener closed only after {refused_after:?}");
    assert!(!in_flight.is_finished(), "the slow request should still be running");

    let (status, body) = in_flight.await.unwrap();
    assert_eq!((status.as_u16(), body.as_str()), (200, "slow done"));
    shutdown.await.unwrap();
}

#[test]
fn graceful_shutdown_closes_idle_keep_alive_connections_at_once() {
    let server = with_ping().start().unwrap();
    let mut idle = Raw::connect(server.local_addr());
    idle.send(get_request("/ping"));
    assert_eq!(idle.response().status, 200);

    let start = Instant::now();
    server.shutdown();
    assert!(start.elapsed() < Duration::from_secs(2), "shutdown took {:?}", start.elapsed());
    assert!(idle.closed_within(Duration::from_secs(1)).is_some());
}

#[tokio::test]
async fn shutdown_timeout_cuts_off_requests_that_take_too_long() {
    let started = Arc::new(Notify::new());
    let server =
        with_slow(&started, Duration::from_secs(30)).shutdown_timeout(Duration::from_millis(300)).start().unwrap();
    let addr = server.local_addr();

    let in_flight = tokio::spawn(reqwest::get(url(addr, "/slow")));
    started.notified().await;

    let start = Instant::now();
    server.shutdown_async().await;
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(250), "shutdown did not wait: {took:?}");
    assert!(took < Duration::from_secs(3), "shutdown took {took:?}");
    assert!(in_flight.await.unwrap().is_err(), "the cut-off request cannot have succeeded");
}

#[test]
fn dropping_the_handle_stops_the_server() {
    let server = with_ping().start().unwrap();
    let addr = server.local_addr();
    drop(server);
    assert!(std::net::TcpStream::connect(addr).is_err());
}

#[test]
fn bind_error_is_returned_from_start() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let err = with_ping().port(port).start().unwrap_err();
    assert!(matches!(err, restlight_core::Error::Io(_)), "{err:?}");
    assert!(err.to_string().contains(&port.to_string()), "{err}");
}

/// A tower layer that panics when the application is wrapped in it, which
/// happens on the server's thread while it starts.
struct PanickingLayer;

impl tower_layer::Layer<restlight_core::layer::AppStack> for PanickingLayer {
    type Service = restlight_core::layer::AppStack;

    fn layer(&self, _inner: restlight_core::layer::AppStack) -> Self::Service {
        panic!("this layer cannot be built");
    }
}

#[test]
fn a_panic_while_starting_is_an_error_from_start_and_from_run() {
    let err = with_ping().layer(PanickingLayer).start().unwrap_err();
    assert!(err.to_string().contains("panicked while starting"), "{err}");
    // `run` outside a runtime serves on the calling thread: the same report.
    let err = with_ping().port(0).layer(PanickingLayer).run().unwrap_err();
    assert!(err.to_string().contains("panicked while starting"), "{err}");
}

#[tokio::test(flavor = "current_thread")]
async fn start_and_shutdown_work_inside_a_current_thread_runtime() {
    let server = with_ping().start().unwrap();
    let body = reqwest::get(url(server.local_addr(), "/ping")).await.unwrap().text().await.unwrap();
    assert_eq!(body, "pong");
    // Blocking here is fine: the server does not need this runtime.
    server.shutdown();
}

#[test]
fn routes_run_on_the_named_runtimes() {
    let server = with_ping()
        .route(get("/io").scheduled("io").handle(|_ctx| async { thread_name() }))
        .route(get("/biz").scheduled("biz").handle(|_ctx| async { thread_name() }))
        .route(get("/blocking").handle_blocking(|_ctx| thread_name()))
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    for (path, prefix) in [("/io", "restlight-io-"), ("/biz", "restlight-biz-"), ("/blocking", "restlight-biz-")] {
        raw.send(get_request(path));
        let name = raw.response().text();
        assert!(name.starts_with(prefix), "{path} ran on {name:?}");
    }
    server.shutdown();
}

#[test]
fn connections_go_to_the_least_busy_io_thread_and_stay_on_it() {
    let server = with_ping()
        .io_threads(2)
        .route(get("/io").scheduled("io").handle(|_ctx| async { thread_name() }))
        .start()
        .unwrap();
    let mut conns: Vec<Raw> = (0..4).map(|_| Raw::connect(server.local_addr())).collect();
    let mut seen = Vec::new();
    for raw in &mut conns {
        let mut names = Vec::new();
        for _ in 0..3 {
            raw.send(get_request("/io"));
            names.push(raw.response().text());
        }
        assert!(names.iter().all(|n| *n == names[0]), "one connection moved between threads: {names:?}");
        seen.push(names.swap_remove(0));
    }
    // Each goes to the thread serving the fewest connections (the first on
    // a tie): with all four kept open, the two threads take turns.
    assert!(seen.iter().all(|n| n.starts_with("restlight-io-")), "{seen:?}");
    assert_ne!(seen[0], seen[1], "{seen:?}");
    assert_eq!(seen[0], seen[2], "{seen:?}");
    assert_eq!(seen[1], seen[3], "{seen:?}");
    server.shutdown();
}

#[test]
fn one_io_thread_accepts_serves_and_hands_over_to_biz() {
    // With one IO thread, the server thread is its event loop: it accepts
    // the connections and serves them, and is named for the loop.
    let server = with_ping()
        .io_threads(1)
        .route(get("/io").scheduled("io").handle(|_ctx| async { thread_name() }))
        .route(get("/biz").scheduled("biz").handle(|_ctx| async { thread_name() }))
        .start()
        .unwrap();
    let mut conns: Vec<Raw> = (0..3).map(|_| Raw::connect(server.local_addr())).collect();
    for raw in &mut conns {
        for (path, prefix) in [("/io", "restlight-io-0"), ("/biz", "restlight-biz-"), ("/io", "restlight-io-0")] {
            raw.send(get_request(path));
            let name = raw.response().text();
            assert!(name.starts_with(prefix), "{path} ran on {name:?}");
        }
    }
    // The idle connections are closed as the loop drains, and the handle's
    // shutdown returns.
    let addr = server.local_addr();
    server.shutdown();
    wait_refused(addr, Duration::from_secs(2));
    for raw in &mut conns {
        assert!(raw.closed_within(Duration::from_secs(2)).is_some(), "an idle connection was left open");
    }
}

/// Runs tasks inline and counts them.
#[derive(Default)]
struct CountingExecutor(Arc<AtomicUsize>);

impl Executor for CountingExecutor {
    fn execute(&self, task: BoxFuture<Response>) -> BoxFuture<Response> {
        self.0.fetch_add(1, Ordering::SeqCst);
        task
    }
}

#[test]
fn a_user_biz_executor_replaces_the_business_runtime() {
    let calls = Arc::new(AtomicUsize::new(0));
    let server = with_ping()
        .executor("biz", CountingExecutor(Arc::clone(&calls)))
        .route(get("/biz").scheduled("biz").handle(|_ctx| async { thread_name() }))
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/biz"));
    let name = raw.response().text();
    assert!(name.starts_with("restlight-io-"), "ran on {name:?}");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    server.shutdown();
}

#[test]
fn a_route_naming_an_unknown_executor_fails_start() {
    let err = with_ping().route(get("/x").scheduled("nowhere").handle(|_ctx| async { "x" })).start().unwrap_err();
    assert!(matches!(err, restlight_core::Error::Startup(_)), "{err:?}");
}

#[test]
fn builder_and_handle_can_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<restlight_server::ServerHandle>();
    send::<restlight_server::Restlight>();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_lets_an_in_flight_streamed_response_finish() {
    use futures_util::StreamExt;
    let started = Arc::new(Notify::new());
    let signal = Arc::clone(&started);
    // Five chunks, 200 ms apart: the response is still streaming when shutdown begins.
    let app = with_ping().route(get("/ticks").handle(move |_ctx| {
        signal.notify_one();
        async move {
            let ticks = futures_util::stream::iter(0..5).then(|i| async move {
                tokio::time::sleep(Duration::from_millis(200)).await;
                Ok::<_, std::io::Error>(bytes::Bytes::from(format!("tick{i};")))
            });
            restlight_core::Body::from_byte_stream(ticks)
        }
    }));
    let server = app.start().unwrap();
    let addr = server.local_addr();

    let in_flight = tokio::spawn(async move {
        let response = reqwest::get(url(addr, "/ticks")).await.unwrap();
        (response.status(), response.text().await.unwrap())
    });
    started.notified().await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    let shutdown = tokio::task::spawn_blocking(move || server.shutdown());
    let (status, body) = in_flight.await.unwrap();
    assert_eq!((status.as_u16(), body.as_str()), (200, "tick0;tick1;tick2;tick3;tick4;"));
    shutdown.await.unwrap();
}

#[test]
fn the_drain_does_not_wait_for_connections_that_sent_nothing_or_are_idle() {
    // The drain counts the connections still open; one that never sent a
    // byte and one idle between requests both close when it starts, so
    // shutting down takes nowhere near its timeout.
    let server = with_ping().shutdown_timeout(Duration::from_secs(20)).start().unwrap();
    let mut silent = Raw::connect(server.local_addr());
    let mut idle = Raw::connect(server.local_addr());
    idle.send(get_request("/ping"));
    assert_eq!(idle.response().status, 200);

    let start = Instant::now();
    server.shutdown();
    assert!(start.elapsed() < Duration::from_secs(10), "shutdown took {:?}", start.elapsed());
    assert!(silent.closed_within(Duration::from_secs(1)).is_some(), "the silent connection is still open");
    assert!(idle.closed_within(Duration::from_secs(1)).is_some(), "the idle connection is still open");
}
