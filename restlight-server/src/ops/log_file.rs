//! The access log's file: lines gathered in memory and written in batches
//! by a thread of their own, so that a request pays for copying its line
//! and nothing else.
//!
//! A request appends its line to a shared buffer under a mutex (no system
//! call, no allocation once the buffer has grown, no thread woken). The
//! writer thread takes the whole buffer every [`FLUSH_INTERVAL`], or at
//! once when it passes [`FLUSH_AT`], and writes it with one `write` to a
//! daily rolling file (`tracing-appender`'s `RollingFileAppender`). When
//! the disk falls behind and [`MAX_PENDING`] bytes wait, further lines are
//! dropped (counted, and reported as a warning) rather than slowing
//! requests or growing memory. Dropping the sink writes what is left.

use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tracing_appender::rolling::RollingFileAppender;

/// How long a line waits in memory at most before it is written.
pub(crate) const FLUSH_INTERVAL: Duration = Duration::from_millis(100);
/// Past this many bytes waiting, the writer is woken at once.
pub(crate) const FLUSH_AT: usize = 64 * 1024;
/// Past this many bytes waiting, lines are dropped.
pub(crate) const MAX_PENDING: usize = 8 * 1024 * 1024;

#[derive(Default)]
struct Shared {
    pending: Mutex<Vec<u8>>,
    wake: Condvar,
    stop: AtomicBool,
    dropped: AtomicU64,
}

/// A daily file the access log appends to.
pub(crate) struct FileSink {
    shared: Arc<Shared>,
    writer: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for FileSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileSink").field("dropped", &self.shared.dropped.load(Ordering::Relaxed)).finish()
    }
}

impl FileSink {
    /// Starts the writer of `dir/prefix.YYYY-MM-DD`.
    pub(crate) fn daily(dir: &Path, prefix: &str) -> Self {
        let file = tracing_appender::rolling::daily(dir, prefix);
        let shared = Arc::new(Shared::default());
        let writer = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("restlight-access-log".to_owned())
                .spawn(move || write_batches(&shared, file))
                .ok()
        };
        if writer.is_none() {
            tracing::error!("the access log's writer thread could not start: lines go to no file");
        }
        Self { shared, writer }
    }

    /// Queues one line (a newline is added).
    pub(crate) fn push(&self, line: &str) {
        let mut pending = self.shared.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let before = pending.len();
        if before + line.len() + 1 > MAX_PENDING {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        pending.extend_from_slice(line.as_bytes());
        pending.push(b'\n');
        let full = before < FLUSH_AT && pending.len() >= FLUSH_AT;
        drop(pending);
        if full {
            self.shared.wake.notify_one();
        }
    }
}

impl Drop for FileSink {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.shared.wake.notify_one();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

fn write_batches(shared: &Shared, mut file: RollingFileAppender) {
    let mut batch = Vec::with_capacity(FLUSH_AT);
    loop {
        let stopping = {
            let mut pending = shared.pending.lock().unwrap_or_else(PoisonError::into_inner);
            if pending.len() < FLUSH_AT && !shared.stop.load(Ordering::Acquire) {
                pending = shared.wake.wait_timeout(pending, FLUSH_INTERVAL).unwrap_or_else(PoisonError::into_inner).0;
            }
            std::mem::swap(&mut *pending, &mut batch);
            shared.stop.load(Ordering::Acquire)
        };
        if !batch.is_empty() {
            if let Err(e) = file.write_all(&batch).and_then(|()| file.flush()) {
                tracing::warn!("access log: {} bytes not written: {e}", batch.len());
            }
            batch.clear();
            // Give back what a burst grew, keeping the usual size.
            batch.shrink_to(FLUSH_AT);
        }
        let dropped = shared.dropped.swap(0, Ordering::Relaxed);
        if dropped > 0 {
            tracing::warn!("access log: {dropped} lines dropped, the file fell {MAX_PENDING} bytes behind");
        }
        if stopping {
            // A line pushed while stopping was taken with the last batch,
            // or is in `pending` now: write it too.
            let rest = std::mem::take(&mut *shared.pending.lock().unwrap_or_else(PoisonError::into_inner));
            let _ = file.write_all(&rest).and_then(|()| file.flush());
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(dir: &Path) -> String {
        let mut text = String::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            text.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
        text
    }

    #[test]
    fn lines_reach_the_file_within_the_interval_and_all_of_them_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let sink = FileSink::daily(dir.path(), "access");
        sink.push("first");
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while !read_all(dir.path()).contains("first\n") {
            assert!(std::time::Instant::now() < deadline, "not written within 5 s");
            std::thread::sleep(Duration::from_millis(20));
        }
        for i in 0..10_000 {
            sink.push(&format!("line {i}"));
        }
        drop(sink);
        let text = read_all(dir.path());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10_001);
        assert_eq!(lines[0], "first");
        assert_eq!(lines[10_000], "line 9999", "in order, none lost");
    }

    #[test]
    fn lines_past_the_pending_limit_are_dropped_and_counted() {
        let shared = Arc::new(Shared::default());
        // No writer thread: nothing drains, as with a stalled disk.
        let sink = FileSink { shared: Arc::clone(&shared), writer: None };
        let line = "x".repeat(1023);
        for _ in 0..(MAX_PENDING / 1024 + 10) {
            sink.push(&line);
        }
        assert_eq!(shared.pending.lock().unwrap().len(), MAX_PENDING);
        assert_eq!(shared.dropped.load(Ordering::Relaxed), 10);
    }
}
