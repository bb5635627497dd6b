//! The adapter protocol (docs/ADAPTER.md): JSON lines between the runner and an implementation,
//! and the checks the runner applies to every line an implementation writes. The operations and
//! their input contracts are not listed here: each spec crate's descriptor
//! (`citeproof_model::spec::SpecDescriptor`) holds its own, and the callers of the lint pass
//! them (`citeproof_reference::SPECS`).

use std::sync::OnceLock;

pub use citeproof_model::protocol::{
    Answer, ImplementationInfo, PROTOCOL_VERSION, Reply, ResultReply,
};

use serde_json::{Value, json};

/// Longest line the runner accepts from an implementation, in bytes (newline excluded).
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// JSON Schemas of the protocol messages, as published in `schemas/adapter/`.
pub mod schemas {
    pub const START: &str = include_str!("../../../schemas/adapter/start.json");
    pub const HELLO: &str = include_str!("../../../schemas/adapter/hello.json");
    pub const RUN: &str = include_str!("../../../schemas/adapter/run.json");
    pub const REPLY: &str = include_str!("../../../schemas/adapter/reply.json");
    pub const STOP: &str = include_str!("../../../schemas/adapter/stop.json");
}

/// The `start` line.
pub fn start_message() -> Value {
    json!({"cmd": "start", "protocol": PROTOCOL_VERSION})
}

/// The `run` line for one case.
pub fn run_message(seq: u64, id: &str, operation: &str, input: &Value) -> Value {
    json!({"cmd": "run", "seq": seq, "case": {"id": id, "operation": operation, "input": input}})
}

/// The `run` line for one case whose input object is already serialized (`input` is a JSON
/// object text: the runner may write members in any order).
pub fn run_line(seq: u64, token: &str, operation: &str, input: &str) -> String {
    format!(
        r#"{{"cmd":"run","seq":{seq},"case":{{"id":{},"operation":{},"input":{input}}}}}"#,
        Value::String(token.to_owned()),
        Value::String(operation.to_owned())
    )
}

/// The `stop` line.
pub fn stop_message() -> Value {
    json!({"cmd": "stop"})
}

struct Validators {
    hello: jsonschema::Validator,
    reply: jsonschema::Validator,
    run: jsonschema::Validator,
}

fn validators() -> Result<&'static Validators, String> {
    static CELL: OnceLock<Result<Validators, String>> = OnceLock::new();
    CELL.get_or_init(|| {
        let compile = |text: &str| -> Result<jsonschema::Validator, String> {
            let schema: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
            citeproof_schema::compile(&schema).map_err(|e| e.to_string())
        };
        Ok(Validators {
            hello: compile(schemas::HELLO)?,
            reply: compile(schemas::REPLY)?,
            run: compile(schemas::RUN)?,
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

fn schema_problems(validator: &jsonschema::Validator, value: &Value) -> Option<String> {
    let problems: Vec<String> = validator
        .iter_errors(value)
        .take(3)
        .map(|e| {
            let at = e.instance_path().to_string();
            if at.is_empty() {
                e.to_string()
            } else {
                format!("{e} at {at}")
            }
        })
        .collect();
    (!problems.is_empty()).then(|| problems.join("; "))
}

/// Parses one line: transport JSON (see [`crate::transport`]): any Unicode scalar value in
/// strings, duplicate member names refused.
fn parse_line(line: &[u8]) -> Result<Value, String> {
    crate::transport::parse_line(line)
}

/// Checks a hello line: schema and protocol version.
pub fn parse_hello(line: &[u8]) -> Result<ImplementationInfo, String> {
    let value = parse_line(line)?;
    let v = validators()?;
    if let Some(p) = schema_problems(&v.hello, &value) {
        return Err(format!("malformed hello: {p}"));
    }
    let text = |ptr: &str| {
        value
            .pointer(ptr)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    Ok(ImplementationInfo {
        name: text("/implementation/name").unwrap_or_default(),
        version: text("/implementation/version").unwrap_or_default(),
        language: text("/implementation/language").unwrap_or_default(),
        homepage: text("/implementation/homepage"),
        operations: value
            .get("operations")
            .and_then(Value::as_array)
            .map(|ops| {
                ops.iter()
                    .filter_map(|o| o.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    })
}

/// Checks a reply line against the schema and the expected `seq`.
pub fn parse_reply(line: &[u8], expected_seq: u64) -> Result<Reply, String> {
    let (seq, reply) = parse_any_reply(line)?;
    if seq != expected_seq {
        return Err(format!(
            "reply has seq {seq} but the case was sent with seq {expected_seq}"
        ));
    }
    reply
}

/// The `seq` a line claims to answer, when the line is a JSON object with an integer `seq`
/// (whatever else is wrong with it).
pub fn reply_seq(line: &[u8]) -> Option<u64> {
    parse_line(line).ok()?.get("seq")?.as_u64()
}

/// Checks a reply line against the schema; returns its `seq` and the reply. A line that names
/// a `seq` but is otherwise malformed gives `Ok((seq, Err(why)))`, so that the runner can blame
/// the case it belongs to.
pub fn parse_any_reply(line: &[u8]) -> Result<(u64, Result<Reply, String>), String> {
    let value = parse_line(line)?;
    let seq = value.get("seq").and_then(Value::as_u64);
    let v = validators()?;
    let problems = schema_problems(&v.reply, &value);
    let Some(seq) = seq else {
        return Err(format!(
            "malformed reply: {}",
            problems.unwrap_or_else(|| "no integer seq".into())
        ));
    };
    if let Some(p) = problems {
        return Ok((seq, Err(format!("malformed reply: {p}"))));
    }
    Ok((seq, Ok(reply_of(&value))))
}

fn reply_of(value: &Value) -> Reply {
    let message = value
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if value.get("skipped").is_some() {
        return Reply::Skipped { message };
    }
    if value.get("errored").is_some() {
        return Reply::Errored { message };
    }
    let codes = |name: &str| -> Vec<String> {
        value
            .get(name)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let result = match value.get("result").and_then(Value::as_str) {
        Some("valid") => Answer::Valid,
        _ => Answer::Invalid,
    };
    Reply::Result(ResultReply {
        result: Some(result),
        errors: codes("errors"),
        warnings: codes("warnings"),
        output: value.get("output").cloned(),
    })
}

/// Validates a run line the runner is about to send (a guard against suite bugs).
pub fn check_run_message(message: &Value) -> Result<(), String> {
    let v = validators()?;
    match schema_problems(&v.run, message) {
        Some(p) => Err(format!(
            "run message does not match the protocol schema: {p}"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_compiles() {
        for text in [
            schemas::START,
            schemas::HELLO,
            schemas::RUN,
            schemas::REPLY,
            schemas::STOP,
        ] {
            let schema: Value = serde_json::from_str(text).unwrap();
            citeproof_schema::compile(&schema).unwrap();
        }
    }

    #[test]
    fn reply_parsing_accepts_the_three_forms_and_checks_seq() {
        let ok = parse_reply(
            br#"{"seq":3,"result":"invalid","errors":["json-syntax"]}"#,
            3,
        );
        assert_eq!(ok, Ok(Reply::invalid(vec!["json-syntax".into()])));
        let skipped = parse_reply(br#"{"seq":3,"skipped":true,"message":"no"}"#, 3);
        assert_eq!(
            skipped,
            Ok(Reply::Skipped {
                message: "no".into()
            })
        );
        assert!(matches!(
            parse_reply(br#"{"seq":3,"errored":true}"#, 3),
            Ok(Reply::Errored { .. })
        ));
        for bad in [
            &br#"{"seq":4,"result":"valid"}"#[..],
            br#"{"seq":3,"result":"yes"}"#,
            br#"{"seq":3}"#,
            br#"{"seq":3,"result":"valid","extra":1}"#,
            br#"{"seq":3,"result":"valid","seq":3}"#,
            br#"{"seq":3,"skipped":false}"#,
            b"hello",
            br#"[1]"#,
        ] {
            assert!(
                parse_reply(bad, 3).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn replies_are_transport_a_noncharacter_is_not_malformed() {
        let line = "{\"seq\":5,\"result\":\"valid\",\"output\":{\"exact_text\":\"a\u{FDD0}b\"}}";
        let Ok(Reply::Result(r)) = parse_reply(line.as_bytes(), 5) else {
            panic!("rejected");
        };
        assert_eq!(r.output.unwrap()["exact_text"], "a\u{FDD0}b");
        assert_eq!(reply_seq(br#"{"seq":9,"result":"maybe"}"#), Some(9));
        assert!(matches!(
            parse_any_reply(br#"{"seq":9,"result":"maybe"}"#),
            Ok((9, Err(_)))
        ));
    }

    #[test]
    fn hello_parsing() {
        let info = parse_hello(
            br#"{"protocol":1,"implementation":{"name":"x","version":"1","language":"py"},"operations":["*"]}"#,
        )
        .unwrap();
        assert!(info.supports("anything"));
        assert!(parse_hello(br#"{"protocol":2,"implementation":{"name":"x","version":"1","language":"py"},"operations":[]}"#).is_err());
        let round = parse_hello(info.hello_json().to_string().as_bytes()).unwrap();
        assert_eq!(round, info);
    }
}
