//! Free functions: every method macro, async and plain, helpers below the
//! macro, the path in the macro or in `#[path]`, and the return kinds.
#![deny(warnings)]

use restlight::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Point {
    x: i32,
    y: i32,
}

#[restlight::get("/hello/{name}")]
#[produces("text/plain")]
async fn hello(#[path_param] name: String) -> String {
    format!("Hello {name}!")
}

#[restlight::get]
#[path("/plain")]
#[scheduled(biz)]
fn plain(#[query_param] #[default_value("1")] n: u8) -> String {
    n.to_string()
}

#[restlight::post("/points")]
#[consumes("application/json")]
#[produces("application/json")]
async fn mirror(p: Point) -> Result<Point, HttpError> {
    if p.x < 0 {
        return Err(HttpError::bad_request("x must not be negative"));
    }
    Ok(Point { x: p.y, y: p.x })
}

#[restlight::put("/put")]
async fn put() -> StatusCode {
    StatusCode::ACCEPTED
}

#[restlight::delete("/delete")]
fn delete() {}

#[restlight::patch("/patch")]
async fn patch(body: Vec<u8>) -> Vec<u8> {
    body
}

#[restlight::head("/head")]
async fn head() -> NoContent {
    NoContent
}

#[restlight::options("/options")]
async fn options() -> Created<&'static str> {
    Created("options")
}

mod nested {
    #[restlight::get("/nested")]
    pub(crate) async fn nested() -> &'static str {
        "nested"
    }
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    assert_eq!(client.get("/hello/Rust").send_blocking().text(), "Hello Rust!");
    assert_eq!(client.get("/plain").send_blocking().text(), "1");
    let res = client.post("/points").json(&Point { x: 1, y: 2 }).send_blocking();
    assert_eq!(res.json::<Point>().x, 2);
    assert_eq!(client.post("/points").json(&Point { x: -1, y: 2 }).send_blocking().status(), 400);
    assert_eq!(client.put("/put").send_blocking().status(), 202);
    assert_eq!(client.delete("/delete").send_blocking().status(), 204);
    assert_eq!(client.patch("/patch").body("abc").send_blocking().text(), "abc");
    assert_eq!(client.head("/head").send_blocking().status(), 204);
    assert_eq!(client.options("/options").send_blocking().status(), 201);
    assert_eq!(client.get("/nested").send_blocking().text(), "nested");
}
