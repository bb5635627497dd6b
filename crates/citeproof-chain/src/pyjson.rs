//! Python's `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, the
//! serialization of the `seed-python` signing input (profile CHAIN-006).
//!
//! # Why this is hand-written
//!
//! Seed 004 publishes its verifier as Python, and the bytes it signs are whatever CPython's
//! `json` module writes for the value `json.loads` read. That is not RFC 8785 (JCS), which is
//! the only canonical JSON form the workspace's crates produce: Python keeps `1.0` (JCS writes
//! `1`), writes `1e-07` and `1e+16` (JCS `1e-7`, `10000000000000000`), keeps integers exact at
//! any size, and sorts member names by code point (JCS by UTF-16 code units, which differs above
//! U+FFFF). No crate reproduces CPython's output, so it is written here from CPython's
//! `Lib/json/encoder.py` and `Modules/_json.c`, over the number-preserving tree of
//! [`crate::lossless`] (an `int` and a `float` with the same value are written differently).
//! `tests/python_crosscheck.rs` compares it with the real `json.dumps` on generated documents.
//!
//! The rules:
//! - objects: members sorted by name, compared as sequences of Unicode code points; `{`, `}`,
//!   `,` and `:` with no spaces;
//! - strings: the escapes of [`crate::lossless::write_string`] (`ensure_ascii=False` writes
//!   every other character as itself);
//! - numbers: an `int` as its decimal digits, a `float` as `repr` ([`crate::numfmt`]);
//! - `true`, `false`, `null`; arrays in order.

use crate::lossless::{Compact, Node, write_compact};
use crate::numfmt::python_number;

/// A value Python's `json.dumps` could not write as the seed does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PyJsonError {
    /// A number token that is not a finite number (the strict parser never lets one through).
    #[error("the number `{0}` has no Python form")]
    Number(String),
}

/// The seed's serialization of `node`, as text (its UTF-8 encoding is the signed bytes).
pub fn dumps_sorted(node: &Node) -> Result<String, PyJsonError> {
    let mut out = String::new();
    write_compact(&SortKeys, node, &mut out)?;
    Ok(out)
}

/// `sort_keys=True`, and numbers as Python writes what `json.loads` read.
struct SortKeys;

impl Compact for SortKeys {
    type Error = PyJsonError;

    fn number(&self, token: &str) -> Result<String, PyJsonError> {
        python_number(token).ok_or_else(|| PyJsonError::Number(token.to_owned()))
    }

    fn members<'a>(&'a self, object: &'a Node) -> Vec<(&'a str, &'a Node)> {
        let Node::Object(members) = object else {
            return Vec::new();
        };
        let mut sorted: Vec<(&str, &Node)> = members.iter().map(|(k, v)| (k.as_str(), v)).collect();
        // `str` comparison in Python is by code point, which is `str`'s `Ord` in Rust.
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        sorted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lossless::parse;

    fn dumps(json: &str) -> String {
        dumps_sorted(&parse(json.as_bytes()).unwrap()).unwrap()
    }

    /// Expected values from CPython 3.11: `json.dumps(json.loads(s), sort_keys=True,
    /// separators=(",", ":"), ensure_ascii=False)`.
    #[test]
    fn published_python_behaviour() {
        assert_eq!(
            dumps(r#"{"b":1.0,"a":[1e-7,1E16,-0,-0.0,10]}"#),
            r#"{"a":[1e-07,1e+16,0,-0.0,10],"b":1.0}"#
        );
        // Code-point order: U+E000 before U+10000 (JCS puts U+10000 first).
        assert_eq!(
            dumps("{\"\\ud800\\udc00\":1,\"\\ue000\":2}"),
            "{\"\u{e000}\":2,\"\u{10000}\":1}"
        );
        assert_eq!(
            dumps(r#"["\u0001\u007f\u2028\b\/é"]"#),
            "[\"\\u0001\u{7f}\u{2028}\\b/\u{e9}\"]"
        );
        assert_eq!(
            dumps(r#"{"n":123456789012345678901234567890}"#),
            r#"{"n":123456789012345678901234567890}"#
        );
    }
}
