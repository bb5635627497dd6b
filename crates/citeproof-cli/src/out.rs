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
    to_stdout(|out| out.write_all(bytes))
}

/// Runs `write` on a buffered, locked stdout and flushes it: the one place that decides what a
/// failed write means. A closed pipe sets [`CLOSED`] and is not an error; later writes are
/// skipped.
fn to_stdout(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> Result<(), Failure> {
    if CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
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

/// The `--json` report of a command that succeeded with no incident: [`json_report`] with
/// `ok` true and `incidents` empty.
pub fn json_done(command: &str, details: &impl Serialize) -> Result<(), Failure> {
    json_report(command, true, &NO_INCIDENTS, details)
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
    write_json_line(&Value::Object(obj))
}

/// Writes `value` pretty-printed and a line break to stdout, through the buffer rather than a
/// `String` of the whole text: a report of 10 000 claims is many megabytes (README,
/// Performance).
fn write_json_line(value: &Value) -> Result<(), Failure> {
    to_stdout(|out| {
        serde_json::to_writer_pretty(&mut *out, value).map_err(|e| match e.io_error_kind() {
            Some(kind) => std::io::Error::from(kind),
            None => std::io::Error::other(e),
        })?;
        out.write_all(b"\n")
    })
}

fn to_value(v: &impl Serialize) -> Result<Value, Failure> {
    serde_json::to_value(v).map_err(|e| Failure::Usage(format!("cannot serialize the report: {e}")))
}

/// No command-specific members.
pub const NO_DETAILS: Option<()> = None;

/// No incidents.
pub const NO_INCIDENTS: [(); 0] = [];

/// Text taken from a document under verification, made safe to print on one line of a human
/// report: control characters (line breaks included), the Unicode line and paragraph
/// separators and the bidirectional formatting characters are written as `\u{XXXX}`. Without
/// this, a claim text or a URL in an incident message could print a line of its own (`level
/// achieved: 3 ... VERIFIED`) or reorder what a terminal shows, and a line would disagree with
/// the verdict.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    fn unsafe_char(c: char) -> bool {
        c.is_control()
            || matches!(
                c,
                '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
                    | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
            )
    }
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:04X}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn untrusted_text_stays_on_one_line() {
        assert_eq!(one_line("plain text, é ü 中"), "plain text, é ü 中");
        assert_eq!(
            one_line("a\nlevel achieved: 3\r\t"),
            "a\\u{000A}level achieved: 3\\u{000D}\\u{0009}"
        );
        assert_eq!(
            one_line("x\u{2028}y\u{202E}z\u{85}"),
            "x\\u{2028}y\\u{202E}z\\u{0085}"
        );
    }
}
