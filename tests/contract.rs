//! The users example's behaviour, end to end: the same scenario through the mock client, HTTP/1.1 and h2c.

mod support;

/// The users example itself: its resource, its `/hello` and its `app()`.
#[path = "../examples/users.rs"]
#[allow(dead_code)]
mod users;

/// `GET /users/2/`: a JAX-RS route matches a trailing `/`.
const TRAILING_SLASH: u16 = 200;

include!("contract/scenario.rs");
