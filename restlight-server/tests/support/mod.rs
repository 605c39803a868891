//! Helpers shared by the socket-level tests: a server with short timeouts and
//! a raw HTTP/1 client that shows exactly what went over the wire.
#![allow(dead_code)] // each test binary uses a different part of this

use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use restlight_core::get;
use restlight_server::Restlight;

/// A builder on 127.0.0.1, port 0, few threads and test-sized timeouts.
pub fn restlight() -> Restlight {
    Restlight::new()
        .bind(Ipv4Addr::LOCALHOST)
        .port(0)
        .io_threads(2)
        .biz_threads(1)
        .shutdown_timeout(Duration::from_secs(5))
        .header_read_timeout(Duration::from_secs(5))
        .idle_timeout(Duration::from_secs(5))
}

/// [`restlight`] with `GET /ping` answering `pong`.
pub fn with_ping() -> Restlight {
    restlight().route(get("/ping").handle(|_ctx| async { "pong" }))
}

pub fn url(addr: SocketAddr, path: &str) -> String {
    format!("http://{addr}{path}")
}

/// A response as read off the socket.
#[derive(Debug)]
pub struct RawResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A blocking TCP client speaking HTTP/1 by hand.
#[derive(Debug)]
pub struct Raw {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Raw {
    pub fn connect(addr: SocketAddr) -> Self {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        Self { stream, buf: Vec::new() }
    }

    pub fn send(&mut self, bytes: impl AsRef<[u8]>) {
        self.stream.write_all(bytes.as_ref()).expect("write");
    }

    /// Reads one response (Content-Length or chunked body).
    pub fn response(&mut self) -> RawResponse {
        let head_end = loop {
            if let Some(at) = find(&self.buf, b"\r\n\r\n") {
                break at;
            }
            assert!(self.fill() > 0, "connection closed before a response: {:?}", self.lossy());
        };
        let head = String::from_utf8(self.buf[..head_end].to_vec()).expect("utf-8 head");
        self.buf.drain(..head_end + 4);
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap();
        let status = status_line.split(' ').nth(1).and_then(|s| s.parse().ok()).expect(status_line);
        let headers: Vec<(String, String)> = lines
            .map(|line| {
                let (name, value) = line.split_once(':').expect(line);
                (name.trim().to_owned(), value.trim().to_owned())
            })
            .collect();
        let mut response = RawResponse { status, headers, body: Vec::new() };
        if let Some(len) = response.header("content-length") {
            let len: usize = len.parse().unwrap();
            response.body = self.take(len);
        } else if response.header("transfer-encoding").is_some_and(|te| te.contains("chunked")) {
            loop {
                let line = self.line();
                let size = usize::from_str_radix(line.split(';').next().unwrap().trim(), 16).unwrap();
                let chunk = self.take(size);
                self.line();
                if size == 0 {
                    break;
                }
                response.body.extend(chunk);
            }
        }
        response
    }

    /// Waits for the server to close the connection, discarding what it
    /// sends; returns how long that took, or `None` if it stayed open `max`.
    pub fn closed_within(&mut self, max: Duration) -> Option<Duration> {
        let start = Instant::now();
        self.stream.set_read_timeout(Some(max)).unwrap();
        let mut chunk = [0_u8; 4096];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(0) => return Some(start.elapsed()),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(err) if matches!(err.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => return None,
                Err(_) => return Some(start.elapsed()), // reset counts as closed
            }
            if start.elapsed() > max {
                return None;
            }
        }
    }

    /// Writes without panicking; `false` when the server has closed.
    pub fn try_send(&mut self, bytes: impl AsRef<[u8]>) -> bool {
        self.stream.write_all(bytes.as_ref()).is_ok()
    }

    /// Without waiting: whether the server has answered or closed.
    pub fn server_gave_up(&mut self) -> bool {
        let mut chunk = [0_u8; 4096];
        self.stream.set_nonblocking(true).unwrap();
        let read = self.stream.read(&mut chunk);
        self.stream.set_nonblocking(false).unwrap();
        match read {
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                true
            }
            Err(err) => err.kind() != ErrorKind::WouldBlock,
        }
    }

    /// Whether the server closes the connection within 200 ms, answering
    /// nothing.
    pub fn server_closed_soon(&mut self) -> bool {
        self.stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
        let mut chunk = [0_u8; 1];
        let closed = match self.stream.peek(&mut chunk) {
            Ok(0) => true,
            Ok(_) => false,
            Err(err) => !matches!(err.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
        };
        self.stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        closed
    }

    /// The next HTTP/2 frame the server sends: its type, flags, stream and
    /// payload (waits for the whole frame).
    pub fn h2_frame(&mut self) -> (u8, u8, u32, Vec<u8>) {
        let head = self.take(9);
        let len = usize::from(head[0]) << 16 | usize::from(head[1]) << 8 | usize::from(head[2]);
        let stream = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
        (head[3], head[4], stream, self.take(len))
    }

    /// Everything received and not yet consumed.
    pub fn received(&self) -> &[u8] {
        &self.buf
    }

    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }

    fn fill(&mut self) -> usize {
        let mut chunk = [0_u8; 4096];
        let n = self.stream.read(&mut chunk).expect("read");
        self.buf.extend_from_slice(&chunk[..n]);
        n
    }

    fn take(&mut self, len: usize) -> Vec<u8> {
        while self.buf.len() < len {
            assert!(self.fill() > 0, "connection closed inside a body");
        }
        self.buf.drain(..len).collect()
    }

    fn line(&mut self) -> String {
        loop {
            if let Some(at) = find(&self.buf, b"\r\n") {
                let line = String::from_utf8_lossy(&self.buf[..at]).into_owned();
                self.buf.drain(..at + 2);
                return line;
            }
            assert!(self.fill() > 0, "connection closed inside a chunk");
        }
    }

    fn lossy(&self) -> String {
        String::from_utf8_lossy(&self.buf).into_owned()
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A GET request for `path` with a Host header and keep-alive.
pub fn get_request(path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n")
}

/// Polls until connecting to `addr` is refused; panics after `max`.
pub fn wait_refused(addr: SocketAddr, max: Duration) -> Duration {
    let start = Instant::now();
    loop {
        match TcpStream::connect_timeout(&addr, Duration::from_millis(200)) {
            Err(err) if err.kind() == ErrorKind::ConnectionRefused => return start.elapsed(),
            _ => {}
        }
        assert!(start.elapsed() < max, "{addr} still accepts connections after {max:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// HTTP/2 prior-knowledge preface.
pub const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// An empty HTTP/2 SETTINGS frame.
pub const H2_EMPTY_SETTINGS: &[u8] = &[0, 0, 0, 4, 0, 0, 0, 0, 0];

/// The HTTP/2 GOAWAY frame type.
pub const H2_GOAWAY: u8 = 7;

/// The frame types in a run of HTTP/2 frames (stops at a partial frame).
pub fn h2_frame_types(mut bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    while bytes.len() >= 9 {
        let len = usize::from(bytes[0]) << 16 | usize::from(bytes[1]) << 8 | usize::from(bytes[2]);
        types.push(bytes[3]);
        if bytes.len() < 9 + len {
            break;
        }
        bytes = &bytes[9 + len..];
    }
    types
}

/// A temporary file holding `text`, removed on drop; its name ends with
/// `name`.
#[derive(Debug)]
pub struct TempFile(tempfile::NamedTempFile);

impl TempFile {
    pub fn new(name: &str, text: &str) -> Self {
        let mut file =
            tempfile::Builder::new().prefix("restlight-test-").suffix(name).tempfile().expect("create a temp file");
        file.write_all(text.as_bytes()).expect("write a temp file");
        Self(file)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The path as a TOML string.
    pub fn toml(&self) -> String {
        toml_path(self.path())
    }
}

/// `path` as a TOML string.
pub fn toml_path(path: &Path) -> String {
    format!("{:?}", path.display().to_string())
}

/// The name of the thread this runs on.
pub fn thread_name() -> String {
    std::thread::current().name().unwrap_or_default().to_owned()
}

/// An HTTP/1.1 client.
pub fn http1_client() -> reqwest::Client {
    reqwest::Client::builder().http1_only().build().expect("an HTTP/1.1 client")
}

/// An h2c client (HTTP/2 with prior knowledge).
pub fn h2c_client() -> reqwest::Client {
    reqwest::Client::builder().http2_prior_knowledge().build().expect("an h2c client")
}

/// `GET path` on a connection of its own.
pub fn fetch(addr: SocketAddr, path: &str) -> RawResponse {
    let mut raw = Raw::connect(addr);
    raw.send(get_request(path));
    raw.response()
}

/// The body as JSON; panics with the body when it is not.
pub fn json(res: &RawResponse) -> serde_json::Value {
    serde_json::from_slice(&res.body).unwrap_or_else(|e| panic!("{e}: {}", res.text()))
}

/// The metrics of the server's executor `name`.
pub fn metrics(server: &restlight_server::ServerHandle, name: &str) -> restlight_core::ExecutorMetrics {
    server.executors().into_iter().find(|m| m.name == name).unwrap_or_else(|| panic!("no executor {name}"))
}

/// Polls `f` until it holds, for up to three seconds.
pub fn eventually(what: &str, f: impl Fn() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(3), "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}
