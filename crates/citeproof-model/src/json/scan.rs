//! The pull reader: the RFC 8259 grammar one token at a time, with the I-JSON checks of the
//! module docs in the same pass (no recursion: an explicit stack of open containers).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;

use serde_json::{Number, Value};

use super::{JsonError, MAX_DEPTH, excerpt};
use crate::incident::IncidentCode;

/// What a [`Reader`] accepts beyond RFC 8259.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// I-JSON documents (RFC 7493): every fault of the module docs ends the parse.
    Strict,
    /// Lines an implementation under test writes: transport, not documents under test. An honest
    /// reply may carry any Unicode scalar value (a span text with U+FDD0), so noncharacters are
    /// accepted; a lone surrogate escape (which RFC 8259 allows and a Rust string cannot hold) is
    /// read as U+FFFD and recorded in [`Reader::findings`]. Duplicate members, numbers beyond
    /// `f64`, depth and UTF-8 are checked as in [`Mode::Strict`].
    Reply,
}

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub enum Event<'a> {
    BeginObject,
    EndObject,
    BeginArray,
    EndArray,
    /// A member name, unescaped (borrowed from the input when it holds no escape).
    Name(Cow<'a, str>),
    /// A string value, unescaped (borrowed from the input when it holds no escape).
    String(Cow<'a, str>),
    /// A number as serde_json reads it; its text is the token's `raw`.
    Number(Number),
    Bool(bool),
    Null,
}

/// One token of the input, in document order.
#[derive(Debug, Clone, PartialEq)]
pub struct Token<'a> {
    pub event: Event<'a>,
    /// 0-based byte offset of the token's first byte (a bracket, the opening quote of a string
    /// or member name, the `-` or first digit of a number, the first letter of a literal).
    pub offset: usize,
    /// The token exactly as written: a string or name with its quotes and escapes, a number's
    /// text, a literal, or one bracket.
    pub raw: &'a str,
}

/// At most this many findings are kept ([`Reader::finding_count`] counts them all).
const MAX_FINDINGS: usize = 16;

/// Objects with more members than this index their names for the duplicate check.
const LINEAR_NAMES: usize = 16;

/// An open container.
#[derive(Debug)]
enum Open<'a> {
    /// `index` is the index of the element being read.
    Array { index: usize },
    /// Its names are `Reader::names[start..]` up to the next open object's, the last one that
    /// of the member whose value is being read. While every name is greater (byte order) than
    /// the one before (`ascending`: sorted input, JCS among it), a name greater than the last is
    /// new without a search; otherwise `index` hashes the names once there are more than
    /// [`LINEAR_NAMES`].
    Object {
        start: usize,
        ascending: bool,
        index: Option<HashSet<Cow<'a, str>>>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value (the document, an element after `,`, a member value after `:`).
    Value,
    /// After `[`: an element or `]`.
    FirstElement,
    /// After `{`: a member name or `}`.
    FirstName,
    /// After `,` in an object: a member name.
    Name,
    /// After a value: `,`, the container's end, or the end of input.
    AfterValue,
    Done,
}

/// A pull reader of JSON tokens (see the module docs). Never panics.
#[derive(Debug)]
pub struct Reader<'a> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    pub(super) mode: Mode,
    stack: Vec<Open<'a>>,
    /// The member names of every open object, outermost first: one buffer for the whole input,
    /// so that reading an object allocates nothing for its duplicate check.
    names: Vec<Cow<'a, str>>,
    state: State,
    /// Whether the JCS form is tracked ([`Reader::with_jcs_form`]).
    track_jcs: bool,
    /// Whether every byte consumed so far is what JCS would write.
    pub(super) canonical: bool,
    /// While a member name is read, its object is not part of the pointer.
    in_name: bool,
    failed: Option<JsonError>,
    findings: Vec<JsonError>,
    finding_count: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `input`; refuses at once an input over `max_bytes`, invalid UTF-8 and a
    /// leading byte order mark (checks 1 to 3 of the module docs).
    pub fn new(input: &'a [u8], mode: Mode, max_bytes: usize) -> Result<Reader<'a>, JsonError> {
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
        let text = std::str::from_utf8(input).map_err(|e| {
            JsonError::at(
                IncidentCode::JsonInvalidUtf8,
                e.valid_up_to(),
                format!("input is not valid UTF-8 (byte {})", e.valid_up_to()),
            )
        })?;
        if text.starts_with('\u{feff}') {
            return Err(JsonError::at(
                IncidentCode::JsonSyntax,
                0,
                "input starts with a byte order mark (U+FEFF), which is not accepted".into(),
            ));
        }
        Ok(Reader {
            text,
            bytes: input,
            pos: 0,
            mode,
            stack: Vec::new(),
            names: Vec::new(),
            state: State::Value,
            track_jcs: false,
            canonical: true,
            in_name: false,
            failed: None,
            findings: Vec::new(),
            finding_count: 0,
        })
    }

    /// Also decides whether the input is its own RFC 8785 form ([`Reader::is_jcs_form`]; see
    /// [`super::parse_strict_jcs`]).
    pub fn with_jcs_form(mut self) -> Reader<'a> {
        self.track_jcs = true;
        self
    }

    /// After the last token: whether every byte was what JCS writes for the value (only
    /// meaningful with [`Reader::with_jcs_form`]).
    pub fn is_jcs_form(&self) -> bool {
        self.track_jcs && self.canonical
    }

    /// What [`Mode::Reply`] read leniently (lone surrogates), in input order: the first few,
    /// each with the code, offset and pointer strict mode would have refused it with.
    pub fn findings(&self) -> &[JsonError] {
        &self.findings
    }

    /// How many findings there were, kept or not.
    pub fn finding_count(&self) -> usize {
        self.finding_count
    }

    /// The next token; `Ok(None)` after the value and any whitespace that ends the input.
    /// After an error, every call returns that error again.
    pub fn next_token(&mut self) -> Result<Option<Token<'a>>, JsonError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let next = self.step();
        if let Err(e) = &next {
            self.failed = Some(e.clone());
        }
        next
    }

    fn step(&mut self) -> Result<Option<Token<'a>>, JsonError> {
        loop {
            match self.state {
                State::Value => return self.value().map(Some),
                State::FirstElement => {
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        return Ok(Some(self.close()));
                    }
                    self.state = State::Value;
                }
                State::FirstName => {
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        return Ok(Some(self.close()));
                    }
                    return self.name().map(Some);
                }
                State::Name => return self.name().map(Some),
                State::AfterValue => {
                    self.skip_ws();
                    let comma = self.peek() == Some(b',');
                    let (more, close, expected) = match self.stack.last_mut() {
                        None if self.pos < self.bytes.len() => {
                            return Err(
                                self.unexpected(self.pos, "end of input after the JSON value")
                            );
                        }
                        None => {
                            self.state = State::Done;
                            return Ok(None);
                        }
                        Some(Open::Array { index }) => {
                            if comma {
                                *index += 1;
                            }
                            (State::Value, b']', "',' or ']' after an array element")
                        }
                        Some(Open::Object { .. }) => {
                            (State::Name, b'}', "',' or '}' after an object member")
                        }
                    };
                    match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            self.skip_ws();
                            self.state = more;
                        }
                        Some(b) if b == close => return Ok(Some(self.close())),
                        _ => return Err(self.unexpected(self.pos, expected)),
                    }
                }
                State::Done => return Ok(None),
            }
        }
    }

    fn token(&self, event: Event<'a>, start: usize) -> Token<'a> {
        Token {
            event,
            offset: start,
            raw: self.text.get(start..self.pos).unwrap_or_default(),
        }
    }

    /// At a value (after any whitespace).
    fn value(&mut self) -> Result<Token<'a>, JsonError> {
        self.skip_ws();
        let start = self.pos;
        let event = match self.peek() {
            Some(open @ (b'{' | b'[')) => {
                self.check_depth()?;
                self.pos += 1;
                return Ok(if open == b'{' {
                    self.stack.push(Open::Object {
                        start: self.names.len(),
                        ascending: true,
                        index: None,
                    });
                    self.state = State::FirstName;
                    self.token(Event::BeginObject, start)
                } else {
                    self.stack.push(Open::Array { index: 0 });
                    self.state = State::FirstElement;
                    self.token(Event::BeginArray, start)
                });
            }
            Some(b'"') => Event::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => Event::Number(self.number()?),
            Some(b't') => self.literal(b"true", Event::Bool(true))?,
            Some(b'f') => self.literal(b"false", Event::Bool(false))?,
            Some(b'n') => self.literal(b"null", Event::Null)?,
            _ => return Err(self.unexpected(self.pos, "a JSON value")),
        };
        self.state = State::AfterValue;
        Ok(self.token(event, start))
    }

    /// At the `]` or `}` that closes the innermost container.
    fn close(&mut self) -> Token<'a> {
        let start = self.pos;
        self.pos += 1;
        self.state = State::AfterValue;
        let event = match self.stack.pop() {
            Some(Open::Object { start, .. }) => {
                self.names.truncate(start);
                Event::EndObject
            }
            _ => Event::EndArray,
        };
        self.token(event, start)
    }

    /// At a member name (after any whitespace): `"name"`, whitespace and the `:`.
    fn name(&mut self) -> Result<Token<'a>, JsonError> {
        let start = self.pos;
        if self.peek() != Some(b'"') {
            return Err(self.unexpected(start, "a member name (a string)"));
        }
        self.in_name = true;
        let name = self.string()?;
        let end = self.pos;
        let Some(Open::Object {
            start: first,
            ascending,
            index,
        }) = self.stack.last()
        else {
            return Err(JsonError::at(
                IncidentCode::JsonSyntax,
                start,
                "internal error: a member name outside an object".into(),
            ));
        };
        let names = self.names.get(*first..).unwrap_or_default();
        if self.track_jcs
            && self.canonical
            && let Some(previous) = names.last()
            && !super::strings::utf16_less(previous, &name)
        {
            self.canonical = false;
        }
        let after_last = names.last().is_none_or(|last| **last < *name);
        let duplicate = match index {
            _ if *ascending && after_last => false,
            Some(index) => index.contains(&name),
            None => names.contains(&name),
        };
        if duplicate {
            return Err(JsonError::at(
                IncidentCode::JsonDuplicateMember,
                start,
                format!("duplicate member name {}", excerpt(&name)),
            )
            .with_pointer(self.pointer(Some(&name))));
        }
        self.in_name = false;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.unexpected(self.pos, "':' after a member name"));
        }
        self.pos += 1;
        if let Some(Open::Object {
            start,
            ascending,
            index,
        }) = self.stack.last_mut()
        {
            *ascending &= after_last;
            if !*ascending && self.names.len() - *start >= LINEAR_NAMES {
                let names = self.names.get(*start..).unwrap_or_default();
                index
                    .get_or_insert_with(|| names.iter().cloned().collect())
                    .insert(name.clone());
            }
            self.names.push(name.clone());
        }
        self.state = State::Value;
        Ok(Token {
            event: Event::Name(name),
            offset: start,
            raw: self.text.get(start..end).unwrap_or_default(),
        })
    }

    pub(super) fn peek(&self) -> Option<u8> {
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

    fn literal(&mut self, literal: &[u8], event: Event<'a>) -> Result<Event<'a>, JsonError> {
        for &expected in literal {
            if self.peek() != Some(expected) {
                let what = String::from_utf8_lossy(literal);
                return Err(self.unexpected(self.pos, &format!("the literal `{what}`")));
            }
            self.pos += 1;
        }
        Ok(event)
    }

    /// `number = [ minus ] int [ frac ] [ exp ]` (RFC 8259 §6), then serde_json's conversion.
    fn number(&mut self) -> Result<Number, JsonError> {
        let start = self.pos;
        match number_end(self.bytes, start) {
            Ok(end) => self.pos = end,
            Err((at, expected)) => return Err(self.unexpected(at, expected)),
        }
        let token = self.slice(start, self.pos)?;
        // The token matched the RFC 8259 grammar above, so serde_json can only refuse it for
        // overflowing f64 ("number out of range").
        match serde_json::from_str::<Number>(token) {
            Ok(number) => {
                if self.track_jcs && self.canonical && !is_short_integer(token) {
                    let value = Value::Number(number.clone());
                    self.canonical = crate::jcs::canonicalize(&value) == token.as_bytes();
                }
                Ok(number)
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

    /// A lone surrogate escape at `offset`: the error in [`Mode::Strict`]; in [`Mode::Reply`]
    /// a finding, and U+FFFD in its place.
    pub(super) fn lone_surrogate(
        &mut self,
        offset: usize,
        message: String,
    ) -> Result<char, JsonError> {
        let finding = JsonError::at(IncidentCode::JsonLoneSurrogate, offset, message)
            .with_pointer(self.pointer(None));
        match self.mode {
            Mode::Strict => Err(finding),
            Mode::Reply => {
                self.finding_count += 1;
                if self.findings.len() < MAX_FINDINGS {
                    self.findings.push(finding);
                }
                Ok('\u{FFFD}')
            }
        }
    }

    /// The text between two byte offsets that are known to be character boundaries.
    pub(super) fn slice(&self, start: usize, end: usize) -> Result<&'a str, JsonError> {
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
    pub(super) fn unexpected(&self, offset: usize, expected: &str) -> JsonError {
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

    /// RFC 6901 pointer of the value being read (or, while a member name is read, of its
    /// object), optionally extended by one member name.
    pub(super) fn pointer(&self, member: Option<&str>) -> String {
        let frames = match self.in_name {
            true => self.stack.len().saturating_sub(1),
            false => self.stack.len(),
        };
        // The last name of each open object: its names end where the next object's begin.
        let mut end = self.names.len();
        let mut last: Vec<&str> = vec![""; self.stack.len()];
        for (frame, slot) in self.stack.iter().zip(last.iter_mut()).rev() {
            if let Open::Object { start, .. } = frame {
                if end > *start {
                    *slot = self.names.get(end - 1).map_or("", |n| n.as_ref());
                }
                end = *start;
            }
        }
        let mut pointer = String::new();
        for (frame, name) in self.stack.iter().zip(last).take(frames) {
            pointer.push('/');
            match frame {
                Open::Array { index } => {
                    let _ = write!(pointer, "{index}");
                }
                Open::Object { .. } => pointer.push_str(&crate::pointer::escape(name)),
            }
        }
        if let Some(name) = member {
            pointer.push('/');
            pointer.push_str(&crate::pointer::escape(name));
        }
        pointer
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

/// The end of the RFC 8259 `number` that starts at `start`, or where it breaks off and what was
/// expected there.
fn number_end(bytes: &[u8], start: usize) -> Result<usize, (usize, &'static str)> {
    let digits = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = start;
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match bytes.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i),
        _ => return Err((i, "a digit")),
    };
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        if !bytes.get(i).is_some_and(u8::is_ascii_digit) {
            return Err((i, "a digit after the decimal point"));
        }
        i = digits(i);
    }
    if let Some(b'e' | b'E') = bytes.get(i) {
        i += 1;
        if let Some(b'+' | b'-') = bytes.get(i) {
            i += 1;
        }
        if !bytes.get(i).is_some_and(u8::is_ascii_digit) {
            return Err((i, "a digit in the exponent"));
        }
        i = digits(i);
    }
    Ok(i)
}

/// Whether `text` is exactly one RFC 8259 `number` (grammar only: `1e400` is one).
pub fn is_number_text(text: &str) -> bool {
    number_end(text.as_bytes(), 0) == Ok(text.len())
}
