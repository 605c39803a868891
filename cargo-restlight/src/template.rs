//! The files of each variant, kept under `templates/` and filled in by
//! replacing `{{key}}` placeholders.

use crate::name::{crate_name, k8s_name};
use crate::source::{toml_string, Source};

/// Which service to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// The users API with its repository bean, configuration, actuator,
    /// tests, CI script, Dockerfile and Kubernetes manifests.
    Default,
    /// One resource and `main`, nothing else.
    Minimal,
}

/// The annotation style of the generated resources. Everything but the
/// resource code (configuration, tests, container, manifests) is the same
/// for both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Style {
    /// JAX-RS-style: `#[restlight::path]`, `#[get]`, `#[path_param]`, ...
    #[default]
    Jaxrs,
    /// Spring-style: `#[restlight::rest_controller]`, `#[get_mapping]`,
    /// `#[path_variable]`, `#[exception_handler]`, ...
    Spring,
}

/// The resource code of each style, filled into the `{{users_resource}}`
/// and `{{hello_resource}}` placeholders of the shared templates.
struct Resources {
    users: &'static str,
    hello: &'static str,
    kind: &'static str,
    noun: &'static str,
    attribute: &'static str,
    description: &'static str,
}

impl Style {
    fn resources(self) -> Resources {
        match self {
            Self::Jaxrs => Resources {
                users: include_str!("../templates/resource/jaxrs/users.rs"),
                hello: include_str!("../templates/resource/jaxrs/hello.rs"),
                kind: "Resources",
                noun: "resource",
                attribute: "#[restlight::path]",
                description: "JAX-RS-style annotations: `#[get]`, `#[path_param]`, ...",
            },
            Self::Spring => Resources {
                users: include_str!("../templates/resource/spring/users.rs"),
                hello: include_str!("../templates/resource/spring/hello.rs"),
                kind: "Controllers",
                noun: "controller",
                attribute: "#[restlight::rest_controller]",
                description:
                    "Spring-style annotations: `#[get_mapping]`, `#[path_variable]`, `#[exception_handler]`, ...",
            },
        }
    }
}

/// One file to write: its path in the project, its template, and whether it
/// is a script to be made executable.
#[derive(Debug, Clone, Copy)]
pub struct File {
    /// Relative to the project's directory, `/`-separated.
    pub path: &'static str,
    /// The text, with placeholders.
    pub template: &'static str,
    /// Whether the file is made executable.
    pub executable: bool,
}

macro_rules! files {
    ($dir:literal: $($path:literal $(, $exec:ident)?;)*) => {
        &[$(File {
            path: $path,
            template: include_str!(concat!("../templates/", $dir, "/", $path)),
            executable: files!(@exec $($exec)?),
        }),*]
    };
    (@exec) => { false };
    (@exec executable) => { true };
}

const DEFAULT: &[File] = files!("default":
    "Cargo.toml";
    "README.md";
    "restlight.toml";
    "src/main.rs";
    "src/lib.rs";
    "src/users.rs";
    "tests/users.rs";
    "tests/socket.rs";
    ".ci/run", executable;
    ".gitignore";
    ".dockerignore";
    "Dockerfile";
    "k8s/deployment.yaml";
    "k8s/service.yaml";
    "k8s/hpa.yaml";
);

const MINIMAL: &[File] = files!("minimal":
    "Cargo.toml";
    "src/main.rs";
    ".gitignore";
);

impl Variant {
    /// The variant's files, in the order they are written.
    #[must_use]
    pub fn files(self) -> &'static [File] {
        match self {
            Self::Default => DEFAULT,
            Self::Minimal => MINIMAL,
        }
    }
}

/// The placeholder values for a service named `name` in `style` depending
/// on `source`. The resource code comes first, so that its own placeholders
/// are filled by the later values.
#[must_use]
pub fn values(name: &str, style: Style, source: &Source) -> Vec<(&'static str, String)> {
    let resources = style.resources();
    let (build_args, copy, note) = match source {
        Source::Path(dir) => {
            let quoted = toml_string(&dir.to_string_lossy());
            let dir = dir.display();
            (
                format!("--build-context restlight={quoted} "),
                format!(
                    "# The Restlight checkout, where Cargo.toml's path dependency looks for it.\n\
                     COPY --from=restlight --exclude=**/target --exclude=.git [\".\", {quoted}]\n"
                ),
                format!(
                    "\nThe image build copies the Restlight checkout at `{dir}` (a named build context, which needs \
                     BuildKit), without its `target` directories, to the same path inside the builder, where \
                     `Cargo.toml` looks for it.\n"
                ),
            )
        }
        Source::Git { .. } => (String::new(), String::new(), String::new()),
    };
    vec![
        ("users_resource", resources.users.trim_end().to_owned()),
        ("hello_resource", resources.hello.trim_end().to_owned()),
        ("resource_kind", resources.kind.to_owned()),
        ("resource_noun", resources.noun.to_owned()),
        ("resource_attribute", resources.attribute.to_owned()),
        ("style_description", resources.description.to_owned()),
        ("name", name.to_owned()),
        ("crate_name", crate_name(name)),
        ("k8s_name", k8s_name(name)),
        ("restlight_dep", source.dependency()),
        ("restlight_source", source.describe()),
        ("docker_build_args", build_args),
        ("docker_restlight_copy", copy),
        ("docker_note", note),
    ]
}

/// Replaces every `{{key}}` of `values` in `template`.
#[must_use]
pub fn render(template: &str, values: &[(&str, String)]) -> String {
    values.iter().fold(template.to_owned(), |text, (key, value)| text.replace(&format!("{{{{{key}}}}}"), value))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn every_file() -> impl Iterator<Item = &'static File> {
        Variant::Default.files().iter().chain(Variant::Minimal.files())
    }

    #[test]
    fn every_placeholder_is_filled_for_both_sources() {
        let sources = [
            Source::Path(PathBuf::from("/src/restlight")),
            Source::Git { url: "https://g.example/r".into(), rev: None },
        ];
        for (source, style) in sources.iter().flat_map(|s| [(s, Style::Jaxrs), (s, Style::Spring)]) {
            let values = values("user-service", style, source);
            for file in every_file() {
                let text = render(file.template, &values);
                assert!(!text.contains("{{"), "{} keeps a placeholder for {source:?} {style:?}", file.path);
            }
        }
    }

    #[test]
    fn names_and_dependency_are_substituted() {
        let values = values("user-service", Style::Jaxrs, &Source::Path(PathBuf::from("/src/restlight")));
        let manifest = render(Variant::Default.files()[0].template, &values);
        assert!(manifest.contains("name = \"user-service\""));
        assert!(manifest.contains("restlight = { path = \"/src/restlight\" }"));
        let main = Variant::Default.files().iter().find(|f| f.path == "src/main.rs").unwrap();
        assert!(render(main.template, &values).contains("use user_service::{"));
        let docker = Variant::Default.files().iter().find(|f| f.path == "Dockerfile").unwrap();
        let docker = render(docker.template, &values);
        assert!(
            docker.contains("COPY --from=restlight --exclude=**/target --exclude=.git [\".\", \"/src/restlight\"]\n")
        );
        assert!(docker.contains("docker build --build-context restlight=\"/src/restlight\" -t user-service ."));
    }

    #[test]
    fn each_style_writes_its_own_resources_into_the_same_files() {
        let source = Source::Git { url: "https://g.example/r".into(), rev: None };
        let file = |variant: Variant, path: &str, style: Style| {
            let file = variant.files().iter().find(|f| f.path == path).unwrap();
            render(file.template, &values("svc", style, &source))
        };
        let jaxrs = file(Variant::Default, "src/users.rs", Style::Jaxrs);
        let spring = file(Variant::Default, "src/users.rs", Style::Spring);
        assert!(jaxrs.contains("#[restlight::path(\"/users\")]") && !jaxrs.contains("_mapping"));
        assert!(spring.contains("#[restlight::rest_controller]") && spring.contains("#[exception_handler]"));
        assert!(!spring.contains("#[path_param]") && !spring.contains("#[restlight::path"));
        for text in [&jaxrs, &spring] {
            assert!(text.contains("pub trait UserRepository"), "the repository is shared");
        }
        let hello = file(Variant::Minimal, "src/main.rs", Style::Spring);
        assert!(hello.contains("#[get_mapping]") && hello.contains("fn main()"), "{hello}");
        let readme = file(Variant::Default, "README.md", Style::Spring);
        assert!(readme.contains("the `/users` controller (Spring-style annotations"), "{readme}");
    }

    #[test]
    fn the_minimal_variant_is_one_resource_and_main() {
        let paths: Vec<&str> = Variant::Minimal.files().iter().map(|f| f.path).collect();
        assert_eq!(paths, ["Cargo.toml", "src/main.rs", ".gitignore"]);
    }
}
