//! Telling HTTP/1 from h2c prior knowledge, with a deadline.
//!
//! hyper-util's auto builder sniffs without a timeout, so a connection that
//! sends nothing, or half of the h2 preface, would be held forever. Here the
//! first bytes are peeked (not consumed) until they decide the protocol, and
//! the connection is given up at the deadline.

use std::fmt;
use std::io;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio::time::Instant;

/// The HTTP/2 connection preface a prior-knowledge (h2c) client opens with.
const H2_PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Wait between peeks while only a prefix of the preface has arrived.
const FIRST_BACKOFF: Duration = Duration::from_millis(1);
const MAX_BACKOFF: Duration = Duration::from_millis(50);

/// The protocol a connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protocol {
    Http1,
    H2,
}

/// Why a connection was given up before its protocol was known.
#[derive(Debug)]
pub(crate) enum SniffError {
    /// The client closed the connection.
    Closed,
    /// Nothing decisive arrived before the deadline.
    TimedOut,
    Io(io::Error),
}

impl fmt::Display for SniffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Closed => f.write_str("closed by the client before sending a request"),
            Self::TimedOut => f.write_str("no request before the header read timeout"),
            Self::Io(err) => write!(f, "read failed: {err}"),
        }
    }
}

/// Peeks at the first bytes of `stream` until they tell the protocol.
pub(crate) async fn sniff(stream: &TcpStream, deadline: Instant) -> Result<Protocol, SniffError> {
    let peek = async {
        let mut buf = [0_u8; H2_PREFACE.len()];
        let mut backoff = FIRST_BACKOFF;
        loop {
            let n = stream.peek(&mut buf).await.map_err(SniffError::Io)?;
            if n == 0 {
                return Err(SniffError::Closed);
            }
            if let Some(protocol) = classify(&buf[..n]) {
                return Ok(protocol);
            }
            // A peek returns at once while data is queued, so wait for more
            // rather than spinning on the same prefix.
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    };
    tokio::time::timeout_at(deadline, peek).await.unwrap_or(Err(SniffError::TimedOut))
}

/// `Some` once the bytes seen decide the protocol; `None` while they are a
/// strict prefix of the h2 preface.
fn classify(seen: &[u8]) -> Option<Protocol> {
    if !H2_PREFACE.starts_with(seen) {
        Some(Protocol::Http1)
    } else if seen.len() == H2_PREFACE.len() {
        Some(Protocol::H2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_prefix() {
        let cases: &[(&[u8], Option<Protocol>)] = &[
            (b"GET / HTTP/1.1\r\n", Some(Protocol::Http1)),
            (b"POST", Some(Protocol::Http1)),
            (b"PO", Some(Protocol::Http1)),
            (b"PUT", Some(Protocol::Http1)),
            (b"P", None),
            (b"PRI * HTTP/2.0\r\n", None),
            (H2_PREFACE, Some(Protocol::H2)),
            (b"PRI * HTTP/1.1\r\n", Some(Protocol::Http1)),
        ];
        for (seen, expected) in cases {
            assert_eq!(classify(seen), *expected, "{:?}", String::from_utf8_lossy(seen));
        }
    }
}
