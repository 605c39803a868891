//! Resizing bounded executors while they serve, through the mock client:
//! growing and shrinking `max_active` with handlers running and queued, the
//! queue bound seen in 429s, a new runtime for a new thread count, and the
//! typed errors.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use restlight_core::test::MockClient;
use restlight_core::{get, Resize, ResizeError, Route, RuntimeExecutor, Scheduler, MAX_RESIZE_THREADS};
use support::{builder, eventually, metrics};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

/// How many handlers of a [`gated`] route run now, and the most seen at once.
#[derive(Debug, Default)]
struct Concurrency {
    started: AtomicUsize,
    running: AtomicUsize,
    peak: AtomicUsize,
}

/// `GET /slow` on `executor`: counts itself in `seen`, then holds its
/// worker slot until `gate` gives it a permit; answers the thread it ended on.
fn gated(executor: &str, gate: &Arc<Semaphore>, seen: &Arc<Concurrency>) -> Route {
    let gate = Arc::clone(gate);
    let seen = Arc::clone(seen);
    get("/slow").scheduled(executor).handle(move |_ctx| {
        let gate = Arc::clone(&gate);
        let seen = Arc::clone(&seen);
        async move {
            seen.started.fetch_add(1, Ordering::SeqCst);
            let now = seen.running.fetch_add(1, Ordering::SeqCst) + 1;
            seen.peak.fetch_max(now, Ordering::SeqCst);
            gate.acquire().await.expect("gate open").forget();
            seen.running.fetch_sub(1, Ordering::SeqCst);
            std::thread::current().name().unwrap_or_default().to_owned()
        }
    })
}

fn send(client: &MockClient, path: &'static str) -> JoinHandle<(u16, String)> {
    let client = client.clone();
    tokio::spawn(async move {
        let res = client.get(path).header("accept", "application/problem+json").send().await;
        (res.status().as_u16(), res.text())
    })
}

#[tokio::test]
async fn growing_max_active_starts_queued_requests_at_once() {
    let gate = Arc::new(Semaphore::new(0));
    let seen = Arc::new(Concurrency::default());
    let app = builder()
        .scheduler("pool", Scheduler::threads(2).max_active(1).queue(10))
        .route(gated("pool", &gate, &seen))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let requests: Vec<_> = (0..3).map(|_| send(&client, "/slow")).collect();
    eventually("one running, two queued", || {
        let m = metrics(&app, "pool");
        (m.active, m.queued) == (1, 2)
    })
    .await;

    let now = app.resize_executor("pool", Resize::new().max_active(3)).unwrap();
    assert_eq!((now.threads, now.max_active, now.queue_capacity), (2, 3, 10), "{now:?}");
    eventually("all three running", || seen.running.load(Ordering::SeqCst) == 3).await;
    let m = metrics(&app, "pool");
    assert_eq!((m.active, m.queued), (3, 0), "{m:?}");

    gate.add_permits(3);
    for request in requests {
        assert_eq!(request.await.unwrap().0, 200);
    }
    assert_eq!(metrics(&app, "pool").completed, 3);
}

#[tokio::test]
async fn shrinking_max_active_lets_running_handlers_finish_and_keeps_the_queue() {
    let gate = Arc::new(Semaphore::new(0));
    let seen = Arc::new(Concurrency::default());
    let app = builder()
        .scheduler("pool", Scheduler::threads(4).queue(10))
        .route(gated("pool", &gate, &seen))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let mut requests: Vec<_> = (0..4).map(|_| send(&client, "/slow")).collect();
    eventually("four running", || seen.running.load(Ordering::SeqCst) == 4).await;
    requests.extend((0..4).map(|_| send(&client, "/slow")));
    eventually("four queued", || metrics(&app, "pool").queued == 4).await;

    let now = app.resize_executor("pool", Resize::new().max_active(2)).unwrap();
    assert_eq!(now.max_active, 2);
    assert_eq!((now.active, now.queued), (4, 4), "running handlers are not aborted: {now:?}");

    // Two of the four finish: their slots are withdrawn, nobody starts.
    gate.add_permits(2);
    eventually("two slots withdrawn", || metrics(&app, "pool").active == 2).await;
    let m = metrics(&app, "pool");
    assert_eq!((m.active, m.queued, m.completed), (2, 4, 2), "{m:?}");
    assert_eq!(seen.started.load(Ordering::SeqCst), 4, "no queued request may start yet");

    // From now on at most two run at once, and every queued request runs.
    seen.peak.store(seen.running.load(Ordering::SeqCst), Ordering::SeqCst);
    gate.add_permits(6);
    for request in requests {
        assert_eq!(request.await.unwrap().0, 200);
    }
    assert!(seen.peak.load(Ordering::SeqCst) <= 2, "peak {}", seen.peak.load(Ordering::SeqCst));
    let m = metrics(&app, "pool");
    assert_eq!((m.max_active, m.active, m.queued, m.completed, m.rejected), (2, 0, 0, 8, 0), "{m:?}");
}

#[tokio::test]
async fn a_new_queue_length_applies_to_the_next_admissions() {
    let gate = Arc::new(Semaphore::new(0));
    let seen = Arc::new(Concurrency::default());
    let app =
        builder().scheduler("pool", Scheduler::threads(1).queue(1)).route(gated("pool", &gate, &seen)).build().unwrap();
    let client = MockClient::new(app.clone());
    let mut admitted = vec![send(&client, "/slow")];
    eventually("one running", || metrics(&app, "pool").active == 1).await;
    admitted.push(send(&client, "/slow"));
    eventually("one queued", || metrics(&app, "pool").queued == 1).await;
    let (status, problem) = send(&client, "/slow").await.unwrap();
    assert_eq!(status, 429, "{problem}");

    app.resize_executor("pool", Resize::new().queue(3)).unwrap();
    admitted.extend((0..2).map(|_| send(&client, "/slow")));
    eventually("three queued", || metrics(&app, "pool").queued == 3).await;
    let (status, problem) = send(&client, "/slow").await.unwrap();
    assert_eq!(status, 429);
    assert!(problem.contains("\"queue\":3"), "{problem}");

    // A shorter queue than the requests waiting keeps them all.
    let now = app.resize_executor("pool", Resize::new().queue(0)).unwrap();
    assert_eq!((now.queue_capacity, now.queued), (0, 3), "{now:?}");
    let (status, problem) = send(&client, "/slow").await.unwrap();
    assert_eq!(status, 429);
    assert!(problem.contains("\"queue\":0"), "{problem}");

    gate.add_permits(4);
    for request in admitted {
        assert_eq!(request.await.unwrap().0, 200);
    }
    let m = metrics(&app, "pool");
    assert_eq!((m.completed, m.rejected), (4, 3), "{m:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_thread_count_gets_a_new_runtime_and_running_handlers_finish_on_the_old_one() {
    let gate = Arc::new(Semaphore::new(0));
    let seen = Arc::new(Concurrency::default());
    let app = builder()
        .scheduler("pool", Scheduler::threads(1))
        .route(gated("pool", &gate, &seen))
        .route(
            get("/where")
                .scheduled("pool")
                .handle(|_ctx| async { std::thread::current().name().unwrap_or_default().to_owned() }),
        )
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let old_thread = client.get("/where").send().await.text();
    assert_eq!(old_thread, "restlight-pool-0");
    let running = send(&client, "/slow");
    eventually("one running", || seen.running.load(Ordering::SeqCst) == 1).await;

    let now = app.resize_executor("pool", Resize::new().threads(3)).unwrap();
    assert_eq!((now.threads, now.max_active, now.active), (3, 3, 1), "max_active follows threads: {now:?}");
    assert!(now.resizable_threads);
    for _ in 0..3 {
        let thread = client.get("/where").send().await.text();
        assert!(thread.starts_with("restlight-pool-") && thread != old_thread, "new work ran on {thread}");
    }

    gate.add_permits(1);
    let (status, thread) = running.await.unwrap();
    assert_eq!((status, thread.as_str()), (200, "restlight-pool-0"), "the running handler ends where it started");
    // Shrinking the thread count follows the same path.
    let now = app.resize_executor("pool", Resize::new().threads(2)).unwrap();
    assert_eq!((now.threads, now.max_active), (2, 2));
    assert_eq!(client.get("/where").send().await.status(), 200);
}

#[tokio::test]
async fn an_explicit_max_active_no_longer_follows_threads() {
    let app = builder()
        .scheduler("set", Scheduler::threads(1).max_active(8))
        .scheduler("unset", Scheduler::threads(1))
        .build()
        .unwrap();
    let set = app.resize_executor("set", Resize::new().threads(2)).unwrap();
    assert_eq!((set.threads, set.max_active), (2, 8));

    let unset = app.resize_executor("unset", Resize::new().threads(2)).unwrap();
    assert_eq!((unset.threads, unset.max_active), (2, 2));
    let unset = app.resize_executor("unset", Resize::new().threads(3).max_active(5)).unwrap();
    assert_eq!((unset.threads, unset.max_active), (3, 5));
    let unset = app.resize_executor("unset", Resize::new().threads(1)).unwrap();
    assert_eq!((unset.threads, unset.max_active), (1, 5), "set by a resize, it stays");

    let same = app.resize_executor("unset", Resize::new()).unwrap();
    assert_eq!((same.threads, same.max_active, same.queue_capacity), (1, 5, 512));
}

#[tokio::test]
async fn bad_resizes_are_typed_errors_and_change_nothing() {
    let external = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let app = builder()
        .scheduler("pool", Scheduler::threads(2).queue(7))
        .scheduler("mine", Scheduler::on_runtime(external.handle().clone()))
        .executor("custom", RuntimeExecutor::new(external.handle().clone()))
        .build()
        .unwrap();

    match app.resize_executor("nope", Resize::new().threads(2)) {
        Err(ResizeError::UnknownExecutor { executor, known }) => {
            assert_eq!(executor, "nope");
            assert_eq!(known, ["biz", "mine", "pool"]);
        }
        other => panic!("{other:?}"),
    }
    let err = app.resize_executor("io", Resize::new().threads(2)).unwrap_err();
    assert!(matches!(err, ResizeError::NotResizable { field: "threads", .. }), "{err:?}");

    for (resize, field, value) in [
        (Resize::new().threads(0).queue(1), "threads", 0),
        (Resize::new().max_active(0).queue(1), "max_active", 0),
        (Resize::new().threads(MAX_RESIZE_THREADS + 1), "threads", MAX_RESIZE_THREADS + 1),
    ] {
        let err = app.resize_executor("pool", resize).unwrap_err();
        assert!(
            matches!(&err, ResizeError::Invalid { field: f, value: v, .. } if *f == field && *v == value),
            "{err:?}"
        );
        assert!(err.to_string().contains(field), "{err}");
    }
    let pool = metrics(&app, "pool");
    assert_eq!((pool.threads, pool.max_active, pool.queue_capacity), (2, 2, 7), "nothing changed");

    let err = app.resize_executor("mine", Resize::new().threads(4).queue(1)).unwrap_err();
    assert!(matches!(err, ResizeError::NotResizable { field: "threads", .. }), "{err:?}");
    assert_eq!(metrics(&app, "mine").queue_capacity, 512, "nothing changed");
    let mine = app.resize_executor("mine", Resize::new().max_active(3).queue(9)).unwrap();
    assert_eq!((mine.threads, mine.max_active, mine.queue_capacity), (1, 3, 9));
    assert!(!mine.resizable_threads);

    let err = app.resize_executor("custom", Resize::new().queue(1)).unwrap_err();
    assert!(matches!(err, ResizeError::NotResizable { field: "queue", .. }), "{err:?}");
    assert!(err.to_string().contains("`custom`"), "{err}");
    drop(app);
    external.shutdown_background();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_keep_succeeding_while_the_executor_is_resized() {
    let app = builder()
        .scheduler("pool", Scheduler::threads(2).queue(1000))
        .route(get("/work").scheduled("pool").handle(|_ctx| async {
            tokio::task::yield_now().await;
            "ok"
        }))
        .route(get("/blocking").scheduled("pool").handle_blocking(|_ctx| {
            std::thread::sleep(Duration::from_millis(1));
            "ok"
        }))
        .build()
        .unwrap();
    let client = MockClient::new(app.clone());
    let resizing = Arc::new(AtomicUsize::new(1));
    // Each task sends at least 10 requests, and goes on (up to 2,000) until
    // the resizes are done, so they overlap.
    let load: Vec<_> = (0..8)
        .map(|i| {
            let client = client.clone();
            let resizing = Arc::clone(&resizing);
            tokio::spawn(async move {
                let path = if i % 2 == 0 { "/work" } else { "/blocking" };
                let mut sent = 0_u64;
                while sent < 10 || (resizing.load(Ordering::SeqCst) == 1 && sent < 2_000) {
                    let res = client.get(path).send().await;
                    assert_eq!(res.status(), 200, "{}", res.text());
                    sent += 1;
                }
                sent
            })
        })
        .collect();
    let sizes = [(1, 1), (4, 8), (2, 1), (3, 3), (1, 6), (2, 2)];
    for (threads, max_active) in sizes.iter().cycle().take(24) {
        let now = app.resize_executor("pool", Resize::new().threads(*threads).max_active(*max_active)).unwrap();
        assert_eq!((now.threads, now.max_active), (*threads, *max_active));
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    resizing.store(0, Ordering::SeqCst);
    let mut sent = 0;
    for task in load {
        sent += task.await.unwrap();
    }
    let m = metrics(&app, "pool");
    assert_eq!((m.completed, m.rejected, m.cancelled, m.panicked), (sent, 0, 0, 0), "{m:?}");
    assert_eq!((m.active, m.queued), (0, 0), "{m:?}");
}

/// Threads of this process whose name starts with `prefix` (names are cut
/// to 15 bytes by the kernel).
#[cfg(target_os = "linux")]
fn threads_named(prefix: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|comm| comm.starts_with(prefix))
        .count()
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_replaced_runtime_stops_its_threads_once_its_last_request_ends() {
    // `restlight-retire-N` shows as `restlight-retir`, unique in this binary.
    let named = || threads_named("restlight-retir");
    let gate = Arc::new(Semaphore::new(0));
    let seen = Arc::new(Concurrency::default());
    let app =
        builder().scheduler("retire", Scheduler::threads(2)).route(gated("retire", &gate, &seen)).build().unwrap();
    let client = MockClient::new(app.clone());
    // Threads start on their first handler: none yet.
    assert_eq!(named(), 0, "no thread before the first request");
    let running = send(&client, "/slow");
    eventually("one running", || seen.running.load(Ordering::SeqCst) == 1).await;
    // A thread names itself once it runs: poll.
    eventually("one thread, the one running the request", || named() == 1).await;

    // A resize starts the first thread of the new runtime (to fail before
    // replacing anything), the rest as handlers come.
    app.resize_executor("retire", Resize::new().threads(3)).unwrap();
    eventually("two threads: the first runtime serves its running request", || named() == 2).await;
    // The second runtime ran nothing: it goes at once.
    app.resize_executor("retire", Resize::new().threads(1)).unwrap();
    eventually("the idle runtime's thread gone, the third runtime's started", || named() == 2).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(named(), 2, "the idle runtime's thread ended and the new one started");

    gate.add_permits(1);
    assert_eq!(running.await.unwrap().0, 200);
    eventually("the first runtime's thread gone", || named() == 1).await;
    drop((client, app));
    eventually("the last runtime's threads gone", || named() == 0).await;
}
