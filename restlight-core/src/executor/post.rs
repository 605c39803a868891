//! Handoffs between the threads Restlight owns, a round at a time.
//!
//! Handing a handler from an IO thread to a business thread with
//! `Handle::spawn`, and its answer back through the task's `JoinHandle`,
//! wakes the other thread once per request each way. On a busy machine
//! every such wake-up is a context switch: the woken thread preempts the
//! waker before it can hand over a second request, so the route pays two
//! switches a request however many arrive together.
//!
//! Here each thread Restlight starts (an IO event loop or a business
//! thread) has a *post*: an inbox other threads put mail in, and a task,
//! the postman, that runs on the thread. What a thread sends during a
//! round is held in its outbox and sent when its postman next runs: the
//! first letter of a round schedules the postman behind the tasks that are
//! ready now, so a round is what the thread's runtime had to do when the
//! first letter was written. The postman then puts each destination's
//! letters in its inbox at once and wakes that destination once. A round
//! of sixty requests costs the IO thread one wake-up of each business
//! thread it used, and each business thread one wake-up of the IO thread
//! for all the answers it had.
//!
//! A letter waits at most until the tasks ready ahead of the postman have
//! each run once, which also bounds a round on a thread that never parks.
//! The postman polls each handler it receives once itself, and spawns as
//! a task of its own only one that has to wait: most handlers answer at
//! once, and then cost no task. A thread that holds no other task puts
//! its answer in the receiving inbox at once, sparing a request alone the
//! postman of the thread that ran it. Answers always go through the
//! receiving inbox, where those of several business threads share one
//! wake-up. An answer itself lies in the reply its request waits on (see
//! [`Reply`]); its letter only wakes the request, on the request's thread.
//! Threads that are not Restlight's (a runtime of the user's, a test's)
//! have no post: a handler handed over from one of them goes to the
//! receiving inbox at once, and its answer wakes the request directly
//! (a [`Ticket`] made there carries no post to answer at).

use std::cell::RefCell;
use std::future::{poll_fn, Future};
use std::panic::AssertUnwindSafe;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use futures_util::task::AtomicWaker;
use futures_util::FutureExt;
use tokio::runtime::Handle;

use super::bounded::Serve;
#[cfg(test)]
use super::AbortOnDrop;

/// Work on its way to the thread that runs it: an executor's loop of
/// handlers, each of which answers its request and stops when its request
/// is dropped (see [`Ticket`]). The loop's future is built on the thread
/// that runs it, so its memory is taken and given back by one thread: a
/// future built on the request's thread and freed on the business thread
/// would empty the request thread's allocator cache for its size, at
/// every request.
pub(crate) enum Job {
    Serve(Serve),
    /// A future built where it was sent (the post's own tests).
    #[cfg(test)]
    Future(Pin<Box<dyn Future<Output = ()> + Send>>),
}

impl Job {
    /// What the job does, boxed where it will be polled. Erased, so that
    /// every job makes one kind of task when it is spawned.
    pub(crate) fn into_future(self) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        match self {
            Self::Serve(serve) => Box::pin(serve.run()),
            #[cfg(test)]
            Self::Future(future) => future,
        }
    }
}

/// An answer on its way back: its value already lies in the reply the
/// request waits on; delivering it, on the request's thread, wakes the
/// request.
type Answer = Arc<dyn Deliver + Send + Sync>;

enum Letter {
    Run(Job),
    Deliver(Answer),
}

/// What the receiving postman does with an answer.
trait Deliver {
    /// Wakes the request that waits for the answer.
    fn deliver(&self);
}

/// Where one handler's outcome goes back to its request: one allocation
/// for the way there and the way back. The thread that ran the handler
/// puts the outcome in and mails the reply itself (an `Arc`, so the letter
/// allocates nothing); the request's thread wakes the request when the
/// letter arrives, not when the outcome is put in, which would wake it
/// from the other thread.
struct Reply<T> {
    outcome: Mutex<Option<std::thread::Result<T>>>,
    /// The request's task, woken with the answer or when the handler is
    /// dropped unanswered.
    request: AtomicWaker,
    /// The handler's task, woken when the request goes.
    handler: AtomicWaker,
    request_gone: AtomicBool,
    handler_gone: AtomicBool,
}

impl<T> Reply<T> {
    fn new() -> Self {
        Self {
            outcome: Mutex::new(None),
            request: AtomicWaker::new(),
            handler: AtomicWaker::new(),
            request_gone: AtomicBool::new(false),
            handler_gone: AtomicBool::new(false),
        }
    }
}

impl<T> Deliver for Reply<T> {
    fn deliver(&self) {
        self.request.wake();
    }
}

/// The handler's end of a [`Reply`]: puts the outcome in, or, dropped
/// without one (the handler's thread ended), tells the request at once
/// (a rare case, worth no letter).
struct Replier<T>(Option<Arc<Reply<T>>>);

impl<T> Replier<T> {
    /// Whether the request has gone; registers `cx` to be woken when it goes.
    fn request_gone(&self, cx: &Context<'_>) -> bool {
        let Some(reply) = &self.0 else { return true };
        reply.handler.register(cx.waker());
        reply.request_gone.load(Ordering::Acquire)
    }

    /// Puts `outcome` in, and gives back the reply to mail.
    fn put(mut self, outcome: std::thread::Result<T>) -> Option<Arc<Reply<T>>> {
        let reply = self.0.take()?;
        *reply.outcome.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
        Some(reply)
    }
}

impl<T> Drop for Replier<T> {
    fn drop(&mut self) {
        // A request that went first (which is why the handler stopped)
        // waits for nothing.
        if let Some(reply) = self.0.take().filter(|reply| !reply.request_gone.load(Ordering::Acquire)) {
            reply.handler_gone.store(true, Ordering::Release);
            reply.request.wake();
        }
    }
}

/// The request's end of a [`Reply`]: its outcome once put in, whether or
/// not the letter has arrived yet. Dropping it before then stops the
/// handler.
pub(crate) struct Awaited<T: Send + 'static> {
    /// `None` only once dropped.
    reply: Option<Arc<Reply<T>>>,
    /// The outcome has been taken: nothing is left to stop.
    done: bool,
}

impl<T: Send + 'static> Future for Awaited<T> {
    type Output = Result<T, Lost>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Some(reply) = &self.reply else { return Poll::Ready(Err(Lost::Cancelled)) };
        // Registered before looking: an outcome put in, or a handler
        // dropped, after the look wakes this task.
        reply.request.register(cx.waker());
        let outcome = reply.outcome.lock().unwrap_or_else(PoisonError::into_inner).take();
        let res = match outcome {
            Some(outcome) => outcome.map_err(|_panic| Lost::Panicked),
            None if reply.handler_gone.load(Ordering::Acquire) => Err(Lost::Cancelled),
            None => return Poll::Pending,
        };
        self.done = true;
        Poll::Ready(res)
    }
}

impl<T: Send + 'static> Drop for Awaited<T> {
    fn drop(&mut self) {
        let Some(mut reply) = self.reply.take() else { return };
        if !self.done {
            reply.request_gone.store(true, Ordering::Release);
            reply.handler.wake();
            return;
        }
        // Answered, and the letter that brought the answer already gone
        // (it usually is: it is dropped as it is delivered, before the
        // request runs again): kept for this thread's next request.
        if let Some(spent) = Arc::get_mut(&mut reply) {
            *spent = Reply::new();
            let _ = SPARE_REPLIES.try_with(|spare| {
                let mut spare = spare.borrow_mut();
                if spare.len() < MAX_SPARE_REPLIES {
                    spare.push(reply);
                }
            });
        }
    }
}

/// The most spare replies a thread keeps.
const MAX_SPARE_REPLIES: usize = 64;

thread_local! {
    /// Replies of requests that have ended on this thread, for its next
    /// ones. A thread that hands many requests over at once (an IO thread
    /// at 64 connections to a business route) holds as many replies at
    /// once and gives them back together, more of one size than the
    /// allocator's per-thread cache keeps, so each would take and give
    /// back its memory by the allocator's slow path.
    static SPARE_REPLIES: RefCell<Vec<Arc<dyn std::any::Any + Send + Sync>>> = const { RefCell::new(Vec::new()) };
}

/// One thread's inbox, the postman to wake when mail arrives, its runtime
/// and how many tasks the thread holds.
pub(crate) struct Post {
    inbox: Mutex<Inbox>,
    postman: AtomicWaker,
    handle: Handle,
    /// The tasks given to the thread and not finished (its worker's count).
    load: Arc<AtomicUsize>,
}

impl std::fmt::Debug for Post {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Post")
    }
}

#[derive(Default)]
struct Inbox {
    letters: Vec<Letter>,
    /// The thread has ended: mail put in now is dropped, which drops the
    /// handler (its request answers as cancelled) or the answer.
    closed: bool,
}

/// The post of the thread running now, when it is one Restlight started,
/// and what it sends this round.
struct Outbox {
    post: Arc<Post>,
    letters: Vec<(Arc<Post>, Letter)>,
    /// The postman has been woken for this round.
    rung: bool,
}

thread_local! {
    static OUTBOX: RefCell<Option<Outbox>> = const { RefCell::new(None) };
}

impl Post {
    /// The post of the thread that will run `handle`'s runtime, whose
    /// tasks `load` counts.
    pub(crate) fn new(handle: Handle, load: Arc<AtomicUsize>) -> Self {
        Self { inbox: Mutex::default(), postman: AtomicWaker::new(), handle, load }
    }

    /// The runtime of this post's thread.
    pub(crate) fn handle(&self) -> &Handle {
        &self.handle
    }

    /// Makes this thread's post: from now on what the thread sends goes by
    /// post. Call it on the thread, then run [`postman`](Self::postman) on
    /// its runtime.
    pub(crate) fn open_here(self: &Arc<Self>) {
        OUTBOX.with(|o| *o.borrow_mut() = Some(Outbox { post: Arc::clone(self), letters: Vec::new(), rung: false }));
    }

    /// Closes this thread's post once its runtime has ended: the mail in
    /// the inbox and the outbox is dropped, and so is mail that comes
    /// later.
    pub(crate) fn close_here(&self) {
        let outbox = OUTBOX.with(|o| o.borrow_mut().take());
        let letters = {
            let mut inbox = self.inbox.lock().unwrap_or_else(PoisonError::into_inner);
            inbox.closed = true;
            std::mem::take(&mut inbox.letters)
        };
        drop(letters);
        drop(outbox);
    }

    /// The task that delivers this thread's mail: it runs the handlers in
    /// the inbox and delivers the answers there, then sends the outbox.
    pub(crate) async fn postman(self: Arc<Self>) {
        let mut received = Vec::new();
        let mut sent = Vec::new();
        poll_fn(|cx: &mut Context<'_>| {
            // Registered before the inbox is read: mail put in after the
            // read wakes this task again.
            self.postman.register(cx.waker());
            self.round(cx, &mut received, &mut sent);
            Poll::<()>::Pending
        })
        .await;
    }

    fn round(&self, cx: &mut Context<'_>, received: &mut Vec<Letter>, sent: &mut Vec<(Arc<Post>, Letter)>) {
        {
            let mut inbox = self.inbox.lock().unwrap_or_else(PoisonError::into_inner);
            std::mem::swap(&mut inbox.letters, received);
        }
        // What the handlers run below send leaves with this round, below:
        // no need to wake this postman for it.
        OUTBOX.with(|o| {
            if let Some(outbox) = o.borrow_mut().as_mut() {
                outbox.rung = true;
            }
        });
        for letter in received.drain(..) {
            match letter {
                // Polled here first: most handlers answer at once, and
                // then cost no task of their own. One that waits is
                // spawned as a task, which polls it again (with its own
                // waker: a wake-up registered here only makes this
                // postman run once more for nothing).
                Letter::Run(job) => {
                    let mut job = job.into_future();
                    // A panic here (the handler's own are caught inside
                    // the job; this is one in dropping what it left) must
                    // not end the postman either.
                    if let Ok(Poll::Pending) = std::panic::catch_unwind(AssertUnwindSafe(|| job.as_mut().poll(cx))) {
                        drop(tokio::spawn(job));
                    }
                }
                // Delivering drops the answer when its request has gone
                // (the letter holds the reply's last reference then),
                // which runs the value's `Drop`: a panic there must not
                // end the postman, which every later letter needs.
                Letter::Deliver(answer) => drop(std::panic::catch_unwind(AssertUnwindSafe(move || {
                    answer.deliver();
                    drop(answer);
                }))),
            }
        }
        OUTBOX.with(|o| {
            if let Some(outbox) = o.borrow_mut().as_mut() {
                outbox.rung = false;
                std::mem::swap(&mut outbox.letters, sent);
            }
        });
        // Each destination's letters in one go, in the order they were
        // written, and one wake-up of its postman: the first letter's
        // destination and every letter to it taken out in one pass, until
        // none is left. A round writes to a few destinations (the threads
        // whose requests it answered), so a few passes; a sort by
        // destination did the same with 8 KB more code.
        while let Some(key) = sent.first().map(|(to, _)| Arc::as_ptr(to)) {
            let mut letters = sent.extract_if(.., |(to, _)| Arc::as_ptr(to) == key);
            let Some((to, first)) = letters.next() else { break };
            let mut inbox = to.inbox.lock().unwrap_or_else(PoisonError::into_inner);
            let idle = inbox.letters.is_empty();
            let mut dropped = Vec::new();
            let mut put = |letter| if inbox.closed { dropped.push(letter) } else { inbox.letters.push(letter) };
            put(first);
            for (_, letter) in letters {
                put(letter);
            }
            drop(inbox);
            drop(dropped);
            if idle {
                to.postman.wake();
            }
        }
    }

    /// Mails `letter` to this post: through the running thread's outbox
    /// when it is one of Restlight's and holds other tasks or letters; to
    /// the inbox at once otherwise (a thread with nothing else to do has
    /// nothing to send it with: a business thread's only handler's
    /// answer, which still joins the other threads' answers in the inbox).
    fn send(self: &Arc<Self>, letter: Letter) {
        let ring = OUTBOX.with(|o| match o.borrow_mut().as_mut() {
            Some(outbox) if outbox.letters.is_empty() && outbox.post.load.load(Ordering::Acquire) == 0 => Err(letter),
            Some(outbox) => {
                outbox.letters.push((Arc::clone(self), letter));
                let ring = !outbox.rung;
                outbox.rung = true;
                Ok(ring.then(|| Arc::clone(&outbox.post)))
            }
            None => Err(letter),
        });
        match ring {
            Ok(Some(own)) => own.postman.wake(),
            Ok(None) => {}
            Err(letter) => {
                let mut inbox = self.inbox.lock().unwrap_or_else(PoisonError::into_inner);
                if inbox.closed {
                    drop(inbox);
                    drop(letter);
                    return;
                }
                let idle = inbox.letters.is_empty();
                inbox.letters.push(letter);
                drop(inbox);
                if idle {
                    self.postman.wake();
                }
            }
        }
    }

    /// Runs `job` on this post's thread: with the others sent this round
    /// when the running thread is one of Restlight's, at once otherwise.
    pub(crate) fn run_job(self: &Arc<Self>, job: Job) {
        self.send(Letter::Run(job));
    }

    /// Runs `task` on this post's thread and gives its outcome to the
    /// returned future, by post when the running thread is one of
    /// Restlight's; spawned on the thread's runtime directly otherwise.
    /// Dropping the returned future stops the task at its next poll, or
    /// before its first when it has not run yet. (The tests' handoff; an
    /// executor hands its handlers over with a [`Ticket`] and
    /// [`run_job`](Self::run_job).)
    #[cfg(test)]
    pub(crate) fn run<F>(self: &Arc<Self>, task: F) -> Running<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let Some((ticket, awaited)) = Ticket::here() else {
            return Running::Task(AbortOnDrop(self.handle.spawn(task)));
        };
        self.send(Letter::Run(ticket.job(task)));
        Running::Posted(awaited)
    }
}

/// A request's claim on an answer, made on the request's thread before it
/// is known which thread will answer: the handler it becomes a [`Job`]
/// of runs on whichever thread takes it, or it is answered without one.
/// On one of Restlight's threads the answer comes back by post; on any
/// other, the thread that answers wakes the request itself.
pub(crate) struct Ticket<T> {
    replier: Replier<T>,
    back: Option<Arc<Post>>,
}

impl<T: Send + 'static> Ticket<T> {
    /// A ticket for a request on the running thread, and what the request
    /// waits on.
    pub(crate) fn new() -> (Self, Awaited<T>) {
        let back = OUTBOX.with(|o| o.borrow().as_ref().map(|outbox| Arc::clone(&outbox.post)));
        Self::to(back)
    }

    /// A ticket answered by post, on one of Restlight's threads; `None`
    /// on any other.
    #[cfg(test)]
    fn here() -> Option<(Self, Awaited<T>)> {
        let back = OUTBOX.with(|o| o.borrow().as_ref().map(|outbox| Arc::clone(&outbox.post)))?;
        Some(Self::to(Some(back)))
    }

    fn to(back: Option<Arc<Post>>) -> (Self, Awaited<T>) {
        let spare = SPARE_REPLIES.try_with(|spare| spare.borrow_mut().pop()).ok().flatten();
        // A spare reply of another kind (only the tests answer anything
        // but responses) is let go.
        let reply = spare.and_then(|spare| spare.downcast::<Reply<T>>().ok()).unwrap_or_else(|| Arc::new(Reply::new()));
        let replier = Replier(Some(Arc::clone(&reply)));
        (Self { replier, back }, Awaited { reply: Some(reply), done: false })
    }

    /// Sends `reply`, its outcome put in, back to the request.
    fn send_back(back: Option<&Arc<Post>>, reply: Arc<Reply<T>>) {
        match back {
            Some(back) => back.send(Letter::Deliver(reply)),
            None => reply.deliver(),
        }
    }

    /// Tells this ticket from every other one alive.
    pub(crate) fn id(&self) -> usize {
        self.replier.0.as_ref().map_or(0, |reply| Arc::as_ptr(reply) as usize)
    }

    /// Whether the request has gone (a job of this ticket would stop at
    /// once).
    pub(crate) fn request_gone(&self) -> bool {
        self.replier.0.as_ref().is_none_or(|reply| reply.request_gone.load(Ordering::Acquire))
    }

    /// Answers `value` without running anything.
    pub(crate) fn answer(self, value: T) {
        let Self { replier, back } = self;
        if let Some(reply) = replier.put(Ok(value)) {
            Self::send_back(back.as_ref(), reply);
        }
    }

    /// [`answering`](Self::answering) boxed, as a [`Job`] to hand over,
    /// the answer sent as soon as it is there.
    #[cfg(test)]
    pub(crate) fn job<F>(self, task: F) -> Job
    where
        F: Future<Output = T> + Send + 'static,
    {
        let answering = self.answering(task);
        Job::Future(Box::pin(async move { drop(answering.await) }))
    }

    /// The future that runs `task` wherever it is polled, and gives its
    /// outcome (a panic caught) to the request: the answer, put in the
    /// reply, leaves when what this future returns is dropped, so that
    /// the caller can give back what the request held first. It stops
    /// when the request is dropped, before or while it runs (nothing to
    /// send then).
    pub(crate) fn answering<F>(self, task: F) -> impl Future<Output = Option<Outgoing<T>>> + Send + 'static
    where
        F: Future<Output = T> + Send + 'static,
    {
        let Self { replier, back } = self;
        async move {
            let mut task = pin!(AssertUnwindSafe(task).catch_unwind());
            let outcome = poll_fn(|cx| {
                // A request dropped before or while its handler runs stops it.
                if replier.request_gone(cx) {
                    return Poll::Ready(None);
                }
                task.as_mut().poll(cx).map(Some)
            })
            .await;
            let reply = outcome.and_then(|outcome| replier.put(outcome))?;
            Some(Outgoing { reply: Some(reply), back })
        }
    }
}

/// An answer put in its reply, sent back to its request when dropped.
pub(crate) struct Outgoing<T: Send + 'static> {
    reply: Option<Arc<Reply<T>>>,
    back: Option<Arc<Post>>,
}

impl<T: Send + 'static> Drop for Outgoing<T> {
    fn drop(&mut self) {
        if let Some(reply) = self.reply.take() {
            Ticket::send_back(self.back.as_ref(), reply);
        }
    }
}

/// A task handed to another thread, and how it ended.
#[cfg(test)]
pub(crate) enum Running<T: Send + 'static> {
    /// Spawned on the thread's runtime directly; aborted when dropped.
    Task(AbortOnDrop<T>),
    /// Sent by post: the panic or the value, when it comes.
    Posted(Awaited<T>),
}

/// Why a task handed over gave no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lost {
    /// It panicked.
    Panicked,
    /// It was dropped before it finished: its thread ended.
    Cancelled,
}

#[cfg(test)]
impl<T: Send + 'static> Future for Running<T> {
    type Output = Result<T, Lost>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Self::Task(join) => Pin::new(join)
                .poll(cx)
                .map(|res| res.map_err(|e| if e.is_panic() { Lost::Panicked } else { Lost::Cancelled })),
            Self::Posted(awaited) => Pin::new(awaited).poll(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use tokio::sync::oneshot;

    use super::*;
    use crate::executor::workers::Workers;

    /// A pool of `threads` threads named `<prefix>-<n>`.
    fn pool(prefix: &'static str, threads: usize) -> Arc<Workers> {
        let n = AtomicUsize::new(0);
        Arc::new(Workers::new(threads, Duration::from_secs(1), move || {
            format!("{prefix}-{}", n.fetch_add(1, Ordering::Relaxed))
        }))
    }

    /// Runs `test` on a thread of a Restlight pool (so that what it hands
    /// over goes by post), from a test's own runtime, which hands it over
    /// directly; fails rather than hangs past ten seconds.
    fn on_restlight_thread<F>(test: F) -> F::Output
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let io = pool("post-io", 1);
        let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let running = io.spawn_ok(test);
        assert!(matches!(running, Running::Task(_)), "a test's runtime hands over directly");
        rt.block_on(async { tokio::time::timeout(Duration::from_secs(10), running).await })
            .expect("the test finished within ten seconds")
            .expect("the test neither panicked nor was dropped")
    }

    fn name() -> String {
        std::thread::current().name().unwrap_or_default().to_owned()
    }

    #[test]
    fn a_rounds_handoffs_leave_together_when_the_handing_task_yields() {
        let biz = pool("post-biz-a", 1);
        let ran = Arc::new(AtomicUsize::new(0));
        let answers = on_restlight_thread({
            let ran = Arc::clone(&ran);
            async move {
                let running: Vec<_> = (0..50)
                    .map(|i| {
                        let ran = Arc::clone(&ran);
                        biz.spawn_ok(async move {
                            ran.fetch_add(1, Ordering::SeqCst);
                            (i, name())
                        })
                    })
                    .collect();
                assert!(running.iter().all(|r| matches!(r, Running::Posted(_))), "handed over by post");
                // The round has not ended: nothing has left this thread yet.
                std::thread::sleep(Duration::from_millis(50));
                assert_eq!(ran.load(Ordering::SeqCst), 0, "no handler ran before the round ended");
                let mut answers = Vec::new();
                for r in running {
                    answers.push(r.await.unwrap());
                }
                answers
            }
        });
        assert_eq!(ran.load(Ordering::SeqCst), 50);
        assert_eq!(answers, (0..50).map(|i| (i, "post-biz-a-0".to_owned())).collect::<Vec<_>>());
    }

    #[test]
    fn an_answer_waits_for_the_tasks_ready_ahead_of_the_postman_then_leaves_with_theirs() {
        let biz = pool("post-biz-b", 1);
        let (quick, slow_done_at) = on_restlight_thread(async move {
            let quick = biz.spawn_ok(async { Instant::now() });
            let slow = biz.spawn_ok(async {
                // Blocks its thread, as a handler that blocks would.
                std::thread::sleep(Duration::from_millis(50));
                Instant::now()
            });
            let quick_finished_at = quick.await.unwrap();
            let quick_arrived_at = Instant::now();
            let slow_done_at = slow.await.unwrap();
            ((quick_finished_at, quick_arrived_at), slow_done_at)
        });
        let (quick_finished_at, quick_arrived_at) = quick;
        assert!(quick_finished_at < slow_done_at, "the quick handler ran first");
        assert!(quick_arrived_at >= slow_done_at, "its answer came back with the slow one's, at the end of the round");
    }

    #[test]
    fn a_thread_that_never_parks_still_hands_over_and_receives() {
        let biz = pool("post-biz-c", 1);
        let answer = on_restlight_thread(async move {
            // A task that keeps the thread's runtime busy: it never runs out
            // of ready tasks, so it never parks.
            let spinning = tokio::spawn(async {
                loop {
                    tokio::task::yield_now().await;
                }
            });
            let answer = biz.spawn_ok(async { name() }).await;
            spinning.abort();
            answer
        });
        assert_eq!(answer.unwrap(), "post-biz-c-0");
    }

    #[test]
    fn a_dropped_request_stops_its_handler_before_or_while_it_runs_and_gives_the_thread_back() {
        let biz = pool("post-biz-d", 1);
        let polled = Arc::new(AtomicUsize::new(0));
        let (never_started, dropped_while_running) = on_restlight_thread({
            let biz = Arc::clone(&biz);
            let polled = Arc::clone(&polled);
            async move {
                // Dropped in the round that handed it over: it never runs.
                let (guard, gone) = oneshot::channel::<()>();
                drop(biz.spawn_ok({
                    let polled = Arc::clone(&polled);
                    async move {
                        let _guard = guard;
                        polled.fetch_add(1, Ordering::SeqCst);
                    }
                }));
                // Dropped while it waits: it is dropped at its next poll.
                let (started_tx, started) = oneshot::channel::<()>();
                let (guard, stopped) = oneshot::channel::<()>();
                let waiting = biz.spawn_ok(async move {
                    let _guard = guard;
                    let _ = started_tx.send(());
                    std::future::pending::<()>().await;
                });
                started.await.unwrap();
                drop(waiting);
                (gone.await.is_err(), stopped.await.is_err())
            }
        });
        assert!(never_started, "the handler dropped before it ran was dropped");
        assert!(dropped_while_running, "the waiting handler was dropped");
        assert_eq!(polled.load(Ordering::SeqCst), 0, "a handler whose request went first never runs");
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        // The thread ran whatever was left of them before this one.
        assert_eq!(rt.block_on(biz.spawn_ok(async { name() })).unwrap(), "post-biz-d-0");
        assert_eq!(biz.running(), [0], "both gave their thread back");
    }

    /// A value whose `Drop` panics, as a careless response body might.
    struct PanicsOnDrop;

    impl Drop for PanicsOnDrop {
        fn drop(&mut self) {
            panic!("dropped");
        }
    }

    #[test]
    fn an_answer_whose_request_went_and_whose_drop_panics_does_not_stop_the_post() {
        let biz = pool("post-biz-f", 1);
        let after = on_restlight_thread(async move {
            let gone = biz.spawn_ok(async { PanicsOnDrop });
            // Its handoff leaves with this thread's postman...
            tokio::task::yield_now().await;
            // ...and its answer reaches this thread's inbox while the
            // thread is held here, before the request goes.
            std::thread::sleep(Duration::from_millis(50));
            drop(gone);
            // Delivered with the next round: dropped, and its panic caught.
            biz.spawn_ok(async { name() }).await
        });
        assert_eq!(after.unwrap(), "post-biz-f-0", "the post delivers after the panic");
    }

    #[test]
    fn a_handler_that_waits_is_polled_again_on_its_thread_when_woken() {
        let biz = pool("post-biz-g", 1);
        let (quick, waited) = on_restlight_thread(async move {
            let (tx, rx) = oneshot::channel::<u32>();
            // Polled once by the postman, it waits: it goes on as a task.
            let waits = biz.spawn_ok(async move {
                let value = rx.await.unwrap();
                tokio::task::yield_now().await;
                tokio::time::sleep(Duration::from_millis(5)).await;
                (value, name())
            });
            let quick = biz.spawn_ok(async { name() }).await.unwrap();
            tx.send(7).unwrap();
            (quick, waits.await.unwrap())
        });
        assert_eq!(quick, "post-biz-g-0");
        assert_eq!(waited, (7, "post-biz-g-0".to_owned()), "woken, it ran to its answer on its thread");
    }

    #[test]
    fn a_handler_whose_request_went_before_it_ran_and_whose_drop_panics_does_not_stop_the_post() {
        let biz = pool("post-biz-h", 1);
        let after = on_restlight_thread(async move {
            let captured = PanicsOnDrop;
            let gone = biz.spawn_ok(async move {
                let _captured = captured;
            });
            // Dropped in the round it was handed over in: the postman
            // finds its request gone and drops it unrun, which panics.
            drop(gone);
            biz.spawn_ok(async { name() }).await
        });
        assert_eq!(after.unwrap(), "post-biz-h-0", "the post runs handlers after the panic");
    }

    #[test]
    fn a_panic_or_an_ended_thread_is_reported_by_post_too() {
        let biz = pool("post-biz-e", 1);
        let (panicked, after, ended) = on_restlight_thread(async move {
            let panicked = biz.spawn_ok(async { panic!("boom") }).await.map(drop);
            let after = biz.spawn_ok(async { name() }).await;
            let waiting = biz.spawn_ok(std::future::pending::<()>());
            // Let the handler reach its thread, then end the thread.
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(biz);
            (panicked, after, waiting.await)
        });
        assert_eq!(panicked, Err(Lost::Panicked));
        assert_eq!(after.unwrap(), "post-biz-e-0", "the thread serves on after a panic");
        assert_eq!(ended, Err(Lost::Cancelled));
    }

    #[test]
    fn an_answered_reply_is_reused_by_the_next_request_on_its_thread_and_starts_empty() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let (first, awaited) = Ticket::<u32>::new();
        let id = first.id();
        // Its handler ends without answering (its thread ended).
        drop(first);
        assert_eq!(rt.block_on(awaited), Err(Lost::Cancelled));
        // Memory of the reply's size, which the allocator would hand out
        // again first had the reply been given back to it.
        let filler: Vec<u8> = Vec::with_capacity(std::mem::size_of::<Reply<u32>>() + 16);
        let (second, mut awaited) = Ticket::<u32>::new();
        assert_eq!(second.id(), id, "the first request's reply, kept by its thread");
        assert!(!second.request_gone(), "nothing of the first request's state is left");
        let waker = futures_util::task::noop_waker();
        let pending = Pin::new(&mut awaited).poll(&mut Context::from_waker(&waker));
        assert!(pending.is_pending(), "no answer and no end of a handler before this one's");
        second.answer(2);
        assert_eq!(rt.block_on(awaited), Ok(2));
        drop(filler);
        // A request that went before its answer keeps its reply from the
        // next one: its handler may still put an answer in.
        let (third, awaited) = Ticket::<u32>::new();
        assert_eq!(third.id(), id);
        drop(awaited);
        assert!(third.request_gone());
        let (fourth, awaited) = Ticket::<u32>::new();
        assert_ne!(fourth.id(), id, "a reply still held by a handler is not reused");
        third.answer(3);
        fourth.answer(4);
        assert_eq!(rt.block_on(awaited), Ok(4));
        // A spare reply of another kind is let go, not handed out.
        let (other, awaited) = Ticket::<String>::new();
        other.answer("five".to_owned());
        assert_eq!(rt.block_on(awaited), Ok("five".to_owned()));
    }
}
