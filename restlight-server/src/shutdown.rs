//! The process signals that end [`Restlight::run`](crate::Restlight::run).
//!
//! On Unix, SIGINT and SIGTERM are each registered (with `signal-hook`'s
//! self-pipe) to write a byte into a socket pair whose other end the
//! server's runtime reads, and unregistered when the wait ends. Tokio's
//! own signal support is not used: it keeps a slot for every signal number
//! (65 on Linux, each with a channel), and every runtime built with it
//! registers a descriptor of its own with its event loop, which a server
//! that listens for two signals, in one place, does without.

/// Completes on the next SIGINT (Ctrl-C) or, on Unix, SIGTERM, and names it.
///
/// Listening starts at the first poll, so a signal delivered before that is
/// not seen. A signal that cannot be listened for is logged and never
/// fires, rather than being taken for a request to stop.
pub(crate) async fn signal() -> &'static str {
    #[cfg(unix)]
    let next = unix::next();
    #[cfg(not(unix))]
    let next = ctrl_c();
    // Boxed: inline, the wait made the server thread's stack frame (which
    // holds the whole server's future) twice as large.
    Box::pin(next).await
}

/// Ctrl-C, where there is no SIGTERM.
#[cfg(not(unix))]
async fn ctrl_c() -> &'static str {
    if let Err(err) = tokio::signal::ctrl_c().await {
        tracing::warn!(%err, "cannot listen for Ctrl-C");
        std::future::pending::<()>().await;
    }
    "SIGINT"
}

#[cfg(unix)]
mod unix {
    use std::io;

    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::low_level::pipe;
    use signal_hook::SigId;
    use tokio::net::UnixStream;

    /// One signal: its registration, and the end of the socket pair its
    /// handler writes into.
    struct Watched {
        name: &'static str,
        id: SigId,
        read: UnixStream,
    }

    impl Watched {
        fn new(signal: i32, name: &'static str) -> io::Result<Self> {
            let (read, write) = std::os::unix::net::UnixStream::pair()?;
            read.set_nonblocking(true)?;
            let id = pipe::register(signal, write)?;
            // Registered: a failure from here on unregisters it (dropping a
            // `Watched` would, but there is none yet).
            match UnixStream::from_std(read) {
                Ok(read) => Ok(Self { name, id, read }),
                Err(err) => {
                    signal_hook::low_level::unregister(id);
                    Err(err)
                }
            }
        }

        /// Completes once the signal has arrived (its byte is read).
        async fn arrived(&self) -> &'static str {
            let mut buf = [0u8; 8];
            loop {
                let read = match self.read.readable().await {
                    Ok(()) => self.read.try_read(&mut buf),
                    Err(e) => Err(e),
                };
                match read {
                    Ok(n) if n > 0 => return self.name,
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    // The end of the stream (the write end is closed only
                    // when unregistered) or an error: it never fires.
                    _ => return std::future::pending().await,
                }
            }
        }
    }

    impl Drop for Watched {
        /// The handler no longer writes (and the write end is closed). As
        /// with Tokio's signals, the process's handler stays installed, so
        /// the signal's default action (ending the process) does not come
        /// back.
        fn drop(&mut self) {
            signal_hook::low_level::unregister(self.id);
        }
    }

    /// The next SIGINT or SIGTERM, listened for from the first poll.
    pub(super) async fn next() -> &'static str {
        match Listener::new() {
            Ok(listener) => listener.next().await,
            Err(err) => {
                tracing::warn!(%err, "cannot listen for SIGINT and SIGTERM");
                std::future::pending().await
            }
        }
    }

    /// SIGINT and SIGTERM, listened for until dropped.
    pub(super) struct Listener {
        int: Watched,
        term: Watched,
    }

    impl Listener {
        pub(super) fn new() -> io::Result<Self> {
            Ok(Self { int: Watched::new(SIGINT, "SIGINT")?, term: Watched::new(SIGTERM, "SIGTERM")? })
        }

        /// The name of the first of the two signals to arrive.
        pub(super) async fn next(&self) -> &'static str {
            tokio::select! {
                name = self.int.arrived() => name,
                name = self.term.arrived() => name,
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// A signal raised while listening is named; after the listener is
        /// dropped, the same signal neither ends the process nor reaches a
        /// later listener.
        #[tokio::test]
        async fn names_the_signal_and_stops_listening_when_dropped() {
            let listener = Listener::new().unwrap();
            signal_hook::low_level::raise(SIGTERM).unwrap();
            let name = tokio::time::timeout(std::time::Duration::from_secs(10), listener.next()).await;
            assert_eq!(name, Ok("SIGTERM"));
            drop(listener);

            signal_hook::low_level::raise(SIGTERM).unwrap();
            let later = Listener::new().unwrap();
            let waited = tokio::time::timeout(std::time::Duration::from_millis(50), later.next()).await;
            assert!(waited.is_err(), "a signal from before the listener was taken for a new one");
            signal_hook::low_level::raise(SIGINT).unwrap();
            let name = tokio::time::timeout(std::time::Duration::from_secs(10), later.next()).await;
            assert_eq!(name, Ok("SIGINT"));
        }
    }
}
