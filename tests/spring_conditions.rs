//! `params = ..` and `headers = ..` of the Spring mappings, through the mock
//! client: routes on one path told apart by their conditions, the most
//! specific one chosen, 400 naming the conditions when the query meets none
//! of them (as Spring answers), 404 when only header conditions fail, the
//! impl block's conditions added to each method's, and the conditions in
//! the route table and the OpenAPI document.

use restlight::prelude::*;
use restlight::test::MockClient;
use serde_json::Value;

#[derive(Default)]
struct Api;

#[restlight::rest_controller]
#[request_mapping(path = "/api", produces = "text/plain")]
impl Api {
    #[get_mapping(path = "/items", params = "version=2")]
    async fn items_v2(&self) -> &'static str {
        "v2"
    }

    #[get_mapping(path = "/items", params = ["version!=2", "!debug"])]
    async fn items_v1(&self) -> &'static str {
        "v1"
    }

    #[get_mapping(path = "/search", params = "q")]
    async fn search(&self, #[request_param] q: String) -> String {
        format!("q={q}")
    }

    #[get_mapping(path = "/search", params = ["q", "page"])]
    async fn search_page(&self, #[request_param] q: String, #[request_param] page: u32) -> String {
        format!("q={q} page={page}")
    }

    #[get_mapping(path = "/greeting", headers = "X-Api=2")]
    async fn greeting_v2(&self) -> &'static str {
        "hello 2"
    }

    #[get_mapping(path = "/greeting", headers = "x-api!=2")]
    async fn greeting(&self) -> &'static str {
        "hello"
    }

    #[get_mapping(path = "/beta", headers = "X-Beta")]
    async fn beta(&self) -> &'static str {
        "beta"
    }

    #[get_mapping("/open")]
    async fn open(&self) -> &'static str {
        "open"
    }

    #[get_mapping(path = "/open", params = "admin")]
    async fn open_admin(&self) -> &'static str {
        "admin"
    }

    /// Quiet output.
    #[get_mapping(path = "/quiet", params = ["!debug", "level!=0"])]
    async fn quiet(&self) -> &'static str {
        "quiet"
    }
}

/// The impl block's `params` hold for every method, with the method's own.
#[derive(Default)]
struct Tenanted;

#[restlight::rest_controller]
#[request_mapping(path = "/tenant", params = "tenant", produces = "text/plain")]
impl Tenanted {
    #[get_mapping(path = "/x", headers = "X-Api")]
    async fn x(&self, #[request_param] tenant: String) -> String {
        format!("tenant {tenant}")
    }
}

#[restlight::get_mapping("/free", params = "on=1", produces = "text/plain")]
async fn free_on() -> &'static str {
    "on"
}

fn client() -> MockClient {
    Restlight::new().mock().expect("routes differing only by their conditions coexist")
}

fn answer(c: &MockClient, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut req = c.get(path);
    for (name, value) in headers {
        req = req.header(name, value);
    }
    let res = req.send_blocking();
    (res.status().as_u16(), res.text())
}

#[test]
fn parameter_conditions_pick_the_route() {
    let c = client();
    let ok = |s: &str| (200, s.to_owned());
    assert_eq!(answer(&c, "/api/items?version=2", &[]), ok("v2"));
    assert_eq!(answer(&c, "/api/items?version=2&debug", &[]), ok("v2"));
    assert_eq!(answer(&c, "/api/items", &[]), ok("v1"));
    assert_eq!(answer(&c, "/api/items?version=1", &[]), ok("v1"));
    // The first value counts, as Spring's `getParameter`.
    assert_eq!(answer(&c, "/api/items?version=1&version=2", &[]), ok("v1"));
    assert_eq!(answer(&c, "/free?on=1", &[]), ok("on"));
}

#[test]
fn the_route_with_more_conditions_wins() {
    let c = client();
    assert_eq!(answer(&c, "/api/search?q=rust", &[]), (200, "q=rust".to_owned()));
    assert_eq!(answer(&c, "/api/search?q=rust&page=2", &[]), (200, "q=rust page=2".to_owned()));
    assert_eq!(answer(&c, "/api/open", &[]), (200, "open".to_owned()));
    assert_eq!(answer(&c, "/api/open?admin", &[]), (200, "admin".to_owned()));
}

#[test]
fn unmet_parameter_conditions_are_a_400_naming_them() {
    let c = client();
    let res = c.get("/api/items?debug=true").send_blocking();
    assert_eq!(res.status(), 400);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    let problem: Value = res.json();
    assert_eq!(problem["conditions"], serde_json::json!(["!debug, version!=2", "version=2"]), "{problem}");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("`version=2`") && detail.contains("`!debug, version!=2`"), "{detail}");
    for path in ["/api/search", "/free", "/free?on=2"] {
        assert_eq!(c.get(path).send_blocking().status(), 400, "{path}");
    }
}

#[test]
fn header_conditions_pick_the_route_and_unmet_ones_are_a_404() {
    let c = client();
    assert_eq!(answer(&c, "/api/greeting", &[("x-api", "2")]), (200, "hello 2".to_owned()));
    assert_eq!(answer(&c, "/api/greeting", &[("X-API", "3")]), (200, "hello".to_owned()));
    assert_eq!(answer(&c, "/api/greeting", &[]), (200, "hello".to_owned()));
    assert_eq!(answer(&c, "/api/beta", &[("x-beta", "")]), (200, "beta".to_owned()));
    let res = c.get("/api/beta").send_blocking();
    assert_eq!(res.status(), 404);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
}

#[test]
fn the_impl_blocks_conditions_are_added_to_the_methods() {
    let c = client();
    assert_eq!(answer(&c, "/tenant/x?tenant=a", &[("x-api", "1")]), (200, "tenant a".to_owned()));
    assert_eq!(answer(&c, "/tenant/x?tenant=a", &[]).0, 404);
    assert_eq!(answer(&c, "/tenant/x", &[("x-api", "1")]).0, 400);
}

#[test]
fn methods_and_head_are_decided_as_without_conditions() {
    let c = client();
    assert_eq!(c.head("/api/items?version=2").send_blocking().status(), 200);
    let res = c.post("/api/items?version=2").send_blocking();
    assert_eq!(res.status(), 405);
    assert_eq!(res.header("allow"), Some("GET, HEAD, OPTIONS"));
}

#[test]
fn the_route_table_shows_the_conditions() {
    let c = client();
    let routes = c.app().routes();
    let x = routes.iter().find(|r| r.path == "/tenant/x").unwrap();
    assert_eq!(x.conditions.to_string(), "params: tenant; headers: x-api");
    assert_eq!(x.conditions.params().len(), 1);
    let free = routes.iter().find(|r| r.path == "/free").unwrap();
    assert_eq!(free.conditions.to_string(), "params: on=1");
    let open = routes.iter().find(|r| r.path == "/api/open" && r.conditions.params().is_empty()).unwrap();
    assert_eq!(open.conditions.to_string(), "");

    // The listing (`cargo restlight routes`) has a CONDITIONS column.
    let listing = routes.to_string();
    let header = listing.lines().next().unwrap();
    assert!(header.contains("EXECUTOR  CONDITIONS"), "{header}");
    let row = listing.lines().find(|l| l.contains("/tenant/x")).unwrap();
    assert!(row.contains("params: tenant; headers: x-api"), "{row}");
    let row = listing.lines().find(|l| l.contains("/api/quiet")).unwrap();
    assert!(row.contains("params: !debug, level!=0"), "{row}");
}

#[test]
fn the_openapi_document_states_the_conditions() {
    use restlight::openapi::OpenApiVersion;
    let doc = Restlight::new().build().unwrap().openapi().to_value(OpenApiVersion::V3_1);
    let params = |path: &str| doc["paths"][path]["get"]["parameters"].as_array().cloned().unwrap_or_default();
    let find = |path: &str, name: &str| params(path).into_iter().find(|p| p["name"] == name).unwrap();

    // `name=value`: a required query parameter of that one value.
    let on = find("/free", "on");
    assert_eq!((on["in"].as_str(), on["required"].as_bool()), (Some("query"), Some(true)));
    assert_eq!(on["schema"]["enum"], serde_json::json!(["1"]));
    // `name`: required; merged with the handler's own parameter of that name.
    let tenant: Vec<Value> = params("/tenant/x").into_iter().filter(|p| p["name"] == "tenant").collect();
    assert_eq!(tenant.len(), 1, "{tenant:?}");
    assert_eq!(tenant[0]["required"], true);
    // Header conditions: required header parameters.
    let api = find("/tenant/x", "x-api");
    assert_eq!((api["in"].as_str(), api["required"].as_bool()), (Some("header"), Some(true)));
    let beta = find("/api/beta", "x-beta");
    assert_eq!(beta["in"], "header");
    // Negations cannot be parameters: the description names them.
    let quiet = &doc["paths"]["/api/quiet"]["get"];
    assert!(quiet["parameters"].is_null(), "{quiet}");
    assert_eq!(quiet["summary"], "Quiet output.");
    assert_eq!(quiet["description"], "Routed only when the query parameters meet: `!debug`, `level!=0`.");
    // A parameter condition can fail: 400 is documented.
    assert!(quiet["responses"]["400"].is_object(), "{quiet}");
}

/// Routes of one path and method told apart by their conditions are one
/// operation (as springdoc documents them), with the parameters of all of
/// them: no route's parameters are lost, and the document names each
/// route's conditions.
#[test]
fn routes_told_apart_by_conditions_are_one_operation_with_all_parameters() {
    use restlight::openapi::OpenApiVersion;
    let doc = Restlight::new().build().unwrap().openapi().to_value(OpenApiVersion::V3_1);
    let param = |path: &str, name: &str| {
        let list = doc["paths"][path]["get"]["parameters"].as_array().cloned().unwrap_or_default();
        let found: Vec<Value> = list.into_iter().filter(|p| p["name"] == name).collect();
        assert_eq!(found.len(), 1, "{path} {name}: {found:?}");
        found[0].clone()
    };
    // `/search` (`q`) and `/search?page` (`q`, `page`): `q` is required by
    // both, `page` by one only, so it is optional; its type is kept.
    assert_eq!(param("/api/search", "q")["required"], true);
    let page = param("/api/search", "page");
    assert_eq!(page["required"], false);
    assert_eq!(page["schema"]["type"], "integer", "{page}");
    // `version=2` and `version!=2`: the parameter is optional and any
    // value is routed; the description says which handler takes what.
    let version = param("/api/items", "version");
    assert_eq!(version["required"], false);
    assert!(version["schema"]["enum"].is_null(), "{version}");
    let items = &doc["paths"]["/api/items"]["get"];
    let description = items["description"].as_str().unwrap_or_default();
    assert!(description.contains("Served by 2 handlers"), "{description}");
    assert!(description.contains("`params: version=2`"), "{description}");
    assert!(description.contains("`params: !debug, version!=2`"), "{description}");
    // One operation id per operation, none repeated.
    let mut ids: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|ops| ops.as_object().unwrap().values().filter_map(|op| op["operationId"].as_str()))
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count);
}
