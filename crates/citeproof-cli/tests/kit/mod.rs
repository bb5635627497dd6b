//! What every CLI test binary needs: the built binary, the repository root, a run's status and
//! output, and `citeproof demo serve` on a loopback port. Each test file takes what it uses.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Output, Stdio};

use assert_cmd::Command;

/// The `citeproof` binary cargo built for these tests.
pub fn citeproof() -> Command {
    Command::cargo_bin("citeproof").unwrap()
}

/// The repository root (where `vectors/` and `examples/` are).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `citeproof ARGS` run in `dir`: the exit status (-1 for a signal), stdout and stderr.
pub fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = citeproof().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        stdout_of(&out),
        stderr_of(&out),
    )
}

pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Starts `citeproof demo serve` on a free loopback port; returns the child (kill it) and the
/// base URL the server printed.
pub fn start_demo() -> (Child, String) {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("citeproof"))
        .args(["demo", "serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    // Keep draining the banner so the server never writes into a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let base = first.trim().rsplit(' ').next().unwrap().to_owned();
    assert!(base.starts_with("http://127.0.0.1:"), "{first}");
    (child, base)
}
