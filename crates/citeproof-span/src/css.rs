//! AEF-SEL-002 for `css` / `css_selector`: the selector value is a Selectors Level 3 selector
//! list (W3C REC 2018-11-06, §10 grammar and lexical scanner) without pseudo-elements and using
//! only the pseudo-classes that depend on the document tree alone (`:root`, `:nth-child()`,
//! `:nth-last-child()`, `:nth-of-type()`, `:nth-last-of-type()`, `:first-child`, `:last-child`,
//! `:first-of-type`, `:last-of-type`, `:only-child`, `:only-of-type`, `:empty`, `:not()`).
//!
//! The grammar is checked here because the matching engine (`scraper`, Servo's `selectors`)
//! implements Selectors Level 4 and would accept `:is()`, `:has()`, `:where()`, complex `:not()`
//! arguments and attribute flags, which Level 3 does not have. Namespace prefixes other than `*`
//! and the empty prefix are undeclared (no `@namespace` rule exists), so they are invalid.
//! Whitespace around combinators and commas is insignificant; leading and trailing whitespace is
//! ignored, as `querySelector` does.

#[derive(Debug, Clone, PartialEq)]
enum T {
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

struct Lexer<'s> {
    c: Vec<char>,
    i: usize,
    _src: &'s str,
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

impl Lexer<'_> {
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
    fn run(mut self) -> Result<Vec<(T, String)>, String> {
        let mut out = Vec::new();
        loop {
            let start = self.i;
            let before = out.len();
            let more = self.step(&mut out)?;
            if out.len() > before {
                let text: String = self.c[start..self.i].iter().collect();
                if let Some(last) = out.last_mut() {
                    last.1 = text;
                }
            }
            if !more {
                return Ok(out);
            }
        }
    }

    /// Lexes one token (or skips one comment) into `out`; `false` at the end of input.
    fn step(&mut self, out: &mut Vec<(T, String)>) -> Result<bool, String> {
        let mut push = |t: T| out.push((t, String::new()));
        {
            let Some(ch) = self.at(0) else {
                return Ok(false);
            };
            if ch == '/' && self.at(1) == Some('*') {
                let rest = &self.c[self.i + 2..];
                let end = rest
                    .windows(2)
                    .position(|w| w == ['*', '/'])
                    .ok_or("unterminated comment")?;
                self.i += 2 + end + 2;
                return Ok(true);
            }
            if is_ws(ch) {
                while self.at(0).is_some_and(is_ws) {
                    self.i += 1;
                }
                push(T::S);
                return Ok(true);
            }
            if let (Some(op), Some('=')) = (Some(ch), self.at(1)) {
                let t = match op {
                    '~' => Some(T::Includes),
                    '|' => Some(T::DashMatch),
                    '^' => Some(T::PrefixMatch),
                    '$' => Some(T::SuffixMatch),
                    '*' => Some(T::SubstringMatch),
                    _ => None,
                };
                if let Some(t) = t {
                    self.i += 2;
                    push(t);
                    return Ok(true);
                }
            }
            if ch == ':' {
                // ":not(" is one token (NOT), case-insensitive.
                let word: String = self.c[self.i + 1..]
                    .iter()
                    .take(4)
                    .collect::<String>()
                    .to_ascii_lowercase();
                if word == "not(" {
                    self.i += 5;
                    push(T::Not);
                    return Ok(true);
                }
            }
            if let Some(len) = self.ident_len(0) {
                let name = self.text(len);
                self.i += len;
                if self.at(0) == Some('(') {
                    self.i += 1;
                    push(T::Function(name));
                } else {
                    push(T::Ident(name));
                }
                return Ok(true);
            }
            if ch == '"' || ch == '\'' {
                self.i += 1;
                loop {
                    match self.at(0) {
                        None => return Err("unterminated string".into()),
                        Some(c) if c == ch => {
                            self.i += 1;
                            break;
                        }
                        Some('\n' | '\r' | '\x0c') => return Err("newline in a string".into()),
                        Some('\\') => match self.at(1) {
                            Some('\r') if self.at(2) == Some('\n') => self.i += 3,
                            Some('\n' | '\r' | '\x0c') => self.i += 2,
                            _ => match self.escape_len(0) {
                                Some(n) => self.i += n,
                                None => return Err("bad escape in a string".into()),
                            },
                        },
                        Some(_) => self.i += 1,
                    }
                }
                push(T::Str);
                return Ok(true);
            }
            if ch.is_ascii_digit() || (ch == '.' && self.at(1).is_some_and(|d| d.is_ascii_digit()))
            {
                let mut len = 0;
                while self.at(len).is_some_and(|d| d.is_ascii_digit()) {
                    len += 1;
                }
                if self.at(len) == Some('.') && self.at(len + 1).is_some_and(|d| d.is_ascii_digit())
                {
                    len += 1;
                    while self.at(len).is_some_and(|d| d.is_ascii_digit()) {
                        len += 1;
                    }
                }
                if self.at(len) == Some('%') {
                    self.i += len + 1;
                    push(T::Percentage);
                } else if let Some(ilen) = self.ident_len(len) {
                    self.i += len + ilen;
                    push(T::Dimension);
                } else {
                    self.i += len;
                    push(T::Number);
                }
                return Ok(true);
            }
            if ch == '#' {
                let mut len = 0;
                while let Some(n) = self.nmchar_len(1 + len) {
                    len += n;
                }
                if len > 0 {
                    self.i += 1 + len;
                    push(T::Hash);
                    return Ok(true);
                }
            }
            self.i += 1;
            push(T::Delim(ch));
        }
        Ok(true)
    }
}

struct Parser {
    t: Vec<T>,
    raw: Vec<String>,
    i: usize,
}

const TREE_PSEUDO_CLASSES: &[&str] = &[
    "root",
    "first-child",
    "last-child",
    "first-of-type",
    "last-of-type",
    "only-child",
    "only-of-type",
    "empty",
];
const NTH_FUNCTIONS: &[&str] = &[
    "nth-child",
    "nth-last-child",
    "nth-of-type",
    "nth-last-of-type",
];
const CSS2_PSEUDO_ELEMENTS: &[&str] = &["first-line", "first-letter", "before", "after"];

impl Parser {
    fn peek(&self) -> Option<&T> {
        self.t.get(self.i)
    }
    fn peek_at(&self, k: usize) -> Option<&T> {
        self.t.get(self.i + k)
    }
    fn skip_s(&mut self) -> bool {
        let mut any = false;
        while self.peek() == Some(&T::S) {
            self.i += 1;
            any = true;
        }
        any
    }
    fn eat_delim(&mut self, c: char) -> bool {
        if self.peek() == Some(&T::Delim(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn group(&mut self) -> Result<(), String> {
        self.skip_s();
        self.selector()?;
        loop {
            self.skip_s();
            match self.peek() {
                None => return Ok(()),
                Some(T::Delim(',')) => {
                    self.i += 1;
                    self.skip_s();
                    self.selector()?;
                }
                Some(other) => return Err(format!("unexpected {other:?}")),
            }
        }
    }

    fn selector(&mut self) -> Result<(), String> {
        self.sequence()?;
        loop {
            let save = self.i;
            let had_space = self.skip_s();
            match self.peek() {
                Some(T::Delim('+' | '>' | '~')) => {
                    self.i += 1;
                    self.skip_s();
                    self.sequence()?;
                }
                Some(t) if had_space && starts_sequence(t) => self.sequence()?,
                _ => {
                    self.i = save;
                    return Ok(());
                }
            }
        }
    }

    /// `ns|`, `*|` or `|` before a name: consumes it. Named prefixes are undeclared.
    fn namespace_prefix(&mut self) -> Result<(), String> {
        let after_bar = |p: &Parser, k: usize| {
            matches!(p.peek_at(k), Some(T::Delim('|')))
                && matches!(p.peek_at(k + 1), Some(T::Ident(_) | T::Delim('*')))
        };
        match self.peek() {
            Some(T::Ident(name)) if after_bar(self, 1) => Err(format!(
                "namespace prefix `{name}` is not declared (only `*|` and `|` can be used)"
            )),
            Some(T::Delim('*')) if after_bar(self, 1) => {
                self.i += 2;
                Ok(())
            }
            Some(T::Delim('|')) if matches!(self.peek_at(1), Some(T::Ident(_) | T::Delim('*'))) => {
                self.i += 1;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn sequence(&mut self) -> Result<(), String> {
        let mut parts = 0;
        self.namespace_prefix()?;
        if matches!(self.peek(), Some(T::Ident(_) | T::Delim('*'))) {
            self.i += 1;
            parts += 1;
        }
        loop {
            match self.peek() {
                Some(T::Hash) => self.i += 1,
                Some(T::Delim('.')) => self.class()?,
                Some(T::Delim('[')) => self.attrib()?,
                Some(T::Delim(':')) => self.pseudo()?,
                Some(T::Not) => self.negation()?,
                _ => break,
            }
            parts += 1;
        }
        if parts == 0 {
            return Err(match self.peek() {
                Some(t) => format!("expected a simple selector, found {t:?}"),
                None => "expected a simple selector, found the end".into(),
            });
        }
        Ok(())
    }

    fn class(&mut self) -> Result<(), String> {
        self.i += 1;
        match self.peek() {
            Some(T::Ident(_)) => {
                self.i += 1;
                Ok(())
            }
            _ => Err("`.` must be followed by a class name".into()),
        }
    }

    fn attrib(&mut self) -> Result<(), String> {
        self.i += 1;
        self.skip_s();
        // [ns|attr]: the `|` here is a Delim (a `|=` would be DashMatch).
        match (self.peek(), self.peek_at(1), self.peek_at(2)) {
            (Some(T::Ident(name)), Some(T::Delim('|')), Some(T::Ident(_))) => {
                return Err(format!("namespace prefix `{name}` is not declared"));
            }
            (Some(T::Delim('*')), Some(T::Delim('|')), Some(T::Ident(_))) => self.i += 2,
            (Some(T::Delim('|')), Some(T::Ident(_)), _) => self.i += 1,
            _ => {}
        }
        match self.peek() {
            Some(T::Ident(_)) => self.i += 1,
            _ => return Err("an attribute selector needs an attribute name".into()),
        }
        self.skip_s();
        let op = matches!(
            self.peek(),
            Some(
                T::PrefixMatch
                    | T::SuffixMatch
                    | T::SubstringMatch
                    | T::Includes
                    | T::DashMatch
                    | T::Delim('=')
            )
        );
        if op {
            self.i += 1;
            self.skip_s();
            match self.peek() {
                Some(T::Ident(_) | T::Str) => self.i += 1,
                _ => return Err("an attribute value must be an identifier or a string".into()),
            }
            self.skip_s();
        }
        if self.eat_delim(']') {
            Ok(())
        } else {
            Err("unclosed attribute selector".into())
        }
    }

    fn pseudo(&mut self) -> Result<(), String> {
        self.i += 1;
        if self.eat_delim(':') {
            return Err("pseudo-elements (`::`) are not allowed".into());
        }
        match self.peek().cloned() {
            Some(T::Ident(name)) => {
                self.i += 1;
                let lower = name.to_ascii_lowercase();
                if CSS2_PSEUDO_ELEMENTS.contains(&lower.as_str()) {
                    Err(format!(
                        "`:{name}` is a pseudo-element, which is not allowed"
                    ))
                } else if TREE_PSEUDO_CLASSES.contains(&lower.as_str()) {
                    Ok(())
                } else {
                    Err(format!(
                        "pseudo-class `:{name}` is not allowed (only structural pseudo-classes, which depend on the document alone)"
                    ))
                }
            }
            Some(T::Function(name)) => {
                self.i += 1;
                let lower = name.to_ascii_lowercase();
                let arg = self.expression()?;
                if !NTH_FUNCTIONS.contains(&lower.as_str()) {
                    return Err(format!(
                        "functional pseudo-class `:{name}()` is not allowed"
                    ));
                }
                if !is_an_plus_b(&arg) {
                    return Err(format!("`{arg}` is not an `an+b` expression"));
                }
                Ok(())
            }
            _ => Err("`:` must be followed by a pseudo-class name".into()),
        }
    }

    /// `expression` of the grammar, up to and including `)`; returns its text (an+b check).
    fn expression(&mut self) -> Result<String, String> {
        self.skip_s();
        let mut text = String::new();
        let mut terms = 0;
        loop {
            match self.peek() {
                Some(T::Delim(')')) => {
                    self.i += 1;
                    break;
                }
                Some(T::Delim('+')) => text.push('+'),
                Some(T::Delim('-')) => text.push('-'),
                Some(T::Ident(s)) => text.push_str(s),
                Some(T::Dimension | T::Number | T::Str) => text.push_str(&self.raw_token()),
                Some(T::S) => text.push(' '),
                _ => return Err("malformed pseudo-class argument".into()),
            }
            if self.peek() != Some(&T::S) {
                terms += 1;
            }
            self.i += 1;
        }
        if terms == 0 {
            return Err("empty pseudo-class argument".into());
        }
        Ok(text.trim_end().to_owned())
    }

    /// Token text for numbers and dimensions (needed by the an+b check). Strings never form an
    /// an+b, so their text does not matter.
    fn raw_token(&self) -> String {
        match self.peek() {
            Some(T::Str) => "\"\"".into(),
            _ => self.raw.get(self.i).cloned().unwrap_or_default(),
        }
    }

    fn negation(&mut self) -> Result<(), String> {
        self.i += 1;
        self.skip_s();
        // negation_arg: type_selector | universal | HASH | class | attrib | pseudo
        self.namespace_prefix()?;
        match self.peek() {
            Some(T::Ident(_) | T::Delim('*') | T::Hash) => self.i += 1,
            Some(T::Delim('.')) => self.class()?,
            Some(T::Delim('[')) => self.attrib()?,
            Some(T::Delim(':')) => self.pseudo()?,
            Some(T::Not) => return Err("`:not()` cannot be nested".into()),
            _ => return Err("`:not()` needs one simple selector".into()),
        }
        self.skip_s();
        if self.eat_delim(')') {
            Ok(())
        } else {
            Err("`:not()` takes exactly one simple selector".into())
        }
    }
}

fn starts_sequence(t: &T) -> bool {
    matches!(
        t,
        T::Ident(_) | T::Hash | T::Not | T::Delim('*' | '|' | '.' | '[' | ':')
    )
}

/// `an+b` of Selectors Level 3 §6.6.5.2 (ASCII case-insensitive `n`, `odd`, `even`).
fn is_an_plus_b(arg: &str) -> bool {
    let s = arg.trim().to_ascii_lowercase();
    if s == "odd" || s == "even" {
        return true;
    }
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let had_digits = i > digits_start;
    if b.get(i) != Some(&b'n') {
        // ['-'|'+']? INTEGER
        return had_digits && i == b.len();
    }
    i += 1;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    if i == b.len() {
        return true;
    }
    if !matches!(b.get(i), Some(b'+' | b'-')) {
        return false;
    }
    i += 1;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    let start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i > start && i == b.len()
}

/// Checks AEF-SEL-002 for a CSS selector value, then that the matching engine understands it.
pub fn check(selector: &str) -> Result<scraper::Selector, String> {
    let tokens = Lexer {
        c: selector.chars().collect(),
        i: 0,
        _src: selector,
    }
    .run()?;
    let (t, raw) = tokens.into_iter().unzip();
    Parser { t, raw, i: 0 }.group()?;
    scraper::Selector::parse(selector)
        .map_err(|e| format!("the selector is not supported by the matching engine: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_3_selectors_are_accepted() {
        for good in [
            "p",
            "*",
            "article > p.lead",
            "#main .item:nth-child(2n+1), aside p",
            "a[href]",
            "a[href^='https'][rel~=\"nofollow\"]",
            "[lang|=en]",
            "h1 + p ~ ul",
            "p:first-child",
            "li:nth-last-of-type( -n + 3 )",
            "tr:nth-child(odd)",
            "tr:NTH-CHILD(EVEN)",
            "p:not(.x)",
            "p:not([data-x])",
            "p:not(:first-child)",
            "*|p",
            "|p",
            "*|*",
            "[*|lang]",
            " p ",
            "p/* comment */.x",
            "div\\:x",
            ".\\31 a",
            "p:nth-child(3)",
            "p:nth-child(-2n-1)",
            "p:nth-child(+5)",
            "p:nth-child(n)",
            "p:empty",
            "div :root",
        ] {
            assert!(check(good).is_ok(), "{good:?}: {:?}", check(good).err());
        }
    }

    #[test]
    fn other_selectors_are_refused() {
        for bad in [
            "",
            " ",
            "p::before",
            "p:before",
            "p:first-line",
            "div[data-x",
            "div >",
            "> p",
            "p,",
            ",p",
            "p:is(a)",
            "p:has(a)",
            "p:where(a)",
            "p:not(a b)",
            "p:not(:not(a))",
            "a:hover",
            "a:link",
            "p:lang(en)",
            "input:checked",
            "svg|rect",
            "[xlink|href]",
            "[a='x' i]",
            "p:nth-child(2n+)",
            "p:nth-child(n2)",
            "p:nth-child()",
            "p:nth-child(foo)",
            "p..x",
            "p#",
            "p!",
            "a || b",
            "p:nth-child(2 n)",
            "/* x",
            "[a=b c]",
            "p:scope",
            "p:nth-child(2n + 1 of p)",
        ] {
            assert!(check(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
