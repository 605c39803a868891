//! Errors of route lookup (answered to the client) and of route table
//! compilation (startup).

use std::fmt;

use http::{HeaderValue, StatusCode};

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
            RouteError::BadPath { .. } => StatusCode::BAD_REQUEST,
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
        }
    }
}

impl std::error::Error for RouteError {}

/// Why a route table could not be compiled: every problem at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouterError {
    problems: Vec<String>,
    conflicts: usize,
}

impl RouterError {
    pub(crate) fn new(problems: Vec<String>, conflicts: usize) -> RouterError {
        RouterError { problems, conflicts }
    }

    /// The number of conflicting route pairs among the problems.
    #[must_use]
    pub fn conflicts(&self) -> usize {
        self.conflicts
    }

    /// Every problem, one message each (bad templates first, then conflicts).
    #[must_use]
    pub fn problems(&self) -> &[String] {
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
