//! The baseline: raw hyper 1.x through hyper-util's auto builder (HTTP/1.1 and
//! h2c by prior knowledge), paths matched by hand. No router, no framework.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use restlight_load::{
    numbered, order_text, port_from_args, Message, DECOY, DECOY_NEAR, DECOY_SHORT, DECOY_TOP, HELLO, TEXT_PLAIN,
};

type Resp = Response<Full<Bytes>>;

fn with_type(status: StatusCode, ctype: &'static str, body: impl Into<Bytes>) -> Resp {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    r.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(ctype));
    r
}

fn text(body: impl Into<Bytes>) -> Resp {
    with_type(StatusCode::OK, TEXT_PLAIN, body)
}

fn status(s: StatusCode) -> Resp {
    with_type(s, TEXT_PLAIN, Bytes::new())
}

/// The templated routes, matched segment by segment; decoys first, as in the
/// other servers' registration order.
fn templated(path: &str) -> Resp {
    let Some(rest) = path.strip_prefix('/') else { return status(StatusCode::NOT_FOUND) };
    let mut segs = [""; 4];
    let mut n = 0;
    for s in rest.split('/') {
        if n == segs.len() {
            return status(StatusCode::NOT_FOUND);
        }
        segs[n] = s;
        n += 1;
    }
    match &segs[..n] {
        ["users", _, s, _] if numbered(s, "orders", DECOY_NEAR) => text(DECOY),
        ["users", _, s] if numbered(s, "decoy", DECOY_SHORT) => text(DECOY),
        [s, _, "orders", _] if numbered(s, "decoy", DECOY_TOP) => text(DECOY),
        ["users", id, "orders", order] => match (id.parse::<u64>(), order.parse::<u64>()) {
            (Ok(id), Ok(order)) => text(order_text(id, order)),
            _ => status(StatusCode::BAD_REQUEST),
        },
        _ => status(StatusCode::NOT_FOUND),
    }
}

async fn handle(req: Request<Incoming>) -> Result<Resp, Infallible> {
    let resp = match (req.method(), req.uri().path()) {
        (&Method::GET, "/hello") => text(HELLO),
        (&Method::GET, "/json") => {
            let body = serde_json::to_vec(&Message { message: HELLO }).expect("serialise");
            with_type(StatusCode::OK, "application/json", body)
        }
        (&Method::POST, "/echo") => match req.into_body().collect().await {
            Ok(b) => with_type(StatusCode::OK, "application/octet-stream", b.to_bytes()),
            Err(_) => status(StatusCode::BAD_REQUEST),
        },
        (&Method::GET, p) => templated(p),
        _ => status(StatusCode::NOT_FOUND),
    };
    Ok(resp)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port = port_from_args();
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let builder = auto::Builder::new(TokioExecutor::new());
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(s) => s,
            Err(_) => continue,
        };
        let _ = stream.set_nodelay(true);
        let builder = builder.clone();
        tokio::spawn(async move {
            let _ = builder.serve_connection(TokioIo::new(stream), service_fn(handle)).await;
        });
    }
}
