//! Strict I-JSON (RFC 7493) parsing: rejects duplicate member names, lone surrogates,
//! numbers that are not finite doubles, invalid UTF-8, and oversized or too-deep input.
//!
//! # Why a hand-written scanner
//!
//! `serde_json` is a fine parser but does not fit a strict verifier on three points:
//! `serde_json::Value` silently keeps the last of duplicate keys; a `DeserializeSeed` visitor
//! can see duplicates but not *where* they are in the input (serde's visitors get no byte
//! positions); and its errors carry a line and column only, not the byte offset and JSON
//! pointer an incident needs. So this module scans the RFC 8259 grammar itself (about 300 lines,
//! no recursion: an explicit stack of open containers), decodes strings itself (to compare
//! member names after unescaping and to catch lone surrogates), and hands every number token to
//! `serde_json` so numbers get exactly serde_json's parsing (`float_roundtrip` is on in the
//! workspace). The result is an ordinary `serde_json::Value`, equal to what
//! `serde_json::from_slice` returns for the same accepted input (a property test checks that).
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

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

use crate::incident::{Incident, IncidentCode, Location};

/// Largest document accepted by [`parse_strict`], in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// Deepest nesting of arrays and objects accepted by [`parse_strict`]: a top-level `[]` is at
/// depth 1, so 128 nested `[` are accepted and 129 are not.
pub const MAX_DEPTH: usize = 128;

/// A JSON input that is not acceptable I-JSON.
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
    parse(input, max_bytes).map(|(value, _)| value)
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
    parse(input, MAX_DOCUMENT_BYTES)
}

fn parse(input: &[u8], max_bytes: usize) -> Result<(Value, bool), JsonError> {
    if input.len() > max_bytes {
        return Err(JsonError::at(
            IncidentCode::JsonTooLarge,
            max_bytes,
            format!(
                "document is {} bytes; the limit is {max_bytes}",
                input.len()
            ),
        ));
    }
    let text = match std::str::from_utf8(input) {
        Ok(text) => text,
        Err(e) => {
            return Err(JsonError::at(
                IncidentCode::JsonInvalidUtf8,
                e.valid_up_to(),
                format!("input is not valid UTF-8 (byte {})", e.valid_up_to()),
            ));
        }
    };
    if text.starts_with('\u{feff}') {
        return Err(JsonError::at(
            IncidentCode::JsonSyntax,
            0,
            "input starts with a byte order mark (U+FEFF), which is not accepted".into(),
        ));
    }
    Parser {
        text,
        bytes: input,
        pos: 0,
        stack: Vec::new(),
        canonical: true,
    }
    .parse_document()
}

/// An open container. A frame is on the stack while one of its values is being parsed; while a
/// member *name* is parsed the object's frame is off the stack (so the stack then describes the
/// object itself).
enum Frame {
    Array(Vec<Value>),
    /// `key` is the name of the member whose value is being parsed.
    Object {
        map: Map<String, Value>,
        key: String,
    },
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    stack: Vec<Frame>,
    /// Whether every byte consumed so far is what JCS would write (see [`parse_strict_jcs`]).
    canonical: bool,
}

impl<'a> Parser<'a> {
    fn parse_document(mut self) -> Result<(Value, bool), JsonError> {
        'value: loop {
            self.skip_ws();
            let mut value = match self.peek() {
                Some(b'{') => {
                    self.check_depth()?;
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Map::new())
                    } else {
                        let map = Map::new();
                        let key = self.parse_member_name(&map, None)?;
                        self.stack.push(Frame::Object { map, key });
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    self.check_depth()?;
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        self.stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.parse_string()?),
                Some(b'-' | b'0'..=b'9') => self.parse_number()?,
                Some(b't') => {
                    self.expect_literal(b"true")?;
                    Value::Bool(true)
                }
                Some(b'f') => {
                    self.expect_literal(b"false")?;
                    Value::Bool(false)
                }
                Some(b'n') => {
                    self.expect_literal(b"null")?;
                    Value::Null
                }
                _ => return Err(self.unexpected(self.pos, "a JSON value")),
            };

            // `value` is complete: hand it to its container, closing containers as they end.
            loop {
                let Some(frame) = self.stack.pop() else {
                    self.skip_ws();
                    if self.pos < self.bytes.len() {
                        return Err(self.unexpected(self.pos, "end of input after the JSON value"));
                    }
                    return Ok((value, self.canonical));
                };
                match frame {
                    Frame::Array(mut items) => {
                        items.push(value);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.stack.push(Frame::Array(items));
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                value = Value::Array(items);
                            }
                            _ => {
                                return Err(
                                    self.unexpected(self.pos, "',' or ']' after an array element")
                                );
                            }
                        }
                    }
                    Frame::Object { mut map, key } => {
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                // The previous name stays out of the map until the next one is
                                // read, so that the two can be compared for JCS order.
                                let next = self.parse_member_name(&map, Some(&key))?;
                                map.insert(key, value);
                                self.stack.push(Frame::Object { map, key: next });
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                map.insert(key, value);
                                value = Value::Object(map);
                            }
                            _ => {
                                return Err(
                                    self.unexpected(self.pos, "',' or '}' after an object member")
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        let start = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
        if self.pos != start {
            self.canonical = false;
        }
    }

    fn skip_digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    /// Called at a `[` or `{`: the stack holds its ancestors.
    fn check_depth(&self) -> Result<(), JsonError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(JsonError::at(
                IncidentCode::JsonTooLarge,
                self.pos,
                format!("arrays and objects are nested deeper than {MAX_DEPTH} levels"),
            )
            .with_pointer(self.pointer(None)));
        }
        Ok(())
    }

    /// Parses `"name"` and the following `:`; the object's own frame is not on the stack.
    /// `previous` is the name of the member before it, not yet in `map`.
    fn parse_member_name(
        &mut self,
        map: &Map<String, Value>,
        previous: Option<&str>,
    ) -> Result<String, JsonError> {
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.unexpected(start, "a member name (a string)"));
        }
        let name = self.parse_string()?;
        if self.canonical
            && let Some(previous) = previous
            && !utf16_less(previous, &name)
        {
            self.canonical = false;
        }
        if previous == Some(name.as_str()) || map.contains_key(&name) {
            return Err(JsonError::at(
                IncidentCode::JsonDuplicateMember,
                start,
                format!("duplicate member name {}", excerpt(&name)),
            )
            .with_pointer(self.pointer(Some(&name))));
        }
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.unexpected(self.pos, "':' after a member name"));
        }
        self.pos += 1;
        Ok(name)
    }

    fn expect_literal(&mut self, literal: &[u8]) -> Result<(), JsonError> {
        for &expected in literal {
            if self.peek() != Some(expected) {
                let what = String::from_utf8_lossy(literal);
                return Err(self.unexpected(self.pos, &format!("the literal `{what}`")));
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// `number = [ minus ] int [ frac ] [ exp ]` (RFC 8259 §6), then serde_json's conversion.
    fn parse_number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.skip_digits(),
            _ => return Err(self.unexpected(self.pos, "a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            match self.peek() {
                Some(b'0'..=b'9') => self.skip_digits(),
                _ => return Err(self.unexpected(self.pos, "a digit after the decimal point")),
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'0'..=b'9') => self.skip_digits(),
                _ => return Err(self.unexpected(self.pos, "a digit in the exponent")),
            }
        }
        let token = self.slice(start, self.pos)?;
        // The token matched the RFC 8259 grammar above, so serde_json can only refuse it for
        // overflowing f64 ("number out of range").
        match serde_json::from_str::<Number>(token) {
            Ok(number) => {
                if self.canonical && !is_short_integer(token) {
                    let number = Value::Number(number.clone());
                    self.canonical = crate::jcs::canonicalize(&number) == token.as_bytes();
                }
                Ok(Value::Number(number))
            }
            Err(e) => Err(JsonError::at(
                IncidentCode::JsonNumberOutOfRange,
                start,
                format!(
                    "number {} is not representable as a finite IEEE 754 double ({e})",
                    excerpt(token)
                ),
            )
            .with_pointer(self.pointer(None))),
        }
    }

    /// Parses a string starting at its opening quote and returns it unescaped.
    fn parse_string(&mut self) -> Result<String, JsonError> {
        self.pos += 1; // opening quote
        // Most strings have no escape: copy them in one allocation of their exact size. Anything
        // else (an escape, a control character, the end of input) takes the general loop below,
        // which reports errors at the same offsets.
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        if let Some(len) = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            && rest.get(len) == Some(&b'"')
        {
            let run = self.checked_run(self.pos, self.pos + len)?;
            self.pos += len + 1;
            return Ok(run.to_owned());
        }
        let mut out = String::new();
        let mut run_start = self.pos;
        loop {
            match self.peek() {
                None => {
                    return Err(JsonError::at(
                        IncidentCode::JsonSyntax,
                        self.pos,
                        "unterminated string: found end of input".into(),
                    ));
                }
                Some(b'"') => {
                    out.push_str(self.checked_run(run_start, self.pos)?);
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(self.checked_run(run_start, self.pos)?);
                    self.parse_escape(&mut out)?;
                    run_start = self.pos;
                }
                Some(byte @ 0x00..=0x1f) => {
                    return Err(JsonError::at(
                        IncidentCode::JsonSyntax,
                        self.pos,
                        format!("control character U+{byte:04X} must be escaped in a string"),
                    ));
                }
                // Any other byte, including the bytes of multi-byte UTF-8 sequences (the whole
                // input is valid UTF-8, so runs end on character boundaries).
                Some(_) => self.pos += 1,
            }
        }
    }

    /// Parses one escape starting at its backslash and appends the character it denotes.
    fn parse_escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let escape_start = self.pos;
        self.pos += 1; // backslash
        let simple = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => {
                self.canonical = false;
                '/'
            }
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let unit = self.parse_hex4()?;
                // JCS writes `\u00xx`, lower-case, only for controls without a short form.
                let hex = self.bytes.get(self.pos.saturating_sub(4)..self.pos);
                if unit >= 0x20
                    || matches!(unit, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d)
                    || hex.is_some_and(|h| h.iter().any(u8::is_ascii_uppercase))
                {
                    self.canonical = false;
                }
                let c = if (0xD800..0xDC00).contains(&unit) {
                    self.parse_low_surrogate(escape_start, unit)?
                } else {
                    // `None` exactly for a low surrogate without a preceding high surrogate.
                    char::from_u32(unit).ok_or_else(|| {
                        self.lone_surrogate(
                            escape_start,
                            format!("lone low surrogate \\u{unit:04X} in a string"),
                        )
                    })?
                };
                if is_noncharacter(c) {
                    return Err(self.noncharacter(escape_start, c));
                }
                out.push(c);
                return Ok(());
            }
            _ => return Err(self.unexpected(self.pos, "an escape character (one of \"\\/bfnrtu)")),
        };
        self.pos += 1;
        out.push(simple);
        Ok(())
    }

    /// After the high surrogate `high` (escape at `escape_start`): expects `\uDC00`-`\uDFFF`.
    fn parse_low_surrogate(&mut self, escape_start: usize, high: u32) -> Result<char, JsonError> {
        let lone = |p: &Self| {
            p.lone_surrogate(
                escape_start,
                format!("high surrogate \\u{high:04X} is not followed by a low surrogate escape"),
            )
        };
        if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u".as_slice()) {
            return Err(lone(self));
        }
        self.pos += 2;
        let low = self.parse_hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return Err(lone(self));
        }
        let code_point = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        char::from_u32(code_point).ok_or_else(|| lone(self))
    }

    fn parse_hex4(&mut self) -> Result<u32, JsonError> {
        let mut unit = 0u32;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                _ => return Err(self.unexpected(self.pos, "a hex digit in a \\u escape")),
            };
            unit = unit * 16 + u32::from(digit);
            self.pos += 1;
        }
        Ok(unit)
    }

    /// The unescaped run `start..end` of a string, refusing noncharacters (RFC 7493 §2.1).
    fn checked_run(&self, start: usize, end: usize) -> Result<&'a str, JsonError> {
        let run = self.slice(start, end)?;
        // Every noncharacter is encoded with a first byte of 0xEF or more (U+FDD0 is EF B7 90,
        // U+1FFFE is F0 9F BF BE): most runs need no decoding.
        if !run.bytes().any(|b| b >= 0xEF) {
            return Ok(run);
        }
        match run.char_indices().find(|(_, c)| is_noncharacter(*c)) {
            Some((at, c)) => Err(self.noncharacter(start + at, c)),
            None => Ok(run),
        }
    }

    fn noncharacter(&self, offset: usize, c: char) -> JsonError {
        JsonError::at(
            IncidentCode::JsonNoncharacter,
            offset,
            format!(
                "noncharacter U+{:04X} is not allowed in I-JSON strings",
                u32::from(c)
            ),
        )
        .with_pointer(self.pointer(None))
    }

    fn lone_surrogate(&self, offset: usize, message: String) -> JsonError {
        JsonError::at(IncidentCode::JsonLoneSurrogate, offset, message)
            .with_pointer(self.pointer(None))
    }

    /// The text between two byte offsets that are known to be character boundaries.
    fn slice(&self, start: usize, end: usize) -> Result<&'a str, JsonError> {
        self.text.get(start..end).ok_or_else(|| {
            // Unreachable: callers only cut at ASCII bytes of a valid UTF-8 text.
            JsonError::at(
                IncidentCode::JsonInvalidUtf8,
                start,
                "internal error: string run does not end on a character boundary".into(),
            )
        })
    }

    /// A syntax error at `offset`: "expected X, found Y".
    fn unexpected(&self, offset: usize, expected: &str) -> JsonError {
        let found = match self.text.get(offset..).and_then(|rest| rest.chars().next()) {
            None => "end of input".to_string(),
            Some(c) if c.is_control() || c.is_whitespace() => format!("U+{:04X}", u32::from(c)),
            Some(c) => format!("'{c}'"),
        };
        JsonError::at(
            IncidentCode::JsonSyntax,
            offset,
            format!("expected {expected}, found {found}"),
        )
    }

    /// RFC 6901 pointer of the value being parsed (or, while a member name is parsed, of its
    /// object), optionally extended by one member name.
    fn pointer(&self, member: Option<&str>) -> String {
        let mut pointer = String::new();
        for frame in &self.stack {
            pointer.push('/');
            match frame {
                Frame::Array(items) => {
                    let _ = write!(pointer, "{}", items.len());
                }
                Frame::Object { key, .. } => push_pointer_token(&mut pointer, key),
            }
        }
        if let Some(name) = member {
            pointer.push('/');
            push_pointer_token(&mut pointer, name);
        }
        pointer
    }
}

/// Unicode noncharacters: U+FDD0..U+FDEF and the last two code points of every plane.
fn is_noncharacter(c: char) -> bool {
    let cp = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&cp) || cp & 0xFFFE == 0xFFFE
}

/// Whether `a` sorts before `b` by UTF-16 code units (RFC 8785 §3.2.3). UTF-8 byte order is code
/// point order, which agrees with UTF-16 order except between supplementary characters and
/// U+E000..U+FFFF, so only names with a byte of `0xEE` or above need the UTF-16 comparison.
fn utf16_less(a: &str, b: &str) -> bool {
    let high = |s: &str| s.bytes().any(|c| c >= 0xEE);
    if high(a) || high(b) {
        a.encode_utf16().lt(b.encode_utf16())
    } else {
        a < b
    }
}

/// `0`, or `-`? then 1 to 15 digits without a leading zero: exact in a double and written the
/// same by ECMAScript's Number::toString.
fn is_short_integer(token: &str) -> bool {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits == "0" {
        return token == "0";
    }
    (1..=15).contains(&digits.len())
        && !digits.starts_with('0')
        && digits.bytes().all(|c| c.is_ascii_digit())
}

/// Appends `token` escaped per RFC 6901 §3 (`~` as `~0`, `/` as `~1`).
fn push_pointer_token(pointer: &mut String, token: &str) {
    pointer.push_str(&crate::pointer::escape(token));
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

    #[test]
    fn pointer_tokens_are_escaped() {
        let mut p = String::new();
        push_pointer_token(&mut p, "a/b~c");
        assert_eq!(p, "a~1b~0c");
    }

    #[test]
    fn excerpt_truncates() {
        assert_eq!(excerpt("ab"), "\"ab\"");
        assert!(excerpt(&"x".repeat(100)).ends_with("\"..."));
    }
}
