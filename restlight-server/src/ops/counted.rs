//! [`Counted`]: a request body that adds what it yields to the metrics.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;

use super::access_log::received;
use super::metrics::RequestMetrics;

pin_project! {
    /// Wraps a request body; counts its data bytes when metrics are on.
    #[derive(Debug)]
    pub(crate) struct Counted<B> {
        #[pin]
        inner: B,
        metrics: Option<Arc<RequestMetrics>>,
    }
}

impl<B> Counted<B> {
    pub(crate) fn new(inner: B, metrics: Option<Arc<RequestMetrics>>) -> Self {
        Self { inner, metrics }
    }
}

impl<B: Body<Data = Bytes>> Body for Counted<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.project();
        let polled = this.inner.poll_frame(cx);
        if let (Some(metrics), Poll::Ready(Some(Ok(frame)))) = (this.metrics.as_ref(), &polled) {
            if let Some(data) = frame.data_ref() {
                received(metrics, data.len());
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
