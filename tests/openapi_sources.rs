//! The OpenAPI document of routes using every parameter source, body kind
//! and return type: what each annotation becomes.

use restlight::openapi::{ErrorStatuses, OpenApiVersion};
use restlight::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// A pet, with garde rules schemars reflects.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, garde::Validate)]
pub struct Pet {
    #[garde(length(min = 1, max = 20))]
    name: String,
    #[garde(range(min = 0, max = 40))]
    age: u8,
    #[garde(length(max = 40))]
    owner: String,
    #[garde(email)]
    contact: String,
    #[garde(pattern(r"^[A-Z]{2}-\d{4}$"))]
    chip: String,
}

/// A page of items: a generic type, named per item type.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "Page_for_{T}")]
pub struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

/// Tagged on the impl block; one method tagged on its own.
#[derive(Debug, Default)]
pub struct Shop;

#[restlight::path("/shop")]
#[tag("store")]
impl Shop {
    #[get]
    async fn pets(&self) -> Json<Page<Pet>> {
        Json(Page { items: Vec::new(), next: None })
    }

    #[get]
    #[path("/names")]
    async fn names(&self) -> Json<Page<String>> {
        Json(Page { items: Vec::new(), next: None })
    }

    #[delete]
    #[path("/stock")]
    #[tag("admin", "store")]
    async fn clear(&self) -> NoContent {
        NoContent
    }
}

/// A route function with a tag.
#[restlight::get("/opening-hours")]
#[tag("store")]
async fn opening_hours() -> &'static str {
    "9-17"
}

#[derive(Debug, BeanParam)]
pub struct Paging {
    #[query_param]
    #[default_value("20")]
    limit: usize,
    #[header_param]
    x_tenant: Option<String>,
}

/// A type without `JsonSchema`: documented as any value.
#[derive(Debug, Serialize, Deserialize)]
pub struct Opaque {
    pub x: u8,
}

#[derive(Debug)]
pub struct PetError;
impl std::fmt::Display for PetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("pet error")
    }
}
impl std::error::Error for PetError {}
impl ErrorStatuses for PetError {
    const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND, StatusCode::CONFLICT];
}

#[derive(Debug, Default)]
pub struct Pets;

#[restlight::path("/pets")]
#[produces("application/json")]
impl Pets {
    /// Finds a pet.
    ///
    /// By its id, in the tenant's shop.
    #[get]
    #[path("/{id: \\d+}")]
    #[timeout("2s")]
    async fn find(
        &self,
        #[path_param] id: u64,
        #[query_param] fields: Vec<String>,
        #[header_param("X-Trace")] trace: Option<String>,
        #[cookie_param] session: String,
        #[matrix_param] color: Option<String>,
    ) -> Option<Pet> {
        let _ = (id, fields, trace, session, color);
        None
    }

    #[post]
    #[consumes("application/json")]
    #[max_body("64KiB")]
    fn create(&self, pet: Pet) -> Result<Created<Pet>, PetError> {
        Ok(Created(pet))
    }

    #[put]
    #[path("/{id}")]
    #[deprecated = "use POST"]
    async fn replace(&self, #[path_param] id: u64, opaque: Opaque) -> NoContent {
        let _ = (id, opaque);
        NoContent
    }

    #[get]
    #[path("/search")]
    async fn search(&self, #[bean_param] page: Paging) -> Result<Vec<Pet>, HttpError> {
        let _ = (page.limit, page.x_tenant);
        Ok(Vec::new())
    }

    #[post]
    #[path("/login")]
    #[consumes("application/x-www-form-urlencoded")]
    #[produces("text/plain")]
    async fn login(&self, #[form_param] user: String, #[form_param] remember: Option<bool>) -> String {
        format!("{user} {remember:?}")
    }

    #[post]
    #[path("/note")]
    #[produces("text/plain")]
    async fn note(&self, text: String) -> String {
        text
    }

    /// 202: the adoption is under way.
    #[post]
    #[path("/{id}/adoption")]
    async fn adopt(&self, #[path_param] id: u64) -> Result<WithStatus<202, Pet>, PetError> {
        let _ = id;
        Ok(WithStatus(Pet {
            name: "Rex".into(),
            age: 3,
            owner: "Ada".into(),
            contact: "ada@example.com".into(),
            chip: "AB-1234".into(),
        }))
    }

    /// 200 without a body.
    #[put]
    #[path("/{id}/checked")]
    async fn check(&self, #[path_param] id: u64) -> EmptyStatus<200> {
        let _ = id;
        EmptyStatus
    }

    #[delete]
    #[path("/{id}")]
    async fn remove(&self, #[path_param] id: u64, #[context] req: &RequestContext) -> StatusCode {
        let _ = (id, req);
        StatusCode::NO_CONTENT
    }
}

fn doc() -> Value {
    let app = Restlight::new().route(get("/ping").handle(|_| async { "pong" })).build().unwrap();
    app.openapi().to_value(OpenApiVersion::V3_1)
}

fn statuses(op: &Value) -> Vec<String> {
    op["responses"].as_object().unwrap().keys().cloned().collect()
}

#[test]
fn path_query_header_cookie_and_matrix_parameters() {
    let doc = doc();
    let find = &doc["paths"]["/pets/{id}"]["get"];
    assert_eq!(find["summary"], "Finds a pet.");
    assert_eq!(
        find["description"],
        "By its id, in the tenant's shop.\n\nMatrix parameters of the last path segment (`;name=value`): `color`."
    );
    assert_eq!(find["tags"], json!(["Pets"]));
    assert_eq!(find["operationId"], "Pets.find");
    let params = find["parameters"].as_array().unwrap();
    assert_eq!(
        params[0],
        json!({"name": "id", "in": "path", "required": true,
        "schema": {"type": "integer", "format": "uint64", "minimum": 0, "pattern": "^(?:\\d+)$"}})
    );
    assert_eq!(
        params[1],
        json!({"name": "fields", "in": "query", "required": false, "explode": true,
        "schema": {"type": "array", "items": {"type": "string"}}})
    );
    assert_eq!(params[2], json!({"name": "X-Trace", "in": "header", "required": false, "schema": {"type": "string"}}));
    assert_eq!(params[3], json!({"name": "session", "in": "cookie", "required": true, "schema": {"type": "string"}}));
    assert_eq!(params.len(), 4);
    // Option<Pet>: 200 with the schema and 404; a route timeout: 504.
    assert_eq!(find["responses"]["200"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Pet");
    assert_eq!(statuses(find), ["200", "400", "404", "406", "500", "504"]);
}

#[test]
fn entities_bodies_and_errors() {
    let doc = doc();
    let create = &doc["paths"]["/pets"]["post"];
    assert_eq!(create["requestBody"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Pet");
    assert_eq!(create["requestBody"]["required"], true);
    // Result<Created<Pet>, PetError>: 201 and PetError's statuses; a plain `fn`
    // runs on the bounded business executor: 429 and 503.
    assert_eq!(statuses(create), ["201", "400", "404", "406", "409", "413", "415", "429", "500", "503"]);
    assert_eq!(
        create["responses"]["409"]["content"]["application/problem+json"]["schema"]["$ref"],
        "#/components/schemas/Problem"
    );

    let replace = &doc["paths"]["/pets/{id}"]["put"];
    assert_eq!(replace["deprecated"], true);
    assert_eq!(replace["requestBody"]["content"]["application/json"]["schema"], json!({}), "no JsonSchema: any value");
    assert!(replace["responses"]["204"]["content"].is_null());

    let search = &doc["paths"]["/pets/search"]["get"];
    let names: Vec<&str> =
        search["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["limit", "x-tenant"]);
    // A bean's fields are typed by their Rust types.
    assert_eq!(
        search["parameters"][0]["schema"],
        json!({"type": "integer", "format": "uint", "minimum": 0, "default": 20})
    );
    assert_eq!(search["parameters"][1]["schema"], json!({"type": "string"}));
    assert_eq!(search["parameters"][1]["required"], false);
    assert!(search["responses"]["default"].is_object(), "HttpError: any status");

    let login = &doc["paths"]["/pets/login"]["post"];
    assert_eq!(
        login["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"],
        json!({"type": "object", "properties": {"user": {"type": "string"}, "remember": {"type": "boolean"}}, "required": ["user"]})
    );
    assert_eq!(login["responses"]["200"]["content"]["text/plain"]["schema"], json!({"type": "string"}));

    let note = &doc["paths"]["/pets/note"]["post"];
    assert_eq!(note["requestBody"]["content"]["text/plain"]["schema"], json!({"type": "string"}));

    let remove = &doc["paths"]["/pets/{id}"]["delete"];
    assert!(remove["responses"]["default"].is_object(), "StatusCode: any status");
    assert_eq!(remove["parameters"].as_array().unwrap().len(), 1, "#[context] is not a parameter");

    let ping = &doc["paths"]["/ping"]["get"];
    assert_eq!(ping["operationId"], "get_ping");
}

#[test]
fn schemas_carry_garde_rules_and_errors_share_one_problem_schema() {
    let doc = doc();
    let pet = &doc["components"]["schemas"]["Pet"];
    assert_eq!(pet["properties"]["name"]["minLength"], 1);
    assert_eq!(pet["properties"]["name"]["maxLength"], 20);
    assert_eq!(pet["properties"]["age"]["maximum"], 40);
    assert_eq!(pet["properties"]["owner"]["maxLength"], 40);
    assert_eq!(pet["properties"]["contact"]["format"], "email");
    assert_eq!(pet["properties"]["chip"]["pattern"], "^[A-Z]{2}-\\d{4}$");
    assert_eq!(doc["components"]["schemas"]["Problem"]["required"], json!(["title", "status"]));
}

#[test]
fn version_3_0_3_from_the_same_routes() {
    let app = Restlight::new().build().unwrap();
    let v30 = app.openapi().to_value(OpenApiVersion::V3_0);
    assert_eq!(v30["openapi"], "3.0.3");
    let v31 = app.openapi().to_value(OpenApiVersion::V3_1);
    assert_eq!(
        v30["paths"].as_object().unwrap().keys().collect::<Vec<_>>(),
        v31["paths"].as_object().unwrap().keys().collect::<Vec<_>>()
    );
    // The 3.0 dialect: `Option<T>` fields are `nullable`, never a type array.
    assert!(!v30.to_string().contains("\"type\":[") && !v30.to_string().contains("\"null\""));
}

#[test]
fn tags_come_from_the_tag_attribute_else_the_resource_type() {
    let doc = doc();
    let tags = |path: &str, method: &str| doc["paths"][path][method]["tags"].clone();
    assert_eq!(tags("/shop", "get"), json!(["store"]), "the impl block's tag");
    assert_eq!(tags("/shop/stock", "delete"), json!(["admin", "store"]), "the method's tags replace the block's");
    assert_eq!(tags("/opening-hours", "get"), json!(["store"]), "a route function's tag");
    assert_eq!(tags("/pets/{id}", "get"), json!(["Pets"]), "no tag: the resource type");
    assert_eq!(tags("/ping", "get"), Value::Null, "a builder route has no tag");
}

#[test]
fn generic_types_get_one_stable_name_per_instantiation() {
    let first = doc();
    let schemas = first["components"]["schemas"].as_object().unwrap();
    let refs = |doc: &Value, path: &str| {
        doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].clone()
    };
    assert_eq!(refs(&first, "/shop"), "#/components/schemas/Page_for_Pet");
    assert_eq!(refs(&first, "/shop/names"), "#/components/schemas/Page_for_string");
    assert!(schemas.contains_key("Page_for_Pet") && schemas.contains_key("Page_for_string"));
    assert_eq!(schemas["Page_for_Pet"]["properties"]["items"]["items"]["$ref"], "#/components/schemas/Pet");
    // Built again, the document names every schema the same.
    assert_eq!(doc()["components"]["schemas"], first["components"]["schemas"]);
}

#[test]
fn statuses_in_the_return_type_are_documented_and_answered() {
    let doc = doc();
    // WithStatus<202, Pet>: 202 with the entity's schema, and no 200.
    let adopt = &doc["paths"]["/pets/{id}/adoption"]["post"];
    assert_eq!(adopt["responses"]["202"]["description"], "Accepted");
    assert_eq!(adopt["responses"]["202"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Pet");
    assert_eq!(statuses(adopt), ["202", "400", "404", "406", "409", "500"]);
    // EmptyStatus<200>: 200 without content.
    let check = &doc["paths"]["/pets/{id}/checked"]["put"];
    assert_eq!(check["responses"]["200"], json!({"description": "OK"}));

    let client = Restlight::new().mock().unwrap();
    let res = client.post("/pets/7/adoption").send_blocking();
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    assert_eq!(res.json::<Value>()["name"], "Rex");
    let res = client.put("/pets/7/checked").send_blocking();
    assert_eq!((res.status(), res.text()), (StatusCode::OK, String::new()));
}
