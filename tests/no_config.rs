//! Without the `config` feature (`--no-default-features`): no configuration
//! file is read and the `RESTLIGHT_SERVER_*` variables are refused, each
//! with an error naming the feature; settings come from code alone.
#![cfg(not(feature = "config"))]

use restlight::prelude::*;
use restlight::ConfigError;

#[test]
fn a_configuration_file_is_an_error_naming_the_feature() {
    let path = std::env::temp_dir().join(format!("restlight-no-config-{}.toml", std::process::id()));
    std::fs::write(&path, "[server]\nport = 9999\n").unwrap();
    let err = Restlight::new().config_file(&path).err().expect("no file is read without the feature");
    std::fs::remove_file(&path).unwrap();
    match &err {
        ConfigError::Read { path: named, source } => {
            assert_eq!(named, &path);
            assert_eq!(source.kind(), std::io::ErrorKind::Unsupported);
        }
        other => panic!("expected a read error, got {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("cargo feature `config`"), "{text}");
}

#[test]
fn an_environment_variable_stops_the_start_unless_ignored() {
    // The only test in this binary that touches the environment.
    std::env::set_var("RESTLIGHT_SERVER_PORT", "9999");
    let app = || Restlight::new().route(get("/ping").handle(|_ctx| async { "pong" }));
    let err = app().build().err().expect("a variable that would not be applied is refused").to_string();
    assert!(err.contains("RESTLIGHT_SERVER_PORT") && err.contains("cargo feature `config`"), "{err}");
    let client = app().ignore_env().mock().unwrap();
    assert_eq!(client.get("/ping").send_blocking().text(), "pong");
    std::env::remove_var("RESTLIGHT_SERVER_PORT");
}
