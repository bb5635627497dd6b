//! Project chores: `cargo xtask <task>`. See `cargo xtask help`.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{Context, Result, bail};

mod schemas;

const HELP: &str = "\
cargo xtask <task>

Tasks:
  schemas [--check]     regenerate schemas/*.schema.json from the citeproof-model types;
                        --check fails (exit 1) when the committed files differ
  conformance [ARGS]    run the conformance suite (see README)
";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode> {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    match task.as_deref() {
        Some("schemas") => schemas::run(&workspace_root(), &rest),
        Some("conformance") => conformance(&rest),
        Some("help") | Some("--help") | Some("-h") | None => {
            print!("{HELP}");
            Ok(ExitCode::SUCCESS)
        }
        Some(other) => bail!("unknown task `{other}`\n{HELP}"),
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Runs the conformance suite through the `citeproof` binary, built in release mode.
fn conformance(args: &[String]) -> Result<ExitCode> {
    let root = workspace_root();
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(&root)
            .args([
                "run",
                "--quiet",
                "--release",
                "-p",
                "citeproof-cli",
                "--",
                "conformance",
            ])
            .args(args.iter().filter(|a| a.as_str() != "--"))
            .status()
            .context("running cargo")?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => ExitCode::from(u8::try_from(c).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}
