//! HTTP/2 by prior knowledge (h2c): streams, resets, idle connections.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

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
