//! [`TlsConfig`]: certificates and options, turned into a rustls
//! `ServerConfig` when the server starts.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig};

use super::error::TlsError;

/// The default TLS handshake timeout.
const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether clients must present a certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientAuth {
    /// A client without a certificate is refused at the handshake.
    Required,
    /// A client may present one (it is then verified) or none.
    Optional,
}

/// The HTTPS settings of a server, given to
/// [`Restlight::tls`](crate::Restlight::tls).
///
/// The server offers `h2` and `http/1.1` over ALPN (a client that offers
/// neither speaks HTTP/1.1), accepts TLS 1.2 and 1.3 only, and uses the
/// `ring` crypto provider.
///
/// ```no_run
/// use restlight_server::{ClientAuth, TlsConfig};
/// # fn main() -> Result<(), restlight_server::TlsError> {
/// let tls = TlsConfig::from_pem_files("cert.pem", "key.pem")?
///     .client_auth_pem(&std::fs::read("clients-ca.pem").unwrap(), ClientAuth::Optional)?;
/// # let _ = tls; Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct TlsConfig {
    chain: Vec<CertificateDer<'static>>,
    key: Arc<PrivateKeyDer<'static>>,
    client_auth: Option<(Vec<CertificateDer<'static>>, ClientAuth)>,
    handshake_timeout: Duration,
    sources: Sources,
}

/// The files the PEM was read from (`None`: given in memory), shown by the
/// `config` actuator endpoint instead of the PEM itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sources {
    pub(crate) cert: Option<PathBuf>,
    pub(crate) key: Option<PathBuf>,
    pub(crate) client_ca: Option<PathBuf>,
}

impl TlsConfig {
    /// A certificate chain (leaf first) and its private key, both PEM.
    ///
    /// # Errors
    /// [`TlsError::NoCertificate`], [`TlsError::NoPrivateKey`] or
    /// [`TlsError::Pem`] when the PEM does not hold them.
    pub fn from_pem(cert_chain: &[u8], private_key: &[u8]) -> Result<Self, TlsError> {
        let chain = certificates(cert_chain, "certificate")?;
        if chain.is_empty() {
            return Err(TlsError::NoCertificate);
        }
        let key = parse_private_key(private_key)?;
        Ok(Self::from_parts(chain, key, Sources::default()))
    }

    /// [`from_pem`](Self::from_pem) with the PEM read from files.
    ///
    /// # Errors
    /// [`TlsError::Read`] when a file cannot be read, else as `from_pem`.
    pub fn from_pem_files(cert_chain: impl AsRef<Path>, private_key: impl AsRef<Path>) -> Result<Self, TlsError> {
        let (cert_chain, private_key) = (cert_chain.as_ref(), private_key.as_ref());
        let (chain, key) = (read(cert_chain)?, read(private_key)?);
        let sources = Sources { cert: Some(cert_chain.to_owned()), key: Some(private_key.to_owned()), client_ca: None };
        Ok(Self { sources, ..Self::from_pem(&chain, &key)? })
    }

    /// Verifies client certificates against the CA certificates in `ca_pem`.
    ///
    /// Default: no client authentication.
    ///
    /// # Errors
    /// [`TlsError::NoCertificate`] or [`TlsError::Pem`] when the PEM holds no CA.
    pub fn client_auth_pem(mut self, ca_pem: &[u8], mode: ClientAuth) -> Result<Self, TlsError> {
        let roots = certificates(ca_pem, "client CA")?;
        if roots.is_empty() {
            return Err(TlsError::NoCertificate);
        }
        self.client_auth = Some((roots, mode));
        self.sources.client_ca = None;
        Ok(self)
    }

    /// How long a client has to complete the TLS handshake; a slower one is
    /// disconnected.
    ///
    /// Default is 10 seconds.
    #[must_use]
    pub fn handshake_timeout(mut self, timeout: Duration) -> Self {
        self.handshake_timeout = timeout;
        self
    }

    pub(crate) fn timeout(&self) -> Duration {
        self.handshake_timeout
    }

    /// A chain and key with the default options.
    pub(crate) fn from_parts(chain: Chain, key: Key, sources: Sources) -> Self {
        Self { chain, key: Arc::new(key), client_auth: None, handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT, sources }
    }

    /// Replaces the certificate chain, read from `path`, keeping the rest.
    pub(crate) fn with_chain(mut self, chain: Chain, path: &Path) -> Self {
        self.chain = chain;
        self.sources.cert = Some(path.to_owned());
        self
    }

    /// Replaces the private key, read from `path`, keeping the rest.
    pub(crate) fn with_key(mut self, key: Key, path: &Path) -> Self {
        self.key = Arc::new(key);
        self.sources.key = Some(path.to_owned());
        self
    }

    /// Replaces the client CA certificates, read from `path`; the mode is
    /// kept when one was set, else `Required`.
    pub(crate) fn with_client_ca(mut self, roots: Chain, path: &Path) -> Self {
        let mode = self.client_auth_mode().unwrap_or(ClientAuth::Required);
        self.client_auth = Some((roots, mode));
        self.sources.client_ca = Some(path.to_owned());
        self
    }

    /// Whether and how clients present certificates; `None` when no client
    /// CA is configured.
    pub(crate) fn client_auth_mode(&self) -> Option<ClientAuth> {
        self.client_auth.as_ref().map(|(_, mode)| *mode)
    }

    /// Changes the client-certificate mode of the configured client CA
    /// (`false` when there is none), or drops client authentication.
    pub(crate) fn set_client_auth_mode(&mut self, mode: Option<ClientAuth>) -> bool {
        match (mode, &mut self.client_auth) {
            (None, auth) => {
                *auth = None;
                self.sources.client_ca = None;
                true
            }
            (Some(mode), Some((_, current))) => {
                *current = mode;
                true
            }
            (Some(_), None) => false,
        }
    }

    pub(crate) fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The rustls configuration.
    pub(crate) fn server_config(&self) -> Result<Arc<ServerConfig>, TlsError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ServerConfig::builder_with_provider(Arc::clone(&provider))
            .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
            .map_err(|e| TlsError::Rustls(e.to_string()))?;
        let builder = match &self.client_auth {
            None => builder.with_no_client_auth(),
            Some((roots, mode)) => {
                let mut store = RootCertStore::empty();
                for root in roots {
                    store.add(root.clone()).map_err(|e| TlsError::Rustls(e.to_string()))?;
                }
                let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(store), provider);
                let verifier = match mode {
                    ClientAuth::Required => verifier,
                    ClientAuth::Optional => verifier.allow_unauthenticated(),
                };
                builder.with_client_cert_verifier(verifier.build().map_err(|e| TlsError::Rustls(e.to_string()))?)
            }
        };
        let mut config = builder
            .with_single_cert(self.chain.clone(), self.key.clone_key())
            .map_err(|e| TlsError::Rustls(e.to_string()))?;
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(Arc::new(config))
    }
}

/// A certificate chain, leaf first.
pub(crate) type Chain = Vec<CertificateDer<'static>>;
/// A private key.
pub(crate) type Key = PrivateKeyDer<'static>;

/// The certificates of a PEM file: at least one.
pub(crate) fn read_certificates(path: &Path, what: &'static str) -> Result<Chain, TlsError> {
    let chain = certificates(&read(path)?, what)?;
    if chain.is_empty() {
        return Err(TlsError::NoCertificate);
    }
    Ok(chain)
}

/// The private key of a PEM file.
pub(crate) fn read_key(path: &Path) -> Result<Key, TlsError> {
    parse_private_key(&read(path)?)
}

fn parse_private_key(pem: &[u8]) -> Result<Key, TlsError> {
    PrivateKeyDer::from_pem_slice(pem).map_err(|e| match e {
        rustls::pki_types::pem::Error::NoItemsFound => TlsError::NoPrivateKey,
        other => TlsError::Pem { what: "private key", message: other.to_string() },
    })
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read { path: path.to_owned(), source })
}

fn certificates(pem: &[u8], what: &'static str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::Pem { what, message: e.to_string() })
}
