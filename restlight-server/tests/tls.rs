//! HTTPS with a real client: a test CA made at test time, h2 and HTTP/1.1
//! chosen by ALPN, client certificates, and the handshake timeout.
#![cfg(feature = "tls")]

mod support;

use std::time::Duration;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair};
use restlight_core::{get, RequestContext};
use restlight_server::{ClientAuth, ServerHandle, TlsConfig};
use support::{restlight, Raw, TempFile};

struct Pki {
    ca_pem: String,
    server_cert: String,
    server_key: String,
    client_identity: String,
}

fn pki() -> Pki {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(DnType::CommonName, "Restlight test CA");
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();

    let leaf = |name: &str, usage: ExtendedKeyUsagePurpose| {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(vec![name.to_owned()]).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![usage];
        let cert = params.signed_by(&key, &ca).unwrap();
        (cert.pem(), key.serialize_pem())
    };
    let (server_cert, server_key) = leaf("localhost", ExtendedKeyUsagePurpose::ServerAuth);
    let (client_cert, client_key) = leaf("client", ExtendedKeyUsagePurpose::ClientAuth);
    Pki { ca_pem: ca.pem(), server_cert, server_key, client_identity: format!("{client_key}{client_cert}") }
}

fn server(tls: TlsConfig) -> ServerHandle {
    restlight()
        .tls(tls)
        .route(get("/version").handle(|ctx: RequestContext| async move { format!("{:?}", ctx.version()) }))
        .start()
        .unwrap()
}

fn client(pki: &Pki) -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .use_rustls_tls()
        .tls_built_in_root_certs(false)
        .add_root_certificate(reqwest::Certificate::from_pem(pki.ca_pem.as_bytes()).unwrap())
}

fn url(server: &ServerHandle) -> String {
    format!("https://localhost:{}/version", server.local_addr().port())
}

#[tokio::test]
async fn h2_is_chosen_by_alpn_and_http1_still_works() {
    let pki = pki();
    let server = server(TlsConfig::from_pem(pki.server_cert.as_bytes(), pki.server_key.as_bytes()).unwrap());

    let res = client(&pki).build().unwrap().get(url(&server)).send().await.unwrap();
    assert_eq!(res.version(), reqwest::Version::HTTP_2);
    assert_eq!(res.text().await.unwrap(), "HTTP/2.0");

    let res = client(&pki).http1_only().build().unwrap().get(url(&server)).send().await.unwrap();
    assert_eq!(res.version(), reqwest::Version::HTTP_11);
    assert_eq!(res.text().await.unwrap(), "HTTP/1.1");

    // Plain HTTP on the TLS port gets no answer.
    let plain = reqwest::Client::new().get(url(&server).replace("https", "http")).send().await;
    assert!(plain.is_err());
    server.shutdown_async().await;
}

#[tokio::test]
async fn client_certificates_are_required_when_configured() {
    let pki = pki();
    let tls = TlsConfig::from_pem(pki.server_cert.as_bytes(), pki.server_key.as_bytes())
        .unwrap()
        .client_auth_pem(pki.ca_pem.as_bytes(), ClientAuth::Required)
        .unwrap();
    let server = server(tls);

    let anonymous = client(&pki).build().unwrap().get(url(&server)).send().await;
    assert!(anonymous.is_err(), "a client without certificate was served");

    let identity = reqwest::Identity::from_pem(pki.client_identity.as_bytes()).unwrap();
    let res = client(&pki).identity(identity).build().unwrap().get(url(&server)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    server.shutdown_async().await;
}

#[test]
fn a_silent_client_is_cut_off_at_the_handshake_timeout() {
    let pki = pki();
    let tls = TlsConfig::from_pem(pki.server_cert.as_bytes(), pki.server_key.as_bytes())
        .unwrap()
        .handshake_timeout(Duration::from_millis(300));
    let server = server(tls);
    let mut raw = Raw::connect(server.local_addr());
    let closed = raw.closed_within(Duration::from_secs(3)).expect("a silent TLS client kept its connection");
    assert!(closed >= Duration::from_millis(150), "closed after {closed:?}");
    server.shutdown();
}

#[tokio::test]
async fn tls_configured_from_a_toml_file_serves_https() {
    let pki = pki();
    let (cert, key) = (TempFile::new("cert.pem", &pki.server_cert), TempFile::new("key.pem", &pki.server_key));
    let toml = TempFile::new(
        "tls.toml",
        &format!("[tls]\ncert_file = {}\nkey_file = {}\nhandshake_timeout_ms = 5000\n", cert.toml(), key.toml()),
    );
    let server = restlight()
        .route(get("/version").handle(|ctx: RequestContext| async move { format!("{:?}", ctx.version()) }))
        .config_file(toml.path())
        .unwrap()
        .ignore_env()
        .start()
        .unwrap();
    let res = client(&pki).build().unwrap().get(url(&server)).send().await.unwrap();
    assert_eq!(res.version(), reqwest::Version::HTTP_2);
    assert_eq!(res.text().await.unwrap(), "HTTP/2.0");
    let plain = reqwest::Client::new().get(url(&server).replace("https", "http")).send().await;
    assert!(plain.is_err(), "plain HTTP on the TLS port");
    server.shutdown_async().await;
}

#[tokio::test]
async fn client_certificates_required_by_the_file() {
    let pki = pki();
    let files = [("cert.pem", &pki.server_cert), ("key.pem", &pki.server_key), ("ca.pem", &pki.ca_pem)];
    let [cert, key, ca] = files.map(|(name, text)| TempFile::new(name, text));
    let toml = TempFile::new(
        "mtls.toml",
        &format!(
            "[tls]\ncert_file = {}\nkey_file = {}\nclient_ca_file = {}\nclient_auth = \"required\"\n",
            cert.toml(),
            key.toml(),
            ca.toml()
        ),
    );
    let server = restlight()
        .route(get("/version").handle(|ctx: RequestContext| async move { format!("{:?}", ctx.version()) }))
        .config_file(toml.path())
        .unwrap()
        .ignore_env()
        .start()
        .unwrap();
    assert!(client(&pki).build().unwrap().get(url(&server)).send().await.is_err(), "served without certificate");
    let identity = reqwest::Identity::from_pem(pki.client_identity.as_bytes()).unwrap();
    let res = client(&pki).identity(identity).build().unwrap().get(url(&server)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    server.shutdown_async().await;
}

#[test]
fn bad_pem_is_a_typed_error() {
    assert!(matches!(TlsConfig::from_pem(b"", b""), Err(restlight_server::TlsError::NoCertificate)));
    let pki = pki();
    assert!(matches!(
        TlsConfig::from_pem(pki.server_cert.as_bytes(), b"no key here"),
        Err(restlight_server::TlsError::NoPrivateKey)
    ));
    let err = TlsConfig::from_pem_files("/nonexistent/cert.pem", "/nonexistent/key.pem").unwrap_err();
    assert!(err.to_string().contains("/nonexistent/cert.pem"), "{err}");
}
