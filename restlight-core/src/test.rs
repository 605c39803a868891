//! Drive an application in-process, without sockets: the same routing,
//! executors, codecs and error answers as over the network.
//!
//! ```
//! use restlight_core::{get, AppBuilder, test::MockClient};
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let app = AppBuilder::new().route(get("/ping").handle(|_| async { "pong" })).build().unwrap();
//! let client = MockClient::new(app);
//! let res = client.get("/ping").send().await;
//! assert_eq!(res.status(), 200);
//! assert_eq!(res.text(), "pong");
//! # }
//! ```

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE, COOKIE, HOST};
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::Full;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::app::App;

/// An in-process client for an [`App`].
#[derive(Debug, Clone)]
pub struct MockClient {
    app: App,
}

impl MockClient {
    /// A client for `app`.
    #[must_use]
    pub fn new(app: App) -> Self {
        Self { app }
    }

    /// The application behind the client.
    #[must_use]
    pub fn app(&self) -> &App {
        &self.app
    }

    /// A request with any method.
    pub fn request(&self, method: Method, uri: &str) -> MockRequest<'_> {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_static("localhost"));
        MockRequest { client: self, method, uri: uri.to_owned(), headers, body: Bytes::new(), error: None }
    }

    /// A `GET` request.
    pub fn get(&self, uri: &str) -> MockRequest<'_> {
        self.request(Method::GET, uri)
    }

    /// A `POST` request.
    pub fn post(&self, uri: &str) -> MockRequest<'_> {
        self.request(Method::POST, uri)
    }

    /// A `PUT` request.
    pub fn put(&self, uri: &str) -> MockRequest<'_> {
        self.request(Method::PUT, uri)
    }

    /// A `DELETE` request.
    pub fn delete(&self, uri: &str) -> MockRequest<'_> {
        self.request(Method::DELETE, uri)
    }

    /// A `PATCH` request.
    pub fn patch(&self, uri: &str) -> MockRequest<'_> {
        self.request(Method::PATCH, uri)
    }

    /// A `HEAD` request.
    pub fn head(&self, uri: &str) -> MockRequest<'_> {
        self.request(Method::HEAD, uri)
    }

    /// An `OPTIONS` request.
    pub fn options(&self, uri: &str) -> MockRequest<'_> {
        self.request(Method::OPTIONS, uri)
    }
}

/// A request being built; [`send`](Self::send) runs it.
#[derive(Debug)]
#[must_use]
pub struct MockRequest<'a> {
    client: &'a MockClient,
    method: Method,
    uri: String,
    headers: HeaderMap,
    body: Bytes,
    error: Option<String>,
}

impl MockRequest<'_> {
    /// Appends a header.
    ///
    /// # Panics
    /// When sent, if the name or value is not valid in HTTP.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        match (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            (Ok(n), Ok(v)) => {
                self.headers.append(n, v);
            }
            _ => self.error = Some(format!("invalid header `{name}: {value}`")),
        }
        self
    }

    /// Sets `Content-Type`.
    pub fn content_type(self, media: &str) -> Self {
        self.header(CONTENT_TYPE.as_str(), media)
    }

    /// Sets `Accept`.
    pub fn accept(self, media: &str) -> Self {
        self.header(ACCEPT.as_str(), media)
    }

    /// Adds a cookie.
    pub fn cookie(self, name: &str, value: &str) -> Self {
        self.header(COOKIE.as_str(), &format!("{name}={value}"))
    }

    /// Sets the body.
    pub fn body(mut self, body: impl Into<Bytes>) -> Self {
        self.body = body.into();
        self
    }

    /// Sets a JSON body and `Content-Type: application/json`.
    ///
    /// # Panics
    /// If the value cannot be serialised.
    pub fn json<T: Serialize + ?Sized>(mut self, value: &T) -> Self {
        self.body = serde_json::to_vec(value).expect("serialisable test value").into();
        self.content_type("application/json")
    }

    /// Sets an `application/x-www-form-urlencoded` body.
    pub fn form(mut self, fields: &[(&str, &str)]) -> Self {
        let encoded = form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
        self.body = encoded.into();
        self.content_type("application/x-www-form-urlencoded")
    }

    /// Runs the request through the application.
    ///
    /// # Panics
    /// If the request could not be built (a bad header or URI).
    pub async fn send(self) -> MockResponse {
        if let Some(e) = self.error {
            panic!("{e}");
        }
        let mut req =
            Request::builder().method(self.method).uri(&self.uri).body(Full::new(self.body)).expect("valid request");
        *req.headers_mut() = self.headers;
        let res = self.client.app.dispatch(req, None).await;
        let (parts, body) = res.into_parts();
        let body = body.collect_bytes().await.expect("response body");
        MockResponse { status: parts.status, headers: parts.headers, body }
    }

    /// Runs the request and waits for the answer, from code that is not
    /// async.
    ///
    /// # Panics
    /// Inside an async runtime (use [`send`](Self::send) there).
    pub fn send_blocking(self) -> MockResponse {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime for the mock request")
            .block_on(self.send())
    }
}

/// A response received by the [`MockClient`].
#[derive(Debug, Clone)]
pub struct MockResponse {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl MockResponse {
    /// The status.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The headers.
    #[must_use]
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// A header as text.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body.
    #[must_use]
    pub fn bytes(&self) -> &Bytes {
        &self.body
    }

    /// The body as text (lossy).
    #[must_use]
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    ///
    /// # Panics
    /// If the body is not JSON of that shape; the message shows the body.
    #[must_use]
    pub fn json<T: DeserializeOwned>(&self) -> T {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("response body is not the expected JSON ({e}): {}", self.text()))
    }
}
