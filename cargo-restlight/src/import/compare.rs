//! The contract against the document the generated service serves: the
//! same operations (method and path), the same parameters (name, location,
//! requiredness, default), the same success statuses, every error status
//! of the contract (the service may document more: the framework's 400,
//! 406, 415, 500..), the same media types and, where the contract tags an
//! operation, the same tags and callbacks; the contract's webhooks and
//! security schemes must be in the served document too. Matrix parameters are compared by name and
//! requiredness, whether a `style: matrix` path parameter declares them
//! (`/cars{carsMatrix}`, as SmallRye writes them) or the operation's
//! description names them (as Restlight does). Everything else
//! (descriptions, schemas, `$ref` names, error bodies, ordering) is not
//! compared.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;

use super::schema::pointer;

/// What one side says of an operation.
#[derive(Debug, Default, PartialEq, Eq)]
struct Summary {
    /// (name, location) to (required, default as text).
    params: BTreeMap<(String, String), (bool, Option<String>)>,
    success: BTreeSet<String>,
    errors: BTreeSet<String>,
    produces: BTreeSet<String>,
    consumes: BTreeSet<String>,
    tags: BTreeSet<String>,
    callbacks: BTreeSet<String>,
    /// Matrix parameters declared as a `style: matrix` path parameter
    /// (`true`) or named in the description, as Restlight documents them.
    matrix_in_path: bool,
}

/// The description's sentence that names the matrix parameters, as
/// Restlight writes it.
const MATRIX_SENTENCE: &str = "Matrix parameters of the last path segment (`;name=value`): ";

/// The matrix parameters an operation's description names: (name, required).
fn described_matrix(op: &Value) -> Vec<(String, bool)> {
    let Some(text) = op.get("description").and_then(Value::as_str) else { return Vec::new() };
    let Some((_, list)) = text.split_once(MATRIX_SENTENCE) else { return Vec::new() };
    let list = list.split(".\n").next().unwrap_or(list).trim_end_matches('.');
    list.split(", ")
        .filter_map(|item| {
            let name = item.strip_prefix('`')?.split('`').next()?;
            Some((name.to_owned(), item.ends_with("(required)")))
        })
        .collect()
}

/// One way the service's document differs from the contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// `GET /pets/{id}`, or empty for the document.
    pub operation: String,
    /// What differs.
    pub what: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.operation, self.what)
    }
}

fn resolve<'a>(doc: &'a Value, v: &'a Value) -> &'a Value {
    v.get("$ref").and_then(Value::as_str).and_then(|r| pointer(doc, r)).unwrap_or(v)
}

fn operations(doc: &Value) -> BTreeMap<String, Summary> {
    let mut out = BTreeMap::new();
    for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
        let item = resolve(doc, item);
        let norm = if path.len() > 1 { path.trim_end_matches('/') } else { path };
        for (method, op) in item.as_object().into_iter().flatten() {
            if !["get", "put", "post", "delete", "options", "head", "patch"].contains(&method.as_str()) {
                continue;
            }
            let mut s = Summary::default();
            let mut params = BTreeMap::new();
            let mut norm = norm.to_owned();
            for list in [item.get("parameters"), op.get("parameters")].into_iter().flatten() {
                for p in list.as_array().into_iter().flatten() {
                    let p = resolve(doc, p);
                    let name = p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                    let loc = p.get("in").and_then(Value::as_str).unwrap_or_default().to_owned();
                    if loc == "path" && p.get("style").and_then(Value::as_str) == Some("matrix") {
                        // `/cars{carsMatrix}`: the variable carries the segment's matrix parameters.
                        s.matrix_in_path = true;
                        norm = norm.replace(&format!("{{{name}}}"), "");
                        let schema = resolve(doc, p.get("schema").unwrap_or(&Value::Null));
                        let required: Vec<&Value> =
                            schema.get("required").and_then(Value::as_array).into_iter().flatten().collect();
                        match schema.get("properties").and_then(Value::as_object) {
                            Some(props) => {
                                for prop in props.keys() {
                                    let r = required.contains(&&Value::String(prop.clone()));
                                    params.insert((prop.clone(), "matrix".to_owned()), (r, None));
                                }
                            }
                            None => {
                                params.insert((name, "matrix".to_owned()), (false, None));
                            }
                        }
                        continue;
                    }
                    let required = p.get("required") == Some(&Value::Bool(true));
                    let schema = p.get("schema").unwrap_or(&Value::Null);
                    let default =
                        schema.get("default").or_else(|| resolve(doc, schema).get("default")).map(|d| match d {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        });
                    params.insert((name, loc), (required, default));
                }
            }
            for (name, required) in described_matrix(op) {
                params.insert((name, "matrix".to_owned()), (required, None));
            }
            s.params = params;
            s.tags = op
                .get("tags")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            s.callbacks =
                op.get("callbacks").and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k.clone()).collect();
            if let Some(rb) = op.get("requestBody") {
                let rb = resolve(doc, rb);
                s.consumes = rb
                    .get("content")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k.clone())
                    .collect();
            }
            for (status, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
                if status.starts_with('4') || status.starts_with('5') {
                    s.errors.insert(status.clone());
                }
                if status.starts_with('2') {
                    s.success.insert(status.clone());
                    let response = resolve(doc, response);
                    s.produces.extend(
                        response
                            .get("content")
                            .and_then(Value::as_object)
                            .into_iter()
                            .flatten()
                            .map(|(k, _)| k.clone()),
                    );
                }
            }
            out.insert(format!("{} {norm}", method.to_ascii_uppercase()), s);
        }
    }
    out
}

fn set_diff<T: Ord + Clone>(a: &BTreeSet<T>, b: &BTreeSet<T>) -> (Vec<T>, Vec<T>) {
    (a.difference(b).cloned().collect(), b.difference(a).cloned().collect())
}

fn list(items: &[String]) -> String {
    items.join(", ")
}

/// The differences between the contract and the served document, by
/// operation; empty when they agree.
#[must_use]
pub fn compare(contract: &Value, served: &Value) -> Vec<Difference> {
    let (a, b) = (operations(contract), operations(served));
    let mut out = Vec::new();
    let mut add = |operation: &str, what: String| out.push(Difference { operation: operation.to_owned(), what });
    for (key, x) in &a {
        let Some(y) = b.get(key) else {
            add(key, "in the contract, not served".into());
            continue;
        };
        let names = |s: &Summary| s.params.keys().cloned().collect::<BTreeSet<_>>();
        let matrix = |s: &Summary| s.params.keys().filter(|(_, l)| l == "matrix").count();
        if x.matrix_in_path && !y.matrix_in_path && matrix(y) > 0 {
            add(
                key,
                "the matrix parameters are named in the description, not declared as a `style: matrix` path parameter"
                    .into(),
            );
        }
        let (missing, extra) = set_diff(&names(x), &names(y));
        for (n, l) in missing {
            add(key, format!("the {l} parameter `{n}` is not read"));
        }
        for (n, l) in extra {
            add(key, format!("the {l} parameter `{n}` is not in the contract"));
        }
        for ((n, l), (r, d)) in &x.params {
            if let Some((r2, d2)) = y.params.get(&(n.clone(), l.clone())) {
                if r != r2 {
                    let word = |r: bool| if r { "required" } else { "optional" };
                    add(
                        key,
                        format!(
                            "the {l} parameter `{n}` is {} in the contract, {} in the service",
                            word(*r),
                            word(*r2)
                        ),
                    );
                }
                if d != d2 {
                    let word = |d: &Option<String>| {
                        d.as_ref().map_or_else(|| "no default".to_owned(), |d| format!("the default `{d}`"))
                    };
                    add(
                        key,
                        format!("the {l} parameter `{n}` has {} in the contract, {} in the service", word(d), word(d2)),
                    );
                }
            }
        }
        let missing: Vec<String> = x.errors.difference(&y.errors).cloned().collect();
        if !missing.is_empty() {
            add(key, format!("error status {} in the contract, not in the service", list(&missing)));
        }
        for (label, p, q) in [
            ("success status", &x.success, &y.success),
            ("response media type", &x.produces, &y.produces),
            ("request media type", &x.consumes, &y.consumes),
            ("tag", &x.tags, if x.tags.is_empty() { &x.tags } else { &y.tags }),
            ("callback", &x.callbacks, &y.callbacks),
        ] {
            let (missing, extra) = set_diff(p, q);
            if !missing.is_empty() {
                add(key, format!("{label} {} in the contract, not in the service", list(&missing)));
            }
            if !extra.is_empty() {
                add(key, format!("{label} {} in the service, not in the contract", list(&extra)));
            }
        }
    }
    for key in b.keys().filter(|k| !a.contains_key(*k)) {
        add(key, "served, not in the contract".into());
    }
    // What the document holds besides its operations.
    for (section, pointer_path, what) in
        [("webhooks", "/webhooks", "webhook"), ("securitySchemes", "/components/securitySchemes", "security scheme")]
    {
        let names = |doc: &Value| -> BTreeSet<String> {
            doc.pointer(pointer_path).and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k.clone()).collect()
        };
        for name in names(contract).difference(&names(served)) {
            add(section, format!("{what} `{name}` in the contract, not in the service"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn equal_documents_have_no_differences_and_each_difference_is_named() {
        let contract = json!({"paths": {"/pets/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true}],
            "get": {"parameters": [{"$ref": "#/components/parameters/Limit"}],
                    "responses": {"200": {"content": {"application/json": {}}}, "404": {}}}}},
            "components": {"parameters": {"Limit": {"name": "limit", "in": "query"}}}});
        assert_eq!(compare(&contract, &contract), Vec::new());
        let served = json!({"paths": {"/pets/{id}": {"get": {
            "parameters": [{"name": "id", "in": "path", "required": true}, {"name": "limit", "in": "query", "required": true, "schema": {"default": 10}}],
            "responses": {"201": {"content": {"text/plain": {}}}}}},
            "/extra": {"post": {"responses": {}}}}});
        let found: Vec<String> = compare(&contract, &served).iter().map(ToString::to_string).collect();
        assert_eq!(
            found,
            [
                "GET /pets/{id}: the query parameter `limit` is optional in the contract, required in the service",
                "GET /pets/{id}: the query parameter `limit` has no default in the contract, the default `10` in the service",
                "GET /pets/{id}: error status 404 in the contract, not in the service",
                "GET /pets/{id}: success status 200 in the contract, not in the service",
                "GET /pets/{id}: success status 201 in the service, not in the contract",
                "GET /pets/{id}: response media type application/json in the contract, not in the service",
                "GET /pets/{id}: response media type text/plain in the service, not in the contract",
                "POST /extra: served, not in the contract",
            ]
        );
    }

    #[test]
    fn matrix_parameters_and_error_statuses_are_compared() {
        // SmallRye's form: a path variable with `style: matrix` carrying an object.
        let contract = json!({"paths": {"/cars/search{search}": {"get": {
            "parameters": [{"name": "search", "in": "path", "required": true, "style": "matrix",
                "schema": {"type": "object", "required": ["year"],
                           "properties": {"color": {"type": "string"}, "year": {"type": "integer"}}}}],
            "responses": {"200": {}, "404": {}, "409": {}}}}}});
        // Restlight's form: the description names them.
        let served = json!({"paths": {"/cars/search": {"get": {
            "description": "Matrix parameters of the last path segment (`;name=value`): `color`, `year` (required).",
            "responses": {"200": {}, "400": {}, "404": {}, "500": {}}}}}});
        let found: Vec<String> = compare(&contract, &served).iter().map(ToString::to_string).collect();
        assert_eq!(
            found,
            [
                "GET /cars/search: the matrix parameters are named in the description, not declared as a `style: matrix` path parameter",
                "GET /cars/search: error status 409 in the contract, not in the service",
            ]
        );
        let served = json!({"paths": {"/cars/search": {"get": {
            "description": "Matrix parameters of the last path segment (`;name=value`): `color`.",
            "responses": {"200": {}, "404": {}, "409": {}}}}}});
        let found: Vec<String> = compare(&contract, &served).iter().map(ToString::to_string).collect();
        assert_eq!(
            found,
            [
                "GET /cars/search: the matrix parameters are named in the description, not declared as a `style: matrix` path parameter",
                "GET /cars/search: the matrix parameter `year` is not read",
            ]
        );
    }
}
