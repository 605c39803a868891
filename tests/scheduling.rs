//! `#[scheduled(..)]` on methods and impl blocks, and where plain `fn`
//! handlers run, through the facade and the mock client.

mod support;

use restlight::prelude::*;
use support::thread_name;

#[derive(Debug, Default)]
pub struct Threads;

#[restlight::path("/threads")]
impl Threads {
    #[get]
    #[path("/async")]
    async fn on_default(&self) -> String {
        thread_name()
    }

    #[get]
    #[path("/plain")]
    fn plain(&self) -> String {
        thread_name()
    }

    #[get]
    #[path("/biz")]
    #[scheduled(biz)]
    async fn on_biz(&self) -> String {
        thread_name()
    }

    #[get]
    #[path("/reports")]
    #[scheduled("reports")]
    fn on_reports(&self) -> String {
        thread_name()
    }
}

#[derive(Debug, Default)]
pub struct AllReports;

#[restlight::path("/all-reports")]
#[scheduled("reports")]
impl AllReports {
    #[get]
    async fn inherited(&self) -> String {
        thread_name()
    }

    #[get]
    #[path("/io")]
    #[scheduled(io)]
    async fn on_io(&self) -> String {
        thread_name()
    }
}

#[test]
fn annotated_routes_run_where_they_are_scheduled() {
    let client = Restlight::new().scheduler("reports", Scheduler::threads(1).queue(4)).mock().unwrap();
    let me = thread_name();
    for (path, expected) in [
        ("/threads/async", me.as_str()),
        ("/threads/plain", "restlight-biz-"),
        ("/threads/biz", "restlight-biz-"),
        ("/threads/reports", "restlight-reports-0"),
        ("/all-reports", "restlight-reports-0"),
        ("/all-reports/io", me.as_str()),
    ] {
        let name = client.get(path).send_blocking().text();
        assert!(name.starts_with(expected), "{path} ran on {name:?}, expected {expected:?}");
    }
}

#[test]
fn default_scheduler_biz_moves_unannotated_async_handlers() {
    let client = Restlight::new().scheduler("reports", Scheduler::threads(1)).default_scheduler("biz").mock().unwrap();
    assert!(client.get("/threads/async").send_blocking().text().starts_with("restlight-biz-"));
    assert_eq!(client.get("/all-reports/io").send_blocking().text(), thread_name());
}

#[test]
fn a_missing_named_scheduler_fails_startup() {
    let err = Restlight::new().build().unwrap_err();
    assert!(err.to_string().contains("`reports`"), "{err}");
}

#[derive(Debug, Default)]
pub struct Slow;

#[restlight::path("/slow")]
#[timeout("100ms")]
impl Slow {
    #[get]
    #[path("/own")]
    #[timeout("3s")]
    async fn own(&self) -> &'static str {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        "in time"
    }

    #[get]
    #[path("/inherited")]
    async fn inherited(&self) -> &'static str {
        tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        "too late"
    }
}

#[tokio::test]
async fn timeout_attribute_answers_504_and_the_method_overrides_the_impl_block() {
    let client = Restlight::new().scheduler("reports", Scheduler::threads(1)).mock().unwrap();
    let started = std::time::Instant::now();
    let res = client.get("/slow/inherited").send().await;
    assert_eq!(res.status(), 504, "the impl block's 100 ms: {}", res.text());
    assert!(started.elapsed() < std::time::Duration::from_secs(4), "the handler was not waited for");
    let res = client.get("/slow/own").send().await;
    assert_eq!(res.text(), "in time", "the method's 3 s over the block's 100 ms");
    let routes = client.app().routes();
    let limit = |path: &str| routes.iter().find(|r| r.path == path).and_then(|r| r.timeout);
    assert_eq!(limit("/slow/own"), Some(std::time::Duration::from_secs(3)), "listed with the route");
    assert_eq!(limit("/slow/inherited"), Some(std::time::Duration::from_millis(100)));
}
