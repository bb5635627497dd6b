//! The environment of the cross-checks, set up by the project itself so that a fresh machine
//! with only the Rust toolchain, Python 3 and node runs every test (none skips): a
//! project-local Python virtual environment (`.venv/`) from the pinned `requirements-dev.txt`,
//! and the node example adapter's locked packages (`npm ci`). Nothing is installed
//! system-wide; each step is redone only when its input changed.

use std::{
    ffi::OsString,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

/// What the tests and generators need on their `PATH` and in their environment.
#[derive(Debug)]
pub struct DevEnv {
    venv_bin: PathBuf,
}

impl DevEnv {
    /// `PATH` with the virtual environment first, so that every `python3` the tests start is
    /// the one with the pinned packages.
    pub fn path(&self) -> Result<OsString> {
        let mut dirs = vec![self.venv_bin.clone()];
        if let Some(path) = std::env::var_os("PATH") {
            dirs.extend(std::env::split_paths(&path));
        }
        std::env::join_paths(dirs).context("cannot build PATH with the virtual environment")
    }

    /// The environment of a test run: the venv's `PATH`, and every cross-check required (a
    /// missing interpreter or package is a failure, never a silent skip).
    pub fn test_vars(&self) -> Result<Vec<(&'static str, OsString)>> {
        Ok(vec![
            ("PATH", self.path()?),
            ("CITEPROOF_REQUIRE_PYTHON", "1".into()),
            ("CITEPROOF_REQUIRE_NODE", "1".into()),
        ])
    }
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` (relative to the repository root when it is
/// relative), else `target/`. Every chore that runs a built binary or reads cargo's output finds
/// it here, as cargo put it.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|d| if d.is_relative() { root.join(d) } else { d })
        .unwrap_or_else(|| root.join("target"))
}

/// Creates or refreshes `.venv/` and the node adapter's packages.
pub fn prepare(root: &Path) -> Result<DevEnv> {
    let venv_bin = python_venv(root)?;
    node_packages(root)?;
    Ok(DevEnv { venv_bin })
}

/// `.venv/` with the packages of `requirements-dev.txt`; reinstalled when that file changes
/// (a copy of it in the venv is the stamp).
pub fn python_venv(root: &Path) -> Result<PathBuf> {
    let venv = root.join(".venv");
    let bin = venv.join("bin");
    let requirements = root.join("requirements-dev.txt");
    let wanted = fs::read(&requirements)
        .with_context(|| format!("cannot read {}", requirements.display()))?;
    let stamp = venv.join("citeproof-requirements.txt");
    if !bin.join("python3").exists() {
        let python = std::env::var_os("CITEPROOF_PYTHON").unwrap_or_else(|| "python3".into());
        eprintln!("xtask: creating the Python virtual environment .venv/");
        let status = Command::new(&python)
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .with_context(|| format!("cannot run {}", python.to_string_lossy()))?;
        if !status.success() {
            bail!(
                "`{} -m venv .venv` failed; on Debian or Ubuntu install the python3-venv package",
                python.to_string_lossy()
            );
        }
    }
    let mut pip = Command::new(bin.join("python3"));
    pip.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "-r",
    ])
    .arg(&requirements);
    install_unless_stamped(
        &stamp,
        &wanted,
        pip,
        "installing requirements-dev.txt into .venv/",
        "pip could not install requirements-dev.txt into .venv/",
    )?;
    Ok(bin)
}

/// Runs `install` unless `stamp` already holds `wanted` (the dependency list it installs),
/// then writes the stamp: the packages are reinstalled exactly when their list changes.
fn install_unless_stamped(
    stamp: &Path,
    wanted: &[u8],
    mut install: Command,
    doing: &str,
    failed: &str,
) -> Result<()> {
    if fs::read(stamp).ok().as_deref() == Some(wanted) {
        return Ok(());
    }
    eprintln!("xtask: {doing}");
    let status = install
        .status()
        .with_context(|| format!("cannot run {:?} ({failed})", install.get_program()))?;
    if !status.success() {
        bail!("{failed}");
    }
    fs::write(stamp, wanted).with_context(|| format!("cannot write the stamp {}", stamp.display()))
}

/// `npm ci` of the node example adapter, when its lock file is newer than what is installed.
fn node_packages(root: &Path) -> Result<()> {
    let dir = root.join("examples/adapters/node");
    let lock = fs::read(dir.join("package-lock.json")).context("cannot read the node lock file")?;
    let stamp = dir.join("node_modules/.citeproof-package-lock.json");
    let mut npm = Command::new("npm");
    npm.args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir);
    install_unless_stamped(
        &stamp,
        &lock,
        npm,
        "npm ci in examples/adapters/node",
        "npm ci failed in examples/adapters/node; node and npm are needed for the node cross-checks",
    )
}
