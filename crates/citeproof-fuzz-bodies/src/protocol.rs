//! `adapter_protocol` and `adapter_serve`: the conformance adapter protocol (docs/ADAPTER.md),
//! the runner's reader and the implementation's side.

use citeproof_conformance::adapter::serve;
use citeproof_conformance::protocol::{parse_any_reply, parse_hello, parse_reply};
use citeproof_conformance::transport;
use citeproof_model::json::parse_strict;
use citeproof_model::protocol::{Implementation, ImplementationInfo, Reply};
use citeproof_reference::{Reference, SPECS};
use serde_json::Value;

/// The runner's reading of adapter lines (hello and replies) and the transport reader (any
/// Unicode scalar, lone surrogate escapes read as U+FFFD, duplicate members refused). Checks:
/// what the transport reader accepts, written out, reads back to the same value; an accepted
/// reply re-serializes to a line that parses to the same reply.
pub fn adapter_protocol(data: &[u8]) {
    let _ = parse_hello(data);
    let _ = parse_any_reply(data);
    if let Ok(value) = transport::parse_line(data) {
        let text = value.to_string();
        assert_eq!(transport::parse_line(text.as_bytes()).ok(), Some(value));
    }
    if let Ok(reply) = parse_reply(data, 7) {
        let line = reply.to_json(7).to_string();
        assert_eq!(parse_reply(line.as_bytes(), 7), Ok(reply));
    }
}

/// The reference implementation with every operation called directly: `Reference::run`
/// catches panics (reporting them as `errored`), which would hide them from a fuzzer.
struct Direct(Reference);

impl Implementation for Direct {
    fn info(&self) -> ImplementationInfo {
        self.0.info()
    }

    fn run(&self, operation: &str, input: &Value) -> Reply {
        match SPECS
            .iter()
            .flat_map(|spec| spec.operations)
            .find(|op| op.name == operation)
        {
            Some(op) => (op.run)(input),
            None => Reply::Skipped {
                message: format!("no operation {operation}"),
            },
        }
    }
}

/// What the adapter must answer for one input line.
#[derive(Debug, PartialEq)]
enum Expected {
    Hello,
    Reply(u64),
}

/// The implementation side (`citeproof adapter`): the input is the runner's side of a session,
/// JSON lines of `start`, `run` (every operation of every spec with any input) and `stop`.
/// Checks a differential of the two sides of the protocol: the adapter answers exactly the
/// `start` and `run` lines before the first `stop` (a hello for each `start`, a reply with the
/// same `seq` for each `run`), and the runner's reader accepts every line it writes.
pub fn adapter_serve(data: &[u8]) {
    let mut out = Vec::new();
    serve(&Direct(Reference::new()), data, &mut out, std::io::sink())
        .expect("writing to memory does not fail");
    let mut expected = Vec::new();
    for line in data.split(|b| *b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(message) = parse_strict(line) else {
            continue;
        };
        match message.get("cmd").and_then(Value::as_str) {
            Some("start") => expected.push(Expected::Hello),
            Some("run") => {
                if let Some(seq) = message.get("seq").and_then(Value::as_u64) {
                    expected.push(Expected::Reply(seq));
                }
            }
            Some("stop") => break,
            _ => {}
        }
    }
    let written: Vec<&[u8]> = out
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(written.len(), expected.len());
    for (line, want) in written.iter().zip(&expected) {
        let text = String::from_utf8_lossy(line);
        match want {
            Expected::Hello => {
                assert!(
                    parse_hello(line).is_ok(),
                    "hello refused by the runner: {text}"
                );
            }
            Expected::Reply(seq) => match parse_any_reply(line) {
                Ok((got, Ok(_))) => assert_eq!(got, *seq, "{text}"),
                other => panic!("reply refused by the runner: {other:?}: {text}"),
            },
        }
    }
}
