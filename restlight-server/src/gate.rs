//! Futures polled only when they woke their task themselves.
//!
//! A task that waits on several futures at once polls each of them on every
//! wake-up, whichever woke it. Some of them are dear to poll and rarely
//! ready: the accept loop's stop signal (the handle's channel and the
//! signal watchers) is polled after every accepted connection, and a
//! connection's idle timer and drain signal after every read. Polled with
//! a [`SideWake`] instead, such a future is only polled again once it has
//! woken the task itself.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use futures_util::task::AtomicWaker;

/// The waker gated futures are polled with: it notes that one of them
/// fired, then wakes the task that polls them.
#[derive(Default)]
pub(crate) struct SideWake {
    fired: AtomicBool,
    task: AtomicWaker,
}

impl SideWake {
    /// Marks the futures as fired, so that the next poll polls them: new
    /// futures are polled once, to register their own wake-ups.
    pub(crate) fn arm(&self) {
        self.fired.store(true, Ordering::Release);
    }

    /// Whether a future polled with this waker fired since the last call.
    /// The task's waker (`cx`'s) is registered again when one did, since a
    /// wake-up takes the registered waker out, or when it changed;
    /// `registered` keeps the one registered last, so that an unchanged
    /// waker costs no atomic operation on a poll where nothing fired. A
    /// wake-up sets `fired` before it takes the waker out, so while `fired`
    /// is clear the waker registered last is still there.
    pub(crate) fn take_fired(&self, registered: &mut Option<Waker>, cx: &Context<'_>) -> bool {
        // A load first: nearly every poll finds nothing fired, and the swap
        // is an atomic operation the load is not.
        let fired = self.fired.load(Ordering::Acquire) && self.fired.swap(false, Ordering::AcqRel);
        if fired || !registered.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            self.task.register(cx.waker());
            *registered = Some(cx.waker().clone());
        }
        fired
    }
}

impl Wake for SideWake {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.fired.store(true, Ordering::Release);
        self.task.wake();
    }
}

/// `inner`, polled only on its first poll and after it woke the task.
pub(crate) struct Gated<F> {
    inner: Pin<Box<F>>,
    side: Arc<SideWake>,
    waker: Waker,
    /// The task's waker as last registered with `side`.
    registered: Option<Waker>,
}

impl<F: Future> Gated<F> {
    pub(crate) fn new(inner: F) -> Self {
        let side = Arc::new(SideWake::default());
        side.arm();
        let waker = Waker::from(Arc::clone(&side));
        Gated { inner: Box::pin(inner), side, waker, registered: None }
    }
}

impl<F: Future> Future for Gated<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = &mut *self;
        if !this.side.take_fired(&mut this.registered, cx) {
            return Poll::Pending;
        }
        this.inner.as_mut().poll(&mut Context::from_waker(&this.waker))
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::future::Future;
    use std::pin::pin;
    use std::rc::Rc;
    use std::task::{Context, Poll, Waker};

    use super::Gated;

    /// Ready on its third poll; counts its polls and keeps the last waker.
    struct Counting {
        polls: Rc<Cell<u32>>,
        waker: Rc<Cell<Option<Waker>>>,
    }

    impl Future for Counting {
        type Output = &'static str;

        fn poll(self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<&'static str> {
            self.polls.set(self.polls.get() + 1);
            if self.polls.get() == 3 {
                return Poll::Ready("done");
            }
            self.waker.set(Some(cx.waker().clone()));
            Poll::Pending
        }
    }

    #[test]
    fn the_inner_future_is_polled_only_after_it_woke_the_task() {
        let (polls, waker) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(None)));
        let mut gated = pin!(Gated::new(Counting { polls: Rc::clone(&polls), waker: Rc::clone(&waker) }));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(gated.as_mut().poll(&mut cx).is_pending());
        assert_eq!(polls.get(), 1, "polled once first");
        for _ in 0..5 {
            assert!(gated.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(polls.get(), 1, "not polled again while it did not wake the task");
        waker.take().expect("the inner future's waker").wake();
        assert!(gated.as_mut().poll(&mut cx).is_pending());
        assert_eq!(polls.get(), 2, "polled again once it woke the task");
        waker.take().expect("registered again").wake_by_ref();
        assert_eq!(gated.as_mut().poll(&mut cx), Poll::Ready("done"));
        assert_eq!(polls.get(), 3);
    }

    /// Counts the wake-ups of the task polling a gated future.
    #[derive(Default)]
    struct TaskWakes(std::sync::atomic::AtomicUsize);

    impl std::task::Wake for TaskWakes {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn every_wake_up_of_the_inner_future_wakes_the_task() {
        let (polls, waker) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(None)));
        let mut gated = pin!(Gated::new(Counting { polls: Rc::clone(&polls), waker: Rc::clone(&waker) }));
        let wakes = std::sync::Arc::new(TaskWakes::default());
        let task = Waker::from(std::sync::Arc::clone(&wakes));
        let mut cx = Context::from_waker(&task);
        let woken = || wakes.0.load(std::sync::atomic::Ordering::SeqCst);
        assert!(gated.as_mut().poll(&mut cx).is_pending());
        waker.take().expect("the inner future's waker").wake();
        assert_eq!(woken(), 1, "the first wake-up reaches the task");
        assert!(gated.as_mut().poll(&mut cx).is_pending());
        // The first wake-up took the task's waker out: it must be there
        // again for the second.
        waker.take().expect("registered again").wake();
        assert_eq!(woken(), 2, "the second wake-up reaches the task too");
        assert_eq!(gated.as_mut().poll(&mut cx), Poll::Ready("done"));
    }

    #[tokio::test]
    async fn a_wake_up_from_another_thread_reaches_the_task() {
        let (tx, rx) = tokio::sync::oneshot::channel::<u8>();
        let gated = Gated::new(rx);
        let sender = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            tx.send(7).expect("the receiver waits");
        });
        // A lost wake-up fails the test instead of hanging it.
        let received = tokio::time::timeout(std::time::Duration::from_secs(10), gated).await;
        assert_eq!(received.expect("woken within 10 s").expect("sent"), 7);
        sender.join().expect("the sender ends");
    }
}
