//! A `tracing` layer that keeps every span (its fields, its parent) and
//! every event (with the fields of the spans it was made in), for the
//! request-ID and trace-context tests. Installed once per test binary.
#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

/// One span as it was closed.
#[derive(Debug, Clone, Default)]
pub struct SpanRec {
    pub name: String,
    pub target: String,
    pub fields: HashMap<String, String>,
    /// The fields of the parent span, when there is one.
    pub parent: Option<HashMap<String, String>>,
}

impl SpanRec {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

/// One event, with the fields of every span it was made in.
#[derive(Debug, Clone, Default)]
pub struct EventRec {
    pub target: String,
    pub fields: HashMap<String, String>,
    pub scope: HashMap<String, String>,
}

impl EventRec {
    pub fn message(&self) -> &str {
        self.fields.get("message").map_or("", String::as_str)
    }
}

#[derive(Default)]
pub struct Captured {
    pub spans: Vec<SpanRec>,
    pub events: Vec<EventRec>,
}

struct Fields<'a>(&'a mut HashMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

struct Capture(Arc<Mutex<Captured>>);

struct Open(SpanRec);

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Capture {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let span = ctx.span(id).expect("new span");
        let mut rec = SpanRec {
            name: attrs.metadata().name().to_owned(),
            target: attrs.metadata().target().to_owned(),
            ..SpanRec::default()
        };
        attrs.record(&mut Fields(&mut rec.fields));
        rec.parent = span.parent().and_then(|p| p.extensions().get::<Open>().map(|o| o.0.fields.clone()));
        span.extensions_mut().insert(Open(rec));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(open) = span.extensions_mut().get_mut::<Open>() {
                values.record(&mut Fields(&mut open.0.fields));
            }
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let mut rec = EventRec { target: event.metadata().target().to_owned(), ..EventRec::default() };
        event.record(&mut Fields(&mut rec.fields));
        if let Some(scope) = ctx.event_scope(event) {
            for span in scope.from_root() {
                if let Some(open) = span.extensions().get::<Open>() {
                    rec.scope.extend(open.0.fields.clone());
                }
            }
        }
        self.0.lock().unwrap().events.push(rec);
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(&id) {
            if let Some(open) = span.extensions_mut().remove::<Open>() {
                self.0.lock().unwrap().spans.push(open.0);
            }
        }
    }
}

/// What every test of the binary captured so far.
pub fn captured() -> &'static Arc<Mutex<Captured>> {
    static CAPTURED: OnceLock<Arc<Mutex<Captured>>> = OnceLock::new();
    CAPTURED.get_or_init(|| {
        let captured = Arc::new(Mutex::new(Captured::default()));
        let subscriber = tracing_subscriber::registry().with(Capture(Arc::clone(&captured)));
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber per test binary");
        captured
    })
}

/// Waits (up to 5 s) until `find` finds something in what was captured.
pub fn wait_for<T>(mut find: impl FnMut(&Captured) -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(found) = find(&captured().lock().unwrap()) {
            return found;
        }
        assert!(Instant::now() < deadline, "not captured in 5 s");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The closed request span (target `restlight::request`) whose field
/// `name` is `value`.
pub fn request_span(name: &str, value: &str) -> SpanRec {
    wait_for(|c| c.spans.iter().find(|s| s.target == "restlight::request" && s.field(name) == Some(value)).cloned())
}

/// The access-log line containing `needle`.
pub fn access_line(needle: &str) -> String {
    wait_for(|c| {
        c.events
            .iter()
            .find(|e| e.target == "restlight::access" && e.message().contains(needle))
            .map(|e| e.message().to_owned())
    })
}
