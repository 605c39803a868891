//! The operations of a document, read into what a handler needs: method,
//! template, parameters with their sources, the entity and the success
//! response.

use std::collections::BTreeMap;

use serde_json::Value;

use super::names::{pascal, snake};
use super::params::{parameter, scalar_param};
use super::schema::{description, pointer, Types};
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
    /// Its tags, kept with `#[tag(..)]`.
    pub tags: Vec<String>,
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
        tags: op
            .get("tags")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|t| !t.trim().is_empty())
            .map(str::to_owned)
            .collect(),
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
