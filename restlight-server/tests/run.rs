//! `Restlight::run` in a child process: serves until SIGTERM, then drains.
#![cfg(unix)]

mod support;

use std::io::Read;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use restlight_core::get;
use support::{get_request, wait_refused, with_ping, Raw};

const PORT_VAR: &str = "RESTLIGHT_TEST_RUN_PORT";

/// The child: only does something when started by the test below.
#[test]
fn child_server() {
    let Ok(port) = std::env::var(PORT_VAR) else { return };
    with_ping()
        .port(port.parse().unwrap())
        .route(get("/slow").handle(|_ctx| async {
            tokio::time::sleep(Duration::from_millis(600)).await;
            "slow done"
        }))
        .run()
        .unwrap();
    println!("run returned");
}

#[test]
fn run_serves_until_sigterm_then_drains() {
    if std::env::var(PORT_VAR).is_ok() {
        return;
    }
    let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap().local_addr().unwrap().port();
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_server", "--nocapture", "--test-threads=1"])
        .env(PORT_VAR, port.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();

    let start = Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(start.elapsed() < Duration::from_secs(10), "the child never listened");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut ping = Raw::connect(addr);
    ping.send(get_request("/ping"));
    assert_eq!(ping.response().status, 200);

    let mut slow = Raw::connect(addr);
    slow.send(get_request("/slow"));
    std::thread::sleep(Duration::from_millis(100));
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());

    wait_refused(addr, Duration::from_millis(400));
    assert_eq!(slow.response().text(), "slow done");

    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "run() did not return after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(out.contains("run returned"), "{out}");
}
