//! RFC 8785 (JCS) conformance against published test data (see `tests/data/rfc8785/README.md`):
//! the reference implementation's input/output files, the RFC's Appendix B number table and its
//! §3.2.2-§3.2.4 examples; plus a cross-check with `serde_jcs` and property tests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use citeproof_model::IncidentCode;
use citeproof_model::jcs::{canonicalize, canonicalize_json};
use citeproof_model::json::parse_strict;
use common::arb_value;
use proptest::prelude::*;
use serde_json::{Number, Value};

mod common;

const REFERENCE_FILES: [&str; 6] = [
    "arrays",
    "french",
    "structures",
    "unicode",
    "values",
    "weird",
];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rfc8785")
}

fn read(relative: &str) -> Vec<u8> {
    let path = data_dir().join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read_text(relative: &str) -> String {
    String::from_utf8(read(relative)).unwrap()
}

/// Bytes written as whitespace-separated hex pairs (the `outhex` files, RFC 8785 §3.2.4).
fn decode_hex_listing(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|pair| u8::from_str_radix(pair, 16).unwrap())
        .collect()
}

fn jcs_string(value: &Value) -> String {
    String::from_utf8(canonicalize(value)).unwrap()
}

// ------------------------------------------------- reference implementation's test files

#[test]
fn reference_directory_holds_exactly_the_known_files() {
    for dir in ["input", "output"] {
        let mut names: Vec<String> = std::fs::read_dir(data_dir().join("cyberphone").join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let expected: Vec<String> = REFERENCE_FILES
            .iter()
            .map(|n| format!("{n}.json"))
            .collect();
        assert_eq!(names, expected, "{dir}/");
    }
}

#[test]
fn reference_inputs_canonicalize_to_reference_outputs_byte_for_byte() {
    for name in REFERENCE_FILES {
        let input = read(&format!("cyberphone/input/{name}.json"));
        let expected = read(&format!("cyberphone/output/{name}.json"));
        let got = canonicalize_json(&input).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&expected),
            "{name}"
        );
        assert_eq!(got, expected, "{name}");
    }
}

#[test]
fn reference_hex_outputs_match_the_json_outputs() {
    for name in REFERENCE_FILES {
        let hex = decode_hex_listing(&read_text(&format!("cyberphone/outhex/{name}.txt")));
        assert_eq!(
            hex,
            read(&format!("cyberphone/output/{name}.json")),
            "{name}"
        );
    }
}

#[test]
fn reference_outputs_are_fixed_points() {
    for name in REFERENCE_FILES {
        let output = read(&format!("cyberphone/output/{name}.json"));
        assert_eq!(canonicalize_json(&output).unwrap(), output, "{name}");
    }
}

#[test]
fn serde_jcs_agrees_on_reference_files() {
    for name in REFERENCE_FILES {
        let value = parse_strict(&read(&format!("cyberphone/input/{name}.json"))).unwrap();
        let theirs = serde_jcs::to_vec(&value).unwrap();
        assert_eq!(
            theirs,
            read(&format!("cyberphone/output/{name}.json")),
            "{name}"
        );
    }
}

// ------------------------------------------------- RFC 8785 Appendix B

struct AppendixBRow {
    bits: u64,
    /// `None` for the NaN and Infinity rows (empty in the RFC's table).
    expected: Option<String>,
    comment: String,
}

fn appendix_b() -> Vec<AppendixBRow> {
    let text = read_text("rfc/appendix-b.csv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("ieee754_hex,json_representation,comment")
    );
    lines
        .map(|line| {
            let mut fields = line.splitn(3, ',');
            let hex = fields.next().unwrap();
            let expected = fields.next().unwrap();
            let comment = fields.next().unwrap().to_string();
            AppendixBRow {
                bits: u64::from_str_radix(hex, 16).unwrap(),
                expected: (!expected.is_empty()).then(|| expected.to_string()),
                comment,
            }
        })
        .collect()
}

#[test]
fn appendix_b_table_is_complete() {
    let rows = appendix_b();
    assert_eq!(rows.len(), 26);
    assert_eq!(rows.iter().filter(|r| r.expected.is_none()).count(), 2);
}

#[test]
fn appendix_b_finite_values_serialize_as_published() {
    let mut checked = 0;
    for row in appendix_b() {
        let Some(expected) = &row.expected else {
            continue;
        };
        let x = f64::from_bits(row.bits);
        let number = Number::from_f64(x).unwrap();
        let value = Value::Array(vec![Value::Number(number)]);
        let want = format!("[{expected}]");
        assert_eq!(
            jcs_string(&value),
            want,
            "{:016x} {}",
            row.bits,
            row.comment
        );
        assert_eq!(
            String::from_utf8(serde_jcs::to_vec(&value).unwrap()).unwrap(),
            want,
            "serde_jcs {:016x}",
            row.bits
        );
        // The published text reads back as the same double (minus zero reads back as zero) and
        // is already canonical.
        let back = parse_strict(expected.as_bytes()).unwrap();
        let read_back = back.as_f64().unwrap();
        assert!(read_back == x, "{expected} reads back as {read_back}");
        assert_eq!(
            canonicalize_json(expected.as_bytes()).unwrap(),
            expected.as_bytes()
        );
        checked += 1;
    }
    assert_eq!(checked, 24);
}

/// RFC 8785 §3.2.2.3: NaN and Infinity "MUST cause a compliant JCS implementation to terminate
/// with an appropriate error". They cannot be a `serde_json::Number` at all, the canonicalizer
/// refuses a raw `f64` of that kind, and no JSON text denotes them (`1e400` is out of range).
#[test]
fn appendix_b_nan_and_infinity_are_not_representable() {
    let rows = appendix_b();
    let non_finite: Vec<&AppendixBRow> = rows.iter().filter(|r| r.expected.is_none()).collect();
    assert_eq!(non_finite.len(), 2);
    for row in non_finite {
        for bits in [row.bits, row.bits | (1 << 63)] {
            let x = f64::from_bits(bits);
            assert!(!x.is_finite(), "{bits:016x}");
            assert!(Number::from_f64(x).is_none(), "{bits:016x}");
            assert!(serde_json_canonicalizer::to_vec(&x).is_err(), "{bits:016x}");
            assert!(serde_jcs::to_vec(&x).is_err(), "{bits:016x}");
        }
    }
    for text in ["NaN", "Infinity", "-Infinity", "[NaN]"] {
        let e = parse_strict(text.as_bytes()).unwrap_err();
        assert_eq!(e.code, IncidentCode::JsonSyntax, "{text}");
    }
    for text in ["1e400", "-1e400", "[1.8e308]"] {
        let e = parse_strict(text.as_bytes()).unwrap_err();
        assert_eq!(e.code, IncidentCode::JsonNumberOutOfRange, "{text}");
    }
}

/// Sample lines of the reference number test file, from `testdata/README.md` of the reference
/// implementation (the full file has 100 million lines and is not committed).
#[test]
fn es6_number_sample_lines() {
    let lines = [
        ("4340000000000001", "9007199254740994"),
        ("4340000000000002", "9007199254740996"),
        ("444b1ae4d6e2ef50", "1e+21"),
        ("3eb0c6f7a0b5ed8d", "0.000001"),
        ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
        ("8000000000000000", "0"),
        ("0", "0"),
    ];
    for (hex, expected) in lines {
        let x = f64::from_bits(u64::from_str_radix(hex, 16).unwrap());
        let value = Value::Number(Number::from_f64(x).unwrap());
        assert_eq!(jcs_string(&value), expected, "{hex}");
    }
}

/// RFC 8785 treats every number as a double; integers beyond 2^53 lose precision like in
/// ECMAScript even when serde_json holds them exactly as u64/i64.
#[test]
fn integers_are_serialized_as_doubles() {
    let cases = [
        ("9007199254740993", "9007199254740992"),
        (
            "[9007199254740993,-9007199254740993]",
            "[9007199254740992,-9007199254740992]",
        ),
        ("295147905179352825856", "295147905179352830000"), // 2^68, Appendix B note (2)
        ("18446744073709551615", "18446744073709552000"),
        ("-9223372036854775808", "-9223372036854776000"),
        ("1424953923781206.25", "1424953923781206.2"), // Appendix B note (4)
    ];
    for (input, expected) in cases {
        let got = canonicalize_json(input.as_bytes()).unwrap();
        assert_eq!(String::from_utf8(got).unwrap(), expected, "{input}");
        let value = parse_strict(input.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8(serde_jcs::to_vec(&value).unwrap()).unwrap(),
            expected,
            "serde_jcs {input}"
        );
    }
}

// ------------------------------------------------- RFC 8785 §3.2.2 - §3.2.4 examples

#[test]
fn section_3_2_2_example_yields_section_3_2_4_bytes() {
    let input = read("rfc/section-3.2.2-input.json");
    let expected = decode_hex_listing(&read_text("rfc/section-3.2.4-output.hex"));
    assert_eq!(canonicalize_json(&input).unwrap(), expected);
    // §3.2.3 prints the same result as text (wrapped for display in the RFC).
    assert_eq!(
        String::from_utf8(expected.clone()).unwrap(),
        "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\
         \"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"
    );
    // The reference implementation's values.json is the same example.
    assert_eq!(expected, read("cyberphone/output/values.json"));
}

#[test]
fn section_3_2_3_sorting_example() {
    let input = read("rfc/section-3.2.3-sorting-input.json");
    let canonical = String::from_utf8(canonicalize_json(&input).unwrap()).unwrap();
    let order: Vec<String> = read_text("rfc/section-3.2.3-sorting-order.txt")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(order.len(), 7);
    let positions: Vec<usize> = order
        .iter()
        .map(|v| {
            canonical
                .find(&format!(":\"{v}\""))
                .unwrap_or_else(|| panic!("{v} missing"))
        })
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "values out of the RFC's order in {canonical}"
    );
    // The full canonical text follows from that order and the §3.2.2.2 string rules (U+0080 and
    // the others are written as is; only CR is escaped).
    assert_eq!(
        canonical,
        "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
         \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
         \"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
    );
    // UTF-16 order differs from code point (and UTF-8) order here: U+1F600 sorts before U+FB33.
    assert!(canonical.find('\u{1f600}') < canonical.find('\u{fb33}'));
    let value = parse_strict(&input).unwrap();
    assert_eq!(serde_jcs::to_vec(&value).unwrap(), canonical.as_bytes());
}

// ------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn canonicalization_is_idempotent(value in arb_value()) {
        let once = canonicalize(&value);
        let reparsed = parse_strict(&once).unwrap();
        prop_assert_eq!(canonicalize(&reparsed), once.clone());
        prop_assert_eq!(canonicalize_json(&once).unwrap(), once);
    }

    #[test]
    fn agrees_with_serde_jcs(value in arb_value()) {
        let ours = canonicalize(&value);
        let theirs = serde_jcs::to_vec(&value).unwrap();
        prop_assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(theirs).unwrap());
    }

    #[test]
    fn any_serialization_canonicalizes_the_same(value in arb_value()) {
        let compact = canonicalize_json(&serde_json::to_vec(&value).unwrap()).unwrap();
        let pretty = canonicalize_json(&serde_json::to_vec_pretty(&value).unwrap()).unwrap();
        prop_assert_eq!(&compact, &pretty);
        prop_assert_eq!(compact, canonicalize(&value));
    }

    #[test]
    fn f64_bit_patterns_round_trip_through_canonical_text(bits in any::<u64>()) {
        let x = f64::from_bits(bits);
        prop_assume!(x.is_finite());
        let text = canonicalize(&Value::Number(Number::from_f64(x).unwrap()));
        let back = parse_strict(&text).unwrap().as_f64().unwrap();
        // -0 canonicalizes as 0; everything else comes back bit for bit.
        prop_assert!(back == x && (x == 0.0 || back.to_bits() == bits), "{:016x} -> {:?}", bits, String::from_utf8_lossy(&text));
    }
}
