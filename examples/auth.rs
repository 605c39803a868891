//! Authentication with the extension points: an interceptor stores the
//! principal as a request attribute, an argument resolver turns it into a
//! `CurrentUser` (401 when absent), and handlers take `user: CurrentUser`.
//!
//! ```sh
//! cargo run --example auth
//! curl -i localhost:8080/api/me                                  # 401, problem details
//! curl -i -H 'Authorization: Bearer s3cret' localhost:8080/api/me # 200, "ada"
//! curl -i -H 'Authorization: Bearer s3cret' localhost:8080/api/profile
//! ```

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use restlight::http::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use restlight::http::HeaderValue;
use restlight::prelude::*;
use serde::Serialize;

/// Who sent the request, as the interceptor found it.
#[derive(Debug, Clone)]
pub struct Principal {
    /// The user's name.
    pub name: String,
    /// Whether the user may administer.
    pub admin: bool,
}

/// The known tokens (a real service would ask an identity provider).
#[derive(Debug, Default)]
pub struct Tokens(HashMap<String, Principal>);

impl Tokens {
    /// `s3cret` is ada (an administrator), `hunter2` is bob.
    #[must_use]
    pub fn demo() -> Self {
        let user = |name: &str, admin| Principal { name: name.to_owned(), admin };
        Self(HashMap::from([("s3cret".to_owned(), user("ada", true)), ("hunter2".to_owned(), user("bob", false))]))
    }
}

/// Reads `Authorization: Bearer <token>` and stores the principal as a
/// request attribute. Requests without a valid token go on anonymous: the
/// routes that need a user say so by taking a `CurrentUser`.
#[derive(Debug)]
pub struct Authenticate {
    tokens: Arc<Tokens>,
}

impl Interceptor for Authenticate {
    async fn pre_handle(&self, ctx: &mut RequestContext) -> ControlFlow<Response> {
        let token = ctx.header(AUTHORIZATION.as_str()).and_then(|h| h.strip_prefix("Bearer "));
        if let Some(principal) = token.and_then(|t| self.tokens.0.get(t.trim())) {
            ctx.set_attribute(principal.clone());
        }
        ControlFlow::Continue(())
    }
}

/// The signed-in user: a handler taking one answers 401 to anonymous
/// requests before it runs.
#[derive(Debug)]
pub struct CurrentUser(pub Principal);

impl FromRequest for CurrentUser {
    type Error = HttpError;

    async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, HttpError> {
        match req.attribute::<Principal>() {
            Some(p) => Ok(Self(p.clone())),
            None => Err(HttpError::unauthorized("sign in: send `Authorization: Bearer <token>`")
                .with_header(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))),
        }
    }
}

/// A profile: a response type of its own that sets a header and leaves
/// the format to negotiation (the route's `produces` and `Accept`).
#[derive(Debug, Serialize)]
pub struct Profile {
    name: String,
    admin: bool,
}

impl IntoResponse for Profile {
    fn into_response(self) -> Response {
        let role = if self.admin { "admin" } else { "user" };
        ResponseBuilder::ok().header("x-role", role).header("cache-control", "private").entity(self).into_response()
    }
}

/// The routes under `/api`.
#[derive(Debug, Default)]
pub struct Account;

#[restlight::path("/api")]
impl Account {
    /// The user's name, 401 when anonymous.
    #[get]
    #[path("/me")]
    #[produces("text/plain")]
    async fn me(&self, #[resolve] user: CurrentUser) -> String {
        user.0.name
    }

    /// The user's profile, 401 when anonymous.
    #[get]
    #[path("/profile")]
    #[produces("application/json")]
    async fn profile(&self, #[resolve] user: CurrentUser) -> Profile {
        Profile { name: user.0.name, admin: user.0.admin }
    }

    /// Anyone: the principal, when there is one, read as a request attribute.
    #[get]
    #[path("/hello")]
    #[produces("text/plain")]
    async fn hello(&self, #[request_attribute] principal: Option<&Principal>) -> String {
        format!("hello, {}", principal.map_or("stranger", |p| p.name.as_str()))
    }
}

/// The application: the interceptor on `/api/**`.
pub fn app() -> Restlight {
    let tokens = Arc::new(Tokens::demo());
    Restlight::new().interceptor(Intercept::new(Authenticate { tokens }).include("/api/**"))
}

#[allow(dead_code)]
fn main() -> restlight::Result<()> {
    app().port(8080).run()
}
