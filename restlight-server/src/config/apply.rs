//! Checking the values read and applying them over the builder's.

#[cfg(feature = "tls")]
use std::path::Path;
use std::time::Duration;

use super::error::invalid;
#[cfg(feature = "tls")]
use super::sections::ClientAuthSetting;
use super::sections::{AccessLogSection, ActuatorSection, OpenApiSection, OtelSection, ServerSection, TlsSection};
use super::{ConfigError, FileConfig};
use crate::builder::Restlight;
use crate::ops::Endpoint;

impl FileConfig {
    /// Checks what can be checked without the code's settings: IP ranges,
    /// endpoint names, features, PEM files.
    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        self.server.check()?;
        if let Some(actuator) = &self.actuator {
            actuator.endpoints()?;
        }
        if let Some(log) = &self.access_log {
            log.check()?;
        }
        if let Some(tls) = &self.tls {
            tls.check()?;
        }
        if let Some(openapi) = &self.openapi {
            openapi.check()?;
        }
        if let Some(otel) = &self.otel {
            otel.check()?;
        }
        Ok(())
    }
    /// Applies the values present over the builder's.
    pub(crate) fn apply(self, r: Restlight) -> Result<Restlight, ConfigError> {
        let mut r = self.server.apply(r)?;
        if let Some(actuator) = self.actuator {
            actuator.apply(&mut r)?;
        }
        if let Some(log) = self.access_log {
            log.apply(&mut r)?;
        }
        if let Some(tls) = self.tls {
            tls.apply(&mut r)?;
        }
        if let Some(openapi) = self.openapi {
            openapi.apply(&mut r)?;
        }
        // `Otlp` reads `[otel]`: the server only checks it.
        if let Some(otel) = &self.otel {
            otel.check()?;
        }
        Ok(r)
    }
}

impl ServerSection {
    /// Checks the values that parse but may be invalid (IP ranges).
    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        self.clone().apply(Restlight::new().ignore_env()).map(drop)
    }

    /// Applies the values present, through the builder's setters.
    pub(crate) fn apply(self, mut r: Restlight) -> Result<Restlight, ConfigError> {
        let d = Duration::from_millis;
        macro_rules! set {
            ($($field:ident => $setter:ident $(($map:expr))?),* $(,)?) => {
                $(if let Some(v) = self.$field { r = r.$setter($( $map )?(v)); })*
            };
        }
        set! {
            port => port,
            bind => bind,
            io_threads => io_threads,
            biz_threads => biz_threads,
            shutdown_timeout_ms => shutdown_timeout(d),
            header_read_timeout_ms => header_read_timeout(d),
            idle_timeout_ms => idle_timeout(d),
            max_header_size => max_header_size,
            h2_max_concurrent_streams => h2_max_concurrent_streams,
            max_headers => max_headers,
            h2_initial_stream_window_size => h2_initial_stream_window_size,
            h2_initial_connection_window_size => h2_initial_connection_window_size,
            h2_keep_alive_timeout_ms => h2_keep_alive_timeout(d),
            h2_max_pending_accept_reset_streams => h2_max_pending_accept_reset_streams,
            h2_max_local_error_reset_streams => h2_max_local_error_reset_streams,
            body_read_timeout_ms => body_read_timeout(d),
            min_body_rate => min_body_rate,
            min_body_rate_grace_ms => min_body_rate_grace(d),
            write_timeout_ms => write_timeout(d),
            max_connections => max_connections,
            max_body_size => max_body_size,
            biz_queue => biz_queue,
            biz_max_active => biz_max_active,
            compression => compression,
            compression_threshold => compression_threshold,
            format_suffix => format_suffix,
            strict_matching => strict_matching,
            request_ids => request_ids,
            trace_context => trace_context,
        }
        if let Some(name) = self.request_id_header {
            let name = http::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| invalid("server.request_id_header", format!("`{name}` is not a header name")))?;
            r = r.request_id_header(name);
        }
        if let Some(name) = self.default_scheduler {
            r = r.default_scheduler(&name);
        }
        if let Some(name) = self.format_parameter {
            r = r.format_parameter(&name);
        }
        if let Some(ms) = self.h2_keep_alive_interval_ms {
            r = r.h2_keep_alive_interval((ms > 0).then(|| d(ms)));
        }
        if let Some(n) = self.max_connections_per_second {
            r = r.max_connections_per_second((n > 0).then_some(n));
        }
        if let Some(list) = self.allow_ips {
            let ranges = list
                .iter()
                .map(|s| s.parse::<crate::IpRange>().map_err(|e| invalid("server.allow_ips", e)))
                .collect::<Result<Vec<_>, _>>()?;
            r = r.allow_ips(ranges);
        }
        Ok(r)
    }
}

impl ActuatorSection {
    /// `expose`, as endpoints.
    fn endpoints(&self) -> Result<Option<Vec<Endpoint>>, ConfigError> {
        self.expose
            .as_ref()
            .map(|names| {
                names.iter().map(|n| n.parse::<Endpoint>().map_err(|e| invalid("actuator.expose", e))).collect()
            })
            .transpose()
    }

    fn apply(self, r: &mut Restlight) -> Result<(), ConfigError> {
        let expose = self.endpoints()?;
        if self.enabled == Some(false) {
            r.actuator = None;
            return Ok(());
        }
        let mut a = r.actuator.take().unwrap_or_default();
        if let Some(path) = self.base_path {
            a = a.base_path(&path);
        }
        if let Some(port) = self.port {
            a = a.port(port);
        }
        if let Some(expose) = expose {
            a = a.expose(&expose);
        }
        if let Some(allow) = self.allow_executor_resize {
            a = a.allow_executor_resize(allow);
        }
        a.name = self.app_name.or(a.name);
        a.version = self.app_version.or(a.version);
        match (&a.name, &a.version) {
            (Some(_), None) => return Err(invalid("actuator.app_version", "must be set with `actuator.app_name`")),
            (None, Some(_)) => return Err(invalid("actuator.app_name", "must be set with `actuator.app_version`")),
            _ => {}
        }
        r.actuator = Some(a);
        Ok(())
    }
}

impl AccessLogSection {
    /// The file settings need the `access-log-file` feature.
    fn check(&self) -> Result<(), ConfigError> {
        if cfg!(feature = "access-log-file") {
            return Ok(());
        }
        let key = if self.directory.is_some() {
            "access_log.directory"
        } else if self.file_prefix.is_some() {
            "access_log.file_prefix"
        } else {
            return Ok(());
        };
        Err(invalid(
            key,
            "the access-log file needs the cargo feature `access-log-file` (of restlight or restlight-server)",
        ))
    }

    fn apply(self, r: &mut Restlight) -> Result<(), ConfigError> {
        self.check()?;
        if self.enabled == Some(false) {
            r.access_log = None;
            return Ok(());
        }
        #[cfg_attr(not(feature = "access-log-file"), allow(unused_mut))]
        let mut log = r.access_log.take().unwrap_or_default();
        #[cfg(feature = "access-log-file")]
        match (self.directory, self.file_prefix) {
            (None, None) => {}
            (Some(dir), _) if dir.as_os_str().is_empty() => log.file = None,
            (Some(dir), prefix) => {
                if let Err(e) = std::fs::create_dir_all(&dir) {
                    return Err(invalid(
                        "access_log.directory",
                        format_args!("cannot create `{}`: {e}", dir.display()),
                    ));
                }
                let prefix = prefix.or_else(|| log.file.take().map(|(_, p)| p)).unwrap_or_else(|| "access".to_owned());
                log.file = Some((dir, prefix));
            }
            (None, Some(prefix)) => match &mut log.file {
                Some((_, p)) => *p = prefix,
                None => {
                    return Err(invalid(
                        "access_log.file_prefix",
                        "there is no access-log file: set `access_log.directory` too",
                    ))
                }
            },
        }
        r.access_log = Some(log);
        Ok(())
    }
}

impl OpenApiSection {
    /// The version names a version; the endpoints need the `openapi` feature.
    fn check(&self) -> Result<(), ConfigError> {
        if let Some(v) = &self.version {
            if !matches!(v.as_str(), "3.1" | "3.0") {
                return Err(invalid(
                    "openapi.version",
                    format_args!("`{v}` is not an OpenAPI version: write \"3.1\" or \"3.0\""),
                ));
            }
        }
        if cfg!(feature = "openapi") || self.enabled == Some(false) {
            return Ok(());
        }
        Err(invalid(
            "openapi",
            "the OpenAPI endpoints need the cargo feature `openapi` (of restlight or restlight-server)",
        ))
    }

    #[cfg_attr(not(feature = "openapi"), allow(clippy::unnecessary_wraps))]
    fn apply(self, r: &mut Restlight) -> Result<(), ConfigError> {
        self.check()?;
        #[cfg(feature = "openapi")]
        {
            if self.enabled == Some(false) {
                r.openapi = None;
                return Ok(());
            }
            let mut docs = r.openapi.take().unwrap_or_default();
            let path = |p: String| if p.is_empty() { None } else { Some(p) };
            if let Some(p) = self.json_path {
                docs.json_path = path(p);
            }
            if let Some(p) = self.yaml_path {
                docs.yaml_path = path(p);
            }
            if let Some(p) = self.ui_path {
                docs.ui_path = path(p);
            }
            if let Some(v) = self.version {
                docs.version = if v == "3.0" {
                    restlight_core::openapi::OpenApiVersion::V3_0
                } else {
                    restlight_core::openapi::OpenApiVersion::V3_1
                };
            }
            if let Some(t) = self.title {
                docs.title = t;
            }
            if let Some(v) = self.api_version {
                docs.api_version = v;
            }
            r.openapi = Some(docs);
        }
        #[cfg(not(feature = "openapi"))]
        let _ = r;
        Ok(())
    }
}

/// The first key of a feature's table that is set (the table's name when
/// none is), for the error a build without that feature gives; `None` when
/// the table only turns the feature off (`enabled = false`).
fn first_key_set(table: &'static str, enabled: Option<bool>, keys: &[(&'static str, bool)]) -> Option<&'static str> {
    if enabled == Some(false) {
        return None;
    }
    Some(keys.iter().find(|(_, set)| *set).map_or(table, |(key, _)| *key))
}

impl OtelSection {
    /// The first key set, for the error without the `otel` feature; `None`
    /// when the table only turns the export off.
    fn wants_otel(&self) -> Option<&'static str> {
        first_key_set(
            "otel",
            self.enabled,
            &[
                ("otel.endpoint", self.endpoint.is_some()),
                ("otel.service_name", self.service_name.is_some()),
                ("otel.sampler_ratio", self.sampler_ratio.is_some()),
                ("otel.headers", self.headers.is_some()),
                ("otel.timeout_ms", self.timeout_ms.is_some()),
                ("otel.enabled", self.enabled.is_some()),
            ],
        )
    }

    /// The export needs the `otel` feature; the values must make a working
    /// exporter: an `http://` URL, a ratio from 0 to 1, header names and
    /// non-empty values, a timeout above zero.
    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        if !cfg!(feature = "otel") {
            return match self.wants_otel() {
                None => Ok(()),
                Some(key) => Err(invalid(
                    key,
                    "OpenTelemetry export needs the cargo feature `otel` (of restlight or restlight-server)",
                )),
            };
        }
        if let Some(url) = &self.endpoint {
            let uri = url.parse::<http::Uri>().map_err(|e| invalid("otel.endpoint", format_args!("`{url}`: {e}")))?;
            if uri.scheme() != Some(&http::uri::Scheme::HTTP) || uri.host().is_none() {
                return Err(invalid(
                    "otel.endpoint",
                    format_args!("`{url}` is not an http:// URL (such as \"http://collector:4318/v1/traces\")"),
                ));
            }
        }
        if let Some(ratio) = self.sampler_ratio {
            if !(0.0..=1.0).contains(&ratio) {
                return Err(invalid(
                    "otel.sampler_ratio",
                    format_args!("`{ratio}` is not a ratio: write a number from 0.0 (no trace) to 1.0 (every trace)"),
                ));
            }
        }
        for (name, value) in self.headers.iter().flatten() {
            if http::HeaderName::from_bytes(name.as_bytes()).is_err() {
                return Err(invalid("otel.headers", format_args!("`{name}` is not a header name")));
            }
            if value.is_empty() || http::HeaderValue::from_str(value).is_err() {
                return Err(invalid(
                    "otel.headers",
                    format_args!("the value of `{name}` is not a header value (empty, or with control characters)"),
                ));
            }
        }
        if self.timeout_ms == Some(0) {
            return Err(invalid("otel.timeout_ms", "`0` is no time: write the milliseconds an export may take"));
        }
        Ok(())
    }
}

impl TlsSection {
    /// The first key set, for the error without the `tls` feature; `None`
    /// when the table only turns TLS off.
    #[cfg_attr(feature = "tls", allow(dead_code))]
    fn wants_tls(&self) -> Option<&'static str> {
        first_key_set(
            "tls",
            self.enabled,
            &[
                ("tls.cert_file", self.cert_file.is_some()),
                ("tls.key_file", self.key_file.is_some()),
                ("tls.client_ca_file", self.client_ca_file.is_some()),
                ("tls.client_auth", self.client_auth.is_some()),
                ("tls.handshake_timeout_ms", self.handshake_timeout_ms.is_some()),
                ("tls.enabled", self.enabled.is_some()),
            ],
        )
    }

    #[cfg(not(feature = "tls"))]
    fn check(&self) -> Result<(), ConfigError> {
        match self.wants_tls() {
            None => Ok(()),
            Some(key) => Err(invalid(key, "TLS needs the cargo feature `tls` (of restlight or restlight-server)")),
        }
    }

    #[cfg(not(feature = "tls"))]
    fn apply(self, _: &mut Restlight) -> Result<(), ConfigError> {
        self.check()
    }

    /// Reads the PEM files set, unless the table turns TLS off.
    #[cfg(feature = "tls")]
    fn check(&self) -> Result<(), ConfigError> {
        if self.enabled == Some(false) {
            return Ok(());
        }
        self.chain()?;
        self.key()?;
        self.client_ca()?;
        Ok(())
    }

    #[cfg(feature = "tls")]
    fn chain(&self) -> Result<Option<(crate::tls::Chain, &Path)>, ConfigError> {
        let read = |p: &Path| crate::tls::read_certificates(p, "certificate");
        pem("tls.cert_file", self.cert_file.as_deref(), read)
    }

    #[cfg(feature = "tls")]
    fn key(&self) -> Result<Option<(crate::tls::Key, &Path)>, ConfigError> {
        pem("tls.key_file", self.key_file.as_deref(), crate::tls::read_key)
    }

    #[cfg(feature = "tls")]
    fn client_ca(&self) -> Result<Option<(crate::tls::Chain, &Path)>, ConfigError> {
        let read = |p: &Path| crate::tls::read_certificates(p, "client CA");
        pem("tls.client_ca_file", self.client_ca_file.as_deref(), read)
    }

    #[cfg(feature = "tls")]
    fn apply(self, r: &mut Restlight) -> Result<(), ConfigError> {
        use crate::tls::{ClientAuth, TlsConfig};
        if self.enabled == Some(false) {
            r.options.tls = None;
            return Ok(());
        }
        let (chain, key, client_ca) = (self.chain()?, self.key()?, self.client_ca()?);
        let mut tls = match (r.options.tls.take(), chain, key) {
            (Some(mut tls), chain, key) => {
                if let Some((chain, path)) = chain {
                    tls = tls.with_chain(chain, path);
                }
                if let Some((key, path)) = key {
                    tls = tls.with_key(key, path);
                }
                tls
            }
            (None, Some((chain, cert_path)), Some((key, key_path))) => {
                let sources = crate::tls::Sources {
                    cert: Some(cert_path.to_owned()),
                    key: Some(key_path.to_owned()),
                    client_ca: None,
                };
                TlsConfig::from_parts(chain, key, sources)
            }
            (None, None, _) => {
                return Err(invalid(
                    "tls.cert_file",
                    "TLS is on but has no certificate: set `tls.cert_file` and `tls.key_file`",
                ))
            }
            (None, Some(_), None) => {
                return Err(invalid("tls.key_file", "TLS is on but has no private key: set `tls.key_file`"))
            }
        };
        if let Some((roots, path)) = client_ca {
            tls = tls.with_client_ca(roots, path);
        }
        let mode = match self.client_auth {
            None => None,
            Some(ClientAuthSetting::None) => Some(None),
            Some(ClientAuthSetting::Required) => Some(Some(ClientAuth::Required)),
            Some(ClientAuthSetting::Optional) => Some(Some(ClientAuth::Optional)),
        };
        if let Some(mode) = mode {
            if !tls.set_client_auth_mode(mode) {
                return Err(invalid("tls.client_auth", "there is no client CA: set `tls.client_ca_file` too"));
            }
        }
        if let Some(ms) = self.handshake_timeout_ms {
            tls = tls.handshake_timeout(Duration::from_millis(ms));
        }
        r.options.tls = Some(tls);
        Ok(())
    }
}

/// Reads the PEM file of `key`, if set; an error names the key and the path.
#[cfg(feature = "tls")]
fn pem<'a, T>(
    key: &str,
    path: Option<&'a Path>,
    read: impl Fn(&Path) -> Result<T, crate::tls::TlsError>,
) -> Result<Option<(T, &'a Path)>, ConfigError> {
    let Some(path) = path else { return Ok(None) };
    match read(path) {
        Ok(value) => Ok(Some((value, path))),
        Err(e @ crate::tls::TlsError::Read { .. }) => Err(invalid(key, e)),
        Err(e) => Err(invalid(key, format_args!("`{}`: {e}", path.display()))),
    }
}
