//! HTTPS with rustls (the `ring` provider): a PEM certificate chain and key
//! from files or memory, ALPN offering `h2` and `http/1.1`, TLS 1.2 and 1.3
//! only, optional client-certificate authentication, and a handshake
//! timeout. Behind the `tls` cargo feature (off by default).

mod accept;
mod config;
mod error;
mod setters;

pub(crate) use accept::Acceptor;
pub(crate) use config::{read_certificates, read_key, Chain, Key, Sources};
pub use config::{ClientAuth, TlsConfig};
pub use error::TlsError;
