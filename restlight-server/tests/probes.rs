//! The probe table: malformed, smuggling and abusive requests sent over raw
//! sockets to a real server, each with the answer RFC 9110, 9112 or 9113
//! asks of a server, and a normal request served after the lot.
//!
//! HTTP/1.1 probes are bytes written on a fresh connection; HTTP/2 probes
//! are frames written by hand after the h2c preface (HPACK literals without
//! Huffman coding), so a probe can say what the `h2` client crate refuses to
//! send. Every read has a bound; nothing waits on a timer of the server's.

mod support;

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use restlight_core::{get, post, RequestContext};
use restlight_server::ServerHandle;
use support::{get_request, restlight, Raw, H2_PREFACE};

/// The longest a probe waits for an answer or for the connection to close.
const BOUND: Duration = Duration::from_secs(5);

/// The configured header-section limit (hyper's count includes the request
/// line).
const MAX_HEADER_SIZE: usize = 8192;

/// The configured most header fields.
const MAX_HEADERS: usize = 32;

fn server(smuggled: &Arc<AtomicUsize>) -> ServerHandle {
    let hits = Arc::clone(smuggled);
    let hits_post = Arc::clone(smuggled);
    // Timeouts far past `BOUND`, so a connection seen closed was closed
    // by the answer, never by a timer.
    restlight()
        .header_read_timeout(Duration::from_secs(60))
        .idle_timeout(Duration::from_secs(60))
        .max_header_size(MAX_HEADER_SIZE)
        .max_headers(MAX_HEADERS)
        .max_body_size(1024)
        .route(get("/ping").handle(|_ctx| async { "pong" }))
        .route(post("/echo").handle(|ctx: RequestContext| async move { ctx.body().len().to_string() }))
        .route(get("/files/{path: .*}").handle(|ctx: RequestContext| async move {
            format!("file {}", ctx.path_param("path").unwrap_or_default())
        }))
        .route(get("/authority").handle(|ctx: RequestContext| async move {
            let target = ctx.uri().authority().map(ToString::to_string).unwrap_or_default();
            format!("{target} {}", ctx.header("host").unwrap_or_default())
        }))
        .route(get("/smuggled").handle(move |_ctx| {
            hits.fetch_add(1, Ordering::SeqCst);
            async { "smuggled" }
        }))
        .route(post("/smuggled").handle(move |_ctx| {
            hits_post.fetch_add(1, Ordering::SeqCst);
            async { "smuggled" }
        }))
        .start()
        .unwrap()
}

/// What a probe must get back.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// Served: this status and body, and the connection stays usable.
    Served(u16, &'static str),
    /// One response with one of these statuses, then the connection closed
    /// with nothing more answered.
    ThenClose(&'static [u16]),
    /// One response with one of these statuses and the connection closed,
    /// or the connection closed without a response.
    RefusedOrClosed(&'static [u16]),
}

/// One HTTP/1.1 probe.
struct Probe {
    name: &'static str,
    /// The rule the expected answer comes from.
    rule: &'static str,
    bytes: Vec<u8>,
    want: Want,
}

fn probe(name: &'static str, rule: &'static str, bytes: impl Into<Vec<u8>>, want: Want) -> Probe {
    Probe { name, rule, bytes: bytes.into(), want }
}

/// `POST /echo` with `headers` (each ending in CRLF) and then `rest`.
fn post_echo(headers: &str, rest: &str) -> String {
    format!("POST /echo HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n{rest}")
}

/// `GET /ping` with one extra header line (without its CRLF).
fn get_with(line: &str) -> Vec<u8> {
    format!("GET /ping HTTP/1.1\r\nHost: localhost\r\n{line}\r\n\r\n").into_bytes()
}

const SMUGGLED: &str = "GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n";
const BAD: &[u16] = &[400];

#[allow(clippy::too_many_lines)] // the table
fn http1_probes() -> Vec<Probe> {
    use Want::{RefusedOrClosed, Served, ThenClose};
    vec![
        // Framing and smuggling (RFC 9112 §6).
        probe(
            "Content-Length and Transfer-Encoding together",
            "RFC 9112 §6.1: 400, or Transfer-Encoding wins; either way the connection is closed after",
            post_echo("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
            ThenClose(&[400, 200]),
        ),
        probe(
            "CL.TE smuggling: a request hidden in a body Content-Length would cut short",
            "RFC 9112 §6.1: Transfer-Encoding wins and the connection closes; the hidden request is never served",
            post_echo("Content-Length: 4\r\nTransfer-Encoding: chunked\r\n", &format!("2c\r\n{SMUGGLED}\r\n0\r\n\r\n")),
            ThenClose(&[400, 200]),
        ),
        probe(
            "TE.CL smuggling: Transfer-Encoding first, a short Content-Length after",
            "RFC 9112 §6.1: the same, whatever the order of the fields",
            format!(
                "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n\
                 0\r\n\r\n{SMUGGLED}"
            ),
            ThenClose(&[400, 200]),
        ),
        probe(
            "two different Content-Length fields",
            "RFC 9112 §6.3 (5): an invalid Content-Length is 400 and the connection closed",
            post_echo("Content-Length: 5\r\nContent-Length: 6\r\n", "hello!"),
            ThenClose(BAD),
        ),
        probe(
            "Content-Length with a sign",
            "RFC 9112 §6.3 (5); RFC 9110 §8.6 (1*DIGIT)",
            post_echo("Content-Length: +5\r\n", "hello"),
            ThenClose(BAD),
        ),
        probe(
            "negative Content-Length",
            "RFC 9112 §6.3 (5); RFC 9110 §8.6",
            post_echo("Content-Length: -1\r\n", "hello"),
            ThenClose(BAD),
        ),
        probe(
            "Content-Length with a space inside",
            "RFC 9112 §6.3 (5); RFC 9110 §8.6",
            post_echo("Content-Length: 1 0\r\n", "0123456789"),
            ThenClose(BAD),
        ),
        probe(
            "Content-Length as a list of different values",
            "RFC 9110 §8.6: a list is only acceptable when every value is the same; RFC 9112 §6.3 (5)",
            post_echo("Content-Length: 5, 6\r\n", "hello!"),
            ThenClose(BAD),
        ),
        probe(
            "Content-Length past u64",
            "RFC 9110 §8.6: a length the recipient cannot hold is invalid; RFC 9112 §6.3 (5)",
            post_echo("Content-Length: 99999999999999999999999\r\n", "x"),
            ThenClose(BAD),
        ),
        probe(
            "Transfer-Encoding: chunked, identity",
            "RFC 9112 §6.3 (4): chunked not last in a request is 400 and the connection closed",
            post_echo("Transfer-Encoding: chunked, identity\r\n", "0\r\n\r\n"),
            ThenClose(BAD),
        ),
        probe(
            "Transfer-Encoding not ending in chunked",
            "RFC 9112 §6.3 (4)",
            post_echo("Transfer-Encoding: gzip\r\n", "hello"),
            ThenClose(BAD),
        ),
        probe(
            "Transfer-Encoding: xchunked",
            "RFC 9112 §6.3 (4): `xchunked` is not `chunked`",
            post_echo("Transfer-Encoding: xchunked\r\n", "0\r\n\r\n"),
            ThenClose(BAD),
        ),
        probe(
            "Transfer-Encoding in HTTP/1.0",
            "RFC 9112 §6.1: a 1.0 message with Transfer-Encoding has faulty framing; the connection is closed",
            "POST /echo HTTP/1.0\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            RefusedOrClosed(BAD),
        ),
        probe(
            "chunk size past u64",
            "RFC 9112 §7.1: a chunk size that cannot be read ends the message; the body is refused, the connection closed",
            post_echo("Transfer-Encoding: chunked\r\n", "fffffffffffffffffffff\r\nx\r\n0\r\n\r\n"),
            RefusedOrClosed(BAD),
        ),
        probe(
            "chunk size not hex",
            "RFC 9112 §7.1 (chunk-size = 1*HEXDIG)",
            post_echo("Transfer-Encoding: chunked\r\n", "zz\r\nhello\r\n0\r\n\r\n"),
            RefusedOrClosed(BAD),
        ),
        probe(
            "negative chunk size",
            "RFC 9112 §7.1 (chunk-size = 1*HEXDIG)",
            post_echo("Transfer-Encoding: chunked\r\n", "-5\r\nhello\r\n0\r\n\r\n"),
            RefusedOrClosed(BAD),
        ),
        probe(
            "chunk extensions flood",
            "RFC 9112 §7.1.1: extensions are the server's to bound; 64 KiB of them are refused",
            post_echo("Transfer-Encoding: chunked\r\n", &format!("5{}\r\nhello\r\n0\r\n\r\n", ";a=b".repeat(16_384))),
            RefusedOrClosed(&[400, 413]),
        ),
        probe(
            "a pipelined request after a body is a request, not body",
            "RFC 9112 §6.3 (6) and §9.3.2: Content-Length ends the body; the next bytes are the next request",
            format!("{}{}", post_echo("Content-Length: 5\r\n", "hello"), get_request("/ping")),
            Served(200, "5"),
        ),
        // Field syntax (RFC 9112 §5, RFC 9110 §5.5).
        probe(
            "bare LF line endings",
            "RFC 9112 §2.2: a recipient MAY take a bare LF as the line terminator; served",
            "GET /ping HTTP/1.1\nHost: localhost\n\n",
            Served(200, "pong"),
        ),
        probe(
            "bare CR in a field value",
            "RFC 9112 §2.2: a bare CR MUST be invalid (or replaced by SP)",
            get_with("X-A: a\rb"),
            ThenClose(BAD),
        ),
        probe(
            "obs-fold continuation line",
            "RFC 9112 §5.2: a server MUST reject obs-fold with 400 (or unfold it)",
            get_with("X-A: a\r\n b"),
            ThenClose(BAD),
        ),
        probe(
            "whitespace between field name and colon",
            "RFC 9112 §5.1: a server MUST reject it with 400",
            get_with("Host : evil.example"),
            ThenClose(BAD),
        ),
        probe("a header line without a colon", "RFC 9112 §5 (field-line)", get_with("X-No-Colon"), ThenClose(BAD)),
        probe(
            "NUL in a field value",
            "RFC 9110 §5.5: CR, LF or NUL in a value MUST be rejected (or replaced by SP)",
            get_with("X-A: a\0b"),
            ThenClose(BAD),
        ),
        probe("a control byte in a field value", "RFC 9110 §5.5 (field-vchar)", get_with("X-A: a\x01b"), ThenClose(BAD)),
        probe("DEL in a field value", "RFC 9110 §5.5 (field-vchar)", get_with("X-A: a\x7fb"), ThenClose(BAD)),
        probe(
            "a field name that is not a token",
            "RFC 9110 §5.1 (field-name = token)",
            get_with("X(A): b"),
            ThenClose(BAD),
        ),
        // The request line (RFC 9112 §3).
        probe(
            "a method that is not a token",
            "RFC 9112 §3: an invalid request-line SHOULD be answered 400",
            "G(T /ping HTTP/1.1\r\nHost: localhost\r\n\r\n",
            ThenClose(BAD),
        ),
        probe(
            "lowercase HTTP-name",
            "RFC 9112 §2.3: HTTP-name is case-sensitive `HTTP`",
            "GET /ping http/1.1\r\nHost: localhost\r\n\r\n",
            ThenClose(BAD),
        ),
        probe(
            "HTTP/1.2",
            "RFC 9110 §6.2 asks that a higher minor version be served as 1.1 (a SHOULD); hyper knows only 1.0 and 1.1 \
             and refuses it: 400 (505 would do too), never served as something else",
            "GET /ping HTTP/1.2\r\nHost: localhost\r\n\r\n",
            ThenClose(&[400, 505]),
        ),
        probe(
            "HTTP/3.0 on the request line",
            "RFC 9110 §15.6.6: an unsupported major version is 505 (or 400 as an invalid request-line)",
            "GET /ping HTTP/3.0\r\nHost: localhost\r\n\r\n",
            ThenClose(&[400, 505]),
        ),
        probe(
            "extra spaces in the request line",
            "RFC 9112 §3: the grammar is single SP; a recipient MAY split on whitespace instead; refused here",
            "GET  /ping  HTTP/1.1\r\nHost: localhost\r\n\r\n",
            ThenClose(BAD),
        ),
        probe(
            "HTTP/0.9 request (no version)",
            "RFC 9112 §2.3 and Appendix C.1: HTTP/0.9 is not served; 400 or a closed connection",
            "GET /ping\r\n\r\n",
            RefusedOrClosed(BAD),
        ),
        probe(
            "absolute-form with a Host that differs",
            "RFC 9112 §3.2.2: the origin server MUST ignore Host and use the target's authority",
            "GET http://other.example/authority HTTP/1.1\r\nHost: localhost\r\n\r\n",
            Served(200, "other.example other.example"),
        ),
        probe(
            "CONNECT to an origin server",
            "RFC 9110 §9.3.6 and §9.1: CONNECT is for proxies; an origin server that does not implement it SHOULD \
             answer 501, and no tunnel opens",
            "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
            ThenClose(&[501]),
        ),
        probe(
            "TRACE",
            "RFC 9110 §9.3.8: TRACE is optional; a resource that does not allow it answers 405, echoing nothing",
            "TRACE /ping HTTP/1.1\r\nHost: localhost\r\nCookie: secret=1\r\n\r\n",
            Served(405, ""),
        ),
        probe(
            "GET * (asterisk-form)",
            "RFC 9112 §3.2.4: asterisk-form is only for OPTIONS",
            "GET * HTTP/1.1\r\nHost: localhost\r\n\r\n",
            ThenClose(BAD),
        ),
        probe(
            "two Host fields",
            "RFC 9112 §3.2: more than one Host MUST be 400",
            "GET /ping HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n",
            ThenClose(BAD),
        ),
        probe(
            "an invalid Host",
            "RFC 9112 §3.2: an invalid Host MUST be 400",
            "GET /ping HTTP/1.1\r\nHost: user@evil.example\r\n\r\n",
            ThenClose(BAD),
        ),
        probe(
            "HTTP/1.1 without Host",
            "RFC 9112 §3.2: a 1.1 request without Host MUST be 400",
            "GET /ping HTTP/1.1\r\n\r\n",
            Served(400, ""),
        ),
        probe(
            "a URI past the header-section limit",
            "RFC 9110 §15.5.15 / RFC 6585 §5: 414 or 431 (the limit counts the request line)",
            get_request(&format!("/files/{}", "a".repeat(MAX_HEADER_SIZE + 100))),
            RefusedOrClosed(&[414, 431]),
        ),
        probe(
            "too many header fields",
            "RFC 6585 §5: 431",
            format!(
                "GET /ping HTTP/1.1\r\nHost: localhost\r\n{}\r\n",
                (0..=MAX_HEADERS).map(|i| format!("X-{i}: v\r\n")).collect::<String>()
            ),
            RefusedOrClosed(&[431]),
        ),
        probe(
            "an over-long header value",
            "RFC 6585 §5: 431",
            get_with(&format!("X-Long: {}", "v".repeat(MAX_HEADER_SIZE))),
            RefusedOrClosed(&[431]),
        ),
        // Expectations (RFC 9110 §10.1.1).
        probe(
            "Expect: 100-continue with a body over the limit",
            "RFC 9110 §10.1.1: a final status instead of 100 Continue when the body would be refused",
            post_echo("Content-Length: 5000\r\nExpect: 100-continue\r\n", ""),
            ThenClose(&[413]),
        ),
        probe(
            "Expect: bogus",
            "RFC 9110 §10.1.1: an expectation the server cannot meet is 417",
            get_with("Expect: bogus"),
            Served(417, ""),
        ),
        // Paths (RFC 3986; the server's dot-segment rule).
        probe(
            "`..` segments",
            "RFC 3986 §5.2.4 names them; the server refuses them (RELIABILITY.md)",
            get_request("/files/../../etc/passwd"),
            ThenClose(BAD),
        ),
        probe(
            "`%2e%2e` segments",
            "as `..`, percent-encoded",
            get_request("/files/%2e%2e/%2e%2e/etc/passwd"),
            ThenClose(BAD),
        ),
        probe(
            "`%00` in the path",
            "RFC 3986 allows it, but a NUL names no resource and cuts C strings short: the router refuses it",
            get_request("/files/a%00.txt"),
            Served(400, ""),
        ),
    ]
}

/// Reads until the server closes the connection (bounded); `None` if it
/// stayed open past [`BOUND`].
fn read_to_close(stream: &mut TcpStream) -> Option<Vec<u8>> {
    stream.set_read_timeout(Some(BOUND)).unwrap();
    let mut bytes = Vec::new();
    let mut chunk = [0_u8; 16_384];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => return Some(bytes),
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(err) if matches!(err.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => return None,
            // A reset after the answer counts as closed.
            Err(_) => return Some(bytes),
        }
    }
}

/// The status codes of the responses in `bytes` (Content-Length framed, as
/// every answer of this server to these probes is).
fn statuses(mut bytes: &[u8]) -> Vec<u16> {
    let mut found = Vec::new();
    while let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
        let head = String::from_utf8_lossy(&bytes[..end]).into_owned();
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        found.push(status);
        let len = head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("content-length").then(|| value.trim().parse::<usize>().ok())?
            })
            .unwrap_or(0);
        bytes = &bytes[(end + 4 + len).min(bytes.len())..];
    }
    found
}

fn run_http1(addr: SocketAddr, probe: &Probe) -> Result<(), String> {
    let mut raw = Raw::connect(addr);
    // The server may close before it has read everything.
    let _ = raw.stream().try_clone().unwrap().write_all(&probe.bytes);
    match probe.want {
        Want::Served(status, body) => {
            let res = raw.response();
            if res.status != status || !(body.is_empty() || res.text() == body) {
                return Err(format!("got {} {:?}", res.status, res.text()));
            }
            if res.status == 405 && res.text().contains("secret") {
                return Err("TRACE echoed the request".into());
            }
            // The connection still serves a request (unless the answer
            // closed it, as a refusal may).
            if res.header("connection") != Some("close") {
                raw.send(get_request("/ping"));
                let next = raw.response();
                if (next.status, next.text().as_str()) != (200, "pong") {
                    return Err(format!("the next request got {} {:?}", next.status, next.text()));
                }
            }
            Ok(())
        }
        Want::ThenClose(allowed) | Want::RefusedOrClosed(allowed) => {
            let mut stream = raw.stream().try_clone().unwrap();
            let Some(bytes) = read_to_close(&mut stream) else {
                return Err(format!("still open after {BOUND:?}"));
            };
            let got = statuses(&bytes);
            let lossy = String::from_utf8_lossy(&bytes);
            match (got.as_slice(), probe.want) {
                ([status], _) if allowed.contains(status) => Ok(()),
                ([], Want::RefusedOrClosed(_)) => Ok(()),
                _ => Err(format!("answered {got:?}, want one of {allowed:?} then close: {lossy:?}")),
            }
        }
    }
}

// ---------------------------------------------------------------------------
// HTTP/2 by hand.

const HEADERS: u8 = 1;
const DATA: u8 = 0;
const RST_STREAM: u8 = 3;
const SETTINGS: u8 = 4;
const GOAWAY: u8 = 7;
const END_STREAM: u8 = 1;
const END_HEADERS: u8 = 4;
const PROTOCOL_ERROR: u32 = 1;

fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).unwrap();
    let mut out = len.to_be_bytes()[1..].to_vec();
    out.extend([kind, flags]);
    out.extend(stream.to_be_bytes());
    out.extend(payload);
    out
}

/// An HPACK integer with an `n`-bit prefix (RFC 7541 §5.1).
fn hpack_int(out: &mut Vec<u8>, first: u8, n: u32, mut value: usize) {
    let max = (1_usize << n) - 1;
    if value < max {
        out.push(first | u8::try_from(value).unwrap());
        return;
    }
    out.push(first | u8::try_from(max).unwrap());
    value -= max;
    while value >= 128 {
        out.push(u8::try_from(value % 128).unwrap() | 0x80);
        value /= 128;
    }
    out.push(u8::try_from(value).unwrap());
}

/// A header block of literal fields without indexing, names and values as
/// given (no Huffman coding, no case change).
fn header_block(fields: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, value) in fields {
        out.push(0);
        hpack_int(&mut out, 0, 7, name.len());
        out.extend(name.as_bytes());
        hpack_int(&mut out, 0, 7, value.len());
        out.extend(value.as_bytes());
    }
    out
}

const GET_PING: &[(&str, &str)] =
    &[(":method", "GET"), (":scheme", "http"), (":authority", "localhost"), (":path", "/ping")];

/// What came back on a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum H2Answer {
    /// A response HEADERS frame; its `:status` when the server sent it as a
    /// static-table index (200, 204, 206, 304, 400, 404, 500), else 0.
    Status(u16),
    Reset(u32),
    /// GOAWAY with this error code before the stream was answered.
    GoAway(u32),
    /// The connection closed (or nothing came within the bound).
    Closed,
}

/// A raw h2c connection, settings exchanged.
struct H2 {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl H2 {
    fn connect(addr: SocketAddr) -> Self {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(BOUND)).unwrap();
        stream.write_all(H2_PREFACE).unwrap();
        stream.write_all(&frame(SETTINGS, 0, 0, &[])).unwrap();
        Self { stream, buf: Vec::new() }
    }

    fn send(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes);
    }

    /// The next frame (type, flags, stream, payload), `None` on close.
    fn frame(&mut self) -> Option<(u8, u8, u32, Vec<u8>)> {
        loop {
            if self.buf.len() >= 9 {
                let len = usize::from(self.buf[0]) << 16 | usize::from(self.buf[1]) << 8 | usize::from(self.buf[2]);
                if self.buf.len() >= 9 + len {
                    let head: Vec<u8> = self.buf.drain(..9).collect();
                    let payload = self.buf.drain(..len).collect();
                    let stream = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
                    return Some((head[3], head[4], stream, payload));
                }
            }
            let mut chunk = [0_u8; 16_384];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// The server's first answer on `id`, acknowledging its settings.
    fn answer(&mut self, id: u32) -> H2Answer {
        while let Some((kind, flags, stream, payload)) = self.frame() {
            match kind {
                SETTINGS if flags & 1 == 0 => self.send(&frame(SETTINGS, 1, 0, &[])),
                GOAWAY => return H2Answer::GoAway(u32::from_be_bytes(payload[4..8].try_into().unwrap())),
                HEADERS if stream == id => {
                    let status = match payload.first() {
                        Some(0x88) => 200,
                        Some(0x89) => 204,
                        Some(0x8c) => 400,
                        Some(0x8d) => 404,
                        Some(0x8e) => 500,
                        _ => 0,
                    };
                    return H2Answer::Status(status);
                }
                RST_STREAM if stream == id => {
                    return H2Answer::Reset(u32::from_be_bytes(payload[..4].try_into().unwrap()));
                }
                _ => {}
            }
        }
        H2Answer::Closed
    }
}

/// What an HTTP/2 probe must get back on its stream.
#[derive(Debug, Clone, Copy)]
enum H2Want {
    Status(u16),
    /// RFC 9113 §8.1.1: a malformed request is a stream error of type
    /// PROTOCOL_ERROR (`RST_STREAM`); the server MAY answer 400 first, and
    /// MAY treat it as a connection error (§5.4: GOAWAY with
    /// PROTOCOL_ERROR).
    Malformed,
}

struct H2Probe {
    name: &'static str,
    rule: &'static str,
    fields: Vec<(&'static str, &'static str)>,
    /// A body sent as one DATA frame, when `Some`.
    data: Option<&'static str>,
    want: H2Want,
}

fn h2_probe(
    name: &'static str,
    rule: &'static str,
    fields: &[(&'static str, &'static str)],
    data: Option<&'static str>,
    want: H2Want,
) -> H2Probe {
    H2Probe { name, rule, fields: fields.to_vec(), data, want }
}

/// The `GET /ping` pseudo-headers with `extra` fields after them.
fn ping_with(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    GET_PING.iter().chain(extra).copied().collect()
}

fn h2_probes() -> Vec<H2Probe> {
    use H2Want::{Malformed, Status};
    let get = |path| vec![(":method", "GET"), (":scheme", "http"), (":authority", "localhost"), (":path", path)];
    vec![
        h2_probe(
            ":authority and a host that differs",
            "RFC 9113 §8.3.1: a server SHOULD treat it as malformed; 400",
            &ping_with(&[("host", "evil.example")]),
            None,
            Status(400),
        ),
        h2_probe(
            ":authority and the same host",
            "RFC 9113 §8.3.1: allowed",
            &ping_with(&[("host", "localhost")]),
            None,
            Status(200),
        ),
        h2_probe(
            "OPTIONS with :path *",
            "RFC 9113 §8.3.1: `*` is the :path of a server-wide OPTIONS",
            &[(":method", "OPTIONS"), (":scheme", "http"), (":authority", "localhost"), (":path", "*")],
            None,
            Status(200),
        ),
        h2_probe("GET with :path *", "RFC 9112 §3.2.4 as for HTTP/1.1", &get("*"), None, Status(400)),
        h2_probe("dot segments", "the server's dot-segment rule", &get("/files/../etc/passwd"), None, Status(400)),
        h2_probe("encoded dot segments", "the same, encoded", &get("/files/%2e%2e/etc"), None, Status(400)),
        h2_probe(
            "connection header",
            "RFC 9113 §8.2.2: connection-specific fields make the request malformed",
            &ping_with(&[("connection", "keep-alive")]),
            None,
            Malformed,
        ),
        h2_probe(
            "transfer-encoding header",
            "RFC 9113 §8.2.2",
            &ping_with(&[("transfer-encoding", "chunked")]),
            None,
            Malformed,
        ),
        h2_probe("te other than trailers", "RFC 9113 §8.2.2", &ping_with(&[("te", "gzip")]), None, Malformed),
        h2_probe(
            "te: trailers",
            "RFC 9113 §8.2.2: the one allowed te",
            &ping_with(&[("te", "trailers")]),
            None,
            Status(200),
        ),
        h2_probe(
            "uppercase field name",
            "RFC 9113 §8.2.1: a field name with uppercase is malformed",
            &ping_with(&[("X-Upper", "1")]),
            None,
            Malformed,
        ),
        h2_probe(
            "missing :method",
            "RFC 9113 §8.3.1: :method, :scheme and :path are required",
            &[(":scheme", "http"), (":authority", "localhost"), (":path", "/ping")],
            None,
            Malformed,
        ),
        h2_probe(
            "missing :path",
            "RFC 9113 §8.3.1",
            &[(":method", "GET"), (":scheme", "http"), (":authority", "localhost")],
            None,
            Malformed,
        ),
        h2_probe("empty :path", "RFC 9113 §8.3.1: :path MUST NOT be empty for http URIs", &get(""), None, Malformed),
        h2_probe(
            "pseudo-header after a regular field",
            "RFC 9113 §8.3: pseudo-headers come first",
            &[(":method", "GET"), (":scheme", "http"), ("x-a", "1"), (":authority", "localhost"), (":path", "/ping")],
            None,
            Malformed,
        ),
        h2_probe(
            "an unknown pseudo-header",
            "RFC 9113 §8.3: undefined pseudo-headers are malformed",
            &ping_with(&[(":evil", "1")]),
            None,
            Malformed,
        ),
        h2_probe(
            "content-length larger than the DATA",
            "RFC 9113 §8.1.1: content-length not equal to the DATA payloads is malformed",
            &[
                (":method", "POST"),
                (":scheme", "http"),
                (":authority", "localhost"),
                (":path", "/echo"),
                ("content-length", "10"),
            ],
            Some("abc"),
            Malformed,
        ),
        h2_probe(
            "content-length smaller than the DATA",
            "RFC 9113 §8.1.1",
            &[
                (":method", "POST"),
                (":scheme", "http"),
                (":authority", "localhost"),
                (":path", "/echo"),
                ("content-length", "1"),
            ],
            Some("abc"),
            Malformed,
        ),
    ]
}

fn run_h2(addr: SocketAddr, probe: &H2Probe) -> Result<(), String> {
    let mut h2 = H2::connect(addr);
    let block = header_block(&probe.fields);
    match probe.data {
        None => h2.send(&frame(HEADERS, END_HEADERS | END_STREAM, 1, &block)),
        Some(data) => {
            h2.send(&frame(HEADERS, END_HEADERS, 1, &block));
            h2.send(&frame(DATA, END_STREAM, 1, data.as_bytes()));
        }
    }
    let mut answer = h2.answer(1);
    let ok = match probe.want {
        H2Want::Status(status) => answer == H2Answer::Status(status),
        H2Want::Malformed => {
            // A 400 may come first; the stream must then be reset.
            if answer == H2Answer::Status(400) {
                answer = h2.answer(1);
            }
            matches!(answer, H2Answer::Reset(PROTOCOL_ERROR) | H2Answer::GoAway(PROTOCOL_ERROR))
        }
    };
    if !ok {
        return Err(format!("got {answer:?}, want {:?}", probe.want));
    }
    // A stream error leaves the connection usable; after a connection
    // error, a new connection is served.
    if matches!(answer, H2Answer::GoAway(_)) {
        h2 = H2::connect(addr);
    }
    h2.send(&frame(HEADERS, END_HEADERS | END_STREAM, 3, &header_block(GET_PING)));
    match h2.answer(3) {
        H2Answer::Status(200) => Ok(()),
        other => Err(format!("the next stream got {other:?}")),
    }
}

#[test]
fn every_probe_gets_the_rfc_answer_and_the_server_stays_up() {
    let smuggled = Arc::new(AtomicUsize::new(0));
    let server = server(&smuggled);
    let addr = server.local_addr();
    let http1 = http1_probes();
    let h2 = h2_probes();
    assert!(http1.len() + h2.len() >= 40);

    let mut failures = Vec::new();
    for probe in &http1 {
        if let Err(err) = run_http1(addr, probe) {
            failures.push(format!("HTTP/1.1 {}: {err}\n    ({})", probe.name, probe.rule));
        }
    }
    // The HTTP/2 preface on a connection already speaking HTTP/1.1.
    let mut raw = Raw::connect(addr);
    raw.send(get_request("/ping"));
    assert_eq!(raw.response().text(), "pong");
    raw.send(H2_PREFACE);
    let mut stream = raw.stream().try_clone().unwrap();
    match read_to_close(&mut stream).map(|bytes| statuses(&bytes)) {
        Some(got) if got.is_empty() || got == [400] || got == [505] => {}
        other => failures.push(format!("HTTP/1.1 the h2 preface mid-connection: {other:?}")),
    }
    for probe in &h2 {
        if let Err(err) = run_h2(addr, probe) {
            failures.push(format!("HTTP/2 {}: {err}\n    ({})", probe.name, probe.rule));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} probes failed:\n{}",
        failures.len(),
        http1.len() + h2.len() + 1,
        failures.join("\n")
    );
    assert_eq!(smuggled.load(Ordering::SeqCst), 0, "a smuggled request reached its handler");

    // The server still serves.
    let mut raw = Raw::connect(addr);
    raw.send(get_request("/ping"));
    let res = raw.response();
    assert_eq!((res.status, res.text().as_str()), (200, "pong"));
    server.shutdown();
}
