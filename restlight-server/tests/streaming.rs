//! Streaming over real sockets: uploads read as they arrive (past the
//! aggregation limit), chunked downloads, and Server-Sent Events, over
//! HTTP/1.1 and h2c.

mod support;

use bytes::Bytes;
use futures_util::stream;
use restlight_core::{get, post, Body, BodyStream, Event, HttpError, RequestContext, Sse};
use support::{get_request, h2c_client, http1_client, restlight, url, Raw};

const CHUNK: usize = 64 * 1024;
const CHUNKS: usize = 160; // 10 MiB, past the 4 MiB aggregation default

fn server() -> restlight_server::ServerHandle {
    restlight()
        .route(post("/upload").stream_body().handle(|ctx: RequestContext| async move {
            let mut body: BodyStream = ctx.take_body_stream().unwrap_or_default();
            let mut total = 0_u64;
            let mut sum = 0_u64;
            while let Some(chunk) = body.chunk().await {
                let chunk = chunk?;
                total += chunk.len() as u64;
                sum = chunk.iter().fold(sum, |s, b| s.wrapping_add(u64::from(*b)));
            }
            Ok::<_, HttpError>(format!("{total} {sum}"))
        }))
        .route(post("/upload-limited").stream_body().max_body_size(1000).handle(|ctx: RequestContext| async move {
            let mut body = ctx.take_body_stream().unwrap_or_default();
            while let Some(chunk) = body.chunk().await {
                chunk?;
            }
            Ok::<_, HttpError>("read")
        }))
        .route(get("/download").handle(|_| async {
            let chunks =
                stream::iter((0..CHUNKS).map(|i| Ok::<_, HttpError>(Bytes::from(vec![(i % 251) as u8; CHUNK]))));
            Body::from_byte_stream(chunks)
        }))
        .route(get("/events").handle(|_| async {
            Sse::new(stream::iter((1..=3).map(|n| Event::new().event("tick").id(n.to_string()).data(n.to_string()))))
        }))
        .start()
        .unwrap()
}

fn upload_body() -> (reqwest::Body, String) {
    let chunks: Vec<Result<Bytes, std::io::Error>> =
        (0..CHUNKS).map(|i| Ok(Bytes::from(vec![(i % 251) as u8; CHUNK]))).collect();
    let sum: u64 = (0..CHUNKS).map(|i| (i % 251) as u64 * CHUNK as u64).sum();
    (reqwest::Body::wrap_stream(stream::iter(chunks)), format!("{} {sum}", CHUNK * CHUNKS))
}

#[tokio::test]
async fn a_streamed_upload_passes_the_aggregation_limit_over_http1_and_h2c() {
    let server = server();
    for client in [http1_client(), h2c_client()] {
        let (body, expected) = upload_body();
        let res = client.post(url(server.local_addr(), "/upload")).body(body).send().await.unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.text().await.unwrap(), expected);
    }
    server.shutdown_async().await;
}

#[tokio::test]
async fn a_streamed_upload_past_an_explicit_limit_is_413() {
    let server = server();
    let client = reqwest::Client::new();
    // A chunked body small enough to sit in the socket buffers whole, so the
    // client has sent it all before the server answers 413 and closes.
    let chunks: Vec<Result<Bytes, std::io::Error>> = (0..4).map(|_| Ok(Bytes::from(vec![1_u8; 512]))).collect();
    let body = reqwest::Body::wrap_stream(stream::iter(chunks));
    let res = client.post(url(server.local_addr(), "/upload-limited")).body(body).send().await.unwrap();
    assert_eq!(res.status(), 413);
    let res = client.post(url(server.local_addr(), "/upload-limited")).body(vec![0_u8; 2000]).send().await.unwrap();
    assert_eq!(res.status(), 413, "by Content-Length");
    server.shutdown_async().await;
}

#[test]
fn a_streamed_download_is_chunked_on_http1() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(get_request("/download"));
    let res = raw.response();
    assert_eq!(res.status, 200);
    assert_eq!(res.header("transfer-encoding"), Some("chunked"));
    assert_eq!(res.body.len(), CHUNK * CHUNKS);
    server.shutdown();
}

#[tokio::test]
async fn a_streamed_download_over_h2c() {
    let server = server();
    let client = h2c_client();
    let res = client.get(url(server.local_addr(), "/download")).send().await.unwrap();
    assert_eq!(res.version(), reqwest::Version::HTTP_2);
    assert_eq!(res.bytes().await.unwrap().len(), CHUNK * CHUNKS);
    server.shutdown_async().await;
}

#[tokio::test]
async fn server_sent_events() {
    let server = server();
    let res = reqwest::get(url(server.local_addr(), "/events")).await.unwrap();
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    assert_eq!(res.headers()["cache-control"], "no-cache");
    let text = res.text().await.unwrap();
    assert!(text.starts_with("event: tick\nid: 1\ndata: 1\n\n"), "{text}");
    assert_eq!(text.matches("\n\n").count(), 3);
    server.shutdown_async().await;
}
