//! A pet store that uses every parameter source, body kind and documented
//! error, served with its OpenAPI document: the example `scripts/openapi-check.sh`
//! runs Schemathesis against, beside `users`.
//!
//! ```sh
//! cargo run --example petstore             # port 8080, or PORT=..
//! curl -i 'localhost:8080/pets?limit=2' -H 'x-tenant: north'
//! curl -i localhost:8080/pets -H 'content-type: application/json' \
//!     -d '{"name":"Rex","age":3,"tags":["dog"]}'
//! curl -i localhost:8080/openapi.json      # the document; the UI: localhost:8080/swagger-ui
//! ```

use std::collections::BTreeMap;
use std::sync::Mutex;

use bytes::Bytes;
use restlight::openapi::{ErrorStatuses, OpenApiDocs};
use restlight::prelude::*;
use serde::{Deserialize, Serialize};

/// A pet as clients send it.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, garde::Validate)]
pub struct NewPet {
    /// The pet's name, 1 to 40 characters.
    #[garde(length(min = 1, max = 40))]
    pub name: String,
    /// Its age in years.
    #[garde(range(max = 60))]
    pub age: u8,
    /// Free-form labels.
    #[garde(length(max = 8))]
    #[serde(default)]
    pub tags: Vec<String>,
}

/// A stored pet.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Pet {
    /// Assigned by the store.
    pub id: u64,
    /// The pet's name.
    pub name: String,
    /// Its age in years.
    pub age: u8,
    /// Free-form labels.
    pub tags: Vec<String>,
    /// The notes written about it.
    pub notes: Vec<String>,
}

/// Paging, read from the query string and a header at once.
#[derive(Debug, BeanParam)]
pub struct Paging {
    /// How many pets at most.
    #[query_param]
    #[default_value("20")]
    pub limit: usize,
    /// Only names starting with this.
    #[query_param]
    pub prefix: Option<String>,
    /// The tenant asking; pets are shared, the name is echoed.
    #[header_param("x-tenant")]
    pub tenant: Option<String>,
}

/// Why a pet could not be changed.
#[derive(Debug)]
pub enum PetError {
    /// No pet has the id.
    Missing(u64),
    /// The name is taken.
    Taken(String),
}

impl std::fmt::Display for PetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing(id) => write!(f, "no pet has the id {id}"),
            Self::Taken(name) => write!(f, "a pet is already named {name:?}"),
        }
    }
}

impl std::error::Error for PetError {}

impl ErrorStatuses for PetError {
    const STATUSES: &'static [StatusCode] = &[StatusCode::NOT_FOUND, StatusCode::CONFLICT];
}

/// The pets, kept in memory.
#[derive(Debug, Default)]
pub struct Pets {
    pets: Mutex<BTreeMap<u64, Pet>>,
}

#[restlight::path("/pets")]
#[produces("application/json")]
#[tag("pets")]
impl Pets {
    /// Lists pets.
    ///
    /// At most `limit`, optionally only those whose name starts with `prefix`.
    #[get]
    async fn list(&self, #[bean_param] page: Paging) -> Vec<Pet> {
        let pets = self.pets.lock().unwrap();
        let prefix = page.prefix.unwrap_or_default();
        pets.values().filter(|p| p.name.starts_with(&prefix)).take(page.limit).cloned().collect()
    }

    /// Adds a pet; its name must be free.
    #[post]
    #[consumes("application/json")]
    #[max_body("16KiB")]
    async fn create(&self, #[valid] pet: NewPet) -> Result<Created<Pet>, PetError> {
        let mut pets = self.pets.lock().unwrap();
        if pets.values().any(|p| p.name == pet.name) {
            return Err(PetError::Taken(pet.name));
        }
        let id = pets.keys().next_back().map_or(1, |last| last + 1);
        let pet = Pet { id, name: pet.name, age: pet.age, tags: pet.tags, notes: Vec::new() };
        pets.insert(id, pet.clone());
        Ok(Created(pet))
    }

    /// Finds a pet by its id.
    #[get]
    #[path("/{id: \\d{1,9}}")]
    async fn find(&self, #[path_param] id: u64) -> Option<Pet> {
        self.pets.lock().unwrap().get(&id).cloned()
    }

    /// Removes a pet.
    #[delete]
    #[path("/{id: \\d{1,9}}")]
    async fn remove(&self, #[path_param] id: u64) -> Result<NoContent, PetError> {
        match self.pets.lock().unwrap().remove(&id) {
            Some(_) => Ok(NoContent),
            None => Err(PetError::Missing(id)),
        }
    }

    /// Adds a note (plain text) to a pet.
    #[post]
    #[path("/{id: \\d{1,9}}/notes")]
    #[consumes("text/plain")]
    #[max_body("4KiB")]
    async fn note(&self, #[path_param] id: u64, text: String) -> Result<Json<Pet>, PetError> {
        let mut pets = self.pets.lock().unwrap();
        let pet = pets.get_mut(&id).ok_or(PetError::Missing(id))?;
        pet.notes.push(text);
        Ok(Json(pet.clone()))
    }

    /// Uploads a photo (raw bytes); answers its size.
    #[put]
    #[path("/{id: \\d{1,9}}/photo")]
    #[consumes("application/octet-stream")]
    #[produces("text/plain")]
    #[max_body("64KiB")]
    async fn photo(&self, #[path_param] id: u64, photo: Bytes) -> Result<String, PetError> {
        if !self.pets.lock().unwrap().contains_key(&id) {
            return Err(PetError::Missing(id));
        }
        Ok(format!("{} bytes", photo.len()))
    }

    /// The store's errors as problem details: 404 and 409.
    #[exception_handler]
    fn on_pet_error(&self, e: &PetError) -> HttpError {
        let status = match e {
            PetError::Missing(_) => StatusCode::NOT_FOUND,
            PetError::Taken(_) => StatusCode::CONFLICT,
        };
        HttpError::new(status, e.to_string())
    }
}

/// The visitor's preferences, from a cookie and a form.
#[derive(Debug, Default)]
pub struct Visits;

#[restlight::path("/visits")]
#[tag("visits")]
impl Visits {
    /// Greets a visitor, by the `visitor` cookie if it is there.
    #[get]
    #[produces("text/plain")]
    async fn greet(&self, #[cookie_param] visitor: Option<String>) -> String {
        format!("hello {}", visitor.unwrap_or_else(|| "stranger".to_owned()))
    }

    /// Books a visit from a form.
    #[post]
    #[consumes("application/x-www-form-urlencoded")]
    #[produces("text/plain")]
    async fn book(&self, #[form_param] name: String, #[form_param] guests: Option<u8>) -> String {
        format!("{name}: {} guests", guests.unwrap_or(1))
    }
}

/// The application: both resources, with the document served.
pub fn app() -> Restlight {
    Restlight::new()
        .resource(Pets::default())
        .resource(Visits)
        .openapi(OpenApiDocs::new().title("Pet store").api_version("1.0.0"))
}

fn main() -> restlight::Result<()> {
    let port = std::env::var("PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(8080);
    app().port(port).run()
}
