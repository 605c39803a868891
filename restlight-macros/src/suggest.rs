//! Catching misspelt or misplaced helper attributes, with a suggestion.
//!
//! Unknown attributes are judged by where they stand:
//!
//! - on a route **parameter**, any attribute whose path is a single
//!   identifier is ours or a mistake, except the lint attributes (`allow`,
//!   `warn`, `deny`, `forbid`, `expect`) and `doc`: rustc accepts no other
//!   attribute there but the helpers of the macro expanding the function.
//!   `cfg` and `cfg_attr` are refused too: a parameter that may vanish would
//!   break the generated call;
//! - on a **method** or the **impl block** many attributes are legitimate
//!   (`#[inline]`, `#[tracing::instrument]`, `#[cfg(..)]`, ...), so only a
//!   near miss of one of our names is flagged: a single identifier, not a Rust
//!   built-in attribute, equal to one of ours ignoring case and `_`, or within
//!   an edit distance (optimal string alignment) of 1 of a name of up to four
//!   letters (`get`, `put`, `post`, `head`, `path`) or of 2 of a longer one.

use syn::Attribute;

use crate::ctxt::with_help;
use crate::helpers::{self, list, names_on, Place};

/// Rust's built-in attributes, never taken for a near miss of ours.
const BUILT_IN: &[&str] = &[
    "allow",
    "automatically_derived",
    "cfg",
    "cfg_attr",
    "cold",
    "collapse_debuginfo",
    "coverage",
    "debugger_visualizer",
    "deny",
    "deprecated",
    "derive",
    "doc",
    "expect",
    "export_name",
    "forbid",
    "global_allocator",
    "ignore",
    "inline",
    "link",
    "link_name",
    "link_section",
    "macro_export",
    "macro_use",
    "must_use",
    "no_mangle",
    "non_exhaustive",
    "path",
    "proc_macro",
    "repr",
    "should_panic",
    "target_feature",
    "test",
    "track_caller",
    "used",
    "warn",
];

/// The lint attributes and `doc`, allowed on a route parameter.
const PARAM_BUILT_IN: &[&str] = &["allow", "warn", "deny", "forbid", "expect", "doc"];

/// The names of the helpers a route parameter may carry, the entity's included.
pub(crate) fn param_names() -> Vec<&'static str> {
    names_on(&[Place::Param, Place::Entity])
}

/// The help line listing the attributes of a parameter.
pub(crate) fn param_help() -> String {
    format!("the attributes valid on a parameter are {}", list(&param_names()))
}

/// The name of an attribute whose path is a single identifier.
fn bare_name(attr: &Attribute) -> Option<String> {
    attr.path().get_ident().map(ToString::to_string)
}

/// `#[produces]`, the media types of the response.
fn with_about(name: &str) -> String {
    match helpers::by_name(name) {
        Some(e) => format!("`#[{name}]`, {}", e.about),
        None => format!("`#[{name}]`"),
    }
}

/// The error for an attribute on a method, impl block or route function that
/// looks like a misspelt helper of ours, if it does.
pub(crate) fn near_miss_on_item(attr: &Attribute, place: Place) -> Option<syn::Error> {
    if let Some(e) = crate::spring::in_jaxrs(attr) {
        return Some(e);
    }
    let name = bare_name(attr)?;
    if BUILT_IN.contains(&name.as_str()) {
        return None;
    }
    let valid = names_on(&[place]);
    let suggestion = closest(&name, &valid)?;
    Some(syn::Error::new_spanned(
        attr,
        with_help(
            format!("unknown Restlight attribute `#[{name}]`; did you mean {}?", with_about(suggestion)),
            format!("the attributes valid on {} are {}", place.describe(), list(&valid)),
        ),
    ))
}

/// The error for an unknown single-identifier attribute on a route
/// parameter, if `attr` is one.
pub(crate) fn unknown_on_param(attr: &Attribute) -> Option<syn::Error> {
    if let Some(e) = crate::spring::in_jaxrs(attr) {
        return Some(e);
    }
    let name = bare_name(attr)?;
    if PARAM_BUILT_IN.contains(&name.as_str()) {
        return None;
    }
    if name == "cfg" || name == "cfg_attr" {
        return Some(syn::Error::new_spanned(
            attr,
            with_help(
                format!("`#[{name}]` is not supported on a route parameter"),
                "the generated call passes every parameter; put the `cfg` on the whole method instead",
            ),
        ));
    }
    let guess = param_guess(&name);
    let message = match guess {
        Some("entity") => {
            format!("unknown parameter attribute `#[{name}]`: the request entity is the parameter without attribute")
        }
        Some(g) => format!("unknown parameter attribute `#[{name}]`; did you mean {}?", with_about(g)),
        None => format!("unknown parameter attribute `#[{name}]`"),
    };
    let help = if guess == Some("entity") {
        "remove the attribute: the one parameter without a source attribute is decoded from the body".to_owned()
    } else {
        param_help()
    };
    Some(syn::Error::new_spanned(attr, with_help(message, help)))
}

/// What a user meant by an unknown parameter attribute: `query` ->
/// `query_param`, `PathParam` -> `path_param`, `body` -> the entity.
fn param_guess(name: &str) -> Option<&'static str> {
    let plain = normalise(name);
    if ["body", "entity", "requestbody", "json"].contains(&plain.as_str()) {
        return Some("entity");
    }
    let names = param_names();
    for helper in &names {
        let h = normalise(helper);
        if h == plain || h == format!("{plain}param") {
            return Some(helper);
        }
    }
    match plain.as_str() {
        "default" | "defaultvalue" | "def" => Some("default_value"),
        "param" | "pathvariable" | "pathvar" => Some("path_param"),
        "requestparam" => Some("query_param"),
        "requestheader" => Some("header_param"),
        "cookievalue" => Some("cookie_param"),
        "ctx" | "inject" => Some("context"),
        _ => closest(name, &names),
    }
}

fn normalise(name: &str) -> String {
    name.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect()
}

/// The name in `valid` that `name` is a near miss of (see the module docs).
fn closest(name: &str, valid: &[&'static str]) -> Option<&'static str> {
    let plain = normalise(name);
    let mut best: Option<(usize, &'static str)> = None;
    for &candidate in valid {
        let d = if normalise(candidate) == plain { 0 } else { distance(&name.to_lowercase(), candidate) };
        let limit = if candidate.len() <= 4 { 1 } else { 2 };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance (Levenshtein plus transpositions).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses() {
        let method = names_on(&[Place::Method]);
        assert_eq!(closest("paht", &method), Some("path"));
        assert_eq!(closest("gett", &method), Some("get"));
        assert_eq!(closest("GET", &method), Some("get"));
        assert_eq!(closest("produce", &method), Some("produces"));
        assert_eq!(closest("Consumes", &method), Some("consumes"));
        assert_eq!(closest("schedule", &method), Some("scheduled"));
        assert_eq!(closest("inline", &method), None);
        assert_eq!(closest("instrument", &method), None);
        assert_eq!(closest("tokio", &method), None);
        assert_eq!(closest("rest", &method), None);
    }

    #[test]
    fn param_guesses() {
        assert_eq!(param_guess("query"), Some("query_param"));
        assert_eq!(param_guess("PathParam"), Some("path_param"));
        assert_eq!(param_guess("header"), Some("header_param"));
        assert_eq!(param_guess("quer_param"), Some("query_param"));
        assert_eq!(param_guess("bean"), Some("bean_param"));
        assert_eq!(param_guess("request_serialiser"), Some("request_serializer"));
        assert_eq!(param_guess("body"), Some("entity"));
        assert_eq!(param_guess("zzz"), None);
    }

    #[test]
    fn distances() {
        assert_eq!(distance("paht", "path"), 1);
        assert_eq!(distance("test", "get"), 2);
        assert_eq!(distance("", "abc"), 3);
    }
}
