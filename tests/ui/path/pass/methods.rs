//! Every method attribute, with the sub-path in the attribute or in `#[path]`.
#![deny(warnings)]

use restlight::prelude::*;

#[derive(Default)]
struct Items;

#[restlight::path("/items/")]
#[produces("text/plain")]
impl Items {
    #[get]
    async fn list(&self) -> &'static str {
        "list"
    }

    #[get("/{id}")]
    async fn one(&self, #[path_param] id: u32) -> String {
        format!("item {id}")
    }

    #[post]
    async fn create(&self, body: String) -> String {
        format!("created {body}")
    }

    #[put("{id}")]
    async fn replace(&self, #[path_param] id: u32) -> String {
        format!("replaced {id}")
    }

    #[delete]
    #[path("/{id}")]
    async fn remove(&self, #[path_param] id: u32) -> String {
        format!("removed {id}")
    }

    #[patch("/{id}/")]
    async fn update(&self, #[path_param] id: u32) -> String {
        format!("patched {id}")
    }

    #[head("/probe")]
    async fn probe(&self) -> StatusCode {
        StatusCode::OK
    }

    #[options("/probe")]
    async fn probe_options(&self) -> StatusCode {
        StatusCode::NO_CONTENT
    }

    #[restlight::get("/qualified")]
    async fn qualified(&self) -> &'static str {
        "qualified"
    }
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    assert_eq!(client.get("/items").send_blocking().text(), "list");
    assert_eq!(client.get("/items/3").send_blocking().text(), "item 3");
    assert_eq!(client.post("/items").body("x").send_blocking().text(), "created x");
    assert_eq!(client.put("/items/4").send_blocking().text(), "replaced 4");
    assert_eq!(client.delete("/items/5").send_blocking().text(), "removed 5");
    assert_eq!(client.patch("/items/6").send_blocking().text(), "patched 6");
    assert_eq!(client.head("/items/probe").send_blocking().status(), 200);
    assert_eq!(client.options("/items/probe").send_blocking().status(), 204);
    assert_eq!(client.get("/items/qualified").send_blocking().text(), "qualified");
}
