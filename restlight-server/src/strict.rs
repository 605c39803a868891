//! Checks a request must pass as it comes off the connection, before the
//! application sees it; HTTP/1.1 and HTTP/2 alike.
//!
//! - **`Host`**: more than one `Host` field, or a value that is not
//!   `host[:port]` (a registered name, an IPv4 address or a bracketed IP
//!   literal; empty is allowed), is answered 400.
//! - **The target's authority**: over HTTP/2, a `host` field naming
//!   another authority than `:authority` is answered 400 (RFC 9113
//!   §8.3.1). Over HTTP/1.1, an absolute-form target's authority replaces
//!   the `Host` field, which an origin server must ignore (RFC 9112
//!   §3.2.2), so a handler reading `Host` sees the authority the request
//!   was routed by.
//! - **`Expect`**: any expectation but `100-continue` is answered 417
//!   (RFC 9110 §10.1.1); HTTP/1.0 requests, whose `Expect` a server
//!   ignores, are not checked.
//! - **Asterisk-form** (`*` as the request target) is only for `OPTIONS`:
//!   `OPTIONS *` is answered 200 with an `Allow` listing every method the
//!   application's routes answer (HEAD with GET, and OPTIONS), anything else
//!   with `*` is answered 400.
//! - **Dot segments**: a path with a segment that is `.` or `..`, also when
//!   its dots are percent-encoded (`%2e`, `%2E`) and counting an encoded
//!   slash (`%2F`) or a backslash (raw or `%5C`) as a segment boundary, is
//!   answered 400 naming the path. Such a path is never normalised: it is
//!   refused, so what a route matches is always what the client sent, and
//!   a `..` never reaches a path parameter. A `;matrix` part and the query
//!   are not path segments and are not checked.
//! - **Authority-form** (`CONNECT host:port`): answered 501, since an
//!   origin server does not tunnel (RFC 9110 §9.3.6) and no route can match
//!   a target without a path.
//!
//! The rejections are problem details; on HTTP/1 they also close the
//! connection. A request that passes costs one pass over its header
//! fields (for `Host` and `Expect` together), a scan of the `Host` value
//! (or, when it is the valid value the connection sent last, a comparison
//! with that) and one pass over the path, without allocating.
//!
//! The checks belong to the server: `MockClient` drives the application
//! directly and does not apply them.

use std::cell::RefCell;

use http::header::{HeaderValue, ALLOW, CONNECTION, CONTENT_LENGTH, EXPECT, HOST};
use http::{Method, Request, StatusCode, Version};
use restlight_core::{App, HttpError, IntoResponse, Response};

/// Why a request is refused before the application sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    TwoHosts,
    BadHost,
    /// An HTTP/2 `host` naming another authority than `:authority`.
    HostNotAuthority,
    /// An `Expect` other than `100-continue`.
    Expectation,
    /// The authority-form target of a CONNECT: an origin server does not
    /// tunnel.
    AuthorityForm,
    /// The asterisk-form target: answered 200 for OPTIONS, else 400.
    Asterisk,
    DotSegment,
}

/// Whether the request must not reach the application: the plain path of
/// every request, a few comparisons and no allocation. An HTTP/1
/// absolute-form request's `Host` is replaced by the target's authority.
#[inline]
pub(crate) fn check<B>(req: &mut Request<B>, known: &KnownHost) -> Option<Refusal> {
    // `Host` and `Expect` in one pass over the fields: comparing a name
    // with a standard one is a byte comparison, while a lookup hashes the
    // name and probes the map, and the lookup of `Expect` misses on nearly
    // every request.
    let mut host = None;
    let mut unmet_expectation = false;
    for (name, value) in req.headers() {
        if *name == HOST {
            if host.is_some() {
                return Some(Refusal::TwoHosts);
            }
            host = Some(value);
        } else if *name == EXPECT && !value.as_bytes().eq_ignore_ascii_case(b"100-continue") {
            unmet_expectation = true;
        }
    }
    if let Some(host) = host {
        if !known.is(host.as_bytes()) {
            if !is_valid_host(host.as_bytes()) {
                return Some(Refusal::BadHost);
            }
            known.keep(host.as_bytes());
        }
    }
    // Origin-form targets (nearly every HTTP/1 request) have no authority.
    if let Some(authority) = req.uri().authority() {
        if host.is_some_and(|host| !host.as_bytes().eq_ignore_ascii_case(authority.as_str().as_bytes())) {
            // Over HTTP/1 the rest of the checks apply as to a request that
            // had sent the authority as its `Host`.
            if let Some(refusal) = other_authority(req) {
                return Some(refusal);
            }
        }
    }
    if unmet_expectation && req.version() >= Version::HTTP_11 {
        return Some(Refusal::Expectation);
    }
    let path = req.uri().path().as_bytes();
    match path.first() {
        Some(b'/') => path_refusal(path),
        Some(b'*') if path.len() == 1 => Some(Refusal::Asterisk),
        // Authority-form (CONNECT `host:port`), whose path is empty: no
        // route can match it.
        None => Some(Refusal::AuthorityForm),
        _ => None,
    }
}

/// The last valid `Host` value one connection sent, kept so that the next
/// request's `Host` (on a keep-alive connection nearly always the same
/// bytes) is compared with it instead of scanned again. Values longer than
/// [`KnownHost::CAP`] are not kept, and are scanned every time.
#[derive(Debug, Clone)]
pub(crate) struct KnownHost(RefCell<(u8, [u8; KnownHost::CAP])>);

impl Default for KnownHost {
    fn default() -> Self {
        Self(RefCell::new((0, [0; Self::CAP])))
    }
}

impl KnownHost {
    const CAP: usize = 63;

    /// Whether `value` is the kept one, which was valid. Never true before
    /// a value was kept: a kept value is never empty.
    #[inline]
    fn is(&self, value: &[u8]) -> bool {
        let kept = self.0.borrow();
        usize::from(kept.0) == value.len() && !value.is_empty() && kept.1[..value.len()] == *value
    }

    /// Keeps a valid value, if it fits.
    #[inline]
    fn keep(&self, value: &[u8]) {
        if let (Ok(len @ 1..), Ok(mut kept)) = (u8::try_from(value.len()), self.0.try_borrow_mut()) {
            if value.len() <= Self::CAP {
                kept.1[..value.len()].copy_from_slice(value);
                kept.0 = len;
            }
        }
    }
}

/// A `Host` that is not the target's authority: refused over HTTP/2, and
/// replaced by the authority over HTTP/1 (absolute-form, or CONNECT's
/// authority-form).
#[cold]
#[inline(never)]
fn other_authority<B>(req: &mut Request<B>) -> Option<Refusal> {
    if req.version() >= Version::HTTP_2 {
        return Some(Refusal::HostNotAuthority);
    }
    let authority = req.uri().authority().map(|a| HeaderValue::from_str(a.as_str()));
    if let Some(Ok(authority)) = authority {
        req.headers_mut().insert(HOST, authority);
    }
    None
}

/// The answer to a request [`check`] refused.
#[cold]
#[inline(never)]
pub(crate) fn refuse<B>(req: &Request<B>, app: &App, refusal: Refusal) -> Response {
    match refusal {
        Refusal::TwoHosts => reject(req, HttpError::bad_request("the request has more than one Host header")),
        Refusal::BadHost => reject(req, HttpError::bad_request("the Host header is not a valid host[:port]")),
        Refusal::HostNotAuthority => {
            let authority = req.uri().authority().map(ToString::to_string).unwrap_or_default();
            let detail = format!("the host header names another authority than `:authority` ({authority})");
            reject(req, HttpError::bad_request(detail).with("authority", authority))
        }
        Refusal::Expectation => {
            let expect =
                req.headers().get_all(EXPECT).iter().find(|v| !v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
            let expect = expect.map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()).unwrap_or_default();
            let detail = format!("the expectation `{expect}` cannot be met: only `100-continue` is supported");
            reject(req, HttpError::new(StatusCode::EXPECTATION_FAILED, detail).with("expect", expect))
        }
        Refusal::AuthorityForm => {
            let detail = format!(
                "{} with an authority-form target is not implemented: this is an origin server, not a proxy",
                req.method()
            );
            reject(req, HttpError::new(StatusCode::NOT_IMPLEMENTED, detail).with("method", req.method().as_str()))
        }
        Refusal::Asterisk => asterisk(req, app),
        Refusal::DotSegment => {
            let path = req.uri().path();
            let detail = format!("the path `{path}` has a `.` or `..` segment");
            reject(req, HttpError::bad_request(detail).with("path", path))
        }
    }
}

/// The problem-details answer to a refused request; on HTTP/1 it closes
/// the connection, whose next bytes cannot be trusted either.
fn reject<B>(req: &Request<B>, error: HttpError) -> Response {
    tracing::debug!(method = %req.method(), error = %error, "request refused before routing");
    let mut res = error.into_response();
    if req.version() < Version::HTTP_2 {
        res.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
    }
    res
}

/// `OPTIONS *`, or 400 for another method with the asterisk-form.
fn asterisk<B>(req: &Request<B>, app: &App) -> Response {
    if req.method() != Method::OPTIONS {
        let detail = format!("the request target `*` is only for OPTIONS, not {}", req.method());
        return reject(req, HttpError::bad_request(detail).with("path", "*"));
    }
    let mut methods: Vec<Method> = Vec::new();
    for route in app.routes().iter() {
        if let Ok(method) = Method::from_bytes(route.method.as_bytes()) {
            if !methods.contains(&method) {
                methods.push(method);
            }
        }
    }
    if methods.contains(&Method::GET) {
        methods.push(Method::HEAD);
    }
    methods.push(Method::OPTIONS);
    // In the order, and by the code, of every route's own `Allow`
    // (sorted, each method once).
    let mut res = StatusCode::OK.into_response();
    res.headers_mut().insert(ALLOW, restlight_core::__private::allow_header(&mut methods));
    res.headers_mut().insert(CONTENT_LENGTH, HeaderValue::from_static("0"));
    res
}

/// Whether a `Host` value is `uri-host [":" port]` (RFC 9110 §7.2), empty
/// included. The common forms (a name or an IPv4 address, and a port) take
/// one pass; escapes and IP literals go to [`is_valid_host_slow`].
#[inline]
fn is_valid_host(value: &[u8]) -> bool {
    let name = value.iter().position(|&b| !PLAIN_NAME[usize::from(b)]).unwrap_or(value.len());
    match value.get(name) {
        None => true,
        Some(b':') => value[name + 1..].iter().all(u8::is_ascii_digit),
        Some(_) => is_valid_host_slow(value),
    }
}

/// Bytes of a registered name without escapes: RFC 3986's unreserved and
/// sub-delims.
const PLAIN_NAME: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'-' | b'.' | b'_' | b'~')
            || matches!(c, b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=');
        b += 1;
    }
    table
};

/// [`is_valid_host`] for values with `%` escapes or an IP literal (or
/// invalid ones).
#[cold]
#[inline(never)]
fn is_valid_host_slow(value: &[u8]) -> bool {
    let port = if let Some(literal) = value.strip_prefix(b"[") {
        // IPv6 or IPvFuture, leniently: the characters they may use.
        let Some(end) = literal.iter().position(|&b| b == b']') else { return false };
        if end == 0 || !literal[..end].iter().all(|&b| PLAIN_NAME[usize::from(b)] || b == b':' || b == b'%') {
            return false;
        }
        &literal[end + 1..]
    } else {
        let end = value.iter().position(|&b| b == b':').unwrap_or(value.len());
        let name = &value[..end];
        let mut i = 0;
        while i < name.len() {
            if name[i] == b'%' {
                if !(name.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && name.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
                {
                    return false;
                }
                i += 3;
            } else if PLAIN_NAME[usize::from(name[i])] {
                i += 1;
            } else {
                return false;
            }
        }
        &value[end..]
    };
    match port.split_first() {
        None => true,
        Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// Whether `path` has a `.` or `..` segment: a path without `.` and `%`
/// has none.
#[inline]
fn path_refusal(path: &[u8]) -> Option<Refusal> {
    if has_dot_or_percent(path) {
        path_refusal_slow(path)
    } else {
        None
    }
}

/// Whether `bytes` has a `.` or a `%`, read eight bytes at a time: a word
/// has the byte `b` when `word ^ (b in every byte)` has a zero byte, which
/// `(x - 0x01..) & !x & 0x80..` tells exactly. The bytes after the last
/// whole word are read as the word that ends the path (overlapping the one
/// before), and a path shorter than a word as two overlapping half words:
/// no loop over single bytes but for paths of under four.
#[inline]
fn has_dot_or_percent(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const DOTS: u64 = ONES * b'.' as u64;
    const PERCENTS: u64 = ONES * b'%' as u64;
    let has_zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let has = |word: u64| has_zero_byte(word ^ DOTS) || has_zero_byte(word ^ PERCENTS);
    let word_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
    let len = bytes.len();
    if len < 8 {
        if len < 4 {
            return bytes.iter().any(|&b| b == b'.' || b == b'%');
        }
        let half_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
        // Both halves in one word, so that one test covers them.
        return has(u64::from(half_at(0)) | u64::from(half_at(len - 4)) << 32);
    }
    let mut at = 0;
    while at + 8 <= len {
        if has(word_at(at)) {
            return true;
        }
        at += 8;
    }
    at < len && has(word_at(len - 8))
}

/// Whether a segment of `path` is `.` or `..`, reading `%2E` as a dot and
/// `/`, `\`, `%2F` and `%5C` as boundaries (a segment's `;matrix` part is
/// not part of its name). One pass, no allocation.
#[cold]
#[inline(never)]
fn path_refusal_slow(path: &[u8]) -> Option<Refusal> {
    /// The segment so far is not only dots (or has more than two).
    const OTHER: u8 = 3;
    let mut dots = 0_u8;
    // Decoded, an escaped dot or slash is a dot or a slash; a malformed
    // escape stays a `%`.
    for unit in percent_encoding::percent_decode(path) {
        match unit {
            b'/' | b'\\' | b';' if dots == 1 || dots == 2 => return Some(Refusal::DotSegment),
            b'/' | b'\\' => dots = 0,
            b'.' if dots < OTHER => dots += 1,
            _ => dots = OTHER,
        }
    }
    (dots == 1 || dots == 2).then_some(Refusal::DotSegment)
}

#[cfg(test)]
mod tests {
    use super::{is_valid_host, path_refusal, Refusal};

    fn has_dot_segment(path: &[u8]) -> bool {
        path_refusal(path) == Some(Refusal::DotSegment)
    }

    #[test]
    fn dot_segments_are_found_raw_and_encoded() {
        for path in [
            "/..",
            "/.",
            "/files/../../etc/passwd",
            "/files/./a",
            "/files/%2e%2e/etc",
            "/files/%2E%2E/etc",
            "/files/.%2e/etc",
            "/files/%2e./etc",
            "/files/..%2Fetc",
            "/files/..%2fetc",
            "/files/a%2F..%2Fb",
            "/files/..%5Cetc",
            "/files/..\\etc",
            "/files/..;x=1/etc",
            "/files/..",
            "/files/../",
        ] {
            assert!(has_dot_segment(path.as_bytes()), "{path}");
        }
    }

    #[test]
    fn names_with_dots_pass() {
        for path in [
            "/",
            "/hello",
            "/files/a.txt",
            "/files/...",
            "/files/..a",
            "/files/a..",
            "/files/.hidden",
            "/files/%2e%2e%2e",
            "/files/%252e%252e/x",
            "/files/a;v=..",
            "/files/%zz",
            "/files/%2",
            "/v1.2/x",
        ] {
            assert!(!has_dot_segment(path.as_bytes()), "{path}");
        }
    }

    #[test]
    fn a_dot_or_percent_is_seen_at_every_offset() {
        for len in 0..=24 {
            let plain = vec![b'a'; len];
            assert!(!super::has_dot_or_percent(&plain), "{len}");
            for at in 0..len {
                for special in [b'.', b'%'] {
                    let mut bytes = plain.clone();
                    bytes[at] = special;
                    assert!(super::has_dot_or_percent(&bytes), "{len} {at} {special}");
                }
            }
        }
        // Bytes next to `.` and `%` in value are not taken for them.
        for near in ["-/0$&$/-0/-$&/0-", "-/0$&$/-0/-$&/0-$", "-/0", "-/0$", "-/0$&$/"] {
            assert!(!super::has_dot_or_percent(near.as_bytes()), "{near}");
        }
    }

    #[test]
    fn hosts() {
        for ok in ["", "localhost", "localhost:8080", "127.0.0.1:80", "[::1]", "[::1]:443", "a-b.example.com", "x%41y"]
        {
            assert!(is_valid_host(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "a b",
            "a/b",
            "user@host",
            "host:8o",
            "host:80:80",
            "[::1",
            "[]",
            "[::1]x",
            "h%4",
            "h%zz",
            "host?",
            "h\u{e9}",
        ] {
            assert!(!is_valid_host(bad.as_bytes()), "{bad}");
        }
    }
}
