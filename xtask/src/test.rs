//! `cargo xtask test`: the README's test command. Sets up the cross-checks' environment
//! (devenv), then runs `cargo test --workspace` with every cross-check required.

use std::{path::Path, process::Command, process::ExitCode};

use anyhow::{Context, Result};

use crate::devenv;

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let env = devenv::prepare(root)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["test", "--workspace"])
        .args(args)
        .envs(env.test_vars()?)
        .current_dir(root)
        .status()
        .context("cannot run cargo test")?;
    Ok(if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
