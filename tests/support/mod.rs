//! Shared helpers for the socket-level tests.
#![allow(dead_code)]

use std::net::SocketAddr;

use restlight::{Restlight, ServerHandle};

/// A server on an ephemeral port, shut down when dropped.
pub struct TestServer {
    pub handle: Option<ServerHandle>,
    pub addr: SocketAddr,
}

impl TestServer {
    pub fn start(app: Restlight) -> Self {
        let handle = app.bind([127, 0, 0, 1]).port(0).start().expect("server starts");
        let addr = handle.local_addr();
        Self { handle: Some(handle), addr }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.shutdown();
        }
    }
}

/// The name of the thread this runs on.
pub fn thread_name() -> String {
    std::thread::current().name().unwrap_or_default().to_owned()
}

/// An HTTP/1.1 client.
pub fn http1() -> reqwest::Client {
    reqwest::Client::builder().http1_only().build().unwrap()
}

/// An h2c client (HTTP/2 with prior knowledge).
pub fn h2c() -> reqwest::Client {
    reqwest::Client::builder().http2_prior_knowledge().build().unwrap()
}

/// One answer, whichever way the request went.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: http::HeaderMap,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// The same request through the mock client, HTTP/1.1 or h2c.
pub enum Transport {
    Mock(restlight::test::MockClient),
    Http { client: reqwest::Client, server: TestServer, version: http::Version },
}

impl Transport {
    pub fn mock(app: Restlight) -> Self {
        Self::Mock(app.mock().expect("app builds"))
    }

    pub fn http1(app: Restlight) -> Self {
        Self::Http { client: http1(), server: TestServer::start(app), version: http::Version::HTTP_11 }
    }

    pub fn h2c(app: Restlight) -> Self {
        Self::Http { client: h2c(), server: TestServer::start(app), version: http::Version::HTTP_2 }
    }

    pub async fn call(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
        let method = http::Method::from_bytes(method.as_bytes()).unwrap();
        match self {
            Self::Mock(client) => {
                let mut req = client.request(method, path);
                for (k, v) in headers {
                    req = req.header(k, v);
                }
                let res = req.body(body.to_owned()).send().await;
                Answer { status: res.status().as_u16(), headers: res.headers().clone(), body: res.text() }
            }
            Self::Http { client, server, version } => {
                let mut req = client.request(method, server.url(path)).version(*version);
                for (k, v) in headers {
                    req = req.header(*k, *v);
                }
                if !body.is_empty() {
                    req = req.body(body.to_owned());
                }
                let res = req.send().await.expect("request sent");
                assert_eq!(res.version(), *version, "protocol version");
                let status = res.status().as_u16();
                let headers = res.headers().clone();
                let body = res.text().await.unwrap();
                Answer { status, headers, body }
            }
        }
    }
}
