//! Errors of route lookup (answered to the client) and of route table
//! compilation (startup).

use std::fmt;

use http::{HeaderValue, StatusCode};

use restlight_grammar::template::{char_range, TemplateError};

use super::RouteEntry;
use crate::media::MediaType;

/// Why a request found no route. Each variant maps to one status.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RouteError {
    /// No template matches the path: 404.
    NotFound,
    /// The path matches but not the method: 405 with this `Allow`.
    MethodNotAllowed {
        /// The methods of the matched template group, HEAD and OPTIONS included.
        allow: HeaderValue,
    },
    /// No route for the method consumes the request's Content-Type: 415.
    UnsupportedMediaType {
        /// The Content-Type of the request, as sent.
        content_type: String,
        /// Every type the routes for the method consume.
        consumable: Vec<MediaType>,
    },
    /// No route can produce a type the client accepts: 406.
    NotAcceptable {
        /// The Accept header, as sent.
        accept: String,
        /// Every type the candidate routes produce.
        producible: Vec<MediaType>,
    },
    /// A malformed path: bad or truncated percent-escape, NUL, invalid UTF-8
    /// after decoding: 400.
    BadPath {
        /// What is wrong, for the problem-details body.
        reason: String,
    },
    /// The routes for the path and method all have parameter conditions
    /// (Spring's `params`), and the query string meets none of them: 400,
    /// as Spring answers.
    UnsatisfiedParams {
        /// The conditions of each such route, `version=2, !debug`.
        conditions: Vec<String>,
    },
}

impl RouteError {
    /// The response status for this error.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            RouteError::NotFound => StatusCode::NOT_FOUND,
            RouteError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            RouteError::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            RouteError::NotAcceptable { .. } => StatusCode::NOT_ACCEPTABLE,
            RouteError::BadPath { .. } | RouteError::UnsatisfiedParams { .. } => StatusCode::BAD_REQUEST,
        }
    }
}

fn list(types: &[MediaType]) -> String {
    types.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RouteError::NotFound => f.write_str("no route matches the path"),
            RouteError::MethodNotAllowed { allow } => {
                write!(f, "method not allowed; allowed: {}", allow.to_str().unwrap_or_default())
            }
            RouteError::UnsupportedMediaType { content_type, consumable } => {
                write!(f, "content type `{content_type}` is not supported; supported: {}", list(consumable))
            }
            RouteError::NotAcceptable { accept, producible } => {
                write!(f, "no acceptable representation for `Accept: {accept}`; available: {}", list(producible))
            }
            RouteError::BadPath { reason } => write!(f, "malformed request path: {reason}"),
            RouteError::UnsatisfiedParams { conditions } => {
                let each: Vec<String> = conditions.iter().map(|c| format!("`{c}`")).collect();
                write!(f, "the query parameters meet no route's conditions: {}", each.join(" or "))
            }
        }
    }
}

impl std::error::Error for RouteError {}

/// One problem of a route table: an error of [`RouterError`], or a warning
/// of [`Router::new`](super::Router::new) ([`RouterProblem::Shadowed`],
/// [`RouterProblem::Outranked`]).
///
/// Each names the routes involved, with their source locations; the
/// `Display` is one line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RouterProblem {
    /// A template the grammar rejects (the macros reject it at compile time).
    BadTemplate {
        /// The route.
        route: RouteEntry,
        /// The mistake, with its bytes in the template.
        error: TemplateError,
    },
    /// A variable's regex that does not compile.
    BadRegex {
        /// The route.
        route: RouteEntry,
        /// The variable.
        var: String,
        /// Its regex.
        regex: String,
        /// The regex engine's (`regex-lite`) reason.
        reason: String,
    },
    /// A template whose matcher cannot be compiled.
    Unroutable {
        /// The first route of the template's group.
        route: RouteEntry,
        /// Why.
        reason: String,
    },
    /// Two routes that no request can tell apart: same method, equivalent
    /// templates, the same consumes and the same produces (a route that
    /// states none consumes or produces `*/*`).
    Conflict {
        /// The first route (in the order of the group).
        first: RouteEntry,
        /// The second route.
        second: RouteEntry,
    },
    /// A route that is never selected because `winner`, of the same
    /// method and an equivalent template, consumes and produces everything
    /// it does and wins every tie (a warning).
    Outranked {
        /// The route never selected.
        route: RouteEntry,
        /// The route chosen instead.
        winner: RouteEntry,
    },
    /// A route that is never selected because `winner` matches the same
    /// paths and takes precedence (a warning).
    Shadowed {
        /// The route never selected.
        route: RouteEntry,
        /// The first route of the winning group.
        winner: RouteEntry,
    },
}

fn media_list(types: &[MediaType]) -> String {
    if types.is_empty() {
        return "*/*".to_owned();
    }
    list(types)
}

impl fmt::Display for RouterProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RouterProblem::BadTemplate { route: r, error } => {
                let at = char_range(&r.template, &error.at());
                write!(
                    f,
                    "invalid template `{}` of `{}` at {}: {error} (character {})",
                    r.template,
                    r.name,
                    r.location,
                    at.start + 1
                )
            }
            RouterProblem::BadRegex { route: r, var, regex, reason } => write!(
                f,
                "invalid template `{}` of `{}` at {}: invalid regex `{regex}` for variable `{var}`: {reason}",
                r.template, r.name, r.location
            ),
            RouterProblem::Unroutable { route: r, reason } => {
                write!(f, "template `{}` of `{}` at {}: {reason}", r.template, r.name, r.location)
            }
            RouterProblem::Conflict { first: a, second: b } => write!(
                f,
                "conflicting routes `{}` ({}) and `{}` ({}): both {} `{}` / `{}`, same consumes [{}] / [{}], same produces [{}]",
                a.name,
                a.location,
                b.name,
                b.location,
                a.method,
                a.template,
                b.template,
                media_list(&a.consumes),
                media_list(&b.consumes),
                media_list(&a.produces),
            ),
            RouterProblem::Outranked { route: e, winner } => write!(
                f,
                "route `{}` ({} `{}` at {}) is never selected: `{}` ({}) consumes [{}] and produces [{}], everything it does, and wins every tie",
                e.name,
                e.method,
                e.template,
                e.location,
                winner.name,
                winner.location,
                media_list(&winner.consumes),
                media_list(&winner.produces),
            ),
            RouterProblem::Shadowed { route: e, winner } => write!(
                f,
                "route `{}` ({} `{}` at {}) is never selected: `{}` ({}) matches the same paths and takes precedence",
                e.name, e.method, e.template, e.location, winner.template, winner.location
            ),
        }
    }
}

/// Why a route table could not be compiled: every problem at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouterError {
    problems: Vec<RouterProblem>,
}

impl RouterError {
    pub(crate) fn new(problems: Vec<RouterProblem>) -> RouterError {
        RouterError { problems }
    }

    /// The number of conflicting route pairs among the problems.
    #[must_use]
    pub fn conflicts(&self) -> usize {
        self.problems.iter().filter(|p| matches!(p, RouterProblem::Conflict { .. })).count()
    }

    /// Every problem (bad templates first, then conflicts).
    #[must_use]
    pub fn problems(&self) -> &[RouterProblem] {
        &self.problems
    }
}

impl fmt::Display for RouterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        write!(f, "the route table has {n} problem{}:", if n == 1 { "" } else { "s" })?;
        for problem in &self.problems {
            write!(f, "\n  - {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RouterError {}
