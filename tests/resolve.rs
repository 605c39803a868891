//! Argument resolvers (`#[resolve]`: `FromRequest`, `FromRequestWith`,
//! resolver factories) and request attributes (`#[request_attribute]`),
//! through the mock client.
#![deny(warnings)]

use std::fmt;

use restlight::filter::{FilterRequest, Next};
use restlight::prelude::*;
use restlight::{resolve, Bindings, FromRequestWith, ParamDecl, ParamMeta, Resolver, StartupError};

/// `X-Tenant`, required: 400 as problem details when absent.
#[derive(Debug)]
struct Tenant(String);

impl FromRequest for Tenant {
    type Error = HttpError;
    async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, HttpError> {
        req.header("x-tenant").map(|t| Tenant(t.to_owned())).ok_or_else(|| HttpError::bad_request("no tenant"))
    }
}

/// What the resolver knows of its parameter and route.
struct Where(String);

impl FromRequest for Where {
    type Error = HttpError;
    async fn from_request(req: &RequestContext, cx: &ResolveContext) -> Result<Self, HttpError> {
        let id = req.path_param("id").unwrap_or("-");
        let source = cx.param().map(|p| p.source.as_str()).unwrap_or_default();
        Ok(Where(format!(
            "{} {} {source} id={id} q={}",
            cx.route(),
            cx.param_name(),
            req.query_param("q").unwrap_or("-")
        )))
    }
}

/// A resolver error of the user's own type: for the exception mappers.
#[derive(Debug)]
struct Banned(String);

impl fmt::Display for Banned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is banned", self.0)
    }
}

impl std::error::Error for Banned {}

struct Visitor(String);

impl FromRequest for Visitor {
    type Error = Banned;
    async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, Banned> {
        // Waits for something, as an async resolver may.
        tokio::task::yield_now().await;
        let name = req.query_param("name").unwrap_or("anonymous").to_owned();
        if name == "mallory" {
            Err(Banned(name))
        } else {
            Ok(Visitor(name))
        }
    }
}

/// A bean a stateful resolver binds at startup.
struct Greeting(&'static str);

struct Greeter(String);

impl FromRequestWith for Greeter {
    type State = std::sync::Arc<Greeting>;
    type Error = HttpError;
    fn bind(b: &mut Bindings<'_>, _: &'static ParamMeta) -> Result<Self::State, StartupError> {
        b.bean::<Greeting>()
    }
    async fn from_request(req: &RequestContext, greeting: &Self::State) -> Result<Self, HttpError> {
        Ok(Greeter(format!("{}, {}", greeting.0, req.query_param("name").unwrap_or("you"))))
    }
}

/// Resolved by a factory: no `FromRequest`.
struct Locale(String);

fn locale_factory(p: &ParamDecl<'_>) -> Option<Resolver> {
    p.is::<Locale>().then(|| {
        let name = p.name();
        Resolver::new(move |req, _| {
            let lang = req.header("accept-language").unwrap_or("en");
            Ok::<_, HttpError>(Locale(format!("{name}={lang}")))
        })
    })
}

/// A request attribute set by an interceptor or a filter.
#[derive(Debug, Clone, PartialEq)]
struct Tag(&'static str);

/// Never stored by anyone.
#[derive(Debug, Clone)]
struct Unset;

struct Tagger;

impl Interceptor for Tagger {
    async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
        if ctx.header("x-tag").is_some() {
            ctx.set_attribute(Tag("from-interceptor"));
        }
        ControlFlow::Continue(())
    }
}

#[derive(Default)]
struct Api;

#[restlight::path("/r")]
impl Api {
    #[get]
    #[path("/tenant")]
    async fn tenant(&self, #[resolve] tenant: Tenant) -> String {
        tenant.0
    }

    #[get]
    #[path("/where/{id}")]
    async fn where_(&self, #[path_param] id: u32, #[resolve("place")] at: Where) -> String {
        format!("{id}: {}", at.0)
    }

    #[get]
    #[path("/visitor")]
    async fn visitor(&self, #[resolve] v: Visitor) -> String {
        v.0
    }

    #[get]
    #[path("/greet")]
    fn greet(&self, #[resolve] g: Greeter) -> String {
        g.0
    }

    #[get]
    #[path("/locale")]
    async fn locale(&self, #[resolve] lang: Locale, #[resolve] tenant: Tenant) -> String {
        format!("{} for {}", lang.0, tenant.0)
    }

    #[get]
    #[path("/tag/ref")]
    async fn tag_ref(&self, #[request_attribute] tag: &Tag) -> String {
        tag.0.to_owned()
    }

    #[get]
    #[path("/tag/owned")]
    async fn tag_owned(&self, #[request_attribute] tag: Tag) -> String {
        tag.0.to_owned()
    }

    #[get]
    #[path("/tag/optional")]
    async fn tag_optional(&self, #[request_attribute] tag: Option<Tag>) -> String {
        format!("{tag:?}")
    }

    #[get]
    #[path("/unset")]
    async fn unset(&self, #[request_attribute] _unset: Unset) -> &'static str {
        "never"
    }
}

/// A resource whose resolver mistake local handlers map first.
#[derive(Default)]
struct Local;

#[restlight::path("/local")]
impl Local {
    #[get]
    async fn visitor(&self, #[resolve] v: Visitor) -> String {
        v.0
    }

    #[exception_handler]
    fn banned(&self, e: &Banned) -> HttpError {
        HttpError::forbidden(format!("locally: {e}"))
    }
}

/// A parameter no factory claims: left out of `app()`, added in a test.
#[derive(Default)]
struct Unclaimed;

struct Nobody;

#[restlight::path("/unclaimed")]
impl Unclaimed {
    #[get]
    async fn get(&self, #[resolve] who: Nobody) -> &'static str {
        let _ = who;
        "never"
    }
}

fn app() -> Restlight {
    Restlight::new()
        .bean(Greeting("Hello"))
        .resolver_factory(locale_factory)
        .interceptor(Intercept::new(Tagger))
        .exception_mapper(|e: &Banned| HttpError::forbidden(e.to_string()))
        .exclude_resource::<Unclaimed>()
}

#[test]
fn a_resolver_reads_the_request_and_fails_as_problem_details() {
    let client = app().mock().unwrap();
    let res = client.get("/r/tenant").header("x-tenant", "acme").send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (200, "acme".to_owned()));

    let res = client.get("/r/tenant").send_blocking();
    assert_eq!(res.status(), 400);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    assert_eq!(res.json::<serde_json::Value>()["detail"], "no tenant");
}

#[test]
fn a_resolver_sees_the_parameter_the_route_and_the_path_and_query() {
    let client = app().mock().unwrap();
    let res = client.get("/r/where/7?q=x").send_blocking();
    assert_eq!(res.text(), "7: Api::where_ place resolved id=7 q=x");
}

#[test]
fn a_resolver_error_of_the_users_type_goes_to_the_exception_mappers() {
    let client = app().mock().unwrap();
    assert_eq!(client.get("/r/visitor?name=ada").send_blocking().text(), "ada");

    let res = client.get("/r/visitor?name=mallory").send_blocking();
    assert_eq!(res.status(), 403);
    assert_eq!(res.json::<serde_json::Value>()["detail"], "mallory is banned");

    // The resource's own #[exception_handler] comes first.
    let res = client.get("/local?name=mallory").send_blocking();
    assert_eq!(res.status(), 403);
    assert_eq!(res.json::<serde_json::Value>()["detail"], "locally: mallory is banned");
}

#[test]
fn a_stateful_resolver_binds_its_bean_at_startup() {
    let client = app().mock().unwrap();
    assert_eq!(client.get("/r/greet?name=ada").send_blocking().text(), "Hello, ada");

    // Without the bean, startup says which route needs it.
    let err = Restlight::new().resolver_factory(locale_factory).exclude_resource::<Unclaimed>().mock().unwrap_err();
    let text = err.to_string();
    assert!(text.contains("Greeting") && text.contains("Api::greet"), "{text}");
}

#[test]
fn a_factory_claims_parameters_of_its_kind_at_startup() {
    let client = app().mock().unwrap();
    let res = client.get("/r/locale").header("accept-language", "fr").header("x-tenant", "acme").send_blocking();
    assert_eq!(res.text(), "lang=fr for acme");
}

#[test]
fn an_unclaimed_parameter_stops_startup_naming_it_and_its_route() {
    let client = app().mock().unwrap();
    let err = client.app().add_resource(Unclaimed).unwrap_err();
    assert!(matches!(err, StartupError::UnresolvedParam { param: "who", .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("`who: Nobody`") && text.contains("Unclaimed::get"), "{text}");
    assert!(text.contains("claimed by none of the 1 registered resolver factories"), "{text}");

    // With no factory at all, the whole application refuses to start.
    let err = Restlight::new().bean(Greeting("Hi")).mock().unwrap_err().to_string();
    assert!(err.contains("`lang: Locale`") && err.contains("Api::locale"), "{err}");
    assert!(err.contains("`who: Nobody`") && err.contains("no resolver factory is registered"), "{err}");
}

#[test]
fn request_attributes_by_reference_by_value_and_optional() {
    let client = app().mock().unwrap();
    for path in ["/r/tag/ref", "/r/tag/owned"] {
        assert_eq!(client.get(path).header("x-tag", "1").send_blocking().text(), "from-interceptor");
    }
    assert_eq!(
        client.get("/r/tag/optional").header("x-tag", "1").send_blocking().text(),
        r#"Some(Tag("from-interceptor"))"#
    );
    assert_eq!(client.get("/r/tag/optional").send_blocking().text(), "None");
}

#[test]
fn a_missing_required_attribute_is_a_500_naming_its_type() {
    let client = app().mock().unwrap();
    for _ in 0..2 {
        let res = client.get("/r/unset").send_blocking();
        assert_eq!(res.status(), 500);
        let problem: serde_json::Value = res.json();
        assert_eq!(problem["attribute"], "resolve::Unset");
        assert_eq!(problem["parameter"], "_unset");
    }
    let res = client.get("/r/tag/owned").send_blocking();
    assert_eq!(res.status(), 500);
    assert!(res.text().contains("resolve::Tag"), "{}", res.text());
}

#[test]
fn a_filter_stores_attributes_in_the_request_extensions() {
    let client = app()
        .filter(|mut req: FilterRequest, next: Next| async move {
            req.extensions_mut().insert(Tag("from-filter"));
            next.run(req).await
        })
        .mock()
        .unwrap();
    assert_eq!(client.get("/r/tag/ref").send_blocking().text(), "from-filter");
}

#[test]
fn builder_routes_resolve_with_the_same_trait() {
    let client = app()
        .route(get("/built/tenant").handle(|ctx| async move { resolve::<Tenant>(&ctx).await.map(|t| t.0) }))
        .mock()
        .unwrap();
    assert_eq!(client.get("/built/tenant").header("x-tenant", "acme").send_blocking().text(), "acme");
    assert_eq!(client.get("/built/tenant").send_blocking().status(), 400);
}
