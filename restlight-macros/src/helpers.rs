//! The table of helper attributes: every attribute the macros read, where it
//! may stand, whether it may repeat, and what it means. The placement checks,
//! the near-miss suggestions, the help lines and the stripping of helpers
//! from the user's item all go by this table.
//!
//! A helper is recognised by its bare name (`#[get]`) or qualified by the
//! crate (`#[restlight::get]`, `#[::restlight::get]`).

use syn::Attribute;

use crate::model::{HttpMethod, Source};

/// One of our helper attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Helper {
    Method(HttpMethod),
    Path,
    Produces,
    Consumes,
    Scheduled,
    MaxBody,
    Timeout,
    NoInterceptors,
    SkipInterceptor,
    ExceptionHandler,
    Serializer,
    ResponseSerializer,
    Compress,
    /// `#[tag(..)]`: the OpenAPI tags of the route's operation.
    Tag,
    /// A parameter's source, `#[bean_param]` included.
    Source(Source),
    DefaultValue,
    Valid,
    RequestSerializer,
    /// `#[encoded]`: the value without percent-decoding.
    Encoded,
}

/// Where an attribute stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// The impl block carrying `#[restlight::path]`.
    Impl,
    /// A method of that impl block.
    Method,
    /// A function carrying `#[restlight::get]` (or another method).
    FreeFn,
    /// Any parameter of a route.
    Param,
    /// The entity: the parameter without a source attribute.
    Entity,
    /// A field of a struct deriving `BeanParam`.
    BeanField,
}

impl Place {
    /// The place in an error message: `a method`.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::Impl => "a `#[restlight::path]` impl block",
            Self::Method => "a method",
            Self::FreeFn => "a route function",
            Self::Param => "a parameter",
            Self::Entity => "the entity parameter",
            Self::BeanField => "a field of a `BeanParam`",
        }
    }
}

/// One row of the table.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) helper: Helper,
    pub(crate) name: &'static str,
    /// Where the attribute may stand.
    pub(crate) places: &'static [Place],
    /// The help line when it is written twice on one item; `None` when it
    /// may repeat.
    pub(crate) once: Option<&'static str>,
    /// What it says, for suggestions.
    pub(crate) about: &'static str,
}

use Place::{BeanField, Entity, FreeFn, Impl, Method, Param};

/// The settings an impl block shares with its routes.
const SETTING: &[Place] = &[Impl, Method, FreeFn];
/// What makes a function a route.
const ROUTE: &[Place] = &[Method, FreeFn];
/// The sources a bean's field may name too.
const VALUE_SOURCE: &[Place] = &[Param, BeanField];

const ONE_METHOD: &str = "a route answers one HTTP method; write another function for the other method";
const ONE_SOURCE: &str = "a parameter is read from one place; keep one attribute";
const ONE_CODEC: &str = "a route reads or writes with one codec; keep one";

macro_rules! entry {
    ($helper:expr, $name:literal, $places:expr, $once:expr, $about:literal) => {
        Entry { helper: $helper, name: $name, places: $places, once: $once, about: $about }
    };
}

/// Every helper attribute, in the order help lines list them.
pub(crate) const TABLE: &[Entry] = &[
    entry!(Helper::Method(HttpMethod::Get), "get", ROUTE, Some(ONE_METHOD), "the route answers GET"),
    entry!(Helper::Method(HttpMethod::Post), "post", ROUTE, Some(ONE_METHOD), "the route answers POST"),
    entry!(Helper::Method(HttpMethod::Put), "put", ROUTE, Some(ONE_METHOD), "the route answers PUT"),
    entry!(Helper::Method(HttpMethod::Delete), "delete", ROUTE, Some(ONE_METHOD), "the route answers DELETE"),
    entry!(Helper::Method(HttpMethod::Patch), "patch", ROUTE, Some(ONE_METHOD), "the route answers PATCH"),
    entry!(Helper::Method(HttpMethod::Head), "head", ROUTE, Some(ONE_METHOD), "the route answers HEAD"),
    entry!(Helper::Method(HttpMethod::Options), "options", ROUTE, Some(ONE_METHOD), "the route answers OPTIONS"),
    entry!(
        Helper::Path,
        "path",
        ROUTE,
        Some("give the route one path: either in the method attribute, `#[get(\"/x\")]`, or in `#[path(\"/x\")]`"),
        "the route's sub-path"
    ),
    entry!(
        Helper::Produces,
        "produces",
        SETTING,
        Some("list every media type in one attribute: `#[produces(\"a/b\", \"c/d\")]`"),
        "the media types of the response"
    ),
    entry!(
        Helper::Consumes,
        "consumes",
        SETTING,
        Some("list every media type in one attribute: `#[consumes(\"a/b\", \"c/d\")]`"),
        "the media types of the entity"
    ),
    entry!(
        Helper::Scheduled,
        "scheduled",
        SETTING,
        Some("a route runs on one executor; keep one `#[scheduled(..)]`"),
        "the executor the handler runs on"
    ),
    entry!(
        Helper::MaxBody,
        "max_body",
        SETTING,
        Some("a route has one body limit; keep one `#[max_body(..)]`"),
        "the largest request entity"
    ),
    entry!(
        Helper::Timeout,
        "timeout",
        SETTING,
        Some("a route has one time limit; keep one `#[timeout(..)]`"),
        "how long the handler may take"
    ),
    entry!(
        Helper::NoInterceptors,
        "no_interceptors",
        SETTING,
        Some("keep one `#[no_interceptors]`"),
        "no interceptor runs for the route"
    ),
    entry!(
        Helper::SkipInterceptor,
        "skip_interceptor",
        SETTING,
        None,
        "the named interceptors do not run for the route"
    ),
    entry!(
        Helper::ExceptionHandler,
        "exception_handler",
        &[Method],
        Some("keep one `#[exception_handler]`"),
        "the method turns an error of the block's routes into a response"
    ),
    entry!(Helper::Serializer, "serializer", SETTING, Some(ONE_CODEC), "the codec of the entity and the response"),
    entry!(Helper::ResponseSerializer, "response_serializer", SETTING, Some(ONE_CODEC), "the codec of the response"),
    entry!(
        Helper::Compress,
        "compress",
        SETTING,
        Some("keep one `#[compress(..)]`"),
        "whether responses may be compressed"
    ),
    entry!(Helper::Tag, "tag", SETTING, None, "the OpenAPI tags of the route's operation"),
    entry!(Helper::Source(Source::Path), "path_param", VALUE_SOURCE, Some(ONE_SOURCE), "read from a path variable"),
    entry!(Helper::Source(Source::Query), "query_param", VALUE_SOURCE, Some(ONE_SOURCE), "read from the query string"),
    entry!(
        Helper::Source(Source::Header),
        "header_param",
        VALUE_SOURCE,
        Some(ONE_SOURCE),
        "read from a request header"
    ),
    entry!(Helper::Source(Source::Cookie), "cookie_param", VALUE_SOURCE, Some(ONE_SOURCE), "read from a cookie"),
    entry!(
        Helper::Source(Source::Matrix),
        "matrix_param",
        VALUE_SOURCE,
        Some(ONE_SOURCE),
        "read from a matrix parameter"
    ),
    entry!(
        Helper::Source(Source::Form),
        "form_param",
        VALUE_SOURCE,
        Some(ONE_SOURCE),
        "read from a field of a form body"
    ),
    entry!(
        Helper::DefaultValue,
        "default_value",
        VALUE_SOURCE,
        Some("keep one default value"),
        "the value used when absent"
    ),
    entry!(Helper::Source(Source::Context), "context", &[Param], Some(ONE_SOURCE), "the request or a bean"),
    entry!(Helper::Source(Source::Bean), "bean_param", &[Param], Some(ONE_SOURCE), "a struct deriving `BeanParam`"),
    entry!(
        Helper::Source(Source::Resolve),
        "resolve",
        &[Param],
        Some(ONE_SOURCE),
        "resolved by the type's `FromRequest` or a resolver factory"
    ),
    entry!(
        Helper::Source(Source::Attribute),
        "request_attribute",
        &[Param],
        Some(ONE_SOURCE),
        "a typed value a filter or interceptor stored on the request"
    ),
    entry!(
        Helper::Source(Source::Part),
        "request_part",
        &[Param],
        Some(ONE_SOURCE),
        "one part of a multipart body: bytes, text, a `MultipartFile` or a value decoded by the part's Content-Type"
    ),
    entry!(Helper::Valid, "valid", &[Entity], Some("keep one `#[valid]`"), "the entity is validated with garde"),
    entry!(
        Helper::Encoded,
        "encoded",
        &[Impl, Method, FreeFn, Param],
        Some("keep one `#[encoded]`"),
        "the value as the request wrote it, without percent-decoding"
    ),
    entry!(
        Helper::RequestSerializer,
        "request_serializer",
        &[Impl, Method, FreeFn, Entity],
        Some(ONE_CODEC),
        "the codec of the entity"
    ),
];

impl Helper {
    /// The helper's row.
    pub(crate) fn entry(self) -> &'static Entry {
        TABLE.iter().find(|e| e.helper == self).expect("every helper has a row in the table")
    }

    /// The attribute's name: `max_body`.
    pub(crate) fn name(self) -> &'static str {
        self.entry().name
    }

    /// The help line for a second occurrence on one item.
    pub(crate) fn once_help(self) -> &'static str {
        self.entry().once.unwrap_or("keep one")
    }

    /// Whether the helper may stand at `place`.
    pub(crate) fn may_stand(self, place: Place) -> bool {
        self.entry().places.contains(&place)
    }

    fn from_name(name: &str) -> Option<Self> {
        TABLE.iter().find(|e| e.name == name).map(|e| e.helper)
    }
}

/// The helper `attr` is, if it is one of ours.
pub(crate) fn helper(attr: &Attribute) -> Option<Helper> {
    let path = attr.path();
    if path.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    match segments.as_slice() {
        [name] if path.leading_colon.is_none() => Helper::from_name(name),
        [krate, name] if krate == "restlight" => Helper::from_name(name),
        _ => None,
    }
}

/// The names of the helpers that may stand at one of `places`, in table order.
pub(crate) fn names_on(places: &[Place]) -> Vec<&'static str> {
    TABLE.iter().filter(|e| e.places.iter().any(|p| places.contains(p))).map(|e| e.name).collect()
}

/// The helper named `name`, if there is one.
pub(crate) fn by_name(name: &str) -> Option<&'static Entry> {
    TABLE.iter().find(|e| e.name == name)
}

/// `#[get], #[post], ...` for a help line.
pub(crate) fn list(names: &[&str]) -> String {
    let items: Vec<String> = names.iter().map(|n| format!("`#[{n}]`")).collect();
    items.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names listed in `lib.rs` after `before`, up to `end`: the items
    /// separated by commas, or the names of the `name => r#"example"#;`
    /// entries.
    fn listed_in_lib(before: &str, end: &str) -> Vec<String> {
        let source = include_str!("lib.rs");
        let start = source.find(before).expect("list in lib.rs") + before.len();
        let list = &source[start..start + source[start..].find(end).expect("end of list")];
        if list.contains("=> r#") {
            let entry = |l: &str| Some(l.strip_prefix("    ")?.split_once(" => r#\"")?.0.to_owned());
            list.lines().filter_map(entry).collect()
        } else {
            list.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect()
        }
    }

    #[test]
    fn names_are_unique_and_round_trip() {
        for (i, e) in TABLE.iter().enumerate() {
            assert!(TABLE[..i].iter().all(|o| o.name != e.name && o.helper != e.helper), "{} twice", e.name);
            assert_eq!(Helper::from_name(e.name), Some(e.helper));
            assert_eq!(e.helper.name(), e.name);
        }
    }

    /// The attribute macros that report a misplaced helper are the helpers of
    /// an impl block or a method, but for the route attributes themselves.
    #[test]
    fn misplaced_helper_macros_match_the_table() {
        let mut expected: Vec<&str> = TABLE
            .iter()
            .filter(|e| e.places.iter().any(|p| matches!(p, Impl | Method)))
            .filter(|e| !matches!(e.helper, Helper::Method(_) | Helper::Path))
            .map(|e| e.name)
            .collect();
        expected.sort_unstable();
        let mut listed = listed_in_lib("\nhelper_macros! {", "\"#;\n}");
        listed.sort();
        assert_eq!(listed, expected);
    }

    /// `#[derive(BeanParam)]` declares the helpers of a field and, to explain
    /// that they do not belong there, the other sources of a parameter.
    #[test]
    fn derive_attributes_match_the_table() {
        let mut expected = names_on(&[BeanField]);
        expected.extend(TABLE.iter().filter(|e| matches!(e.helper, Helper::Source(_))).map(|e| e.name));
        expected.sort_unstable();
        expected.dedup();
        let mut listed = listed_in_lib("attributes(", ")");
        listed.sort();
        assert_eq!(listed, expected);
    }
}
