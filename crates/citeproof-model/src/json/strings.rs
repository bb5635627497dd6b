//! Strings and member names: unescaping, surrogate pairs, noncharacters (RFC 7493 §2.1), and
//! the JCS escape rules (RFC 8785 §3.2.2.2).

use std::borrow::Cow;

use super::JsonError;
use super::scan::{Mode, Reader};
use crate::incident::IncidentCode;

impl<'a> Reader<'a> {
    /// Reads a string starting at its opening quote and returns it unescaped: borrowed from the
    /// input when it has no escape.
    pub(super) fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.pos += 1; // opening quote
        // Most strings have no escape. Anything else (an escape, a control character, the end
        // of input) takes the general loop below, which reports errors at the same offsets.
        // One pass finds the end of the run and whether it may hold a noncharacter.
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let mut len = 0;
        let mut high = false;
        while let Some(&b) = rest.get(len) {
            match STRING_BYTES[usize::from(b)] {
                PLAIN => {}
                MAYBE_NONCHARACTER => high = true,
                _ => break,
            }
            len += 1;
        }
        if rest.get(len) == Some(&b'"') {
            let run = match high {
                true => self.checked_run(self.pos, self.pos + len)?,
                false => self.slice(self.pos, self.pos + len)?,
            };
            self.pos += len + 1;
            return Ok(Cow::Borrowed(run));
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
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    out.push_str(self.checked_run(run_start, self.pos)?);
                    let c = self.escape()?;
                    out.push(c);
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

    /// Reads one escape starting at its backslash and returns the character it denotes.
    fn escape(&mut self) -> Result<char, JsonError> {
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
                let unit = self.hex4()?;
                // JCS writes `\u00xx`, lower-case, only for controls without a short form.
                let hex = self.bytes.get(self.pos.saturating_sub(4)..self.pos);
                if unit >= 0x20
                    || matches!(unit, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d)
                    || hex.is_some_and(|h| h.iter().any(u8::is_ascii_uppercase))
                {
                    self.canonical = false;
                }
                let c = if (0xD800..0xDC00).contains(&unit) {
                    self.low_surrogate(escape_start, unit)?
                } else if let Some(c) = char::from_u32(unit) {
                    c
                } else {
                    // Exactly a low surrogate without a preceding high surrogate.
                    self.lone_surrogate(
                        escape_start,
                        format!("lone low surrogate \\u{unit:04X} in a string"),
                    )?
                };
                if self.mode == Mode::Strict && is_noncharacter(c) {
                    return Err(self.noncharacter(escape_start, c));
                }
                return Ok(c);
            }
            _ => return Err(self.unexpected(self.pos, "an escape character (one of \"\\/bfnrtu)")),
        };
        self.pos += 1;
        Ok(simple)
    }

    /// After the high surrogate `high` (escape at `escape_start`): a `\uDC00`-`\uDFFF` escape
    /// makes the pair. In [`Mode::Strict`] anything else is an error (a bad hex digit in the
    /// next escape is reported as such); in [`Mode::Reply`] the high surrogate alone becomes
    /// U+FFFD and whatever follows is read on its own.
    fn low_surrogate(&mut self, escape_start: usize, high: u32) -> Result<char, JsonError> {
        let lone =
            format!("high surrogate \\u{high:04X} is not followed by a low surrogate escape");
        let low = match self.mode {
            Mode::Strict => {
                if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u".as_slice()) {
                    return self.lone_surrogate(escape_start, lone);
                }
                self.pos += 2;
                self.hex4()?
            }
            Mode::Reply => match self.hex4_at(self.pos + 2) {
                Some(low @ 0xDC00..0xE000)
                    if self.bytes.get(self.pos..self.pos + 2) == Some(b"\\u".as_slice()) =>
                {
                    self.pos += 6;
                    low
                }
                _ => return self.lone_surrogate(escape_start, lone),
            },
        };
        if !(0xDC00..0xE000).contains(&low) {
            return self.lone_surrogate(escape_start, lone);
        }
        let code_point = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        match char::from_u32(code_point) {
            Some(c) => Ok(c),
            None => self.lone_surrogate(escape_start, lone),
        }
    }

    /// Four hex digits at the reader's position, consumed; a syntax error at the first byte
    /// that is not one.
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut unit = 0u32;
        for _ in 0..4 {
            let Some(digit) = self.peek().and_then(hex_digit) else {
                return Err(self.unexpected(self.pos, "a hex digit in a \\u escape"));
            };
            unit = unit * 16 + digit;
            self.pos += 1;
        }
        Ok(unit)
    }

    /// Four hex digits at `at`, not consumed.
    fn hex4_at(&self, at: usize) -> Option<u32> {
        let digits = self.bytes.get(at..at + 4)?;
        digits
            .iter()
            .try_fold(0u32, |unit, &b| Some(unit * 16 + hex_digit(b)?))
    }

    /// The unescaped run `start..end` of a string, refusing noncharacters (RFC 7493 §2.1) in
    /// [`Mode::Strict`].
    fn checked_run(&self, start: usize, end: usize) -> Result<&'a str, JsonError> {
        let run = self.slice(start, end)?;
        // Every noncharacter is encoded with a first byte of 0xEF or more (U+FDD0 is EF B7 90,
        // U+1FFFE is F0 9F BF BE): most runs need no decoding.
        if self.mode == Mode::Reply || !run.bytes().any(|b| b >= 0xEF) {
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
}

/// [`STRING_BYTES`]: a byte that continues a run of a string.
const PLAIN: u8 = 0;
/// A byte that ends a run: `"`, `\`, a control character.
const END: u8 = 1;
/// A byte that continues a run and may begin a noncharacter: every noncharacter is encoded with
/// a first byte of 0xEF or more (U+FDD0 is EF B7 90, U+1FFFE is F0 9F BF BE).
const MAYBE_NONCHARACTER: u8 = 2;

/// The class of every byte inside a string, read once per byte by the run scan.
static STRING_BYTES: [u8; 256] = {
    let mut table = [PLAIN; 256];
    let mut b = 0;
    while b < 256 {
        if b == b'"' as usize || b == b'\\' as usize || b < 0x20 {
            table[b] = END;
        } else if b >= 0xEF {
            table[b] = MAYBE_NONCHARACTER;
        }
        b += 1;
    }
    table
};

fn hex_digit(b: u8) -> Option<u32> {
    char::from(b).to_digit(16)
}

/// Unicode noncharacters: U+FDD0..U+FDEF and the last two code points of every plane.
fn is_noncharacter(c: char) -> bool {
    let cp = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&cp) || cp & 0xFFFE == 0xFFFE
}

/// Whether `a` sorts before `b` by UTF-16 code units (RFC 8785 §3.2.3). UTF-8 byte order is code
/// point order, which agrees with UTF-16 order except between supplementary characters and
/// U+E000..U+FFFF, so only names with a byte of `0xEE` or above need the UTF-16 comparison.
pub(super) fn utf16_less(a: &str, b: &str) -> bool {
    let high = |s: &str| s.bytes().any(|c| c >= 0xEE);
    if high(a) || high(b) {
        a.encode_utf16().lt(b.encode_utf16())
    } else {
        a < b
    }
}
