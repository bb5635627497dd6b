//! The token reader of `citeproof_model::json`: offsets and texts derived by hand, member order
//! and number texts against CPython's `json` module, and the reply mode.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::borrow::Cow;
use std::io::Write as _;
use std::process::{Command, Stdio};

use citeproof_model::IncidentCode;
use citeproof_model::json::{self, Event, Mode, Reader, Token, Tree, parse_strict};
use serde_json::{Value, json};

fn tokens(input: &str) -> Vec<Token<'_>> {
    let mut reader = Reader::new(input.as_bytes(), Mode::Strict, json::MAX_DOCUMENT_BYTES).unwrap();
    let mut out = Vec::new();
    while let Some(token) = reader.next_token().unwrap() {
        out.push(token);
    }
    out
}

/// Offsets counted by hand: `{ "b": [1.50, "x\u00e9"], "a" : -0 }`.
#[test]
fn offsets_and_texts_by_hand() {
    let input = r#"{ "b": [1.50, "x\u00e9"], "a" : -0 }"#;
    //            0 2   7 8     14          27    33 36
    let got: Vec<(usize, &str)> = tokens(input).iter().map(|t| (t.offset, t.raw)).collect();
    assert_eq!(
        got,
        [
            (0, "{"),
            (2, "\"b\""),
            (7, "["),
            (8, "1.50"),
            (14, r#""x\u00e9""#),
            (23, "]"),
            (26, "\"a\""),
            (32, "-0"),
            (35, "}"),
        ]
    );
    let events: Vec<Event<'_>> = tokens(input).into_iter().map(|t| t.event).collect();
    assert_eq!(events[1], Event::Name(Cow::Borrowed("b")));
    assert_eq!(events[4], Event::String(Cow::Owned("x\u{e9}".into())));
    assert!(matches!(&events[1], Event::Name(Cow::Borrowed(_))));
    assert!(matches!(&events[4], Event::String(Cow::Owned(_))));
}

/// What CPython's `json.loads` reads, as `[kind, text]` leaves: numbers with the text its
/// `parse_int`/`parse_float` hooks receive, objects as member lists in input order.
fn python_shape(documents: &[&str]) -> Vec<Value> {
    const SCRIPT: &str = r#"
import json, sys
def shape(v):
    if isinstance(v, list):
        if v and isinstance(v[0], tuple) and v[0][0] == "\0num":
            return ["number", v[0][1]]
        return ["array", [shape(x) for x in v]]
    if isinstance(v, Obj):
        return ["object", [[k, shape(x)] for k, x in v.pairs]]
    if isinstance(v, str):
        return ["string", v]
    if v is None:
        return ["null"]
    return ["bool", v]
class Obj:
    def __init__(self, pairs): self.pairs = pairs
num = lambda t: [("\0num", t)]
out = [shape(json.loads(d, object_pairs_hook=Obj, parse_int=num, parse_float=num))
       for d in json.load(sys.stdin)]
print(json.dumps(out))
"#;
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is required for this cross-check (see README)");
    let request = serde_json::to_vec(documents).unwrap();
    child.stdin.take().unwrap().write_all(&request).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python3 failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The same shape from the reader's tokens.
struct Shape(Value);

impl Tree for Shape {
    type Key = String;
    type Members = Vec<Value>;

    fn key(name: Token<'_>) -> String {
        match name.event {
            Event::Name(n) => n.into_owned(),
            _ => panic!("not a name"),
        }
    }

    fn leaf(token: Token<'_>) -> Shape {
        Shape(match token.event {
            Event::String(s) => json!(["string", s]),
            Event::Number(_) => json!(["number", token.raw]),
            Event::Bool(b) => json!(["bool", b]),
            Event::Null => json!(["null"]),
            other => panic!("not a leaf: {other:?}"),
        })
    }

    fn push_member(members: &mut Vec<Value>, key: String, Shape(value): Shape) {
        members.push(json!([key, value]));
    }

    fn array(items: Vec<Shape>) -> Shape {
        let items: Vec<Value> = items.into_iter().map(|Shape(v)| v).collect();
        Shape(json!(["array", items]))
    }

    fn object(members: Vec<Value>) -> Shape {
        Shape(json!(["object", members]))
    }
}

#[test]
fn member_order_strings_and_number_texts_agree_with_cpython() {
    let documents = [
        r#"{"z":1,"a":[1.0,-0,1E2,1e-7,123456789012345678901234567890],"m":{"y":null,"b":true}}"#,
        r#"["\u00e9\ud83d\ude00\n\/", "\u2028", "tab\tend", {"\u0063":false}]"#,
        " 0.5e+10 ",
        r#"{"":{"":[]},"~/":"x"}"#,
        r#"[-1.25E-3, 0, -0.0, 9007199254740993]"#,
    ];
    let expected = python_shape(&documents);
    for (document, expected) in documents.iter().zip(expected) {
        let mut reader = Reader::new(document.as_bytes(), Mode::Strict, 1 << 20).unwrap();
        let Shape(got) = json::build(&mut reader).unwrap();
        assert_eq!(got, expected, "{document}");
    }
}

#[test]
fn errors_stop_the_reader_and_repeat() {
    let mut reader = Reader::new(br#"[1,{"a":2,"a":3}]"#, Mode::Strict, 100).unwrap();
    let mut seen = 0;
    let error = loop {
        match reader.next_token() {
            Ok(Some(_)) => seen += 1,
            Ok(None) => panic!("a duplicate is an error"),
            Err(e) => break e,
        }
    };
    // `[`, `1`, `{`, `"a"`, `2`: then the second "a" at byte 10.
    assert_eq!(seen, 5);
    assert_eq!(error.code, IncidentCode::JsonDuplicateMember);
    assert_eq!(
        (error.offset, error.pointer.as_deref()),
        (Some(10), Some("/1/a"))
    );
    assert_eq!(reader.next_token(), Err(error.clone()));
    assert_eq!(parse_strict(br#"[1,{"a":2,"a":3}]"#), Err(error));
}

#[test]
fn reply_mode_reads_lone_surrogates_as_replacement_characters_and_reports_them() {
    let input = br#"{"t":"a\ud800b","x":["\udc00"],"p":"\ud83d\ude00","k":"\\ud800","n":"\ufdd0"}"#;
    let strict = parse_strict(input).unwrap_err();
    assert_eq!(strict.code, IncidentCode::JsonLoneSurrogate);
    let mut reader = Reader::new(input, Mode::Reply, usize::MAX).unwrap();
    let value: Value = json::build(&mut reader).unwrap();
    assert_eq!(
        value,
        json!({"t": "a\u{FFFD}b", "x": ["\u{FFFD}"], "p": "\u{1F600}", "k": "\\ud800", "n": "\u{FDD0}"})
    );
    let found: Vec<(IncidentCode, Option<u64>, Option<&str>)> = reader
        .findings()
        .iter()
        .map(|f| (f.code, f.offset, f.pointer.as_deref()))
        .collect();
    // The first finding is where strict mode stops.
    assert_eq!(
        found[0],
        (strict.code, strict.offset, strict.pointer.as_deref())
    );
    assert_eq!(
        found,
        [
            (IncidentCode::JsonLoneSurrogate, Some(7), Some("/t")),
            (IncidentCode::JsonLoneSurrogate, Some(22), Some("/x/0")),
        ]
    );
    assert_eq!(reader.finding_count(), 2);
    // A high surrogate followed by another pair: the pair survives.
    let mut reader = Reader::new(br#""\ud800\ud800\udc00""#, Mode::Reply, 100).unwrap();
    assert_eq!(
        json::build::<Value>(&mut reader),
        Ok(json!("\u{FFFD}\u{10000}"))
    );
    // Everything else is as strict.
    for bad in [
        &br#"{"a":1,"a":2}"#[..],
        b"[1e400]",
        b"[01]",
        b"\xef\xbb\xbf{}",
    ] {
        let strict = parse_strict(bad).unwrap_err();
        let reply = Reader::new(bad, Mode::Reply, usize::MAX)
            .and_then(|mut r| json::build::<Value>(&mut r));
        assert_eq!(reply, Err(strict));
    }
}

#[test]
fn findings_are_bounded() {
    let input = format!("[{}]", vec![r#""\udc00""#; 1000].join(","));
    let mut reader = Reader::new(input.as_bytes(), Mode::Reply, usize::MAX).unwrap();
    let value: Value = json::build(&mut reader).unwrap();
    assert_eq!(value.as_array().map(Vec::len), Some(1000));
    assert_eq!(reader.finding_count(), 1000);
    assert_eq!(reader.findings().len(), 16);
    assert_eq!(reader.findings()[15].pointer.as_deref(), Some("/15"));
}

#[test]
fn number_text_grammar() {
    for ok in ["0", "-0", "1.5", "1e5", "1E+5", "-1.0e-07", "10", "1e400"] {
        assert!(json::is_number_text(ok), "{ok}");
    }
    for bad in [
        "", "-", "01", "1.", ".5", "1e", "+1", "1e+", "0x1", "1.5.5", " 1",
    ] {
        assert!(!json::is_number_text(bad), "{bad}");
    }
}
