use std::io::IsTerminal;
use std::process::ExitCode;

use {{crate_name}}::{app, CONFIG_FILE};

fn main() -> ExitCode {
    // Log lines (startup, shutdown) go to stderr; `RUST_LOG=debug` shows more.
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    match serve(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: Vec<String>) -> Result<(), Box<dyn std::error::Error>> {
    let service = app().config_file(CONFIG_FILE)?;
    match args.first().map(String::as_str) {
        // Prints what the service answers (method, path, media types,
        // executor, source), without serving.
        Some("--routes") => print!("{}", service.build()?.routes()),
        // Serves until SIGTERM or Ctrl-C, then drains: readiness answers 503,
        // requests in flight get `shutdown_timeout_ms` to finish.
        None => service.run()?,
        Some(other) => return Err(format!("unknown argument `{other}` (try `--routes`)").into()),
    }
    Ok(())
}
