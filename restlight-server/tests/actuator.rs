//! The actuator endpoints over a real socket: what each one shows, the safe
//! default exposure, metrics after known traffic, health checks, and
//! readiness turning 503 during a graceful shutdown.

mod support;

use std::time::{Duration, Instant};

use restlight_core::get;
use restlight_server::{Actuator, Endpoint, Health};
use support::{fetch, get_request, json, restlight, with_ping, Raw};

#[test]
fn only_health_and_info_are_exposed_by_default() {
    let server = with_ping().actuator(Actuator::new().info("orders", "1.4.2")).start().unwrap();
    let addr = server.local_addr();
    let health = fetch(addr, "/actuator/health");
    assert_eq!(health.status, 200);
    assert_eq!(json(&health)["status"], "UP");
    assert_eq!(json(&fetch(addr, "/actuator/health/liveness"))["status"], "UP");
    assert_eq!(json(&fetch(addr, "/actuator/health/readiness"))["status"], "UP");
    let info = json(&fetch(addr, "/actuator/info"));
    assert_eq!(info["app"]["name"], "orders");
    assert_eq!(info["app"]["version"], "1.4.2");
    for hidden in ["metrics", "routes", "config", "executors"] {
        assert_eq!(fetch(addr, &format!("/actuator/{hidden}")).status, 404, "{hidden}");
    }
    server.shutdown();
}

#[test]
fn routes_config_and_executors_show_the_server() {
    let server = with_ping().actuator(Actuator::new().base_path("/manage/").expose(&Endpoint::ALL)).start().unwrap();
    let addr = server.local_addr();
    let routes = json(&fetch(addr, "/manage/routes"));
    let ping = routes["routes"].as_array().unwrap().iter().find(|r| r["path"] == "/ping").expect("/ping listed");
    assert_eq!(ping["method"], "GET");
    assert_eq!(ping["scheduler"], "io");
    assert!(ping["location"].as_str().unwrap().contains("support/mod.rs:"), "{ping}");
    assert!(routes["routes"].as_array().unwrap().iter().any(|r| r["path"] == "/manage/health/readiness"));

    let config = json(&fetch(addr, "/manage/config"));
    assert_eq!(config["ioThreads"], 2);
    assert_eq!(config["bizThreads"], 1);
    assert_eq!(config["bizQueue"], 512, "the business executor's default queue, as it runs");
    assert_eq!(config["shutdownTimeoutMs"], 5000);
    assert_eq!(config["address"], "127.0.0.1:0");

    let executors = json(&fetch(addr, "/manage/executors"));
    let biz = &executors["executors"][0];
    assert_eq!(biz["name"], "biz");
    assert_eq!(biz["threads"], 1);
    assert_eq!(biz["resizable"], false);
    server.shutdown();
}

#[test]
fn metrics_count_known_traffic_by_route_and_status() {
    let server = with_ping()
        .route(get("/items/{id}").handle(|_ctx| async { "item" }))
        .actuator(Actuator::new().expose(&[Endpoint::Metrics]))
        .start()
        .unwrap();
    let addr = server.local_addr();
    let mut raw = Raw::connect(addr);
    for _ in 0..3 {
        raw.send(get_request("/ping"));
        assert_eq!(raw.response().text(), "pong");
    }
    for id in 0..2 {
        raw.send(get_request(&format!("/items/{id}")));
        assert_eq!(raw.response().status, 200);
    }
    raw.send(get_request("/missing"));
    let missing = raw.response();
    assert_eq!(missing.status, 404);

    // Recording happens when the response body is done: poll briefly.
    let deadline = Instant::now() + Duration::from_secs(5);
    let text = loop {
        let res = fetch(addr, "/actuator/metrics");
        assert_eq!(res.status, 200);
        assert!(res.header("content-type").unwrap().starts_with("application/openmetrics-text"));
        let text = res.text();
        if text.contains("status=\"404\"") || Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let has = |line: &str| assert!(text.lines().any(|l| l == line), "missing `{line}` in\n{text}");
    has(r#"restlight_http_requests_total{method="GET",route="/ping",status="200"} 3"#);
    has(r#"restlight_http_requests_total{method="GET",route="/items/{id}",status="200"} 2"#);
    has(r#"restlight_http_requests_total{method="",route="unmatched",status="404"} 1"#);
    has(r#"restlight_http_request_duration_seconds_count{method="GET",route="/ping"} 3"#);
    has(r#"restlight_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/ping"} 3"#);
    let sent = 3 * "pong".len() + 2 * "item".len() + missing.body.len();
    has(&format!("restlight_http_sent_bytes_total {sent}"));
    has("restlight_connections_accepted_total 2");
    has(r#"restlight_connections_refused_total{cause="rate-limit"} 0"#);
    has(r#"restlight_executor_threads{executor="biz"} 1"#);
    server.shutdown();
}

#[test]
fn a_failing_health_check_answers_503_with_its_details() {
    let server = with_ping()
        .actuator(
            Actuator::new()
                .health_check("db", || Health::down().detail("error", "connection refused"))
                .health_check("cache", || Health::up().detail("entries", 12)),
        )
        .start()
        .unwrap();
    let addr = server.local_addr();
    let health = fetch(addr, "/actuator/health");
    assert_eq!(health.status, 503);
    let body = json(&health);
    assert_eq!(body["status"], "DOWN");
    assert_eq!(body["components"]["db"]["status"], "DOWN");
    assert_eq!(body["components"]["db"]["details"]["error"], "connection refused");
    assert_eq!(body["components"]["cache"]["details"]["entries"], 12);
    assert_eq!(fetch(addr, "/actuator/health/readiness").status, 503);
    // Liveness says the process answers, whatever its dependencies do.
    assert_eq!(fetch(addr, "/actuator/health/liveness").status, 200);
    server.shutdown();
}

#[test]
fn readiness_turns_503_on_the_management_port_during_shutdown() {
    let server = restlight()
        .route(get("/slow").handle(|_ctx| async {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            "done"
        }))
        .actuator(Actuator::new().port(0))
        .start()
        .unwrap();
    let mgmt = server.actuator_addr().expect("a management listener");
    assert_ne!(mgmt, server.local_addr());
    assert_eq!(fetch(server.local_addr(), "/actuator/health").status, 404, "not on the application port");
    assert_eq!(fetch(mgmt, "/actuator/health/readiness").status, 200);

    let mut slow = Raw::connect(server.local_addr());
    slow.send(get_request("/slow"));
    std::thread::sleep(Duration::from_millis(100));
    let stopping = std::thread::spawn(move || server.shutdown());
    let deadline = Instant::now() + Duration::from_secs(3);
    let readiness = loop {
        let res = fetch(mgmt, "/actuator/health/readiness");
        if res.status == 503 || Instant::now() > deadline {
            break res;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(readiness.status, 503);
    assert_eq!(json(&readiness)["reason"], "shutting down");
    assert_eq!(fetch(mgmt, "/actuator/health/liveness").status, 200);
    assert_eq!(slow.response().text(), "done", "the in-flight request finishes");
    stopping.join().unwrap();
}

#[test]
fn mock_client_serves_the_actuator_routes() {
    let mock = with_ping().actuator(Actuator::new().info("a", "1")).mock().unwrap();
    let res = mock.get("/actuator/info").send_blocking();
    assert_eq!(res.status(), 200);
    assert!(res.text().contains(r#""name":"a""#), "{}", res.text());
}
