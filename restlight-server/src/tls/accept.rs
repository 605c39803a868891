//! The TLS handshake of one connection, with a deadline, and the protocol
//! ALPN chose.

use std::time::Duration;

use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

use super::config::TlsConfig;
use super::error::TlsError;
use crate::sniff::Protocol;

/// Accepts TLS connections for one server.
#[derive(Clone)]
pub(crate) struct Acceptor {
    acceptor: TlsAcceptor,
    timeout: Duration,
}

impl std::fmt::Debug for Acceptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Acceptor").field("timeout", &self.timeout).finish_non_exhaustive()
    }
}

impl Acceptor {
    pub(crate) fn new(config: &TlsConfig) -> Result<Self, TlsError> {
        Ok(Self { acceptor: TlsAcceptor::from(config.server_config()?), timeout: config.timeout() })
    }

    /// Runs the handshake within the timeout; `h2` from ALPN is HTTP/2,
    /// anything else HTTP/1.1.
    pub(crate) async fn accept(&self, stream: TcpStream) -> Result<(TlsStream<TcpStream>, Protocol), String> {
        let handshake = self.acceptor.accept(stream);
        let tls = match tokio::time::timeout(self.timeout, handshake).await {
            Ok(Ok(tls)) => tls,
            Ok(Err(err)) => return Err(format!("TLS handshake failed: {err}")),
            Err(_) => return Err(format!("TLS handshake not done within {} ms", self.timeout.as_millis())),
        };
        let protocol = if tls.get_ref().1.alpn_protocol() == Some(b"h2") { Protocol::H2 } else { Protocol::Http1 };
        Ok((tls, protocol))
    }
}
