//! `Restlight::run` in a child process: serves until SIGTERM, then drains.
#![cfg(unix)]

mod support;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use restlight_core::get;
use support::{get_request, wait_refused, with_ping, Raw};

const CHILD_VAR: &str = "RESTLIGHT_TEST_RUN_CHILD";

/// The child: only does something when started by the test below.
#[test]
fn child_server() {
    if !is_child(CHILD_VAR) {
        return;
    }
    run_child(2, with_ping());
}

/// Whether this process is the child that `var` starts; if it is, the
/// server's log goes to standard output, where the parent reads the
/// address it listens on.
fn is_child(var: &str) -> bool {
    if std::env::var_os(var).is_none() {
        return false;
    }
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_writer(std::io::stdout)
        .with_ansi(false)
        .without_time()
        .init();
    true
}

/// What both children serve: `with` plus `GET /threads` (this process's
/// threads) and `GET /slow` (answered after 2 s), on a port of the
/// system's choosing with `io_threads` IO threads, by `run` until it
/// returns.
fn run_child(io_threads: usize, with: restlight_server::Restlight) {
    with.io_threads(io_threads)
        .route(get("/threads").handle(|_ctx| async { thread_names().join(",") }))
        .route(get("/slow").handle(|_ctx| async {
            tokio::time::sleep(SLOW).await;
            "slow done"
        }))
        .run()
        .unwrap();
    println!("run returned");
}

/// How long `GET /slow` takes: long enough that a busy machine still
/// closes the listener well within it.
const SLOW: Duration = Duration::from_secs(2);

const ONE_LOOP_VAR: &str = "RESTLIGHT_TEST_RUN_ONE_LOOP_CHILD";

/// The thread that called `run` in the child below.
static CALLER: std::sync::OnceLock<std::thread::ThreadId> = std::sync::OnceLock::new();

/// The child of the test below: `run` with one IO thread.
#[test]
fn child_server_with_one_io_thread() {
    if !is_child(ONE_LOOP_VAR) {
        return;
    }
    CALLER.set(std::thread::current().id()).unwrap();
    let here = || async {
        let caller = CALLER.get() == Some(&std::thread::current().id());
        let name = std::thread::current().name().unwrap_or_default().to_owned();
        if caller {
            "the caller".to_owned()
        } else {
            name
        }
    };
    let app = with_ping()
        .route(get("/here").scheduled("io").handle(move |_ctx| here()))
        .route(get("/biz").scheduled("biz").handle(move |_ctx| here()));
    run_child(1, app);
}

#[test]
fn run_with_one_io_thread_serves_on_the_calling_thread() {
    if [CHILD_VAR, ONE_LOOP_VAR].iter().any(|var| std::env::var(var).is_ok()) {
        return;
    }
    let (child, addr) = start_child("child_server_with_one_io_thread", ONE_LOOP_VAR);
    let mut raw = Raw::connect(addr);
    // The thread that called `run` accepts the connections and is the one
    // event loop: the process starts no IO thread and no server thread.
    raw.send(get_request("/here"));
    assert_eq!(raw.response().text(), "the caller");
    if cfg!(target_os = "linux") {
        raw.send(get_request("/threads"));
        let names = raw.response().text();
        assert!(!names.split(',').any(|n| n.starts_with("restlight-")), "{names}");
    }
    // A business route is handed over from it and answered back to it.
    for _ in 0..3 {
        raw.send(get_request("/biz"));
        let name = raw.response().text();
        assert!(name.starts_with("restlight-biz-"), "{name}");
    }

    // The drain's order is `run_serves_until_sigterm_then_drains`'s to
    // check; here, that the one loop drains and `run` returns.
    term_during_slow(child, addr, Duration::from_secs(5));
}

/// Sends `GET /slow`, then SIGTERM to the child while it is served, and
/// checks that the child stops listening within `refused_within`, still
/// answers the slow request, and returns from `run`.
fn term_during_slow(child: Kid, addr: SocketAddr, refused_within: Duration) {
    let mut slow = Raw::connect(addr);
    slow.send(get_request("/slow"));
    std::thread::sleep(Duration::from_millis(100));
    let killed = Command::new("kill").args(["-TERM", &child.process.id().to_string()]).status().unwrap();
    assert!(killed.success());
    wait_refused(addr, refused_within);
    assert_eq!(slow.response().text(), "slow done");
    expect_run_returned(child, Duration::from_secs(5), "SIGTERM");
}

/// The names of this process's threads (Linux), sorted.
fn thread_names() -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    let mut names: Vec<String> = tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|comm| comm.trim_end().to_owned())
        .collect();
    names.sort();
    names
}

/// A child process, killed when dropped: a failed assertion in the test
/// does not leave it serving (and the test run waiting on its output).
/// Its standard output arrives line by line in `lines`.
struct Kid {
    process: Child,
    lines: mpsc::Receiver<String>,
}

impl Drop for Kid {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Starts this test binary again as a child running only the test `child`,
/// with `var` set, and waits for its server to log the address it listens
/// on. The child's server binds a port of the system's choosing itself: a
/// port found free here and only bound by the child a few milliseconds
/// later could be taken in between by any other process's listener, whose
/// connections would then be these tests' connections.
fn start_child(child: &str, var: &str) -> (Kid, SocketAddr) {
    let mut process = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", child, "--nocapture", "--test-threads=1"])
        .env(var, "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(process.stdout.take().unwrap());
    let (tx, lines) = mpsc::channel();
    // Read on a thread of its own, so that a child which never listens
    // fails the test after the timeout below instead of hanging it.
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let kid = Kid { process, lines };
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match kid.lines.recv_timeout(left) {
            Ok(line) => line,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("the child did not listen within 10 s"),
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the child ended without listening"),
        };
        if let Some(addr) = listening_on(&line) {
            return (kid, addr);
        }
    }
}

/// The address in the server's log line `restlight listening on
/// http://ADDR`, if `line` is it.
fn listening_on(line: &str) -> Option<SocketAddr> {
    let (_, rest) = line.split_once("restlight listening on http://")?;
    rest.split_whitespace().next()?.parse().ok()
}

/// Waits up to `max` for the child to exit, and checks that it exited
/// well, after `run` returned.
fn expect_run_returned(mut child: Kid, max: Duration, after: &str) {
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.process.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < max, "run() did not return after {after}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    // The child has exited: its output ends, and the reading thread with it.
    let out: Vec<String> = child.lines.iter().collect();
    assert!(out.iter().any(|line| line.contains("run returned")), "{out:?}");
}

#[test]
fn run_serves_until_sigterm_then_drains() {
    if std::env::var(CHILD_VAR).is_ok() {
        return;
    }
    let (child, addr) = start_child("child_server", CHILD_VAR);
    let mut ping = Raw::connect(addr);
    ping.send(get_request("/ping"));
    assert_eq!(ping.response().status, 200);

    // `run` serves on the calling thread: the process has the two IO
    // threads besides the test harness's, and no server thread of its own
    // (Linux cuts thread names to 15 bytes: `restlight-serve`).
    if cfg!(target_os = "linux") {
        let mut threads = Raw::connect(addr);
        threads.send(get_request("/threads"));
        let names = threads.response().text();
        let names: Vec<&str> = names.split(',').collect();
        assert_eq!(names.iter().filter(|n| n.starts_with("restlight-io-")).count(), 2, "{names:?}");
        assert!(!names.iter().any(|n| n.starts_with("restlight-serv")), "{names:?}");
    }

    // The listener closes well before the slow request is answered.
    term_during_slow(child, addr, SLOW * 3 / 4);
}

const LONG_DRAIN_VAR: &str = "RESTLIGHT_TEST_RUN_LONG_DRAIN_CHILD";

/// The child of the test below: a drain that would wait a minute for
/// `/stuck`, which answers after an hour.
#[test]
fn child_server_with_a_long_drain() {
    if !is_child(LONG_DRAIN_VAR) {
        return;
    }
    with_ping()
        .shutdown_timeout(Duration::from_secs(60))
        .route(get("/stuck").handle(|_ctx| async {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            "too late"
        }))
        .run()
        .unwrap();
    println!("run returned");
}

#[test]
fn a_second_sigterm_closes_what_the_drain_still_waits_for() {
    if std::env::var(CHILD_VAR).is_ok() || std::env::var(LONG_DRAIN_VAR).is_ok() {
        return;
    }
    let (mut child, addr) = start_child("child_server_with_a_long_drain", LONG_DRAIN_VAR);
    let mut stuck = Raw::connect(addr);
    stuck.send(get_request("/stuck"));
    std::thread::sleep(Duration::from_millis(100));
    let pid = child.process.id().to_string();
    let term = || assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());

    // The first signal starts the drain, which waits for `/stuck`.
    term();
    wait_refused(addr, Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(200));
    assert!(child.process.try_wait().unwrap().is_none(), "the drain did not wait for the request in flight");

    // The second closes it at once, unanswered, and `run` returns.
    term();
    assert!(stuck.closed_within(Duration::from_secs(5)).is_some(), "the request in flight was not cut off");
    expect_run_returned(child, Duration::from_secs(10), "the second SIGTERM");
}
