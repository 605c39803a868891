//! Server-Sent Events: [`Sse`], a `text/event-stream` response fed by a
//! stream of [`Event`]s.
//!
//! ```
//! use futures_util::stream;
//! use restlight_core::{get, Event, Sse};
//! let ticks = get("/ticks").handle(|_| async {
//!     let events = stream::iter((1..=3).map(|n| Event::new().event("tick").id(n.to_string()).data(n.to_string())));
//!     Sse::new(events)
//! });
//! # let _ = ticks;
//! ```

use std::fmt::Write as _;
use std::time::Duration;

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use http_body::Frame;
use http_body_util::StreamBody;

use crate::body::Body;
use crate::response::{IntoResponse, Response};

/// One server-sent event. Fields left out are not sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[must_use]
pub struct Event {
    text: String,
}

impl Event {
    /// An event with no field yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The `data` field; a multi-line text becomes one `data:` line each.
    pub fn data(mut self, data: impl AsRef<str>) -> Self {
        for line in data.as_ref().split('\n') {
            let _ = writeln!(self.text, "data: {}", line.trim_end_matches('\r'));
        }
        self
    }

    /// The `event` field: the event's type (line breaks are removed).
    pub fn event(self, name: impl AsRef<str>) -> Self {
        self.field("event", name.as_ref())
    }

    /// The `id` field (line breaks and NUL are removed).
    pub fn id(self, id: impl AsRef<str>) -> Self {
        self.field("id", &id.as_ref().replace('\0', ""))
    }

    /// The `retry` field: how long the client waits before reconnecting.
    pub fn retry(self, after: Duration) -> Self {
        self.field("retry", &after.as_millis().to_string())
    }

    /// A comment line, ignored by clients (useful as a keep-alive).
    pub fn comment(self, text: impl AsRef<str>) -> Self {
        self.field("", text.as_ref())
    }

    fn field(mut self, name: &str, value: &str) -> Self {
        let value: String = value.chars().filter(|c| *c != '\n' && *c != '\r').collect();
        let _ = writeln!(self.text, "{name}: {value}");
        self
    }

    /// The event as sent: its lines and the blank line that ends it.
    #[must_use]
    pub fn to_bytes(&self) -> Bytes {
        Bytes::from(format!("{}\n", self.text))
    }
}

/// A `text/event-stream` response: each event is sent as soon as the stream
/// yields it (chunked on HTTP/1.1, DATA frames on h2), with
/// `Cache-Control: no-cache`.
#[must_use]
pub struct Sse<S> {
    events: S,
}

impl<S> std::fmt::Debug for Sse<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sse").finish_non_exhaustive()
    }
}

impl<S> Sse<S>
where
    S: Stream<Item = Event> + Send + 'static,
{
    /// A response streaming `events`.
    pub fn new(events: S) -> Self {
        Self { events }
    }
}

impl<S> IntoResponse for Sse<S>
where
    S: Stream<Item = Event> + Send + 'static,
{
    fn into_response(self) -> Response {
        let frames = self.events.map(|e| Ok::<_, std::convert::Infallible>(Frame::data(e.to_bytes())));
        let mut res = Response::new(Body::from_stream(StreamBody::new(frames)));
        res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        res.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_fields() {
        let e = Event::new().event("tick").id("7").retry(Duration::from_secs(3)).data("a\nb");
        assert_eq!(e.to_bytes(), "event: tick\nid: 7\nretry: 3000\ndata: a\ndata: b\n\n");
        assert_eq!(Event::new().comment("keep\nalive").to_bytes(), ": keepalive\n\n");
    }
}
