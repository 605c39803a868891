//! Where the generated service's `restlight` dependency comes from.

use std::fmt;
use std::path::{Path, PathBuf};

/// The source of the `restlight` dependency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A checkout of the Restlight repository on this machine (an absolute
    /// path, so the generated project can live anywhere).
    Path(PathBuf),
    /// A git repository, at its default branch's head or at `rev`.
    Git {
        /// The repository's URL.
        url: String,
        /// A commit, tag or branch name.
        rev: Option<String>,
    },
}

/// A directory that is not a Restlight checkout.
#[derive(Debug)]
pub struct NotACheckout {
    /// The directory.
    pub path: PathBuf,
    /// Why it is not one.
    pub reason: String,
}

impl fmt::Display for NotACheckout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a Restlight checkout ({}); pass --restlight-path DIR or --restlight-git URL",
            self.path.display(),
            self.reason
        )
    }
}

impl std::error::Error for NotACheckout {}

/// The checkout this tool was built from: `cargo install --path
/// cargo-restlight` builds it in place, so this is the repository's root.
#[must_use]
pub fn built_from() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

impl Source {
    /// A path source for the checkout at `dir`, made absolute.
    ///
    /// # Errors
    /// [`NotACheckout`] when `dir` does not exist or its `Cargo.toml` is not
    /// the `restlight` package's.
    pub fn checkout(dir: &Path) -> Result<Self, NotACheckout> {
        let fail = |reason: &str| NotACheckout { path: dir.to_path_buf(), reason: reason.to_owned() };
        let dir = dir.canonicalize().map_err(|e| fail(&e.to_string()))?;
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).map_err(|_| fail("no Cargo.toml"))?;
        if !manifest.lines().any(|line| line.trim() == "name = \"restlight\"") {
            return Err(fail("its Cargo.toml is not the `restlight` package's"));
        }
        Ok(Self::Path(dir))
    }

    /// The `restlight = ...` line of the generated `Cargo.toml`.
    #[must_use]
    pub fn dependency(&self) -> String {
        match self {
            Self::Path(dir) => format!("restlight = {{ path = {} }}", toml_string(&dir.to_string_lossy())),
            Self::Git { url, rev: None } => format!("restlight = {{ git = {} }}", toml_string(url)),
            Self::Git { url, rev: Some(rev) } => {
                format!("restlight = {{ git = {}, rev = {} }}", toml_string(url), toml_string(rev))
            }
        }
    }

    /// Where Restlight comes from, in words.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Path(dir) => format!("the checkout at `{}`", dir.display()),
            Self::Git { url, rev: None } => format!("the git repository `{url}`"),
            Self::Git { url, rev: Some(rev) } => format!("the git repository `{url}` at `{rev}`"),
        }
    }
}

/// A TOML basic string, which is also a JSON string.
pub(crate) fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_lines_for_path_and_git() {
        assert_eq!(
            Source::Path(PathBuf::from("/src/restlight")).dependency(),
            r#"restlight = { path = "/src/restlight" }"#
        );
        assert_eq!(
            Source::Path(PathBuf::from(r#"C:\src\"quoted""#)).dependency(),
            r#"restlight = { path = "C:\\src\\\"quoted\"" }"#
        );
        let git =
            |rev: Option<&str>| Source::Git { url: "https://git.example/restlight".into(), rev: rev.map(Into::into) };
        assert_eq!(git(None).dependency(), r#"restlight = { git = "https://git.example/restlight" }"#);
        assert_eq!(
            git(Some("v0.1.0")).dependency(),
            r#"restlight = { git = "https://git.example/restlight", rev = "v0.1.0" }"#
        );
    }

    #[test]
    fn dependency_lines_are_valid_toml() {
        let sources = [
            Source::Path(PathBuf::from(r#"C:\a "b"\c"#)),
            Source::Git { url: "ssh://git@host/r.git".into(), rev: Some("0123abc".into()) },
        ];
        for source in sources {
            let table: toml::Table = toml::from_str(&source.dependency()).expect("parses");
            let dep = table["restlight"].as_table().unwrap();
            match &source {
                Source::Path(dir) => assert_eq!(dep["path"].as_str(), Some(dir.to_str().unwrap())),
                Source::Git { url, rev } => {
                    assert_eq!(dep["git"].as_str(), Some(url.as_str()));
                    assert_eq!(dep["rev"].as_str(), rev.as_deref());
                }
            }
        }
    }

    #[test]
    fn the_checkout_built_from_is_a_checkout() {
        let source = Source::checkout(&built_from()).expect("the repository root");
        let Source::Path(dir) = source else { panic!("a path source") };
        assert!(dir.is_absolute());
        assert!(dir.join("cargo-restlight").is_dir());
    }

    #[test]
    fn other_directories_are_not_checkouts() {
        let empty = tempfile::tempdir().unwrap();
        let err = Source::checkout(empty.path()).unwrap_err();
        assert!(err.to_string().contains("no Cargo.toml"), "{err}");
        assert!(err.to_string().contains("--restlight-path"), "{err}");
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let err = Source::checkout(crate_dir).unwrap_err();
        assert!(err.to_string().contains("not the `restlight` package's"), "{err}");
        assert!(Source::checkout(&empty.path().join("missing")).is_err());
    }
}
