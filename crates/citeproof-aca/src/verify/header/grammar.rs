//! The `Citation-Source` grammar (ACA-L1-002, module docs of `header`): the combined value
//! split into entries and parameters as written, before the semantic rules. Linear in the
//! input and never panics.

use super::{MAX_HEADER_BYTES, is_tchar};

/// A parameter as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawParam {
    pub(super) name: String,
    pub(super) value: String,
    pub(super) quoted: bool,
    pub(super) backslash: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawEntry {
    pub(super) url: String,
    pub(super) offset: usize,
    pub(super) params: Vec<RawParam>,
}

pub(super) struct Grammar<'a> {
    s: &'a [u8],
    pos: usize,
}

type Fail = (usize, &'static str);

impl<'a> Grammar<'a> {
    pub(super) fn new(s: &'a str) -> Self {
        Grammar {
            s: s.as_bytes(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn ows(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    pub(super) fn list(&mut self) -> Result<Vec<RawEntry>, Fail> {
        let mut entries = Vec::new();
        self.ows();
        loop {
            match self.peek() {
                None => break,
                Some(b',') => {
                    // An empty list element.
                    self.pos += 1;
                    self.ows();
                    continue;
                }
                Some(b'<') => {
                    entries.push(self.entry()?);
                    self.ows();
                    match self.peek() {
                        None => break,
                        Some(b',') => {
                            self.pos += 1;
                            self.ows();
                        }
                        Some(_) => return Err((self.pos, "expected `,`, `;` or the end")),
                    }
                }
                Some(_) => return Err((self.pos, "expected `<` to start an entry")),
            }
            // Guard against runaway lists: far above MAX_HEADER_ENTRIES, bounded by length.
            if entries.len() > MAX_HEADER_BYTES {
                return Err((self.pos, "too many entries"));
            }
        }
        Ok(entries)
    }

    fn entry(&mut self) -> Result<RawEntry, Fail> {
        let offset = self.pos;
        self.pos += 1; // '<'
        let start = self.pos;
        while let Some(b) = self.peek() {
            if (0x21..=0x7e).contains(&b) && b != b'<' && b != b'>' {
                self.pos += 1;
            } else {
                break;
            }
        }
        if self.pos == start {
            return Err((self.pos, "empty URL between `<` and `>`"));
        }
        let url = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
        if self.peek() != Some(b'>') {
            return Err((self.pos, "expected `>` to end the URL"));
        }
        self.pos += 1;
        let mut params = Vec::new();
        loop {
            let save = self.pos;
            self.ows();
            if self.peek() == Some(b';') {
                self.pos += 1;
                self.ows();
                params.push(self.param()?);
            } else {
                self.pos = save;
                break;
            }
        }
        Ok(RawEntry {
            url,
            offset,
            params,
        })
    }

    fn token(&mut self) -> Option<String> {
        let start = self.pos;
        while self.peek().is_some_and(is_tchar) {
            self.pos += 1;
        }
        (self.pos > start).then(|| String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
    }

    fn param(&mut self) -> Result<RawParam, Fail> {
        let name = self
            .token()
            .ok_or((self.pos, "expected a parameter name (token)"))?
            .to_ascii_lowercase();
        self.ows();
        if self.peek() != Some(b'=') {
            return Err((self.pos, "expected `=` after the parameter name"));
        }
        self.pos += 1;
        self.ows();
        if self.peek() == Some(b'"') {
            self.pos += 1;
            let mut value = String::new();
            let mut backslash = false;
            loop {
                match self.peek() {
                    None => return Err((self.pos, "unterminated quoted-string")),
                    Some(b'"') => {
                        self.pos += 1;
                        break;
                    }
                    Some(b'\\') => {
                        backslash = true;
                        self.pos += 1;
                        match self.peek() {
                            Some(b) if b == b'\t' || (0x20..=0x7e).contains(&b) => {
                                value.push(b as char);
                                self.pos += 1;
                            }
                            _ => return Err((self.pos, "invalid quoted-pair")),
                        }
                    }
                    Some(b) if b == b'\t' || (0x20..=0x7e).contains(&b) => {
                        value.push(b as char);
                        self.pos += 1;
                    }
                    Some(_) => return Err((self.pos, "invalid character in quoted-string")),
                }
            }
            Ok(RawParam {
                name,
                value,
                quoted: true,
                backslash,
            })
        } else {
            let value = self
                .token()
                .ok_or((self.pos, "expected a token or a quoted-string value"))?;
            Ok(RawParam {
                name,
                value,
                quoted: false,
                backslash: false,
            })
        }
    }
}
