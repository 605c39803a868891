//! Body limits over a real socket: 413 from Content-Length before the body
//! is read, 413 as soon as a chunked body passes the limit, and
//! `Expect: 100-continue` answered only for a body the route accepts.

mod support;

use std::time::Duration;

use restlight_core::{post, RequestContext};
use support::{restlight, Raw};

fn server() -> restlight_server::ServerHandle {
    restlight()
        .max_body_size(64)
        .route(post("/small").handle(|ctx: RequestContext| async move { ctx.body().len().to_string() }))
        .route(
            post("/big")
                .max_body_size(1024)
                .consumes("text/plain")
                .handle(|ctx: RequestContext| async move { ctx.body().len().to_string() }),
        )
        .start()
        .unwrap()
}

fn post_head(path: &str, extra: &str) -> String {
    format!("POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n{extra}\r\n")
}

#[test]
fn content_length_over_the_route_limit_is_413_naming_the_limit() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(post_head("/big", "Content-Length: 1025\r\n"));
    let res = raw.response();
    assert_eq!(res.status, 413);
    assert!(res.text().contains("1024"), "{}", res.text());
    assert_eq!(
        res.header("connection"),
        Some("close"),
        "the unread body ends the connection: clients must not reuse it"
    );

    // The same size passes the application's limit nowhere but on /big.
    let mut raw = Raw::connect(server.local_addr());
    raw.send(post_head("/big", "Content-Length: 1000\r\n") + &"x".repeat(1000));
    assert_eq!(raw.response().text(), "1000");
    let mut raw = Raw::connect(server.local_addr());
    raw.send(post_head("/small", "Content-Length: 65\r\n"));
    let res = raw.response();
    assert_eq!(res.status, 413);
    assert!(res.text().contains("64"), "{}", res.text());
    server.shutdown();
}

#[test]
fn chunked_body_is_cut_off_as_soon_as_it_passes_the_limit() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(post_head("/small", "Transfer-Encoding: chunked\r\n"));
    // 70 bytes in chunks of 10, and never the last chunk: the answer must
    // come without waiting for the end of the body. One write, so that the
    // client is not still writing when the server answers and closes (a
    // write after that close would fail with a broken pipe, not the test).
    raw.send(format!("a\r\n{}\r\n", "x".repeat(10)).repeat(7));
    let res = raw.response();
    assert_eq!(res.status, 413);
    server.shutdown();
}

#[test]
fn expect_continue_is_answered_with_413_and_no_100_when_too_large() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(post_head("/big", "Content-Length: 5000\r\nExpect: 100-continue\r\n"));
    let res = raw.response();
    assert_eq!(res.status, 413, "the first answer must be the final one, not 100 Continue");
    server.shutdown();
}

#[test]
fn expect_continue_is_answered_with_415_and_no_100_for_a_wrong_content_type() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(
        "POST /big HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n",
    );
    assert_eq!(raw.response().status, 415);
    server.shutdown();
}

#[test]
fn expect_continue_gets_100_then_the_answer_when_acceptable() {
    let server = server();
    let mut raw = Raw::connect(server.local_addr());
    raw.send(post_head("/big", "Content-Length: 500\r\nExpect: 100-continue\r\n"));
    let interim = raw.response();
    assert_eq!(interim.status, 100);
    raw.send("y".repeat(500));
    let res = raw.response();
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "500");
    drop(raw);
    std::thread::sleep(Duration::from_millis(10));
    server.shutdown();
}
