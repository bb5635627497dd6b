//! Strict I-JSON parsing: every rejection kind with its exact code, byte offset and pointer
//! (offsets computed by hand and noted next to each case), accepted edge cases, and property
//! tests (no panics, agreement with serde_json, round trip of arbitrary values).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_model::IncidentCode::{self, *};
use citeproof_model::jcs::canonicalize;
use citeproof_model::json::{
    JsonError, MAX_DEPTH, MAX_DOCUMENT_BYTES, parse_strict, parse_strict_jcs,
};
use proptest::prelude::*;
use serde_json::{Map, Number, Value, json};

#[track_caller]
fn rejects(input: &[u8], code: IncidentCode, offset: usize, pointer: Option<&str>) -> JsonError {
    let err = match parse_strict(input) {
        Ok(v) => panic!("accepted {:?} as {v}", String::from_utf8_lossy(input)),
        Err(e) => e,
    };
    let shown = String::from_utf8_lossy(&input[..input.len().min(80)]).into_owned();
    assert_eq!(err.code, code, "code for {shown:?}: {err:?}");
    assert_eq!(
        err.offset,
        Some(offset as u64),
        "offset for {shown:?}: {err:?}"
    );
    assert_eq!(
        err.pointer.as_deref(),
        pointer,
        "pointer for {shown:?}: {err:?}"
    );
    assert!(!err.message.is_empty());
    err
}

#[track_caller]
fn accepts(input: &[u8]) -> Value {
    let value = parse_strict(input)
        .unwrap_or_else(|e| panic!("rejected {:?}: {e:?}", String::from_utf8_lossy(input)));
    // Whatever we accept, serde_json accepts with the same value (numbers are its own parsing).
    if let Ok(theirs) = serde_json::from_slice::<Value>(input) {
        assert_eq!(value, theirs, "serde_json reads {input:?} differently");
    }
    value
}

fn nested_arrays(depth: usize) -> Vec<u8> {
    let mut s = "[".repeat(depth);
    s.push_str(&"]".repeat(depth));
    s.into_bytes()
}

// ---------------------------------------------------------------- syntax

#[test]
fn syntax_errors_have_exact_offsets() {
    let cases: &[(&[u8], usize)] = &[
        (b"", 0),                  // empty input: end of input at 0
        (b" \t\r\n", 4),           // whitespace only: end of input
        (b"{\"a\":1,}", 7),        // trailing comma: '}' where a name is expected
        (b"[1,]", 3),              // ']' where a value is expected
        (b"[1 2]", 3),             // missing comma
        (b"{\"a\" 1}", 5),         // missing colon: '1' at 5
        (b"{} x", 3),              // trailing garbage
        (b"{\"a\":1}}", 7),        // extra closing brace
        (b"[01]", 2),              // leading zero: number `0` ends, '1' is unexpected
        (b"-", 1),                 // minus without digits: end of input
        (b"-a", 1),                // minus then letter
        (b"1.", 2),                // no digit after '.'
        (b"1.e3", 2),              // no digit after '.'
        (b"1e", 2),                // no exponent digits
        (b"1e+", 3),               // no exponent digits after the sign
        (b"+1", 0),                // plus sign is not JSON
        (b".5", 0),                // no integer part
        (b"NaN", 0),               // not JSON
        (b"Infinity", 0),          // not JSON
        (b"-Infinity", 1),         // '-' then 'I'
        (b"tru", 3),               // truncated literal: end of input
        (b"trUe", 2),              // wrong letter
        (b"nul", 3),               // truncated literal
        (b"[true false]", 6),      // missing comma after a literal
        (b"\"abc", 4),             // unterminated string: end of input
        (b"\"a\x01b\"", 2),        // raw control character in a string
        (b"\"a\tb\"", 2),          // raw TAB in a string
        (b"\"\\x\"", 2),           // invalid escape: the byte after the backslash
        (b"\"\\u12G4\"", 5),       // bad hex digit
        (b"\"\\u12\"", 5),         // short \u escape: '"' is not a hex digit
        (b"\"\\", 2),              // backslash at end of input
        (b"'a'", 0),               // single quotes
        (b"[1 /* c */]", 3),       // comments are not JSON
        (b"[\x00]", 1),            // NUL outside a string
        (b"[\xc3\xa9]", 1),        // non-ASCII outside a string
        (b"{1:2}", 1),             // member name must be a string
        (b"{\"a\":}", 5),          // missing value
        (b"[\"a\" : 1]", 5),       // colon in an array
        (b"\xef\xbb\xbf{}", 0), // byte order mark: rejected by choice (RFC 8259 §8.1 allows ignoring)
        (b"{\"a\":1 \"b\":2}", 7), // missing comma between members
    ];
    for (input, offset) in cases {
        rejects(input, JsonSyntax, *offset, None);
    }
}

#[test]
fn syntax_messages_say_what_was_expected_and_found() {
    let e = rejects(b"[1 2]", JsonSyntax, 3, None);
    assert_eq!(
        e.message,
        "expected ',' or ']' after an array element, found '2'"
    );
    let e = rejects(b"[1,", JsonSyntax, 3, None);
    assert_eq!(e.message, "expected a JSON value, found end of input");
}

// ---------------------------------------------------------------- duplicates

#[test]
fn duplicate_members_report_second_name_and_pointer() {
    // {"a":1,"a":2}: second name's quote at 7
    rejects(b"{\"a\":1,\"a\":2}", JsonDuplicateMember, 7, Some("/a"));
    // names are compared after unescaping
    rejects(
        b"{\"a\":1,\"\\u0061\":2}",
        JsonDuplicateMember,
        7,
        Some("/a"),
    );
    // {"a":[{"b":1,"b":2}]}: { 0, "a" 1-3, : 4, [ 5, { 6, "b" 7-9, : 10, 1 11, , 12, "b" 13
    rejects(
        b"{\"a\":[{\"b\":1,\"b\":2}]}",
        JsonDuplicateMember,
        13,
        Some("/a/0/b"),
    );
    // RFC 6901 escaping: {"x/y":{"~":0,"~":1}} -> second "~" at 14
    rejects(
        b"{\"x/y\":{\"~\":0,\"~\":1}}",
        JsonDuplicateMember,
        14,
        Some("/x~1y/~0"),
    );
    // whitespace: { "k" : 1 , "k" : 2 } -> second "k" at 12
    rejects(
        b"{ \"k\" : 1 , \"k\" : 2 }",
        JsonDuplicateMember,
        12,
        Some("/k"),
    );
    // empty name: {"":1,"":2} -> 6, pointer "/" (the member named "")
    rejects(b"{\"\":1,\"\":2}", JsonDuplicateMember, 6, Some("/"));
    // raw non-BMP vs escaped pair: "😀" is 4 bytes (2..=5), second name at 10
    rejects(
        "{\"😀\":1,\"\\ud83d\\ude00\":2}".as_bytes(),
        JsonDuplicateMember,
        10,
        Some("/😀"),
    );
    // third occurrence: the first repeat is reported. {"a":1,"b":2,"a":3,"a":4} -> 13
    rejects(
        b"{\"a\":1,\"b\":2,\"a\":3,\"a\":4}",
        JsonDuplicateMember,
        13,
        Some("/a"),
    );
    // deep array index: [0,1,{"z":[5,{"q":0,"q":0}]}] -> [ 0, 0 1, , 2, 1 3, , 4, { 5, "z" 6-8,
    // : 9, [ 10, 5 11, , 12, { 13, "q" 14-16, : 17, 0 18, , 19, "q" 20
    rejects(
        b"[0,1,{\"z\":[5,{\"q\":0,\"q\":0}]}]",
        JsonDuplicateMember,
        20,
        Some("/2/z/1/q"),
    );
    // the duplicate is found before later syntax errors (document order)
    rejects(b"{\"a\":1,\"a\"", JsonDuplicateMember, 7, Some("/a"));
}

#[test]
fn same_name_in_different_objects_is_fine() {
    accepts(b"[{\"a\":1},{\"a\":1}]");
    accepts(b"{\"a\":{\"a\":{\"a\":1}}}");
    // different after unescaping
    accepts(b"{\"a\":1,\"A\":2,\"\\u0041a\":3}");
}

// ---------------------------------------------------------------- lone surrogates

#[test]
fn lone_surrogates_point_at_their_escape() {
    rejects(b"\"\\ud800\"", JsonLoneSurrogate, 1, Some(""));
    // ["a","\udc00"]: second string's backslash at 6
    rejects(b"[\"a\",\"\\udc00\"]", JsonLoneSurrogate, 6, Some("/1"));
    // {"k":"x\ud83dy"} -> backslash at 7
    rejects(b"{\"k\":\"x\\ud83dy\"}", JsonLoneSurrogate, 7, Some("/k"));
    // high followed by a non-surrogate escape
    rejects(b"\"\\ud800\\u0041\"", JsonLoneSurrogate, 1, Some(""));
    // high followed by another high: the first is reported
    rejects(b"\"\\ud800\\ud800\"", JsonLoneSurrogate, 1, Some(""));
    // pair in the wrong order: the low one comes first
    rejects(b"\"\\ude00\\ud83d\"", JsonLoneSurrogate, 1, Some(""));
    // high followed by a different escape / end of string
    rejects(b"\"\\ud83d\\n\"", JsonLoneSurrogate, 1, Some(""));
    rejects(b"\"\\ud83d\"", JsonLoneSurrogate, 1, Some(""));
    // uppercase hex
    rejects(b"\"\\uDBFF\"", JsonLoneSurrogate, 1, Some(""));
    // in a member name: pointer of the object. {"a":{"\udfff":1}} -> backslash at 7
    rejects(b"{\"a\":{\"\\udfff\":1}}", JsonLoneSurrogate, 7, Some("/a"));
    // a high surrogate followed by a malformed \u escape is a syntax error at the bad digit
    rejects(b"\"\\ud800\\uZ000\"", JsonSyntax, 9, None);
}

// ---------------------------------------------------------------- numbers

#[test]
fn numbers_that_overflow_f64_are_out_of_range() {
    rejects(b"1e400", JsonNumberOutOfRange, 0, Some(""));
    // [0, -1e309]: '-' at 4
    rejects(b"[0, -1e309]", JsonNumberOutOfRange, 4, Some("/1"));
    // {"n":{"m":[1,2,1E+999]}} -> number at 15
    rejects(
        b"{\"n\":{\"m\":[1,2,1E+999]}}",
        JsonNumberOutOfRange,
        15,
        Some("/n/m/2"),
    );
    // Just above the largest double (1.7976931348623157e308) rounds to infinity.
    rejects(
        b"[1.7976931348623159e308]",
        JsonNumberOutOfRange,
        1,
        Some("/0"),
    );
    // An integer with 310 digits (1e309).
    let big = format!("[1{}]", "0".repeat(309));
    rejects(big.as_bytes(), JsonNumberOutOfRange, 1, Some("/0"));
}

#[test]
fn numbers_within_range_are_serde_json_numbers() {
    let v = accepts(b"-0");
    let f = v.as_f64().unwrap();
    assert!(f == 0.0 && f.is_sign_negative(), "-0 keeps its sign: {v:?}");
    assert_eq!(accepts(b"1E+2"), json!(100.0));
    assert_eq!(accepts(b"1e-400"), json!(0.0)); // underflow is not an error
    assert_eq!(accepts(b"1.7976931348623157e308").as_f64(), Some(f64::MAX));
    assert_eq!(accepts(b"5e-324").as_f64(), Some(f64::from_bits(1)));
    assert_eq!(accepts(b"18446744073709551615"), json!(u64::MAX));
    assert_eq!(accepts(b"-9223372036854775808"), json!(i64::MIN));
    // beyond u64: read as a double
    assert_eq!(
        accepts(b"18446744073709551616").as_f64(),
        Some(18446744073709551616.0)
    );
    let ones = format!("1{}", "0".repeat(308));
    assert_eq!(accepts(ones.as_bytes()).as_f64(), Some(1e308));
    assert_eq!(accepts(b"9007199254740993"), json!(9007199254740993u64));
}

// ---------------------------------------------------------------- UTF-8

#[test]
fn invalid_utf8_reports_first_bad_byte() {
    rejects(b"[\"\xff\"]", JsonInvalidUtf8, 2, None);
    rejects(b"\"\xc0\xaf\"", JsonInvalidUtf8, 1, None); // overlong '/'
    rejects(b"\"\xed\xa0\x80\"", JsonInvalidUtf8, 1, None); // UTF-8-encoded surrogate
    rejects(b"\"\xe2\x82\"", JsonInvalidUtf8, 1, None); // truncated sequence
    rejects(b"\"\xf4\x90\x80\x80\"", JsonInvalidUtf8, 1, None); // above U+10FFFF
    // valid prefix with multi-byte characters: "é" is 2 bytes, bad byte at 4
    rejects(b"[\"\xc3\xa9\x80", JsonInvalidUtf8, 4, None);
    // UTF-8 is checked before the grammar
    rejects(b"x\xff", JsonInvalidUtf8, 1, None);
}

// ---------------------------------------------------------------- limits

#[test]
fn nesting_limit() {
    accepts(&nested_arrays(MAX_DEPTH));
    let too_deep = nested_arrays(MAX_DEPTH + 1);
    let pointer = "/0".repeat(MAX_DEPTH);
    rejects(&too_deep, JsonTooLarge, MAX_DEPTH, Some(&pointer));

    // objects: {"a":{"a":...{}...}}, each level opens at offset 5 * level
    let objects = |depth: usize| {
        let mut s = "{\"a\":".repeat(depth - 1);
        s.push_str("{}");
        s.push_str(&"}".repeat(depth - 1));
        s.into_bytes()
    };
    accepts(&objects(MAX_DEPTH));
    rejects(
        &objects(MAX_DEPTH + 1),
        JsonTooLarge,
        5 * MAX_DEPTH,
        Some(&"/a".repeat(MAX_DEPTH)),
    );
    // far deeper input fails the same way, without recursion
    rejects(
        &nested_arrays(100_000),
        JsonTooLarge,
        MAX_DEPTH,
        Some(&pointer),
    );
}

#[test]
fn size_limit() {
    let mut exactly = vec![b'a'; MAX_DOCUMENT_BYTES];
    exactly[0] = b'"';
    exactly[MAX_DOCUMENT_BYTES - 1] = b'"';
    let v = parse_strict(&exactly).unwrap();
    assert_eq!(v.as_str().map(str::len), Some(MAX_DOCUMENT_BYTES - 2));

    let over = vec![b' '; MAX_DOCUMENT_BYTES + 1];
    rejects(&over, JsonTooLarge, MAX_DOCUMENT_BYTES, None);
}

#[test]
fn incident_carries_code_offset_and_pointer() {
    let e = parse_strict(b"{\"a\":[{\"b\":1,\"b\":2}]}").unwrap_err();
    let incident = e.to_incident();
    assert_eq!(incident.code, JsonDuplicateMember);
    assert_eq!(incident.location.offset, Some(13));
    assert_eq!(incident.location.pointer.as_deref(), Some("/a/0/b"));
    assert_eq!(incident.message, e.message);
}

// ---------------------------------------------------------------- acceptance

#[test]
fn valid_edge_cases_are_accepted() {
    assert_eq!(accepts(b"{}"), json!({}));
    assert_eq!(accepts(b"[]"), json!([]));
    assert_eq!(accepts(b" \t\r\n{ } \n"), json!({}));
    assert_eq!(accepts(b"[ ]"), json!([]));
    assert_eq!(accepts(b"0"), json!(0));
    assert_eq!(accepts(b"\"\""), json!(""));
    assert_eq!(accepts(b"null"), Value::Null);
    assert_eq!(accepts(b"[true,false,null]"), json!([true, false, null]));
    assert_eq!(accepts(b"\"\\ud83d\\ude00\""), json!("😀"));
    assert_eq!(accepts(b"\"\\uD83D\\uDE00\""), json!("😀"));
    assert_eq!(accepts("\"😀\"".as_bytes()), json!("😀"));
    assert_eq!(accepts(b"\"\\u0000\""), json!("\u{0}"));
    assert_eq!(
        accepts(b"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""),
        json!("\"\\/\u{8}\u{c}\n\r\t")
    );
    assert_eq!(
        accepts("\"\u{2028}\u{7f}\u{fffd}\"".as_bytes()),
        json!("\u{2028}\u{7f}\u{fffd}")
    );
    assert_eq!(accepts("\"é\"".as_bytes()), accepts(b"\"\\u00e9\""));
    assert_eq!(
        accepts(b"{\"a\":[1,{\"b\":\"c\"}],\"d\":-1.5e-3}"),
        json!({"a": [1, {"b": "c"}], "d": -0.0015})
    );
}

// ---------------------------------------------------------------- properties

/// A JSON-ish alphabet, so random text often gets deep into the grammar.
fn jsonish() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just(" ".to_string()),
        Just("\"a\"".to_string()),
        Just("\"b\"".to_string()),
        Just("\"\\u0061\"".to_string()),
        Just("\"\\ud83d\\ude00\"".to_string()),
        Just("\\ud800".to_string()),
        Just("\\udc00".to_string()),
        Just("\"".to_string()),
        Just("\\".to_string()),
        Just("true".to_string()),
        Just("null".to_string()),
        Just("-0".to_string()),
        Just("1e400".to_string()),
        Just("1.5E-3".to_string()),
        // whitespace, and characters that are whitespace elsewhere but not in JSON
        Just("\t\n\r".to_string()),
        Just("\u{c}".to_string()),
        Just("\u{b}".to_string()),
        Just("\u{a0}".to_string()),
        Just("\u{feff}".to_string()),
        "[-+.eE0-9]{1,4}",
        "[a-z\\x00-\\x1f\\x{80}-\\x{10ffff}]{1,2}",
    ];
    prop::collection::vec(token, 0..24).prop_map(|t| t.concat().into_bytes())
}

/// Strings I-JSON admits: noncharacters (U+FDD0..U+FDEF, U+xFFFE/U+xFFFF) are excluded
/// (RFC 7493 §2.1, profile JSON-002).
fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>().prop_map(|s| s
            .chars()
            .map(|c| {
                let cp = u32::from(c);
                if (0xFDD0..=0xFDEF).contains(&cp) || cp & 0xFFFE == 0xFFFE {
                    '?'
                } else {
                    c
                }
            })
            .collect()),
        "[ab~/\"\\\\\\x00-\\x1f\\x{7f}\\x{80}\\x{ff}\\x{20ac}\\x{fb33}\\x{fffd}\\x{1f600}\\x{1f602}\\x{10fffd}]{0,5}",
    ]
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        arb_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((arb_string(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Rewrites of canonical text (found, replacement) that keep it valid JSON of the same value
/// or of another one; the flag must follow `canonicalize` either way.
const JCS_EDITS: &[(&str, &str)] = &[
    (",", ", "),
    (":", ": "),
    ("{", "{\n"),
    ("]", " ]"),
    ("/", "\\/"),
    ("a", "\\u0061"),
    ("\\n", "\\u000a"),
    ("\\u001f", "\\u001F"),
    ("\\u0000", "\\u0000"),
    ("\u{20ac}", "\\u20ac"),
    ("\u{1f600}", "\\ud83d\\ude00"),
    ("0", "0.0"),
    ("1", "1e0"),
    ("1", "10"),
    ("e+", "E+"),
    ("-", "-0"),
    ("true", "false"),
];

const MUTATION_TOKENS: &[&str] = &[
    " ",
    "\u{c}",
    "\u{b}",
    "\u{a0}",
    "\u{feff}",
    "\u{0}",
    "\u{1f}",
    ",",
    ":",
    "[",
    "]",
    "{",
    "}",
    "\"",
    "\\",
    "\\u",
    "\\ud800",
    "\\udc00",
    "\\u0061",
    "-",
    "+",
    "0",
    "1",
    ".",
    "e",
    "E",
    "1e400",
    "/",
    "'",
    "a",
    "\"a\":1,",
    ",\"a\":1",
    "\u{e9}",
    "\u{1f600}",
];

/// `parse_strict_jcs` parses exactly like `parse_strict`, and its flag says whether the input is
/// byte for byte what `canonicalize` (serde_json_canonicalizer) writes for the parsed value.
fn check_jcs_flag(input: &[u8]) -> Result<(), TestCaseError> {
    match (parse_strict(input), parse_strict_jcs(input)) {
        (Ok(a), Ok((b, canonical))) => {
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(
                canonical,
                canonicalize(&a) == input,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
        (Err(a), Err(b)) => prop_assert_eq!(a, b),
        (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
    }
    Ok(())
}

/// Checks the invariants every result must satisfy, and compares with serde_json.
fn check_against_serde_json(input: &[u8]) -> Result<(), TestCaseError> {
    let ours = parse_strict(input);
    let theirs = serde_json::from_slice::<Value>(input);
    check_jcs_flag(input)?;
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
        (Ok(a), Err(e)) => prop_assert!(
            false,
            "we accept {:?} as {} but serde_json says {}",
            input,
            a,
            e
        ),
        // I-JSON is stricter than RFC 8259 on purpose: duplicates and noncharacters.
        (Err(e), Ok(_)) => prop_assert!(
            matches!(
                e.code,
                JsonDuplicateMember | JsonTooLarge | JsonNoncharacter
            ),
            "serde_json accepts {:?} but we reject it: {:?}",
            input,
            e
        ),
        (Err(ours), Err(theirs)) => {
            // Where both report a syntax error at the same kind of place, the positions agree.
            // serde_json gives a 1-based line and a 1-based column counted in bytes (a newline
            // itself is reported as column 0 of the next line, so those are skipped). It differs
            // on purpose elsewhere: at end of input it points at the last byte (we: the input
            // length), and in `\uXXXX` it reads four bytes before complaining (we: the first
            // bad digit).
            let same_kind_of_place = [
                "expected `,` or `]`",
                "expected `,` or `}`",
                "expected `:`",
                "expected ident",
                "expected value",
                "key must be a string",
                "trailing characters",
                "trailing comma",
                "invalid number",
                "control character",
            ];
            let message = theirs.to_string();
            let offset = ours.offset.unwrap_or(u64::MAX) as usize;
            if ours.code == JsonSyntax
                && same_kind_of_place.iter().any(|k| message.starts_with(k))
                && input.get(offset).is_some_and(|&b| b != b'\n')
                && theirs.column() >= 1
            {
                let line_start = input
                    .split(|&b| b == b'\n')
                    .take(theirs.line() - 1)
                    .map(|l| l.len() + 1)
                    .sum::<usize>();
                prop_assert_eq!(
                    offset,
                    line_start + theirs.column() - 1,
                    "offset differs from serde_json's {} for {:?}: {:?}",
                    message,
                    String::from_utf8_lossy(input),
                    ours
                );
            }
            if ours.code == JsonNumberOutOfRange {
                prop_assert!(
                    message.starts_with("number out of range"),
                    "{:?} vs {}",
                    ours,
                    message
                );
            }
            if ours.code == JsonLoneSurrogate {
                prop_assert!(
                    message.starts_with("lone leading surrogate")
                        || message.starts_with("unexpected end of hex escape")
                        // `"\ud800` then end of input: we report the surrogate (earlier)
                        || message.starts_with("EOF while parsing a string"),
                    "{:?} vs {}",
                    ours,
                    message
                );
            }
        }
    }
    if let Err(e) = ours {
        let offset = e.offset.expect("every error has an offset");
        prop_assert!(
            offset <= input.len() as u64,
            "offset {} past the end: {:?}",
            offset,
            e
        );
        let wants_pointer = matches!(
            e.code,
            JsonDuplicateMember | JsonLoneSurrogate | JsonNumberOutOfRange | JsonNoncharacter
        );
        prop_assert_eq!(e.pointer.is_some(), wants_pointer, "{:?}", e);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        check_against_serde_json(&bytes)?;
    }

    #[test]
    fn jsonish_text_agrees_with_serde_json(bytes in jsonish()) {
        check_against_serde_json(&bytes)?;
    }

    #[test]
    fn number_like_tokens_agree_with_serde_json(
        token in "-?[0-9]{0,3}(\\.[0-9]{0,3})?([eE][-+]?[0-9]{0,4})?|[-+.eE0-9]{1,8}",
        wrap in any::<bool>(),
    ) {
        let text = if wrap { format!("[{token}]") } else { token };
        check_against_serde_json(text.as_bytes())?;
    }

    #[test]
    fn string_like_tokens_agree_with_serde_json(
        body in "([a\\x00-\\x1f\"/\\\\]|\\\\[\"\\\\/bfnrtux]|\\\\u[0-9a-fA-FgG]{0,4}|\\\\u[dD][89abAB][0-9a-f]{2}|\\\\u[dD][c-fC-F][0-9a-f]{2}|\\x{e9}|\\x{1f600})*",
        as_name in any::<bool>(),
    ) {
        let text = if as_name { format!("{{\"{body}\":0}}") } else { format!("\"{body}\"") };
        check_against_serde_json(text.as_bytes())?;
    }

    #[test]
    fn serialized_values_parse_back_equal(value in arb_value()) {
        let compact = serde_json::to_vec(&value).unwrap();
        prop_assert_eq!(&parse_strict(&compact).unwrap(), &value);
        let pretty = serde_json::to_vec_pretty(&value).unwrap();
        prop_assert_eq!(&parse_strict(&pretty).unwrap(), &value);
    }

    #[test]
    fn mutated_documents_agree_with_serde_json(
        value in arb_value(),
        pretty in any::<bool>(),
        at in any::<prop::sample::Index>(),
        op in 0..3u8,
        insert in prop::sample::select(MUTATION_TOKENS),
    ) {
        let mut bytes = if pretty {
            serde_json::to_vec_pretty(&value).unwrap()
        } else {
            serde_json::to_vec(&value).unwrap()
        };
        let at = at.index(bytes.len() + 1);
        match op {
            0 => {
                bytes.splice(at..at, insert.bytes());
            }
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ if at < bytes.len() => {
                bytes.splice(at..=at, insert.bytes());
            }
            _ => bytes.extend_from_slice(insert.as_bytes()),
        }
        check_against_serde_json(&bytes)?;
    }

    /// Canonical bytes are recognized; one edit of the kinds JCS forbids (a space, members in
    /// another order, an escape or number written another way) is judged as `canonicalize` does.
    #[test]
    fn the_jcs_flag_agrees_with_canonicalize(
        value in arb_value(),
        at in any::<prop::sample::Index>(),
        edit in prop::sample::select(JCS_EDITS),
    ) {
        let canonical = canonicalize(&value);
        let (parsed, flag) = parse_strict_jcs(&canonical).unwrap();
        prop_assert!(flag, "{}", String::from_utf8_lossy(&canonical));
        // Not `parsed == value`: integers past 2^53 are rounded to doubles by JCS.
        prop_assert_eq!(canonicalize(&parsed), canonical.clone());
        let text = String::from_utf8(canonical).unwrap();
        let starts: Vec<usize> = text.match_indices(edit.0).map(|(i, _)| i).collect();
        if !starts.is_empty() {
            let i = starts[at.index(starts.len())];
            let edited = format!("{}{}{}", &text[..i], edit.1, &text[i + edit.0.len()..]);
            check_jcs_flag(edited.as_bytes())?;
        }
        if let Value::Object(m) = &value {
            let jcs = |v: &Value| String::from_utf8(canonicalize(v)).unwrap();
            let members: Vec<String> = m
                .iter()
                .rev()
                .map(|(k, v)| format!("{}:{}", jcs(&Value::String(k.clone())), jcs(v)))
                .collect();
            check_jcs_flag(format!("{{{}}}", members.join(",")).as_bytes())?;
        }
    }

    #[test]
    fn truncations_of_valid_documents_never_panic(value in arb_value(), cut in any::<prop::sample::Index>()) {
        let bytes = serde_json::to_vec(&value).unwrap();
        let cut = cut.index(bytes.len() + 1);
        check_against_serde_json(&bytes[..cut])?;
    }
}

/// The JCS flag on hand-picked texts (expected values from RFC 8785: §3.2.2.2 string escapes,
/// §3.2.3 member order by UTF-16 code units, §3.2.2.3 and Appendix B number forms).
#[test]
fn jcs_flag_by_hand() {
    let cases: &[(&str, bool)] = &[
        (r#"{"a":1,"b":[true,null,"x"]}"#, true),
        (r#"{"b":1,"a":2}"#, false),
        (r#"{"a":1, "b":2}"#, false),
        (" 1", false),
        ("1\n", false),
        (r#"["\u001f\b\f\n\r\t\"\\"]"#, true),
        (r#"["\u001F"]"#, false),
        (r#"["\u000a"]"#, false),
        (r#"["\/"]"#, false),
        (r#"["\u0041"]"#, false),
        (r#"["\ud83d\ude00"]"#, false),
        ("[\"\u{1f600}\u{2028}\u{7f}\"]", true),
        // U+10000 is D800 DC00 in UTF-16, so it sorts before U+E000 (code points: after).
        ("{\"\u{10000}\":1,\"\u{e000}\":2}", true),
        ("{\"\u{e000}\":1,\"\u{10000}\":2}", false),
        ("[0,-1,123456789012345,1e+21,1.5,-0.001,5e-7]", true),
        ("[-0]", false),
        ("[1.0]", false),
        ("[1E+21]", false),
        ("[1e21]", false),
        ("[9007199254740993]", false),
        ("[1234567890123456]", true),
        ("[100000000000000000000]", true),
    ];
    for (text, canonical) in cases {
        let (value, flag) = parse_strict_jcs(text.as_bytes()).unwrap();
        assert_eq!(flag, *canonical, "{text}");
        assert_eq!(
            canonicalize(&value) == text.as_bytes(),
            *canonical,
            "{text}"
        );
    }
}

/// RFC 7493 §2.1 (profile JSON-002): noncharacters are refused, raw or escaped, in values and
/// member names. Offsets hand-counted: `["` is 2 bytes, so the value's first character is at 2.
#[test]
fn noncharacters_are_rejected_with_offsets() {
    use citeproof_model::{IncidentCode, json::parse_strict};
    let cases: &[(&[u8], u64)] = &[
        ("[\"\u{FDD0}\"]".as_bytes(), 2),
        ("[\"ab\u{FFFE}\"]".as_bytes(), 4),
        ("{\"\u{10FFFF}\":1}".as_bytes(), 2),
        (br#"["\uFDEF"]"#, 2),
        (br#"["x\uFFFF"]"#, 3),
        (br#"["\ud83f\udffe"]"#, 2), // U+1FFFE as a surrogate pair
    ];
    for (input, offset) in cases {
        let err = parse_strict(input).unwrap_err();
        assert_eq!(
            err.code,
            IncidentCode::JsonNoncharacter,
            "{:?}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(
            err.offset,
            Some(*offset),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
    // Neighbours of noncharacters are fine.
    for ok in [
        "[\"\u{FDCF}\u{FDF0}\u{FFFD}\u{1FFFD}\"]",
        r#"["\uFDCF\uFFFD"]"#,
    ] {
        assert!(parse_strict(ok.as_bytes()).is_ok(), "{ok}");
    }
}
