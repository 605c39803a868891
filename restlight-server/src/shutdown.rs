//! The process signals that end [`Restlight::run`](crate::Restlight::run).

/// Completes on the next SIGINT (Ctrl-C) or, on Unix, SIGTERM, and names it.
///
/// Listening starts at the first poll, so a signal delivered before that is
/// not seen. A signal that cannot be listened for is logged and never
/// fires, rather than being taken for a request to stop.
pub(crate) async fn signal() -> &'static str {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::warn!(%err, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(err) => {
                tracing::warn!(%err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();

    tokio::select! {
        () = ctrl_c => "SIGINT",
        () = terminate => "SIGTERM",
    }
}
