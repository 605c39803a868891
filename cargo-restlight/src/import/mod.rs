//! `cargo restlight import`: a Restlight project from an OpenAPI 3.0 or
//! 3.1 document, the contract of the service it replaces.
//!
//! ```sh
//! cargo restlight import openapi.yaml --out orders [--style jaxrs|spring] [--name NAME]
//! cd orders && cargo test && cargo run -- --openapi > served.json
//! cargo restlight import openapi.yaml --compare served.json
//! ```
//!
//! The project: `Cargo.toml` (Restlight with its `openapi` feature,
//! serde, serde_json, schemars), `src/lib.rs` (`app()`, serving the
//! document at `/openapi.json`; `openapi()`, the document as a value),
//! `src/main.rs` (serves; `--openapi` prints the document, `--routes` the
//! route table), `src/model.rs` (the schemas), a module per resource,
//! `tests/routes.rs` (a test per operation) and a copy of the contract.
//!
//! | in the contract | in the project |
//! |---|---|
//! | the first tag of an operation (else its first path segment) | a resource `PetResource` (`PetController` with `--style spring`) in `src/pet.rs`, based at the literal segments its paths share |
//! | an operation's `tags` | `#[tag(..)]` on its handler, so the served document keeps them |
//! | an operation | an `async fn` named after `operationId` (else method and path) with `#[get]`.. (`#[get_mapping]`..), `#[path]`, `#[produces]`, `#[consumes]`; `summary` and `description` its doc comment, `deprecated` `#[deprecated]` |
//! | `{id}` with a `pattern` | `{id: regex}`: the router matches the whole segment, so an end the pattern does not anchor takes any other characters (`\d{13}` is `{id: [^/]*?(?:\d{13})[^/]*}`, `^\d{13}$` is `{id: \d{13}}`), as JSON Schema finds the pattern anywhere in the value |
//! | a query, header or cookie parameter's `pattern` | a string type in `src/model.rs` whose `FromStr` checks it as a search (400 when it does not match) and whose schema states it; `tests/routes.rs` checks that a value not matching is refused |
//! | parameters `in: path/query/header/cookie` (path-level ones and `$ref`s included) | `#[path_param("id")]`, `#[query_param]`, `#[header_param]`, `#[cookie_param]` (`#[path_variable]`, `#[request_param]`, `#[request_header]`, `#[cookie_value]`) |
//! | a path parameter with `style: matrix`: SmallRye's `/cars/search{search}` (an object, a property per matrix parameter) or swagger-core's (one value) | `#[matrix_param("color")]` per matrix parameter (`#[matrix_variable]`), the variable left out of the path; the served document names them in the description (a warning) |
//! | required / optional / `default` / `type: array` | `T` / `Option<T>` / `T` with `#[default_value]` / `Vec<T>` |
//! | a required query parameter that allows one value (`enum: ["2"]`, how springdoc renders `params = "version=2"`) | with `--style spring`, also `params = "version=2"` on the mapping |
//! | `requestBody` (JSON, `+json`, `text/*`, octet-stream, multipart) | the entity: the schema's type (`Option<T>` when not required), `String`, `Vec<u8>`, `Multipart` |
//! | an `application/x-www-form-urlencoded` body | a `#[form_param]` per property |
//! | the lowest 2xx response: 200 / 201 / 204 / another 2xx (202, 206..) / one without a body | `Result<T, E>` / `Result<Created<T>, E>` / `Result<NoContent, E>` / `Result<WithStatus<202, T>, E>` / `Result<EmptyStatus<200>, E>`: the served document keeps the status |
//! | the 4xx and 5xx responses | `E`: `HttpError` when there are none, else `Error404`, `Error400Or404`.. in `src/errors.rs`, a problem detail whose `ErrorStatuses` list them |
//! | no 2xx response | `Result<Response, HttpError>`, documented as any status (a warning) |
//! | `type: object` with `properties` | a struct: required fields `T`, others `Option<T>` skipped when `None`, renamed with `#[serde(rename)]` |
//! | `nullable: true`, `type: [T, "null"]`, `oneOf: [T, {type: null}]` | `Option<T>` |
//! | `enum` of strings | an enum with `#[serde(rename)]` variants and `FromStr` (so it is a parameter type too) |
//! | `additionalProperties` | `BTreeMap<String, T>`, or a flattened map next to the properties |
//! | `allOf` | one struct with the properties of every member |
//! | `oneOf` / `anyOf` | a `#[serde(untagged)]` enum |
//! | `format`: `int32`, `int64`, `uint64`.., `float`, `double`, `binary` | `i32`, `i64`, `u64`.., `f32`, `f64`, `Vec<u8>`; `date-time`, `uuid`.. are `String` |
//! | an `integer` property or union member (or a list or map of them) | with `#[serde(deserialize_with = "restlight::integer::deserialize")]`, which reads `8.0` as 8: a JSON Schema integer that serde alone refuses |
//!
//! Warnings, each with the JSON pointer: media types without a codec
//! (XML), parameter `style`s other than the default (`label`,
//! `spaceDelimited`..) and `explode: false`, `content` parameters,
//! objects in parameters, `Accept` and `Content-Type` header parameters
//! (the framework negotiates), a required list (a `Vec` is never
//! required), non-string enums, `const`, `not`, `discriminator`,
//! `patternProperties`, `prefixItems`, a second success status,
//! callbacks, webhooks, TRACE operations, security schemes (an
//! interceptor's job), status ranges (`4XX`), error statuses without a
//! `StatusCode` constant, path `pattern`s the router cannot keep (an
//! anchor inside a group, look-around), an `integer` without `format` or
//! bounds (read as `i64`, which refuses larger values) and, in the
//! JAX-RS style, an optional body (`Option<T>` refuses an absent one). Error responses are answered as problem details,
//! whatever body the contract describes for them.
//!
//! The document is read into a `serde_json::Value` ([`load`]) so that one
//! code path reads both versions; [`schema`] turns its schemas into Rust
//! types, [`ops`] its operations into handlers (with [`params`]), [`emit`] writes the
//! project, and [`compare()`] checks the document the generated service
//! serves against the contract. Whatever cannot be kept is a [`Warning`]
//! naming the JSON pointer of what was dropped or approximated.

pub mod compare;
pub mod emit;
pub mod load;
pub mod names;
pub mod ops;
pub mod params;
pub mod schema;

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::name::{self, InvalidName};
use crate::source::Source;

pub use compare::{compare, Difference};

/// The annotation style of the generated resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `#[restlight::path]`, `#[get]`, `#[path_param]`, ...
    Jaxrs,
    /// `#[restlight::rest_controller]`, `#[get_mapping]`, `#[path_variable]`, ...
    Spring,
}

/// What to import, and where.
#[derive(Debug, Clone)]
pub struct Options {
    /// The OpenAPI document, JSON or YAML.
    pub spec: PathBuf,
    /// The directory created for the project; it must not exist.
    pub out: PathBuf,
    /// The package name. Default: the directory's name.
    pub name: Option<String>,
    /// The annotation style.
    pub style: Style,
    /// Where the `restlight` dependency comes from.
    pub source: Source,
}

/// Something of the contract the project does not keep as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The JSON pointer of the part of the document, `#/paths/~1pets/get`.
    pub pointer: String,
    /// What was done with it.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

/// The warnings of one import, in the order they were found.
#[derive(Debug, Default)]
pub struct Warnings(pub Vec<Warning>);

impl Warnings {
    /// Adds one, once.
    pub fn add(&mut self, pointer: &str, message: impl Into<String>) {
        let w = Warning { pointer: pointer.to_owned(), message: message.into() };
        if !self.0.contains(&w) {
            self.0.push(w);
        }
    }
}

/// What was generated.
#[derive(Debug)]
pub struct Imported {
    /// The project's directory.
    pub dir: PathBuf,
    /// The package name.
    pub name: String,
    /// How many operations became handlers.
    pub operations: usize,
    /// How many resources hold them.
    pub resources: usize,
    /// What was not kept as the contract says.
    pub warnings: Vec<Warning>,
}

/// Why nothing was generated.
#[derive(Debug)]
pub enum ImportError {
    /// The document could not be read.
    Read(PathBuf, io::Error),
    /// The document is not an OpenAPI 3.0 or 3.1 document.
    Invalid(PathBuf, String),
    /// The package name is not valid.
    Name(InvalidName),
    /// The output directory exists; it was left alone.
    Exists(PathBuf),
    /// A file could not be written; the output directory is removed.
    Io(PathBuf, io::Error),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            Self::Invalid(p, why) => write!(f, "{}: {why}", p.display()),
            Self::Name(e) => e.fmt(f),
            Self::Exists(d) => {
                write!(f, "{} already exists: choose another `--out`, or move the directory away", d.display())
            }
            Self::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for ImportError {}

/// Escapes a JSON pointer token (`/` is `~1`, `~` is `~0`).
#[must_use]
pub fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Reads an OpenAPI 3.0 or 3.1 document, JSON or YAML.
///
/// # Errors
/// [`ImportError::Read`] or [`ImportError::Invalid`].
pub fn read(spec: &Path) -> Result<Value, ImportError> {
    let text = fs::read_to_string(spec).map_err(|e| ImportError::Read(spec.to_path_buf(), e))?;
    let doc = load::parse(&text).map_err(|e| ImportError::Invalid(spec.to_path_buf(), e))?;
    load::version(&doc).map_err(|e| ImportError::Invalid(spec.to_path_buf(), e))?;
    Ok(doc)
}

/// The files of the project for `doc`, by relative path, and the warnings.
#[must_use]
pub fn files(
    doc: &Value,
    crate_name: &str,
    spec_name: &str,
    style: Style,
    restlight_dep: &str,
) -> (Vec<(String, String)>, Imported) {
    let mut w = Warnings::default();
    let mut types = schema::Types::new(doc);
    types.define_components(&mut w);
    let operations = ops::read(doc, &mut types, &mut w);
    let resources = emit::resources(&operations, style, &mut w);
    if doc.get("webhooks").and_then(Value::as_object).is_some_and(|h| !h.is_empty()) {
        w.add("#/webhooks", "webhooks are requests the service sends, not routes: not generated");
    }
    if let Some(note) = ops::security_note(doc) {
        w.add("#/components/securitySchemes", note);
    }
    let title = doc.pointer("/info/title").and_then(Value::as_str).unwrap_or("API");
    let version = doc.pointer("/info/version").and_then(Value::as_str).unwrap_or("0.0.0");
    let module = crate_name.replace('-', "_");
    let mut files = vec![
        ("Cargo.toml".to_owned(), emit::manifest(crate_name, restlight_dep, types.uses_regex())),
        ("src/main.rs".to_owned(), emit::main_file(&module)),
        ("src/lib.rs".to_owned(), emit::lib_file(title, version, spec_name, &resources)),
        ("tests/routes.rs".to_owned(), emit::tests_file(&module, &operations)),
    ];
    for r in &resources {
        files.push((format!("src/{}.rs", r.module), emit::resource_file(r, title)));
    }
    files.push(("src/model.rs".to_owned(), types.render()));
    files.push(("src/errors.rs".to_owned(), emit::errors_file(&operations)));
    let imported = Imported {
        dir: PathBuf::new(),
        name: crate_name.to_owned(),
        operations: operations.len(),
        resources: resources.len(),
        warnings: w.0,
    };
    (files, imported)
}

/// Writes the project for `options.spec` into `options.out` (with a copy
/// of the contract, `openapi.json` or `.yaml`) and returns what it holds.
///
/// # Errors
/// [`ImportError`]: an unreadable or invalid document, an invalid name, an
/// existing directory, or a write that failed (the directory is then removed).
pub fn import(options: &Options) -> Result<Imported, ImportError> {
    let doc = read(&options.spec)?;
    let name = match &options.name {
        Some(n) => n.clone(),
        None => options.out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
    };
    name::check(&name).map_err(ImportError::Name)?;
    let spec_name = options.spec.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let dep = options.source.dependency();
    let dep = format!("{}, features = [\"openapi\"] }}", dep.trim_end().trim_end_matches('}').trim_end());
    let (mut files, mut imported) = files(&doc, &name, &spec_name, options.style, &dep);
    let ext = if spec_name.ends_with(".json") { "json" } else { "yaml" };
    let text = fs::read_to_string(&options.spec).map_err(|e| ImportError::Read(options.spec.clone(), e))?;
    files.push((format!("openapi.{ext}"), text));

    let dir = options.out.clone();
    if dir.exists() {
        return Err(ImportError::Exists(dir));
    }
    let written = files.iter().try_for_each(|(path, text)| {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| ImportError::Io(parent.to_path_buf(), e))?;
        }
        fs::write(&path, text).map_err(|e| ImportError::Io(path, e))
    });
    if let Err(err) = written {
        let _ = fs::remove_dir_all(&dir);
        return Err(err);
    }
    imported.dir = dir;
    Ok(imported)
}
