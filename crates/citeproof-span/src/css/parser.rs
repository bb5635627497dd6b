//! The grammar of Selectors Level 3 (§10.1) over the tokens of `lexer.rs`, with the profile's
//! restrictions: no pseudo-elements, only structural pseudo-classes, `:not()` of one simple
//! selector, no declared namespace prefixes. It only checks; `scraper` matches.

use super::SyntaxError;
use super::lexer::T;

type R<T> = Result<T, SyntaxError>;

/// Checks that `tokens` (with their source texts) form a selector group.
pub(super) fn check_group(tokens: Vec<(T, String)>) -> R<()> {
    let (t, raw) = tokens.into_iter().unzip();
    Parser { t, raw, i: 0 }.group()
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

    fn group(&mut self) -> R<()> {
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
                Some(other) => return Err(SyntaxError::Unexpected(format!("{other:?}"))),
            }
        }
    }

    fn selector(&mut self) -> R<()> {
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
    fn namespace_prefix(&mut self) -> R<()> {
        let after_bar = |p: &Parser, k: usize| {
            matches!(p.peek_at(k), Some(T::Delim('|')))
                && matches!(p.peek_at(k + 1), Some(T::Ident(_) | T::Delim('*')))
        };
        match self.peek() {
            Some(T::Ident(name)) if after_bar(self, 1) => {
                Err(SyntaxError::UndeclaredPrefix(name.clone()))
            }
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

    fn sequence(&mut self) -> R<()> {
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
            return Err(SyntaxError::ExpectedSimpleSelector(match self.peek() {
                Some(t) => format!("{t:?}"),
                None => "the end".into(),
            }));
        }
        Ok(())
    }

    fn class(&mut self) -> R<()> {
        self.i += 1;
        match self.peek() {
            Some(T::Ident(_)) => {
                self.i += 1;
                Ok(())
            }
            _ => Err(SyntaxError::ClassName),
        }
    }

    fn attrib(&mut self) -> R<()> {
        self.i += 1;
        self.skip_s();
        // [ns|attr]: the `|` here is a Delim (a `|=` would be DashMatch).
        match (self.peek(), self.peek_at(1), self.peek_at(2)) {
            (Some(T::Ident(name)), Some(T::Delim('|')), Some(T::Ident(_))) => {
                return Err(SyntaxError::UndeclaredAttributePrefix(name.clone()));
            }
            (Some(T::Delim('*')), Some(T::Delim('|')), Some(T::Ident(_))) => self.i += 2,
            (Some(T::Delim('|')), Some(T::Ident(_)), _) => self.i += 1,
            _ => {}
        }
        match self.peek() {
            Some(T::Ident(_)) => self.i += 1,
            _ => return Err(SyntaxError::AttributeName),
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
                _ => return Err(SyntaxError::AttributeValue),
            }
            self.skip_s();
        }
        if self.eat_delim(']') {
            Ok(())
        } else {
            Err(SyntaxError::UnclosedAttribute)
        }
    }

    fn pseudo(&mut self) -> R<()> {
        self.i += 1;
        if self.eat_delim(':') {
            return Err(SyntaxError::DoubleColonPseudoElement);
        }
        match self.peek().cloned() {
            Some(T::Ident(name)) => {
                self.i += 1;
                let lower = name.to_ascii_lowercase();
                if CSS2_PSEUDO_ELEMENTS.contains(&lower.as_str()) {
                    Err(SyntaxError::PseudoElement(name))
                } else if TREE_PSEUDO_CLASSES.contains(&lower.as_str()) {
                    Ok(())
                } else {
                    Err(SyntaxError::PseudoClass(name))
                }
            }
            Some(T::Function(name)) => {
                self.i += 1;
                let lower = name.to_ascii_lowercase();
                let arg = self.expression()?;
                if !NTH_FUNCTIONS.contains(&lower.as_str()) {
                    return Err(SyntaxError::FunctionalPseudoClass(name));
                }
                if !is_an_plus_b(&arg) {
                    return Err(SyntaxError::NotAnPlusB(arg));
                }
                Ok(())
            }
            _ => Err(SyntaxError::PseudoClassName),
        }
    }

    /// `expression` of the grammar, up to and including `)`; returns its text (an+b check).
    fn expression(&mut self) -> R<String> {
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
                _ => return Err(SyntaxError::MalformedArgument),
            }
            if self.peek() != Some(&T::S) {
                terms += 1;
            }
            self.i += 1;
        }
        if terms == 0 {
            return Err(SyntaxError::EmptyArgument);
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

    fn negation(&mut self) -> R<()> {
        self.i += 1;
        self.skip_s();
        // negation_arg: type_selector | universal | HASH | class | attrib | pseudo
        self.namespace_prefix()?;
        match self.peek() {
            Some(T::Ident(_) | T::Delim('*') | T::Hash) => self.i += 1,
            Some(T::Delim('.')) => self.class()?,
            Some(T::Delim('[')) => self.attrib()?,
            Some(T::Delim(':')) => self.pseudo()?,
            Some(T::Not) => return Err(SyntaxError::NestedNegation),
            _ => return Err(SyntaxError::NegationArgument),
        }
        self.skip_s();
        if self.eat_delim(')') {
            Ok(())
        } else {
            Err(SyntaxError::NegationArguments)
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
