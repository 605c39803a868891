//! From the compiled routes to the document.

mod yaml;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use restlight_grammar::template::{Piece, Template};
use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{json, Map, Value};

use super::CompiledRoute;
use crate::descriptor::RouteDescriptor;
use crate::meta::{ParamMeta, ParamSource};
use crate::route_doc::records::{BodyKind, ParamDoc, ResponseDoc, RouteDoc, Shape};

/// The name of the shared RFC 9457 problem-details schema in `components/schemas`.
const PROBLEM: &str = "Problem";
const PROBLEM_JSON: &str = "application/problem+json";

/// The OpenAPI version a document is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum OpenApiVersion {
    /// OpenAPI 3.1.0 with JSON Schema 2020-12: the default.
    #[default]
    V3_1,
    /// OpenAPI 3.0.3, for tools that cannot read 3.1 (progenitor, the
    /// `openapiv3` crate): schemas in the OpenAPI 3.0 dialect
    /// (`nullable`, a single `example`, no `const`).
    V3_0,
}

impl OpenApiVersion {
    /// The `openapi` field: `3.1.0` or `3.0.3`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V3_1 => "3.1.0",
            Self::V3_0 => "3.0.3",
        }
    }
}

/// The OpenAPI document of an application's routes at one moment, from
/// [`App::openapi`](crate::App::openapi): one model, written as 3.1 or
/// 3.0.3, as JSON or YAML.
#[derive(Clone)]
pub struct OpenApi {
    title: String,
    version: String,
    description: Option<String>,
    routes: Vec<Arc<CompiledRoute>>,
}

impl std::fmt::Debug for OpenApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenApi")
            .field("title", &self.title)
            .field("version", &self.version)
            .field("routes", &self.routes.len())
            .finish()
    }
}

impl OpenApi {
    pub(crate) fn new(routes: Vec<Arc<CompiledRoute>>) -> Self {
        Self { title: "Restlight application".to_owned(), version: "0.0.0".to_owned(), description: None, routes }
    }

    /// The document's `info.title`. Default: `Restlight application`.
    #[must_use]
    pub fn title(mut self, title: &str) -> Self {
        title.clone_into(&mut self.title);
        self
    }

    /// The document's `info.version`, the API's version. Default: `0.0.0`.
    #[must_use]
    pub fn version(mut self, version: &str) -> Self {
        version.clone_into(&mut self.version);
        self
    }

    /// The document's `info.description`. Default: none.
    #[must_use]
    pub fn description(mut self, description: &str) -> Self {
        self.description = Some(description.to_owned());
        self
    }

    /// The `(method, path)` pairs documented, methods upper-case, paths as
    /// OpenAPI writes them (`/users/{id}`), sorted.
    #[must_use]
    pub fn operations(&self) -> Vec<(String, String)> {
        let mut ops: Vec<(String, String)> =
            self.routes.iter().map(|r| (r.info.method.clone(), openapi_path(&r.info.path).0)).collect();
        ops.sort();
        ops
    }

    /// The document as a JSON value.
    #[must_use]
    pub fn to_value(&self, version: OpenApiVersion) -> Value {
        let settings = match version {
            OpenApiVersion::V3_1 => SchemaSettings::draft2020_12(),
            OpenApiVersion::V3_0 => SchemaSettings::openapi3(),
        }
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
        });
        let mut g = settings.into_generator();
        let mut paths: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
        let mut ids = BTreeSet::new();
        let mut routes: Vec<&Arc<CompiledRoute>> = self.routes.iter().collect();
        routes.sort_by(|a, b| {
            (&a.info.path, &a.info.method, &a.info.name).cmp(&(&b.info.path, &b.info.method, &b.info.name))
        });
        // Routes of one path and method (told apart by their `params` or
        // `headers` conditions, or by their media types) are one operation,
        // as springdoc documents them.
        let mut shared: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for route in routes {
            let (path, vars) = openapi_path(&route.info.path);
            let op = operation(route, &vars, &mut g, &mut ids);
            let method = route.info.method.to_ascii_lowercase();
            let ops = paths.entry(path.clone()).or_default();
            let conditions = route.info.conditions.to_string();
            let key = (path, method.clone());
            match ops.get_mut(&method) {
                Some(first) => {
                    merge_operations(first, op);
                    shared.entry(key).or_default().push(conditions);
                }
                None => {
                    ops.insert(method, op);
                    shared.insert(key, vec![conditions]);
                }
            }
        }
        for ((path, method), conditions) in shared {
            if conditions.len() < 2 || conditions.iter().all(String::is_empty) {
                continue;
            }
            let Some(op) = paths.get_mut(&path).and_then(|ops| ops.get_mut(&method)) else { continue };
            let each: Vec<String> =
                conditions.iter().map(|c| if c.is_empty() { "none".to_owned() } else { format!("`{c}`") }).collect();
            let sentence =
                format!("Served by {} handlers, chosen by their conditions: {}.", conditions.len(), each.join("; "));
            let description = match op["description"].as_str() {
                Some(d) if !d.is_empty() => format!("{d}\n\n{sentence}"),
                _ => sentence,
            };
            op["description"] = Value::from(description);
        }
        let mut schemas = g.take_definitions(true);
        schemas.insert(PROBLEM.to_owned(), problem_schema());
        let mut info = Map::new();
        info.insert("title".into(), Value::from(self.title.as_str()));
        if let Some(d) = &self.description {
            info.insert("description".into(), Value::from(d.as_str()));
        }
        info.insert("version".into(), Value::from(self.version.as_str()));
        json!({
            "openapi": version.as_str(),
            "info": info,
            "paths": paths,
            "components": { "schemas": schemas },
        })
    }

    /// The document as pretty-printed JSON, ending with a newline.
    #[must_use]
    pub fn to_json(&self, version: OpenApiVersion) -> String {
        let mut s = serde_json::to_string_pretty(&self.to_value(version)).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The document as YAML.
    #[must_use]
    pub fn to_yaml(&self, version: OpenApiVersion) -> String {
        yaml::to_yaml(&self.to_value(version))
    }
}

/// Merges `other` into `op`, two operations of one path and method:
/// `op` keeps its id, summary and tags (`other`'s are added); a parameter
/// of both is required when both require it, and keeps an `enum` only
/// when both have one (the union of their values); a parameter of one only
/// is optional and loses its `enum` (the other route takes any value); the
/// bodies' media types and the responses are united, a body required only
/// when both require it; distinct descriptions are joined.
fn merge_operations(op: &mut Value, other: Value) {
    let Value::Object(mut other) = other else { return };
    if let Some(Value::Array(tags)) = other.remove("tags") {
        let list = op["tags"].as_array().cloned().unwrap_or_default();
        let mut merged = list.clone();
        merged.extend(tags.into_iter().filter(|t| !list.contains(t)));
        if !merged.is_empty() {
            op["tags"] = Value::Array(merged);
        }
    }
    if let Some(Value::String(d)) = other.remove("description") {
        match op["description"].as_str() {
            Some(mine) if mine == d || mine.split("\n\n").any(|p| p == d) => {}
            Some(mine) if !mine.is_empty() => op["description"] = Value::from(format!("{mine}\n\n{d}")),
            _ => op["description"] = Value::from(d),
        }
    }
    if op.get("summary").is_none() {
        if let Some(summary) = other.remove("summary") {
            op["summary"] = summary;
        }
    }
    let theirs = match other.remove("parameters") {
        Some(Value::Array(list)) => list,
        _ => Vec::new(),
    };
    let mine = op["parameters"].as_array().cloned().unwrap_or_default();
    let same = |a: &Value, b: &Value| a["name"] == b["name"] && a["in"] == b["in"];
    let loosen = |mut p: Value| {
        if p["in"] != "path" {
            p["required"] = Value::Bool(false);
        }
        if let Some(schema) = p["schema"].as_object_mut() {
            schema.remove("enum");
        }
        p
    };
    let mut params = Vec::new();
    for p in &mine {
        match theirs.iter().find(|t| same(p, t)) {
            None => params.push(loosen(p.clone())),
            Some(t) => {
                let mut p = p.clone();
                p["required"] = Value::Bool(p["required"] == true && t["required"] == true);
                match (p["schema"]["enum"].as_array().cloned(), t["schema"]["enum"].as_array()) {
                    (Some(mut values), Some(more)) => {
                        values.extend(more.iter().filter(|v| !values.contains(v)).cloned().collect::<Vec<_>>());
                        p["schema"]["enum"] = Value::Array(values);
                    }
                    (Some(_), None) => p = loosen(p),
                    _ => {}
                }
                params.push(p);
            }
        }
    }
    params.extend(theirs.iter().filter(|t| !mine.iter().any(|p| same(p, t))).cloned().map(loosen));
    if let Some(map) = op.as_object_mut() {
        if params.is_empty() {
            map.remove("parameters");
        } else {
            map.insert("parameters".into(), Value::Array(params));
        }
    }
    match (op.get("requestBody").is_some(), other.remove("requestBody")) {
        (true, Some(body)) => {
            let required = op["requestBody"]["required"] == true && body["required"] == true;
            op["requestBody"]["required"] = Value::Bool(required);
            if let (Some(content), Some(more)) =
                (op["requestBody"]["content"].as_object_mut(), body["content"].as_object())
            {
                for (media, schema) in more {
                    content.entry(media.clone()).or_insert_with(|| schema.clone());
                }
            }
        }
        (true, None) => op["requestBody"]["required"] = Value::Bool(false),
        (false, Some(mut body)) => {
            body["required"] = Value::Bool(false);
            op["requestBody"] = body;
        }
        (false, None) => {}
    }
    if let (Some(responses), Some(Value::Object(more))) = (op["responses"].as_object_mut(), other.remove("responses")) {
        for (status, response) in more {
            match responses.get_mut(&status) {
                None => {
                    responses.insert(status, response);
                }
                Some(existing) => {
                    if let (Some(content), Some(extra)) =
                        (existing["content"].as_object_mut(), response["content"].as_object())
                    {
                        for (media, schema) in extra {
                            content.entry(media.clone()).or_insert_with(|| schema.clone());
                        }
                    } else if existing.get("content").is_none() && response.get("content").is_some() {
                        existing["content"] = response["content"].clone();
                    }
                }
            }
        }
        let mut sorted: Vec<(String, Value)> = std::mem::take(responses).into_iter().collect();
        sorted.sort_by(|a, b| (a.0 == "default", &a.0).cmp(&(b.0 == "default", &b.0)));
        responses.extend(sorted);
    }
}

/// A template variable: its name and its regex, if constrained.
type TemplateVar = (String, Option<String>);

/// The router's template as an OpenAPI path (`/users/{id: \d+}` is
/// `/users/{id}`), and its variables.
fn openapi_path(template: &str) -> (String, Vec<TemplateVar>) {
    let Ok(t) = Template::parse_allowing_duplicates(template) else {
        return (template.to_owned(), Vec::new());
    };
    let mut path = String::new();
    let mut vars = Vec::new();
    for piece in t.pieces() {
        match piece {
            Piece::Literal(lit) => path.push_str(&lit.text),
            Piece::Var(var) => {
                path.push('{');
                path.push_str(&var.name);
                path.push('}');
                if !vars.iter().any(|(n, _): &TemplateVar| n == var.name.as_ref()) {
                    vars.push((var.name.to_string(), var.regex.as_ref().map(ToString::to_string)));
                }
            }
        }
    }
    (path, vars)
}

fn problem_schema() -> Value {
    json!({
        "type": "object",
        "description": "Problem details (RFC 9457): every error the framework or a handler answers.",
        "properties": {
            "type": { "type": "string", "description": "A URI reference identifying the problem type." },
            "title": { "type": "string", "description": "The status's reason phrase." },
            "status": { "type": "integer", "description": "The HTTP status." },
            "detail": { "type": "string", "description": "What went wrong, for this occurrence." },
            "instance": { "type": "string" }
        },
        "required": ["title", "status"]
    })
}

fn problem_ref() -> Value {
    json!({ "$ref": format!("#/components/schemas/{PROBLEM}") })
}

fn problem_response(status: u16) -> Value {
    let reason = http::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error");
    json!({ "description": reason, "content": { PROBLEM_JSON: { "schema": problem_ref() } } })
}

fn default_media(kind: BodyKind) -> &'static str {
    match kind {
        BodyKind::Codec => "application/json",
        BodyKind::Text => "text/plain",
        BodyKind::Binary => "application/octet-stream",
        BodyKind::Multipart => "multipart/form-data",
    }
}

/// The schema of a body: raw bodies are strings of bytes.
fn body_schema(kind: BodyKind, schema: Schema, g: &SchemaGenerator) -> Value {
    match kind {
        BodyKind::Binary | BodyKind::Multipart if is_openapi3(g) => {
            json!({ "type": "string", "format": "binary" })
        }
        BodyKind::Binary | BodyKind::Multipart => json!({}),
        _ => schema.to_value(),
    }
}

/// The routing conditions (Spring's `params` and `headers`) of a route as
/// parameters of `location`: `name` a required one, `name=value` a required
/// one whose schema is `enum: [value]` (merged into a parameter of that name
/// the handler reads too). The ones a parameter cannot state (`!name`,
/// `name!=value`) are returned as text, for the description.
fn condition_params(
    conditions: &[restlight_grammar::condition::Condition<'static>],
    location: &str,
    params: &mut Vec<Value>,
) -> Vec<String> {
    use restlight_grammar::condition::Test;
    let mut unstated = Vec::new();
    for c in conditions {
        let value = match c.test() {
            Test::Present => None,
            Test::Equals(v) => Some(v.to_string()),
            Test::Absent | Test::NotEquals(_) => {
                unstated.push(format!("`{c}`"));
                continue;
            }
        };
        let same = |p: &&mut Value| {
            p["in"] == location
                && p["name"].as_str().is_some_and(|n| {
                    if location == "header" {
                        n.eq_ignore_ascii_case(c.name())
                    } else {
                        n == c.name()
                    }
                })
        };
        match params.iter_mut().find(same) {
            Some(p) => {
                p["required"] = Value::Bool(true);
                if let Some(v) = value {
                    p["schema"]["enum"] = json!([v]);
                }
            }
            None => {
                let schema = match value {
                    Some(v) => json!({ "type": "string", "enum": [v] }),
                    None => json!({ "type": "string" }),
                };
                params.push(json!({ "name": c.name(), "in": location, "required": true, "schema": schema }));
            }
        }
    }
    unstated
}

fn is_openapi3(g: &SchemaGenerator) -> bool {
    // The 3.0 settings carry schemars' OpenAPI transforms; the 2020-12 ones none.
    !g.settings().transforms.is_empty()
}

/// The media types of a body: the declared ones, else the kind's default.
fn media_types(declared: &[String], kind: BodyKind) -> Vec<String> {
    let declared: Vec<String> = declared.iter().filter(|m| !m.contains('*')).cloned().collect();
    if declared.is_empty() {
        vec![default_media(kind).to_owned()]
    } else {
        declared
    }
}

fn content(media: &[String], schema: &Value) -> Value {
    Value::Object(media.iter().map(|m| (m.clone(), json!({ "schema": schema }))).collect())
}

fn operation(
    route: &CompiledRoute,
    vars: &[TemplateVar],
    g: &mut SchemaGenerator,
    ids: &mut BTreeSet<String>,
) -> Value {
    let info = &route.info;
    let descriptor: Option<&'static RouteDescriptor> = route.descriptor;
    let doc: Option<&'static RouteDoc> = descriptor.map(|d| d.doc);
    let mut op = Map::new();

    match doc.map(|d| d.tags).filter(|tags| !tags.is_empty()) {
        Some(tags) => {
            op.insert("tags".into(), json!(tags));
        }
        None => {
            if let Some(resource) = descriptor.and_then(|d| d.resource) {
                op.insert("tags".into(), json!([resource]));
            }
        }
    }
    let mut description = doc.map(|d| d.description.to_owned()).unwrap_or_default();
    if let Some(doc) = doc.filter(|d| !d.summary.is_empty()) {
        op.insert("summary".into(), Value::from(doc.summary));
    }
    // A route reached through a locator: `Shops::item -> Item::show` is `Shops.item.Item.show`.
    let mut id = info.name.replace(" -> ", "::").replace("::", ".");
    if descriptor.is_none() {
        // A builder route: `get_ping` for `GET /ping`.
        let path: String =
            openapi_path(&info.path).0.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        id = format!("{}{}", info.method.to_ascii_lowercase(), path.trim_end_matches('_'));
    }
    let base = id.clone();
    let mut n = 2;
    while !ids.insert(id.clone()) {
        id = format!("{base}_{n}");
        n += 1;
    }
    op.insert("operationId".into(), Value::from(id));

    // Parameters: the template's variables first, then the others in order.
    let metas: Vec<(&'static ParamMeta, Option<&'static ParamDoc>)> = match descriptor {
        Some(d) => d.params.iter().enumerate().map(|(i, m)| (m, doc.and_then(|doc| doc.params.get(i)))).collect(),
        None => Vec::new(),
    };
    let mut flat: Vec<(&'static ParamMeta, Option<&'static ParamDoc>)> = Vec::new();
    for (meta, pdoc) in &metas {
        if meta.source == ParamSource::Bean {
            flat.extend(pdoc.map(|p| p.fields).unwrap_or_default().iter().map(|f| (f, None)));
        } else {
            flat.push((meta, *pdoc));
        }
    }
    let mut params = Vec::new();
    for (name, regex) in vars {
        let bound = flat.iter().find(|(m, _)| m.source == ParamSource::Path && m.name == name);
        let mut schema = match bound {
            Some((_, Some(p))) => (p.schema)(g).to_value(),
            _ => json!({ "type": "string" }),
        };
        if let Some(re) = regex {
            schema = with_pattern(schema, re);
        }
        params.push(json!({ "name": name, "in": "path", "required": true, "schema": schema }));
    }
    let mut matrix = Vec::new();
    let mut form = Map::new();
    let mut form_required = Vec::new();
    let mut parts = Map::new();
    let mut parts_required = Vec::new();
    let mut encoding = Map::new();
    let mut entity: Option<(BodyKind, Value, bool)> = None;
    let mut reads_input = !vars.is_empty();
    for (meta, pdoc) in &flat {
        let (schema, shape) = match pdoc {
            Some(p) => ((p.schema)(g).to_value(), p.shape),
            None => (value_schema_of(meta.rust_type), shape_of(meta.rust_type)),
        };
        let value_schema = match shape {
            Shape::Repeated => json!({ "type": "array", "items": schema }),
            _ => schema,
        };
        let value_schema = with_default(value_schema, meta.default);
        let required = shape == Shape::Required && meta.default.is_none();
        let location = match meta.source {
            ParamSource::Query => "query",
            ParamSource::Header => "header",
            ParamSource::Cookie => "cookie",
            // Values the server supplies itself (beans, resolvers, request
            // attributes): nothing a client sends by that name.
            ParamSource::Path
            | ParamSource::Context
            | ParamSource::Bean
            | ParamSource::Resolved
            | ParamSource::Attribute => continue,
            ParamSource::Matrix => {
                reads_input = true;
                matrix.push(format!("`{}`{}", meta.name, if required { " (required)" } else { "" }));
                continue;
            }
            ParamSource::Form => {
                reads_input = true;
                form.insert(meta.name.to_owned(), value_schema);
                if required {
                    form_required.push(meta.name);
                }
                continue;
            }
            ParamSource::Part => {
                reads_input = true;
                let kind = pdoc.map_or(BodyKind::Codec, |p| (p.body)());
                let schema = pdoc.map_or_else(Schema::default, |p| (p.schema)(g));
                if kind == BodyKind::Codec {
                    encoding.insert(meta.name.to_owned(), json!({ "contentType": "application/json" }));
                }
                parts.insert(meta.name.to_owned(), body_schema(kind, schema, g));
                if required {
                    parts_required.push(meta.name);
                }
                continue;
            }
            ParamSource::Entity => {
                reads_input = true;
                let kind = pdoc.map_or(BodyKind::Codec, |p| (p.body)());
                let schema = pdoc.map_or_else(Schema::default, |p| (p.schema)(g));
                entity = Some((kind, body_schema(kind, schema, g), shape != Shape::Optional));
                continue;
            }
        };
        reads_input = true;
        let mut p = json!({ "name": meta.name, "in": location, "required": required, "schema": value_schema });
        if shape == Shape::Repeated && location == "query" {
            p["explode"] = Value::Bool(true);
        }
        params.push(p);
    }
    let conditions = &route.info.conditions;
    let unstated = condition_params(conditions.params(), "query", &mut params);
    let unstated_headers = condition_params(conditions.headers(), "header", &mut params);
    reads_input |= !conditions.params().is_empty() || !conditions.headers().is_empty();
    if !params.is_empty() {
        op.insert("parameters".into(), Value::Array(params));
    }
    for (list, what) in [(unstated, "query parameters"), (unstated_headers, "headers")] {
        if !list.is_empty() {
            if !description.is_empty() {
                description.push_str("\n\n");
            }
            description.push_str(&format!("Routed only when the {what} meet: {}.", list.join(", ")));
        }
    }
    if !matrix.is_empty() {
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        description.push_str("Matrix parameters of the last path segment (`;name=value`): ");
        description.push_str(&matrix.join(", "));
        description.push('.');
    }
    if !description.is_empty() {
        op.insert("description".into(), Value::from(description));
    }

    let has_body = entity.is_some() || !form.is_empty() || !parts.is_empty();
    if let Some((kind, schema, required)) = &entity {
        let media = media_types(&info.consumes, *kind);
        op.insert("requestBody".into(), json!({ "required": required, "content": content(&media, schema) }));
    } else if !form.is_empty() {
        let mut schema = json!({ "type": "object", "properties": form });
        if !form_required.is_empty() {
            schema["required"] = json!(form_required);
        }
        let media = vec!["application/x-www-form-urlencoded".to_owned()];
        op.insert("requestBody".into(), json!({ "required": true, "content": content(&media, &schema) }));
    } else if !parts.is_empty() {
        let mut schema = json!({ "type": "object", "properties": parts });
        if !parts_required.is_empty() {
            schema["required"] = json!(parts_required);
        }
        let mut media = json!({ "schema": schema });
        if !encoding.is_empty() {
            media["encoding"] = Value::Object(encoding);
        }
        op.insert("requestBody".into(), json!({ "required": true, "content": { "multipart/form-data": media } }));
    }

    // Responses: the return type's, then the framework's.
    let mut responses = Map::new();
    let mut default = false;
    match doc {
        Some(doc) => {
            for r in doc.responses {
                match r {
                    ResponseDoc::Typed(status, schema, body) => {
                        let kind = body();
                        let schema = body_schema(kind, schema(g), g);
                        let media = media_types(&info.produces, kind);
                        responses.insert(
                            status.to_string(),
                            json!({ "description": reason(*status), "content": content(&media, &schema) }),
                        );
                    }
                    ResponseDoc::Empty(status) => {
                        responses.insert(status.to_string(), json!({ "description": reason(*status) }));
                    }
                    ResponseDoc::Problem(status) => {
                        responses.insert(status.to_string(), problem_response(*status));
                    }
                    ResponseDoc::Errors(statuses) => match statuses() {
                        Some(list) => {
                            for s in list {
                                responses.entry(s.as_str()).or_insert_with(|| problem_response(s.as_u16()));
                            }
                        }
                        None => default = true,
                    },
                    // The status and the body are chosen at run time (a
                    // `StatusCode` has none): no content is promised.
                    ResponseDoc::Any => {
                        responses.insert("default".into(), json!({ "description": "Any status the handler chooses." }));
                    }
                }
            }
        }
        None => {
            // A builder route: its handler may answer anything.
            responses.insert("default".into(), json!({ "description": "Any status the handler chooses." }));
        }
    }
    if default && !responses.contains_key("default") {
        responses.insert(
            "default".into(),
            json!({ "description": "An error of the handler", "content": { PROBLEM_JSON: { "schema": problem_ref() } } }),
        );
    }
    let mut framework = vec![500];
    if reads_input {
        framework.push(400);
    }
    if !info.produces.is_empty() {
        framework.push(406);
    }
    if has_body {
        framework.push(413);
        if !info.consumes.is_empty()
            || entity.as_ref().is_some_and(|(k, _, _)| *k == BodyKind::Codec)
            || !form.is_empty()
        {
            framework.push(415);
        }
    }
    if route.exec.is_bounded() {
        framework.extend([429, 503]);
    }
    if info.timeout.is_some() {
        framework.push(504);
    }
    for status in framework {
        responses.entry(status.to_string()).or_insert_with(|| problem_response(status));
    }
    let mut sorted: Vec<(String, Value)> = responses.into_iter().collect();
    sorted.sort_by(|a, b| (a.0 == "default", &a.0).cmp(&(b.0 == "default", &b.0)));
    op.insert("responses".into(), Value::Object(sorted.into_iter().collect()));
    if doc.is_some_and(|d| d.deprecated) {
        op.insert("deprecated".into(), Value::Bool(true));
    }
    Value::Object(op)
}

fn reason(status: u16) -> &'static str {
    http::StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Response")
}

/// The shape of a parameter known only by its type's text (a bean's field).
fn shape_of(rust_type: &str) -> Shape {
    let t = rust_type.trim_start_matches("::std::option::").trim_start_matches("std::option::");
    if t.starts_with("Option") {
        Shape::Optional
    } else if t.starts_with("Vec") || t.contains("vec::Vec") {
        Shape::Repeated
    } else {
        Shape::Required
    }
}

/// The schema of a value named only by its type's text (a bean's field):
/// integers, floats and `bool` by name (as schemars writes them), any other
/// type a string, as the request carries it.
fn value_schema_of(rust_type: &str) -> Value {
    let t: String = rust_type.chars().filter(|c| !c.is_whitespace()).collect();
    let mut t = t.as_str();
    for wrapper in ["Option<", "Vec<"] {
        if let Some(rest) = t.rsplit("::").next().filter(|last| last.starts_with(wrapper)) {
            t = rest.strip_prefix(wrapper).and_then(|r| r.strip_suffix('>')).unwrap_or(t);
        }
    }
    let name = t.rsplit("::").next().unwrap_or(t);
    match name {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => {
            let format = if name == "usize" { "uint".to_owned() } else { format!("uint{}", &name[1..]) };
            json!({ "type": "integer", "format": format, "minimum": 0 })
        }
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => {
            let format = if name == "isize" { "int".to_owned() } else { format!("int{}", &name[1..]) };
            json!({ "type": "integer", "format": format })
        }
        "f32" => json!({ "type": "number", "format": "float" }),
        "f64" => json!({ "type": "number", "format": "double" }),
        "bool" => json!({ "type": "boolean" }),
        _ => json!({ "type": "string" }),
    }
}

/// Adds the template's regex as `pattern`, anchored as the router matches
/// a whole variable; a referenced schema is wrapped in `allOf` (OpenAPI
/// 3.0 ignores siblings of `$ref`).
fn with_pattern(schema: Value, regex: &str) -> Value {
    let mut schema = if schema.get("$ref").is_some() { json!({ "allOf": [schema] }) } else { schema };
    if let Value::Object(m) = &mut schema {
        m.insert("pattern".into(), Value::from(format!("^(?:{regex})$")));
    }
    schema
}

/// Adds `#[default_value]` as the schema's `default`, typed as the schema
/// says when it parses so.
fn with_default(schema: Value, default: Option<&str>) -> Value {
    let Some(text) = default else { return schema };
    let typed = match schema.get("type").and_then(Value::as_str) {
        Some("integer" | "number" | "boolean") => serde_json::from_str::<Value>(text).ok(),
        _ => None,
    };
    let value = typed.unwrap_or_else(|| Value::from(text));
    let mut schema = if schema.get("$ref").is_some() { json!({ "allOf": [schema] }) } else { schema };
    if let Value::Object(m) = &mut schema {
        m.insert("default".into(), value);
    }
    schema
}
