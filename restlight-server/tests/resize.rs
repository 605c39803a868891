//! Resizing executors on a running server: `POST {base}/executors/{name}`
//! only when opted in, its answers and problem details, the limits it
//! changes seen in concurrency and 429s, traffic that keeps succeeding
//! while sizes change, and the metrics (the IO runtime's included) that
//! report the new sizes.

mod support;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use restlight_core::{get, Resize, ResizeError, Route, RuntimeExecutor, Scheduler};
use restlight_server::{Actuator, Endpoint};
use serde_json::{json, Value};
use support::{eventually, fetch, get_request, json, metrics, thread_name, with_ping, Raw, RawResponse};
use tokio::sync::Semaphore;

fn post(addr: SocketAddr, path: &str, body: &str) -> RawResponse {
    let mut raw = Raw::connect(addr);
    raw.send(format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    raw.response()
}

/// An actuator that serves the executors, their resize and the metrics.
fn writable() -> Actuator {
    Actuator::new().expose(&[Endpoint::Executors, Endpoint::Metrics]).allow_executor_resize(true)
}

/// `GET /slow` on `executor`: counts the handlers running (and the most at
/// once since `peak` was last reset), then holds its worker slot until
/// `gate` gives it a permit.
fn gated(executor: &str, gate: &Arc<Semaphore>, running: &Arc<AtomicUsize>, peak: &Arc<AtomicUsize>) -> Route {
    let (gate, running, peak) = (Arc::clone(gate), Arc::clone(running), Arc::clone(peak));
    get("/slow").scheduled(executor).handle(move |_ctx| {
        let (gate, running, peak) = (Arc::clone(&gate), Arc::clone(&running), Arc::clone(&peak));
        async move {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            gate.acquire().await.expect("gate open").forget();
            running.fetch_sub(1, Ordering::SeqCst);
            "slow done"
        }
    })
}

/// Sends `GET /slow` on a connection of its own, to be read later.
fn slow(addr: SocketAddr) -> Raw {
    let mut raw = Raw::connect(addr);
    raw.send(get_request("/slow"));
    raw
}

#[test]
fn resizing_is_not_served_unless_opted_in() {
    for actuator in [Actuator::new(), Actuator::new().expose(&Endpoint::ALL)] {
        assert!(!actuator.allows_executor_resize(), "off by default");
        let server = with_ping().actuator(actuator).start().unwrap();
        let addr = server.local_addr();
        let res = post(addr, "/actuator/executors/biz", r#"{"threads": 4}"#);
        assert_eq!(res.status, 404, "{}", res.text());
        assert_eq!(metrics(&server, "biz").threads, 1, "nothing changed");
        server.shutdown();
    }
    let server = with_ping().actuator(Actuator::new().expose(&[Endpoint::Executors])).start().unwrap();
    let executors = json(&fetch(server.local_addr(), "/actuator/executors"));
    assert_eq!(executors["executors"][0]["resizable"], false);
    assert_eq!(executors["executors"][0]["threadsResizable"], true);
    server.shutdown();
}

#[test]
fn post_resizes_and_every_view_reports_the_new_sizes() {
    let server = with_ping()
        .scheduler("pool", Scheduler::threads(1).queue(4))
        .route(get("/where").scheduled("pool").handle(|_ctx| async { thread_name() }))
        .actuator(writable())
        .start()
        .unwrap();
    let addr = server.local_addr();
    assert_eq!(fetch(addr, "/where").text(), "restlight-pool-0");

    let res = post(addr, "/actuator/executors/pool", r#"{"threads": 3, "queue": 16}"#);
    assert_eq!(res.status, 200, "{}", res.text());
    assert!(res.header("content-type").unwrap().starts_with("application/json"));
    let pool = json(&res);
    assert_eq!(pool["name"], "pool");
    assert_eq!((pool["threads"].as_u64(), pool["maxActive"].as_u64()), (Some(3), Some(3)), "{pool}");
    assert_eq!(pool["queueCapacity"], 16);
    assert_eq!((pool["resizable"].as_bool(), pool["threadsResizable"].as_bool()), (Some(true), Some(true)));
    let thread = fetch(addr, "/where").text();
    assert!(thread.starts_with("restlight-pool-") && thread != "restlight-pool-0", "ran on {thread}");

    let res = post(addr, "/actuator/executors/pool", r#"{"maxActive": 6}"#);
    assert_eq!((json(&res)["threads"].as_u64(), json(&res)["maxActive"].as_u64()), (Some(3), Some(6)));

    let m = metrics(&server, "pool");
    assert_eq!((m.threads, m.max_active, m.queue_capacity), (3, 6, 16), "{m:?}");
    let listed = json(&fetch(addr, "/actuator/executors"));
    let pool = listed["executors"].as_array().unwrap().iter().find(|e| e["name"] == "pool").unwrap();
    assert_eq!((pool["threads"].as_u64(), pool["maxActive"].as_u64()), (Some(3), Some(6)), "{pool}");
    assert_eq!(pool["queueCapacity"], 16);
    assert_eq!(listed["io"]["workers"], 2, "{listed}");
    assert!(listed["io"]["aliveTasks"].as_u64().is_some() && listed["io"]["globalQueueDepth"].as_u64().is_some());

    let text = fetch(addr, "/actuator/metrics").text();
    let has = |line: &str| assert!(text.lines().any(|l| l == line), "missing `{line}` in\n{text}");
    has(r#"restlight_executor_threads{executor="pool"} 3"#);
    has(r#"restlight_executor_max_active{executor="pool"} 6"#);
    has(r#"restlight_executor_queue_capacity{executor="pool"} 16"#);
    has("restlight_io_workers 2");
    assert!(text.lines().any(|l| l.starts_with("restlight_io_alive_tasks ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("restlight_io_global_queue_depth ")), "{text}");
    server.shutdown();
}

#[test]
fn bad_resizes_are_answered_with_problem_details_and_change_nothing() {
    let external = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let server = with_ping()
        .scheduler("pool", Scheduler::threads(2).queue(8))
        .scheduler("shared", Scheduler::on_runtime(external.handle().clone()))
        .executor("custom", RuntimeExecutor::new(external.handle().clone()))
        .actuator(writable().base_path("/ops"))
        .start()
        .unwrap();
    let addr = server.local_addr();
    let bad = [
        (r#"{"threads": 0}"#, "threads", json!(0)),
        (r#"{"maxActive": 0}"#, "maxActive", json!(0)),
        (r#"{"threads": "16"}"#, "threads", json!("16")),
        (r#"{"queue": -1}"#, "queue", json!(-1)),
        (r#"{"maxActive": 1.5}"#, "maxActive", json!(1.5)),
        (r#"{"threads": null}"#, "threads", Value::Null),
        (r#"{"threads": 2, "size": 4}"#, "size", json!(4)),
        (r#"{"threads": 100000}"#, "threads", json!(100_000)),
    ];
    for (body, field, value) in bad {
        let res = post(addr, "/ops/executors/pool", body);
        assert_eq!(res.status, 400, "{body}: {}", res.text());
        assert!(res.header("content-type").unwrap().starts_with("application/problem+json"), "{body}");
        let problem = json(&res);
        assert_eq!(problem["field"], field, "{body}: {problem}");
        assert_eq!(problem["value"], value, "{body}: {problem}");
        assert_eq!(problem["executor"], "pool", "{body}: {problem}");
        assert!(problem["detail"].as_str().unwrap().contains(field), "{body}: {problem}");
    }
    // A value that is no whole number is shown as the JSON it was sent as.
    for (body, shown) in [
        (r#"{"threads": "16"}"#, r#"`threads` must be a whole number, got "16""#),
        (r#"{"maxActive": 1.5}"#, "`maxActive` must be a whole number, got 1.5"),
        (r#"{"queue": null}"#, "`queue` must be a whole number, got null"),
    ] {
        let problem = json(&post(addr, "/ops/executors/pool", body));
        assert_eq!(problem["detail"], shown, "{body}: {problem}");
    }
    for body in ["", "not json", "[1, 2]", r#""threads""#] {
        let res = post(addr, "/ops/executors/pool", body);
        assert_eq!(res.status, 400, "{body:?}: {}", res.text());
        assert!(json(&res)["detail"].as_str().unwrap().contains("maxActive"), "{}", res.text());
    }
    let m = metrics(&server, "pool");
    assert_eq!((m.threads, m.max_active, m.queue_capacity), (2, 2, 8), "nothing changed: {m:?}");

    let missing = post(addr, "/ops/executors/nope", r#"{"threads": 2}"#);
    assert_eq!(missing.status, 404, "{}", missing.text());
    let problem = json(&missing);
    assert_eq!(problem["executor"], "nope");
    assert_eq!(problem["known"], json!(["biz", "pool", "shared"]));

    for (name, body, field) in [
        ("shared", r#"{"threads": 4}"#, "threads"),
        ("custom", r#"{"maxActive": 4}"#, "maxActive"),
        ("io", r#"{"threads": 4}"#, "threads"),
    ] {
        let res = post(addr, &format!("/ops/executors/{name}"), body);
        assert_eq!(res.status, 409, "{name}: {}", res.text());
        let problem = json(&res);
        assert_eq!((problem["executor"].as_str(), problem["field"].as_str()), (Some(name), Some(field)), "{problem}");
    }
    // The runtime it does not own keeps its threads; its limits can change.
    let shared = json(&post(addr, "/ops/executors/shared", r#"{"maxActive": 3, "queue": 0}"#));
    assert_eq!((shared["threads"].as_u64(), shared["maxActive"].as_u64()), (Some(1), Some(3)), "{shared}");
    assert_eq!((shared["queueCapacity"].as_u64(), shared["threadsResizable"].as_bool()), (Some(0), Some(false)));
    server.shutdown();
    external.shutdown_background();
}

#[test]
fn on_the_management_port_post_resizes_the_application_executors() {
    let server = with_ping().actuator(writable().port(0)).start().unwrap();
    let mgmt = server.actuator_addr().expect("a management listener");
    assert_eq!(post(server.local_addr(), "/actuator/executors/biz", r#"{"queue": 5}"#).status, 404);
    let res = post(mgmt, "/actuator/executors/biz", r#"{"queue": 5}"#);
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(metrics(&server, "biz").queue_capacity, 5);
    server.shutdown();
}

#[test]
fn handle_resize_returns_typed_errors() {
    let server = with_ping().start().unwrap();
    let biz = server.resize_executor("biz", Resize::new().threads(2).queue(64)).unwrap();
    assert_eq!((biz.threads, biz.max_active, biz.queue_capacity), (2, 2, 64));
    assert!(matches!(server.resize_executor("nope", Resize::new()), Err(ResizeError::UnknownExecutor { .. })));
    let err = server.resize_executor("biz", Resize::new().max_active(0)).unwrap_err();
    assert!(matches!(err, ResizeError::Invalid { field: "max_active", value: 0, .. }), "{err:?}");
    server.shutdown();
}

#[test]
fn more_handlers_run_after_growing_and_no_more_than_the_new_limit_after_shrinking() {
    let gate = Arc::new(Semaphore::new(0));
    let running = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let server = with_ping()
        .scheduler("pool", Scheduler::threads(1).queue(10))
        .route(gated("pool", &gate, &running, &peak))
        .actuator(writable())
        .start()
        .unwrap();
    let addr = server.local_addr();
    let mut clients: Vec<Raw> = (0..3).map(|_| slow(addr)).collect();
    eventually("one running, two queued", || {
        let m = metrics(&server, "pool");
        (m.active, m.queued) == (1, 2)
    });

    let grown = json(&post(addr, "/actuator/executors/pool", r#"{"maxActive": 3}"#));
    assert_eq!(grown["maxActive"], 3);
    eventually("three running", || running.load(Ordering::SeqCst) == 3 && metrics(&server, "pool").active == 3);

    clients.extend((0..3).map(|_| slow(addr)));
    eventually("three queued", || metrics(&server, "pool").queued == 3);
    let shrunk = json(&post(addr, "/actuator/executors/pool", r#"{"maxActive": 1}"#));
    assert_eq!((shrunk["maxActive"].as_u64(), shrunk["active"].as_u64()), (Some(1), Some(3)), "{shrunk}");
    // Two of the running three finish: their slots go, no queued one starts.
    gate.add_permits(2);
    eventually("one slot left", || metrics(&server, "pool").active == 1);
    assert_eq!(metrics(&server, "pool").queued, 3);
    assert_eq!(running.load(Ordering::SeqCst), 1);

    peak.store(1, Ordering::SeqCst);
    gate.add_permits(4);
    for mut client in clients {
        assert_eq!(client.response().text(), "slow done");
    }
    assert_eq!(peak.load(Ordering::SeqCst), 1, "at most one at a time after the shrink");
    let m = metrics(&server, "pool");
    assert_eq!((m.completed, m.rejected, m.active, m.queued), (6, 0, 0, 0), "{m:?}");
    server.shutdown();
}

#[test]
fn a_new_queue_length_shows_in_the_429s() {
    let gate = Arc::new(Semaphore::new(0));
    let running = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let server = with_ping()
        .scheduler("pool", Scheduler::threads(1).queue(0))
        .route(gated("pool", &gate, &running, &peak))
        .actuator(writable())
        .start()
        .unwrap();
    let addr = server.local_addr();
    let mut admitted = vec![slow(addr)];
    eventually("one running", || metrics(&server, "pool").active == 1);
    let full = fetch(addr, "/slow");
    assert_eq!(full.status, 429);
    assert_eq!(json(&full)["queue"], 0);

    assert_eq!(json(&post(addr, "/actuator/executors/pool", r#"{"queue": 1}"#))["queueCapacity"], 1);
    admitted.push(slow(addr));
    eventually("one queued", || metrics(&server, "pool").queued == 1);
    let full = fetch(addr, "/slow");
    assert_eq!(full.status, 429);
    assert_eq!(json(&full)["queue"], 1);

    gate.add_permits(2);
    for mut client in admitted {
        assert_eq!(client.response().status, 200);
    }
    assert_eq!(metrics(&server, "pool").rejected, 2);
    server.shutdown();
}

#[test]
fn requests_keep_succeeding_while_sizes_change() {
    let server = with_ping()
        .scheduler("pool", Scheduler::threads(2).queue(64))
        .route(get("/work").scheduled("pool").handle_blocking(|_ctx| {
            // A little CPU work, so handlers overlap the resizes.
            (0..2_000_u64).fold(0_u64, |acc, i| acc.wrapping_add(i * i)).to_string()
        }))
        .actuator(writable())
        .start()
        .unwrap();
    let addr = server.local_addr();
    let resizing = Arc::new(AtomicUsize::new(1));
    // Each client sends at least 10 requests, and goes on (up to 2,000)
    // until the resizes are done, so they overlap.
    let clients: Vec<_> = (0..6)
        .map(|_| {
            let resizing = Arc::clone(&resizing);
            std::thread::spawn(move || {
                let mut raw = Raw::connect(addr);
                let mut sent = 0;
                while sent < 10 || (resizing.load(Ordering::SeqCst) == 1 && sent < 2_000) {
                    raw.send(get_request("/work"));
                    let res = raw.response();
                    assert_eq!(res.status, 200, "{}", res.text());
                    sent += 1;
                }
                sent
            })
        })
        .collect();
    let sizes = [(1, 1, 8), (4, 6, 64), (2, 1, 16), (3, 3, 32), (1, 4, 64)];
    for (i, (threads, max_active, queue)) in sizes.iter().cycle().take(20).enumerate() {
        if i % 2 == 0 {
            let body = format!(r#"{{"threads": {threads}, "maxActive": {max_active}, "queue": {queue}}}"#);
            let res = post(addr, "/actuator/executors/pool", &body);
            assert_eq!(res.status, 200, "{}", res.text());
        } else {
            let resize = Resize::new().threads(*threads).max_active(*max_active).queue(*queue);
            server.resize_executor("pool", resize).unwrap();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    resizing.store(0, Ordering::SeqCst);
    let sent: u64 = clients.into_iter().map(|c| c.join().expect("every request answered 200")).sum();
    let m = metrics(&server, "pool");
    assert_eq!((m.completed, m.rejected, m.cancelled, m.panicked), (sent, 0, 0, 0), "{m:?}");
    assert_eq!((m.threads, m.max_active, m.queue_capacity), (1, 4, 64));
    server.shutdown();
}
