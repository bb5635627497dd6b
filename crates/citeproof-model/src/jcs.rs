//! RFC 8785 JSON Canonicalization Scheme (JCS).
//!
//! Serialization is done by `serde_json_canonicalizer` (ECMAScript number formatting via
//! `ryu-js`, property names sorted by UTF-16 code units, minimal string escaping). It is checked
//! in `tests/jcs_rfc8785.rs` against the RFC 8785 test files of the reference implementation, the
//! RFC's Appendix B number table and §3.2.2-3.2.4 examples, and against `serde_jcs`.
//!
//! Numbers: RFC 8785 treats every JSON number as an IEEE 754 double. `serde_json::Value` keeps
//! integers in `u64`/`i64` exactly, but `serde_json_canonicalizer` converts them with `as f64`
//! (round to nearest, ties to even) before formatting, so `9007199254740993` canonicalizes as
//! `9007199254740992` and `18446744073709551615` as `18446744073709552000`, as in ECMAScript. No
//! normalization of the `Value` is needed for that.
//!
//! Strings: a `Value` cannot hold a lone surrogate (Rust strings are UTF-8), and NaN/Infinity
//! cannot be a `serde_json::Number`; the parser ([`parse_strict`]) rejects both in input
//! (RFC 8785 §3.2.2.2 and §3.2.2.3 require an error).

use serde_json::Value;

use crate::json::{JsonError, parse_strict};

/// The canonical (RFC 8785) bytes of an already-parsed value.
pub fn canonicalize(value: &Value) -> Vec<u8> {
    // Serializing a `Value` with serde_json_canonicalizer cannot fail: every `Number` is finite,
    // every key is a string and unique, and every string is valid Unicode. The error arm is
    // therefore unreachable; it panics rather than return bytes that could be hashed or signed
    // as if they were the canonical form.
    #[allow(clippy::expect_used)]
    serde_json_canonicalizer::to_vec(value)
        .expect("serde_json_canonicalizer failed on a serde_json::Value")
}

/// Parses `input` strictly (I-JSON, see [`parse_strict`]) and returns its canonical bytes.
pub fn canonicalize_json(input: &[u8]) -> Result<Vec<u8>, JsonError> {
    parse_strict(input).map(|v| canonicalize(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_beyond_2_pow_53_are_rounded_like_doubles() {
        let cases: &[(&str, &str)] = &[
            ("9007199254740993", "9007199254740992"),
            ("9007199254740995", "9007199254740996"),
            ("18446744073709551615", "18446744073709552000"),
            ("-9223372036854775808", "-9223372036854776000"),
            ("100000000000000000000000", "1e+23"),
            ("-0", "0"),
            ("1.0", "1"),
            ("1E+2", "100"),
        ];
        for (input, expected) in cases {
            let got = canonicalize_json(input.as_bytes()).map(String::from_utf8);
            assert_eq!(got, Ok(Ok((*expected).to_string())), "{input}");
        }
    }
}
