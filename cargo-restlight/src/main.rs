//! `cargo restlight new NAME` and `cargo restlight routes`.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use cargo_restlight::generate::{generate, Options};
use cargo_restlight::source::{built_from, Source};
use cargo_restlight::template::{Style as TemplateStyle, Variant};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Cargo runs `cargo-restlight restlight ...` for `cargo restlight ...`.
#[derive(Debug, Parser)]
#[command(name = "cargo", bin_name = "cargo")]
enum Cargo {
    Restlight(Restlight),
}

/// Restlight services: start one, list its routes.
#[derive(Debug, Args)]
#[command(version)]
struct Restlight {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, Subcommand)]
enum Sub {
    /// Creates a service in a new directory NAME.
    New(New),
    /// Prints the route table of the service in the current directory,
    /// without serving it (any service whose `main` calls `Restlight::run`).
    Routes {
        /// The service's Cargo.toml. Default: the one cargo finds from the
        /// current directory.
        #[arg(long, value_name = "PATH")]
        manifest_path: Option<PathBuf>,
    },
    /// Creates a service from an OpenAPI 3.0 or 3.1 document (JSON or
    /// YAML): one resource per tag, a handler per operation answering 501,
    /// the schemas as Rust types, a test per operation.
    Import(Import),
}

#[derive(Debug, Args)]
struct Import {
    /// The OpenAPI document, the contract of the service replaced.
    spec: PathBuf,
    /// The directory to create (it must not exist).
    #[arg(long, value_name = "DIR", required_unless_present = "compare")]
    out: Option<PathBuf>,
    /// The annotation style of the resources.
    #[arg(long, value_enum, default_value_t = Style::Jaxrs)]
    style: Style,
    /// The package name. Default: the name of the `--out` directory.
    #[arg(long)]
    name: Option<String>,
    /// Instead of generating: compares SERVED, the document a service
    /// serves (`cargo run -- --openapi` in a generated one), with the
    /// contract, prints the differences and fails when there are any.
    #[arg(long, value_name = "SERVED", conflicts_with = "out")]
    compare: Option<PathBuf>,
    /// A Restlight checkout to depend on by path. Default: the checkout
    /// this tool was installed from.
    #[arg(long, value_name = "DIR", conflicts_with = "restlight_git")]
    restlight_path: Option<PathBuf>,
    /// A git repository of Restlight to depend on instead of a path.
    #[arg(long, value_name = "URL")]
    restlight_git: Option<String>,
    /// The commit, tag or branch of `--restlight-git`.
    #[arg(long, value_name = "REV", requires = "restlight_git")]
    rev: Option<String>,
}

#[derive(Debug, Args)]
struct New {
    /// The package name, also the directory created; asked for when
    /// missing, a terminal is attached and `CI` is not set.
    name: Option<String>,
    /// The annotation style of the resources.
    #[arg(long, value_enum, default_value_t = Style::Jaxrs)]
    style: Style,
    /// One resource and `main`, nothing else (no tests, config, container
    /// or manifests).
    #[arg(long)]
    minimal: bool,
    /// A Restlight checkout to depend on by path. Default: the checkout
    /// this tool was installed from.
    #[arg(long, value_name = "DIR", conflicts_with = "restlight_git")]
    restlight_path: Option<PathBuf>,
    /// A git repository of Restlight to depend on instead of a path.
    #[arg(long, value_name = "URL")]
    restlight_git: Option<String>,
    /// The commit, tag or branch of `--restlight-git`. Default: the
    /// repository's default branch.
    #[arg(long, value_name = "REV", requires = "restlight_git")]
    rev: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Style {
    /// `#[restlight::path]`, `#[get]`, `#[path_param]`, ...
    Jaxrs,
    /// `#[restlight::rest_controller]`, `#[get_mapping]`, `#[path_variable]`, ...
    Spring,
}

fn main() -> ExitCode {
    let Cargo::Restlight(args) = Cargo::parse();
    let result = match args.command {
        Sub::New(new) => new_service(new),
        Sub::Routes { manifest_path } => routes(manifest_path),
        Sub::Import(import) => import_spec(import),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn new_service(new: New) -> Result<(), Box<dyn std::error::Error>> {
    let name = match new.name {
        Some(name) => name,
        // Never in CI, even when it gives the job a terminal.
        None if io::stdin().is_terminal() && std::env::var_os("CI").is_none() => prompt("Service name")?,
        None => return Err("missing NAME: `cargo restlight new NAME`".into()),
    };
    let source = match (new.restlight_git, new.restlight_path) {
        (Some(url), _) => Source::Git { url, rev: new.rev },
        (None, Some(dir)) => Source::checkout(&dir)?,
        (None, None) => Source::checkout(&built_from())?,
    };
    let variant = if new.minimal { Variant::Minimal } else { Variant::Default };
    let style = match new.style {
        Style::Jaxrs => TemplateStyle::Jaxrs,
        Style::Spring => TemplateStyle::Spring,
    };
    let dir =
        generate(&Options { name: name.clone(), variant, style, source: source.clone(), parent: PathBuf::from(".") })?;
    println!("Created `{name}` in {} (Restlight from {}).", dir.display(), source.describe());
    println!();
    println!("    cd {name}");
    println!("    cargo run");
    Ok(())
}

/// `cargo restlight import`: generates, or with `--compare` checks.
fn import_spec(args: Import) -> Result<(), Box<dyn std::error::Error>> {
    use cargo_restlight::import;
    if let Some(served) = args.compare {
        let differences = import::compare(&import::read(&args.spec)?, &import::read(&served)?);
        for d in &differences {
            println!("{d}");
        }
        return match differences.len() {
            0 => Ok(()),
            n => Err(format!("{} differs from the contract {} in {n} place(s)", served.display(), args.spec.display())
                .into()),
        };
    }
    let source = match (args.restlight_git, args.restlight_path) {
        (Some(url), _) => Source::Git { url, rev: args.rev },
        (None, Some(dir)) => Source::checkout(&dir)?,
        (None, None) => Source::checkout(&built_from())?,
    };
    let style = match args.style {
        Style::Jaxrs => import::Style::Jaxrs,
        Style::Spring => import::Style::Spring,
    };
    let out = args.out.ok_or("missing `--out DIR`")?;
    let done = import::import(&import::Options { spec: args.spec, out, name: args.name, style, source })?;
    for w in &done.warnings {
        eprintln!("warning: {w}");
    }
    // Best effort: the generated code is readable as written, rustfmt makes it the project's style.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let _ = Command::new(cargo)
        .args(["fmt", "--manifest-path"])
        .arg(done.dir.join("Cargo.toml"))
        .stderr(std::process::Stdio::null())
        .status();
    println!(
        "Created `{}` in {}: {} operations in {} resources, {} warnings.",
        done.name,
        done.dir.display(),
        done.operations,
        done.resources,
        done.warnings.len()
    );
    println!();
    println!("    cd {}", done.dir.display());
    println!("    cargo test");
    Ok(())
}

/// Asks for a value on the terminal.
fn prompt(what: &str) -> io::Result<String> {
    print!("{what}: ");
    io::stdout().flush()?;
    let mut line = String::new();
    io::stdin().lock().read_line(&mut line)?;
    Ok(line.trim().to_owned())
}

/// Runs the service with `RESTLIGHT_PRINT_ROUTES=1`, which makes
/// `Restlight::run` print the route table instead of serving: any service
/// whose `main` calls `run` answers it.
fn routes(manifest_path: Option<PathBuf>) -> Result<(), Box<dyn std::error::Error>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["run", "--quiet"]);
    if let Some(path) = manifest_path {
        command.arg("--manifest-path").arg(path);
    }
    let status = command.env("RESTLIGHT_PRINT_ROUTES", "1").status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`RESTLIGHT_PRINT_ROUTES=1 cargo run` failed ({status})").into())
    }
}
