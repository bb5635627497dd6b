//! Every operation reads its input into one typed struct: an unknown member, a member of the
//! wrong type and a `null` optional member are bad input (`errored`, naming the member), every
//! committed vector's input reads, and a repeated member never reaches an operation to be
//! resolved "last wins".

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use citeproof_conformance::Suite;
use citeproof_model::protocol::{Implementation, Reply};
use citeproof_reference::{Reference, SPECS};
use serde_json::{Value, json};

fn suite() -> Suite {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    Suite::load(&root.join("vectors")).unwrap()
}

fn errored(reply: &Reply) -> &str {
    match reply {
        Reply::Errored { message } => message,
        other => panic!("expected errored, got {other:?}"),
    }
}

#[test]
fn every_vector_input_reads_and_an_unknown_member_is_bad_input() {
    let suite = suite();
    let reference = Reference::new();
    for op in SPECS.iter().flat_map(|d| d.operations) {
        let case = suite
            .cases()
            .find(|c| c.operation == op.name)
            .unwrap_or_else(|| panic!("no vector for {}", op.name));
        assert_eq!(
            op.check_input(&case.input),
            Vec::<String>::new(),
            "{}",
            case.id
        );
        let mut unknown = case.input.clone();
        unknown["surprise"] = json!(1);
        assert_eq!(
            errored(&reference.run(op.name, &unknown)),
            format!(
                "bad input: input member `surprise` is not defined for `{}`",
                op.name
            ),
        );
        assert_eq!(
            errored(&reference.run(op.name, &json!([]))),
            "bad input: input is not a JSON object"
        );
    }
}

#[test]
fn mistyped_and_null_members_are_bad_input_at_their_pointer() {
    let reference = Reference::new();
    let cases = [
        (
            "hash-bytes",
            json!({"data_base64": 7}),
            "`/data_base64`: invalid type",
        ),
        (
            "hash-bytes",
            json!({"data_base64": "a"}),
            "`/data_base64`: not standard base64",
        ),
        ("hash-bytes", json!({}), "input lacks `data_base64`"),
        (
            "jcs-canonicalize",
            json!({"json": "1", "json_base64": "MQ=="}),
            "input has more than one of `json`, `json_base64`",
        ),
        (
            "aca-header-parse",
            json!({"values": ["a", 1]}),
            "`/values/1`: invalid type",
        ),
        (
            "aca-header-emit",
            json!({"entries": [{"source": "https://a.example/", "manifst": "x"}]}),
            "`/entries/0/manifst`: unknown field `manifst`",
        ),
        (
            "aca-verify-snapshot",
            json!({"snapshot": {}, "now": 1, "required_level": 4}),
            "`/required_level`: a required level is 1 to 3, not 4",
        ),
        (
            "chain-verify",
            json!({"document": "{}", "now": 1, "required_level": 3}),
            "`/required_level`: a required level is 1 to 2, not 3",
        ),
        // `null` is not "absent": it was refused before the inputs were typed, and still is.
        (
            "aca-manifest-sign",
            json!({"manifest": {}, "private_jwk": {}, "keyid": "k", "created": 1, "expires": null}),
            "`/expires`: invalid type: null",
        ),
        (
            "ledger-audit",
            json!({"export": "", "mode": "loose"}),
            "`/mode`: unknown variant `loose`",
        ),
        (
            "archive-log-verify",
            json!({"log": "", "archive": {}, "now": 1, "head": {"seq": 1, "hash": "sha256:00"}}),
            "`/head/hash`:",
        ),
    ];
    for (op, input, want) in cases {
        let message = errored(&reference.run(op, &input)).to_owned();
        assert!(
            message.starts_with("bad input: ") && message.contains(want),
            "{op} {input}: {message}"
        );
        let lint = SPECS
            .iter()
            .find_map(|d| d.operation(op))
            .unwrap()
            .check_input(&input);
        assert!(lint.iter().any(|p| p.contains(want)), "{op}: {lint:?}");
    }
}

/// The attack: a member given twice, the second value the one a lenient reader keeps. The
/// adapter reads each line with the strict parser, so the operation is never run on it.
#[test]
fn a_repeated_member_never_reaches_an_operation() {
    let lines = [
        r#"{"cmd":"run","seq":1,"case":{"id":"canon-x","operation":"hash-bytes","input":{"data_base64":"","data_base64":"YQ=="}}}"#,
        r#"{"cmd":"run","seq":2,"case":{"id":"aca-x","operation":"aca-verify-snapshot","input":{"snapshot":{"snapshot_version":1,"snapshot_version":2},"now":1,"required_level":1}}}"#,
        r#"{"cmd":"run","seq":3,"case":{"id":"aca-y","operation":"aca-verify-snapshot","input":{"snapshot":{},"now":1,"required_level":3,"required_level":1}}}"#,
    ];
    let mut out = Vec::new();
    let mut log = Vec::new();
    citeproof_conformance::adapter::serve(
        &Reference::new(),
        lines.join("\n").as_bytes(),
        &mut out,
        &mut log,
    )
    .unwrap();
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    let log = String::from_utf8(log).unwrap();
    assert_eq!(log.matches("duplicate").count(), 3, "{log}");
}

/// Every struct field is in the published schema and the other way round.
#[test]
fn the_schema_lists_exactly_the_struct_members() {
    for op in SPECS.iter().flat_map(|d| d.operations) {
        let schema = op.input_schema();
        let mut listed: Vec<String> = schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        listed.sort();
        let mut members: Vec<String> = op
            .required_input()
            .iter()
            .flat_map(|g| g.split('|').map(str::to_owned).collect::<Vec<_>>())
            .chain(op.optional_input().iter().map(|m| (*m).to_owned()))
            .collect();
        members.sort();
        assert_eq!(listed, members, "{}", op.name);
        assert_eq!(schema["additionalProperties"], Value::Bool(false));
    }
}
