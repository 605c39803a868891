//! Why a TLS configuration could not be loaded.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// A TLS configuration that cannot be used: a file that cannot be read,
/// PEM without a certificate or key, or a key rustls rejects.
#[derive(Debug)]
#[non_exhaustive]
pub enum TlsError {
    /// A PEM file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The certificate PEM holds no certificate.
    NoCertificate,
    /// The key PEM holds no private key (PKCS#8, PKCS#1 or SEC1).
    NoPrivateKey,
    /// The PEM of `what` could not be parsed.
    Pem {
        /// `certificate`, `private key` or `client CA`.
        what: &'static str,
        /// The parser's message.
        message: String,
    },
    /// rustls refused the configuration (for instance a key that does not
    /// match the certificate, or an unusable client CA).
    Rustls(String),
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, source } => write!(f, "cannot read `{}`: {source}", path.display()),
            Self::NoCertificate => f.write_str("the certificate PEM holds no CERTIFICATE block"),
            Self::NoPrivateKey => f.write_str("the key PEM holds no PRIVATE KEY block (PKCS#8, PKCS#1 or SEC1)"),
            Self::Pem { what, message } => write!(f, "the {what} PEM is malformed: {message}"),
            Self::Rustls(message) => write!(f, "TLS configuration refused: {message}"),
        }
    }
}

impl std::error::Error for TlsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<TlsError> for restlight_core::Error {
    fn from(err: TlsError) -> Self {
        Self::Io(io::Error::new(io::ErrorKind::InvalidInput, err))
    }
}
