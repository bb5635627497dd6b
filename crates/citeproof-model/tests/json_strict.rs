//! Strict I-JSON parsing: every rejection kind with its exact code, byte offset and pointer
//! (offsets computed by hand and noted next to each case) and accepted edge cases (property
//! tests: `json_properties.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_model::IncidentCode::{self, *};
use citeproof_model::jcs::canonicalize;
use citeproof_model::json::{
    JsonError, MAX_DEPTH, MAX_DOCUMENT_BYTES, parse_strict, parse_strict_jcs,
};
use serde_json::{Value, json};

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
