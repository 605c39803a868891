//! `#[bean_param]`: a struct deriving `BeanParam` gathered from the path,
//! the query, headers, cookies, matrix and form parameters, with the same
//! conversions, defaults and 400s as plain parameters, and its path fields
//! checked against the route's template at startup.

use restlight::prelude::*;
use restlight::test::MockClient;
use restlight::StartupError;

#[derive(Debug, BeanParam)]
pub struct Paging {
    #[query_param]
    #[default_value("20")]
    limit: usize,
    #[query_param("from")]
    offset: Option<u64>,
    #[query_param]
    tag: Vec<String>,
    #[header_param]
    x_tenant: Option<String>,
    #[cookie_param("session")]
    session: Option<String>,
    #[path_param]
    shop: String,
    #[matrix_param]
    color: Option<String>,
}

#[derive(Debug, BeanParam)]
pub struct Login {
    #[form_param]
    user: String,
    #[form_param]
    #[default_value("false")]
    remember: bool,
}

#[derive(Debug, Default)]
pub struct Shop;

#[restlight::path("/shops/{shop}")]
#[produces("text/plain")]
impl Shop {
    #[get]
    #[path("/items")]
    async fn items(&self, #[bean_param] page: Paging, #[query_param] extra: Option<String>) -> String {
        format!(
            "shop={} limit={} offset={:?} tag={:?} tenant={:?} session={:?} color={:?} extra={extra:?}",
            page.shop, page.limit, page.offset, page.tag, page.x_tenant, page.session, page.color
        )
    }

    #[post]
    #[path("/login")]
    #[consumes("application/x-www-form-urlencoded")]
    fn login(&self, #[bean_param] login: Login) -> String {
        format!("{} {}", login.user, login.remember)
    }
}

/// A bean whose path field names no variable of the route it is used on.
#[derive(Debug, BeanParam)]
pub struct ById {
    #[path_param]
    id: u64,
}

#[derive(Debug, Default)]
pub struct Misnamed;

#[restlight::path("/misnamed/{key}")]
impl Misnamed {
    #[get]
    async fn get(&self, #[bean_param] by: ById) -> String {
        by.id.to_string()
    }
}

fn client() -> MockClient {
    Restlight::new().exclude_resource::<Misnamed>().mock().expect("the application starts")
}

#[tokio::test]
async fn fields_come_from_every_source() {
    let c = client();
    let res = c
        .get("/shops/north/items;color=red?from=40&tag=a&tag=b&extra=x")
        .header("X-Tenant", "acme")
        .cookie("session", "s1")
        .send()
        .await;
    assert_eq!(
        res.text(),
        r#"shop=north limit=20 offset=Some(40) tag=["a", "b"] tenant=Some("acme") session=Some("s1") color=Some("red") extra=Some("x")"#
    );
    let res = c.get("/shops/south/items?limit=5").send().await;
    assert_eq!(
        res.text(),
        "shop=south limit=5 offset=None tag=[] tenant=None session=None color=None extra=None",
        "defaults, absent options and empty lists"
    );
    let res = c.post("/shops/north/login").form(&[("user", "ada")]).send().await;
    assert_eq!(res.text(), "ada false", "form fields, on the business executor too");
}

#[tokio::test]
async fn a_bad_field_is_400_naming_its_parameter_and_value() {
    let c = client();
    let res = c.get("/shops/north/items?limit=lots").send().await;
    assert_eq!(res.status(), 400);
    let problem: serde_json::Value = res.json();
    assert_eq!(problem["parameter"], "limit", "{problem}");
    assert_eq!(problem["value"], "lots", "{problem}");
    let res = c.post("/shops/north/login").form(&[("remember", "true")]).send().await;
    assert_eq!(res.status(), 400, "a required field that is missing");
    assert!(res.text().contains("user"), "{}", res.text());
}

#[test]
fn a_path_field_naming_no_template_variable_is_a_startup_error() {
    let app = Restlight::new().exclude_resource::<Misnamed>().build().unwrap();
    let err = app.add_resource(Misnamed).unwrap_err();
    assert!(matches!(err, StartupError::UnknownPathVariable { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("`id`") && text.contains("ById") && text.contains("key"), "{text}");
    assert!(text.contains("tests/bean_params.rs:"), "names the route's location: {text}");
}

#[test]
fn the_route_lists_the_bean_parameter() {
    let descriptor = restlight::__private::inventory::iter::<restlight::__private::RouteDescriptor>
        .into_iter()
        .find(|d| d.path == "/shops/{shop}/items")
        .expect("the route is collected");
    let bean = descriptor.params.iter().find(|p| p.source == restlight::__private::ParamSource::Bean).unwrap();
    assert_eq!((bean.name, bean.rust_type), ("page", "Paging"));
    use restlight::__private::BeanParam as _;
    let names: Vec<&str> = Paging::PARAMS.iter().map(|p| p.name).collect();
    assert_eq!(names, ["limit", "from", "tag", "x-tenant", "session", "shop", "color"]);
}
