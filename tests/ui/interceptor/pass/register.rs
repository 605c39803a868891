//! `#[restlight::interceptor]` with every argument, none, and a negative order.
#![deny(warnings)]

use restlight::prelude::*;

#[derive(Default)]
struct Auth;

#[restlight::interceptor(includes = ["/api/**", "/admin/{section}/**"], excludes = ["/api/health"], order = -10)]
impl Interceptor for Auth {
    async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
        match ctx.header("authorization") {
            Some(_) => ControlFlow::Continue(()),
            None => ControlFlow::Break(HttpError::unauthorized("log in").into_response()),
        }
    }
}

#[derive(Default)]
struct Everywhere;

#[restlight::interceptor]
impl Interceptor for Everywhere {}

#[derive(Default)]
struct Nowhere;

#[restlight::interceptor(includes = [], order = 3)]
impl restlight::intercept::Interceptor for Nowhere {}

#[restlight::get("/api/me")]
async fn me() -> &'static str {
    "me"
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    assert_eq!(client.get("/api/me").send_blocking().status(), 401);
}
