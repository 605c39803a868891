//! The Spring users example's behaviour, end to end: the contract of the
//! JAX-RS one (`contract.rs`), the same scenario through the mock client,
//! HTTP/1.1 and h2c, answered alike, but for a trailing `/` (404 here, as
//! in Spring 6).

mod support;

/// The Spring users example itself: its controller, its `/hello` and its `app()`.
#[path = "../examples/spring_users.rs"]
#[allow(dead_code)]
mod users;

/// `GET /users/2/`: a Spring route does not match a trailing `/`.
const TRAILING_SLASH: u16 = 404;

include!("contract/scenario.rs");
