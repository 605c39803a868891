//! The load-comparison driver: starts each server binary pinned to one core,
//! drives it with wrk / h2load pinned to another, reads the server's CPU time
//! and memory from /proc, and prints markdown tables with every figure as a
//! ratio to raw hyper. `benches/load/run.sh` builds everything and calls it;
//! `loadbench --help` lists the knobs.
//!
//! Every target address is 127.0.0.1; every load run is bounded in time (the
//! tool's own duration, and a kill after duration + 20 s).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

const HOST: &str = "127.0.0.1";

// ---------------------------------------------------------------- configuration

#[derive(Debug, Clone)]
struct Config {
    mode: String,
    bin_dir: PathBuf,
    out_dir: PathBuf,
    servers: Vec<String>,
    duration: u64,
    rounds: usize,
    h2_duration: u64,
    h2_rounds: usize,
    warmup: u64,
    conns: u32,
    h2_conns: u32,
    h2_streams: u32,
    startup_runs: usize,
    mem_secs: u64,
    server_cpu: Option<usize>,
    client_cpu: Option<usize>,
    port_base: u16,
    nice: i32,
    wrk: String,
    h2load: Option<String>,
    /// `--only startup`: the startup runs alone (sizes, exec to first
    /// response), printed as one table; no memory or load phases.
    startup_only: bool,
    /// `--endpoints hello,users,...`: the load phases measure these
    /// endpoints (by [`Endpoint::key`]) and no other; all by default.
    endpoints: Vec<usize>,
}

fn usage() -> ! {
    eprintln!(
        "usage: loadbench [--mode quick|full] --bin-dir DIR [--out-dir DIR]\n\
         \x20                [--servers hyper,axum,actix,restlight] [--duration S] [--rounds N]\n\
         \x20                [--h2-duration S] [--h2-rounds N] [--warmup S] [--conns N]\n\
         \x20                [--startup-runs N] [--mem-secs S] [--server-cpu N] [--client-cpu N]\n\
         \x20                [--port-base P] [--nice N] [--wrk PATH] [--h2load PATH|none]\n\
         \x20                [--only startup] [--endpoints hello,json,users,echo-1k,echo-16k]"
    );
    std::process::exit(2)
}

fn parse_args() -> Config {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut kv = BTreeMap::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--help" || a == "-h" {
            usage();
        }
        let Some(key) = a.strip_prefix("--") else { usage() };
        if let Some((k, v)) = key.split_once('=') {
            kv.insert(k.to_string(), v.to_string());
            i += 1;
        } else {
            let Some(v) = args.get(i + 1) else { usage() };
            kv.insert(key.to_string(), v.clone());
            i += 2;
        }
    }
    let mode = kv.remove("mode").unwrap_or_else(|| "quick".into());
    let full = match mode.as_str() {
        "quick" => false,
        "full" => true,
        _ => usage(),
    };
    let num = |kv: &mut BTreeMap<String, String>, k: &str, quick: u64, full_v: u64| -> u64 {
        match kv.remove(k) {
            Some(v) => v.parse().unwrap_or_else(|_| usage()),
            None => {
                if full {
                    full_v
                } else {
                    quick
                }
            }
        }
    };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let (dflt_server, dflt_client) = if cores >= 2 { (Some(0), Some(1)) } else { (None, None) };
    let cpu = |kv: &mut BTreeMap<String, String>, k: &str, d: Option<usize>| match kv.remove(k) {
        Some(v) if v == "none" => None,
        Some(v) => Some(v.parse().unwrap_or_else(|_| usage())),
        None => d,
    };
    let cfg = Config {
        bin_dir: kv.remove("bin-dir").map(PathBuf::from).unwrap_or_else(|| usage()),
        out_dir: kv.remove("out-dir").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("target/loadbench")),
        servers: kv
            .remove("servers")
            .unwrap_or_else(|| "hyper,axum,actix,restlight".into())
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        duration: num(&mut kv, "duration", 2, 10),
        rounds: num(&mut kv, "rounds", 2, 3) as usize,
        h2_duration: num(&mut kv, "h2-duration", 2, 10),
        h2_rounds: num(&mut kv, "h2-rounds", 1, 3) as usize,
        warmup: num(&mut kv, "warmup", 1, 5),
        conns: num(&mut kv, "conns", 64, 64) as u32,
        h2_conns: num(&mut kv, "h2-conns", 16, 16) as u32,
        h2_streams: num(&mut kv, "h2-streams", 16, 16) as u32,
        startup_runs: num(&mut kv, "startup-runs", 5, 15) as usize,
        mem_secs: num(&mut kv, "mem-secs", 2, 10),
        server_cpu: cpu(&mut kv, "server-cpu", dflt_server),
        client_cpu: cpu(&mut kv, "client-cpu", dflt_client),
        port_base: num(&mut kv, "port-base", 18080, 18080) as u16,
        nice: kv.remove("nice").map(|v| v.parse().unwrap_or_else(|_| usage())).unwrap_or(-10),
        wrk: kv.remove("wrk").unwrap_or_else(|| "wrk".into()),
        h2load: match kv.remove("h2load").as_deref() {
            Some("none") => None,
            Some(p) => Some(p.to_string()),
            None => Some("h2load".into()),
        },
        startup_only: match kv.remove("only").as_deref() {
            Some("startup") => true,
            Some(_) => usage(),
            None => false,
        },
        endpoints: match kv.remove("endpoints") {
            Some(list) => list
                .split(',')
                .filter(|k| !k.is_empty())
                .map(|k| ENDPOINTS.iter().position(|e| e.key == k).unwrap_or_else(|| usage()))
                .collect(),
            None => (0..ENDPOINTS.len()).collect(),
        },
        mode,
    };
    if let Some(k) = kv.keys().next() {
        eprintln!("unknown option --{k}");
        usage();
    }
    cfg
}

// -------------------------------------------------------------------- the model

#[derive(Debug, Clone, Copy)]
struct Endpoint {
    /// Its name for `--endpoints`.
    key: &'static str,
    name: &'static str,
    path: &'static str,
    body: usize,
}

const ENDPOINTS: &[Endpoint] = &[
    Endpoint { key: "hello", name: "hello", path: "/hello", body: 0 },
    Endpoint { key: "json", name: "json", path: "/json", body: 0 },
    Endpoint { key: "users", name: "users/{id}/orders/{order}", path: "/users/12345/orders/67890", body: 0 },
    Endpoint { key: "echo-1k", name: "echo 1 KiB", path: "/echo", body: 1024 },
    Endpoint { key: "echo-16k", name: "echo 16 KiB", path: "/echo", body: 16 * 1024 },
];

const H2_ENDPOINTS: &[usize] = &[0, 1];
/// The endpoint whose load gives the peak RSS (largest per-connection buffers).
const MEM_ENDPOINT: usize = 4;

/// One server process.
#[derive(Debug)]
struct Proc {
    name: String,
    bin: PathBuf,
    port: u16,
}

/// What a load run aims at: a process and a path prefix (Restlight's business
/// pool routes live under `/biz`).
#[derive(Debug, Clone)]
struct Target {
    label: String,
    proc_idx: usize,
    prefix: &'static str,
}

#[derive(Debug, Clone, Default)]
struct Sample {
    rps: f64,
    requests: f64,
    p99_us: Option<f64>,
    cpu_us_per_req: f64,
    /// The user-space part of `cpu_us_per_req`: the server's own code,
    /// without the kernel's socket work, which moves with timing more than
    /// with the server (see `Bench::measure`).
    user_us_per_req: f64,
    /// Server CPU time over the window / wall time of the window.
    busy: f64,
    /// CPU used by every other process (neither the server nor the load
    /// generator) over the window, in cores.
    others: f64,
    errors: u64,
    /// The round the window belongs to (a failed window leaves a gap).
    round: usize,
}

/// A window counts only when the server was the saturated side and nothing
/// else used the machine: otherwise it measured the client or the noise.
const MIN_BUSY: f64 = 0.90;
/// The most CPU other processes may use during a counted window, in cores.
const MAX_OTHERS: f64 = 0.10;

impl Sample {
    fn quiet(&self) -> bool {
        self.busy >= MIN_BUSY && self.others <= MAX_OTHERS
    }
}

/// The windows to report: the quiet ones, or all of them (flagged) when
/// none was quiet.
fn quiet_or_all(v: &[Sample]) -> (Vec<Sample>, bool) {
    let quiet: Vec<Sample> = v.iter().filter(|s| s.quiet()).cloned().collect();
    if quiet.is_empty() {
        (v.to_vec(), false)
    } else {
        (quiet, true)
    }
}

// ----------------------------------------------------------------- /proc access

fn clk_tck() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as f64
    } else {
        100.0
    }
}

/// utime and stime of the whole process (all threads), in clock ticks.
fn cpu_ticks(pid: u32) -> (u64, u64) {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = s.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    // After the ')' field 3 (state) is index 0, so utime (14) is 11, stime (15) is 12.
    let get = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    (get(11), get(12))
}

/// Busy ticks of the whole machine (all CPUs): everything but idle and
/// I/O wait, from the first line of /proc/stat.
fn system_busy_ticks() -> u64 {
    let s = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let f: Vec<u64> =
        s.lines().next().unwrap_or("").split_whitespace().skip(1).map(|v| v.parse().unwrap_or(0)).collect();
    let get = |i: usize| f.get(i).copied().unwrap_or(0);
    // user nice system idle iowait irq softirq steal
    get(0) + get(1) + get(2) + get(5) + get(6) + get(7)
}

/// CPU time of this process's waited-for children, in microseconds.
fn children_cpu_us() -> f64 {
    // SAFETY: a zeroed rusage is a valid out-parameter.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_CHILDREN with a valid pointer.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    let us = |t: libc::timeval| t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
    us(ru.ru_utime) + us(ru.ru_stime)
}

/// A `Vm*` line of /proc/PID/status, in KiB.
fn vm_kib(pid: u32, key: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find(|l| l.starts_with(key)).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok())
}

fn pin_self(cpu: usize) {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; the call only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

// ------------------------------------------------------------------ processes

/// Starts a server pinned to `cpu` (the same as `taskset -c CPU`, without an
/// extra exec in the startup time).
fn spawn_server(p: &Proc, cpu: Option<usize>) -> Child {
    let mut cmd = Command::new(&p.bin);
    cmd.arg("--port").arg(p.port.to_string()).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::inherit());
    if let Some(cpu) = cpu {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(cpu, &mut set);
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd.spawn().unwrap_or_else(|e| panic!("cannot start {}: {e}", p.bin.display()))
}

fn stop(mut c: Child) {
    let _ = c.kill();
    let _ = c.wait();
}

/// A minimal HTTP/1.1 exchange with `Connection: close`: (status, body).
fn http(port: u16, method: &str, path: &str, body: &[u8], timeout: Duration) -> std::io::Result<(u16, Vec<u8>)> {
    let addr: SocketAddr = format!("{HOST}:{port}").parse().expect("address");
    let mut s = TcpStream::connect_timeout(&addr, timeout)?;
    s.set_read_timeout(Some(timeout))?;
    s.set_write_timeout(Some(timeout))?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n");
    if !body.is_empty() || method == "POST" {
        let _ = write!(req, "Content-Type: application/octet-stream\r\nContent-Length: {}\r\n", body.len());
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes())?;
    s.write_all(body)?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)?;
    let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "malformed response");
    let split = buf.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(bad)?;
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let status: u16 = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let mut rest = buf[split + 4..].to_vec();
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        let mut out = Vec::new();
        let mut r = &rest[..];
        loop {
            let eol = r.windows(2).position(|w| w == b"\r\n").ok_or_else(bad)?;
            let size_str = String::from_utf8_lossy(&r[..eol]).to_string();
            let size = usize::from_str_radix(size_str.split(';').next().unwrap_or("").trim(), 16).map_err(|_| bad())?;
            r = &r[eol + 2..];
            if size == 0 {
                break;
            }
            if r.len() < size + 2 {
                return Err(bad());
            }
            out.extend_from_slice(&r[..size]);
            r = &r[size + 2..];
        }
        rest = out;
    }
    Ok((status, rest))
}

/// Time from exec to the first complete `200` answer to `GET /hello`.
fn wait_first_response(p: &Proc, started: Instant, limit: Duration) -> Option<Duration> {
    while started.elapsed() < limit {
        if let Ok((200, _)) = http(p.port, "GET", "/hello", b"", Duration::from_secs(2)) {
            return Some(started.elapsed());
        }
        sleep(Duration::from_micros(100));
    }
    None
}

fn wait_port_free(port: u16) {
    let addr: SocketAddr = format!("{HOST}:{port}").parse().expect("address");
    for _ in 0..200 {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(50)).is_err() {
            return;
        }
        sleep(Duration::from_millis(10));
    }
}

/// Checks that a target answers every endpoint as the service contract says.
fn verify(port: u16, prefix: &str) -> Result<(), String> {
    let t = Duration::from_secs(5);
    let get = |path: &str| http(port, "GET", &format!("{prefix}{path}"), b"", t).map_err(|e| format!("{path}: {e}"));
    let (s, b) = get("/hello")?;
    if s != 200 || b != b"Hello, World!" {
        return Err(format!("/hello: {s} {:?}", String::from_utf8_lossy(&b)));
    }
    let (s, b) = get("/json")?;
    let ok = serde_json::from_slice::<serde_json::Value>(&b)
        .map(|v| v == serde_json::json!({"message": "Hello, World!"}))
        .unwrap_or(false);
    if s != 200 || !ok {
        return Err(format!("/json: {s} {:?}", String::from_utf8_lossy(&b)));
    }
    let (s, b) = get("/users/12345/orders/67890")?;
    if s != 200 || b != b"user 12345 order 67890" {
        return Err(format!("/users/..: {s} {:?}", String::from_utf8_lossy(&b)));
    }
    // The decoys are the service's, at its root, whatever the target's prefix.
    let (s, b) = http(port, "GET", "/users/12345/decoy7", b"", t).map_err(|e| format!("decoy: {e}"))?;
    if s != 200 || b != b"decoy" {
        return Err(format!("decoy: {s} {:?}", String::from_utf8_lossy(&b)));
    }
    for n in [1024usize, 16 * 1024] {
        let body: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
        let (s, b) = http(port, "POST", &format!("{prefix}/echo"), &body, t).map_err(|e| format!("/echo: {e}"))?;
        if s != 200 || b != body {
            return Err(format!("/echo {n}: {s}, {} bytes back", b.len()));
        }
    }
    Ok(())
}

// ------------------------------------------------------------- load generators

fn pinned(cpu: Option<usize>, prog: &str) -> Command {
    match cpu {
        Some(c) => {
            let mut cmd = Command::new("taskset");
            cmd.arg("-c").arg(c.to_string()).arg(prog);
            cmd
        }
        None => Command::new(prog),
    }
}

/// Runs a command with a hard deadline; returns its stdout.
fn run_bounded(mut cmd: Command, limit: Duration) -> Option<String> {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null()).spawn().ok()?;
    let mut out = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                eprintln!("  load generator over its time limit: killed");
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            Ok(None) => sleep(Duration::from_millis(20)),
            Err(_) => break,
        }
    }
    reader.join().ok()
}

fn parse_duration_us(s: &str) -> Option<f64> {
    let (num, mul) = if let Some(v) = s.strip_suffix("us") {
        (v, 1.0)
    } else if let Some(v) = s.strip_suffix("ms") {
        (v, 1e3)
    } else if let Some(v) = s.strip_suffix('m') {
        (v, 60e6)
    } else if let Some(v) = s.strip_suffix('s') {
        (v, 1e6)
    } else {
        return None;
    };
    num.trim().parse::<f64>().ok().map(|n| n * mul)
}

struct LoadResult {
    rps: f64,
    requests: f64,
    p99_us: Option<f64>,
    errors: u64,
}

fn parse_wrk(out: &str) -> Option<LoadResult> {
    let mut rps = None;
    let mut requests = None;
    let mut p99 = None;
    let mut errors = 0;
    for line in out.lines() {
        let l = line.trim();
        if let Some(v) = l.strip_prefix("Requests/sec:") {
            rps = v.trim().parse().ok();
        } else if let Some(v) = l.strip_prefix("99%") {
            p99 = parse_duration_us(v.trim());
        } else if l.contains(" requests in ") {
            requests = l.split_whitespace().next().and_then(|v| v.parse().ok());
        } else if let Some(v) = l.strip_prefix("Non-2xx or 3xx responses:") {
            errors += v.trim().parse::<u64>().unwrap_or(0);
        } else if let Some(v) = l.strip_prefix("Socket errors:") {
            errors += v
                .split(',')
                .filter_map(|p| p.split_whitespace().last().and_then(|n| n.parse::<u64>().ok()))
                .sum::<u64>();
        }
    }
    Some(LoadResult { rps: rps?, requests: requests?, p99_us: p99, errors })
}

fn parse_h2load(out: &str) -> Option<LoadResult> {
    let mut rps = None;
    let mut requests = None;
    let mut errors = 0;
    for line in out.lines() {
        let l = line.trim();
        if let Some(v) = l.strip_prefix("finished in") {
            rps = v.split(',').nth(1).and_then(|p| p.trim().strip_suffix("req/s")).and_then(|n| n.trim().parse().ok());
        } else if let Some(v) = l.strip_prefix("requests:") {
            for part in v.split(',') {
                let mut it = part.split_whitespace();
                let (Some(n), Some(what)) = (it.next(), it.next()) else { continue };
                let n: u64 = n.parse().unwrap_or(0);
                match what {
                    "succeeded" => requests = Some(n as f64),
                    "failed" | "errored" | "timeout" => errors += n,
                    _ => {}
                }
            }
        } else if let Some(v) = l.strip_prefix("status codes:") {
            for part in v.split(',') {
                let mut it = part.split_whitespace();
                if let (Some(n), Some(k)) = (it.next(), it.next()) {
                    if k != "2xx" {
                        errors += n.parse::<u64>().unwrap_or(0);
                    }
                }
            }
        }
    }
    Some(LoadResult { rps: rps?, requests: requests?, p99_us: None, errors })
}

struct Bench<'a> {
    cfg: &'a Config,
    lua: BTreeMap<usize, PathBuf>,
}

impl Bench<'_> {
    fn wrk_cmd(&self, port: u16, ep: &Endpoint, prefix: &str, conns: u32, secs: u64) -> Command {
        let mut cmd = pinned(self.cfg.client_cpu, &self.cfg.wrk);
        cmd.args(["-t1", &format!("-c{conns}"), &format!("-d{secs}s"), "--latency", "--timeout", "5s"]);
        if ep.body > 0 {
            cmd.arg("-s").arg(&self.lua[&ep.body]);
        }
        cmd.arg(format!("http://{HOST}:{port}{prefix}{}", ep.path));
        cmd
    }

    /// One measured cell: the load generator's figures plus the server's CPU
    /// ticks over the same window. Its user-space part is kept apart too:
    /// over HTTP/1.1 on loopback most of a request's CPU time is the
    /// kernel's, and not all of it is the server's (on loopback a write's
    /// delivery into the peer's socket runs inside the writer's system
    /// call), so the whole figure moves between windows by more than the
    /// servers differ, while the user-space one is the server's own code.
    fn measure(&self, pid: u32, cmd: Command, secs: u64, h2: bool) -> Option<Sample> {
        let t0 = cpu_ticks(pid);
        let (sys0, client0) = (system_busy_ticks(), children_cpu_us());
        let w0 = Instant::now();
        let out = run_bounded(cmd, Duration::from_secs(secs + 20))?;
        let t1 = cpu_ticks(pid);
        let user_us = (t1.0.saturating_sub(t0.0)) as f64 / clk_tck() * 1e6;
        let (sys1, client1) = (system_busy_ticks(), children_cpu_us());
        let wall = w0.elapsed().as_secs_f64();
        let r = if h2 { parse_h2load(&out) } else { parse_wrk(&out) };
        let Some(r) = r else {
            eprintln!("  could not parse the load generator's output:\n{out}");
            return None;
        };
        let cpu_us = ((t1.0 + t1.1).saturating_sub(t0.0 + t0.1)) as f64 / clk_tck() * 1e6;
        let system_us = sys1.saturating_sub(sys0) as f64 / clk_tck() * 1e6;
        let others = ((system_us - cpu_us - (client1 - client0)) / 1e6 / wall).max(0.0);
        Some(Sample {
            rps: r.rps,
            requests: r.requests,
            p99_us: r.p99_us,
            cpu_us_per_req: if r.requests > 0.0 { cpu_us / r.requests } else { f64::NAN },
            user_us_per_req: if r.requests > 0.0 { user_us / r.requests } else { f64::NAN },
            busy: cpu_us / 1e6 / wall,
            others,
            errors: r.errors,
            round: 0,
        })
    }
}

// -------------------------------------------------------------------- output

/// `--only startup`: each server's exec to first response (median and
/// fastest of its runs) and stripped size, against the first server listed.
/// Copy the binaries compared into `--bin-dir` together, right before the
/// run: a copy made long before starts differently (how its file's pages
/// sit in the page cache), by more than most changes to a start.
fn print_startup(procs: &[Proc], startup: &BTreeMap<String, Vec<f64>>, size: &BTreeMap<String, f64>) {
    let runs = startup.values().map(Vec::len).max().unwrap_or(0);
    println!(
        "| server | exec to first response (median of {runs}) | vs first | fastest | slow starts | stripped binary | vs first |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let med = |n: &str| startup.get(n).map(|v| median(v.clone())).unwrap_or(f64::NAN);
    let first = &procs[0].name;
    let mut slowed = Vec::new();
    for p in procs {
        let starts = startup.get(&p.name).map(Vec::as_slice).unwrap_or_default();
        let fastest = starts.iter().copied().reduce(f64::min).unwrap_or(f64::NAN);
        let slow = slow_starts(starts);
        let flagged = is_slowed(slow, starts.len());
        if flagged {
            slowed.push(p.name.as_str());
        }
        println!(
            "| {} | {:.0} µs{} | {:.2}x | {:.0} µs | {slow} | {:.0} B | {:.2}x |",
            p.name,
            med(&p.name),
            if flagged { " **slowed**" } else { "" },
            med(&p.name) / med(first),
            fastest,
            size[&p.name],
            size[&p.name] / size[first]
        );
    }
    if !slowed.is_empty() {
        println!("\n> {SLOWED_NOTE} Slowed here: {}.", slowed.join(", "));
    }
}

/// What a start flagged **slowed** means, printed under the tables that
/// flag one.
const SLOWED_NOTE: &str = "A server's starts are flagged **slowed** when more than a tenth of them, and at least \
     two, took over three times its fastest: something else on the machine held them up (on the virtual machines \
     these figures come from, whole runs of one server's starts, any server's, sometimes take 5-11 ms). Its \
     median and its ratios are not the server's; run again.";

/// How many of a server's starts took over three times its fastest.
fn slow_starts(starts: &[f64]) -> usize {
    let fastest = starts.iter().copied().fold(f64::INFINITY, f64::min);
    starts.iter().filter(|&&t| t > 3.0 * fastest).count()
}

/// Whether `slow` starts of `runs` ([`slow_starts`]) flag a server: more
/// than a tenth, and at least two (one slow start alone does not move a
/// median).
fn is_slowed(slow: usize, runs: usize) -> bool {
    slow >= 2 && slow * 10 > runs
}

fn median(mut v: Vec<f64>) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn ratio(x: f64, base: f64) -> String {
    if x.is_finite() && base.is_finite() && base > 0.0 {
        format!("{:.2}x", x / base)
    } else {
        "n/a".into()
    }
}

fn fmt_us(us: f64) -> String {
    if !us.is_finite() {
        "n/a".into()
    } else if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

fn fmt_kib(k: f64) -> String {
    if !k.is_finite() {
        "n/a".into()
    } else if k >= 1024.0 {
        format!("{:.1} MiB", k / 1024.0)
    } else {
        format!("{k:.0} KiB")
    }
}

fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().next().map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_string()))
        .and_then(|k| k.parse::<f64>().ok())
        .map(|k| format!("{:.1} GiB", k / 1024.0 / 1024.0))
        .unwrap_or_default();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!("{cores} cores ({model}), {mem} RAM, Linux {}", kernel.trim())
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn tool_version(prog: &str, arg: &str) -> String {
    Command::new(prog)
        .arg(arg)
        .output()
        .ok()
        .map(|o| {
            let s = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            s.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string()
        })
        .unwrap_or_else(|| "missing".into())
}

// ---------------------------------------------------------------------- main

fn main() {
    let cfg = parse_args();
    let began = Instant::now();
    std::fs::create_dir_all(&cfg.out_dir).expect("out dir");
    let machine = machine();
    let load_before = loadavg();
    // Servers and load generators inherit this niceness: on a machine shared
    // with other work it keeps the measured processes from being preempted.
    // SAFETY: setpriority has no memory-safety preconditions.
    let niced = cfg.nice != 0 && unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, cfg.nice) } == 0;
    if let Some(c) = cfg.client_cpu {
        pin_self(c);
    }
    let mut procs = Vec::new();
    for (i, name) in cfg.servers.iter().enumerate() {
        let bin = cfg.bin_dir.join(name);
        if !bin.exists() {
            eprintln!("skipping {name}: no binary at {}", bin.display());
            continue;
        }
        procs.push(Proc { name: name.clone(), bin, port: cfg.port_base + i as u16 });
    }
    if procs.is_empty() {
        eprintln!("no server binaries found in {}", cfg.bin_dir.display());
        std::process::exit(1);
    }
    let mut targets: Vec<Target> = Vec::new();
    for (i, p) in procs.iter().enumerate() {
        targets.push(Target { label: p.name.clone(), proc_idx: i, prefix: "" });
        if p.name == "restlight" {
            targets.push(Target { label: "restlight (biz pool)".into(), proc_idx: i, prefix: "/biz" });
        }
    }
    let mut lua = BTreeMap::new();
    for ep in ENDPOINTS.iter().filter(|e| e.body > 0) {
        let path = cfg.out_dir.join(format!("post_{}.lua", ep.body));
        let script = format!(
            "wrk.method = \"POST\"\nwrk.body = string.rep(\"a\", {})\nwrk.headers[\"Content-Type\"] = \"application/octet-stream\"\n",
            ep.body
        );
        std::fs::write(&path, script).expect("lua script");
        lua.insert(ep.body, path);
    }
    let bench = Bench { cfg: &cfg, lua };
    let has_h2 = cfg.h2load.as_deref().map(|p| tool_version(p, "--version") != "missing").unwrap_or(false);
    eprintln!(
        "loadbench {} mode: {} servers, {} s x {} rounds per HTTP/1.1 cell, server cpu {:?}, client cpu {:?}",
        cfg.mode,
        procs.len(),
        cfg.duration,
        cfg.rounds,
        cfg.server_cpu,
        cfg.client_cpu
    );

    // 1. Stripped binary sizes.
    let strip_dir = cfg.out_dir.join("stripped");
    std::fs::create_dir_all(&strip_dir).expect("strip dir");
    let mut size = BTreeMap::new();
    for p in &procs {
        let dst = strip_dir.join(&p.name);
        let ok = Command::new("strip").arg("-o").arg(&dst).arg(&p.bin).status().map(|s| s.success()).unwrap_or(false);
        let bytes = if ok { std::fs::metadata(&dst).map(|m| m.len() as f64).unwrap_or(f64::NAN) } else { f64::NAN };
        size.insert(p.name.clone(), bytes);
    }

    // 2. Startup time (interleaved), idle RSS and peak RSS on fresh processes.
    eprintln!("startup: {} runs per server", cfg.startup_runs);
    let mut startup: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for _ in 0..cfg.startup_runs {
        for p in &procs {
            wait_port_free(p.port);
            let t0 = Instant::now();
            let child = spawn_server(p, cfg.server_cpu);
            let d = wait_first_response(p, t0, Duration::from_secs(10));
            stop(child);
            match d {
                Some(d) => startup.entry(p.name.clone()).or_default().push(d.as_secs_f64() * 1e6),
                None => eprintln!("  {} did not answer within 10 s", p.name),
            }
        }
    }
    if cfg.startup_only {
        print_startup(&procs, &startup, &size);
        return;
    }
    let mut idle_rss = BTreeMap::new();
    let mut peak_rss = BTreeMap::new();
    let mem_ep = &ENDPOINTS[MEM_ENDPOINT];
    eprintln!("memory: idle, then {} s of 256 connections on {}", cfg.mem_secs, mem_ep.name);
    for p in &procs {
        wait_port_free(p.port);
        let t0 = Instant::now();
        let child = spawn_server(p, cfg.server_cpu);
        if wait_first_response(p, t0, Duration::from_secs(10)).is_none() {
            stop(child);
            continue;
        }
        sleep(Duration::from_millis(500));
        idle_rss.insert(p.name.clone(), vm_kib(child.id(), "VmRSS:").map(|k| k as f64).unwrap_or(f64::NAN));
        let cmd = bench.wrk_cmd(p.port, mem_ep, "", 256, cfg.mem_secs);
        let _ = run_bounded(cmd, Duration::from_secs(cfg.mem_secs + 20));
        peak_rss.insert(p.name.clone(), vm_kib(child.id(), "VmHWM:").map(|k| k as f64).unwrap_or(f64::NAN));
        stop(child);
    }

    // 3. All servers up at once for the throughput rounds.
    let mut children = Vec::new();
    for p in &procs {
        wait_port_free(p.port);
        let t0 = Instant::now();
        let c = spawn_server(p, cfg.server_cpu);
        if wait_first_response(p, t0, Duration::from_secs(10)).is_none() {
            eprintln!("{} did not start", p.name);
        }
        children.push(c);
    }
    let pids: Vec<u32> = children.iter().map(Child::id).collect();
    let mut live = Vec::new();
    for t in &targets {
        match verify(procs[t.proc_idx].port, t.prefix) {
            Ok(()) => live.push(t.clone()),
            Err(e) => eprintln!("  {} fails the service contract, left out: {e}", t.label),
        }
    }
    eprintln!("warm-up: {} s per target", cfg.warmup);
    for t in &live {
        let p = &procs[t.proc_idx];
        let secs = cfg.warmup.max(1);
        let _ = run_bounded(
            bench.wrk_cmd(p.port, &ENDPOINTS[2], t.prefix, cfg.conns, secs),
            Duration::from_secs(secs + 20),
        );
    }

    let mut h1: BTreeMap<(usize, String), Vec<Sample>> = BTreeMap::new();
    for round in 0..cfg.rounds {
        eprintln!("HTTP/1.1 round {}/{}", round + 1, cfg.rounds);
        for &ei in &cfg.endpoints {
            let ep = &ENDPOINTS[ei];
            for t in &live {
                let p = &procs[t.proc_idx];
                let cmd = bench.wrk_cmd(p.port, ep, t.prefix, cfg.conns, cfg.duration);
                if let Some(s) = bench.measure(pids[t.proc_idx], cmd, cfg.duration, false) {
                    h1.entry((ei, t.label.clone())).or_default().push(Sample { round, ..s });
                }
            }
        }
    }
    let mut h2: BTreeMap<(usize, String), Vec<Sample>> = BTreeMap::new();
    if has_h2 {
        let h2load = cfg.h2load.clone().unwrap_or_default();
        for round in 0..cfg.h2_rounds {
            eprintln!("h2c round {}/{}", round + 1, cfg.h2_rounds);
            for &ei in H2_ENDPOINTS.iter().filter(|ei| cfg.endpoints.contains(ei)) {
                let ep = &ENDPOINTS[ei];
                for t in live.iter().filter(|t| t.prefix.is_empty()) {
                    let p = &procs[t.proc_idx];
                    let mut cmd = pinned(cfg.client_cpu, &h2load);
                    cmd.args([
                        "-t1",
                        &format!("-c{}", cfg.h2_conns),
                        &format!("-m{}", cfg.h2_streams),
                        &format!("-D{}", cfg.h2_duration),
                        &format!("http://{HOST}:{}{}", p.port, ep.path),
                    ]);
                    if let Some(s) = bench.measure(pids[t.proc_idx], cmd, cfg.h2_duration, true) {
                        h2.entry((ei, t.label.clone())).or_default().push(Sample { round, ..s });
                    }
                }
            }
        }
    } else {
        eprintln!("h2load not found: h2c skipped");
    }
    for c in children {
        stop(c);
    }

    // 4. Report.
    let mut md = String::new();
    let _ = writeln!(
        md,
        "<!-- loadbench {} mode; {machine}; load average before {load_before}, after {}; nice {} -->",
        cfg.mode,
        loadavg(),
        if niced { cfg.nice.to_string() } else { "not applied".into() }
    );
    // The load average is no guide here: the server and the load generator
    // keep both cores busy by design. Each window is judged instead.
    let windows: Vec<&Sample> = h1.values().chain(h2.values()).flatten().collect();
    let noisy = windows.iter().filter(|s| !s.quiet()).count();
    let _ = writeln!(
        md,
        "\n> {} of {} windows were quiet: the server at least {:.0}% busy (it, not the load generator, was the \
         bottleneck) and other processes using at most {:.2} of a core. Only quiet windows count; a cell with none \
         is flagged **noisy** and reported from all its windows.",
        windows.len() - noisy,
        windows.len(),
        MIN_BUSY * 100.0,
        MAX_OTHERS
    );
    let _ = writeln!(
        md,
        "\n#### HTTP/1.1 (wrk, 1 thread, {} connections, {} s x {} interleaved rounds, median)\n",
        cfg.conns, cfg.duration, cfg.rounds
    );
    let _ = writeln!(
        md,
        "| endpoint | server | req/s | vs hyper | p99 | vs hyper | server CPU/req | vs hyper | of it user space | vs hyper | server busy | quiet windows | errors |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let agg = |v: &[Sample]| -> (f64, f64, f64, u64, f64) {
        (
            median(v.iter().map(|s| s.rps).collect()),
            median(v.iter().filter_map(|s| s.p99_us).collect()),
            median(v.iter().map(|s| s.cpu_us_per_req).collect()),
            v.iter().map(|s| s.errors).sum(),
            median(v.iter().map(|s| s.user_us_per_req).collect()),
        )
    };
    let busy = |v: &[Sample]| median(v.iter().map(|s| s.busy).collect());
    // Only quiet windows count (see `Sample::quiet`); a cell without any is
    // reported from all its windows and flagged.
    let quiet_count = |v: &[Sample]| format!("{}/{}", v.iter().filter(|s| s.quiet()).count(), v.len());
    let flag = |quiet: bool| if quiet { "" } else { " **noisy**" };
    let mut tsv = String::from(
        "proto\tendpoint\tserver\tround\trps\trequests\tp99_us\tcpu_us_per_req\tserver_busy\tothers_cores\terrors\tuser_us_per_req\n",
    );
    for (ei, ep) in ENDPOINTS.iter().enumerate() {
        let base = h1.get(&(ei, "hyper".to_string())).map(|v| agg(&quiet_or_all(v).0));
        for t in &live {
            let Some(v) = h1.get(&(ei, t.label.clone())) else { continue };
            for s in v {
                let _ = writeln!(
                    tsv,
                    "h1\t{}\t{}\t{}\t{:.1}\t{}\t{}\t{:.3}\t{:.2}\t{:.2}\t{}\t{:.3}",
                    ep.name,
                    t.label,
                    s.round,
                    s.rps,
                    s.requests,
                    s.p99_us.map(|p| format!("{p:.1}")).unwrap_or_default(),
                    s.cpu_us_per_req,
                    s.busy,
                    s.others,
                    s.errors,
                    s.user_us_per_req
                );
            }
            let (kept, quiet) = quiet_or_all(v);
            let (rps, p99, cpu, err, user) = agg(&kept);
            let (brps, bp99, bcpu, buser) =
                base.map(|b| (b.0, b.1, b.2, b.4)).unwrap_or((f64::NAN, f64::NAN, f64::NAN, f64::NAN));
            let _ = writeln!(
                md,
                "| {} | {} | {:.0} | {} | {} | {} | {:.2} µs{} | {} | {:.2} µs | {} | {:.0}% | {} | {} |",
                ep.name,
                t.label,
                rps,
                ratio(rps, brps),
                fmt_us(p99),
                ratio(p99, bp99),
                cpu,
                flag(quiet),
                ratio(cpu, bcpu),
                user,
                ratio(user, buser),
                busy(&kept) * 100.0,
                quiet_count(v),
                err
            );
        }
    }
    // The medians above compare each server's typical window with raw
    // hyper's; when the machine's speed moves between windows (a virtual
    // machine's host can make every request 20% dearer for a while), the
    // two medians may come from different states. A ratio taken within each
    // round (the same endpoint, a minute apart at most) cancels a slow drift.
    let _ = writeln!(
        md,
        "\n#### HTTP/1.1, paired: CPU per request over raw hyper's in the same round, median over rounds\n\n\
         Rounds count where both windows were quiet (all rounds when none has both); the range is the \
         cheapest and the dearest of those rounds' ratios. Raw hyper's \
         spread is its dearest window over its cheapest: far above 1.05x, the machine's speed moved during the run, \
         and the paired ratio is the safer figure.\n"
    );
    let _ = writeln!(md, "| endpoint | server | CPU/req vs hyper, paired | range | rounds | raw hyper's spread |");
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|");
    for (ei, ep) in ENDPOINTS.iter().enumerate() {
        let Some(hv) = h1.get(&(ei, "hyper".to_string())) else { continue };
        let spread = {
            let costs: Vec<f64> = hv.iter().map(|s| s.cpu_us_per_req).collect();
            costs.iter().copied().fold(f64::MIN, f64::max) / costs.iter().copied().fold(f64::MAX, f64::min)
        };
        for t in live.iter().filter(|t| t.label != "hyper") {
            let Some(v) = h1.get(&(ei, t.label.clone())) else { continue };
            let pairs: Vec<(&Sample, &Sample)> =
                v.iter().filter_map(|a| hv.iter().find(|b| b.round == a.round).map(|b| (a, b))).collect();
            let both_quiet: Vec<f64> = pairs
                .iter()
                .filter(|(a, b)| a.quiet() && b.quiet())
                .map(|(a, b)| a.cpu_us_per_req / b.cpu_us_per_req)
                .collect();
            let ratios = if both_quiet.is_empty() {
                pairs.iter().map(|(a, b)| a.cpu_us_per_req / b.cpu_us_per_req).collect()
            } else {
                both_quiet
            };
            let rounds = ratios.len();
            let finite: Vec<f64> = ratios.iter().copied().filter(|r| r.is_finite()).collect();
            let range = if finite.is_empty() {
                "-".to_owned()
            } else {
                let low = finite.iter().copied().fold(f64::MAX, f64::min);
                let high = finite.iter().copied().fold(f64::MIN, f64::max);
                format!("{low:.2}x-{high:.2}x")
            };
            let _ = writeln!(
                md,
                "| {} | {} | {:.2}x | {range} | {rounds} | {spread:.2}x |",
                ep.name,
                t.label,
                median(ratios)
            );
        }
    }
    if !h2.is_empty() {
        let _ = writeln!(
            md,
            "\n#### h2c by prior knowledge (h2load, 1 thread, {} connections x {} streams, {} s x {} rounds, median)\n",
            cfg.h2_conns, cfg.h2_streams, cfg.h2_duration, cfg.h2_rounds
        );
        let _ =
            writeln!(md, "| endpoint | server | req/s | vs hyper | server CPU/req | vs hyper | of it user space | vs hyper | server busy | quiet windows | errors |");
        let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for &ei in H2_ENDPOINTS {
            let base = h2.get(&(ei, "hyper".to_string())).map(|v| agg(&quiet_or_all(v).0));
            for t in live.iter().filter(|t| t.prefix.is_empty()) {
                let Some(v) = h2.get(&(ei, t.label.clone())) else { continue };
                for s in v {
                    let _ = writeln!(
                        tsv,
                        "h2c\t{}\t{}\t{}\t{:.1}\t{}\t\t{:.3}\t{:.2}\t{:.2}\t{}\t{:.3}",
                        ENDPOINTS[ei].name,
                        t.label,
                        s.round,
                        s.rps,
                        s.requests,
                        s.cpu_us_per_req,
                        s.busy,
                        s.others,
                        s.errors,
                        s.user_us_per_req
                    );
                }
                let (kept, quiet) = quiet_or_all(v);
                let (rps, _, cpu, err, user) = agg(&kept);
                let (brps, bcpu, buser) = base.map(|b| (b.0, b.2, b.4)).unwrap_or((f64::NAN, f64::NAN, f64::NAN));
                let _ = writeln!(
                    md,
                    "| {} | {} | {:.0} | {} | {:.2} µs{} | {} | {:.2} µs | {} | {:.0}% | {} | {} |",
                    ENDPOINTS[ei].name,
                    t.label,
                    rps,
                    ratio(rps, brps),
                    cpu,
                    flag(quiet),
                    ratio(cpu, bcpu),
                    user,
                    ratio(user, buser),
                    busy(&kept) * 100.0,
                    quiet_count(v),
                    err
                );
            }
        }
    }
    let _ = writeln!(
        md,
        "\n#### Process (startup: median of {} interleaved runs; memory on a fresh process; peak = VmHWM after {} s of 256 connections on {})\n",
        cfg.startup_runs, cfg.mem_secs, mem_ep.name
    );
    let _ = writeln!(md, "| server | exec to first response | vs hyper | idle RSS | vs hyper | peak RSS | vs hyper | stripped binary | vs hyper |");
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let get = |m: &BTreeMap<String, f64>, k: &str| m.get(k).copied().unwrap_or(f64::NAN);
    let su: BTreeMap<String, f64> = startup.iter().map(|(k, v)| (k.clone(), median(v.clone()))).collect();
    let slowed = |n: &str| startup.get(n).is_some_and(|v| is_slowed(slow_starts(v), v.len()));
    for p in &procs {
        let n = p.name.as_str();
        let _ = writeln!(
            md,
            "| {} | {}{} | {} | {} | {} | {} | {} | {} | {} |",
            n,
            fmt_us(get(&su, n)),
            if slowed(n) { " **slowed**" } else { "" },
            ratio(get(&su, n), get(&su, "hyper")),
            fmt_kib(get(&idle_rss, n)),
            ratio(get(&idle_rss, n), get(&idle_rss, "hyper")),
            fmt_kib(get(&peak_rss, n)),
            ratio(get(&peak_rss, n), get(&peak_rss, "hyper")),
            fmt_kib(get(&size, n) / 1024.0),
            ratio(get(&size, n), get(&size, "hyper")),
        );
        let _ = writeln!(
            tsv,
            "proc\t\t{n}\t\t\t\t\t\t\tstartup_us={:?} idle_kib={} peak_kib={} stripped_bytes={}",
            startup.get(n),
            get(&idle_rss, n),
            get(&peak_rss, n),
            get(&size, n)
        );
    }
    if procs.iter().any(|p| slowed(&p.name)) {
        let _ = writeln!(md, "\n> {SLOWED_NOTE}");
    }
    let _ = writeln!(
        md,
        "\n<!-- wrk: {}; h2load: {}; total time {:.0} s -->",
        tool_version(&cfg.wrk, "-v"),
        cfg.h2load.as_deref().map(|p| tool_version(p, "--version")).unwrap_or_else(|| "none".into()),
        began.elapsed().as_secs_f64()
    );
    print!("{md}");
    let _ = std::fs::write(cfg.out_dir.join("results.md"), &md);
    let _ = std::fs::write(cfg.out_dir.join("samples.tsv"), &tsv);
    eprintln!(
        "done in {:.0} s; results in {} and samples.tsv",
        began.elapsed().as_secs_f64(),
        cfg.out_dir.join("results.md").display()
    );
}
