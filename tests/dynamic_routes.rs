//! Routes and resources added and removed while serving: the same checks
//! and bindings as startup, all-or-nothing changes, requests in flight
//! finishing on the route they started with, metrics and the routes
//! endpoint following the table, and a hammer of requests over sockets
//! while the table keeps changing.

mod support;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use restlight::http::Method;
use restlight::prelude::*;
use restlight::{Actuator, Endpoint, Route, StartupError};
use support::{h2c, http1, TestServer};

/// A resource with no `Default`: it is served only once added with an
/// instance.
#[derive(Debug)]
pub struct Greeter {
    greeting: String,
}

impl Greeter {
    fn new(greeting: &str) -> Self {
        Self { greeting: greeting.to_owned() }
    }
}

/// A bean the added resource asks for, as a startup one would.
#[derive(Debug)]
pub struct Punctuation(&'static str);

#[restlight::path("/greet")]
impl Greeter {
    #[get]
    #[path("/{name}")]
    async fn greet(&self, #[path_param] name: String, #[context] p: &Punctuation) -> String {
        format!("{} {name}{}", self.greeting, p.0)
    }

    #[get]
    async fn greeting(&self) -> String {
        self.greeting.clone()
    }
}

fn app() -> Restlight {
    Restlight::new()
        .exclude_resource::<Greeter>()
        .bean(Punctuation("!"))
        .route(get("/stable").handle(|_| async { "stable" }))
}

#[tokio::test]
async fn an_added_route_is_served_and_a_removed_one_is_gone() {
    let client = app().mock().unwrap();
    let app = client.app();
    assert_eq!(client.get("/added").send().await.status(), 404);

    let applied = app
        .add_route(
            get("/added/{id}").handle(|ctx| async move { format!("added {}", ctx.path_param("id").unwrap_or("?")) }),
        )
        .unwrap();
    assert_eq!(applied.added.len(), 1);
    assert_eq!(applied.added[0].path, "/added/{id}");
    assert!(applied.removed.is_empty());
    assert_eq!(client.get("/added/7").send().await.text(), "added 7");
    assert!(app.routes().get("GET", "/added/{id}").is_some(), "listed: {:?}", app.routes());
    // HEAD and OPTIONS follow the new table too.
    assert_eq!(client.head("/added/7").send().await.status(), 200);
    assert_eq!(client.options("/added/7").send().await.header("allow"), Some("GET, HEAD, OPTIONS"));

    let applied = app.remove_route(Method::GET, "/added/{id}").unwrap();
    assert_eq!(applied.removed.len(), 1);
    assert_eq!(client.get("/added/7").send().await.status(), 404);
    assert_eq!(client.get("/stable").send().await.text(), "stable");
}

#[tokio::test]
async fn a_resource_is_added_with_its_instance_and_beans_replaced_and_removed() {
    let client = app().mock().unwrap();
    let app = client.app();
    assert_eq!(client.get("/greet/ann").send().await.status(), 404, "excluded at startup");

    let applied = app.add_resource(Greeter::new("hello")).unwrap();
    let mut added: Vec<_> = applied.added.iter().map(|r| r.path.as_str()).collect();
    added.sort_unstable();
    assert_eq!(added, ["/greet", "/greet/{name}"]);
    assert_eq!(client.get("/greet/ann").send().await.text(), "hello ann!");
    assert_eq!(client.get("/greet").send().await.text(), "hello");

    // Served already: adding it again is refused and changes nothing.
    let err = app.add_resource(Greeter::new("again")).unwrap_err();
    assert!(matches!(err, StartupError::ResourceServed { .. }), "{err:?}");
    assert!(err.to_string().contains("remove_resource"), "{err}");
    assert_eq!(client.get("/greet").send().await.text(), "hello");

    // Replaced in one change: the new instance answers.
    let applied = app.change_routes().remove_resource::<Greeter>().add_resource(Greeter::new("hi")).apply().unwrap();
    assert_eq!((applied.added.len(), applied.removed.len()), (2, 2));
    assert_eq!(client.get("/greet/bo").send().await.text(), "hi bo!");

    app.remove_resource::<Greeter>().unwrap();
    assert_eq!(client.get("/greet/bo").send().await.status(), 404);
    let err = app.remove_resource::<Greeter>().unwrap_err();
    assert!(matches!(err, StartupError::NoSuchResource { .. }), "{err:?}");
}

#[tokio::test]
async fn a_refused_change_changes_nothing_and_names_every_problem() {
    let client = app().mock().unwrap();
    let app = client.app();
    let before = app.routes().len();
    let err = app
        .change_routes()
        .add_route(get("/fine").handle(|_| async { "fine" }))
        .add_route(get("/stable").handle(|_| async { "twice" }))
        .add_route(get("/bad/{unclosed").handle(|_| async { "bad" }))
        .add_route(get("/work").scheduled("nowhere").handle(|_| async { "work" }))
        .remove_route(Method::GET, "/absent")
        .apply()
        .unwrap_err();
    let text = err.to_string();
    // The conflict names both declarations, as at startup.
    assert!(text.contains("/stable") && text.matches("dynamic_routes.rs:").count() >= 2, "{text}");
    assert!(text.contains("/bad/{unclosed"), "{text}");
    assert!(text.contains("`nowhere`"), "{text}");
    assert!(text.contains("no route `GET /absent`"), "{text}");
    assert_eq!(app.routes().len(), before);
    assert_eq!(client.get("/fine").send().await.status(), 404, "nothing of a refused change is applied");
    assert_eq!(client.get("/stable").send().await.text(), "stable");
}

#[tokio::test]
async fn a_request_in_flight_finishes_on_the_route_it_started_with() {
    let entered = Arc::new(tokio::sync::Notify::new());
    let release = Arc::new(tokio::sync::Notify::new());
    let client = app().mock().unwrap();
    let app = client.app();
    let (e, r) = (Arc::clone(&entered), Arc::clone(&release));
    app.add_route(get("/slow").handle(move |_| {
        let (e, r) = (Arc::clone(&e), Arc::clone(&r));
        async move {
            e.notify_one();
            r.notified().await;
            "old route"
        }
    }))
    .unwrap();

    let slow = client.get("/slow").send();
    let change = async {
        entered.notified().await;
        app.change_routes()
            .remove_route(Method::GET, "/slow")
            .add_route(get("/slow").handle(|_| async { "new route" }))
            .apply()
            .unwrap();
        let fresh = client.get("/slow").send().await.text();
        release.notify_one();
        fresh
    };
    let (slow, fresh) = tokio::join!(slow, change);
    assert_eq!(fresh, "new route", "requests after the change see it");
    assert_eq!(slow.text(), "old route", "the request in flight finished on its route");
}

#[test]
fn metrics_and_the_routes_endpoint_follow_the_table() {
    let server = TestServer::start(app().actuator(Actuator::new().expose(&[Endpoint::Metrics, Endpoint::Routes])));
    let app = server.handle.as_ref().unwrap().app().clone();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let client = http1();
    let get = |path: &str| {
        let url = server.url(path);
        rt.block_on(async { client.get(url).send().await.unwrap().text().await.unwrap() })
    };

    app.add_route(get_route("/late", "late")).unwrap();
    for _ in 0..3 {
        assert_eq!(get("/late"), "late");
    }
    let routes: serde_json::Value = serde_json::from_str(&get("/actuator/routes")).unwrap();
    assert!(routes["routes"].as_array().unwrap().iter().any(|r| r["path"] == "/late"), "{routes}");

    // Removed and added again: the same series counts on.
    app.remove_route(Method::GET, "/late").unwrap();
    let routes: serde_json::Value = serde_json::from_str(&get("/actuator/routes")).unwrap();
    assert!(!routes["routes"].as_array().unwrap().iter().any(|r| r["path"] == "/late"), "{routes}");
    app.add_route(get_route("/late", "later")).unwrap();
    for _ in 0..2 {
        assert_eq!(get("/late"), "later");
    }
    let metrics = get("/actuator/metrics");
    let series = r#"restlight_http_requests_total{method="GET",route="/late",status="200"}"#;
    let lines: Vec<&str> = metrics.lines().filter(|l| l.starts_with(series)).collect();
    assert_eq!(lines, [format!("{series} 5").as_str()], "{metrics}");
    let count = r#"restlight_http_request_duration_seconds_count{method="GET",route="/late"}"#;
    assert_eq!(metrics.lines().filter(|l| l.starts_with(count)).count(), 1, "one histogram series: {metrics}");
}

fn get_route(path: &str, body: &'static str) -> Route {
    get(path).handle(move |_| async move { body })
}

/// Readers hammer a stable route, routes that come and go, and a resource
/// replaced again and again, over HTTP/1.1 and h2c, while a writer changes
/// the table as fast as it can. No request may see anything but its
/// route's own answer, or 404 for a route absent at that moment.
#[test]
fn requests_hammer_the_server_while_the_table_changes() {
    const SLOTS: usize = 6;
    let server = TestServer::start(app().io_threads(2));
    let app = server.handle.as_ref().unwrap().app().clone();
    app.add_resource(Greeter::new("v0")).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let changes = Arc::new(AtomicUsize::new(0));

    let writer = {
        let (done, changes) = (Arc::clone(&done), Arc::clone(&changes));
        std::thread::spawn(move || {
            let mut present = [false; SLOTS];
            let started = Instant::now();
            let mut n = 0usize;
            while started.elapsed() < Duration::from_millis(1500) {
                n += 1;
                let slot = n % SLOTS;
                if n.is_multiple_of(5) {
                    let greeting = format!("v{n}");
                    app.change_routes()
                        .remove_resource::<Greeter>()
                        .add_resource(Greeter::new(&greeting))
                        .apply()
                        .unwrap();
                } else if present[slot] {
                    app.remove_route(Method::GET, &format!("/dyn/{slot}")).unwrap();
                    present[slot] = false;
                } else {
                    let body = format!("dyn {slot} gen {n}");
                    app.add_route(get(format!("/dyn/{slot}")).handle(move |_| {
                        let body = body.clone();
                        async move { body }
                    }))
                    .unwrap();
                    present[slot] = true;
                }
                changes.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(500));
            }
            done.store(true, Ordering::Release);
        })
    };

    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let tally = rt.block_on(async {
        let mut readers = Vec::new();
        for (i, client) in [http1(), h2c(), http1(), h2c()].into_iter().enumerate() {
            let done = Arc::clone(&done);
            let base = server.url("");
            readers.push(tokio::spawn(async move {
                let mut tally: BTreeMap<String, usize> = BTreeMap::new();
                let mut n = i;
                while !done.load(Ordering::Acquire) {
                    n += 1;
                    let slot = n % SLOTS;
                    let (path, kind) = match n % 3 {
                        0 => ("/stable".to_owned(), "stable"),
                        1 => (format!("/dyn/{slot}"), "dyn"),
                        _ => ("/greet/x".to_owned(), "greet"),
                    };
                    let res = client.get(format!("{base}{path}")).send().await.unwrap();
                    let status = res.status().as_u16();
                    let body = res.text().await.unwrap();
                    let outcome = match (kind, status) {
                        ("stable", 200) => {
                            assert_eq!(body, "stable");
                            "stable 200"
                        }
                        ("dyn", 200) => {
                            assert!(body.starts_with(&format!("dyn {slot} gen ")), "{path} answered {body:?}");
                            "dyn 200"
                        }
                        ("dyn", 404) => "dyn 404",
                        ("greet", 200) => {
                            assert!(body.starts_with('v') && body.ends_with(" x!"), "{path} answered {body:?}");
                            "greet 200"
                        }
                        _ => panic!("{path}: unexpected {status} {body}"),
                    };
                    *tally.entry(outcome.to_owned()).or_default() += 1;
                }
                tally
            }));
        }
        let mut all: BTreeMap<String, usize> = BTreeMap::new();
        for r in readers {
            for (k, v) in r.await.unwrap() {
                *all.entry(k).or_default() += v;
            }
        }
        all
    });
    writer.join().unwrap();
    let changes = changes.load(Ordering::Relaxed);
    assert!(changes >= 100, "only {changes} changes");
    for outcome in ["stable 200", "dyn 200", "dyn 404", "greet 200"] {
        assert!(tally.get(outcome).copied().unwrap_or(0) > 0, "no {outcome:?} in {tally:?}");
    }
    eprintln!("{changes} changes, {tally:?}");
}
