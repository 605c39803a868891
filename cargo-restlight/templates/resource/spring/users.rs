/// No user has the id: the controller's `#[exception_handler]` makes it a 404.
#[derive(Debug)]
pub struct UserNotFound(pub u64);

impl std::fmt::Display for UserNotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no user with id {}", self.0)
    }
}

impl std::error::Error for UserNotFound {}

/// `/users`: JSON in and out; errors are problem details
/// (`application/problem+json`).
#[derive(Debug, Default)]
pub struct UserController;

#[restlight::rest_controller]
#[request_mapping(path = "/users", produces = "application/json")]
impl UserController {
    #[get_mapping]
    async fn list(
        &self,
        #[context] users: &Users,
        #[request_param(default_value = "100")] limit: usize,
    ) -> Vec<User> {
        users.list(limit)
    }

    #[get_mapping("/{id}")]
    async fn get(
        &self,
        #[context] users: &Users,
        #[path_variable] id: u64,
    ) -> Result<User, UserNotFound> {
        users.get(id).ok_or(UserNotFound(id))
    }

    #[post_mapping(consumes = "application/json")]
    #[response_status(CREATED)]
    async fn create(
        &self,
        #[context] users: &Users,
        #[request_body] new: NewUser,
    ) -> Result<User, HttpError> {
        if new.name.trim().is_empty() {
            return Err(HttpError::bad_request("the name must not be empty").with("field", "name"));
        }
        Ok(users.create(new))
    }

    #[delete_mapping("/{id}")]
    async fn delete(
        &self,
        #[context] users: &Users,
        #[path_variable] id: u64,
    ) -> Result<NoContent, UserNotFound> {
        if users.delete(id) {
            Ok(NoContent)
        } else {
            Err(UserNotFound(id))
        }
    }

    /// Errors of this controller's routes; `#[restlight::rest_controller_advice]`
    /// types hold handlers for every route.
    #[exception_handler]
    fn not_found(&self, e: &UserNotFound) -> HttpError {
        HttpError::not_found(e.to_string())
    }
}
