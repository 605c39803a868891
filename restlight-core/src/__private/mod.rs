//! Support for the code `restlight-macros` generates. Not public API: names
//! and signatures here change without notice.
//!
//! The probes use autoref specialisation: the macro writes
//! `(&&&Probe).method()`, and method resolution picks the most specific impl
//! whose bounds the concrete type meets, at compile time, with no runtime cost.

use std::error::Error as StdError;
use std::marker::PhantomData;
use std::sync::Arc;

use http::{HeaderMap, Uri};
pub use http::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use crate::__rl_route_doc as route_doc;
pub use crate::app::Dispatched;
pub use crate::bean::{check_bean, BeanParam};
pub use crate::bind::Bindings;
pub use crate::descriptor::{HandlerFactory, RouteDescriptor, SchedulerName};
pub use crate::entity::FromBody;
pub use crate::error::HttpError;
pub use crate::executor::handoff::{handoff, Giver, Taker};
pub use crate::executor::scheduler::cores;
pub use crate::executor::workers::{Adopted, Held, Workers};
pub use crate::handler::{ready_now, BoxFuture, Handler};
pub use crate::intercept::registry::{InterceptorDescriptor, OptOut};
pub use crate::intercept::Intercept;
pub use crate::locator::{
    flatten_nested, flatten_root, step, sub_handler, FlatRoute, Located, LocatorDescriptor, LocatorInfo, Step,
    SubFactory, SubHandler, SubResource, SubRoute,
};
pub use crate::mapper::{map_local, AdviceDescriptor, AdviceMapper};
pub use crate::meta::{ParamMeta, ParamSource};
pub use crate::param::{
    encoded_optional, encoded_repeated, encoded_required, optional, path_optional, path_required, repeated, required,
    FromParam,
};
pub use crate::request::RequestContext;
pub use crate::resolve::ResolveContext;
pub use crate::response::{Entity, IntoResponse, Response};
#[cfg(feature = "openapi")]
pub use crate::route_doc::records::*;
pub use crate::route_doc::DocRef;
pub use crate::router::select::allow_header;
pub use crate::router::Precedence;
pub use crate::startup::StartupError;
pub use crate::validate::validate_entity;
pub use inventory;
pub use restlight_grammar::media::{MediaRange, Param as MediaParam};
pub use restlight_grammar::template::{Literal, Piece, Template, Var};
#[cfg(feature = "openapi")]
pub use schemars::{Schema, SchemaGenerator};

/// Compile-time check that a parameter type converts from text; the macro
/// spans the call at the user's type so the error lands there.
pub const fn assert_from_param<T: FromParam>() {}

/// A `#[max_body(..)]` size as a limit: one past the address space is no limit.
#[must_use]
pub const fn body_limit(bytes: u64) -> usize {
    if bytes > usize::MAX as u64 {
        usize::MAX
    } else {
        bytes as usize
    }
}

/// Turns an error into its problem-details response.
#[must_use]
pub fn error_response<R: From<Response>>(error: HttpError) -> R {
    R::from(error.into_response())
}

/// `#[response_status(..)]`: a successful response (200) gets `status`;
/// with a reason, it becomes the problem-details answer of `status` with
/// the reason as its detail, as Spring sends an error with the reason.
/// Other responses (errors, a status the handler chose) pass unchanged.
#[must_use]
pub fn response_status(res: Response, status: u16, reason: Option<&'static str>) -> Response {
    let Ok(status) = http::StatusCode::from_u16(status) else { return res };
    if res.status() != http::StatusCode::OK {
        return res;
    }
    match reason {
        Some(reason) => HttpError::new(status, reason).into_response(),
        None => {
            let mut res = res;
            *res.status_mut() = status;
            res
        }
    }
}

/// `#[request_body(required = false)] body: Option<T>`: `None` when the
/// request has no body, else the entity decoded as usual.
///
/// # Errors
/// As the entity's: 400 for malformed input, 415 for an unreadable type.
pub fn optional_entity<T: DeserializeOwned>(ctx: &RequestContext, meta: &ParamMeta) -> Result<Option<T>, HttpError> {
    if ctx.body().is_empty() {
        return Ok(None);
    }
    crate::entity::decode_with(ctx, meta).map(Some)
}

mod context;
mod entity;
mod part;
mod resolve;
mod resource;
mod returns;

pub use context::*;
pub use entity::*;
pub use part::*;
pub use resolve::*;
pub use resource::*;
pub use returns::*;
