//! The configuration file over a real socket: the actuator and its
//! management port switched and placed by a TOML file.

mod support;

use restlight_server::Actuator;
#[cfg(feature = "access-log-file")]
use support::toml_path;
use support::{fetch, json, with_ping, TempFile};

#[test]
fn an_actuator_enabled_by_the_file_answers_on_its_base_path() {
    let toml = TempFile::new(
        "actuator.toml",
        "[server]\nio_threads = 1\n\n[actuator]\nbase_path = \"/ops\"\nexpose = [\"health\", \"config\"]\n",
    );
    let server = with_ping().config_file(toml.path()).unwrap().ignore_env().start().unwrap();
    let addr = server.local_addr();
    let health = fetch(addr, "/ops/health");
    assert_eq!(health.status, 200);
    assert_eq!(json(&health)["status"], "UP");
    assert_eq!(fetch(addr, "/actuator/health").status, 404, "the default base path is not served");
    assert_eq!(fetch(addr, "/ops/info").status, 404, "`expose` replaced the default list");
    let config = json(&fetch(addr, "/ops/config"));
    assert_eq!(config["ioThreads"], 1, "the file over the code's 2");
    assert_eq!(config["actuator"]["basePath"], "/ops");
    assert_eq!(config["actuator"]["expose"], serde_json::json!(["health", "config"]));
    assert_eq!(fetch(addr, "/ping").text(), "pong");
    server.shutdown();
}

#[test]
fn the_file_gives_the_code_actuator_a_port_of_its_own() {
    let toml = TempFile::new("mgmt.toml", "[actuator]\nport = 0\n");
    let code = Actuator::new().base_path("/manage").info("orders", "1.4.2");
    let server = with_ping().actuator(code).config_file(toml.path()).unwrap().ignore_env().start().unwrap();
    let mgmt = server.actuator_addr().expect("a management listener");
    assert_ne!(mgmt, server.local_addr());
    assert_eq!(fetch(mgmt, "/manage/health").status, 200);
    assert_eq!(json(&fetch(mgmt, "/manage/info"))["app"]["name"], "orders", "the code's settings kept");
    assert_eq!(fetch(server.local_addr(), "/manage/health").status, 404);
    server.shutdown();
}

#[test]
fn enabled_false_in_the_file_turns_the_code_actuator_off() {
    let toml = TempFile::new("off.toml", "[actuator]\nenabled = false\n");
    let server = with_ping().actuator(Actuator::new()).config_file(toml.path()).unwrap().ignore_env().start().unwrap();
    assert_eq!(fetch(server.local_addr(), "/actuator/health").status, 404);
    assert!(server.actuator_addr().is_none());
    server.shutdown();
}

#[test]
fn file_errors_name_the_key_at_config_file_or_at_start() {
    let bad = TempFile::new("bad.toml", "[actuator]\nbse_path = \"/ops\"\n");
    let err = with_ping().config_file(bad.path()).unwrap_err();
    assert!(err.to_string().contains("`actuator.bse_path`"), "{err}");
    // Only known with the code's settings: at start.
    let half = TempFile::new("half.toml", "[actuator]\napp_name = \"orders\"\n");
    let err = with_ping().config_file(half.path()).unwrap().ignore_env().start().unwrap_err();
    assert!(err.to_string().contains("`actuator.app_version`"), "{err}");
}

#[cfg(feature = "access-log-file")]
#[test]
fn an_access_log_file_configured_by_the_file_gets_a_line_per_request() {
    let temp = tempfile::tempdir().expect("a temp dir");
    // A directory that does not exist yet: the server creates it.
    let dir = temp.path().join("logs");
    let toml =
        TempFile::new("log.toml", &format!("[access_log]\ndirectory = {}\nfile_prefix = \"acc\"\n", toml_path(&dir)));
    let server = with_ping().config_file(toml.path()).unwrap().ignore_env().start().unwrap();
    assert_eq!(fetch(server.local_addr(), "/ping?from=file").text(), "pong");
    server.shutdown();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let text = loop {
        let text: String = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_name().to_string_lossy().starts_with("acc."))
                    .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        if text.contains("/ping") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(text.contains("\"GET /ping?from=file HTTP/1.1\" 200 4 "), "{text:?}");
}

#[test]
fn the_business_queue_from_the_file_sizes_the_started_executor() {
    let toml = TempFile::new("biz.toml", "[server]\nbiz_threads = 2\nbiz_queue = 7\n");
    let server = with_ping().config_file(toml.path()).unwrap().ignore_env().start().unwrap();
    let biz = server.executors().into_iter().find(|e| e.name == "biz").expect("the business executor");
    assert_eq!((biz.threads, biz.max_active, biz.queue_capacity), (2, 2, 7), "max_active follows the threads");
    server.shutdown();
}

#[test]
fn the_business_executors_max_active_comes_from_the_file_alone_or_with_the_threads() {
    let toml = TempFile::new("biz-active.toml", "[server]\nbiz_threads = 2\nbiz_max_active = 64\n");
    let server = with_ping().config_file(toml.path()).unwrap().ignore_env().start().unwrap();
    let biz = server.executors().into_iter().find(|e| e.name == "biz").expect("the business executor");
    assert_eq!((biz.threads, biz.max_active, biz.queue_capacity), (2, 64, 512));
    server.shutdown();
    let toml = TempFile::new("biz-active-alone.toml", "[server]\nbiz_max_active = 3\n");
    let server = with_ping().config_file(toml.path()).unwrap().ignore_env().start().unwrap();
    let biz = server.executors().into_iter().find(|e| e.name == "biz").expect("the business executor");
    // The tests' server has one business thread (`biz_threads(1)` in code).
    assert_eq!((biz.threads, biz.max_active), (1, 3), "the code's thread, three handlers at once");
    server.shutdown();
}
