//! `cargo restlight`: starts a Restlight service with `cargo restlight new`
//! and prints a service's routes with `cargo restlight routes`.
//!
//! The library holds what the command does, so it is tested without a
//! process: [`name::check`] validates the package name, [`source::Source`]
//! says where the `restlight` dependency comes from, [`template`] holds the
//! files of each [`template::Variant`] and [`generate`] writes them;
//! [`import`] writes a project from an OpenAPI document.

pub mod generate;
pub mod import;
pub mod name;
pub mod source;
pub mod template;
