//! `cargo restlight import` as a user runs it: what it writes from a
//! contract, what it warns about, how it fails, and `--compare`. Building
//! and testing the generated projects is `cargo-restlight/import-ci.sh`'s
//! job (run by CI): it compiles a project per contract.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-restlight"))
        .arg("restlight")
        .args(args)
        .current_dir(dir)
        .env("CARGO", "false") // no `cargo fmt` of the output: the text is checked as generated
        .stdin(Stdio::null())
        .output()
        .expect("the command runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn contract(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = if name == "users.json" {
        dir.join("../examples/openapi/users.json")
    } else {
        dir.join("tests/import").join(name)
    };
    path.to_string_lossy().into_owned()
}

fn read(dir: &Path, file: &str) -> String {
    fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn a_yaml_3_0_contract_becomes_resources_types_and_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["import", &contract("petstore-3.0.yaml"), "--out", "pets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Created `pets`") && stdout.contains("12 operations in 2 resources"), "{stdout}");
    let dir = tmp.path().join("pets");

    let manifest = read(&dir, "Cargo.toml");
    assert!(manifest.contains("features = [\"openapi\"] }"), "{manifest}");
    assert!(dir.join("openapi.yaml").is_file(), "the contract is kept next to the code");

    // One resource per tag, the base path the tag's paths share.
    let pet = read(&dir, "src/pet.rs");
    for expected in [
        // The tag every operation shares, on the block.
        "#[restlight::path(\"/pet\")]\n#[tag(\"pet\")]\nimpl PetResource {",
        // 201 is `Created<T>`, the JSON media types only (XML has no codec),
        // the documented 405 the error type's.
        "    #[post]\n    #[produces(\"application/json\")]\n    #[consumes(\"application/json\")]\n    async fn add_pet(\n        &self,\n        body: Pet,\n    ) -> Result<Created<Pet>, Error405> {\n        Err(not_implemented(\"addPet\").into())",
        // A path-level `$ref`'d parameter, a header, 204.
        "    #[delete]\n    #[path(\"/{petId}\")]\n    async fn delete_pet(\n        &self,\n        #[path_param(\"petId\")]\n        pet_id: i64,\n        #[header_param(\"api_key\")]\n        api_key: Option<String>,\n    ) -> Result<NoContent, HttpError> {",
        // A default, an enum, an optional int32, a list.
        "#[query_param(\"status\")]\n        #[default_value(\"available\")]\n        status: FindPetsByStatusStatus,",
        "#[query_param(\"limit\")]\n        limit: Option<i32>,",
        "#[query_param(\"tags\")]\n        tags: Vec<String>,",
        // Form fields, required or not.
        "#[form_param(\"name\")]\n        name: String,\n        #[form_param(\"status\")]\n        status: Option<String>,",
        "body: Vec<u8>,\n    ) -> Result<ApiResponse, HttpError>",
    ] {
        assert!(pet.contains(expected), "missing\n{expected}\nin\n{pet}");
    }
    // The documented error statuses: a type per set, listing them for the served document.
    let errors = read(&dir, "src/errors.rs");
    for expected in [
        "pub struct Error404(pub HttpError);",
        "impl ErrorStatuses for Error404 {\n    const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND];\n}",
        "impl From<HttpError> for Error405 {",
    ] {
        assert!(errors.contains(expected), "missing\n{expected}\nin\n{errors}");
    }
    assert!(pet.contains(") -> Result<Pet, Error404> {"), "{pet}");
    let store = read(&dir, "src/store.rs");
    assert!(store.contains("Result<std::collections::BTreeMap<String, i32>, HttpError>"), "{store}");

    let model = read(&dir, "src/model.rs");
    for expected in [
        "#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]\npub struct Pet {",
        "    #[serde(rename = \"photoUrls\")]\n    pub photo_urls: Vec<String>,",
        "    pub name: String,",
        "    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub nickname: Option<String>,",
        "    /// The pet's status in the store.\n    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub status: Option<PetStatus>,",
        "pub enum PetStatus {\n    #[serde(rename = \"available\")]\n    Available,",
        "    #[serde(rename = \"type\")]\n    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n    pub type_: Option<String>,",
    ] {
        assert!(model.contains(expected), "missing\n{expected}\nin\n{model}");
    }

    // A test per operation, with the values the contract requires.
    let tests = read(&dir, "tests/routes.rs");
    assert_eq!(tests.matches("#[test]").count(), 12, "{tests}");
    assert!(tests.contains("fn update_pet_with_form_is_routed() {\n    let res = client()\n        .post(\"/pet/1\")\n        .form(&[(\"name\", \"text\")])"), "{tests}");
    assert!(tests.contains(".json(&json!({\"name\":\"doggie\",\"photoUrls\":[]}))"), "{tests}");

    // What is not kept is said, with the JSON pointer.
    let warnings = stderr(&out);
    for expected in [
        "warning: #/paths/~1pet/post/requestBody/content/application~1xml: `application/xml` has no codec in Restlight: not consumed",
        "warning: #/paths/~1pet~1findByStatus/get/responses/200/content/application~1xml: `application/xml` has no codec in Restlight: not produced",
        "warning: #/components/securitySchemes: security schemes and requirements are not generated",
    ] {
        assert!(warnings.contains(expected), "missing {expected} in\n{warnings}");
    }
}

#[test]
fn a_json_3_1_contract_keeps_patterns_nullables_unions_and_merges() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["import", &contract("library-3.1.json"), "--out", "lib-out", "--name", "library"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = tmp.path().join("lib-out");
    assert!(read(&dir, "Cargo.toml").contains("name = \"library\""));
    let books = read(&dir, "src/books.rs");
    for expected in [
        // `^\d{13}$` is the whole segment; `\d{13}` may have more around it
        // (JSON Schema finds a pattern anywhere in the value).
        "#[path(\"/{isbn: \\\\d{13}}\")]",
        "#[path(\"/{isbn: [^/]*?(?:\\\\d{13})[^/]*}\")]",
        "#[path(\"/{isbn: [^/]*?(?:\\\\d{13})[^/]*}/notes\")]",
        // The success status other than 200, 201 and 204 is in the type.
        "#[path_param(\"isbn\")]\n        isbn: String,\n    ) -> Result<WithStatus<202, ScanBookResponse>, HttpError> {",
        "#[path_param(\"isbn\")]\n        isbn: String,\n    ) -> Result<EmptyStatus<200>, HttpError> {",
        "#[header_param(\"X-Tenant\")]\n        x_tenant: String,",
        // A query or header pattern is checked by the parameter's type.
        "#[query_param(\"series\")]\n        series: Option<ListBooksSeries>,",
        "#[header_param(\"X-Request-Id\")]\n        x_request_id: ListBooksXRequestId,",
        "#[cookie_param(\"session\")]\n        session: Option<String>,",
        "#[query_param(\"page\")]\n        #[default_value(\"0\")]\n        page: i32,",
        "    #[deprecated]\n    #[get]",
        "#[produces(\"application/json\", \"text/plain\")]",
        "#[consumes(\"text/plain\")]",
    ] {
        assert!(books.contains(expected), "missing\n{expected}\nin\n{books}");
    }
    let model = read(&dir, "src/model.rs");
    for expected in [
        // allOf: the properties of both, `id` required.
        "pub struct Book {",
        // A JSON Schema integer may be written `8.0`.
        "    #[serde(deserialize_with = \"restlight::integer::deserialize\")]\n    pub id: i64,",
        "    pub subtitle: Option<String>,",
        // anyOf: an untagged enum of the members.
        "pub struct ListBooksSeries(pub String);",
        "    pub const PATTERN: &str = \"^[A-Z]{2}\";",
        "impl std::str::FromStr for ListBooksSeries {",
        "impl JsonSchema for ListBooksSeries {",
        "#[serde(untagged)]\npub enum MemberContact {\n    Email(Email),\n    Phone(Phone),\n}",
        // A maps of strings; additionalProperties: true is a flattened map.
        "pub labels: Option<std::collections::BTreeMap<String, String>>,",
        "    #[serde(flatten)]\n    pub additional_properties: std::collections::BTreeMap<String, serde_json::Value>,",
        // An inline object gets its owner's name.
        "pub address: Option<MemberAddress>,",
        "pub enum Format {\n    #[serde(rename = \"hardcover\")]\n    Hardcover,",
        "    #[serde(rename = \"e-book\")]\n    EBook,",
    ] {
        assert!(model.contains(expected), "missing\n{expected}\nin\n{model}");
    }
    let tests = read(&dir, "tests/routes.rs");
    assert!(tests.contains(".delete(\"/books/1111111111111\")"), "a value that matches the pattern: {tests}");
    assert!(tests.contains(".get(\"/books/9780000000001\")"), "the parameter's example: {tests}");
    assert!(tests.contains(".header(\"X-Tenant\", \"text\")"), "{tests}");
    assert!(tests.contains(".header(\"X-Request-Id\", \"00000000\")"), "a value that matches the pattern: {tests}");
    // And a test that a value not matching it is refused.
    assert!(
        tests.contains("fn list_books_refuses_a_series_not_matching_its_pattern() {\n    let res = client()\n        .get(\"/books?series=~\")"),
        "{tests}"
    );
    assert!(tests.contains("assert_eq!(res.json::<Value>()[\"parameter\"], \"X-Request-Id\");"), "{tests}");
    assert!(read(&dir, "Cargo.toml").contains("regex = \"1\""), "the patterns' types use regex");
    assert!(
        stderr(&out)
            .contains("#/components/schemas/Member/properties/tier/enum: an enum of values that are not all strings"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_spring_style_writes_controllers() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["import", &contract("library-3.1.json"), "--out", "library", "--style", "spring"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let books = read(&tmp.path().join("library"), "src/books.rs");
    for expected in [
        "#[restlight::rest_controller]\n#[request_mapping(\"/books\")]\n#[tag(\"Books\")]\nimpl BooksController {",
        "#[get_mapping(produces = \"application/json\")]",
        "#[request_param(name = \"page\", default_value = \"0\")]",
        "#[request_header(name = \"X-Tenant\")]",
        "#[cookie_value(name = \"session\", required = false)]",
        "#[request_body]\n        body: NewBook,",
        "#[path_variable(\"isbn\")]",
    ] {
        assert!(books.contains(expected), "missing\n{expected}\nin\n{books}");
    }
}

#[test]
fn smallrye_matrix_parameters_become_matrix_params() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["import", &contract("fleet-jaxrs.yaml"), "--out", "fleet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = tmp.path().join("fleet");
    let cars = read(&dir, "src/cars.rs");
    for expected in [
        // `/cars/search{search}`: the variable is the segment's matrix parameters.
        "    #[get]\n    #[path(\"/search\")]",
        "#[header_param(\"X-Tenant\")]\n        x_tenant: String,",
        "#[matrix_param(\"color\")]\n        color: Option<String>,\n        #[matrix_param(\"year\")]\n        #[default_value(\"2020\")]\n        year: i32,",
        "    #[path(\"/{vin}/options\")]",
        "#[matrix_param(\"trim\")]\n        trim: String,",
        "#[header_param(\"If-Match\")]\n        if_match: String,",
        "#[path(\"/{vin: [A-HJ-NPR-Z0-9]{17}}\")]",
    ] {
        assert!(cars.contains(expected), "missing\n{expected}\nin\n{cars}");
    }
    // The test sends a required matrix parameter on the last segment.
    let tests = read(&dir, "tests/routes.rs");
    assert!(tests.contains(".get(\"/cars/text/options;trim=text\")"), "{tests}");
    let warnings = stderr(&out);
    assert!(
        warnings.contains("warning: #/paths/~1cars~1search{search}/get/parameters/2: matrix parameters are read with `#[matrix_param]`; the served document names them in the operation's description"),
        "{warnings}"
    );
    // Spring style: `#[matrix_variable]`.
    let out = run(tmp.path(), &["import", &contract("fleet-jaxrs.yaml"), "--out", "fleet-spring", "--style", "spring"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cars = read(&tmp.path().join("fleet-spring"), "src/cars.rs");
    assert!(cars.contains("#[matrix_variable(name = \"color\", required = false)]"), "{cars}");
}

#[test]
fn springdoc_params_conditions_become_params() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["import", &contract("orders-spring.json"), "--out", "orders", "--style", "spring"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let orders = read(&tmp.path().join("orders"), "src/order_controller.rs");
    for expected in [
        // springdoc's tag is the controller's name: no `ControllerController`.
        "impl OrderController {",
        // A required query parameter with one allowed value is a `params` condition, and read.
        "#[get_mapping(path = \"/{id}\", produces = \"application/json\", params = \"version=2\")]",
        "#[request_param(name = \"version\")]\n        version: GetV2Version,",
        "#[get_mapping(path = \"/export\", produces = \"text/csv\", params = \"format=csv\")]",
        // springdoc's `*/*` (no `produces`) is JSON.
        "#[post_mapping(produces = \"application/json\", consumes = \"application/json\")]",
        "#[request_header(name = \"X-Tenant\", required = false)]",
    ] {
        assert!(orders.contains(expected), "missing\n{expected}\nin\n{orders}");
    }
    let warnings = stderr(&out);
    assert!(
        warnings.contains(
            "warning: #/paths/~1api~1orders/post/responses/201/content/*~1*: `*/*` is produced as `application/json`"
        ),
        "{warnings}"
    );
    // The JAX-RS style reads the parameter; it has no `params` conditions.
    let out = run(tmp.path(), &["import", &contract("orders-spring.json"), "--out", "orders-jaxrs"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let orders = read(&tmp.path().join("orders-jaxrs"), "src/order_controller.rs");
    assert!(!orders.contains("params ="), "{orders}");
}

#[test]
fn the_3_1_pet_store_reads_examples_and_warns_about_webhooks() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &["import", &contract("petstore-3.1.yaml"), "--out", "pets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = tmp.path().join("pets");
    let model = read(&dir, "src/model.rs");
    assert!(model.contains("    pub nickname: Option<String>,"), "{model}");
    let tests = read(&dir, "tests/routes.rs");
    assert!(
        tests.contains(".json(&json!({\"name\":\"doggie\",\"photoUrls\":[]}))"),
        "`examples` give the sample: {tests}"
    );
    let warnings = stderr(&out);
    assert!(
        warnings.contains("warning: #/webhooks: webhooks are requests the service sends, not routes: not generated"),
        "{warnings}"
    );
}

#[test]
fn failures_name_the_problem_and_create_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("swagger.json"), r#"{"swagger": "2.0", "paths": {}}"#).unwrap();
    fs::write(tmp.path().join("bad.yaml"), "openapi: 3.0.0\npaths: [\n").unwrap();
    fs::create_dir(tmp.path().join("taken")).unwrap();
    let users = contract("users.json");
    let cases: [(&[&str], &str); 5] = [
        (&["import", "missing.json", "--out", "x"], "cannot read missing.json"),
        (&["import", "swagger.json", "--out", "x"], "convert it to OpenAPI 3 first"),
        (&["import", "bad.yaml", "--out", "x"], "invalid YAML"),
        (&["import", &users, "--out", "taken"], "taken already exists"),
        (&["import", &users], "--out <DIR>"),
    ];
    for (args, expected) in cases {
        let out = run(tmp.path(), args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(expected), "{args:?}: {}", stderr(&out));
    }
    assert!(!tmp.path().join("x").exists());
}

#[test]
fn compare_lists_every_difference_and_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let users = contract("users.json");
    let same = run(tmp.path(), &["import", &users, "--compare", &users]);
    assert!(same.status.success(), "{}", stderr(&same));
    assert_eq!(String::from_utf8_lossy(&same.stdout), "");

    let mut served: serde_json::Value = serde_json::from_str(&fs::read_to_string(&users).unwrap()).unwrap();
    let paths = served["paths"].as_object_mut().unwrap();
    paths.remove("/hello");
    paths["/users"]["get"]["parameters"][0]["required"] = true.into();
    fs::write(tmp.path().join("served.json"), served.to_string()).unwrap();
    let out = run(tmp.path(), &["import", &users, "--compare", "served.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "GET /hello: in the contract, not served\n\
         GET /users: the query parameter `limit` is optional in the contract, required in the service\n"
    );
    assert!(stderr(&out).contains("differs from the contract"), "{}", stderr(&out));
}
