//! The grammars of Restlight, in one dependency-free crate shared by the
//! attribute macros (at compile time) and the router (at startup), so that a
//! template the macros accept is, by construction, one the router accepts.
//!
//! - [`template`]: JAX-RS path templates (`/users/{id: \d+}`), joined and
//!   written canonically;
//! - [`media`]: media types and `Accept` ranges (`text/*; q=0.5`);
//! - [`ant`]: Ant-style path patterns (`/api/**/*.json`) of interceptors;
//! - [`condition`]: Spring's parameter and header conditions of a mapping
//!   (`version=2`, `!debug`).
//!
//! Every parsed type borrows from its source where it can ([`Cow`] and
//! slices), so generated code can also write it as a `'static` constant;
//! errors are typed enums carrying the byte range of the fault, for a caret
//! under it.
//!
//! ```
//! use restlight_grammar::template::{Piece, Template};
//!
//! let t = Template::parse("/users/{ id : \\d+ }").unwrap();
//! assert_eq!(t.to_string(), "/users/{id: \\d+}");
//! let Piece::Var(var) = &t.pieces()[1] else { panic!() };
//! assert_eq!((&*var.name, var.regex.as_deref()), ("id", Some("\\d+")));
//!
//! let err = &Template::parse("/users/{id").unwrap_err()[0];
//! assert_eq!(err.to_string(), "unclosed `{` in the path template");
//! assert_eq!(err.at(), 7..8);
//! ```
//!
//! [`Cow`]: std::borrow::Cow
#![warn(missing_docs)]

pub mod ant;
pub mod condition;
pub mod media;
pub mod template;
