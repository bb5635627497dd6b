//! Helpers shared by the workspace's test binaries (a dev-dependency only): the independent
//! oracles the cross-checks ask, each a Python or node script that reads one JSON request on
//! standard input and writes one JSON answer, and the rule for when one may be skipped.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

pub mod mutation;

/// Runs `program script args...` with `request` as JSON on standard input; its standard output
/// read as JSON. `Err` says why not (the program cannot start, fails, or writes no JSON).
pub fn run_json(
    program: &str,
    script: &Path,
    args: &[&str],
    request: &Value,
) -> Result<Value, String> {
    let mut child = Command::new(program)
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let input = serde_json::to_vec(request).map_err(|e| e.to_string())?;
    // An oracle that answers without reading its input (a probe) may close it first.
    match child
        .stdin
        .take()
        .ok_or("no standard input")?
        .write_all(&input)
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            return Err(format!("writing to {program}: {e}"));
        }
        _ => {}
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for {program}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}): {}{}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("{program} output: {e}"))
}

/// Whether the cross-check `what` can run, from its oracle's `probe` (what answered, or why it
/// cannot). It may be skipped, with a notice, only where `CITEPROOF_REQUIRE_PYTHON` is unset
/// (`cargo xtask test` and CI set it: there a cross-check that cannot run is a failure).
///
/// # Panics
/// When the oracle cannot run and `CITEPROOF_REQUIRE_PYTHON` is set.
pub fn oracle_available(what: &str, probe: Result<Value, String>) -> bool {
    match probe {
        Ok(answer) => {
            println!("{what}: cross-checking with {answer}");
            true
        }
        Err(why) => {
            assert!(
                std::env::var_os("CITEPROOF_REQUIRE_PYTHON").is_none(),
                "CITEPROOF_REQUIRE_PYTHON is set but {what} cannot run: {why}"
            );
            println!("NOTICE: skipping {what}: {why}");
            false
        }
    }
}
