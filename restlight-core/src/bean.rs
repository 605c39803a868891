//! [`BeanParam`]: a struct gathered from several sources of the request,
//! the `@BeanParam` of JAX-RS.

use crate::bind::Bindings;
use crate::error::HttpError;
use crate::meta::{ParamMeta, ParamSource};
use crate::request::RequestContext;
use crate::startup::StartupError;

/// A handler parameter read from several sources at once, declared with
/// `#[bean_param]`. Derive it: every field names its source as a handler
/// parameter would (`#[path_param]`, `#[query_param]`, `#[header_param]`,
/// `#[cookie_param]`, `#[matrix_param]`, `#[form_param]`, with an optional
/// name and `#[default_value("..")]`); `Option<T>` is optional and
/// `Vec<T>` repeated, any [`FromParam`](crate::FromParam) type converts.
///
/// ```ignore
/// use restlight::prelude::*;
///
/// #[derive(BeanParam)]
/// pub struct Paging {
///     #[query_param] #[default_value("20")] limit: usize,
///     #[query_param] offset: Option<usize>,
///     #[header_param("X-Tenant")] tenant: Option<String>,
/// }
///
/// #[restlight::get("/items")]
/// async fn items(#[bean_param] page: Paging) -> String {
///     format!("{} from {:?} for {:?}", page.limit, page.offset, page.tenant)
/// }
/// ```
///
/// A value that is missing or does not convert is a 400 naming the
/// field's parameter, as for a plain parameter. A `#[path_param]` field
/// must name a variable of every route template the bean is used on: that
/// is checked at startup.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[bean_param]`",
    label = "not a bean parameter",
    note = "derive it: `#[derive(restlight::BeanParam)]` on a struct whose fields say where they come from (`#[query_param]`, `#[header_param]`, ...)"
)]
pub trait BeanParam: Sized + Send + 'static {
    /// The fields' parameters, in declaration order.
    const PARAMS: &'static [ParamMeta];

    /// Reads every field from the request.
    ///
    /// # Errors
    /// 400 naming the first field whose value is missing or does not convert.
    fn from_request(ctx: &RequestContext) -> Result<Self, HttpError>;
}

/// Checks at startup that the `#[path_param]` fields of `T` name variables
/// of `template`, the route's full path template.
///
/// # Errors
/// [`StartupError::UnknownPathVariable`] naming the field, the bean and the
/// route's variables.
pub fn check_bean<T: BeanParam>(bindings: &Bindings<'_>, template: &str) -> Result<(), StartupError> {
    let vars: Vec<String> = match restlight_grammar::template::Template::parse(template) {
        Ok(t) => t.vars().map(|v| v.name.to_string()).collect(),
        // A malformed template is reported by the router.
        Err(_) => return Ok(()),
    };
    for meta in T::PARAMS.iter().filter(|m| m.source == ParamSource::Path) {
        if !vars.iter().any(|v| v == meta.name) {
            return Err(StartupError::UnknownPathVariable {
                name: meta.name.to_owned(),
                bean: std::any::type_name::<T>(),
                route: bindings.route.to_owned(),
                variables: vars,
            });
        }
    }
    Ok(())
}
