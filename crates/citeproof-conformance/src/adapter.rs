//! The implementation side of the adapter protocol for any in-process [`Implementation`] (the
//! reference behind `citeproof adapter`): reads commands from `input`, one JSON object per line,
//! and writes replies to `output`.

use std::io::{self, BufRead, Write};

use serde_json::Value;

use citeproof_model::protocol::Implementation;

use crate::protocol::{self, Reply};

/// Serves the protocol until `stop` or end of input. Protocol errors are written to `log`.
pub fn serve(
    reference: &dyn Implementation,
    input: impl BufRead,
    mut output: impl Write,
    mut log: impl Write,
) -> io::Result<()> {
    for line in input.split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let message = match citeproof_model::json::parse_strict(&line) {
            Ok(v) => v,
            Err(e) => {
                writeln!(
                    log,
                    "citeproof adapter: ignoring a line that is not JSON: {e}"
                )?;
                continue;
            }
        };
        let reply = match message.get("cmd").and_then(Value::as_str) {
            Some("start") => {
                if message.get("protocol").and_then(Value::as_u64)
                    != Some(protocol::PROTOCOL_VERSION)
                {
                    writeln!(
                        log,
                        "citeproof adapter: runner asks for protocol {}; this adapter speaks {}",
                        message
                            .get("protocol")
                            .map(Value::to_string)
                            .unwrap_or_default(),
                        protocol::PROTOCOL_VERSION
                    )?;
                }
                reference.info().hello_json()
            }
            Some("run") => {
                let Some(seq) = message.get("seq").and_then(Value::as_u64) else {
                    writeln!(log, "citeproof adapter: run command without seq")?;
                    continue;
                };
                let reply = match protocol::check_run_message(&message) {
                    Err(e) => Reply::errored(e),
                    Ok(()) => {
                        let op = message
                            .pointer("/case/operation")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        let input = message.pointer("/case/input").unwrap_or(&Value::Null);
                        reference.run(op, input)
                    }
                };
                reply.to_json(seq)
            }
            Some("stop") => return Ok(()),
            other => {
                writeln!(log, "citeproof adapter: unknown command {other:?}")?;
                continue;
            }
        };
        let mut text = reply.to_string();
        text.push('\n');
        output.write_all(text.as_bytes())?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use citeproof_model::protocol::ImplementationInfo;

    /// Canonicalizes with the model's JCS; skips every other operation.
    struct Jcs;

    impl Implementation for Jcs {
        fn info(&self) -> ImplementationInfo {
            crate::test_support::info("jcs-only", "jcs-canonicalize")
        }
        fn run(&self, operation: &str, input: &Value) -> Reply {
            match (operation, input.get("json").and_then(Value::as_str)) {
                ("jcs-canonicalize", Some(text)) => {
                    match citeproof_model::jcs::canonicalize_json(text.as_bytes()) {
                        Ok(c) => Reply::valid(Some(
                            serde_json::json!({"canonical": String::from_utf8_lossy(&c)}),
                        )),
                        Err(e) => Reply::invalid(vec![e.code.as_str().to_owned()]),
                    }
                }
                _ => Reply::Skipped {
                    message: "not implemented".into(),
                },
            }
        }
    }

    #[test]
    fn serves_a_session() {
        let input = concat!(
            r#"{"cmd":"start","protocol":1}"#,
            "\n",
            r#"{"cmd":"run","seq":1,"case":{"id":"canon-x","operation":"jcs-canonicalize","input":{"json":"{\"b\":1,\"a\":2}"}}}"#,
            "\n",
            r#"{"cmd":"run","seq":2,"case":{"id":"canon-y","operation":"no-such-op","input":{}}}"#,
            "\n",
            r#"{"cmd":"stop"}"#,
            "\n",
            r#"{"cmd":"run","seq":3,"case":{"id":"canon-z","operation":"hash-bytes","input":{"data_base64":""}}}"#,
            "\n",
        );
        let mut out = Vec::new();
        let mut log = Vec::new();
        serve(&Jcs, input.as_bytes(), &mut out, &mut log).unwrap();
        let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(protocol::parse_hello(lines[0].as_bytes()).is_ok());
        assert_eq!(
            protocol::parse_reply(lines[1].as_bytes(), 1).unwrap(),
            Reply::valid(Some(serde_json::json!({"canonical": "{\"a\":2,\"b\":1}"})))
        );
        assert!(matches!(
            protocol::parse_reply(lines[2].as_bytes(), 2).unwrap(),
            Reply::Skipped { .. }
        ));
    }
}
