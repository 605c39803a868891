//! The smallest Restlight service: an annotated free function and a builder route.
//!
//! ```text
//! cargo run --example hello
//! curl localhost:8080/hello            # Hello Restlight!
//! curl localhost:8080/hello?name=Rust  # Hello Rust!
//! curl localhost:8080/ping             # pong
//! ```

use restlight::prelude::*;

/// A free function route: `GET /hello?name=..`.
#[restlight::get("/hello")]
#[produces("text/plain")]
async fn hello(#[query_param] name: Option<String>) -> String {
    format!("Hello {}!", name.as_deref().unwrap_or("Restlight"))
}

fn main() -> restlight::Result<()> {
    let port = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(8080);
    Restlight::new().route(get("/ping").handle(|_ctx| async { "pong" })).port(port).run()
}
