//! The operations of a document, read into what a handler needs: method,
//! template, parameters with their sources, the entity and the success
//! response.

use std::collections::BTreeMap;

use serde_json::Value;

use super::names::{pascal, snake};
use super::schema::{self, description, pointer, Types};
use super::{escape_pointer, Warnings};

/// Where a parameter is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// A template variable.
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// A cookie.
    Cookie,
    /// A field of an `application/x-www-form-urlencoded` body.
    Form,
}

/// One parameter of a handler.
#[derive(Debug, Clone)]
pub struct Param {
    /// The name on the wire.
    pub name: String,
    /// The Rust identifier.
    pub ident: String,
    /// Where it is read from.
    pub location: Location,
    /// The Rust type, `Option<T>` or `Vec<T>` included.
    pub ty: String,
    /// `#[default_value]`.
    pub default: Option<String>,
    /// The regex of a path variable, unanchored.
    pub pattern: Option<String>,
    /// A value the generated test sends, when the parameter is required.
    pub sample: Option<String>,
}

/// What the request's body is read as.
#[derive(Debug, Clone)]
pub enum Body {
    /// One entity of this type (`Option<T>` when the body is optional).
    Entity { ty: String, sample: Value },
    /// `application/x-www-form-urlencoded` fields.
    Form,
}

/// What a handler returns.
#[derive(Debug, Clone)]
pub struct Returns {
    /// The type inside `Result<_, HttpError>`.
    pub ty: String,
    /// The status it documents, if one.
    pub status: Option<u16>,
}

/// One operation.
#[derive(Debug, Clone)]
pub struct Operation {
    /// `get`, `post`, ...
    pub method: String,
    /// The OpenAPI path, `/pets/{id}`.
    pub path: String,
    /// Its `operationId`, or one made of the method and path.
    pub id: String,
    /// The handler's name.
    pub fn_name: String,
    /// The resource it belongs to (its first tag, else its first path segment).
    pub group: String,
    /// Summary and description, for the doc comment.
    pub doc: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// Path, query, header, cookie and form parameters.
    pub params: Vec<Param>,
    /// The entity, if any.
    pub body: Option<Body>,
    /// `#[consumes]`.
    pub consumes: Vec<String>,
    /// `#[produces]`.
    pub produces: Vec<String>,
    /// The return type.
    pub returns: Returns,
}

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Media types the framework reads and writes without further setup.
fn supported(media: &str) -> bool {
    let m = media.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    m == "application/json"
        || m.ends_with("+json")
        || m.starts_with("text/")
        || m == "application/octet-stream"
        || m == "multipart/form-data"
        || m == "application/x-www-form-urlencoded"
        || m == "*/*"
}

fn is_json(media: &str) -> bool {
    media == "application/json" || media.ends_with("+json") || media == "*/*"
}

/// Every operation of the document, in path order.
pub fn read<'d>(doc: &'d Value, types: &mut Types<'d>, w: &mut Warnings) -> Vec<Operation> {
    let mut out = Vec::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else { return out };
    let mut used_names: BTreeMap<String, usize> = BTreeMap::new();
    for (path, item) in paths {
        let item_ptr = format!("#/paths/{}", escape_pointer(path));
        let item = types.resolve(item);
        if path.len() > 1 && path.ends_with('/') {
            w.add(&item_ptr, "the trailing `/` is dropped: the router serves the path without it");
        }
        for (method, op) in item.as_object().into_iter().flatten() {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let ptr = format!("{item_ptr}/{method}");
            if method == "trace" {
                w.add(&ptr, "TRACE operations are not generated");
                continue;
            }
            let mut operation = operation(types, path, method, item, op, &ptr, w);
            let n = used_names.entry(operation.fn_name.clone()).or_default();
            *n += 1;
            if *n > 1 {
                operation.fn_name = format!("{}_{}", operation.fn_name, n);
            }
            out.push(operation);
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn operation<'d>(
    types: &mut Types<'d>,
    path: &str,
    method: &str,
    item: &'d Value,
    op: &'d Value,
    ptr: &str,
    w: &mut Warnings,
) -> Operation {
    let id = op.get("operationId").and_then(Value::as_str).map_or_else(
        || {
            let words: Vec<&str> =
                path.split('/').filter(|s| !s.is_empty()).map(|s| s.trim_matches(['{', '}'])).collect();
            format!("{method}_{}", words.join("_"))
        },
        str::to_owned,
    );
    let group = op
        .get("tags")
        .and_then(|t| t.get(0))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| path.split('/').find(|s| !s.is_empty() && !s.starts_with('{')).map(str::to_owned))
        .unwrap_or_else(|| "root".into());
    let summary = op.get("summary").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let doc_text = match (summary, description(op).filter(|_| op.get("description").is_some())) {
        (Some(s), Some(d)) => Some(format!("{s}\n\n{d}")),
        (Some(s), None) => Some(s.to_owned()),
        (None, d) => d,
    };
    let hint = pascal(&id);

    // Parameters: the path item's, overridden by the operation's (name and `in`).
    let mut declared: Vec<(String, &Value)> = Vec::new();
    for (base, list) in
        [(format!("{}/parameters", ptr.rsplit_once('/').unwrap().0), item), (format!("{ptr}/parameters"), op)]
    {
        for (i, p) in list.get("parameters").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let p_ptr = format!("{base}/{i}");
            let p = types.resolve(p);
            let key = (p.get("name"), p.get("in"));
            declared.retain(|(_, q)| (q.get("name"), q.get("in")) != key);
            declared.push((p_ptr, p));
        }
    }
    let mut params = Vec::new();
    for (p_ptr, p) in &declared {
        if let Some(param) = parameter(types, p, p_ptr, &hint, w) {
            params.push(param);
        }
    }
    // Template variables without a declaration.
    for var in variables(path) {
        if !params.iter().any(|p| p.location == Location::Path && p.name == var) {
            w.add(ptr, format!("the path variable `{var}` is not declared as a parameter: read as a string"));
            params.push(Param {
                ident: snake(&var),
                name: var,
                location: Location::Path,
                ty: "String".into(),
                default: None,
                pattern: None,
                sample: Some("text".into()),
            });
        }
    }

    // The request body.
    let mut consumes = Vec::new();
    let mut body = None;
    if let Some(rb) = op.get("requestBody") {
        let rb_ptr = format!("{ptr}/requestBody");
        let rb = types.resolve(rb);
        let required = rb.get("required") == Some(&Value::Bool(true));
        let content = rb.get("content").and_then(Value::as_object);
        for (media, _) in content.into_iter().flatten() {
            if supported(media) {
                consumes.push(media.clone());
            } else {
                w.add(
                    &format!("{rb_ptr}/content/{}", escape_pointer(media)),
                    format!("`{media}` has no codec in Restlight: not consumed"),
                );
            }
        }
        let form: Vec<String> =
            consumes.iter().filter(|m| m.as_str() == "application/x-www-form-urlencoded").cloned().collect();
        if !form.is_empty() && form.len() == consumes.len() {
            let media = &content.unwrap()["application/x-www-form-urlencoded"];
            let schema = types.resolve(media.get("schema").unwrap_or(&Value::Null));
            let required_fields: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for (name, prop) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
                let f_ptr = format!(
                    "{rb_ptr}/content/application~1x-www-form-urlencoded/schema/properties/{}",
                    escape_pointer(name)
                );
                let mut param = scalar_param(
                    types,
                    name,
                    Location::Form,
                    prop,
                    required_fields.contains(&name.as_str()),
                    &f_ptr,
                    &hint,
                    w,
                );
                if param.sample.is_none() && required_fields.contains(&name.as_str()) {
                    param.sample = Some("text".into());
                }
                params.push(param);
            }
            body = Some(Body::Form);
        } else if !consumes.is_empty() {
            if !form.is_empty() {
                w.add(
                    &rb_ptr,
                    "form fields and another media type cannot be read by one handler: the form is not consumed",
                );
                consumes.retain(|m| m != "application/x-www-form-urlencoded");
            }
            let first = consumes[0].clone();
            let media = &content.unwrap()[&first];
            let ty = if first == "multipart/form-data" {
                consumes.retain(|m| m == "multipart/form-data");
                "Multipart".to_owned()
            } else if first.starts_with("text/") {
                "String".to_owned()
            } else if first == "application/octet-stream" {
                "Vec<u8>".to_owned()
            } else {
                let schema = media.get("schema").unwrap_or(&Value::Null);
                let m_ptr = format!("{rb_ptr}/content/{}/schema", escape_pointer(&first));
                let t = types.ty(schema, &m_ptr, &format!("{hint}Request"), w);
                if t.nullable {
                    format!("Option<{}>", t.expr)
                } else {
                    t.expr
                }
            };
            let sample = media.get("schema").map_or(Value::Null, |s| types.sample(s, 0));
            // Text and bytes are read as they come: an absent body is empty.
            let raw = matches!(ty.as_str(), "Multipart" | "String" | "Vec<u8>");
            let ty = if required || raw { ty } else { format!("Option<{ty}>") };
            body = Some(Body::Entity { ty, sample });
        }
    }

    let (returns, produces) = returns(types, op, ptr, &hint, w);
    if op.get("callbacks").is_some() {
        w.add(&format!("{ptr}/callbacks"), "callbacks are not generated");
    }
    Operation {
        method: method.to_owned(),
        path: path.to_owned(),
        fn_name: snake(&id),
        id,
        group,
        doc: doc_text,
        deprecated: op.get("deprecated") == Some(&Value::Bool(true)),
        params,
        body,
        consumes,
        produces,
        returns,
    }
}

/// The variables of an OpenAPI path.
pub fn variables(path: &str) -> Vec<String> {
    path.split('{').skip(1).filter_map(|s| s.split_once('}')).map(|(v, _)| v.to_owned()).collect()
}

fn parameter<'d>(types: &mut Types<'d>, p: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> Option<Param> {
    let name = p.get("name").and_then(Value::as_str)?.to_owned();
    let location = match p.get("in").and_then(Value::as_str) {
        Some("path") => Location::Path,
        Some("query") => Location::Query,
        Some("header") => Location::Header,
        Some("cookie") => Location::Cookie,
        other => {
            w.add(ptr, format!("a parameter `in: {}` is not generated", other.unwrap_or("?")));
            return None;
        }
    };
    if location == Location::Header
        && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
    {
        if name.eq_ignore_ascii_case("authorization") {
            w.add(
                ptr,
                "the `Authorization` header parameter is read as a header; a security scheme would be an interceptor",
            );
        } else {
            w.add(ptr, format!("the `{name}` header is the framework's content negotiation: not a parameter"));
            return None;
        }
    }
    let style = p.get("style").and_then(Value::as_str);
    let default_style = match location {
        Location::Path => "simple",
        Location::Query | Location::Cookie | Location::Form => "form",
        Location::Header => "simple",
    };
    if let Some(style) = style.filter(|s| *s != default_style) {
        w.add(&format!("{ptr}/style"), format!("`style: {style}` is read as `{default_style}`"));
    }
    if p.get("explode") == Some(&Value::Bool(false)) {
        w.add(&format!("{ptr}/explode"), "`explode: false` is read as repeated parameters (`explode: true`)");
    }
    let schema = match p.get("schema") {
        Some(s) => s,
        None => {
            w.add(ptr, "a parameter with `content` instead of `schema` is read as a string");
            &Value::Null
        }
    };
    let required = location == Location::Path || p.get("required") == Some(&Value::Bool(true));
    let mut param = scalar_param(types, &name, location, schema, required, ptr, hint, w);
    if let Some(example) = p.get("example").and_then(text) {
        if param.sample.is_some() {
            param.sample = Some(example);
        }
    }
    Some(param)
}

/// A parameter whose value is one scalar or a list of them.
#[allow(clippy::too_many_arguments)]
fn scalar_param<'d>(
    types: &mut Types<'d>,
    name: &str,
    location: Location,
    schema: &'d Value,
    required: bool,
    ptr: &str,
    hint: &str,
    w: &mut Warnings,
) -> Param {
    let resolved = types.resolve(schema);
    let s_ptr = format!("{ptr}/schema");
    let is_array = schema::types(resolved).contains(&"array");
    let (value_schema, value_ptr) = if is_array {
        (resolved.get("items").unwrap_or(&Value::Null), format!("{s_ptr}/items"))
    } else {
        (schema, s_ptr.clone())
    };
    let value = scalar_type(types, value_schema, &value_ptr, &format!("{hint}{}", pascal(name)), w);
    let default = resolved.get("default").and_then(|d| {
        let t = text(d);
        if t.is_none() {
            w.add(&format!("{s_ptr}/default"), "a default that is not a scalar is not kept");
        }
        t
    });
    let mut pattern = None;
    if location == Location::Path {
        if let Some(p) = types.resolve(value_schema).get("pattern").and_then(Value::as_str) {
            let unanchored = p.strip_prefix('^').unwrap_or(p);
            let unanchored = unanchored.strip_suffix('$').filter(|s| !s.ends_with('\\')).unwrap_or(unanchored);
            pattern = Some(unanchored.to_owned());
        }
    }
    let ty = if is_array {
        if required && location != Location::Path {
            w.add(ptr, "a required list is read as `Vec<T>`: an absent one is empty and documented as not required");
        }
        if default.is_some() {
            w.add(&format!("{s_ptr}/default"), "the default of a list is not kept");
        }
        format!("Vec<{value}>")
    } else if required || default.is_some() {
        if required && default.is_some() && location != Location::Path {
            w.add(
                &format!("{s_ptr}/default"),
                "a required parameter with a default is read as optional with that default",
            );
        }
        value.clone()
    } else {
        format!("Option<{value}>")
    };
    let sample = (required && !is_array).then(|| sample_text(types, value_schema, &value, pattern.as_deref()));
    Param {
        name: name.to_owned(),
        ident: snake(name),
        location,
        ty,
        default: if is_array { None } else { default },
        pattern,
        sample,
    }
}

fn scalar_type<'d>(types: &mut Types<'d>, schema: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> String {
    let resolved = types.resolve(schema);
    let ts = schema::types(resolved);
    let object = ts.contains(&"object") || ts.contains(&"array") || resolved.get("properties").is_some();
    if object {
        w.add(ptr, "an object or nested list in a parameter is read as its text");
        return "String".into();
    }
    if resolved.get("format").and_then(Value::as_str) == Some("binary") {
        return "String".into();
    }
    let t = types.ty(schema, ptr, hint, w);
    if t.expr == "serde_json::Value" || t.expr.starts_with("Vec<") || t.expr.starts_with("std::collections::BTreeMap<")
    {
        return "String".into();
    }
    t.expr
}

/// The text of a scalar JSON value, as a parameter carries it.
fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A value of the parameter's type (and pattern) for the generated test.
fn sample_text(types: &Types<'_>, schema: &Value, ty: &str, pattern: Option<&str>) -> String {
    let resolved = types.resolve(schema);
    if let Some(v) = resolved.get("example").or_else(|| resolved.get("default")).and_then(text) {
        return v;
    }
    if let Some(first) = resolved.get("enum").and_then(Value::as_array).and_then(|e| e.iter().find_map(Value::as_str)) {
        return first.to_owned();
    }
    let candidates: &[&str] = match ty {
        "bool" => &["true"],
        "f32" | "f64" => &["1.5", "1"],
        t if t.starts_with('i') || t.starts_with('u') => &["1"],
        _ => &["text", "1", "abc", "a1", "A1", "ABC", "2024-01-01", "00000000-0000-0000-0000-000000000001"],
    };
    if let Some(p) = pattern {
        if let Ok(re) = regex::Regex::new(&format!("^(?:{p})$")) {
            let built = regex_sample(p);
            if let Some(c) = built.iter().map(String::as_str).chain(candidates.iter().copied()).find(|c| re.is_match(c))
            {
                return c.to_owned();
            }
        }
    }
    if resolved.get("format").and_then(Value::as_str) == Some("uuid") {
        return "00000000-0000-0000-0000-000000000001".into();
    }
    candidates[0].to_owned()
}

/// The success response: the lowest 2xx status documented.
fn returns<'d>(
    types: &mut Types<'d>,
    op: &'d Value,
    ptr: &str,
    hint: &str,
    w: &mut Warnings,
) -> (Returns, Vec<String>) {
    let responses = op.get("responses").and_then(Value::as_object);
    let mut success: Vec<(u16, &String, &Value)> = responses
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| {
            let status = if k.eq_ignore_ascii_case("2XX") { 200 } else { k.parse().ok()? };
            (200..300).contains(&status).then_some((status, k, v))
        })
        .collect();
    success.sort_by_key(|(s, _, _)| *s);
    let any = || Returns { ty: "Response".into(), status: None };
    let Some((status, key, response)) = success.first().copied() else {
        w.add(
            &format!("{ptr}/responses"),
            "no success (2xx) response: the handler returns a `Response`, documented as any status",
        );
        return (any(), Vec::new());
    };
    for (_, other, _) in success.iter().skip(1) {
        w.add(
            &format!("{ptr}/responses/{other}"),
            format!("a second success status: the handler's return type documents `{key}` only"),
        );
    }
    let r_ptr = format!("{ptr}/responses/{}", escape_pointer(key));
    let response = types.resolve(response);
    let mut produces = Vec::new();
    let content = response.get("content").and_then(Value::as_object);
    for (media, _) in content.into_iter().flatten() {
        if supported(media) && media != "multipart/form-data" && media != "application/x-www-form-urlencoded" {
            produces.push(media.clone());
        } else {
            w.add(
                &format!("{r_ptr}/content/{}", escape_pointer(media)),
                format!("`{media}` has no codec in Restlight: not produced"),
            );
        }
    }
    let inner = produces.first().map(|first| {
        let media = &content.unwrap()[first];
        if first.starts_with("text/") {
            "String".to_owned()
        } else if first == "application/octet-stream" {
            "Vec<u8>".to_owned()
        } else if is_json(first) {
            match media.get("schema") {
                Some(schema) => {
                    let t = types.ty(
                        schema,
                        &format!("{r_ptr}/content/{}/schema", escape_pointer(first)),
                        &format!("{hint}Response"),
                        w,
                    );
                    if t.nullable {
                        format!("Option<{}>", t.expr)
                    } else {
                        t.expr
                    }
                }
                None => "serde_json::Value".to_owned(),
            }
        } else {
            "String".to_owned()
        }
    });
    if inner.as_deref().is_some_and(|t| t.starts_with("Option<")) {
        w.add(&r_ptr, "a nullable response body is declared as its type: `Option<T>` would document a 404");
    }
    let inner =
        inner.map(|t| t.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')).map_or(t.clone(), str::to_owned));
    let returns = match (status, inner) {
        (200, Some(t)) => Returns { ty: t, status: Some(200) },
        (201, Some(t)) => Returns { ty: format!("Created<{t}>"), status: Some(201) },
        (204, None) => Returns { ty: "NoContent".into(), status: Some(204) },
        (s, _) => {
            w.add(&r_ptr, format!("status {s}{} has no Restlight return type: the handler returns a `Response`, documented as any status", if matches!(s, 200 | 201) { " without a body" } else { "" }));
            any()
        }
    };
    (returns, produces)
}

/// The document's security requirements, which become no code.
pub fn security_note(doc: &Value) -> Option<&'static str> {
    let declared = doc.get("security").is_some()
        || doc.pointer("/components/securitySchemes").is_some()
        || pointer(doc, "#/paths").and_then(Value::as_object).is_some_and(|paths| {
            paths.values().filter_map(Value::as_object).flat_map(|i| i.values()).any(|op| op.get("security").is_some())
        });
    declared.then_some("security schemes and requirements are not generated: add an interceptor that authenticates")
}

/// A string matching a simple regex: literals, `\d`, `\w`, `.`, classes
/// (their first character) and the quantifiers `{n}`, `{n,m}`, `+`, `*`, `?`.
/// `None` for anything else (groups, alternatives); the caller checks the result.
fn regex_sample(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let atom = match chars[i] {
            '\\' => {
                i += 1;
                match *chars.get(i)? {
                    'd' => '1',
                    'w' => 'a',
                    's' => ' ',
                    c if c.is_ascii_alphanumeric() => return None,
                    c => c,
                }
            }
            '[' => {
                let close = chars[i..].iter().position(|c| *c == ']')? + i;
                let first = *chars.get(i + 1)?;
                if first == '^' || first == '\\' {
                    return None;
                }
                i = close;
                first
            }
            '.' => 'a',
            '(' | ')' | '|' | '^' | '$' => return None,
            c => c,
        };
        i += 1;
        let mut times = 1;
        match chars.get(i) {
            Some('{') => {
                let close = chars[i..].iter().position(|c| *c == '}')? + i;
                let inner: String = chars[i + 1..close].iter().collect();
                times = inner.split(',').next()?.trim().parse().ok()?;
                i = close + 1;
            }
            Some('+') => i += 1,
            Some('*' | '?') => {
                times = 0;
                i += 1;
            }
            _ => {}
        }
        for _ in 0..times {
            out.push(atom);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_patterns_have_samples() {
        assert_eq!(regex_sample(r"\d{13}").as_deref(), Some("1111111111111"));
        assert_eq!(regex_sample(r"[a-z]+-\d{2,4}").as_deref(), Some("a-11"));
        assert_eq!(regex_sample(r"(a|b)"), None);
    }
}
