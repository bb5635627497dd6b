//! The lexical structure of XPath 1.0 (§3.7): tokens, with the two disambiguation rules that
//! make `*` and names operators after an operand, and `name(` / `name::` function names and
//! axes.

use super::ast::Cmp;
use super::error::SyntaxError;

/// One token.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    DotDot,
    At,
    Comma,
    ColonColon,
    /// `*`, `prefix:*` or a QName as a name test.
    NameTest(Option<String>, Option<String>),
    NodeType(String),
    Function(Option<String>, String),
    Axis(String),
    Literal(String),
    Number(f64),
    // operators
    And,
    Or,
    Mod,
    Div,
    Multiply,
    Slash,
    DoubleSlash,
    Pipe,
    Plus,
    Minus,
    /// `=`, `!=`, `<`, `<=`, `>`, `>=`.
    Cmp(Cmp),
}

impl Tok {
    fn is_operator(&self) -> bool {
        matches!(
            self,
            Tok::And
                | Tok::Or
                | Tok::Mod
                | Tok::Div
                | Tok::Multiply
                | Tok::Slash
                | Tok::DoubleSlash
                | Tok::Pipe
                | Tok::Plus
                | Tok::Minus
                | Tok::Cmp(_)
        )
    }
}

/// XML whitespace (S).
pub(super) fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// XML 1.0 (fifth edition) NameStartChar without `:`.
fn is_name_start(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// The tokens of `text`.
pub(super) fn tokenize(text: &str) -> Result<Vec<Tok>, SyntaxError> {
    Lexer {
        chars: text.chars().collect(),
        pos: 0,
        toks: Vec::new(),
    }
    .run()
}

struct Lexer {
    chars: Vec<char>,
    pos: usize,
    toks: Vec<Tok>,
}

impl Lexer {
    fn peek_at(&self, i: usize) -> Option<char> {
        self.chars.get(self.pos + i).copied()
    }

    fn skip_space(&mut self) {
        while self.peek_at(0).is_some_and(is_xml_space) {
            self.pos += 1;
        }
    }

    fn next_non_space(&self, from: usize) -> Option<(usize, char)> {
        let mut i = from;
        while let Some(c) = self.chars.get(i) {
            if !is_xml_space(*c) {
                return Some((i, *c));
            }
            i += 1;
        }
        None
    }

    fn ncname(&mut self) -> String {
        let start = self.pos;
        self.pos += 1;
        while self.peek_at(0).is_some_and(is_name_char) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    /// §3.7: `*` and NCNames are operators when a preceding token exists and is not `@`, `::`,
    /// `(`, `[`, `,` or an operator.
    fn operator_context(&self) -> bool {
        match self.toks.last() {
            None => false,
            Some(t) => {
                !(matches!(
                    t,
                    Tok::At | Tok::ColonColon | Tok::LParen | Tok::LBracket | Tok::Comma
                ) || t.is_operator())
            }
        }
    }

    /// A one-character token.
    fn single(&mut self, tok: Tok) -> Tok {
        self.pos += 1;
        tok
    }

    /// `two` when the next character is `second` (`<=`, `//`, `::`...), else the one-character
    /// token `one`, or an error when the first character cannot stand alone (`!`, `:`).
    fn pair(&mut self, second: char, two: Tok, one: Option<Tok>) -> Result<Tok, SyntaxError> {
        if self.peek_at(1) == Some(second) {
            self.pos += 2;
            return Ok(two);
        }
        match one {
            Some(tok) => Ok(self.single(tok)),
            None => Err(SyntaxError::LoneCharacter {
                ch: self.peek_at(0).unwrap_or_default(),
                at: self.pos,
            }),
        }
    }

    fn run(mut self) -> Result<Vec<Tok>, SyntaxError> {
        loop {
            self.skip_space();
            let Some(c) = self.peek_at(0) else { break };
            let tok = match c {
                '(' => self.single(Tok::LParen),
                ')' => self.single(Tok::RParen),
                '[' => self.single(Tok::LBracket),
                ']' => self.single(Tok::RBracket),
                '@' => self.single(Tok::At),
                ',' => self.single(Tok::Comma),
                '|' => self.single(Tok::Pipe),
                '+' => self.single(Tok::Plus),
                '-' => self.single(Tok::Minus),
                '=' => self.single(Tok::Cmp(Cmp::Eq)),
                '!' => self.pair('=', Tok::Cmp(Cmp::Ne), None)?,
                '<' => self.pair('=', Tok::Cmp(Cmp::Le), Some(Tok::Cmp(Cmp::Lt)))?,
                '>' => self.pair('=', Tok::Cmp(Cmp::Ge), Some(Tok::Cmp(Cmp::Gt)))?,
                '/' => self.pair('/', Tok::DoubleSlash, Some(Tok::Slash))?,
                ':' => self.pair(':', Tok::ColonColon, None)?,
                '"' | '\'' => {
                    let quote = c;
                    let start = self.pos + 1;
                    let Some(len) = self.chars[start..].iter().position(|&x| x == quote) else {
                        return Err(SyntaxError::UnterminatedLiteral);
                    };
                    self.pos = start + len + 1;
                    Tok::Literal(self.chars[start..start + len].iter().collect())
                }
                '.' => {
                    if self.peek_at(1) == Some('.') {
                        self.pos += 2;
                        Tok::DotDot
                    } else if self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) {
                        self.number()?
                    } else {
                        self.pos += 1;
                        Tok::Dot
                    }
                }
                '0'..='9' => self.number()?,
                '$' => {
                    // Variables are not allowed by the profile; lex them to report it clearly.
                    return Err(SyntaxError::Variable);
                }
                '*' => {
                    self.pos += 1;
                    if self.operator_context() {
                        Tok::Multiply
                    } else {
                        Tok::NameTest(None, None)
                    }
                }
                c if is_name_start(c) => self.name_token()?,
                other => {
                    return Err(SyntaxError::UnexpectedCharacter {
                        ch: other,
                        at: self.pos,
                    });
                }
            };
            self.toks.push(tok);
        }
        Ok(self.toks)
    }

    fn number(&mut self) -> Result<Tok, SyntaxError> {
        let start = self.pos;
        while self.peek_at(0).is_some_and(|d| d.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.peek_at(0) == Some('.') {
            self.pos += 1;
            while self.peek_at(0).is_some_and(|d| d.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        text.parse::<f64>()
            .map(Tok::Number)
            .map_err(|source| SyntaxError::BadNumber { text, source })
    }

    fn name_token(&mut self) -> Result<Tok, SyntaxError> {
        let first = self.ncname();
        if self.operator_context() {
            return match first.as_str() {
                "and" => Ok(Tok::And),
                "or" => Ok(Tok::Or),
                "mod" => Ok(Tok::Mod),
                "div" => Ok(Tok::Div),
                other => Err(SyntaxError::ExpectedOperator(other.to_owned())),
            };
        }
        // QName or NCName:* ?
        let mut prefix = None;
        let mut local = Some(first.clone());
        if self.peek_at(0) == Some(':') && self.peek_at(1) != Some(':') {
            match self.peek_at(1) {
                Some('*') => {
                    self.pos += 2;
                    return Ok(Tok::NameTest(Some(first), None));
                }
                Some(c) if is_name_start(c) => {
                    self.pos += 1;
                    prefix = Some(first);
                    local = Some(self.ncname());
                }
                _ => return Err(SyntaxError::BadName(first)),
            }
        }
        let next = self.next_non_space(self.pos);
        if prefix.is_none()
            && let Some((i, ':')) = next
            && self.chars.get(i + 1) == Some(&':')
        {
            return Ok(Tok::Axis(local.unwrap_or_default()));
        }
        if let Some((_, '(')) = next {
            let name = local.unwrap_or_default();
            if prefix.is_none()
                && matches!(
                    name.as_str(),
                    "comment" | "text" | "processing-instruction" | "node"
                )
            {
                return Ok(Tok::NodeType(name));
            }
            return Ok(Tok::Function(prefix, name));
        }
        Ok(Tok::NameTest(prefix, local))
    }
}
