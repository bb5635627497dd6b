//! Reading the lines an implementation writes. Replies are transport, not documents under test:
//! an honest reply may carry any Unicode scalar value in its strings (a span text with U+FDD0,
//! a noncharacter that I-JSON forbids in *documents*), so lines are read by the model's JSON
//! reader in its reply mode ([`Mode::Reply`]), permissive but bounded:
//!
//! - the line length is bounded by the reader of the child's stdout
//!   ([`crate::protocol::DEFAULT_MAX_LINE_BYTES`]);
//! - nesting is bounded by [`citeproof_model::json::MAX_DEPTH`] (128);
//! - the bytes must be UTF-8 and the text RFC 8259 JSON. A lone surrogate escape (`"\ud800"`,
//!   which RFC 8259 allows and a Rust string cannot hold) is read as U+FFFD (a finding of the
//!   reader, not a parse failure): the reply is then judged (an output holding it is a wrong
//!   answer), not recorded as errored;
//! - duplicate member names are refused: they make a reply ambiguous (`"result":"invalid",
//!   "result":"valid"`), whatever the content.
//!
//! Noncharacters, U+FEFF inside strings and numbers of any magnitude are accepted (a number
//! beyond `f64` is refused).

use citeproof_model::json::{self, JsonError, Mode, Reader};
use serde_json::Value;

/// Parses one line from an implementation. `Err` says why, for the case's message.
pub fn parse_line(line: &[u8]) -> Result<Value, String> {
    let mut reader = Reader::new(line, Mode::Reply, usize::MAX).map_err(not_json)?;
    json::build(&mut reader).map_err(not_json)
}

fn not_json(e: JsonError) -> String {
    let at = e
        .offset
        .map(|o| format!(" at byte {o}"))
        .unwrap_or_default();
    format!("not a JSON text ({}{at}: {})", e.code, e.message)
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
