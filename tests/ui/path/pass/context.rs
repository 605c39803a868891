//! `#[context]` parameters: parts of the request by reference, beans by
//! reference, as `Arc<T>` or cloned.
#![deny(warnings)]

use std::sync::Arc;

use restlight::http::{HeaderMap, Method, Uri};
use restlight::prelude::*;

#[derive(Clone)]
struct Config {
    greeting: String,
}

struct Counter(std::sync::atomic::AtomicU32);

#[derive(Default)]
struct Ctx;

#[restlight::path("/ctx")]
#[produces("text/plain")]
impl Ctx {
    #[get]
    async fn request(
        &self,
        #[context] req: &RequestContext,
        #[context] headers: &HeaderMap,
        #[context] uri: &Uri,
        #[context] method: &Method,
    ) -> String {
        format!("{} {} {} {:?}", req.method(), method, uri.path(), headers.get("x-a"))
    }

    #[get("/beans")]
    async fn beans(
        &self,
        #[context] config: &Config,
        #[context] owned: Config,
        #[context] counter: Arc<Counter>,
        #[context] method: Method,
    ) -> String {
        let n = counter.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        format!("{} {} {n} {method}", config.greeting, owned.greeting)
    }

    #[post("/plain")]
    fn plain(&self, #[context] req: &RequestContext, body: String) -> String {
        format!("{} {body}", req.uri())
    }
}

fn main() {
    let client = Restlight::new()
        .bean(Config { greeting: "hi".into() })
        .bean(Counter(std::sync::atomic::AtomicU32::new(5)))
        .mock()
        .unwrap();
    assert_eq!(client.get("/ctx").header("x-a", "b").send_blocking().text(), "GET GET /ctx Some(\"b\")");
    assert_eq!(client.get("/ctx/beans").send_blocking().text(), "hi hi 5 GET");
    assert_eq!(client.post("/ctx/plain").body("x").send_blocking().text(), "/ctx/plain x");
}
