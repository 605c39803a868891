//! `#[max_body(..)]` on the impl block and on a method (the method wins),
//! as a size with a unit or as bytes.
#![deny(warnings)]

use restlight::prelude::*;

#[derive(Default)]
struct Uploads;

#[restlight::path("/up")]
#[max_body("1KiB")]
impl Uploads {
    #[post("/small")]
    async fn small(&self, body: String) -> String {
        body
    }

    #[post("/tiny")]
    #[max_body(4)]
    async fn tiny(&self, body: String) -> String {
        body
    }
}

#[restlight::post("/big")]
#[max_body("16 MiB")]
async fn big(body: Vec<u8>) -> &'static str {
    let _ = body;
    "never"
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    assert_eq!(client.post("/up/small").body("x".repeat(1024)).send_blocking().status(), StatusCode::OK);
    assert_eq!(client.post("/up/small").body("x".repeat(1025)).send_blocking().status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(client.post("/up/tiny").body("abcd").send_blocking().text(), "abcd");
    assert_eq!(client.post("/up/tiny").body("abcde").send_blocking().status(), StatusCode::PAYLOAD_TOO_LARGE);
    let app = Restlight::new().build().unwrap();
    let limit = |path: &str| app.routes().iter().find(|r| r.path == path).map(|r| r.max_body);
    assert_eq!(limit("/up/small"), Some(1024));
    assert_eq!(limit("/up/tiny"), Some(4));
    assert_eq!(limit("/big"), Some(16 << 20));
}
