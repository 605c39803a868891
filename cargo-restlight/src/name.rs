//! Package names: what cargo and the generated code accept.

use std::fmt;

/// The longest name crates.io accepts.
const MAX_LEN: usize = 64;

/// Names the generated project cannot take: Rust's own crates, cargo's
/// reserved directory names, and the crates it depends on.
const RESERVED: &[&str] = &[
    "std",
    "core",
    "alloc",
    "proc_macro",
    "proc-macro",
    "test",
    "build",
    "deps",
    "examples",
    "incremental",
    "restlight",
    "restlight-grammar",
    "restlight-macros",
    "restlight-core",
    "restlight-server",
    "restlight_grammar",
    "restlight_macros",
    "restlight_core",
    "restlight_server",
    "serde",
    "serde_json",
    "tracing-subscriber",
    "tracing_subscriber",
];

/// Rust keywords, which cannot name a crate.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod",
    "move", "mut", "override", "priv", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait",
    "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Why a name cannot be a package name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidName {
    /// The name as given.
    pub name: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for InvalidName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "the service needs a name: `cargo restlight new NAME`")
        } else {
            write!(f, "`{}` cannot name the service: {}", self.name, self.reason)
        }
    }
}

impl std::error::Error for InvalidName {}

/// Checks that `name` can be the generated package's name (and, with `-`
/// read as `_`, its crate name): ASCII letters, digits, `-` and `_`, not
/// starting with a digit or `-`, at most 64 characters, not a keyword nor
/// a reserved name.
///
/// # Errors
/// [`InvalidName`] saying which rule the name breaks.
pub fn check(name: &str) -> Result<(), InvalidName> {
    let fail = |reason: String| Err(InvalidName { name: name.to_owned(), reason });
    let Some(first) = name.chars().next() else {
        return fail("the name is empty".to_owned());
    };
    if let Some(bad) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        return fail(format!("`{bad}` is not allowed; use ASCII letters, digits, `-` and `_`"));
    }
    if first.is_ascii_digit() || first == '-' {
        return fail(format!("a package name cannot start with `{first}`"));
    }
    if name.len() > MAX_LEN {
        return fail(format!("{} characters is over the limit of {MAX_LEN}", name.len()));
    }
    if KEYWORDS.contains(&name) {
        return fail("it is a Rust keyword".to_owned());
    }
    if RESERVED.contains(&name) || RESERVED.contains(&crate_name(name).as_str()) {
        return fail("the name is reserved by Rust or cargo, or taken by a dependency of the service".to_owned());
    }
    Ok(())
}

/// The crate name code uses for the package: `-` becomes `_`.
#[must_use]
pub fn crate_name(name: &str) -> String {
    name.replace('-', "_")
}

/// The name of the service's Kubernetes objects and container image: a
/// DNS label (lower case, digits and `-`, at most 63 characters, starting
/// and ending with a letter or digit).
#[must_use]
pub fn k8s_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase().replace('_', "-");
    let trimmed: String = lower.trim_matches('-').chars().take(63).collect();
    let trimmed = trimmed.trim_end_matches('-');
    if trimmed.is_empty() {
        "service".to_owned()
    } else {
        trimmed.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_package_names_are_accepted() {
        for name in ["demo", "user-service", "users_v2", "a", "X1", &"n".repeat(64)] {
            assert_eq!(check(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn bad_names_are_rejected_with_the_reason() {
        let cases = [
            ("my service", "` ` is not allowed"),
            ("café", "`é` is not allowed"),
            ("users.rs", "`.` is not allowed"),
            ("1st", "cannot start with `1`"),
            ("-x", "cannot start with `-`"),
            ("fn", "Rust keyword"),
            ("test", "reserved"),
            ("restlight", "reserved"),
            ("serde-json", "reserved"),
            ("restlight_server", "reserved"),
        ];
        for (name, reason) in cases {
            let err = check(name).expect_err(name);
            assert!(err.reason.contains(reason), "{name}: {}", err.reason);
            assert!(err.to_string().starts_with(&format!("`{name}` cannot name the service: ")), "{err}");
        }
        assert_eq!(check("").unwrap_err().to_string(), "the service needs a name: `cargo restlight new NAME`");
        let long = "n".repeat(65);
        assert!(check(&long).unwrap_err().reason.contains("65 characters"));
    }

    #[test]
    fn the_crate_name_has_underscores() {
        assert_eq!(crate_name("user-service"), "user_service");
    }

    #[test]
    fn the_kubernetes_name_is_a_dns_label() {
        let cases = [
            ("demo", "demo"),
            ("User_Service", "user-service"),
            ("_private_", "private"),
            ("__", "service"),
            (&"a".repeat(64), &"a".repeat(63)),
        ];
        for (name, label) in cases {
            assert_eq!(k8s_name(name), label, "{name}");
        }
        assert_eq!(k8s_name(&format!("{}_b", "a".repeat(62))), "a".repeat(62));
    }
}
