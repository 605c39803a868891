/// `/users`: JSON in and out; errors are problem details
/// (`application/problem+json`).
#[derive(Debug, Default)]
pub struct UserResource;

#[restlight::path("/users")]
#[produces("application/json")]
impl UserResource {
    #[get]
    async fn list(
        &self,
        #[context] users: &Users,
        #[query_param]
        #[default_value("100")]
        limit: usize,
    ) -> Vec<User> {
        users.list(limit)
    }

    #[get]
    #[path("/{id}")]
    async fn get(
        &self,
        #[context] users: &Users,
        #[path_param] id: u64,
    ) -> Result<User, HttpError> {
        users
            .get(id)
            .ok_or_else(|| HttpError::not_found(format!("no user with id {id}")))
    }

    #[post]
    #[consumes("application/json")]
    async fn create(
        &self,
        #[context] users: &Users,
        new: NewUser,
    ) -> Result<Created<User>, HttpError> {
        if new.name.trim().is_empty() {
            return Err(HttpError::bad_request("the name must not be empty").with("field", "name"));
        }
        Ok(Created(users.create(new)))
    }

    #[delete]
    #[path("/{id}")]
    async fn delete(
        &self,
        #[context] users: &Users,
        #[path_param] id: u64,
    ) -> Result<NoContent, HttpError> {
        if users.delete(id) {
            Ok(NoContent)
        } else {
            Err(HttpError::not_found(format!("no user with id {id}")))
        }
    }
}
