//! The lexical scanner of Selectors Level 3 (§10.2): tokens with their source text (an `an+b`
//! argument is checked on the text of its numbers and dimensions); comments are dropped.

use super::SyntaxError;

/// A token of §10.2 (the ones whose text matters carry it).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum T {
    S,
    Ident(String),
    Function(String),
    Not,
    Hash,
    Str,
    Number,
    Dimension,
    Percentage,
    Includes,
    DashMatch,
    PrefixMatch,
    SuffixMatch,
    SubstringMatch,
    Delim(char),
}

/// Every token of `selector` with its source text.
pub(super) fn tokenize(selector: &str) -> Result<Vec<(T, String)>, SyntaxError> {
    Lexer {
        c: selector.chars().collect(),
        i: 0,
    }
    .run()
}

struct Lexer {
    c: Vec<char>,
    i: usize,
}

fn is_nonascii(c: char) -> bool {
    (c as u32) >= 0x80
}

fn is_nmstart(c: char) -> bool {
    c == '_' || c.is_ascii_alphabetic() || is_nonascii(c)
}

fn is_nmchar(c: char) -> bool {
    c == '_' || c == '-' || c.is_ascii_alphanumeric() || is_nonascii(c)
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0c')
}

impl Lexer {
    fn at(&self, k: usize) -> Option<char> {
        self.c.get(self.i + k).copied()
    }

    /// Length of an escape at offset `k`, if one starts there.
    fn escape_len(&self, k: usize) -> Option<usize> {
        if self.at(k) != Some('\\') {
            return None;
        }
        let next = self.at(k + 1)?;
        if next.is_ascii_hexdigit() {
            let mut n = 1;
            while n < 6 && self.at(k + 1 + n).is_some_and(|h| h.is_ascii_hexdigit()) {
                n += 1;
            }
            let mut len = 1 + n;
            match self.at(k + len) {
                Some('\r') if self.at(k + len + 1) == Some('\n') => len += 2,
                Some(w) if is_ws(w) => len += 1,
                _ => {}
            }
            Some(len)
        } else if matches!(next, '\n' | '\r' | '\x0c') {
            None
        } else {
            Some(2)
        }
    }

    fn nmstart_len(&self, k: usize) -> Option<usize> {
        match self.at(k) {
            Some(c) if is_nmstart(c) => Some(1),
            Some('\\') => self.escape_len(k),
            _ => None,
        }
    }

    fn nmchar_len(&self, k: usize) -> Option<usize> {
        match self.at(k) {
            Some(c) if is_nmchar(c) => Some(1),
            Some('\\') => self.escape_len(k),
            _ => None,
        }
    }

    /// Length of an `ident` (`-?{nmstart}{nmchar}*`) at offset `k`.
    fn ident_len(&self, k: usize) -> Option<usize> {
        let dash = usize::from(self.at(k) == Some('-'));
        let mut len = dash + self.nmstart_len(k + dash)?;
        while let Some(n) = self.nmchar_len(k + len) {
            len += n;
        }
        Some(len)
    }

    fn text(&self, len: usize) -> String {
        self.c[self.i..self.i + len].iter().collect()
    }

    /// Every token with its source text (comments are dropped).
    fn run(mut self) -> Result<Vec<(T, String)>, SyntaxError> {
        let mut out = Vec::new();
        while let Some(ch) = self.at(0) {
            if ch == '/' && self.at(1) == Some('*') {
                self.skip_comment()?;
                continue;
            }
            let start = self.i;
            let token = self.token(ch)?;
            out.push((token, self.c[start..self.i].iter().collect()));
        }
        Ok(out)
    }

    fn skip_comment(&mut self) -> Result<(), SyntaxError> {
        let rest = &self.c[self.i + 2..];
        let end = rest
            .windows(2)
            .position(|w| w == ['*', '/'])
            .ok_or(SyntaxError::UnterminatedComment)?;
        self.i += 2 + end + 2;
        Ok(())
    }

    /// The token that starts with `ch` (not a comment).
    fn token(&mut self, ch: char) -> Result<T, SyntaxError> {
        if is_ws(ch) {
            while self.at(0).is_some_and(is_ws) {
                self.i += 1;
            }
            return Ok(T::S);
        }
        if let Some(t) = self.match_operator(ch).or_else(|| self.negation(ch)) {
            return Ok(t);
        }
        if let Some(t) = self.ident_or_function() {
            return Ok(t);
        }
        if ch == '"' || ch == '\'' {
            return self.string(ch);
        }
        if ch.is_ascii_digit() || (ch == '.' && self.at(1).is_some_and(|d| d.is_ascii_digit())) {
            return Ok(self.numeric());
        }
        if let Some(t) = self.hash(ch) {
            return Ok(t);
        }
        self.i += 1;
        Ok(T::Delim(ch))
    }

    /// `~=`, `|=`, `^=`, `$=`, `*=`.
    fn match_operator(&mut self, ch: char) -> Option<T> {
        if self.at(1) != Some('=') {
            return None;
        }
        let t = match ch {
            '~' => T::Includes,
            '|' => T::DashMatch,
            '^' => T::PrefixMatch,
            '$' => T::SuffixMatch,
            '*' => T::SubstringMatch,
            _ => return None,
        };
        self.i += 2;
        Some(t)
    }

    /// `:not(` is one token (NOT), case-insensitive.
    fn negation(&mut self, ch: char) -> Option<T> {
        if ch != ':' {
            return None;
        }
        let word: String = self.c[self.i + 1..]
            .iter()
            .take(4)
            .collect::<String>()
            .to_ascii_lowercase();
        if word != "not(" {
            return None;
        }
        self.i += 5;
        Some(T::Not)
    }

    /// IDENT, or FUNCTION when `(` follows.
    fn ident_or_function(&mut self) -> Option<T> {
        let len = self.ident_len(0)?;
        let name = self.text(len);
        self.i += len;
        if self.at(0) == Some('(') {
            self.i += 1;
            Some(T::Function(name))
        } else {
            Some(T::Ident(name))
        }
    }

    /// A string quoted with `quote`, escapes and escaped line breaks included.
    fn string(&mut self, quote: char) -> Result<T, SyntaxError> {
        self.i += 1;
        loop {
            match self.at(0) {
                None => return Err(SyntaxError::UnterminatedString),
                Some(c) if c == quote => {
                    self.i += 1;
                    return Ok(T::Str);
                }
                Some('\n' | '\r' | '\x0c') => return Err(SyntaxError::NewlineInString),
                Some('\\') => match self.at(1) {
                    Some('\r') if self.at(2) == Some('\n') => self.i += 3,
                    Some('\n' | '\r' | '\x0c') => self.i += 2,
                    _ => match self.escape_len(0) {
                        Some(n) => self.i += n,
                        None => return Err(SyntaxError::BadEscape),
                    },
                },
                Some(_) => self.i += 1,
            }
        }
    }

    /// NUMBER, PERCENTAGE or DIMENSION.
    fn numeric(&mut self) -> T {
        let mut len = 0;
        while self.at(len).is_some_and(|d| d.is_ascii_digit()) {
            len += 1;
        }
        if self.at(len) == Some('.') && self.at(len + 1).is_some_and(|d| d.is_ascii_digit()) {
            len += 1;
            while self.at(len).is_some_and(|d| d.is_ascii_digit()) {
                len += 1;
            }
        }
        if self.at(len) == Some('%') {
            self.i += len + 1;
            T::Percentage
        } else if let Some(ilen) = self.ident_len(len) {
            self.i += len + ilen;
            T::Dimension
        } else {
            self.i += len;
            T::Number
        }
    }

    /// HASH: `#` and at least one name character.
    fn hash(&mut self, ch: char) -> Option<T> {
        if ch != '#' {
            return None;
        }
        let mut len = 0;
        while let Some(n) = self.nmchar_len(1 + len) {
            len += n;
        }
        if len == 0 {
            return None;
        }
        self.i += 1 + len;
        Some(T::Hash)
    }
}
