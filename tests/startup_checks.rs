//! Startup fails on ambiguous routes, naming both locations, and on
//! resources nobody can build. This binary holds such routes on purpose.

use restlight::prelude::*;

#[derive(Default)]
struct Orders;

#[restlight::path("/orders")]
impl Orders {
    #[get]
    #[path("/{id}")]
    async fn by_id(&self, #[path_param] id: String) -> String {
        id
    }

    // Legal: same template, but it consumes something else.
    #[post]
    #[path("/{id}")]
    #[consumes("application/json")]
    async fn update_json(&self, #[path_param] id: String, body: String) -> String {
        format!("{id}{body}")
    }

    #[post]
    #[path("/{key}")]
    #[consumes("text/plain")]
    async fn update_text(&self, #[path_param] key: String, body: String) -> String {
        format!("{key}{body}")
    }
}

/// Has routes but no `Default` and is never bound.
struct Unbuildable {
    _n: u32,
}

#[restlight::path("/x")]
impl Unbuildable {
    #[get]
    async fn x(&self) -> &'static str {
        "x"
    }
}

// Conflicts with `Orders::by_id`: same method, equivalent template.
#[restlight::get("/orders/{order}")]
async fn shadow(#[path_param] order: String) -> String {
    order
}

/// The line numbers of this file named in `err` as `file:line`.
fn locations(err: &str) -> Vec<u32> {
    let file = file!();
    err.match_indices(file)
        .filter_map(|(i, _)| {
            let rest = &err[i + file.len()..];
            let digits: String = rest.strip_prefix(':')?.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
fn conflicting_routes_fail_startup_with_both_locations() {
    let err = Restlight::new().build().unwrap_err().to_string();
    let lines = locations(&err);
    assert!(lines.iter().any(|l| (9..=13).contains(l)), "no location of Orders::by_id in: {err}");
    assert!(lines.iter().any(|l| (46..=48).contains(l)), "no location of shadow in: {err}");
    assert!(
        !err.contains("update_json") && !err.contains("update_text"),
        "routes differing by consumes are legal: {err}"
    );
}

#[test]
fn a_resource_without_instance_or_default_fails_startup() {
    let err = Restlight::new().build().unwrap_err().to_string();
    assert!(err.contains("Unbuildable"), "{err}");
    let ok = Restlight::new().resource(Unbuildable { _n: 1 }).build().unwrap_err().to_string();
    assert!(!ok.contains("Unbuildable"), "bound now: {ok}");
}

#[test]
fn the_test_helper_reports_the_same_conflict() {
    let err = restlight::test::check_routes().unwrap_err().to_string();
    assert!(err.contains("Orders::by_id") && err.contains("shadow"), "{err}");
}

#[test]
fn builder_routes_conflict_too() {
    let err = Restlight::new()
        .resource(Unbuildable { _n: 1 })
        .route(get("/twice").handle(|_| async { "a" }))
        .route(get("/twice/").handle(|_| async { "b" }))
        .build()
        .unwrap_err()
        .to_string();
    assert!(err.contains("GET /twice"), "{err}");
}

/// The macros hand the router each template and media type already parsed;
/// those constants say exactly what the route's text says.
#[test]
fn the_parsed_templates_and_media_types_agree_with_their_text() {
    use restlight::__private::{inventory, RouteDescriptor, Template};
    let all: Vec<&RouteDescriptor> = inventory::iter::<RouteDescriptor>.into_iter().collect();
    assert!(all.len() >= 3, "the routes of this binary are collected");
    for d in all {
        let text = Template::parse_allowing_duplicates(d.path).expect("a collected template parses");
        assert_eq!(d.template, text, "{}", d.path);
        assert_eq!(d.template.to_string(), d.path);
        for media in d.produces.iter().chain(d.consumes) {
            let typed = restlight::media::MediaType::parse(&media.to_string()).expect("a collected media type parses");
            assert_eq!((typed.type_(), typed.subtype()), (&*media.type_, &*media.subtype));
        }
    }
    let json = inventory::iter::<RouteDescriptor>
        .into_iter()
        .find(|d| d.name == "Orders::update_json")
        .expect("the route is collected");
    assert_eq!(json.consumes.iter().map(ToString::to_string).collect::<Vec<_>>(), ["application/json"]);
}
