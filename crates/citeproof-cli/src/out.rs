//! Everything the binary writes to stdout goes through here, so that a closed stdout
//! (`citeproof aca verify URL | head -1`) ends the command quietly instead of panicking the way
//! `println!` does, and so that every `--json` output has one shape:
//!
//! ```json
//! {"command": "aca verify", "ok": true, "incidents": [...], ...command-specific members...}
//! ```
//!
//! `ok` is what exit status 0 means for that command (verified, valid, written); `incidents` is
//! always present (possibly empty). The exit status never depends on whether stdout was read.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::cmd::Failure;

/// Set once stdout is gone; later writes are skipped.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes bytes to stdout. A closed pipe is not an error: the rest of the output is dropped.
pub fn write_bytes(bytes: &[u8]) -> Result<(), Failure> {
    if CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(Failure::Usage(format!("cannot write to stdout: {e}"))),
    }
}

/// Writes text to stdout as is.
pub fn print(text: &str) -> Result<(), Failure> {
    write_bytes(text.as_bytes())
}

/// Writes one line to stdout.
pub fn println(line: &str) -> Result<(), Failure> {
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    write_bytes(text.as_bytes())
}

/// The `--json` report of a command: `command`, `ok`, `incidents`, then the members of
/// `details` (an object; other values are put under `result`).
pub fn json_report(
    command: &str,
    ok: bool,
    incidents: &impl Serialize,
    details: &impl Serialize,
) -> Result<(), Failure> {
    let mut obj = Map::new();
    obj.insert("command".into(), Value::String(command.to_owned()));
    obj.insert("ok".into(), Value::Bool(ok));
    obj.insert("incidents".into(), to_value(incidents)?);
    match to_value(details)? {
        Value::Object(members) => {
            for (k, v) in members {
                obj.entry(k).or_insert(v);
            }
        }
        Value::Null => {}
        other => {
            obj.insert("result".into(), other);
        }
    }
    let text = serde_json::to_string_pretty(&Value::Object(obj))
        .map_err(|e| Failure::Usage(format!("cannot serialize the report: {e}")))?;
    println(&text)
}

fn to_value(v: &impl Serialize) -> Result<Value, Failure> {
    serde_json::to_value(v).map_err(|e| Failure::Usage(format!("cannot serialize the report: {e}")))
}

/// No command-specific members.
pub const NO_DETAILS: Option<()> = None;

/// No incidents.
pub const NO_INCIDENTS: [(); 0] = [];
