//! Sub-resource locators: a method with `#[path]` and no method attribute
//! returning a `#[restlight::sub_resource]` type mounts that type's routes
//! under its path, flattened into the router at startup. Through the mock
//! client, HTTP/1.1 and h2c.

mod support;

use restlight::prelude::*;
use support::Transport;

/// The root resource: a shop, with locators for its items and orders.
#[derive(Default)]
struct Shops;

#[restlight::path("/shops/{shop}")]
impl Shops {
    /// A literal template beats the flattened `/items/{id}`.
    #[get("/items/special")]
    async fn special(&self) -> &'static str {
        "special offer"
    }

    /// The locator: its own path, query, header and matrix parameters.
    #[path("/items/{id}")]
    async fn item(
        &self,
        #[path_param] shop: String,
        #[path_param] id: u32,
        #[query_param] lang: Option<String>,
        #[header_param("X-Tenant")] tenant: Option<String>,
        #[matrix_param] v: Option<String>,
    ) -> Item {
        Item { shop, id, lang: lang.unwrap_or_else(|| "en".to_owned()), tenant, version: v }
    }

    /// `Result`: the error is answered as a handler's is.
    #[path("/orders/{n}")]
    fn order(&self, #[path_param] n: u32) -> Result<Order, HttpError> {
        if n == 0 {
            Err(HttpError::bad_request("order numbers start at 1"))
        } else {
            Ok(Order(n))
        }
    }
}

struct Item {
    shop: String,
    id: u32,
    lang: String,
    tenant: Option<String>,
    version: Option<String>,
}

#[restlight::sub_resource]
#[produces("text/plain")]
impl Item {
    #[get]
    async fn show(&self) -> String {
        format!(
            "item {} of {} ({}, tenant {:?}, version {:?})",
            self.id, self.shop, self.lang, self.tenant, self.version
        )
    }

    #[get("/price")]
    async fn price(
        &self,
        #[query_param]
        #[default_value("EUR")]
        currency: String,
    ) -> String {
        format!("{} {currency}", self.id * 10)
    }

    #[put]
    #[consumes("text/plain")]
    async fn rename(&self, name: String) -> String {
        format!("item {} renamed {name}", self.id)
    }

    /// The sub-resource's matrix parameter reads its own last segment.
    #[get("/colour")]
    fn colour(&self, #[matrix_param] shade: Option<String>) -> String {
        format!("shade {shade:?}, version {:?}", self.version)
    }

    /// A nested locator: `None` is 404.
    #[path("/parts/{part}")]
    fn part(&self, #[path_param] part: String) -> Option<Part> {
        (part != "none").then_some(Part { item: self.id, name: part })
    }
}

struct Part {
    item: u32,
    name: String,
}

#[restlight::sub_resource]
impl Part {
    #[get]
    #[produces("text/plain")]
    fn show(&self) -> String {
        format!("part {} of item {}", self.name, self.item)
    }

    /// A variable of a locator's template, read by the sub-resource's method.
    #[get("/shop")]
    #[produces("text/plain")]
    fn shop(&self, #[path_param] shop: String) -> String {
        format!("part {} sold by {shop}", self.name)
    }
}

struct Order(u32);

#[restlight::sub_resource]
impl Order {
    #[get]
    #[produces("text/plain")]
    fn show(&self) -> String {
        format!("order {}", self.0)
    }
}

/// A second way to `GET /shops/{..}/items/{..}`: left out of every app
/// but the one that checks the conflict.
#[derive(Default)]
struct Clash;

#[restlight::path("/shops/{s}")]
impl Clash {
    #[path("/items/{n}")]
    fn same_items(&self, #[path_param] s: String, #[path_param] n: u32) -> Item {
        Item { shop: s, id: n, lang: "en".to_owned(), tenant: None, version: None }
    }
}

fn app() -> Restlight {
    Restlight::new().exclude_resource::<Clash>()
}

async fn locators(t: Transport) {
    let get = |path: &'static str| {
        let t = &t;
        async move { t.call("GET", path, &[], "").await }
    };
    let show = get("/shops/north/items/7").await;
    assert_eq!((show.status, show.body.as_str()), (200, "item 7 of north (en, tenant None, version None)"));
    let with_params = t.call("GET", "/shops/north/items/7?lang=fr", &[("X-Tenant", "acme")], "").await;
    assert_eq!(with_params.body, r#"item 7 of north (fr, tenant Some("acme"), version None)"#);
    let price = get("/shops/north/items/7/price?currency=USD").await;
    assert_eq!((price.status, price.body.as_str()), (200, "70 USD"));

    // Matrix parameters: the locator's own last segment, and the method's.
    let matrix = get("/shops/north/items/7;v=2").await;
    assert_eq!(matrix.body, r#"item 7 of north (en, tenant None, version Some("2"))"#);
    let colour = get("/shops/north/items/7;v=3/colour;shade=dark").await;
    assert_eq!(colour.body, r#"shade Some("dark"), version Some("3")"#);
    let not_last = get("/shops/north/items/7;shade=dark/colour").await;
    assert_eq!(not_last.body, "shade None, version None");

    // Entity, consumes and the method of the sub-resource.
    let put = t.call("PUT", "/shops/north/items/7", &[("content-type", "text/plain")], "lamp").await;
    assert_eq!((put.status, put.body.as_str()), (200, "item 7 renamed lamp"));
    let unsupported = t.call("PUT", "/shops/north/items/7", &[("content-type", "application/json")], "{}").await;
    assert_eq!(unsupported.status, 415, "{}", unsupported.body);
    let delete = t.call("DELETE", "/shops/north/items/7", &[], "").await;
    assert_eq!((delete.status, delete.header("allow")), (405, Some("GET, HEAD, PUT, OPTIONS")));
    let options = t.call("OPTIONS", "/shops/north/items/7", &[], "").await;
    assert_eq!(options.header("allow"), Some("GET, HEAD, PUT, OPTIONS"));
    let head = t.call("HEAD", "/shops/north/items/7", &[], "").await;
    assert_eq!((head.status, head.body.as_str()), (200, ""));

    // A locator's path parameter that does not convert: 400 naming it.
    let bad = get("/shops/north/items/seven").await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.body.contains("id"), "{}", bad.body);

    // Precedence applies to flattened routes as to any other.
    let special = get("/shops/north/items/special").await;
    assert_eq!((special.status, special.body.as_str()), (200, "special offer"));

    // Nested locators, `Option` and `Result`.
    let part = get("/shops/north/items/7/parts/wheel").await;
    assert_eq!((part.status, part.body.as_str()), (200, "part wheel of item 7"));
    let shop = get("/shops/south/items/7/parts/wheel/shop").await;
    assert_eq!(shop.body, "part wheel sold by south");
    let none = get("/shops/north/items/7/parts/none").await;
    assert_eq!(none.status, 404, "{}", none.body);
    assert!(none.body.contains("Item::part"), "{}", none.body);
    let order = get("/shops/north/orders/3").await;
    assert_eq!((order.status, order.body.as_str()), (200, "order 3"));
    let refused = get("/shops/north/orders/0").await;
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("order numbers start at 1"), "{}", refused.body);
}

#[tokio::test]
async fn locators_over_the_mock_client() {
    locators(Transport::mock(app())).await;
}

#[tokio::test]
async fn locators_over_http1() {
    locators(Transport::http1(app())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn locators_over_h2c() {
    locators(Transport::h2c(app())).await;
}

#[tokio::test]
async fn locators_in_strict_mode() {
    locators(Transport::mock(app().strict_matching(true))).await;
}

#[test]
fn flattened_routes_are_listed_and_documented() {
    let app = app().build().unwrap();
    let ops = app.openapi().operations();
    for (method, path) in [
        ("GET", "/shops/{shop}/items/{id}"),
        ("PUT", "/shops/{shop}/items/{id}"),
        ("GET", "/shops/{shop}/items/{id}/price"),
        ("GET", "/shops/{shop}/items/{id}/parts/{part}"),
        ("GET", "/shops/{shop}/items/{id}/parts/{part}/shop"),
        ("GET", "/shops/{shop}/orders/{n}"),
    ] {
        assert!(ops.contains(&(method.to_owned(), path.to_owned())), "{method} {path} in {ops:?}");
    }
    let doc = app.openapi().to_value(restlight::openapi::OpenApiVersion::V3_1);
    let price = &doc["paths"]["/shops/{shop}/items/{id}/price"]["get"];
    let names: Vec<&str> =
        price["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    for name in ["shop", "id", "currency", "lang", "X-Tenant"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert_eq!(price["parameters"][1]["schema"]["type"], "integer", "{price}");
}

#[test]
fn flattened_routes_conflict_like_any_other() {
    let err = Restlight::new().build().map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("conflict"), "{err}");
    assert!(err.contains("Clash::same_items -> Item::show"), "{err}");
    assert!(err.contains("Shops::item -> Item::show"), "{err}");
}
