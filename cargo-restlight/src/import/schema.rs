//! Rust types for the schemas of a document: structs and enums with serde
//! and schemars derives, written into the generated `src/model.rs`.
//!
//! Covered: objects with required and optional properties, `nullable`
//! (3.0) and `"null"` in `type` or a `oneOf` (3.1), enums of strings,
//! arrays, maps (`additionalProperties`), `allOf` (merged into one
//! struct), `oneOf`/`anyOf` (untagged enums) and the usual formats. What is
//! not (non-string enums, `const`, `not`, discriminators, `$ref`s outside
//! `#/components/schemas`) becomes a warning naming its JSON pointer, and
//! the closest type that still accepts the data.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde_json::Value;

use super::names::{lit, pascal, snake};
use super::{escape_pointer, Warnings};

/// A Rust type expression, and whether `null` is allowed.
#[derive(Debug, Clone)]
pub struct Ty {
    /// The type, without `Option`.
    pub expr: String,
    /// `null` is a valid value.
    pub nullable: bool,
}

impl Ty {
    fn of(expr: impl Into<String>) -> Self {
        Self { expr: expr.into(), nullable: false }
    }
}

#[derive(Debug)]
struct Field {
    json: String,
    ident: String,
    ty: String,
    optional: bool,
    doc: Option<String>,
}

#[derive(Debug)]
enum Def {
    Struct {
        fields: Vec<Field>,
        extra: Option<String>,
    },
    StringEnum(Vec<(String, String)>),
    Untagged(Vec<(String, String)>),
    Alias(String),
    /// The text of a parameter that must match a pattern (JSON Schema's
    /// search, as `Regex::is_match` does).
    Pattern(String),
}

#[derive(Debug)]
struct Named {
    name: String,
    doc: Option<String>,
    def: Def,
}

/// The types of a document, generated on demand.
#[derive(Debug)]
pub struct Types<'d> {
    doc: &'d Value,
    defs: Vec<Named>,
    taken: BTreeSet<String>,
    /// Component name to Rust name.
    components: BTreeMap<String, String>,
}

/// Resolves a local `$ref` (`#/a/b`) in the document.
pub fn pointer<'d>(doc: &'d Value, reference: &str) -> Option<&'d Value> {
    reference.strip_prefix('#').and_then(|p| doc.pointer(p))
}

impl<'d> Types<'d> {
    /// The component schemas of `doc` are named now (so that references
    /// resolve in any order) and defined by [`Types::define_components`].
    pub fn new(doc: &'d Value) -> Self {
        let mut types = Self { doc, defs: Vec::new(), taken: BTreeSet::new(), components: BTreeMap::new() };
        // The std prelude's types and `restlight::prelude`'s, which the
        // resources import next to the model's.
        for reserved in [
            "Value",
            "BTreeMap",
            "Option",
            "Vec",
            "String",
            "Result",
            "Box",
            "Response",
            "Created",
            "NoContent",
            "WithStatus",
            "EmptyStatus",
            "HttpError",
            "Json",
            "Multipart",
            "StatusCode",
            "Entity",
            "Restlight",
            "RequestContext",
            "Sse",
            "Event",
            "BodyStream",
            "Failure",
            "Intercept",
            "Interceptor",
            "ResponseBuilder",
            "Scheduler",
        ] {
            types.taken.insert(reserved.into());
        }
        if let Some(schemas) = doc.pointer("/components/schemas").and_then(Value::as_object) {
            for name in schemas.keys() {
                let rust = types.fresh(&pascal(name));
                types.components.insert(name.clone(), rust);
            }
        }
        types
    }

    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_owned();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    /// A string type, named after `hint`, whose `FromStr` checks `pattern`
    /// and whose schema states it: a query, header or cookie parameter's
    /// `pattern`, checked as the contract says (400 when it does not match).
    pub fn pattern_type(&mut self, hint: &str, pattern: &str) -> String {
        let name = self.fresh(hint);
        let doc = Some(format!(
            "A parameter's text matching the contract's pattern `{pattern}` (anywhere in the value unless anchored)."
        ));
        self.defs.push(Named { name: name.clone(), doc, def: Def::Pattern(pattern.to_owned()) });
        name
    }

    /// Whether a type checks a pattern: the project then depends on `regex`.
    #[must_use]
    pub fn uses_regex(&self) -> bool {
        self.defs.iter().any(|d| matches!(d.def, Def::Pattern(_)))
    }

    /// Defines every component schema.
    pub fn define_components(&mut self, w: &mut Warnings) {
        let Some(schemas) = self.doc.pointer("/components/schemas").and_then(Value::as_object) else { return };
        for (name, schema) in schemas {
            let rust = self.components[name].clone();
            let ptr = format!("#/components/schemas/{}", escape_pointer(name));
            self.define(rust, schema, &ptr, w);
        }
    }

    /// The Rust name of a `#/components/schemas/X` reference.
    fn reference(&self, r: &str, ptr: &str, w: &mut Warnings) -> Ty {
        if let Some(name) = r.strip_prefix("#/components/schemas/") {
            let name = name.replace("~1", "/").replace("~0", "~");
            if let Some(rust) = self.components.get(&name) {
                return Ty::of(rust.clone());
            }
        }
        w.add(ptr, format!("the reference `{r}` is not a component schema: read as any JSON value"));
        Ty::of("serde_json::Value")
    }

    /// Follows `$ref`s to the schema itself.
    pub fn resolve(&self, mut schema: &'d Value) -> &'d Value {
        for _ in 0..16 {
            match schema.get("$ref").and_then(Value::as_str).and_then(|r| pointer(self.doc, r)) {
                Some(target) => schema = target,
                None => break,
            }
        }
        schema
    }

    /// The type of a schema met at `ptr`; objects, enums and unions
    /// without a name get one from `hint`.
    pub fn ty(&mut self, schema: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> Ty {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            return self.reference(r, ptr, w);
        }
        let nullable = is_nullable(schema);
        let mut ty = self.ty_inner(schema, ptr, hint, w);
        ty.nullable |= nullable;
        ty
    }

    fn ty_inner(&mut self, schema: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> Ty {
        for unsupported in ["not", "const", "if", "patternProperties", "prefixItems", "discriminator"] {
            if schema.get(unsupported).is_some() {
                w.add(
                    &format!("{ptr}/{unsupported}"),
                    format!("`{unsupported}` is not mapped to the Rust type: ignored"),
                );
            }
        }
        let string_enum = is_string_enum(schema);
        if schema.get("enum").is_some() && !string_enum {
            w.add(&format!("{ptr}/enum"), "an enum of values that are not all strings: the values are not checked");
        }
        if string_enum
            || schema.get("allOf").is_some()
            || union(schema).is_some_and(|(_, members)| members.len() > 1)
            || (schema.get("properties").is_some() && !types(schema).iter().any(|t| *t != "object"))
        {
            if let Some((_, members)) = union(schema).filter(|(_, m)| m.len() == 1) {
                // `oneOf: [X, {type: null}]`: X, nullable.
                if schema.get("allOf").is_none() && schema.get("properties").is_none() {
                    let mut t = self.ty(members[0].1, &format!("{ptr}/{}", members[0].0), hint, w);
                    t.nullable = true;
                    return t;
                }
            }
            if let Some(simple) = self.simple_all_of(schema, ptr, hint, w) {
                return simple;
            }
            let name = self.fresh(hint);
            self.define(name.clone(), schema, ptr, w);
            return Ty::of(name);
        }
        if let Some((_, members)) = union(schema) {
            if let Some((p, m)) = members.first() {
                let mut t = self.ty(m, &format!("{ptr}/{p}"), hint, w);
                t.nullable = true;
                return t;
            }
        }
        let ts = types(schema);
        let non_null: Vec<&str> = ts.iter().copied().filter(|t| *t != "null").collect();
        match non_null.as_slice() {
            [] if schema.get("items").is_some() => self.array(schema, ptr, hint, w),
            [] if schema.get("additionalProperties").is_some() => self.map(schema, ptr, hint, w),
            [] => Ty::of("serde_json::Value"),
            [t] => match *t {
                "string" => Ty::of(string_type(schema)),
                "integer" => {
                    if format(schema).is_none() && !bounded_i64(schema) {
                        w.add(
                            ptr,
                            "an `integer` without `format` or bounds is read as `i64`: a value beyond its range is refused (400)",
                        );
                    }
                    Ty::of(integer_type(schema))
                }
                "number" => Ty::of(if format(schema) == Some("float") { "f32" } else { "f64" }),
                "boolean" => Ty::of("bool"),
                "array" => self.array(schema, ptr, hint, w),
                "object" => self.map(schema, ptr, hint, w),
                other => {
                    w.add(ptr, format!("unknown type `{other}`: read as any JSON value"));
                    Ty::of("serde_json::Value")
                }
            },
            many => {
                w.add(
                    &format!("{ptr}/type"),
                    format!("a value of several types ({}) is read as any JSON value", many.join(", ")),
                );
                Ty::of("serde_json::Value")
            }
        }
    }

    /// `allOf: [X]` with nothing else (a common way to give a `$ref` a
    /// description): X.
    fn simple_all_of(&mut self, schema: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> Option<Ty> {
        let parts = schema.get("allOf")?.as_array()?;
        if parts.len() != 1 || schema.get("properties").is_some() || schema.get("enum").is_some() {
            return None;
        }
        Some(self.ty(&parts[0], &format!("{ptr}/allOf/0"), hint, w))
    }

    fn array(&mut self, schema: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> Ty {
        match schema.get("items") {
            Some(items) => {
                let t = self.ty(items, &format!("{ptr}/items"), &format!("{hint}Item"), w);
                Ty::of(format!("Vec<{}>", option(&t)))
            }
            None => Ty::of("Vec<serde_json::Value>"),
        }
    }

    fn map(&mut self, schema: &'d Value, ptr: &str, hint: &str, w: &mut Warnings) -> Ty {
        match schema.get("additionalProperties") {
            Some(Value::Object(o)) if !o.is_empty() => {
                let t = self.ty(
                    &schema["additionalProperties"],
                    &format!("{ptr}/additionalProperties"),
                    &format!("{hint}Value"),
                    w,
                );
                Ty::of(format!("std::collections::BTreeMap<String, {}>", option(&t)))
            }
            _ => Ty::of("std::collections::BTreeMap<String, serde_json::Value>"),
        }
    }

    /// Defines the named type `name` for `schema`.
    fn define(&mut self, name: String, schema: &'d Value, ptr: &str, w: &mut Warnings) {
        let doc = description(schema);
        let def = if is_string_enum(schema) {
            let values = schema["enum"].as_array().into_iter().flatten().filter_map(Value::as_str);
            let mut seen = BTreeSet::new();
            let variants = values
                .map(|s| {
                    let mut v = pascal(s);
                    while !seen.insert(v.clone()) {
                        v.push('_');
                    }
                    (v, s.to_owned())
                })
                .collect();
            Def::StringEnum(variants)
        } else if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let mut fields = Vec::new();
            let mut extra = None;
            for (i, part) in parts.iter().enumerate() {
                let part_ptr = format!("{ptr}/allOf/{i}");
                let resolved = self.resolve(part);
                if resolved.get("properties").is_none() && resolved.get("allOf").is_none() {
                    w.add(
                        &part_ptr,
                        "an `allOf` member without properties is not merged: its constraints are not checked",
                    );
                    continue;
                }
                self.collect_fields(resolved, &part_ptr, &name, &mut fields, &mut extra, w);
            }
            self.collect_fields(schema, ptr, &name, &mut fields, &mut extra, w);
            Def::Struct { fields, extra }
        } else if let Some((key, members)) = union(schema).filter(|(_, m)| m.len() > 1) {
            let mut seen = BTreeSet::new();
            let mut variants = Vec::new();
            if key == "oneOf" {
                w.add(ptr, "`oneOf` is an untagged enum: serde takes the first variant that accepts a value, even when several do");
            }
            for (i, (p, m)) in members.iter().enumerate() {
                let t = self.ty(m, &format!("{ptr}/{p}"), &format!("{name}Variant{}", i + 1), w);
                let mut v = variant_name(m, &t.expr, i);
                while !seen.insert(v.clone()) {
                    v.push('_');
                }
                variants.push((v, option(&t)));
            }
            Def::Untagged(variants)
        } else if schema.get("properties").is_some() || types(schema).contains(&"object") {
            let mut fields = Vec::new();
            let mut extra = None;
            self.collect_fields(schema, ptr, &name, &mut fields, &mut extra, w);
            if schema.get("properties").is_none() {
                let t = self.map(schema, ptr, &name, w);
                self.defs.push(Named { name, doc, def: Def::Alias(t.expr) });
                return;
            }
            Def::Struct { fields, extra }
        } else {
            let t = self.ty(schema, ptr, &format!("{name}Value"), w);
            Def::Alias(option(&t))
        };
        self.defs.push(Named { name, doc, def });
    }

    fn collect_fields(
        &mut self,
        schema: &'d Value,
        ptr: &str,
        owner: &str,
        fields: &mut Vec<Field>,
        extra: &mut Option<String>,
        w: &mut Warnings,
    ) {
        let required: BTreeSet<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (json, prop) in props {
                let prop_ptr = format!("{ptr}/properties/{}", escape_pointer(json));
                let t = self.ty(prop, &prop_ptr, &format!("{owner}{}", pascal(json)), w);
                let mut expr = t.expr.clone();
                if expr == owner {
                    expr = format!("Box<{expr}>");
                }
                let optional = t.nullable || !required.contains(json.as_str());
                let ident = snake(json);
                let doc = description(self.resolve(prop)).or_else(|| description(prop));
                if let Some(existing) = fields.iter_mut().find(|f| f.json == *json) {
                    existing.ty = expr;
                    existing.optional &= optional;
                } else {
                    fields.push(Field { json: json.clone(), ident, ty: expr, optional, doc });
                }
            }
        }
        for name in &required {
            if schema.get("properties").and_then(|p| p.get(*name)).is_none() {
                if let Some(f) = fields.iter_mut().find(|f| f.json == *name) {
                    f.optional = false;
                }
            }
        }
        if let Some(Value::Object(o)) = schema.get("additionalProperties") {
            let t = if o.is_empty() {
                Ty::of("serde_json::Value")
            } else {
                self.ty(
                    &schema["additionalProperties"],
                    &format!("{ptr}/additionalProperties"),
                    &format!("{owner}Value"),
                    w,
                )
            };
            *extra = Some(option(&t));
        } else if schema.get("additionalProperties") == Some(&Value::Bool(true)) {
            *extra = Some("serde_json::Value".into());
        }
    }

    /// The text of `src/model.rs`.
    pub fn render(&self) -> String {
        let mut out = String::from(
            "//! The schemas of the contract as Rust types (generated by `cargo restlight import`).\n\n\
             #![allow(clippy::large_enum_variant)]\n\n\
             use schemars::JsonSchema;\nuse serde::{Deserialize, Serialize};\n",
        );
        let mut defs: Vec<&Named> = self.defs.iter().collect();
        defs.sort_by(|a, b| a.name.cmp(&b.name));
        for named in defs {
            out.push('\n');
            doc_comment(&mut out, named.doc.as_deref(), "");
            let name = &named.name;
            match &named.def {
                Def::Alias(t) => {
                    let _ = writeln!(out, "pub type {name} = {t};");
                }
                Def::Struct { fields, extra } => {
                    let _ = writeln!(out, "#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]");
                    let _ = writeln!(out, "pub struct {name} {{");
                    let mut idents = BTreeSet::new();
                    for f in fields {
                        doc_comment(&mut out, f.doc.as_deref(), "    ");
                        let mut ident = f.ident.clone();
                        while !idents.insert(ident.clone()) {
                            ident.push('_');
                        }
                        if ident != f.json {
                            let _ = writeln!(out, "    #[serde(rename = {})]", lit(&f.json));
                        }
                        // JSON Schema's integers include `8.0`; serde's do not.
                        let integer = if lenient_integer(&f.ty) { format!(", {INTEGER}") } else { String::new() };
                        if f.optional {
                            let _ = writeln!(
                                out,
                                "    #[serde(default, skip_serializing_if = \"Option::is_none\"{integer})]"
                            );
                            let _ = writeln!(out, "    pub {ident}: Option<{}>,", f.ty);
                        } else {
                            if !integer.is_empty() {
                                let _ = writeln!(out, "    #[serde({INTEGER})]");
                            }
                            let _ = writeln!(out, "    pub {ident}: {},", f.ty);
                        }
                    }
                    if let Some(t) = extra {
                        let _ = writeln!(out, "    /// The properties not named above.");
                        let _ = writeln!(out, "    #[serde(flatten)]");
                        let _ =
                            writeln!(out, "    pub additional_properties: std::collections::BTreeMap<String, {t}>,");
                    }
                    out.push_str("}\n");
                }
                Def::StringEnum(variants) => {
                    let _ = writeln!(
                        out,
                        "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]"
                    );
                    let _ = writeln!(out, "pub enum {name} {{");
                    for (v, json) in variants {
                        let _ = writeln!(out, "    #[serde(rename = {})]\n    {v},", lit(json));
                    }
                    out.push_str("}\n\n");
                    let _ = writeln!(out, "/// Read from a request parameter's text.");
                    let _ = writeln!(out, "impl std::str::FromStr for {name} {{");
                    out.push_str("    type Err = String;\n\n    fn from_str(s: &str) -> Result<Self, String> {\n        match s {\n");
                    for (v, json) in variants {
                        let _ = writeln!(out, "            {} => Ok(Self::{v}),", lit(json));
                    }
                    let expected: Vec<&str> = variants.iter().map(|(_, j)| j.as_str()).collect();
                    let _ = writeln!(
                        out,
                        "            _ => Err({}.into()),",
                        lit(&format!("expected one of: {}", expected.join(", ")))
                    );
                    out.push_str("        }\n    }\n}\n");
                }
                Def::Pattern(pattern) => {
                    let _ = writeln!(out, "#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]");
                    let _ = writeln!(out, "#[serde(transparent)]");
                    let _ = writeln!(out, "pub struct {name}(pub String);\n");
                    let _ = writeln!(out, "impl {name} {{");
                    let _ = writeln!(out, "    /// The contract's pattern.");
                    let _ = writeln!(out, "    pub const PATTERN: &str = {};", lit(pattern));
                    out.push_str("}\n\n");
                    let _ = writeln!(
                        out,
                        "/// Read from a request parameter's text: refused unless it matches [`{name}::PATTERN`]."
                    );
                    let _ = writeln!(out, "impl std::str::FromStr for {name} {{");
                    out.push_str(
                        "    type Err = String;\n\n    fn from_str(s: &str) -> Result<Self, String> {\n        \
                         static PATTERN: std::sync::LazyLock<regex::Regex> =\n            \
                         std::sync::LazyLock::new(|| regex::Regex::new(",
                    );
                    let _ = writeln!(out, "{name}::PATTERN).expect(\"the pattern compiles\"));");
                    out.push_str(
                        "        if PATTERN.is_match(s) {\n            Ok(Self(s.to_owned()))\n        } else {\n",
                    );
                    let _ = writeln!(
                        out,
                        "            Err(format!(\"does not match the pattern `{{}}`\", {name}::PATTERN))\n        }}\n    }}\n}}\n"
                    );
                    let _ = writeln!(out, "impl std::fmt::Display for {name} {{");
                    out.push_str("    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        f.write_str(&self.0)\n    }\n}\n\n");
                    let _ = writeln!(out, "/// A string with the pattern, in the served document.");
                    let _ = writeln!(out, "impl JsonSchema for {name} {{");
                    out.push_str("    fn schema_name() -> std::borrow::Cow<'static, str> {\n");
                    let _ = writeln!(out, "        {}.into()\n    }}\n", lit(name));
                    out.push_str("    fn inline_schema() -> bool {\n        true\n    }\n\n");
                    out.push_str("    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {\n");
                    let _ = writeln!(
                        out,
                        "        schemars::json_schema!({{ \"type\": \"string\", \"pattern\": {name}::PATTERN }})\n    }}\n}}"
                    );
                }
                Def::Untagged(variants) => {
                    let _ = writeln!(out, "#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]");
                    let _ = writeln!(out, "#[serde(untagged)]");
                    let _ = writeln!(out, "pub enum {name} {{");
                    for (v, t) in variants {
                        if lenient_integer(t) {
                            let _ = writeln!(out, "    #[serde({INTEGER})]");
                        }
                        let _ = writeln!(out, "    {v}({t}),");
                    }
                    out.push_str("}\n");
                }
            }
        }
        out
    }

    /// A JSON value the schema accepts, for the generated tests' bodies:
    /// required properties only, the first enum value, empty arrays.
    pub fn sample(&self, schema: &Value, depth: usize) -> Value {
        let schema = self.resolve(schema);
        if depth > 8 {
            return Value::Null;
        }
        // 3.1 (JSON Schema 2020-12) lists `examples`; 3.0 has one `example`.
        let first = schema.get("examples").and_then(Value::as_array).and_then(|e| e.first());
        if let Some(v) = schema.get("example").or(first).or_else(|| schema.get("default")) {
            return v.clone();
        }
        if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
            return first.clone();
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let mut merged = serde_json::Map::new();
            for part in parts.iter().chain([schema]) {
                if let Value::Object(m) = self.sample(&strip_all_of(part), depth + 1) {
                    merged.extend(m);
                }
            }
            return Value::Object(merged);
        }
        if let Some((_, members)) = union(schema) {
            if let Some((_, m)) = members.first() {
                return self.sample(m, depth + 1);
            }
        }
        let ts = types(schema);
        let t = ts.iter().find(|t| **t != "null").copied().unwrap_or(if schema.get("properties").is_some() {
            "object"
        } else if schema.get("items").is_some() {
            "array"
        } else {
            ""
        });
        match t {
            "string" => Value::String(sample_string(schema)),
            "integer" => Value::from(schema.get("minimum").and_then(Value::as_i64).unwrap_or(1).max(1)),
            "number" => Value::from(schema.get("minimum").and_then(Value::as_f64).unwrap_or(1.0).max(1.0)),
            "boolean" => Value::Bool(true),
            "array" => Value::Array(Vec::new()),
            "object" => {
                let mut m = serde_json::Map::new();
                let required = schema.get("required").and_then(Value::as_array).into_iter().flatten();
                for name in required.filter_map(Value::as_str) {
                    if let Some(p) = schema.get("properties").and_then(|p| p.get(name)) {
                        m.insert(name.to_owned(), self.sample(p, depth + 1));
                    }
                }
                Value::Object(m)
            }
            _ => Value::Null,
        }
    }
}

/// The serde attribute that reads an integer written `8.0`, a JSON Schema
/// integer that serde refuses for a Rust integer.
const INTEGER: &str = "deserialize_with = \"restlight::integer::deserialize\"";

/// Whether `expr` is an integer type, or an `Option`, `Vec` or map of one:
/// what `restlight::integer::deserialize` reads.
fn lenient_integer(expr: &str) -> bool {
    let mut t = expr.trim();
    loop {
        let inner = ["Option<", "Vec<", "std::collections::BTreeMap<String, "]
            .iter()
            .find_map(|w| t.strip_prefix(w).and_then(|rest| rest.strip_suffix('>')));
        match inner {
            Some(inner) => t = inner.trim(),
            None => return ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"].contains(&t),
        }
    }
}

fn strip_all_of(schema: &Value) -> Value {
    let mut s = schema.clone();
    if let Value::Object(m) = &mut s {
        m.remove("allOf");
    }
    s
}

fn sample_string(schema: &Value) -> String {
    match format(schema) {
        Some("date-time") => "2024-01-01T00:00:00Z",
        Some("date") => "2024-01-01",
        Some("uuid") => "00000000-0000-0000-0000-000000000001",
        Some("email") => "ada@example.com",
        Some("uri" | "url") => "https://example.com/",
        _ => "text",
    }
    .into()
}

fn variant_name(member: &Value, expr: &str, i: usize) -> String {
    if member.get("$ref").is_some() {
        return expr.to_owned();
    }
    match expr {
        "String" => "String".into(),
        "bool" => "Boolean".into(),
        "f64" | "f32" => "Number".into(),
        e if e.starts_with('i') || e.starts_with('u') => "Integer".into(),
        e if e.starts_with("Vec<") => "Array".into(),
        e if e.starts_with("std::collections::BTreeMap<") => "Map".into(),
        _ => format!("Variant{}", i + 1),
    }
}

/// `Option<T>` when null is allowed.
fn option(t: &Ty) -> String {
    if t.nullable {
        format!("Option<{}>", t.expr)
    } else {
        t.expr.clone()
    }
}

/// The `type` keyword: a string (3.0 and 3.1) or a list (3.1).
pub fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn format(schema: &Value) -> Option<&str> {
    schema.get("format").and_then(Value::as_str)
}

/// An enum whose values other than `null` are strings.
fn is_string_enum(schema: &Value) -> bool {
    schema.get("enum").and_then(Value::as_array).is_some_and(|values| {
        values.iter().any(Value::is_string) && values.iter().all(|v| v.is_string() || v.is_null())
    })
}

/// `nullable: true` (3.0), `"null"` among the types or an enum's values (3.1).
pub fn is_nullable(schema: &Value) -> bool {
    schema.get("nullable") == Some(&Value::Bool(true))
        || types(schema).contains(&"null")
        || schema.get("enum").and_then(Value::as_array).is_some_and(|e| e.iter().any(Value::is_null))
}

/// The members of a `oneOf` or `anyOf` other than `{type: null}`, with
/// their pointers.
fn union(schema: &Value) -> Option<(&'static str, Vec<(String, &Value)>)> {
    for key in ["oneOf", "anyOf"] {
        if let Some(members) = schema.get(key).and_then(Value::as_array) {
            let kept = members
                .iter()
                .enumerate()
                .filter(|(_, m)| types(m) != ["null"])
                .map(|(i, m)| (format!("{key}/{i}"), m))
                .collect();
            return Some((key, kept));
        }
    }
    None
}

fn string_type(schema: &Value) -> &'static str {
    match format(schema) {
        Some("binary") => "Vec<u8>",
        _ => "String",
    }
}

/// Whether the schema's bounds, or its enum, keep its values within `i64`.
fn bounded_i64(schema: &Value) -> bool {
    let within = |key: &str| schema.get(key).is_some_and(|b| b.as_i64().is_some());
    let enumerated =
        schema.get("enum").and_then(Value::as_array).is_some_and(|e| e.iter().all(|v| v.is_i64() || v.is_null()));
    enumerated || (within("minimum") || within("exclusiveMinimum")) && (within("maximum") || within("exclusiveMaximum"))
}

/// Integer formats: `int32`/`int64` as OpenAPI defines them, the unsigned
/// ones schemars writes, else `i64`.
pub fn integer_type(schema: &Value) -> &'static str {
    match format(schema) {
        Some("int8") => "i8",
        Some("int16") => "i16",
        Some("int32") => "i32",
        Some("uint8") => "u8",
        Some("uint16") => "u16",
        Some("uint32") => "u32",
        Some("uint64" | "uint") => "u64",
        _ => "i64",
    }
}

/// The `description` as doc comment text.
pub fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .or_else(|| schema.get("title"))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_owned)
}

/// Writes `text` as `///` lines at `indent`.
pub fn doc_comment(out: &mut String, text: Option<&str>, indent: &str) {
    if let Some(text) = text {
        for line in text.lines() {
            let line = line.trim_end();
            if line.is_empty() {
                let _ = writeln!(out, "{indent}///");
            } else {
                let _ = writeln!(out, "{indent}/// {line}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn integer_fields_read_a_zero_fraction() {
        let doc = json!({"components": {"schemas": {
            "Order": {"type": "object", "required": ["quantity"], "properties": {
                "quantity": {"type": "integer", "format": "int32"},
                "petId": {"type": "integer", "format": "int64"},
                "counts": {"type": "array", "items": {"type": "integer", "format": "uint64"}},
                "price": {"type": "number"},
                "size": {"oneOf": [{"type": "integer"}, {"type": "string"}]}
            }}
        }}});
        let mut types = Types::new(&doc);
        let mut w = Warnings::default();
        types.define_components(&mut w);
        let model = types.render();
        for expected in [
            "    #[serde(deserialize_with = \"restlight::integer::deserialize\")]\n    pub quantity: i32,",
            "    #[serde(default, skip_serializing_if = \"Option::is_none\", deserialize_with = \"restlight::integer::deserialize\")]\n    pub counts: Option<Vec<u64>>,",
            "    #[serde(rename = \"petId\")]\n    #[serde(default, skip_serializing_if = \"Option::is_none\", deserialize_with = \"restlight::integer::deserialize\")]\n    pub pet_id: Option<i64>,",
            "    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub price: Option<f64>,",
            "    #[serde(deserialize_with = \"restlight::integer::deserialize\")]\n    Integer(i64),\n    String(String),",
        ] {
            assert!(model.contains(expected), "missing\n{expected}\nin\n{model}");
        }
        // An unbounded `integer` without `format` is wider than any Rust integer.
        let sizes = "#/components/schemas/Order/properties/size/oneOf/0";
        let warned: Vec<String> =
            w.0.iter().filter(|w| w.message.contains("without `format`")).map(|w| w.to_string()).collect();
        assert_eq!(
            warned,
            [format!("{sizes}: an `integer` without `format` or bounds is read as `i64`: a value beyond its range is refused (400)")]
        );
        assert!(lenient_integer("Option<std::collections::BTreeMap<String, Vec<u8>>>"));
        assert!(!lenient_integer("Vec<String>") && !lenient_integer("Int64"));
    }

    #[test]
    fn component_names_never_shadow_the_preludes() {
        let doc = json!({"components": {"schemas": {"Response": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}});
        let mut types = Types::new(&doc);
        let mut w = Warnings::default();
        types.define_components(&mut w);
        assert!(types.render().contains("pub struct Response2 {"), "{}", types.render());
    }
}
