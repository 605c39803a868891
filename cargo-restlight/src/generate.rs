//! Writes a new service's directory.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::name::{self, InvalidName};
use crate::source::Source;
use crate::template::{render, values, Style, Variant};

/// What to generate, and where.
#[derive(Debug, Clone)]
pub struct Options {
    /// The package name, also the directory's.
    pub name: String,
    /// Which service.
    pub variant: Variant,
    /// The annotation style of its resources.
    pub style: Style,
    /// Where the `restlight` dependency comes from.
    pub source: Source,
    /// The directory the project's directory is created in.
    pub parent: PathBuf,
}

/// Why nothing was generated.
#[derive(Debug)]
pub enum GenerateError {
    /// The name cannot be a package name.
    Name(InvalidName),
    /// The project's directory exists already; it was left alone.
    Exists(PathBuf),
    /// A directory or file could not be written; what was written is removed.
    Io(PathBuf, io::Error),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Name(err) => err.fmt(f),
            Self::Exists(dir) => {
                write!(f, "{} already exists: choose another name, or move the directory away", dir.display())
            }
            Self::Io(path, err) => write!(f, "cannot write {}: {err}", path.display()),
        }
    }
}

impl std::error::Error for GenerateError {}

/// Creates `parent/name` with the variant's files and returns its path.
/// The directory must not exist: nothing is ever overwritten.
///
/// # Errors
/// [`GenerateError`]: an invalid name, an existing directory, or a write
/// that failed (the new directory is then removed).
pub fn generate(options: &Options) -> Result<PathBuf, GenerateError> {
    name::check(&options.name).map_err(GenerateError::Name)?;
    let dir = options.parent.join(&options.name);
    match fs::create_dir(&dir) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => return Err(GenerateError::Exists(dir)),
        Err(err) => return Err(GenerateError::Io(dir, err)),
    }
    let values = values(&options.name, options.style, &options.source);
    let written = options.variant.files().iter().try_for_each(|file| {
        let path = dir.join(file.path);
        write(&path, &render(file.template, &values), file.executable).map_err(|err| GenerateError::Io(path, err))
    });
    match written {
        Ok(()) => Ok(dir),
        Err(err) => {
            let _ = fs::remove_dir_all(&dir);
            Err(err)
        }
    }
}

fn write(path: &Path, text: &str, executable: bool) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::write(path, text)?;
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::built_from;

    fn options(parent: &Path, name: &str, variant: Variant) -> Options {
        Options {
            name: name.to_owned(),
            variant,
            style: Style::Jaxrs,
            source: Source::checkout(&built_from()).unwrap(),
            parent: parent.to_path_buf(),
        }
    }

    fn files_under(dir: &Path) -> Vec<String> {
        let mut found = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(at) = stack.pop() {
            for entry in fs::read_dir(at).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    found.push(path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"));
                }
            }
        }
        found.sort();
        found
    }

    #[test]
    fn the_default_variant_writes_a_whole_service() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = generate(&options(tmp.path(), "demo", Variant::Default)).unwrap();
        assert_eq!(dir, tmp.path().join("demo"));
        assert_eq!(
            files_under(&dir),
            [
                ".ci/run",
                ".dockerignore",
                ".gitignore",
                "Cargo.toml",
                "Dockerfile",
                "README.md",
                "k8s/deployment.yaml",
                "k8s/hpa.yaml",
                "k8s/service.yaml",
                "restlight.toml",
                "src/lib.rs",
                "src/main.rs",
                "src/users.rs",
                "tests/socket.rs",
                "tests/users.rs",
            ]
        );
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(manifest.contains(&Source::checkout(&built_from()).unwrap().dependency()), "{manifest}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.join(".ci/run")).unwrap().permissions().mode();
            assert_eq!(mode & 0o111, 0o111, "the CI script is executable");
        }
    }

    #[test]
    fn the_minimal_variant_writes_three_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = generate(&options(tmp.path(), "tiny", Variant::Minimal)).unwrap();
        assert_eq!(files_under(&dir), [".gitignore", "Cargo.toml", "src/main.rs"]);
    }

    #[test]
    fn an_existing_directory_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("demo");
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("keep.txt"), "mine").unwrap();
        let err = generate(&options(tmp.path(), "demo", Variant::Default)).unwrap_err();
        assert!(matches!(&err, GenerateError::Exists(at) if *at == dir), "{err:?}");
        assert!(err.to_string().starts_with(&format!("{} already exists", dir.display())), "{err}");
        assert_eq!(files_under(&dir), ["keep.txt"]);
        assert_eq!(fs::read_to_string(dir.join("keep.txt")).unwrap(), "mine");
    }

    #[test]
    fn an_invalid_name_creates_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let err = generate(&options(tmp.path(), "my service", Variant::Default)).unwrap_err();
        assert!(matches!(err, GenerateError::Name(_)), "{err:?}");
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}
