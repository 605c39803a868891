//! The service in axum 0.8 (default features + HTTP/2): `axum::serve` over
//! hyper-util's auto builder, routes in a matchit tree.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::{Json, Router};
use restlight_load::{decoys, order_text, port_from_args, Message, DECOY, HELLO};

async fn hello() -> &'static str {
    HELLO
}

async fn json() -> Json<Message> {
    Json(Message { message: HELLO })
}

async fn order(Path((id, order)): Path<(u64, u64)>) -> String {
    order_text(id, order)
}

async fn echo(body: Bytes) -> impl IntoResponse {
    (StatusCode::OK, [(CONTENT_TYPE, "application/octet-stream")], body)
}

async fn decoy() -> &'static str {
    DECOY
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = port_from_args();
    let mut app = Router::new().route("/hello", get(hello)).route("/json", get(json)).route("/echo", post(echo));
    for d in decoys() {
        app = app.route(&d, get(decoy));
    }
    let app = app.route("/users/{id}/orders/{order}", get(order));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app).await
}
