//! Strict I-JSON (RFC 7493) parsing: rejects duplicate member names, lone surrogates,
//! numbers that are not finite doubles, invalid UTF-8, and oversized or too-deep input.
//!
//! # One scanner, three ways to use it
//!
//! - [`parse_strict`] (and [`parse_strict_limited`], [`parse_strict_jcs`]): a
//!   `serde_json::Value`;
//! - [`Reader`]: the tokens themselves, one at a time ([`Token`]: byte offset, the token's text
//!   exactly as written, member names and strings unescaped and borrowed from the input when
//!   they hold no escape, numbers with their text), members in the order written. Every check
//!   below happens in the same pass: a reader yields no token past the first fault;
//! - [`build`]: any tree from those tokens ([`Tree`]), without recursion: `parse_strict` is
//!   `build::<Value>`, the chain's number-keeping tree and the variants' token tree are others.
//!
//! [`Mode::Reply`] reads the lines an implementation under test writes (adapter replies) with
//! the same grammar and bounds but two differences: noncharacters are accepted, and a lone
//! surrogate escape is read as U+FFFD and recorded as a finding ([`Reader::findings`]) instead
//! of ending the parse.
//!
//! # Why a hand-written scanner
//!
//! `serde_json` is a fine parser but does not fit a strict verifier on three points:
//! `serde_json::Value` silently keeps the last of duplicate keys; a `DeserializeSeed` visitor
//! can see duplicates but not *where* they are in the input (serde's visitors get no byte
//! positions); and its errors carry a line and column only, not the byte offset and JSON
//! pointer an incident needs. So this module scans the RFC 8259 grammar itself (no recursion:
//! an explicit stack of open containers), decodes strings itself (to compare member names after
//! unescaping and to catch lone surrogates), and hands every number token to `serde_json` so
//! numbers get exactly serde_json's parsing (`float_roundtrip` is on in the workspace). The
//! `Value` of [`parse_strict`] is equal to what `serde_json::from_slice` returns for the same
//! accepted input (a property test checks that).
//!
//! # What is rejected, and where
//!
//! Checks run in this order; the first failure is returned:
//!
//! 1. more than [`MAX_DOCUMENT_BYTES`] bytes: [`IncidentCode::JsonTooLarge`], offset =
//!    `MAX_DOCUMENT_BYTES` (the first byte past the limit);
//! 2. invalid UTF-8 anywhere (RFC 8259 §8.1): [`IncidentCode::JsonInvalidUtf8`], offset = first
//!    byte of the first invalid sequence;
//! 3. a leading byte order mark: [`IncidentCode::JsonSyntax`], offset 0. RFC 8259 §8.1 says
//!    implementations MUST NOT add a BOM and MAY ignore one; for a canonical-form verifier we
//!    choose to reject it, so that one document has one byte form;
//! 4. then the grammar, in document order. The offset is the 0-based byte offset of the first
//!    byte that cannot continue a valid I-JSON text, with these refinements:
//!    - unexpected end of input: offset = input length;
//!    - trailing non-whitespace after the value: offset of its first byte;
//!    - an invalid escape (`\x`): offset of the byte after the backslash; a bad hex digit in
//!      `\uXXXX`: offset of that digit; a raw control character in a string: its offset;
//!    - [`IncidentCode::JsonLoneSurrogate`]: offset of the backslash of the `\uD8xx` (high) or
//!      `\uDCxx` (low) escape that has no partner;
//!    - [`IncidentCode::JsonNumberOutOfRange`]: offset of the first byte of the number token
//!      (its `-` or first digit);
//!    - [`IncidentCode::JsonDuplicateMember`]: offset of the opening quote of the *second*
//!      occurrence of the name (names are compared after unescaping: `"a"` and `"\u0061"` are
//!      the same name);
//!    - nesting deeper than [`MAX_DEPTH`]: [`IncidentCode::JsonTooLarge`], offset of the `[` or
//!      `{` that opens the container one level too deep.
//!
//! `pointer` (RFC 6901, `~0`/`~1` escaped, `""` = whole document) is set for the errors that
//! concern a value: for a duplicate member, the pointer of that member (`/a/0/b`); for a number
//! out of range or a too-deep container, the pointer of that value; for a lone surrogate, the
//! pointer of the string value, or of the object when the surrogate is in a member name. Syntax,
//! UTF-8 and size errors have no pointer.
//!
//! Numbers whose magnitude underflows (`1e-400`) are accepted and read as zero, as every IEEE 754
//! parser does; only overflow to infinity is rejected. `-0` is accepted.

mod scan;
mod strings;
mod tree;

use serde_json::Value;

use crate::incident::{Incident, IncidentCode, Location};

pub use scan::{Event, Mode, Reader, Token, is_number_text};
pub use tree::{Tree, build};

/// Largest document accepted by [`parse_strict`], in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// Deepest nesting of arrays and objects accepted by [`parse_strict`]: a top-level `[]` is at
/// depth 1, so 128 nested `[` are accepted and 129 are not.
pub const MAX_DEPTH: usize = 128;

/// A JSON input that is not acceptable I-JSON (or, in [`Mode::Reply`], a finding).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct JsonError {
    pub code: IncidentCode,
    pub message: String,
    /// 0-based byte offset into the input where the problem is (see the module docs for the
    /// exact position per kind). Always set by [`parse_strict`].
    pub offset: Option<u64>,
    /// RFC 6901 JSON pointer of the offending value or member, where one applies.
    pub pointer: Option<String>,
}

impl JsonError {
    pub fn to_incident(&self) -> Incident {
        Incident::new(
            self.code,
            self.message.clone(),
            Location {
                pointer: self.pointer.clone(),
                offset: self.offset,
                ..Location::default()
            },
        )
    }

    fn at(code: IncidentCode, offset: usize, message: String) -> JsonError {
        JsonError {
            code,
            message,
            offset: Some(offset as u64),
            pointer: None,
        }
    }

    fn with_pointer(mut self, pointer: String) -> JsonError {
        self.pointer = Some(pointer);
        self
    }
}

/// Parses `input` as I-JSON (RFC 7493) over RFC 8259 syntax. Never panics; uses no recursion.
pub fn parse_strict(input: &[u8]) -> Result<Value, JsonError> {
    parse_strict_limited(input, MAX_DOCUMENT_BYTES)
}

/// [`parse_strict`] with another size limit, for containers of documents that are larger by
/// nature (a web snapshot holds every fetched body).
pub fn parse_strict_limited(input: &[u8], max_bytes: usize) -> Result<Value, JsonError> {
    tree::build_value(&mut Reader::new(input, Mode::Strict, max_bytes)?)
}

/// [`parse_strict`], and whether `input` is byte for byte the RFC 8785 (JCS) form of the value
/// it parsed to, that is `jcs::canonicalize(&value) == input`, decided during the same scan.
///
/// A verifier that must refuse a document whose bytes are not canonical (ACA-L3-012) would
/// otherwise serialize the whole document again only to compare it: for a large manifest that
/// re-serialization (member sorting by UTF-16 code units, string escaping, ECMAScript number
/// formatting) cost more than the parse itself. The scan knows every byte it consumed, so it
/// checks the few ways a valid I-JSON text can differ from its JCS form:
///
/// - whitespace between tokens (JCS emits none);
/// - member names not in strictly ascending order of their UTF-16 code units (compared after
///   unescaping, RFC 8785 §3.2.3);
/// - an escape JCS does not emit (`\/`, `\u0041`, a surrogate pair, `\u000a` for `\n`, upper-case
///   hex digits): JCS escapes exactly `"`, `\\`, the five short forms `\b \f \n \r \t` and the
///   other controls below U+0020 as `\u00xx` (RFC 8785 §3.2.2.2);
/// - a number token that is not the ECMAScript form of its double (`1.0`, `1e2`, `-0`,
///   `9007199254740993`): an integer token of at most 15 digits is its own form; any other
///   token is compared with what [`crate::jcs::canonicalize`] writes for its number.
///
/// The equivalence with `canonicalize` is checked by property tests over generated and mutated
/// documents (`tests/json_strict.rs`) and by the `json_strict` fuzz target.
pub fn parse_strict_jcs(input: &[u8]) -> Result<(Value, bool), JsonError> {
    let mut reader = Reader::new(input, Mode::Strict, MAX_DOCUMENT_BYTES)?.with_jcs_form();
    let value = tree::build_value(&mut reader)?;
    Ok((value, reader.is_jcs_form()))
}

/// A short, quoted, escaped form of possibly long input text for messages.
fn excerpt(s: &str) -> String {
    const MAX_CHARS: usize = 40;
    if s.chars().count() <= MAX_CHARS {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(MAX_CHARS).collect();
        format!("{head:?}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The duplicate check on its three paths: sorted names (no search while each is greater
    /// than the last), unsorted names under and over the hashed-index threshold, and a name that
    /// breaks the order of a long sorted object.
    #[test]
    fn duplicates_are_found_sorted_or_not() {
        let object = |names: &[String]| {
            let members: Vec<String> = names.iter().map(|n| format!("\"{n}\":0")).collect();
            format!("{{\"x\":[{{{}}}]}}", members.join(","))
        };
        let sorted: Vec<String> = (10..40).map(|i| format!("k{i}")).collect();
        let reversed: Vec<String> = sorted.iter().rev().cloned().collect();
        for names in [&sorted[..3], &sorted[..], &reversed[..3], &reversed[..]] {
            assert!(parse_strict(object(names).as_bytes()).is_ok());
            for dup in [0, names.len() / 2, names.len() - 1] {
                let mut with = names.to_vec();
                with.push(names[dup].clone());
                let e = parse_strict(object(&with).as_bytes()).unwrap_err();
                assert_eq!(e.code, IncidentCode::JsonDuplicateMember);
                assert_eq!(e.pointer.as_deref(), Some(&*format!("/x/0/{}", names[dup])));
                let text = object(&with);
                let second = text.rfind(&format!("\"{}\"", names[dup])).unwrap();
                assert_eq!(e.offset, Some(second as u64));
            }
        }
    }

    #[test]
    fn excerpt_truncates() {
        assert_eq!(excerpt("ab"), "\"ab\"");
        assert!(excerpt(&"x".repeat(100)).ends_with("\"..."));
    }
}
