use restlight::{FromRequest, HttpError, RequestContext, ResolveContext};

struct CurrentUser(String);

impl FromRequest for CurrentUser {
    type Error = HttpError;
    async fn from_request(req: &RequestContext, _: &ResolveContext) -> Result<Self, HttpError> {
        req.header("x-user").map(|u| CurrentUser(u.to_owned())).ok_or_else(|| HttpError::unauthorized("sign in"))
    }
}

#[derive(Default)]
struct Me;

#[restlight::path("/me")]
impl Me {
    #[get]
    async fn me(&self, user: CurrentUser) -> String {
        user.0
    }
}

fn main() {}
