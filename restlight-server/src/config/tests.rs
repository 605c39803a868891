//! The configuration sources and their precedence, through the builder.

use std::io::Write;
use std::time::Duration;

use serde_json::json;
use tempfile::NamedTempFile;

use super::{effective, ConfigError};
use crate::builder::Restlight;
use crate::ops::Endpoint;

/// A file holding `text`, removed on drop.
fn file(text: &str) -> NamedTempFile {
    let mut f = tempfile::Builder::new().prefix("restlight-config-").tempfile().expect("a temporary file");
    f.write_all(text.as_bytes()).expect("write the temporary file");
    f
}

fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

use crate::ops::{AccessLog, Actuator};

#[test]
fn code_then_file_then_env() {
    let f = file("[server]\nport = 9000\nio_threads = 3\nshutdown_timeout_ms = 1500\nallow_ips = [\"10.0.0.0/8\"]\n");
    let r = Restlight::new()
        .port(1000)
        .io_threads(1)
        .biz_threads(7)
        .config_file(f.path())
        .unwrap()
        // Set in code after the file: the file still wins.
        .io_threads(2)
        .resolve_config(env(&[("RESTLIGHT_SERVER_PORT", "9100"), ("OTHER", "x")]))
        .unwrap();
    assert_eq!(r.options.addr.port(), 9100, "env over file");
    assert_eq!(r.options.io_threads, Some(3), "file over code");
    assert_eq!(r.options.biz_threads, Some(7), "code where nothing else says");
    assert_eq!(r.options.shutdown_timeout, Duration::from_millis(1500));
    assert_eq!(r.options.protection.allow.as_ref().map(Vec::len), Some(1));
}

#[test]
fn env_values_are_typed_and_lists_split_on_commas() {
    let r = Restlight::new()
        .resolve_config(env(&[
            ("RESTLIGHT_SERVER_IO_THREADS", "6"),
            ("RESTLIGHT_SERVER_BIND", "127.0.0.1"),
            ("RESTLIGHT_SERVER_ALLOW_IPS", "127.0.0.1, 10.0.0.0/8"),
            ("RESTLIGHT_SERVER_MAX_CONNECTIONS_PER_SECOND", "0"),
        ]))
        .unwrap();
    assert_eq!(r.options.io_threads, Some(6));
    assert_eq!(r.options.addr.ip().to_string(), "127.0.0.1");
    assert_eq!(r.options.protection.allow.as_ref().map(Vec::len), Some(2));
    assert_eq!(r.options.protection.max_connections_per_second, None);
}

#[test]
fn ignore_env_skips_the_variables() {
    let r = Restlight::new().port(1).ignore_env().resolve_config(env(&[("RESTLIGHT_SERVER_PORT", "2")])).unwrap();
    assert_eq!(r.options.addr.port(), 1);
}

#[test]
fn unknown_file_key_is_an_error_naming_it() {
    let f = file("[server]\nport = 9000\nio_thread = 3\n");
    let err = Restlight::new().config_file(f.path()).unwrap_err();
    assert!(matches!(err, ConfigError::Parse { .. }), "{err:?}");
    assert!(err.to_string().contains("io_thread"), "{err}");
    let f = file("[sever]\nport = 1\n");
    assert!(Restlight::new().config_file(f.path()).unwrap_err().to_string().contains("sever"));
}

#[test]
fn wrong_types_and_bad_ranges_are_errors() {
    let f = file("[server]\nport = \"eighty\"\n");
    assert!(Restlight::new().config_file(f.path()).unwrap_err().to_string().contains("port"));
    let f = file("[server]\nallow_ips = [\"10.0.0.0/99\"]\n");
    assert!(matches!(Restlight::new().config_file(f.path()).unwrap_err(), ConfigError::Invalid { .. }));
    let missing = Restlight::new().config_file("/nonexistent/restlight.toml").unwrap_err();
    assert!(matches!(missing, ConfigError::Read { .. }));
}

#[test]
fn file_errors_name_the_key_its_line_what_was_expected_and_what_was_found() {
    let f = file("[server]\nio_threads = 2\nport = \"eighty\"\n");
    let err = Restlight::new().config_file(f.path()).unwrap_err().to_string();
    let want = "`server.port` (line 3, column 1): expected a whole number from 0 to 65535, found string \"eighty\"";
    assert!(err.ends_with(want), "{err}");
    let f = file("[server]\nio_thread = 3\n");
    let err = Restlight::new().config_file(f.path()).unwrap_err().to_string();
    assert!(
        err.contains("`server.io_thread` (line 2, column 1): unknown key, [server] has: port, bind, io_threads,"),
        "{err}"
    );
    let f = file("[acuator]\nenabled = true\n");
    let err = Restlight::new().config_file(f.path()).unwrap_err().to_string();
    assert!(err.ends_with("`acuator` (line 1, column 2): unknown table, the tables are: server, actuator, access_log, tls, openapi, otel"), "{err}");
    let f = file("[server]\nport = 80\nport = 81\n");
    let err = Restlight::new().config_file(f.path()).unwrap_err().to_string();
    assert!(err.contains("line 3"), "a syntax error keeps the parser's line: {err}");
}

#[test]
fn unknown_or_mistyped_env_variable_is_an_error_naming_it() {
    let err = Restlight::new().resolve_config(env(&[("RESTLIGHT_SERVER_PROT", "80")])).unwrap_err();
    assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_PROT"), "{err:?}");
    assert!(err.to_string().contains("prot"), "{err}");
    let err = Restlight::new().resolve_config(env(&[("RESTLIGHT_SERVER_PORT", "http")])).unwrap_err();
    assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_PORT"), "{err:?}");
}

#[test]
fn effective_options_show_resolved_defaults() {
    let v = effective(&Restlight::new().io_threads(3).options, None, None, None);
    assert_eq!(v["ioThreads"], 3);
    assert_eq!(v["address"], "0.0.0.0:8080");
    assert_eq!(v["maxConnectionsPerSecond"], 20_000);
    assert_eq!(v["actuator"]["enabled"], false);
    assert_eq!(v["accessLog"]["enabled"], false);
    assert_eq!(v["tls"]["enabled"], false);
    // With the feature, another test of this binary may have set up an export.
    #[cfg(not(feature = "otel"))]
    assert_eq!(v["otel"], serde_json::json!({ "enabled": false }));
}

#[test]
fn io_threads_default_to_the_usable_cores() {
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let v = effective(&Restlight::new().options, None, None, None);
    assert_eq!(v["ioThreads"], cpus);
}

fn resolve(r: Restlight, vars: &[(&str, &str)]) -> Result<Restlight, ConfigError> {
    r.resolve_config(env(vars))
}

fn with_file(r: Restlight, text: &str) -> Result<Restlight, ConfigError> {
    let f = file(text);
    r.config_file(f.path())
}

#[test]
fn actuator_code_then_file_then_env() {
    let code = Actuator::new().base_path("/code").port(0).info("orders", "1.0").health_check("db", crate::Health::up);
    let r = with_file(
        Restlight::new().actuator(code),
        "[actuator]\nbase_path = \"/file\"\nexpose = [\"health\", \"metrics\"]\napp_version = \"2.0\"\n",
    )
    .unwrap();
    let r = resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_BASE_PATH", "/env")]).unwrap();
    let a = r.actuator.expect("still on");
    assert_eq!(a.base_path, "/env", "env over file");
    assert_eq!(a.exposed, [Endpoint::Health, Endpoint::Metrics], "file");
    assert_eq!(a.version.as_deref(), Some("2.0"), "file over code");
    assert_eq!(a.name.as_deref(), Some("orders"), "code where nothing else says");
    assert_eq!(a.port, Some(0), "code where nothing else says");
    assert_eq!(a.checks.len(), 1, "health checks are code-only and kept");
}

#[test]
fn application_options_come_from_the_file_and_the_env_too() {
    let code = Restlight::new().route(restlight_core::get("/ping").handle(|_| async { "pong" }));
    let r =
        with_file(code, "[server]\nformat_suffix = true\nbiz_queue = 7\ndefault_scheduler = \"nowhere\"\n").unwrap();
    let r = resolve(
        r,
        &[
            ("RESTLIGHT_SERVER_DEFAULT_SCHEDULER", "biz"),
            ("RESTLIGHT_SERVER_FORMAT_PARAMETER", "fmt"),
            ("RESTLIGHT_SERVER_BIZ_MAX_ACTIVE", "9"),
        ],
    )
    .unwrap();
    assert_eq!(r.options.biz_queue, Some(7));
    assert_eq!(r.options.biz_max_active, Some(9), "biz_max_active from the env");
    let client = r.ignore_env().mock().expect("env's `biz` replaced the file's unknown scheduler");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let res = rt.block_on(client.get("/ping.json").send());
    assert_eq!(res.status(), 200, "format_suffix from the file");
    let res = rt.block_on(client.get("/ping?fmt=nope").send());
    assert_eq!(res.status(), 406, "format_parameter from the env: {}", res.text());
    let biz = client.app().routes().iter().find(|r| r.path == "/ping").unwrap().scheduler.clone();
    assert_eq!(biz, "biz", "default_scheduler from the env");
}

#[test]
fn strict_matching_comes_from_the_file_or_the_env() {
    let code = || {
        Restlight::new()
            .route(restlight_core::get("/users/{id: \\d+}").handle(|_| async { "get" }))
            .route(restlight_core::delete("/users/{id}").handle(|_| async { "delete" }))
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let delete = |r: Restlight| {
        let client = r.ignore_env().mock().expect("builds");
        rt.block_on(client.request(http::Method::DELETE, "/users/1").send()).status()
    };
    assert_eq!(delete(resolve(code(), &[]).unwrap()), 200, "method first by default");
    let file = with_file(code(), "[server]\nstrict_matching = true\n").unwrap();
    assert_eq!(delete(resolve(file, &[]).unwrap()), 405, "strict from the file");
    let env = resolve(code(), &[("RESTLIGHT_SERVER_STRICT_MATCHING", "true")]).unwrap();
    assert_eq!(delete(env), 405, "strict from the env");
}

#[test]
fn executor_resize_is_opted_in_by_file_or_env() {
    let r = resolve(with_file(Restlight::new(), "[actuator]\nallow_executor_resize = true\n").unwrap(), &[]).unwrap();
    assert!(r.actuator.expect("on").allows_executor_resize(), "file");
    let code = Restlight::new().actuator(Actuator::new().allow_executor_resize(true));
    let r = resolve(code, &[("RESTLIGHT_SERVER_ACTUATOR_ALLOW_EXECUTOR_RESIZE", "false")]).unwrap();
    assert!(!r.actuator.expect("on").allows_executor_resize(), "env over code");
    let r = resolve(Restlight::new().actuator(Actuator::new()), &[]).unwrap();
    assert!(!r.actuator.expect("on").allows_executor_resize(), "off by default");
}

#[test]
fn actuator_table_turns_it_on_and_enabled_false_turns_it_off() {
    let r = resolve(with_file(Restlight::new(), "[actuator]\nport = 9091\n").unwrap(), &[]).unwrap();
    let a = r.actuator.expect("a present table turns the actuator on");
    assert_eq!((a.base_path.as_str(), a.port), (DEFAULT_BASE_PATH_FOR_TESTS, Some(9091)));
    assert!(a.exposes(Endpoint::Health) && a.exposes(Endpoint::Info) && !a.exposes(Endpoint::Metrics));

    let on_in_code = || Restlight::new().actuator(Actuator::new());
    let r = with_file(on_in_code(), "[actuator]\nenabled = false\nbase_path = \"/x\"\n").unwrap();
    assert!(resolve(r, &[]).unwrap().actuator.is_none(), "the file turns the code's actuator off");
    let r = with_file(on_in_code(), "[actuator]\nenabled = false\n").unwrap();
    let r = resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "true")]).unwrap();
    assert_eq!(r.actuator.expect("env turns it back on").base_path, DEFAULT_BASE_PATH_FOR_TESTS);
    // The environment alone, and the file's keys kept when the env turns it on.
    let r = with_file(Restlight::new(), "[server]\nport = 1\n").unwrap();
    assert!(resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "true")]).unwrap().actuator.is_some());
    let r = with_file(Restlight::new(), "[actuator]\nenabled = false\nbase_path = \"/ops\"\n").unwrap();
    let r = resolve(r, &[("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "true")]).unwrap();
    assert_eq!(r.actuator.unwrap().base_path, "/ops");
    // No table: the code's choice stands.
    assert!(resolve(Restlight::new(), &[]).unwrap().actuator.is_none());
    assert!(resolve(on_in_code(), &[]).unwrap().actuator.is_some());
}

const DEFAULT_BASE_PATH_FOR_TESTS: &str = crate::DEFAULT_BASE_PATH;

#[test]
fn actuator_env_list_and_text_values() {
    let r = resolve(
        Restlight::new(),
        &[
            ("RESTLIGHT_SERVER_ACTUATOR_EXPOSE", "health, routes,config"),
            ("RESTLIGHT_SERVER_ACTUATOR_PORT", "9091"),
            ("RESTLIGHT_SERVER_ACTUATOR_APP_NAME", "true"),
            ("RESTLIGHT_SERVER_ACTUATOR_APP_VERSION", "1.5"),
        ],
    )
    .unwrap();
    let a = r.actuator.unwrap();
    assert_eq!(a.exposed, [Endpoint::Health, Endpoint::Routes, Endpoint::Config]);
    assert_eq!(a.port, Some(9091));
    assert_eq!((a.name.as_deref(), a.version.as_deref()), (Some("true"), Some("1.5")), "text keys stay text");
}

#[test]
fn unknown_endpoint_is_an_error_listing_the_known_ones() {
    let err = with_file(Restlight::new(), "[actuator]\nexpose = [\"health\", \"helth\"]\n").unwrap_err();
    assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "actuator.expose"), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("`helth`") && text.contains("health, info, metrics, routes, config, executors"), "{text}");
    let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_ACTUATOR_EXPOSE", "health,bogus")]).unwrap_err();
    assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_ACTUATOR_EXPOSE"), "{err:?}");
    assert!(err.to_string().contains("`bogus`"), "{err}");
}

#[test]
fn app_name_and_version_go_together() {
    let err = resolve(with_file(Restlight::new(), "[actuator]\napp_name = \"orders\"\n").unwrap(), &[]);
    assert!(matches!(err, Err(ConfigError::Invalid { key, .. }) if key == "actuator.app_version"));
}

#[test]
fn unknown_keys_in_the_new_tables_are_named_in_full() {
    for (text, key) in [
        ("[actuator]\nbse_path = \"/x\"\n", "actuator.bse_path"),
        ("[access_log]\nenable = true\n", "access_log.enable"),
        ("[tls]\ncert = \"cert.pem\"\n", "tls.cert"),
        ("[server]\nport = 1\nio_thread = 3\n", "server.io_thread"),
        ("[acuator]\nenabled = true\n", "acuator"),
    ] {
        let err = with_file(Restlight::new(), text).unwrap_err();
        assert!(matches!(err, ConfigError::Parse { .. }), "{err:?}");
        assert!(err.to_string().contains(&format!("`{key}`")), "{key}: {err}");
    }
    for (var, key) in [
        ("RESTLIGHT_SERVER_ACTUATOR_BSE_PATH", "actuator.bse_path"),
        ("RESTLIGHT_SERVER_ACCESS_LOG_ENABLE", "access_log.enable"),
        ("RESTLIGHT_SERVER_TLS_CERT", "tls.cert"),
    ] {
        let err = resolve(Restlight::new(), &[(var, "x")]).unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == var), "{err:?}");
        assert!(err.to_string().contains(key), "{err}");
    }
}

#[test]
fn wrong_types_in_the_new_tables_are_errors_naming_the_key() {
    for (text, key) in [
        ("[actuator]\nport = \"mgmt\"\n", "actuator.port"),
        ("[actuator]\nenabled = \"yes\"\n", "actuator.enabled"),
        ("[actuator]\nexpose = \"health\"\n", "actuator.expose"),
        ("[access_log]\nenabled = 1\n", "access_log.enabled"),
        ("[tls]\nhandshake_timeout_ms = \"5s\"\n", "tls.handshake_timeout_ms"),
        ("[tls]\nclient_auth = \"maybe\"\n", "tls.client_auth"),
        ("actuator = true\n", "actuator"),
    ] {
        let err = with_file(Restlight::new(), text).unwrap_err();
        assert!(matches!(err, ConfigError::Parse { .. }), "{err:?}");
        assert!(err.to_string().contains(&format!("`{key}`")), "{key}: {err}");
    }
    for (var, value) in [
        ("RESTLIGHT_SERVER_ACTUATOR_ENABLED", "yes"),
        ("RESTLIGHT_SERVER_ACTUATOR_PORT", "70000"),
        ("RESTLIGHT_SERVER_TLS_HANDSHAKE_TIMEOUT_MS", "soon"),
    ] {
        let err = resolve(Restlight::new(), &[(var, value)]).unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == var), "{err:?}");
    }
}

#[test]
fn access_log_code_then_file_then_env() {
    let on = || Restlight::new().access_log(AccessLog::new());
    let r = with_file(on(), "[access_log]\nenabled = false\n").unwrap();
    assert!(resolve(r, &[]).unwrap().access_log.is_none(), "file turns the code's log off");
    let r = with_file(on(), "[access_log]\nenabled = false\n").unwrap();
    assert!(resolve(r, &[("RESTLIGHT_SERVER_ACCESS_LOG_ENABLED", "true")]).unwrap().access_log.is_some());
    let r = with_file(Restlight::new(), "[access_log]\n").unwrap();
    assert!(resolve(r, &[]).unwrap().access_log.is_some(), "a present table turns it on");
    assert!(resolve(on(), &[]).unwrap().access_log.is_some(), "no table: the code's choice stands");
}

#[cfg(feature = "access-log-file")]
#[test]
fn access_log_file_keys_override_the_code_one_by_one() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let code = || Restlight::new().access_log(AccessLog::new().daily_file(one.path(), "code"));
    let text = format!("[access_log]\ndirectory = {:?}\n", two.path().display().to_string());
    let r = resolve(with_file(code(), &text).unwrap(), &[]).unwrap();
    assert_eq!(
        r.access_log.unwrap().file,
        Some((two.path().to_path_buf(), "code".to_owned())),
        "the code's prefix kept"
    );
    assert!(two.path().is_dir(), "the directory is created");
    let r = resolve(with_file(code(), &text).unwrap(), &[("RESTLIGHT_SERVER_ACCESS_LOG_FILE_PREFIX", "env")]).unwrap();
    assert_eq!(r.access_log.unwrap().file, Some((two.path().to_path_buf(), "env".to_owned())));
    let r = resolve(code(), &[("RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY", "")]).unwrap();
    assert_eq!(r.access_log.unwrap().file, None, "an empty directory drops the file");
    let r = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY", &two.path().display().to_string())]);
    assert_eq!(
        r.unwrap().access_log.unwrap().file,
        Some((two.path().to_path_buf(), "access".to_owned())),
        "default prefix"
    );
    let err = resolve(with_file(Restlight::new(), "[access_log]\nfile_prefix = \"a\"\n").unwrap(), &[]);
    assert!(matches!(err, Err(ConfigError::Invalid { key, .. }) if key == "access_log.file_prefix"));
    // A directory that cannot be created names the key and the path.
    let blocker = file("not a directory");
    let text = format!("[access_log]\ndirectory = {:?}\n", blocker.path().join("logs").display().to_string());
    let err = resolve(with_file(Restlight::new(), &text).unwrap(), &[]).unwrap_err();
    assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "access_log.directory"), "{err:?}");
    assert!(err.to_string().contains(&blocker.path().display().to_string()), "{err}");
}

#[cfg(not(feature = "access-log-file"))]
#[test]
fn access_log_file_keys_need_the_feature() {
    for (text, key) in [
        ("[access_log]\ndirectory = \"/var/log/x\"\n", "access_log.directory"),
        ("[access_log]\nfile_prefix = \"a\"\n", "access_log.file_prefix"),
    ] {
        let err = with_file(Restlight::new(), text).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key: k, .. } if k == key), "{err:?}");
        assert!(err.to_string().contains("`access-log-file`"), "{err}");
    }
    let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY", "/tmp/x")]).unwrap_err();
    assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_ACCESS_LOG_DIRECTORY"));
    assert!(err.to_string().contains("`access-log-file`"), "{err}");
    assert!(with_file(Restlight::new(), "[access_log]\nenabled = true\n").is_ok());
}

#[cfg(not(feature = "tls"))]
#[test]
fn tls_keys_need_the_feature() {
    for (text, key) in [
        ("[tls]\ncert_file = \"c.pem\"\nkey_file = \"k.pem\"\n", "tls.cert_file"),
        ("[tls]\nhandshake_timeout_ms = 10\n", "tls.handshake_timeout_ms"),
        ("[tls]\nenabled = true\n", "tls.enabled"),
        ("[tls]\n", "tls"),
    ] {
        let err = with_file(Restlight::new(), text).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key: k, .. } if k == key), "{err:?}");
        assert!(err.to_string().contains("feature `tls`"), "{err}");
    }
    let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_TLS_CERT_FILE", "c.pem")]).unwrap_err();
    assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_TLS_CERT_FILE"), "{err:?}");
    assert!(with_file(Restlight::new(), "[tls]\nenabled = false\n").is_ok(), "turning it off needs nothing");
}

#[test]
fn a_later_file_overrides_an_earlier_one_key_by_key() {
    let a = file("[server]\nport = 1\nio_threads = 2\n[actuator]\nbase_path = \"/a\"\nport = 7\n");
    let b = file("[server]\nport = 3\n[actuator]\nbase_path = \"/b\"\n");
    let r = Restlight::new().config_file(a.path()).unwrap().config_file(b.path()).unwrap();
    let r = resolve(r, &[]).unwrap();
    assert_eq!((r.options.addr.port(), r.options.io_threads), (3, Some(2)));
    let a = r.actuator.unwrap();
    assert_eq!((a.base_path.as_str(), a.port), ("/b", Some(7)));
}

#[test]
fn effective_shows_the_actuator_and_the_access_log() {
    let r = with_file(
        Restlight::new().access_log(AccessLog::new()),
        "[actuator]\nbase_path = \"/ops\"\nport = 9091\nexpose = [\"config\"]\napp_name = \"o\"\napp_version = \"1\"\n",
    )
    .unwrap();
    let r = resolve(r, &[]).unwrap();
    let v = effective(&r.options, None, r.actuator.as_ref(), r.access_log.as_ref());
    assert_eq!(
        v["actuator"],
        json!({"enabled": true, "basePath": "/ops", "port": 9091, "expose": ["config"], "allowExecutorResize": false,
               "appName": "o", "appVersion": "1", "healthChecks": []})
    );
    assert_eq!(v["accessLog"], json!({"enabled": true, "directory": null, "filePrefix": null}));
}

#[cfg(feature = "tls")]
mod tls {
    use std::path::Path;

    use serde_json::Value;

    use super::*;
    use crate::tls::{ClientAuth, TlsConfig};

    /// A self-signed certificate and its key, as PEM files.
    struct Pem {
        cert: NamedTempFile,
        key: NamedTempFile,
        cert_pem: String,
        key_pem: String,
    }

    fn pem() -> Pem {
        let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let (cert_pem, key_pem) = (made.cert.pem(), made.signing_key.serialize_pem());
        Pem { cert: file(&cert_pem), key: file(&key_pem), cert_pem, key_pem }
    }

    fn quoted(path: &Path) -> String {
        format!("{:?}", path.display().to_string())
    }

    #[test]
    fn tls_from_the_file_with_env_over_it() {
        let p = pem();
        let text = format!(
            "[tls]\ncert_file = {}\nkey_file = {}\nclient_ca_file = {}\nhandshake_timeout_ms = 2000\n",
            quoted(p.cert.path()),
            quoted(p.key.path()),
            quoted(p.cert.path())
        );
        let r = with_file(Restlight::new(), &text).unwrap();
        let r = resolve(r, &[("RESTLIGHT_SERVER_TLS_CLIENT_AUTH", "optional")]).unwrap();
        let tls = r.options.tls.as_ref().expect("on");
        assert_eq!(tls.timeout(), Duration::from_millis(2000));
        assert_eq!(tls.client_auth_mode(), Some(ClientAuth::Optional), "env over the file's default");
        assert_eq!(tls.sources().cert.as_deref(), Some(p.cert.path()));
        tls.server_config().expect("a usable rustls configuration");

        let v = effective(&r.options, None, None, None);
        assert_eq!(v["tls"]["certFile"], p.cert.path().display().to_string());
        assert_eq!(v["tls"]["keyFile"], p.key.path().display().to_string());
        assert_eq!(v["tls"]["clientAuth"], "optional");
        assert_eq!(v["tls"]["handshakeTimeoutMs"], 2000);
        assert!(!v.to_string().contains("BEGIN"), "no PEM in the effective options: {v}");
    }

    #[test]
    fn file_keys_override_the_code_tls_one_by_one() {
        let p = pem();
        let code = || {
            Restlight::new().tls(
                TlsConfig::from_pem(p.cert_pem.as_bytes(), p.key_pem.as_bytes())
                    .unwrap()
                    .client_auth_pem(p.cert_pem.as_bytes(), ClientAuth::Optional)
                    .unwrap(),
            )
        };
        let r = with_file(code(), "[tls]\nhandshake_timeout_ms = 1500\n").unwrap();
        let r = resolve(r, &[("RESTLIGHT_SERVER_TLS_HANDSHAKE_TIMEOUT_MS", "2500")]).unwrap();
        let tls = r.options.tls.as_ref().unwrap();
        assert_eq!(tls.timeout(), Duration::from_millis(2500), "env over file over code");
        assert_eq!(tls.client_auth_mode(), Some(ClientAuth::Optional), "the code's client auth kept");
        assert_eq!(tls.sources().cert, None, "the code's in-memory certificate kept");
        let v = effective(&r.options, None, None, None);
        assert_eq!(v["tls"]["certFile"], Value::Null);

        // Only the key file: the code's certificate stays.
        let r = resolve(with_file(code(), &format!("[tls]\nkey_file = {}\n", quoted(p.key.path()))).unwrap(), &[]);
        let r = r.unwrap();
        let tls = r.options.tls.as_ref().unwrap();
        assert_eq!((tls.sources().cert.as_deref(), tls.sources().key.as_deref()), (None, Some(p.key.path())));
        tls.server_config().unwrap();

        let r = resolve(with_file(code(), "[tls]\nclient_auth = \"none\"\n").unwrap(), &[]).unwrap();
        assert_eq!(r.options.tls.unwrap().client_auth_mode(), None);
        let off = "[tls]\nenabled = false\ncert_file = \"/nonexistent/cert.pem\"\n";
        let r = resolve(with_file(code(), off).unwrap(), &[]).unwrap();
        assert!(r.options.tls.is_none(), "the file turns the code's TLS off, its paths unread");
        assert!(resolve(code(), &[]).unwrap().options.tls.is_some(), "no table: the code's TLS stands");
    }

    #[test]
    fn bad_pem_paths_are_errors_naming_the_key_and_the_path() {
        let p = pem();
        let text = format!("[tls]\ncert_file = \"/nonexistent/cert.pem\"\nkey_file = {}\n", quoted(p.key.path()));
        let err = with_file(Restlight::new(), &text).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.cert_file"), "{err:?}");
        assert!(err.to_string().contains("/nonexistent/cert.pem"), "{err}");
        // A file that holds no key (here a certificate).
        let text = format!("[tls]\ncert_file = {}\nkey_file = {}\n", quoted(p.cert.path()), quoted(p.cert.path()));
        let err = with_file(Restlight::new(), &text).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.key_file"), "{err:?}");
        assert!(err.to_string().contains(&p.cert.path().display().to_string()), "{err}");
        let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_TLS_CLIENT_CA_FILE", "/nonexistent/ca.pem")]);
        let err = err.unwrap_err();
        assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_TLS_CLIENT_CA_FILE"));
        assert!(err.to_string().contains("tls.client_ca_file") && err.to_string().contains("/nonexistent/ca.pem"));
    }

    #[test]
    fn tls_needs_a_certificate_and_a_key_and_client_auth_a_ca() {
        let p = pem();
        let err = resolve(with_file(Restlight::new(), "[tls]\nenabled = true\n").unwrap(), &[]).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.cert_file"), "{err:?}");
        let text = format!("[tls]\ncert_file = {}\n", quoted(p.cert.path()));
        let err = resolve(with_file(Restlight::new(), &text).unwrap(), &[]).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.key_file"), "{err:?}");
        let text = format!(
            "[tls]\ncert_file = {}\nkey_file = {}\nclient_auth = \"required\"\n",
            quoted(p.cert.path()),
            quoted(p.key.path())
        );
        let err = resolve(with_file(Restlight::new(), &text).unwrap(), &[]).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key, .. } if key == "tls.client_auth"), "{err:?}");
    }
}

#[cfg(feature = "openapi")]
#[test]
fn openapi_endpoints_from_the_environment() {
    let r = Restlight::new()
        .resolve_config(env(&[
            ("RESTLIGHT_SERVER_OPENAPI_ENABLED", "true"),
            ("RESTLIGHT_SERVER_OPENAPI_YAML_PATH", ""),
            ("RESTLIGHT_SERVER_OPENAPI_VERSION", "3.0"),
            ("RESTLIGHT_SERVER_OPENAPI_TITLE", "Orders"),
        ]))
        .unwrap();
    let docs = r.openapi.expect("on");
    assert_eq!(docs.json_path.as_deref(), Some("/openapi.json"));
    assert_eq!(docs.yaml_path, None);
    assert_eq!(docs.version, restlight_core::openapi::OpenApiVersion::V3_0);
    assert_eq!(docs.title, "Orders");

    let err = Restlight::new().resolve_config(env(&[("RESTLIGHT_SERVER_OPENAPI_VERSION", "2.0")])).unwrap_err();
    assert!(err.to_string().contains("RESTLIGHT_SERVER_OPENAPI_VERSION"), "{err}");
}

#[test]
fn openapi_is_off_unless_configured() {
    let r = Restlight::new().resolve_config(env(&[])).unwrap();
    #[cfg(feature = "openapi")]
    assert!(r.openapi.is_none());
    let _ = r;
}

#[test]
fn request_ids_and_trace_context_come_from_the_file_or_the_env() {
    let r = resolve(Restlight::new(), &[]).unwrap();
    assert!(!r.options.trace.request_ids && !r.options.trace.trace_context, "off by default");
    assert_eq!(r.options.trace.request_id_header, "x-request-id");
    let f = with_file(Restlight::new(), "[server]\nrequest_ids = true\nrequest_id_header = \"X-Correlation-Id\"\n")
        .unwrap();
    let r = resolve(f, &[("RESTLIGHT_SERVER_TRACE_CONTEXT", "true")]).unwrap();
    assert!(r.options.trace.request_ids, "file");
    assert_eq!(r.options.trace.request_id_header, "x-correlation-id");
    assert!(r.options.trace.trace_context, "env");
    let r =
        resolve(Restlight::new().request_ids(true), &[("RESTLIGHT_SERVER_REQUEST_ID_HEADER", "x-trace-tag")]).unwrap();
    assert_eq!(r.options.trace.request_id_header, "x-trace-tag", "env");
    let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_REQUEST_ID_HEADER", "not a header")]).unwrap_err();
    assert!(err.to_string().contains("request_id_header"), "{err}");
}

#[cfg(not(feature = "otel"))]
#[test]
fn otel_keys_need_the_feature() {
    for (text, key) in [
        ("[otel]\nendpoint = \"http://collector:4318/v1/traces\"\n", "otel.endpoint"),
        ("[otel]\nsampler_ratio = 0.5\n", "otel.sampler_ratio"),
        ("[otel]\nheaders = { x-tenant = \"a\" }\n", "otel.headers"),
        ("[otel]\nenabled = true\n", "otel.enabled"),
        ("[otel]\n", "otel"),
    ] {
        let err = with_file(Restlight::new(), text).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key: k, .. } if k == key), "{text}: {err:?}");
        assert!(err.to_string().contains("feature `otel`"), "{err}");
    }
    let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_OTEL_SERVICE_NAME", "orders")]).unwrap_err();
    assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_OTEL_SERVICE_NAME"), "{err:?}");
    assert!(err.to_string().contains("`otel.service_name`") && err.to_string().contains("feature `otel`"), "{err}");
    assert!(with_file(Restlight::new(), "[otel]\nenabled = false\n").is_ok(), "turning it off needs nothing");
}

#[cfg(feature = "otel")]
#[test]
fn the_server_checks_the_otel_table() {
    let text = "[otel]\nendpoint = \"http://collector:4318/v1/traces\"\nservice_name = \"orders\"\n\
                sampler_ratio = 0.25\ntimeout_ms = 2000\nheaders = { x-tenant = \"a\" }\n";
    assert!(with_file(Restlight::new(), text).is_ok());
    for (text, key, says) in [
        ("[otel]\nsampler_ratio = 1.5\n", "otel.sampler_ratio", "`1.5` is not a ratio"),
        ("[otel]\nendpoint = \"https://collector/v1/traces\"\n", "otel.endpoint", "not an http:// URL"),
        ("[otel]\nheaders = { \"bad name\" = \"a\" }\n", "otel.headers", "`bad name` is not a header name"),
        ("[otel]\ntimeout_ms = 0\n", "otel.timeout_ms", "no time"),
    ] {
        let err = with_file(Restlight::new(), text).unwrap_err();
        assert!(matches!(&err, ConfigError::Invalid { key: k, .. } if k == key), "{text}: {err:?}");
        assert!(err.to_string().contains(says), "{err}");
    }
    let err = with_file(Restlight::new(), "[otel]\nsampler = 0.5\n").unwrap_err();
    assert!(err.to_string().contains("`otel.sampler`"), "an unknown key is named in full: {err}");
    let err = resolve(Restlight::new(), &[("RESTLIGHT_SERVER_OTEL_HEADERS", "x-tenant=a,authorization")]).unwrap_err();
    assert!(matches!(&err, ConfigError::Env { key, .. } if key == "RESTLIGHT_SERVER_OTEL_HEADERS"), "{err:?}");
    assert!(err.to_string().contains("the value of `authorization`"), "{err}");
    assert!(resolve(Restlight::new(), &[("RESTLIGHT_SERVER_OTEL_SAMPLER_RATIO", "0.1")]).is_ok());
}
