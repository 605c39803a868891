//! Executors over real sockets: queued work cancelled when the client goes
//! away (HTTP/1 close, h2 reset), fail-fast from the request's first byte,
//! queued requests answered 503 when the shutdown's drain time is up, and
//! the metrics the handle reports.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use restlight_core::{get, FailFast, Route, Scheduler};
use support::{eventually, get_request, h2c_client, metrics, url, with_ping, Raw};
use tokio::sync::Semaphore;

/// `GET /slow` on `executor`: counts its starts, then holds its worker slot
/// until `gate` gives it a permit.
fn gated(executor: &str, gate: &Arc<Semaphore>, started: &Arc<AtomicUsize>) -> Route {
    let gate = Arc::clone(gate);
    let started = Arc::clone(started);
    get("/slow").scheduled(executor).handle(move |_ctx| {
        let gate = Arc::clone(&gate);
        let started = Arc::clone(&started);
        async move {
            started.fetch_add(1, Ordering::SeqCst);
            gate.acquire().await.expect("gate open").forget();
            "slow done"
        }
    })
}

#[test]
fn closing_the_connection_removes_queued_work() {
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let server = with_ping()
        .scheduler("one", Scheduler::threads(1).queue(1))
        .route(gated("one", &gate, &started))
        .start()
        .unwrap();
    let mut running = Raw::connect(server.local_addr());
    running.send(get_request("/slow"));
    eventually("one running", || metrics(&server, "one").active == 1);
    let mut queued = Raw::connect(server.local_addr());
    queued.send(get_request("/slow"));
    eventually("one queued", || metrics(&server, "one").queued == 1);

    drop(queued);
    eventually("queue emptied", || metrics(&server, "one").queued == 0);
    gate.add_permits(1);
    assert_eq!(running.response().text(), "slow done");
    assert_eq!(started.load(Ordering::SeqCst), 1, "the queued handler must never start");
    let m = metrics(&server, "one");
    assert_eq!((m.completed, m.cancelled), (1, 1), "{m:?}");
    server.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_stream_removes_queued_work() {
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let server = with_ping()
        .scheduler("one", Scheduler::threads(1).queue(4))
        .route(gated("one", &gate, &started))
        .start()
        .unwrap();
    let client = h2c_client();
    let target = url(server.local_addr(), "/slow");
    let running = tokio::spawn(client.get(&target).send());
    while metrics(&server, "one").active == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Queued, then reset by the client's timeout.
    let queued = client.get(&target).timeout(Duration::from_millis(200)).send().await;
    assert!(queued.is_err(), "the queued request should have timed out");
    let start = Instant::now();
    while metrics(&server, "one").queued > 0 {
        assert!(start.elapsed() < Duration::from_secs(3), "the reset stream is still queued");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    gate.add_permits(1);
    assert_eq!(running.await.unwrap().unwrap().text().await.unwrap(), "slow done");
    assert_eq!(started.load(Ordering::SeqCst), 1, "the reset request's handler must never start");
    server.shutdown_async().await;
}

#[test]
fn ttfb_fail_fast_counts_from_the_request_head_received_by_the_server() {
    let server = with_ping()
        .scheduler("ttfb", Scheduler::threads(1).fail_fast(FailFast::ttfb(Duration::from_millis(100))))
        .route(restlight_core::post("/upload").scheduled("ttfb").handle(|_ctx| async { "ran" }))
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    let head = "POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\n";
    raw.send(format!("{head}hello"));
    assert_eq!(raw.response().status, 200);
    // The head arrives, the body 200 ms later: past the fail-fast time.
    raw.send(head);
    std::thread::sleep(Duration::from_millis(200));
    raw.send("hello");
    let late = raw.response();
    assert_eq!(late.status, 503, "{}", late.text());
    assert!(late.text().contains("since its first byte"), "{}", late.text());
    assert_eq!(metrics(&server, "ttfb").fail_fast, 1);
    server.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_lets_running_work_finish_and_answers_503_to_the_queue_after_the_drain_time() {
    let gate = Arc::new(Semaphore::new(0));
    let started = Arc::new(AtomicUsize::new(0));
    let server = with_ping()
        .scheduler("one", Scheduler::threads(1))
        .route(gated("one", &gate, &started))
        .route(get("/short").scheduled("biz").handle(|_ctx| async {
            tokio::time::sleep(Duration::from_millis(150)).await;
            "short done"
        }))
        .shutdown_timeout(Duration::from_millis(400))
        .start()
        .unwrap();
    let addr = server.local_addr();
    let stuck = tokio::spawn(reqwest::get(url(addr, "/slow")));
    while metrics(&server, "one").active == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let queued = tokio::spawn(reqwest::get(url(addr, "/slow")));
    let short = tokio::spawn(reqwest::get(url(addr, "/short")));
    while metrics(&server, "one").queued == 0 || metrics(&server, "biz").active == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    let start = Instant::now();
    server.shutdown_async().await;
    assert!(start.elapsed() < Duration::from_secs(2), "shutdown took {:?}", start.elapsed());
    // Running work finishes within the drain time.
    assert_eq!(short.await.unwrap().unwrap().text().await.unwrap(), "short done");
    // What is still queued when it is up is answered 503...
    let queued = queued.await.unwrap().unwrap();
    assert_eq!(queued.status(), 503);
    assert!(queued.text().await.unwrap().contains("shutting down"));
    // ...and what still runs is cut off.
    assert!(stuck.await.unwrap().is_err(), "the stuck request cannot have succeeded");
    assert_eq!(started.load(Ordering::SeqCst), 1);
}

#[test]
fn business_executor_is_bounded_and_reports_metrics() {
    let server = with_ping().route(get("/b").handle_blocking(|_ctx| "b")).start().unwrap();
    let mut raw = Raw::connect(server.local_addr());
    for _ in 0..3 {
        raw.send(get_request("/b"));
        assert_eq!(raw.response().text(), "b");
    }
    let biz = metrics(&server, "biz");
    assert_eq!((biz.threads, biz.queue_capacity, biz.completed), (1, 512, 3), "{biz:?}");
    server.shutdown();
}

/// `GET /line/{n}` on `executor`: records `n` and its thread in `ran`, and
/// how many of these handlers run at once in `peak`, then holds its slot
/// until `gate` gives it a permit; `/line/0` panics instead.
fn in_line(
    executor: &str,
    gate: &Arc<Semaphore>,
    ran: &Arc<std::sync::Mutex<Vec<(u32, String)>>>,
    peak: &Arc<AtomicUsize>,
) -> Route {
    let (gate, ran, peak) = (Arc::clone(gate), Arc::clone(ran), Arc::clone(peak));
    let running = Arc::new(AtomicUsize::new(0));
    get("/line/{n}").scheduled(executor).handle(move |ctx| {
        let (gate, ran, peak, running) = (Arc::clone(&gate), Arc::clone(&ran), Arc::clone(&peak), Arc::clone(&running));
        let n: u32 = ctx.path_param("n").unwrap().parse().unwrap();
        async move {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            ran.lock().unwrap().push((n, support::thread_name()));
            gate.acquire().await.expect("gate open").forget();
            running.fetch_sub(1, Ordering::SeqCst);
            assert_ne!(n, 0, "request 0 panics");
            format!("line {n}")
        }
    })
}

#[test]
fn waiting_requests_run_first_come_first_served_one_at_a_time_and_past_a_panic() {
    let gate = Arc::new(Semaphore::new(0));
    let ran = Arc::new(std::sync::Mutex::new(Vec::new()));
    let peak = Arc::new(AtomicUsize::new(0));
    let server =
        with_ping().scheduler("one", Scheduler::threads(1)).route(in_line("one", &gate, &ran, &peak)).start().unwrap();
    // The first runs; the others wait, in the order they arrived, each
    // put in line before the next is sent. Request 0 panics.
    let order = [7, 3, 0, 9, 1, 4];
    let mut clients = Vec::new();
    for (at, n) in order.iter().enumerate() {
        let mut raw = Raw::connect(server.local_addr());
        raw.send(get_request(&format!("/line/{n}")));
        if at == 0 {
            eventually("the first running", || metrics(&server, "one").active == 1);
        } else {
            eventually("in line", || metrics(&server, "one").queued == at);
        }
        clients.push(raw);
    }
    gate.add_permits(order.len());
    for (raw, n) in clients.iter_mut().zip(order) {
        let res = raw.response();
        if n == 0 {
            assert_eq!(res.status, 500, "{}", res.text());
        } else {
            assert_eq!((res.status, res.text()), (200, format!("line {n}")));
        }
    }
    let ran = ran.lock().unwrap().clone();
    assert_eq!(ran.iter().map(|(n, _)| *n).collect::<Vec<_>>(), order, "first come, first served");
    assert!(ran.iter().all(|(_, thread)| thread == "restlight-one-0"), "{ran:?}");
    assert_eq!(peak.load(Ordering::SeqCst), 1, "max_active 1: one handler at a time");
    let m = metrics(&server, "one");
    assert_eq!((m.completed, m.panicked, m.active, m.queued), (5, 1, 0, 0), "{m:?}");
    server.shutdown();
}

#[test]
fn a_request_that_waited_past_the_fail_fast_time_gets_503_and_the_next_one_runs() {
    let gate = Arc::new(Semaphore::new(0));
    let ran = Arc::new(std::sync::Mutex::new(Vec::new()));
    let peak = Arc::new(AtomicUsize::new(0));
    let server = with_ping()
        .scheduler("ff", Scheduler::threads(1).fail_fast(FailFast::queued(Duration::from_millis(500))))
        .route(in_line("ff", &gate, &ran, &peak))
        .start()
        .unwrap();
    let mut first = Raw::connect(server.local_addr());
    first.send(get_request("/line/1"));
    eventually("one running", || metrics(&server, "ff").active == 1);
    let mut late = Raw::connect(server.local_addr());
    late.send(get_request("/line/2"));
    eventually("one waiting", || metrics(&server, "ff").queued == 1);
    // Past the limit for this one; the next has all of it left when the
    // slot comes free.
    std::thread::sleep(Duration::from_millis(600));
    let mut fresh = Raw::connect(server.local_addr());
    fresh.send(get_request("/line/3"));
    eventually("two waiting", || metrics(&server, "ff").queued == 2);
    gate.add_permits(2);

    assert_eq!(first.response().text(), "line 1");
    let late = late.response();
    assert_eq!(late.status, 503, "{}", late.text());
    assert!(late.text().contains("fail-fast time of 500 ms in the queue"), "{}", late.text());
    assert_eq!(fresh.response().text(), "line 3", "the request behind it runs");
    let ran: Vec<u32> = ran.lock().unwrap().iter().map(|(n, _)| *n).collect();
    assert_eq!(ran, [1, 3], "the late request's handler never runs");
    let m = metrics(&server, "ff");
    assert_eq!((m.completed, m.fail_fast, m.queued), (2, 1, 0), "{m:?}");
    server.shutdown();
}
