//! The service over a real socket, as a client sees it.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};

use {{crate_name}}::app;

/// Sends one HTTP/1.1 request and returns the status and the body.
fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().expect("a status line");
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn serves_users_health_and_metrics_then_shuts_down() {
    let server = app()
        .ignore_env()
        .bind(Ipv4Addr::LOCALHOST)
        .port(0)
        .start()
        .expect("the server starts");
    let addr = server.local_addr();

    let (status, body) = request(addr, "POST", "/users", r#"{"name":"Ada"}"#);
    assert_eq!(status, 201, "{body}");
    let (status, body) = request(addr, "GET", "/users/1", "");
    assert_eq!((status, body.as_str()), (200, r#"{"id":1,"name":"Ada"}"#));
    assert_eq!(
        request(addr, "GET", "/actuator/health/readiness", "").0,
        200
    );
    let (status, metrics) = request(addr, "GET", "/actuator/metrics", "");
    assert_eq!(status, 200);
    assert!(metrics.contains("# TYPE"), "{metrics}");

    server.shutdown();
    assert!(TcpStream::connect(addr).is_err(), "the listener is closed");
}
