//! Executors through the mock client: where handlers run, the queue bound
//! (429), fail-fast (503), route timeouts (504), panics, cancellation of
//! queued work and the metrics that count all of it.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Request;
use http_body_util::Full;
use restlight_core::test::MockClient;
use restlight_core::{get, FailFast, ReceivedAt, Scheduler, StartupError};
use support::{builder, eventually, metrics};
use tokio::sync::Semaphore;

/// `GET /slow` sent from a task of its own.
fn spawn_slow(client: &MockClient) -> tokio::task::JoinHandle<restlight_core::test::MockResponse> {
    let client = client.clone();
    tokio::spawn(async move { client.get("/slow").send().await })
}

fn thread_name() -> String {
    std::thread::current().name().unwrap_or_default().to_owned()
}

/// A route on `executor` that holds its worker slot until `gate` gives it
/// a permit, counting how many handlers started.
fn gated(path: &str, executor: &str, gate: &Arc<Semaphore>, started: &Arc<AtomicUsize>) -> restlight_core::Route {
    let gate = Arc::clone(gate);
    let started = Arc::clone(started);
    get(path).scheduled(executor).handle(move |_ctx| {
        let gate = Arc::clone(&gate);
        let started = Arc::clone(&started);
        async move {
            started.fetch_add(1, Ordering::SeqCst);
            gate.acquire().await.expect("gate open").forget();
            "done"
        }
    })
}

#[tokio::test]
async fn plain_fns_never_run_on_io_threads_even_with_io_as_default() {
    let app = builder()
        .default_scheduler("io")
        .route(get("/blocking").handle_blocking(|_ctx| thread_name()))
        .route(get("/blocking-io").scheduled("io").handle_blocking(|_ctx| thread_name()))
        .route(get("/async").handle(|_ctx| async { thread_name() }))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let me = thread_name();
    for path in ["/blocking", "/blocking-io"] {
        let name = client.get(path).send().await.text();
        assert!(name.starts_with("restlight-biz-"), "{path} ran on {name:?}");
    }
    assert_eq!(client.get("/async").send().await.text(), me, "async handlers run inline by default");
    let routes = app.routes();
    let schedulers: Vec<_> = routes.iter().map(|r| (r.path.as_str(), r.scheduler.as_str())).collect();
    assert!(schedulers.contains(&("/blocking-io", "biz")), "{schedulers:?}");
    assert!(schedulers.contains(&("/async", "io")), "{schedulers:?}");
}

#[tokio::test]
async fn default_scheduler_moves_async_handlers() {
    let app = builder()
        .scheduler("reports", Scheduler::threads(1))
        .default_scheduler("reports")
        .route(get("/async").handle(|_ctx| async { thread_name() }))
        .route(get("/io").scheduled("io").handle(|_ctx| async { thread_name() }))
        .build()
        .unwrap();
    let client = MockClient::new(app);
    assert!(client.get("/async").send().await.text().starts_with("restlight-reports-"));
    assert_eq!(client.get("/io").send().await.text(), thread_name());
}

#[test]
fn unknown_default_scheduler_and_reserved_io_fail_startup() {
    let err = builder().default_scheduler("nowhere").build().unwrap_err();
    assert!(matches!(err, StartupError::MissingScheduler { ref name, .. } if name == "nowhere"), "{err}");
    let err = builder().scheduler("io", Scheduler::threads(1)).build().unwrap_err();
    assert!(matches!(err, StartupError::BadScheduler { ref name, .. } if name == "io"), "{err}");
    assert!(err.to_string().contains("reserved"), "{err}");
}

#[tokio::test]
async fn named_executors_run_on_their_own_threads() {
    let external = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("my-runtime")
        .enable_all()
        .build()
        .unwrap();
    let app = builder()
        .scheduler("reports", Scheduler::threads(2).queue(10))
        .scheduler("mine", Scheduler::on_runtime(external.handle().clone()))
        .route(get("/reports").scheduled("reports").handle(|_ctx| async { thread_name() }))
        .route(get("/mine").scheduled("mine").handle(|_ctx| async { thread_name() }))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    assert!(client.get("/reports").send().await.text().starts_with("restlight-reports-"));
    assert_eq!(client.get("/mine").send().await.text(), "my-runtime");
    let reports = metrics(&app, "reports");
    assert_eq!((reports.threads, reports.max_active, reports.queue_capacity), (2, 2, 10));
    assert_eq!(metrics(&app, "mine").threads, 1);
    assert_eq!(metrics(&app, "biz").queue_capacity, 512, "the business queue defaults to 512");
    drop(app);
    external.shutdown_background();
}

#[tokio::test]
async fn a_full_queue_answers_429_at_once() {
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let app = builder()
        .scheduler("small", Scheduler::threads(1).queue(1))
        .route(gated("/slow", "small", &gate, &started))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let running = spawn_slow(&client);
    eventually("one running", || metrics(&app, "small").active == 1).await;
    let queued = spawn_slow(&client);
    eventually("one queued", || metrics(&app, "small").queued == 1).await;

    let start = Instant::now();
    let rejected = client.get("/slow").header("accept", "application/problem+json").send().await;
    // The two requests ahead of it hold the executor until the gate opens:
    // a 429 that waited for them would not come at all.
    assert!(start.elapsed() < Duration::from_secs(2), "429 took {:?}", start.elapsed());
    assert_eq!(rejected.status(), 429);
    let problem = rejected.text();
    assert!(problem.contains("`small` is full") && problem.contains("\"queue\":1"), "{problem}");

    gate.add_permits(2);
    assert_eq!(running.await.unwrap().status(), 200);
    assert_eq!(queued.await.unwrap().status(), 200);
    let m = metrics(&app, "small");
    assert_eq!((m.completed, m.rejected, m.active, m.queued), (2, 1, 0, 0), "{m:?}");
    assert_eq!(m.queue_wait.count(), 2);
    assert!(m.queue_wait.percentile(1.0) >= Duration::from_millis(1), "the second request waited: {m:?}");
}

#[tokio::test]
async fn a_request_queued_past_the_fail_fast_time_gets_503_without_running() {
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let app = builder()
        .scheduler("ff", Scheduler::threads(1).fail_fast(FailFast::queued(Duration::from_millis(50))))
        .route(gated("/slow", "ff", &gate, &started))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let first = spawn_slow(&client);
    eventually("one running", || metrics(&app, "ff").active == 1).await;
    let second = spawn_slow(&client);
    eventually("one queued", || metrics(&app, "ff").queued == 1).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    gate.add_permits(1);

    assert_eq!(first.await.unwrap().status(), 200);
    let late = second.await.unwrap();
    assert_eq!(late.status(), 503);
    assert!(late.text().contains("fail-fast time of 50 ms"), "{}", late.text());
    assert_eq!(started.load(Ordering::SeqCst), 1, "the late request's handler must not run");
    let m = metrics(&app, "ff");
    assert_eq!((m.completed, m.fail_fast), (1, 1), "{m:?}");
}

#[tokio::test]
async fn ttfb_fail_fast_counts_from_the_request_head() {
    let app = builder()
        .scheduler("ttfb", Scheduler::threads(1).fail_fast(FailFast::ttfb(Duration::from_millis(100))))
        .route(get("/x").scheduled("ttfb").handle(|_ctx| async { "ran" }))
        .build()
        .unwrap();
    let request = |received: Instant| {
        let mut req = Request::get("/x").header("host", "localhost").body(Full::new(Bytes::new())).unwrap();
        req.extensions_mut().insert(ReceivedAt(received));
        req
    };
    let fresh = app.dispatch(request(Instant::now()), None).await;
    assert_eq!(fresh.status(), 200);
    let stale = app.dispatch(request(Instant::now() - Duration::from_secs(1)), None).await;
    assert_eq!(stale.status(), 503);
    assert_eq!(metrics(&app, "ttfb").fail_fast, 1);
}

/// Sets its flag when dropped: tells whether a handler's future was dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn a_route_timeout_answers_504_and_cancels_the_handler() {
    for executor in ["io", "biz"] {
        let dropped = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&dropped);
        let app = builder()
            .route(get("/hang").scheduled(executor).timeout(Duration::from_millis(50)).handle(move |_ctx| {
                let guard = DropFlag(Arc::clone(&flag));
                async move {
                    let _guard = guard;
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    "too late"
                }
            }))
            .build()
            .unwrap();
        let start = Instant::now();
        let res = MockClient::new(app).get("/hang").send().await;
        assert!(start.elapsed() < Duration::from_secs(2), "{executor}: took {:?}", start.elapsed());
        assert_eq!(res.status(), 504, "{executor}");
        assert!(res.text().contains("timeout of 50 ms"), "{executor}: {}", res.text());
        eventually("handler dropped", || dropped.load(Ordering::SeqCst)).await;
    }
}

#[tokio::test]
async fn a_panicking_handler_gives_500_and_the_executor_keeps_its_threads() {
    let app = builder()
        .scheduler("one", Scheduler::threads(1))
        .route(get("/boom").scheduled("one").handle(|_ctx| async {
            if thread_name().starts_with("restlight-one-") {
                panic!("boom");
            }
            "not on its executor"
        }))
        .route(get("/boom-blocking").scheduled("one").handle_blocking(|_ctx| -> &'static str { panic!("boom") }))
        .route(get("/ok").scheduled("one").handle(|_ctx| async { thread_name() }))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    for _ in 0..3 {
        assert_eq!(client.get("/boom").send().await.status(), 500);
        assert_eq!(client.get("/boom-blocking").send().await.status(), 500);
    }
    assert_eq!(client.get("/ok").send().await.text(), "restlight-one-0");
    let m = metrics(&app, "one");
    assert_eq!((m.panicked, m.completed, m.active), (6, 1, 0), "{m:?}");
}

#[tokio::test]
async fn dropping_a_queued_request_removes_it_from_the_queue() {
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let app = builder()
        .scheduler("q", Scheduler::threads(1).queue(1))
        .route(gated("/slow", "q", &gate, &started))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let running = spawn_slow(&client);
    eventually("one running", || metrics(&app, "q").active == 1).await;
    let queued = spawn_slow(&client);
    eventually("one queued", || metrics(&app, "q").queued == 1).await;
    queued.abort();
    eventually("queue emptied", || metrics(&app, "q").queued == 0).await;

    // The place is free again: another request is admitted, not refused.
    let again = spawn_slow(&client);
    eventually("queued again", || metrics(&app, "q").queued == 1).await;
    gate.add_permits(2);
    assert_eq!(running.await.unwrap().status(), 200);
    assert_eq!(again.await.unwrap().status(), 200);
    assert_eq!(started.load(Ordering::SeqCst), 2, "the dropped request never ran");
    let m = metrics(&app, "q");
    assert_eq!((m.completed, m.rejected, m.cancelled), (2, 0, 1), "{m:?}");
}

#[tokio::test]
async fn reject_queued_answers_503_to_waiting_requests() {
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let app =
        builder().scheduler("s", Scheduler::threads(1)).route(gated("/slow", "s", &gate, &started)).build().unwrap();
    let client = MockClient::new(app.clone());
    let running = spawn_slow(&client);
    eventually("one running", || metrics(&app, "s").active == 1).await;
    let queued = spawn_slow(&client);
    eventually("one queued", || metrics(&app, "s").queued == 1).await;
    app.reject_queued();
    let res = queued.await.unwrap();
    assert_eq!(res.status(), 503);
    assert!(res.text().contains("shutting down"), "{}", res.text());
    gate.add_permits(1);
    assert_eq!(running.await.unwrap().status(), 200, "running handlers finish");
}

#[tokio::test]
async fn requests_that_find_a_free_slot_are_counted_as_not_having_waited() {
    let app = builder()
        .scheduler("free", Scheduler::threads(2).queue(8))
        .route(get("/a").scheduled("free").handle(|_ctx| async { "a" }))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    // One at a time: each finds a slot free, however slow the machine.
    for _ in 0..5 {
        assert_eq!(client.get("/a").send().await.status(), 200);
    }
    let m = metrics(&app, "free");
    assert_eq!((m.completed, m.queue_wait.count()), (5, 5), "{m:?}");
    assert_eq!(m.queue_wait.percentile(1.0), Duration::from_micros(1), "every wait in the lowest bucket: {m:?}");
}

#[tokio::test]
async fn metrics_count_known_traffic() {
    let app = builder()
        .scheduler("m", Scheduler::threads(2).queue(8))
        .route(get("/a").scheduled("m").handle(|_ctx| async { "a" }))
        .route(get("/b").scheduled("m").handle_blocking(|_ctx| "b"))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    for _ in 0..5 {
        assert_eq!(client.get("/a").send().await.status(), 200);
        assert_eq!(client.get("/b").send().await.status(), 200);
    }
    let m = metrics(&app, "m");
    assert_eq!(
        (m.name.as_str(), m.threads, m.active, m.queued, m.completed, m.rejected, m.fail_fast, m.cancelled),
        ("m", 2, 0, 0, 10, 0, 0, 0),
        "{m:?}"
    );
    assert_eq!(m.queue_wait.count(), 10);
    assert!(m.queue_wait.p99() < Duration::from_secs(1), "{m:?}");
    assert_eq!(metrics(&app, "biz").completed, 0);
}

#[tokio::test]
async fn requests_waiting_for_a_runtime_that_shut_down_are_answered_503() {
    let external = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let app = builder()
        .scheduler("theirs", Scheduler::on_runtime(external.handle().clone()).max_active(1).queue(5000))
        .route(gated("/slow", "theirs", &gate, &started))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let running = spawn_slow(&client);
    eventually("one running", || metrics(&app, "theirs").active == 1).await;
    // Thousands wait; then the runtime their slot is on goes away, and
    // each one's handler is dropped as it is handed to it.
    let waiting: Vec<_> = (0..4000)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.get("/slow").send().await.status() })
        })
        .collect();
    eventually("all waiting", || metrics(&app, "theirs").queued == 4000).await;
    external.shutdown_background();
    assert_eq!(running.await.unwrap().status(), 503);
    for request in waiting {
        assert_eq!(request.await.unwrap(), 503);
    }
    assert_eq!(started.load(Ordering::SeqCst), 1, "no waiting handler ran");
    let m = metrics(&app, "theirs");
    assert_eq!((m.active, m.queued), (0, 0), "{m:?}");
}
