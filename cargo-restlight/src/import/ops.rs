//! The operations of a document, read into what a handler needs: method,
//! template, parameters with their sources, the entity and the success
//! response.

use std::collections::BTreeMap;

use serde_json::Value;

use super::names::{pascal, snake};
use super::params::{matrix_params, parameter, scalar_param};
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
    /// A matrix parameter of the last path segment (`;name=value`).
    Matrix,
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
    /// The route regex of a path variable (`params::segment_regex`).
    pub pattern: Option<String>,
    /// A value the generated test sends, when the parameter is required.
    pub sample: Option<String>,
    /// A Spring `params = "name=value"` condition: a required query
    /// parameter whose schema allows one value.
    pub condition: Option<String>,
    /// The contract's pattern a query, header or cookie parameter's type
    /// checks (a search).
    pub checked: Option<String>,
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
    /// The error statuses (4xx, 5xx) the contract documents, ascending:
    /// the handler's error type lists them ([`errors_type`]).
    pub errors: Vec<u16>,
}

/// The name of the error type that documents `errors`: `HttpError` when
/// there are none, else `Error404`, `Error400Or404`.
#[must_use]
pub fn errors_type(errors: &[u16]) -> String {
    if errors.is_empty() {
        return "HttpError".into();
    }
    let list: Vec<String> = errors.iter().map(u16::to_string).collect();
    format!("Error{}", list.join("Or"))
}

/// The `http::StatusCode` constant of an error status, if it has one.
#[must_use]
pub fn status_const(status: u16) -> Option<&'static str> {
    Some(match status {
        400 => "BAD_REQUEST",
        401 => "UNAUTHORIZED",
        402 => "PAYMENT_REQUIRED",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        405 => "METHOD_NOT_ALLOWED",
        406 => "NOT_ACCEPTABLE",
        407 => "PROXY_AUTHENTICATION_REQUIRED",
        408 => "REQUEST_TIMEOUT",
        409 => "CONFLICT",
        410 => "GONE",
        411 => "LENGTH_REQUIRED",
        412 => "PRECONDITION_FAILED",
        413 => "PAYLOAD_TOO_LARGE",
        414 => "URI_TOO_LONG",
        415 => "UNSUPPORTED_MEDIA_TYPE",
        416 => "RANGE_NOT_SATISFIABLE",
        417 => "EXPECTATION_FAILED",
        418 => "IM_A_TEAPOT",
        421 => "MISDIRECTED_REQUEST",
        422 => "UNPROCESSABLE_ENTITY",
        423 => "LOCKED",
        424 => "FAILED_DEPENDENCY",
        426 => "UPGRADE_REQUIRED",
        428 => "PRECONDITION_REQUIRED",
        429 => "TOO_MANY_REQUESTS",
        431 => "REQUEST_HEADER_FIELDS_TOO_LARGE",
        451 => "UNAVAILABLE_FOR_LEGAL_REASONS",
        500 => "INTERNAL_SERVER_ERROR",
        501 => "NOT_IMPLEMENTED",
        502 => "BAD_GATEWAY",
        503 => "SERVICE_UNAVAILABLE",
        504 => "GATEWAY_TIMEOUT",
        505 => "HTTP_VERSION_NOT_SUPPORTED",
        506 => "VARIANT_ALSO_NEGOTIATES",
        507 => "INSUFFICIENT_STORAGE",
        508 => "LOOP_DETECTED",
        510 => "NOT_EXTENDED",
        511 => "NETWORK_AUTHENTICATION_REQUIRED",
        _ => return None,
    })
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
    /// Path, query, header, cookie, matrix and form parameters.
    pub params: Vec<Param>,
    /// The template variables that carry matrix parameters (`/cars{carsMatrix}`),
    /// left out of the route's path.
    pub matrix_vars: Vec<String>,
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
            // Every run of other characters (`/`, `{`, `}`, `;`, `.`) is one `_`.
            let words: Vec<&str> = path.split(|c: char| !c.is_ascii_alphanumeric()).filter(|s| !s.is_empty()).collect();
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
    let mut matrix_vars = Vec::new();
    for (p_ptr, p) in &declared {
        let in_path = p.get("in").and_then(Value::as_str) == Some("path");
        if in_path && p.get("style").and_then(Value::as_str) == Some("matrix") {
            let var = p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            params.extend(matrix_params(types, p, p_ptr, path, &hint, w));
            matrix_vars.push(var);
        } else if let Some(param) = parameter(types, p, p_ptr, &hint, w) {
            params.push(param);
        }
    }
    // Template variables without a declaration.
    for var in variables(path) {
        if matrix_vars.contains(&var) {
            continue;
        }
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
                condition: None,
                checked: None,
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
            if !required && !required_fields.is_empty() {
                w.add(
                    &rb_ptr,
                    "an optional form body with required fields: the fields are required, so an absent body is refused (400)",
                );
            }
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
        matrix_vars,
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
    // Error statuses: the handler's error type documents each one.
    let mut errors = Vec::new();
    for (key, _) in responses.into_iter().flatten() {
        match key.parse::<u16>() {
            Ok(s) if (400..600).contains(&s) && status_const(s).is_some() => errors.push(s),
            Ok(s) if (400..600).contains(&s) => w.add(
                &format!("{ptr}/responses/{key}"),
                format!("status {s} has no `StatusCode` constant: documented by the framework's `default` error"),
            ),
            Err(_) if key.len() == 3 && (key.starts_with('4') || key.starts_with('5')) => w.add(
                &format!("{ptr}/responses/{key}"),
                format!("the status range `{key}` is not documented: list the statuses"),
            ),
            _ => {}
        }
    }
    errors.sort_unstable();
    let any = || Returns { ty: "Response".into(), status: None, errors: errors.clone() };
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
        if media == "*/*" {
            // springdoc's response of a mapping without `produces`.
            w.add(
                &format!("{r_ptr}/content/*~1*"),
                "`*/*` is produced as `application/json`, the framework's default for an entity",
            );
            if !produces.iter().any(|m| m == "application/json") {
                produces.push("application/json".to_owned());
            }
        } else if supported(media) && media != "multipart/form-data" && media != "application/x-www-form-urlencoded" {
            produces.push(media.clone());
        } else {
            w.add(
                &format!("{r_ptr}/content/{}", escape_pointer(media)),
                format!("`{media}` has no codec in Restlight: not produced"),
            );
        }
    }
    let inner = produces.first().map(|first| {
        let content = content.unwrap();
        let media = content.get(first).or_else(|| content.get("*/*")).unwrap_or(&Value::Null);
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
    // The status is in the type, so that the served document keeps it.
    let ty = match (status, inner) {
        (200, Some(t)) => t,
        (201, Some(t)) => format!("Created<{t}>"),
        (204, None) => "NoContent".into(),
        (204, Some(_)) => {
            w.add(&r_ptr, "a 204 has no body: the handler returns `NoContent`, and the content is not kept");
            "NoContent".into()
        }
        (s, Some(t)) => format!("WithStatus<{s}, {t}>"),
        (s, None) => format!("EmptyStatus<{s}>"),
    };
    let returns = Returns { ty, status: Some(status), errors: errors.clone() };
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
