//! `cargo xtask test`: the README's test command. Sets up the cross-checks' environment
//! (devenv), runs `cargo test --workspace` with every cross-check required, then the Python
//! package's tests: the wheel built with maturin in the dev profile, installed into `.venv/`,
//! and pytest over `crates/citeproof-py/tests` (the package, the example agent verified by the
//! CLI, the README's Python section, a fresh virtual environment, and the package's conformance
//! adapter over the whole suite). Arguments after `--` go to `cargo test` only; with any, the
//! Python part is not run (a selection of Rust tests is asked for).

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::Instant,
};

use anyhow::{Context, Result, bail};

use crate::devenv;

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let env = devenv::prepare(root)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .args(["test", "--workspace"])
        .args(args)
        .envs(env.test_vars()?)
        .current_dir(root)
        .status()
        .context("cannot run cargo test")?;
    if !status.success() {
        return Ok(ExitCode::FAILURE);
    }
    if !args.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let passed = python_package(root, &env)?;
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Builds the wheel, installs it into `.venv/` and runs pytest; true when every test passed.
///
/// The wheel is built in the dev profile: it reuses most of what `cargo test --workspace` just
/// compiled (277 s of CPU on the CI machine's cores, against 851 s for a release build from
/// scratch, measured 2026-11-27), and the tests check behaviour, not speed (the benchmark,
/// `benches/python_verify.py`, uses a release wheel).
fn python_package(root: &Path, env: &devenv::DevEnv) -> Result<bool> {
    let venv_bin = root.join(".venv/bin");
    let wheels = devenv::target_dir(root).join("wheels");
    if wheels.exists() {
        for entry in std::fs::read_dir(&wheels)? {
            let path = entry?.path();
            if is_citeproof_wheel(&path) {
                std::fs::remove_file(&path)?;
            }
        }
    }
    eprintln!("xtask: maturin build (dev profile, crates/citeproof-py)");
    let started = Instant::now();
    let status = Command::new(venv_bin.join("maturin"))
        .args([
            "build",
            "--quiet",
            "-m",
            "crates/citeproof-py/Cargo.toml",
            "-o",
        ])
        .arg(&wheels)
        .arg("--interpreter")
        .arg(venv_bin.join("python"))
        .current_dir(root)
        .status()
        .context("cannot run maturin of .venv/ (requirements-dev.txt pins it)")?;
    if !status.success() {
        bail!("maturin could not build the citeproof wheel");
    }
    eprintln!(
        "xtask: wheel built in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    let wheel = single_wheel(&wheels)?;
    let status = Command::new(venv_bin.join("python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--force-reinstall",
            "--no-deps",
        ])
        .arg(&wheel)
        .status()
        .context("cannot run pip of .venv/")?;
    if !status.success() {
        bail!("pip could not install {}", wheel.display());
    }
    let status = Command::new(venv_bin.join("python"))
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "crates/citeproof-py/tests",
        ])
        .envs(env.test_vars()?)
        .env(
            "CITEPROOF_BIN",
            devenv::target_dir(root).join("debug/citeproof"),
        )
        .env("CITEPROOF_WHEEL", &wheel)
        .current_dir(root)
        .status()
        .context("cannot run pytest of .venv/")?;
    Ok(status.success())
}

fn is_citeproof_wheel(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("citeproof-") && n.ends_with(".whl"))
}

/// The one wheel maturin wrote (one abi3 wheel for every CPython from 3.10).
fn single_wheel(dir: &Path) -> Result<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_citeproof_wheel(p))
        .collect();
    match found.len() {
        1 => Ok(found.remove(0)),
        n => bail!(
            "expected one citeproof wheel in {}, found {n}",
            dir.display()
        ),
    }
}
