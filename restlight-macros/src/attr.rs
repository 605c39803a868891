//! The helper attributes: recognising them, reading their arguments, and
//! catching misspelt ones.
//!
//! A helper is recognised by its bare name (`#[get]`) or qualified by the
//! crate (`#[restlight::get]`, `#[::restlight::get]`).
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
//!   A parameter helper on a method (or a method helper on a parameter) is
//!   reported as misplaced.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitStr, Meta, Token};

use crate::ctxt::{with_help, Spans};
use crate::model::{HttpMethod, Scheduler, Source, Spanned};

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
    Source(Source),
    DefaultValue,
    BeanParam,
    NoInterceptors,
    SkipInterceptor,
    ExceptionHandler,
    Valid,
    Serializer,
    RequestSerializer,
    ResponseSerializer,
    Compress,
}

/// Names of the helpers that stand on a method (or, but for the HTTP
/// methods, on the impl block).
pub(crate) const METHOD_HELPERS: &[&str] = &[
    "get",
    "post",
    "put",
    "delete",
    "patch",
    "head",
    "options",
    "path",
    "produces",
    "consumes",
    "scheduled",
    "max_body",
    "timeout",
    "no_interceptors",
    "skip_interceptor",
    "exception_handler",
    "serializer",
    "request_serializer",
    "response_serializer",
    "compress",
];

/// Names of the helpers that stand on a parameter.
pub(crate) const PARAM_HELPERS: &[&str] = &[
    "path_param",
    "query_param",
    "header_param",
    "cookie_param",
    "matrix_param",
    "form_param",
    "default_value",
    "context",
    "valid",
];

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

impl Helper {
    fn from_name(name: &str) -> Option<Self> {
        if let Some(m) = HttpMethod::from_attr_name(name) {
            return Some(Self::Method(m));
        }
        if let Some(s) = Source::from_attr_name(name) {
            return Some(Self::Source(s));
        }
        Some(match name {
            "path" => Self::Path,
            "produces" => Self::Produces,
            "consumes" => Self::Consumes,
            "scheduled" => Self::Scheduled,
            "max_body" => Self::MaxBody,
            "timeout" => Self::Timeout,
            "default_value" => Self::DefaultValue,
            "bean_param" => Self::BeanParam,
            "no_interceptors" => Self::NoInterceptors,
            "skip_interceptor" => Self::SkipInterceptor,
            "exception_handler" => Self::ExceptionHandler,
            "valid" => Self::Valid,
            "serializer" => Self::Serializer,
            "request_serializer" => Self::RequestSerializer,
            "response_serializer" => Self::ResponseSerializer,
            "compress" => Self::Compress,
            _ => return None,
        })
    }

    /// Whether the helper belongs on a parameter.
    pub(crate) fn is_param_level(self) -> bool {
        matches!(self, Self::Source(_) | Self::DefaultValue | Self::BeanParam | Self::Valid)
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Method(m) => m.attr_name(),
            Self::Path => "path",
            Self::Produces => "produces",
            Self::Consumes => "consumes",
            Self::Scheduled => "scheduled",
            Self::MaxBody => "max_body",
            Self::Timeout => "timeout",
            Self::Source(s) => s.attr_name(),
            Self::DefaultValue => "default_value",
            Self::BeanParam => "bean_param",
            Self::NoInterceptors => "no_interceptors",
            Self::SkipInterceptor => "skip_interceptor",
            Self::ExceptionHandler => "exception_handler",
            Self::Valid => "valid",
            Self::Serializer => "serializer",
            Self::RequestSerializer => "request_serializer",
            Self::ResponseSerializer => "response_serializer",
            Self::Compress => "compress",
        }
    }
}

/// The helper `attr` is, if it is one of ours.
pub(crate) fn helper(attr: &Attribute) -> Option<Helper> {
    let path = attr.path();
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    if path.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    match segments.as_slice() {
        [name] if path.leading_colon.is_none() => Helper::from_name(name),
        [krate, name] if krate == "restlight" => Helper::from_name(name),
        _ => None,
    }
}

/// The name of an attribute whose path is a single identifier.
pub(crate) fn bare_name(attr: &Attribute) -> Option<String> {
    attr.path().get_ident().map(ToString::to_string)
}

/// The error for an attribute on a method or impl block that looks like a
/// misspelt helper of ours, if it does.
pub(crate) fn near_miss_on_item(attr: &Attribute, valid: &[&'static str], place: &str) -> Option<syn::Error> {
    let name = bare_name(attr)?;
    if BUILT_IN.contains(&name.as_str()) {
        return None;
    }
    if let Some(param) = closest(&name, PARAM_HELPERS).filter(|p| *p == name) {
        return Some(syn::Error::new_spanned(
            attr,
            with_help(
                format!("`#[{param}]` belongs on a parameter, not on {place}"),
                format!("write it before the parameter: `#[{param}] name: Type`"),
            ),
        ));
    }
    let suggestion = closest(&name, valid)?;
    Some(syn::Error::new_spanned(
        attr,
        with_help(
            format!("unknown Restlight attribute `#[{name}]`; did you mean `#[{suggestion}]`?"),
            format!("the attributes valid on {place} are {}", list(valid)),
        ),
    ))
}

/// The error for an unknown single-identifier attribute on a route
/// parameter, if `attr` is one.
pub(crate) fn unknown_on_param(attr: &Attribute) -> Option<syn::Error> {
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
    if let Some(method) = closest(&name, METHOD_HELPERS).filter(|m| *m == name) {
        return Some(syn::Error::new_spanned(
            attr,
            with_help(
                format!("`#[{method}]` belongs on the method, not on a parameter"),
                format!("the attributes valid on a parameter are {}", list(PARAM_HELPERS)),
            ),
        ));
    }
    let guess = param_guess(&name);
    let message = match guess {
        Some("entity") => {
            format!("unknown parameter attribute `#[{name}]`: the request entity is the parameter without attribute")
        }
        Some(g) => format!("unknown parameter attribute `#[{name}]`; did you mean `#[{g}]`?"),
        None => format!("unknown parameter attribute `#[{name}]`"),
    };
    let help = if guess == Some("entity") {
        "remove the attribute: the one parameter without a source attribute is decoded from the body".to_owned()
    } else {
        format!("the attributes valid on a parameter are {}", list(PARAM_HELPERS))
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
    for helper in PARAM_HELPERS {
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
        _ => closest(name, PARAM_HELPERS),
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

/// `#[get], #[post], ...` for a help line.
pub(crate) fn list(names: &[&str]) -> String {
    let items: Vec<String> = names.iter().map(|n| format!("`#[{n}]`")).collect();
    items.join(", ")
}

// ---- arguments ------------------------------------------------------------------

fn args_tokens(attr: &Attribute) -> syn::Result<Option<TokenStream>> {
    match &attr.meta {
        Meta::Path(_) => Ok(None),
        Meta::List(list) => Ok(Some(list.tokens.clone())),
        Meta::NameValue(nv) => {
            let name = helper(attr).map_or("attr", Helper::name);
            Err(syn::Error::new(
                nv.eq_token.span,
                with_help(
                    format!("`#[{name} = ..]` is not a Restlight attribute form"),
                    format!("write the argument in parentheses: `#[{name}(\"..\")]`"),
                ),
            ))
        }
    }
}

/// `#[x]` or `#[x("text")]`.
pub(crate) fn optional_lit(attr: &Attribute, what: &str) -> syn::Result<Option<LitStr>> {
    let Some(tokens) = args_tokens(attr)? else {
        return Ok(None);
    };
    if tokens.is_empty() {
        return Ok(None);
    }
    let name = helper(attr).map_or("attr", Helper::name);
    syn::parse2::<LitStr>(tokens).map(Some).map_err(|e| {
        syn::Error::new(
            e.span(),
            with_help(
                format!("`#[{name}]` takes one string literal, {what}"),
                format!("write `#[{name}]` or `#[{name}(\"..\")]`"),
            ),
        )
    })
}

/// `#[x("text")]`, the argument required.
pub(crate) fn required_lit(attr: &Attribute, what: &str, example: &str) -> syn::Result<LitStr> {
    let name = helper(attr).map_or("attr", Helper::name);
    let wrong = |spans: Spans| {
        spans.error(with_help(format!("`#[{name}]` takes one string literal, {what}"), format!("write `{example}`")))
    };
    match args_tokens(attr)? {
        None => Err(wrong(Spans::of(attr))),
        Some(tokens) if tokens.is_empty() => Err(wrong(Spans::of(attr))),
        Some(tokens) => syn::parse2::<LitStr>(tokens).map_err(|e| wrong(e.span().into())),
    }
}

/// `#[context]`, `#[bean_param]`: no argument.
pub(crate) fn no_args(attr: &Attribute) -> syn::Result<()> {
    match args_tokens(attr)? {
        Some(tokens) if !tokens.is_empty() => {
            let name = helper(attr).map_or("attr", Helper::name);
            Err(syn::Error::new_spanned(
                tokens,
                with_help(
                    format!("`#[{name}]` takes no argument"),
                    format!("write `#[{name}]`: the parameter's type says what it is"),
                ),
            ))
        }
        _ => Ok(()),
    }
}

struct LitList(Punctuated<LitStr, Token![,]>);

impl Parse for LitList {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        Punctuated::parse_terminated(input).map(Self)
    }
}

/// `#[produces("a/b", "c/d")]`: the media types, each checked.
pub(crate) fn media_list(attr: &Attribute) -> syn::Result<Spanned<Vec<String>>> {
    let name = helper(attr).map_or("attr", Helper::name);
    let usage = format!("write `#[{name}(\"application/json\")]` or `#[{name}(\"text/plain\", \"text/html\")]`");
    let tokens = args_tokens(attr)?.unwrap_or_default();
    let list = syn::parse2::<LitList>(tokens).map_err(|e| {
        syn::Error::new(e.span(), with_help(format!("`#[{name}]` takes media types as string literals"), &usage))
    })?;
    if list.0.is_empty() {
        return Err(syn::Error::new_spanned(
            attr,
            with_help(format!("`#[{name}]` needs at least one media type"), &usage),
        ));
    }
    let mut errors: Option<syn::Error> = None;
    let mut types = Vec::new();
    for lit in &list.0 {
        let value = lit.value();
        match check_media_type(&value) {
            Ok(()) => types.push(value),
            Err(why) => {
                let help = if value.contains('/') {
                    "a media type is `type/subtype` with optional `; name=value` parameters".to_owned()
                } else {
                    format!("write the full media type, e.g. `{}`", guess_media(&value))
                };
                let e = syn::Error::new(lit.span(), with_help(format!("`{value}` is not a media type: {why}"), help));
                match &mut errors {
                    Some(all) => all.combine(e),
                    None => errors = Some(e),
                }
            }
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(Spanned::new(types, Spans::of(attr))),
    }
}

fn guess_media(value: &str) -> &'static str {
    match value.to_ascii_lowercase().as_str() {
        "text" | "plain" | "txt" => "text/plain",
        "html" => "text/html",
        "xml" => "application/xml",
        "form" => "application/x-www-form-urlencoded",
        "bytes" | "binary" | "octet-stream" => "application/octet-stream",
        _ => "application/json",
    }
}

/// `type/subtype *( ";" name=value )` (RFC 9110 section 8.3.1), parsed by
/// the grammar `MediaType::parse` uses at startup.
fn check_media_type(value: &str) -> Result<(), String> {
    restlight_grammar::media::parse(value).map(drop).map_err(|e| e.to_string())
}

/// `#[serializer("msgpack")]` and friends: a codec's format name or media type.
pub(crate) fn codec_name(attr: &Attribute) -> syn::Result<Spanned<String>> {
    let name = helper(attr).map_or("attr", Helper::name);
    let example = format!("#[{name}(\"msgpack\")]");
    let lit = required_lit(attr, "the codec's format name or media type", &example)?;
    let value = lit.value();
    let valid = if value.contains('/') {
        check_media_type(&value).map_err(|why| format!("`{value}` is not a media type: {why}"))
    } else if restlight_grammar::media::is_token(&value) {
        Ok(())
    } else {
        Err(format!("`{value}` is neither a format name nor a media type"))
    };
    valid.map_err(|message| {
        syn::Error::new(
            lit.span(),
            with_help(
                message,
                format!("write a format name, `{example}`, or a media type, `#[{name}(\"application/msgpack\")]`; built in: json, msgpack, cbor, form, text"),
            ),
        )
    })?;
    Ok(Spanned::new(value, lit.span()))
}

/// `#[compress(false)]` or `#[compress(true)]`.
pub(crate) fn compress(attr: &Attribute) -> syn::Result<Spanned<bool>> {
    const USAGE: &str = "write `#[compress(false)]` to send this route's responses uncompressed";
    let tokens = args_tokens(attr)?.unwrap_or_default();
    match syn::parse2::<syn::LitBool>(tokens.clone()) {
        Ok(b) => Ok(Spanned::new(b.value, b.span)),
        Err(_) if tokens.is_empty() => {
            Err(syn::Error::new_spanned(attr, with_help("`#[compress]` needs `true` or `false`", USAGE)))
        }
        Err(_) => Err(syn::Error::new_spanned(tokens, with_help("`#[compress]` takes `true` or `false`", USAGE))),
    }
}

/// `#[scheduled(io)]`, `#[scheduled(biz)]`, `#[scheduled("name")]`.
pub(crate) fn scheduler(attr: &Attribute) -> syn::Result<Spanned<Scheduler>> {
    const USAGE: &str = "write `#[scheduled(io)]`, `#[scheduled(biz)]`, or `#[scheduled(\"name\")]` for an executor registered under that name";
    let tokens = args_tokens(attr)?.unwrap_or_default();
    if tokens.is_empty() {
        return Err(syn::Error::new_spanned(attr, with_help("`#[scheduled]` needs the executor to run on", USAGE)));
    }
    let span = Spans::of(attr);
    if let Ok(ident) = syn::parse2::<Ident>(tokens.clone()) {
        return match ident.to_string().as_str() {
            "io" => Ok(Spanned::new(Scheduler::Io, span)),
            "biz" => Ok(Spanned::new(Scheduler::Biz, span)),
            other => {
                let lower = other.to_ascii_lowercase();
                let message = if lower == "io" || lower == "biz" {
                    format!("unknown scheduler `{other}`; did you mean `{lower}`?")
                } else {
                    format!("unknown scheduler `{other}`")
                };
                Err(syn::Error::new(ident.span(), with_help(message, USAGE)))
            }
        };
    }
    if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
        let name = lit.value();
        let lower = name.trim().to_ascii_lowercase();
        if lower == "io" || lower == "biz" {
            return Err(syn::Error::new(
                lit.span(),
                with_help(
                    format!("the executor name `{name}` is reserved"),
                    format!("write `#[scheduled({lower})]` for the built-in executor"),
                ),
            ));
        }
        if name.trim().is_empty() {
            return Err(syn::Error::new(lit.span(), with_help("an executor name cannot be empty", USAGE)));
        }
        return Ok(Spanned::new(Scheduler::Named(name), span));
    }
    Err(syn::Error::new_spanned(tokens, with_help("unknown scheduler syntax", USAGE)))
}

/// A number with an optional unit, as `#[max_body]` and `#[timeout]` take
/// it: an integer in the base unit or a string such as `"16MiB"`.
struct Quantity {
    attr: &'static str,
    /// What the string is when it parses: `size`, `duration`.
    kind: &'static str,
    /// What the attribute needs when empty: `the size limit`.
    needs: &'static str,
    /// What an integer is: `a size in bytes`.
    integer: &'static str,
    /// Why zero is refused.
    zero: &'static str,
    usage: &'static str,
    /// Unit spellings and their factor to the base unit.
    units: &'static [(&'static [&'static str], u64)],
}

/// Byte units of `#[max_body]`.
const SIZE_UNITS: &[(&[&str], u64)] = &[
    (&["", "B", "b"], 1),
    (&["KB", "kB", "kb"], 1000),
    (&["KiB", "kiB"], 1 << 10),
    (&["MB", "mb"], 1_000_000),
    (&["MiB"], 1 << 20),
    (&["GB", "gb"], 1_000_000_000),
    (&["GiB"], 1 << 30),
];

/// Time units of `#[timeout]`, in milliseconds.
const TIME_UNITS: &[(&[&str], u64)] = &[(&["", "ms"], 1), (&["s"], 1000), (&["m", "min"], 60_000)];

/// `#[max_body("16MiB")]` or `#[max_body(1024)]`: the largest request
/// entity of the route, in bytes.
pub(crate) fn max_body(attr: &Attribute) -> syn::Result<Spanned<u64>> {
    quantity(
        attr,
        &Quantity {
            attr: "max_body",
            kind: "size",
            needs: "the size limit",
            integer: "a size in bytes",
            zero: "a body limit of zero bytes refuses every entity",
            usage: "write a size such as `#[max_body(\"16MiB\")]`, `#[max_body(\"512KiB\")]` or `#[max_body(1048576)]` (bytes); units: B, KB, KiB, MB, MiB, GB, GiB",
            units: SIZE_UNITS,
        },
    )
}

/// `#[timeout("2s")]`, `#[timeout("500ms")]` or `#[timeout(2000)]`: how
/// long the handler may take, in milliseconds.
pub(crate) fn timeout(attr: &Attribute) -> syn::Result<Spanned<u64>> {
    quantity(
        attr,
        &Quantity {
            attr: "timeout",
            kind: "duration",
            needs: "the time limit",
            integer: "a number of milliseconds",
            zero: "a timeout of zero answers every request 504",
            usage: "write a duration such as `#[timeout(\"2s\")]`, `#[timeout(\"500ms\")]`, `#[timeout(\"1m\")]` or `#[timeout(2000)]` (milliseconds); units: ms, s, m",
            units: TIME_UNITS,
        },
    )
}

fn quantity(attr: &Attribute, q: &Quantity) -> syn::Result<Spanned<u64>> {
    let help = |message: String| with_help(message, q.usage);
    let tokens = args_tokens(attr)?.unwrap_or_default();
    if tokens.is_empty() {
        return Err(syn::Error::new_spanned(attr, help(format!("`#[{}]` needs {}", q.attr, q.needs))));
    }
    let span = Spans::of(attr);
    let parsed = if let Ok(lit) = syn::parse2::<syn::LitInt>(tokens.clone()) {
        (lit.span(), lit.base10_parse::<u64>().map_err(|e| format!("not {}: {e}", q.integer)))
    } else if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
        let value = lit.value();
        (lit.span(), with_unit(&value, q.units).map_err(|why| format!("`{value}` is not a {}: {why}", q.kind)))
    } else {
        let message = format!("`#[{}]` takes one {}, as a string or an integer", q.attr, q.kind);
        return Err(syn::Error::new_spanned(tokens, help(message)));
    };
    match parsed {
        (at, Ok(0)) => Err(syn::Error::new(at, help(q.zero.to_owned()))),
        (_, Ok(n)) => Ok(Spanned::new(n, span)),
        (at, Err(message)) => Err(syn::Error::new(at, help(message))),
    }
}

/// `16MiB`, `16 MiB`, `2s`, `100`: decimal digits and an optional unit of
/// `units`, in the base unit.
fn with_unit(text: &str, units: &[(&[&str], u64)]) -> Result<u64, String> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    if number.is_empty() {
        return Err("it does not start with a number".into());
    }
    let number: u64 = number.parse().map_err(|e| format!("{e}"))?;
    let unit = unit.trim();
    let Some((_, factor)) = units.iter().find(|(names, _)| names.contains(&unit)) else {
        return Err(format!("unknown unit `{unit}`"));
    };
    number.checked_mul(*factor).ok_or_else(|| "it overflows 64 bits".to_owned())
}

/// `#[skip_interceptor(Auth, crate::Audit)]`: the interceptor types.
pub(crate) fn type_list(attr: &Attribute) -> syn::Result<Vec<syn::Path>> {
    const USAGE: &str = "name the interceptor types: `#[skip_interceptor(Auth)]` or `#[skip_interceptor(Auth, Audit)]`";
    let tokens = args_tokens(attr)?.unwrap_or_default();
    let list = syn::parse::Parser::parse2(Punctuated::<syn::Path, Token![,]>::parse_terminated, tokens)
        .map_err(|e| syn::Error::new(e.span(), with_help("`#[skip_interceptor]` takes type paths", USAGE)))?;
    if list.is_empty() {
        return Err(syn::Error::new_spanned(attr, with_help("`#[skip_interceptor]` needs at least one type", USAGE)));
    }
    Ok(list.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses() {
        assert_eq!(closest("paht", METHOD_HELPERS), Some("path"));
        assert_eq!(closest("gett", METHOD_HELPERS), Some("get"));
        assert_eq!(closest("GET", METHOD_HELPERS), Some("get"));
        assert_eq!(closest("produce", METHOD_HELPERS), Some("produces"));
        assert_eq!(closest("Consumes", METHOD_HELPERS), Some("consumes"));
        assert_eq!(closest("schedule", METHOD_HELPERS), Some("scheduled"));
        assert_eq!(closest("inline", METHOD_HELPERS), None);
        assert_eq!(closest("instrument", METHOD_HELPERS), None);
        assert_eq!(closest("tokio", METHOD_HELPERS), None);
        assert_eq!(closest("rest", METHOD_HELPERS), None);
    }

    #[test]
    fn param_guesses() {
        assert_eq!(param_guess("query"), Some("query_param"));
        assert_eq!(param_guess("PathParam"), Some("path_param"));
        assert_eq!(param_guess("header"), Some("header_param"));
        assert_eq!(param_guess("quer_param"), Some("query_param"));
        assert_eq!(param_guess("body"), Some("entity"));
        assert_eq!(param_guess("zzz"), None);
    }

    #[test]
    fn media_types() {
        assert!(check_media_type("application/json").is_ok());
        assert!(check_media_type("text/plain; charset=utf-8").is_ok());
        assert!(check_media_type("*/*").is_ok());
        assert!(check_media_type("text/*").is_ok());
        assert!(check_media_type("application/vnd.api+json").is_ok());
        assert!(check_media_type("json").is_err());
        assert!(check_media_type("text/").is_err());
        assert!(check_media_type("*/json").is_err());
        assert!(check_media_type("text/plain; charset").is_err());
        assert!(check_media_type("text /plain").is_err());
    }

    #[test]
    fn sizes() {
        let parse_size = |text: &str| with_unit(text, SIZE_UNITS);
        assert_eq!(parse_size("16MiB"), Ok(16 << 20));
        assert_eq!(parse_size("16 MiB"), Ok(16 << 20));
        assert_eq!(parse_size("512KiB"), Ok(512 << 10));
        assert_eq!(parse_size("10MB"), Ok(10_000_000));
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("16 mebibytes").is_err());
        assert!(parse_size("99999999999999GiB").is_err());
    }

    #[test]
    fn distances() {
        assert_eq!(distance("paht", "path"), 1);
        assert_eq!(distance("test", "get"), 2);
        assert_eq!(distance("", "abc"), 3);
    }
}
