//! The write timeout of one HTTP/2 stream.
//!
//! With HTTP/2, a client that stops reading usually does not stop the
//! socket: it just never opens its flow-control window again. The h2 layer
//! then writes nothing, so the connection's write timeout ([`TimedIo`]) never
//! starts, and the stream (with its response body and the data the h2 layer
//! holds for it) would stay forever.
//!
//! hyper sends a response body on a task of its own per stream: it takes a
//! piece from the body, waits for flow-control capacity, hands the piece to
//! the h2 layer, and only then asks the body for the next one. So a body
//! that has handed over a piece and is not asked for the next one for the
//! write timeout belongs to a stalled stream. [`StreamExec`] runs each
//! stream's task inside [`Watched`], which learns from the body (through a
//! thread-local set while the task is polled) whether it handed over a
//! piece, and drops the task when no further piece was asked for within the
//! write timeout: the h2 layer then resets the stream (`RST_STREAM`
//! `CANCEL`) and frees what it held for it, and the body is dropped.
//!
//! A body waiting for the application (a slow producer, an SSE stream
//! between events) is not stalled: the timer runs only while a piece is
//! handed over and waiting for the client.
//!
//! The response body cuts its pieces to at most [`H2_PIECE`] bytes, so the
//! h2 layer never holds much more than the client's window of a large
//! response: without that, a body of one large piece is handed over whole,
//! and the stream looks finished while the h2 layer still holds most of it.
//!
//! [`TimedIo`]: super::TimedIo

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

/// The largest piece an HTTP/2 response body hands over at a time.
pub(crate) const H2_PIECE: usize = 64 * 1024;

/// What a stream's body did while its task was polled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Progress {
    /// The body was not asked for anything.
    Untouched,
    /// The body handed over a piece of data, which now waits to be sent.
    Handed,
    /// The body was asked and answered otherwise (not ready, trailers, end,
    /// an error): nothing of it waits for the client.
    Idle,
}

thread_local! {
    static PROGRESS: Cell<Progress> = const { Cell::new(Progress::Untouched) };
}

/// Called by an HTTP/2 response body each time it is polled: whether it
/// handed over a piece of data.
pub(crate) fn note_body_poll(handed: bool) {
    PROGRESS.set(if handed { Progress::Handed } else { Progress::Idle });
}

/// The executor of an HTTP/2 connection's stream tasks: tokio's, each task
/// watched for a stalled response body.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StreamExec {
    pub(crate) write_timeout: Duration,
}

impl<F> hyper::rt::Executor<F> for StreamExec
where
    F: Future<Output = ()> + Send + 'static,
{
    fn execute(&self, fut: F) {
        tokio::spawn(Watched { inner: fut, timeout: self.write_timeout, waiting: false, stalled: None });
    }
}

pin_project_lite::pin_project! {
    /// A stream's task, ended when its body has a piece waiting for the
    /// client for the write timeout.
    struct Watched<F> {
        #[pin]
        inner: F,
        timeout: Duration,
        // The body handed over a piece and has not been asked again.
        waiting: bool,
        // Armed (and re-armed at each new piece) while `waiting` and the
        // task is pending; a timer is only made for a stream that waits.
        stalled: Option<Pin<Box<Sleep>>>,
    }
}

impl<F: Future<Output = ()>> Future for Watched<F> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let me = self.project();
        let before = PROGRESS.replace(Progress::Untouched);
        let polled = me.inner.poll(cx);
        let progress = PROGRESS.replace(before);
        if polled.is_ready() {
            return Poll::Ready(());
        }
        match progress {
            Progress::Untouched => {}
            Progress::Idle => {
                *me.waiting = false;
            }
            Progress::Handed => {
                *me.waiting = true;
                let deadline = Instant::now() + *me.timeout;
                match me.stalled {
                    Some(sleep) => sleep.as_mut().reset(deadline),
                    None => *me.stalled = Some(Box::pin(tokio::time::sleep_until(deadline))),
                }
            }
        }
        if !*me.waiting {
            return Poll::Pending;
        }
        let Some(sleep) = me.stalled else { return Poll::Pending };
        if sleep.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        tracing::debug!(
            timeout = ?*me.timeout,
            "resetting an HTTP/2 stream: the client took none of its response for the write timeout"
        );
        Poll::Ready(())
    }
}
