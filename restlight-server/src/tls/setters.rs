//! The [`Restlight`] setter of HTTPS.

use crate::builder::Restlight;
use crate::tls::TlsConfig;

impl Restlight {
    /// Serves HTTPS (HTTP/1.1 and h2 chosen by ALPN) instead of plain HTTP
    /// on the listening port.
    ///
    /// Default: plain HTTP/1.1 and h2c.
    pub fn tls(mut self, config: TlsConfig) -> Self {
        self.options.tls = Some(config);
        self
    }
}
