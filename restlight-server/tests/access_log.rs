//! The access log: one line per request through `tracing`, target
//! `restlight::access`, with the route template and the scheduler.

mod support;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use restlight_core::get;
use restlight_server::AccessLog;
use support::{get_request, restlight, Raw};

#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn one_line_per_request_with_route_template_and_scheduler() {
    let lines = Lines::default();
    let writer = lines.clone();
    tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .init();
    let server = restlight()
        .route(get("/items/{id}").handle(|_ctx| async { "item" }))
        .access_log(AccessLog::new())
        .start()
        .unwrap();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/items/42?full=1"));
    assert_eq!(raw.response().text(), "item");
    raw.send(get_request("/nowhere"));
    assert_eq!(raw.response().status, 404);

    let deadline = Instant::now() + Duration::from_secs(5);
    let access = loop {
        let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
        let access: Vec<String> = text.lines().filter(|l| l.contains("restlight::access")).map(str::to_owned).collect();
        if access.len() >= 2 || Instant::now() > deadline {
            break access;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(access.len(), 2, "{access:?}");
    let item = &access[0];
    assert!(item.contains("127.0.0.1:"), "{item}");
    assert!(item.contains("\"GET /items/42?full=1 HTTP/1.1\" 200 4 "), "{item}");
    assert!(item.contains("ms route=/items/{id} scheduler=io"), "{item}");
    assert!(access[1].contains("\"GET /nowhere HTTP/1.1\" 404 ") && access[1].contains("route=- scheduler=-"));
    server.shutdown();
}
