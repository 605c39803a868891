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
    assert_eq!(config["bizMaxActive"], 1, "the business executor's max_active follows its threads");
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

/// The `Accept` header Prometheus sends when it scrapes.
const PROMETHEUS_ACCEPT: &str = "application/openmetrics-text;version=1.0.0;q=0.5,\
    application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2";

fn get_with(path: &str, header: &str, value: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n{header}: {value}\r\n\r\n")
}

/// The exposition, once it counts `want` (recording ends with the body).
fn scrape_when(addr: std::net::SocketAddr, accept: Option<&str>, want: &[&str]) -> String {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut raw = Raw::connect(addr);
        raw.send(match accept {
            Some(accept) => get_with("/actuator/metrics", "accept", accept),
            None => get_request("/actuator/metrics"),
        });
        let res = raw.response();
        assert_eq!(res.status, 200);
        let text = res.text();
        if want.iter().all(|w| text.lines().any(|l| l == *w)) {
            return text;
        }
        assert!(Instant::now() < deadline, "never counted {want:?}:\n{text}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn bucket_lines<'a>(text: &'a str, route: &str) -> Vec<&'a str> {
    let label = format!("route=\"{route}\"");
    text.lines()
        .filter(|l| l.starts_with("restlight_http_request_duration_seconds_bucket{") && l.contains(&label))
        .collect()
}

/// The `le` bound of a bucket line, `+Inf` as infinity.
fn le(line: &str) -> f64 {
    let start = line.find("le=\"").unwrap() + 4;
    let bound = &line[start..start + line[start..].find('"').unwrap()];
    if bound == "+Inf" {
        f64::INFINITY
    } else {
        bound.parse().unwrap()
    }
}

#[test]
fn a_sampled_request_leaves_its_trace_id_as_its_buckets_exemplar() {
    const SAMPLED: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
    const UNSAMPLED: &str = "0af7651916cd43dd8448eb211c80319c";
    let server = with_ping()
        .route(get("/quiet").handle(|_ctx| async { "shh" }))
        .trace_context(true)
        .actuator(Actuator::new().expose(&[Endpoint::Metrics]))
        .start()
        .unwrap();
    let addr = server.local_addr();
    let mut raw = Raw::connect(addr);
    raw.send(get_with("/ping", "traceparent", &format!("00-{SAMPLED}-00f067aa0ba902b7-01")));
    assert_eq!(raw.response().text(), "pong");
    raw.send(get_with("/quiet", "traceparent", &format!("00-{UNSAMPLED}-00f067aa0ba902b7-00")));
    assert_eq!(raw.response().text(), "shh");
    let counted = [
        r#"restlight_http_request_duration_seconds_count{method="GET",route="/ping"} 1"#,
        r#"restlight_http_request_duration_seconds_count{method="GET",route="/quiet"} 1"#,
    ];
    let text = scrape_when(addr, Some(PROMETHEUS_ACCEPT), &counted);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs_f64();

    // The sampled request's bucket, and only it, carries its trace ID.
    let ping = bucket_lines(&text, "/ping");
    assert_eq!(ping.len(), 12, "{text}");
    let marked: Vec<usize> = (0..ping.len()).filter(|&i| ping[i].contains(" # {")).collect();
    assert_eq!(marked.len(), 1, "one exemplar on /ping:\n{text}");
    let line = ping[marked[0]];
    let (_, exemplar) = line.split_once(" # ").unwrap();
    let rest = exemplar.strip_prefix(&format!("{{trace_id=\"{SAMPLED}\"}} ")).unwrap_or_else(|| panic!("{line}"));
    let (value, at) = rest.split_once(' ').unwrap_or_else(|| panic!("value and timestamp in {line}"));
    let (value, at): (f64, f64) = (value.parse().unwrap(), at.parse().unwrap());
    assert!(value > 0.0 && value <= le(line), "{value} within its bucket: {line}");
    if marked[0] > 0 {
        assert!(value > le(ping[marked[0] - 1]), "{value} not in an earlier bucket: {line}");
    }
    assert!((now - at).abs() < 600.0, "the exemplar's time {at} is now ({now})");

    // The unsampled request counts but leaves no exemplar.
    let quiet = bucket_lines(&text, "/quiet");
    assert_eq!(quiet.len(), 12, "{text}");
    assert!(quiet.iter().all(|l| !l.contains('#')), "no exemplar for flags 00:\n{text}");
    assert!(!text.contains(UNSAMPLED), "{text}");

    // A scraper that does not ask for OpenMetrics gets the same counts
    // without exemplars (the Prometheus text format has no place for them).
    let plain = scrape_when(addr, None, &counted);
    assert!(!plain.contains(" # {"), "{plain}");
    assert_eq!(bucket_lines(&plain, "/ping").len(), 12);
    let refused = scrape_when(addr, Some("application/openmetrics-text;q=0, text/plain"), &counted);
    assert!(!refused.contains(" # {"), "{refused}");
    server.shutdown();
}

#[test]
fn without_the_trace_context_there_are_no_exemplars() {
    let server = with_ping().actuator(Actuator::new().expose(&[Endpoint::Metrics])).start().unwrap();
    let addr = server.local_addr();
    let mut raw = Raw::connect(addr);
    raw.send(get_with("/ping", "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
    assert_eq!(raw.response().text(), "pong");
    let text = scrape_when(
        addr,
        Some(PROMETHEUS_ACCEPT),
        &[r#"restlight_http_request_duration_seconds_count{method="GET",route="/ping"} 1"#],
    );
    assert!(!text.contains(" # {"), "{text}");
    server.shutdown();
}
