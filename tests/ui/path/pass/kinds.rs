//! Plain fns, schedulers, associated functions, `Self` in types, methods
//! that are not routes, foreign attributes left alone, and an impl block
//! with a path but no routes.
#![deny(warnings)]

use restlight::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Default, Serialize, Deserialize)]
struct Thing {
    n: u32,
}

#[restlight::path("/things")]
#[scheduled(biz)]
#[allow(clippy::unused_async)]
impl Thing {
    /// Documented route.
    #[get]
    #[inline]
    #[must_use]
    fn blocking(&self) -> u32 {
        self.helper()
    }

    #[get("/io")]
    #[scheduled(io)]
    #[rustfmt::skip]
    #[cfg_attr(all(), allow(clippy::unused_async))]
    async fn on_io(&self) -> Option<u32> {
        Some(self.n)
    }

    #[get("/none")]
    #[cfg(all())]
    async fn none(&self) -> Option<u32> {
        None
    }

    #[get("/assoc")]
    async fn associated() -> &'static str {
        "no receiver"
    }

    #[get("/self")]
    fn echo(&self, #[allow(unused_variables)] body: Self) -> Self {
        body
    }

    #[post("/unit")]
    #[consumes("text/plain", "application/json; charset=utf-8")]
    fn unit(&'_ self) {}

    #[cfg(any())]
    #[get("/gone")]
    async fn gone(&self) -> u32 {
        0
    }

    fn helper(&self) -> u32 {
        self.n + 1
    }
}

#[derive(Default)]
struct Empty;

#[restlight::path("/empty")]
impl Empty {
    #[allow(dead_code)]
    fn not_a_route(&self) {}
}

fn main() {
    let client = Restlight::new().resource(Thing { n: 41 }).mock().unwrap();
    assert_eq!(client.get("/things").send_blocking().text(), "42");
    assert_eq!(client.get("/things/io").send_blocking().text(), "41");
    assert_eq!(client.get("/things/none").send_blocking().status(), 404);
    assert_eq!(client.get("/things/assoc").send_blocking().text(), "no receiver");
    assert_eq!(client.post("/things/unit").content_type("text/plain").send_blocking().status(), 204);
}
