//! Reading the lines an implementation writes. Replies are transport, not documents under test:
//! an honest reply may carry any Unicode scalar value in its strings (a span text with U+FDD0,
//! a noncharacter that I-JSON forbids in *documents*), so lines are read with a permissive but
//! bounded JSON reader:
//!
//! - the line length is bounded by the reader of the child's stdout
//!   ([`crate::protocol::DEFAULT_MAX_LINE_BYTES`]);
//! - nesting is bounded by serde_json's recursion limit (128);
//! - the bytes must be UTF-8 and the text RFC 8259 JSON. A lone surrogate escape (`"\ud800"`,
//!   which RFC 8259 allows and a Rust string cannot hold) is read as U+FFFD: the reply is then
//!   judged (an output holding it is a wrong answer), not recorded as errored;
//! - duplicate member names are refused: they make a reply ambiguous (`"result":"invalid",
//!   "result":"valid"`), whatever the content.
//!
//! Noncharacters, U+FEFF inside strings and numbers of any magnitude are accepted (a number
//! beyond `f64` is an error of serde_json and is refused).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parses one line from an implementation. `Err` says why, for the case's message.
pub fn parse_line(line: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(line).map_err(|e| {
        format!(
            "not a JSON text (json-invalid-utf8: the line is not UTF-8 at byte {})",
            e.valid_up_to()
        )
    })?;
    match serde_json::from_str::<Transport>(text) {
        Ok(t) => Ok(t.0),
        Err(e) if e.to_string().contains("surrogate") || e.to_string().contains("hex escape") => {
            serde_json::from_str::<Transport>(&replace_lone_surrogates(text))
                .map(|t| t.0)
                .map_err(|e| format!("not a JSON text ({e})"))
        }
        Err(e) => Err(format!("not a JSON text ({e})")),
    }
}

/// `text` with every `\uXXXX` escape of a lone surrogate (inside strings) replaced by
/// `\ufffd`; paired surrogates and everything else are kept.
fn replace_lone_surrogates(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex_at = |i: usize| -> Option<u16> {
        let digits = text.get(i..i + 4)?;
        u16::from_str_radix(digits, 16).ok()
    };
    let escape_at = |i: usize| -> Option<u16> {
        (bytes.get(i) == Some(&b'\\') && bytes.get(i + 1) == Some(&b'u'))
            .then(|| hex_at(i + 2))
            .flatten()
    };
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                in_string = !in_string;
                i += 1;
            }
            b'\\' if in_string => match escape_at(i) {
                Some(0xD800..=0xDBFF)
                    if escape_at(i + 6).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low)) =>
                {
                    i += 12;
                }
                Some(0xD800..=0xDFFF) => {
                    out.push_str(&text[copied..i]);
                    out.push_str("\\ufffd");
                    i += 6;
                    copied = i;
                }
                _ => i += 2,
            },
            _ => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// A JSON value whose objects have no duplicate member names.
struct Transport(Value);

impl<'de> Deserialize<'de> for Transport {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(TransportVisitor)
            .map(Transport)
    }
}

struct TransportVisitor;

impl<'de> Visitor<'de> for TransportVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number is not finite"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Transport(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate member name {key:?}")));
            }
            let Transport(value) = map.next_value()?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noncharacters_and_bom_inside_strings_are_transport() {
        for line in [
            "{\"t\":\"a\u{FDD0}b\"}",
            r#"{"t":"a\ufdd0b"}"#,
            r#"{"t":"\uffff\ud83f\udfff"}"#,
            "{\"t\":\"\u{FEFF}x\"}",
        ] {
            let v = parse_line(line.as_bytes()).unwrap();
            assert!(v["t"].is_string(), "{line}");
        }
        assert_eq!(
            parse_line(r#"{"t":"a\ufdd0b"}"#.as_bytes()).unwrap()["t"],
            "a\u{FDD0}b"
        );
    }

    #[test]
    fn still_bounded_and_unambiguous() {
        for bad in [
            &br#"{"seq":1,"seq":2}"#[..],
            br#"{"a":{"b":1,"b":1}}"#,
            b"{\"t\":\"\xff\"}",
            b"not json",
            br#"{"n":1e400}"#,
        ] {
            assert!(parse_line(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse_line(deep.as_bytes()).is_err());
        let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(parse_line(ok.as_bytes()).is_ok());
        assert!(parse_line(b"{\"x\":\"\xef\xbf\xbe\"}").is_ok());
    }

    #[test]
    fn lone_surrogate_escapes_are_read_as_replacement_characters() {
        let v = parse_line(br#"{"t":"a\ud800b","u":"\udc00","p":"\ud83d\ude00","k":"\\ud800"}"#)
            .unwrap();
        assert_eq!(v["t"], "a\u{FFFD}b");
        assert_eq!(v["u"], "\u{FFFD}");
        assert_eq!(v["p"], "\u{1F600}");
        assert_eq!(v["k"], "\\ud800", "an escaped backslash is not an escape");
        assert_eq!(
            parse_line(br#"{"t":"\ud800\ud800\udc00"}"#).unwrap()["t"],
            "\u{FFFD}\u{10000}"
        );
    }
}
