//! The request span as an OpenTelemetry span (feature `otel`): the
//! caller's trace as its parent, its IDs in the request's
//! [`TraceContext`], its name once routed.

use opentelemetry::trace::{
    SpanContext, SpanId as OtelSpanId, TraceContextExt, TraceFlags, TraceId as OtelTraceId, TraceState,
};
use restlight_core::trace::{SpanId, TraceId};
use restlight_core::TraceContext;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Makes the caller's span (when `trace` has one) the parent of `span`,
/// and gives back `trace` with the IDs of the OpenTelemetry span, when an
/// OpenTelemetry layer records `span`.
pub(crate) fn continue_trace(span: &tracing::Span, trace: TraceContext) -> TraceContext {
    if span.is_disabled() {
        return trace;
    }
    if let Some(parent) = trace.parent_span_id() {
        let state = trace
            .trace_state()
            .and_then(|v| v.to_str().ok())
            .and_then(|s| s.parse::<TraceState>().ok())
            .unwrap_or_default();
        let flags = if trace.is_sampled() { TraceFlags::SAMPLED } else { TraceFlags::default() };
        let remote = SpanContext::new(
            OtelTraceId::from_bytes(trace.trace_id().0),
            OtelSpanId::from_bytes(parent.0),
            flags,
            true,
            state,
        );
        // Fails only when no OpenTelemetry layer records the span.
        let _ = span.set_parent(opentelemetry::Context::new().with_remote_span_context(remote));
    }
    let cx = span.context();
    let own = cx.span().span_context().clone();
    if !own.is_valid() {
        return trace;
    }
    trace.with_span(TraceId(own.trace_id().to_bytes()), SpanId(own.span_id().to_bytes()), own.is_sampled())
}

/// Names the OpenTelemetry span (already started, so `otel.name` recorded
/// now would not reach it).
pub(crate) fn rename(span: &tracing::Span, name: String) {
    span.context().span().update_name(name);
}
