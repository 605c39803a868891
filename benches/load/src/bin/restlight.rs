//! The service in Restlight: annotated resources (as a user writes them) for
//! the measured routes, the builder API for the 100 decoys, and every measured
//! route again under `/biz`, scheduled on the business pool.
//!
//! The decoys are registered once, as the peers register them: the route
//! table is theirs plus the four `/biz` routes, so startup and memory compare
//! like with like. (The `/biz` copy of the templated route walks a subtree
//! without decoys; the router's lookups do not depend on how many literal
//! siblings a segment has, see BENCHMARKS.md.)

use std::net::Ipv4Addr;

use bytes::Bytes;
use restlight::prelude::*;
use restlight_load::{decoys, order_text, port_from_args, Message, DECOY, HELLO};

/// `/hello`, `/json` and `/echo`, run inline on the IO threads.
#[derive(Default)]
pub struct Basics;

#[restlight::path("/")]
impl Basics {
    #[get]
    #[path("/hello")]
    async fn hello(&self) -> &'static str {
        HELLO
    }

    #[get]
    #[path("/json")]
    #[produces("application/json")]
    async fn json(&self) -> Message {
        Message { message: HELLO }
    }

    #[post]
    #[path("/echo")]
    async fn echo(&self, body: Bytes) -> Bytes {
        body
    }
}

/// `/users/{id}/orders/{order}`, among the decoys.
#[derive(Default)]
pub struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    #[path("/{id}/orders/{order}")]
    async fn order(&self, #[path_param] id: u64, #[path_param] order: u64) -> String {
        order_text(id, order)
    }
}

/// The same routes on the business pool.
#[derive(Default)]
pub struct Biz;

#[restlight::path("/biz")]
#[scheduled(biz)]
impl Biz {
    #[get]
    #[path("/hello")]
    async fn hello(&self) -> &'static str {
        HELLO
    }

    #[get]
    #[path("/json")]
    #[produces("application/json")]
    async fn json(&self) -> Message {
        Message { message: HELLO }
    }

    #[post]
    #[path("/echo")]
    async fn echo(&self, body: Bytes) -> Bytes {
        body
    }

    #[get]
    #[path("/users/{id}/orders/{order}")]
    async fn order(&self, #[path_param] id: u64, #[path_param] order: u64) -> String {
        order_text(id, order)
    }
}

fn main() -> restlight::Result<()> {
    let port = port_from_args();
    let mut app = Restlight::new();
    for d in decoys() {
        app = app.route(get(d).handle(|_| async { DECOY }));
    }
    app.bind(Ipv4Addr::LOCALHOST).port(port).run()
}
