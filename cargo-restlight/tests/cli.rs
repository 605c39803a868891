//! The command as a user runs it: what it prints, what it creates, how it
//! fails.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-restlight"))
        .arg("restlight")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the command runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn new_creates_the_service_and_says_what_to_do_next() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["new", "demo"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("cd demo\n") && stdout.contains("cargo run\n"), "{stdout}");
    assert!(stdout.contains("Restlight from the checkout at"), "{stdout}");
    assert!(tmp.path().join("demo/k8s/deployment.yaml").is_file());

    let again = run(tmp.path(), &["new", "demo"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("demo already exists"), "{}", stderr(&again));
}

#[test]
fn a_git_source_with_a_revision_goes_into_cargo_toml() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        tmp.path(),
        &["new", "tiny", "--minimal", "--restlight-git", "https://git.example/restlight", "--rev", "v0.1.0"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let manifest = fs::read_to_string(tmp.path().join("tiny/Cargo.toml")).unwrap();
    assert!(
        manifest.contains(r#"restlight = { git = "https://git.example/restlight", rev = "v0.1.0" }"#),
        "{manifest}"
    );
}

#[test]
fn failures_name_the_problem_and_create_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["new", "demo", "--style", "kotlin"], "possible values: jaxrs, spring"),
        (&["new"], "missing NAME"),
        (&["new", "1st"], "cannot start with `1`"),
        (&["new", "demo", "--rev", "v1"], "--restlight-git <URL>"),
        (&["new", "demo", "--restlight-path", "."], "is not a Restlight checkout"),
    ];
    for (args, message) in cases {
        let out = run(tmp.path(), args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn the_spring_style_writes_controllers_in_both_variants() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [&["new", "svc", "--style", "spring"][..], &["new", "tiny", "--style", "spring", "--minimal"]] {
        let out = run(tmp.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let users = fs::read_to_string(tmp.path().join("svc/src/users.rs")).unwrap();
    assert!(users.contains("#[restlight::rest_controller]") && users.contains("#[exception_handler]"), "{users}");
    assert!(tmp.path().join("svc/k8s/deployment.yaml").is_file(), "the rest of the service is the same");
    let main = fs::read_to_string(tmp.path().join("tiny/src/main.rs")).unwrap();
    assert!(main.contains("#[get_mapping]"), "{main}");
}
