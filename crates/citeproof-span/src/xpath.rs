//! XPath 1.0 (W3C REC 1999-11-16), complete, over a `roxmltree` document: the `xpath` selector of
//! AEF-SEL-002 / AEF-L2-007.
//!
//! Why hand-written rather than a crate: the profile needs exactly XPath 1.0 with *no* namespace
//! bindings (only the predeclared `xml` prefix), no variables and the core function library, and
//! the verifier must never crash on hostile selectors or documents. The candidates fell short:
//! `sxd-xpath` is unmaintained since 2019 and needs `sxd-document`, whose parser refuses DTD
//! internal subsets; `xpath-eval` 0.2 (2026) is young, leaves `id()` out and recurses without a
//! bound (a selector of 100 000 nested parentheses would overflow the stack and abort). Here the
//! parser bounds nesting ([`MAX_DEPTH`]), unary minus is iterative, and evaluation runs under a
//! work budget, so every input ends in a value or an error.
//!
//! Data model (§5) over roxmltree: the root, elements, text (CDATA merged, as roxmltree does),
//! comments and processing instructions are roxmltree nodes; attribute and namespace nodes are
//! (element, index) pairs. Document order is roxmltree's node order (nodes are created in
//! document order), an element's namespace nodes and then its attribute nodes coming right after
//! the element. `id()` returns an empty node-set: without reading attribute types from a DTD no
//! attribute is of type ID.

use std::collections::HashSet;

use roxmltree::{Document, Node, NodeType};

/// Deepest nesting of an expression: parentheses, predicates and function arguments each add one
/// level, and so does each binary operator of a chain (`a or b or c` is two levels), so that both
/// parsing and evaluation recurse at most this deep.
pub const MAX_DEPTH: usize = 100;

/// Builds the node of one binary operator from its operands.
type BinaryNode = fn(Box<Ast>, Box<Ast>) -> Ast;
/// Longest expression accepted, in bytes.
pub const MAX_EXPRESSION_BYTES: usize = 16 * 1024;
/// Default work budget of one evaluation (node visits, comparisons, characters copied).
pub const DEFAULT_BUDGET: u64 = 50_000_000;

const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

// ------------------------------------------------------------------------------------------
// Lexer (§3.7)
// ------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Tok {
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
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
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
                | Tok::Eq
                | Tok::Ne
                | Tok::Lt
                | Tok::Le
                | Tok::Gt
                | Tok::Ge
        )
    }
}

fn is_xml_space(c: char) -> bool {
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

struct Lexer<'s> {
    chars: Vec<char>,
    pos: usize,
    toks: Vec<Tok>,
    _src: &'s str,
}

impl<'s> Lexer<'s> {
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
    fn pair(&mut self, second: char, two: Tok, one: Option<Tok>) -> Result<Tok, String> {
        if self.peek_at(1) == Some(second) {
            self.pos += 2;
            return Ok(two);
        }
        match one {
            Some(tok) => Ok(self.single(tok)),
            None => Err(format!(
                "unexpected `{}` at character {}",
                self.peek_at(0).unwrap_or_default(),
                self.pos
            )),
        }
    }

    fn run(mut self) -> Result<Vec<Tok>, String> {
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
                '=' => self.single(Tok::Eq),
                '!' => self.pair('=', Tok::Ne, None)?,
                '<' => self.pair('=', Tok::Le, Some(Tok::Lt))?,
                '>' => self.pair('=', Tok::Ge, Some(Tok::Gt))?,
                '/' => self.pair('/', Tok::DoubleSlash, Some(Tok::Slash))?,
                ':' => self.pair(':', Tok::ColonColon, None)?,
                '"' | '\'' => {
                    let quote = c;
                    let start = self.pos + 1;
                    let Some(len) = self.chars[start..].iter().position(|&x| x == quote) else {
                        return Err("unterminated string literal".into());
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
                    return Err("variable references are not allowed (no variable bindings)".into());
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
                other => return Err(format!("unexpected character {other:?} at {}", self.pos)),
            };
            self.toks.push(tok);
        }
        Ok(self.toks)
    }

    fn number(&mut self) -> Result<Tok, String> {
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
            .map_err(|e| format!("bad number `{text}`: {e}"))
    }

    fn name_token(&mut self) -> Result<Tok, String> {
        let first = self.ncname();
        if self.operator_context() {
            return match first.as_str() {
                "and" => Ok(Tok::And),
                "or" => Ok(Tok::Or),
                "mod" => Ok(Tok::Mod),
                "div" => Ok(Tok::Div),
                other => Err(format!("expected an operator, found `{other}`")),
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
                _ => return Err(format!("bad name after `{first}:`")),
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

// ------------------------------------------------------------------------------------------
// AST and parser (§2, §3)
// ------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Ancestor,
    AncestorOrSelf,
    Attribute,
    Child,
    Descendant,
    DescendantOrSelf,
    Following,
    FollowingSibling,
    Namespace,
    Parent,
    Preceding,
    PrecedingSibling,
    SelfNode,
}

impl Axis {
    fn from_name(name: &str) -> Option<Axis> {
        Some(match name {
            "ancestor" => Axis::Ancestor,
            "ancestor-or-self" => Axis::AncestorOrSelf,
            "attribute" => Axis::Attribute,
            "child" => Axis::Child,
            "descendant" => Axis::Descendant,
            "descendant-or-self" => Axis::DescendantOrSelf,
            "following" => Axis::Following,
            "following-sibling" => Axis::FollowingSibling,
            "namespace" => Axis::Namespace,
            "parent" => Axis::Parent,
            "preceding" => Axis::Preceding,
            "preceding-sibling" => Axis::PrecedingSibling,
            "self" => Axis::SelfNode,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
enum NodeTest {
    /// A name test: namespace URI (`None` = no namespace) unless `any_ns`, local name unless `*`.
    Name {
        any_ns: bool,
        ns: Option<String>,
        local: Option<String>,
    },
    Node,
    Text,
    Comment,
    Pi(Option<String>),
}

#[derive(Debug, Clone, PartialEq)]
struct Step {
    axis: Axis,
    test: NodeTest,
    predicates: Vec<Ast>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Func {
    Last,
    Position,
    Count,
    Id,
    LocalName,
    NamespaceUri,
    Name,
    String,
    Concat,
    StartsWith,
    Contains,
    SubstringBefore,
    SubstringAfter,
    Substring,
    StringLength,
    NormalizeSpace,
    Translate,
    Boolean,
    Not,
    True,
    False,
    Lang,
    Number,
    Sum,
    Floor,
    Ceiling,
    Round,
}

impl Func {
    /// The core function library (§4) with argument counts (min, max).
    fn lookup(name: &str) -> Option<(Func, usize, usize)> {
        Some(match name {
            "last" => (Func::Last, 0, 0),
            "position" => (Func::Position, 0, 0),
            "count" => (Func::Count, 1, 1),
            "id" => (Func::Id, 1, 1),
            "local-name" => (Func::LocalName, 0, 1),
            "namespace-uri" => (Func::NamespaceUri, 0, 1),
            "name" => (Func::Name, 0, 1),
            "string" => (Func::String, 0, 1),
            "concat" => (Func::Concat, 2, usize::MAX),
            "starts-with" => (Func::StartsWith, 2, 2),
            "contains" => (Func::Contains, 2, 2),
            "substring-before" => (Func::SubstringBefore, 2, 2),
            "substring-after" => (Func::SubstringAfter, 2, 2),
            "substring" => (Func::Substring, 2, 3),
            "string-length" => (Func::StringLength, 0, 1),
            "normalize-space" => (Func::NormalizeSpace, 0, 1),
            "translate" => (Func::Translate, 3, 3),
            "boolean" => (Func::Boolean, 1, 1),
            "not" => (Func::Not, 1, 1),
            "true" => (Func::True, 0, 0),
            "false" => (Func::False, 0, 0),
            "lang" => (Func::Lang, 1, 1),
            "number" => (Func::Number, 0, 1),
            "sum" => (Func::Sum, 1, 1),
            "floor" => (Func::Floor, 1, 1),
            "ceiling" => (Func::Ceiling, 1, 1),
            "round" => (Func::Round, 1, 1),
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Debug, Clone, PartialEq)]
enum Ast {
    Or(Box<Ast>, Box<Ast>),
    And(Box<Ast>, Box<Ast>),
    Compare(Cmp, Box<Ast>, Box<Ast>),
    Arith(Arith, Box<Ast>, Box<Ast>),
    Negate(Box<Ast>),
    Union(Box<Ast>, Box<Ast>),
    /// A location path.
    Path {
        absolute: bool,
        steps: Vec<Step>,
    },
    /// FilterExpr, optionally followed by `/` steps (a `//` is a descendant-or-self step).
    Filter {
        primary: Box<Ast>,
        predicates: Vec<Ast>,
        steps: Vec<Step>,
    },
    Literal(String),
    Number(f64),
    Call(Func, Vec<Ast>),
}

/// A parsed XPath 1.0 expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr(Ast);

/// Parses an XPath 1.0 expression under the profile's restrictions (no variables, no namespace
/// prefixes other than `xml`, only core functions with the right number of arguments).
pub fn parse(text: &str) -> Result<Expr, String> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(format!(
            "expression is {} bytes; the limit is {MAX_EXPRESSION_BYTES}",
            text.len()
        ));
    }
    let toks = Lexer {
        chars: text.chars().collect(),
        pos: 0,
        toks: Vec::new(),
        _src: text,
    }
    .run()?;
    if toks.is_empty() {
        return Err("empty expression".into());
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let ast = p.expr()?;
    if p.pos != p.toks.len() {
        return Err(format!("unexpected token {:?}", p.toks[p.pos]));
    }
    Ok(Expr(ast))
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, t: &Tok, what: &str) -> Result<(), String> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(format!("expected {what}, found {:?}", self.peek()))
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("expression nests deeper than {MAX_DEPTH}"));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Ast, String> {
        self.enter()?;
        let r = self.or_expr();
        self.depth -= 1;
        r
    }

    /// One left-associative binary level of the XPath 1.0 grammar (§3.4, §3.5):
    /// `operand (op operand)*`. Each operator counts toward the nesting bound, so a long chain
    /// like `1+1+...+1` builds a deep tree only up to `MAX_DEPTH`.
    fn binary_level(
        &mut self,
        operand: fn(&mut Self) -> Result<Ast, String>,
        operator: fn(&Tok) -> Option<BinaryNode>,
    ) -> Result<Ast, String> {
        let mut lhs = operand(self)?;
        let mut chain = 0;
        while let Some(node) = self.peek().and_then(operator) {
            self.pos += 1;
            chain += 1;
            self.enter()?;
            let rhs = operand(self)?;
            lhs = node(Box::new(lhs), Box::new(rhs));
        }
        self.depth -= chain;
        Ok(lhs)
    }

    fn or_expr(&mut self) -> Result<Ast, String> {
        self.binary_level(Self::and_expr, |t| match t {
            Tok::Or => Some(Ast::Or),
            _ => None,
        })
    }

    fn and_expr(&mut self) -> Result<Ast, String> {
        self.binary_level(Self::equality, |t| match t {
            Tok::And => Some(Ast::And),
            _ => None,
        })
    }

    fn equality(&mut self) -> Result<Ast, String> {
        self.binary_level(Self::relational, |t| match t {
            Tok::Eq => Some(|l, r| Ast::Compare(Cmp::Eq, l, r)),
            Tok::Ne => Some(|l, r| Ast::Compare(Cmp::Ne, l, r)),
            _ => None,
        })
    }

    fn relational(&mut self) -> Result<Ast, String> {
        self.binary_level(Self::additive, |t| match t {
            Tok::Lt => Some(|l, r| Ast::Compare(Cmp::Lt, l, r)),
            Tok::Le => Some(|l, r| Ast::Compare(Cmp::Le, l, r)),
            Tok::Gt => Some(|l, r| Ast::Compare(Cmp::Gt, l, r)),
            Tok::Ge => Some(|l, r| Ast::Compare(Cmp::Ge, l, r)),
            _ => None,
        })
    }

    fn additive(&mut self) -> Result<Ast, String> {
        self.binary_level(Self::multiplicative, |t| match t {
            Tok::Plus => Some(|l, r| Ast::Arith(Arith::Add, l, r)),
            Tok::Minus => Some(|l, r| Ast::Arith(Arith::Sub, l, r)),
            _ => None,
        })
    }

    fn multiplicative(&mut self) -> Result<Ast, String> {
        self.binary_level(Self::unary, |t| match t {
            Tok::Multiply => Some(|l, r| Ast::Arith(Arith::Mul, l, r)),
            Tok::Div => Some(|l, r| Ast::Arith(Arith::Div, l, r)),
            Tok::Mod => Some(|l, r| Ast::Arith(Arith::Mod, l, r)),
            _ => None,
        })
    }

    fn unary(&mut self) -> Result<Ast, String> {
        // Iterative: `- - - x` must not recurse once per minus.
        let mut negations = 0usize;
        while self.eat(&Tok::Minus) {
            negations += 1;
        }
        let mut e = self.union()?;
        if negations % 2 == 1 {
            e = Ast::Negate(Box::new(e));
        } else if negations > 0 {
            // `--x` is number(x): keep the conversion.
            e = Ast::Negate(Box::new(Ast::Negate(Box::new(e))));
        }
        Ok(e)
    }

    fn union(&mut self) -> Result<Ast, String> {
        let mut lhs = self.path_expr()?;
        let mut chain = 0;
        while self.eat(&Tok::Pipe) {
            chain += 1;
            self.enter()?;
            let rhs = self.path_expr()?;
            lhs = Ast::Union(Box::new(lhs), Box::new(rhs));
        }
        self.depth -= chain;
        Ok(lhs)
    }

    fn path_expr(&mut self) -> Result<Ast, String> {
        match self.peek() {
            Some(Tok::LParen | Tok::Literal(_) | Tok::Number(_) | Tok::Function(..)) => {
                let primary = self.primary()?;
                let predicates = self.predicates()?;
                let mut steps = Vec::new();
                loop {
                    if self.eat(&Tok::Slash) {
                        steps.push(self.step()?);
                    } else if self.eat(&Tok::DoubleSlash) {
                        steps.push(descendant_or_self());
                        steps.push(self.step()?);
                    } else {
                        break;
                    }
                }
                if predicates.is_empty() && steps.is_empty() {
                    Ok(primary)
                } else {
                    Ok(Ast::Filter {
                        primary: Box::new(primary),
                        predicates,
                        steps,
                    })
                }
            }
            _ => self.location_path(),
        }
    }

    fn starts_step(&self) -> bool {
        matches!(
            self.peek(),
            Some(
                Tok::NameTest(..)
                    | Tok::NodeType(_)
                    | Tok::Axis(_)
                    | Tok::At
                    | Tok::Dot
                    | Tok::DotDot
            )
        )
    }

    fn location_path(&mut self) -> Result<Ast, String> {
        let mut steps = Vec::new();
        let absolute;
        if self.eat(&Tok::Slash) {
            absolute = true;
            if !self.starts_step() {
                return Ok(Ast::Path { absolute, steps });
            }
            steps.push(self.step()?);
        } else if self.eat(&Tok::DoubleSlash) {
            absolute = true;
            steps.push(descendant_or_self());
            steps.push(self.step()?);
        } else {
            absolute = false;
            steps.push(self.step()?);
        }
        loop {
            if self.eat(&Tok::Slash) {
                steps.push(self.step()?);
            } else if self.eat(&Tok::DoubleSlash) {
                steps.push(descendant_or_self());
                steps.push(self.step()?);
            } else {
                break;
            }
        }
        Ok(Ast::Path { absolute, steps })
    }

    fn step(&mut self) -> Result<Step, String> {
        if self.eat(&Tok::Dot) {
            return Ok(Step {
                axis: Axis::SelfNode,
                test: NodeTest::Node,
                predicates: Vec::new(),
            });
        }
        if self.eat(&Tok::DotDot) {
            return Ok(Step {
                axis: Axis::Parent,
                test: NodeTest::Node,
                predicates: Vec::new(),
            });
        }
        let axis = match self.peek().cloned() {
            Some(Tok::At) => {
                self.pos += 1;
                Axis::Attribute
            }
            Some(Tok::Axis(name)) => {
                self.pos += 1;
                self.expect(&Tok::ColonColon, "`::`")?;
                Axis::from_name(&name).ok_or_else(|| format!("unknown axis `{name}`"))?
            }
            _ => Axis::Child,
        };
        let test = match self.peek().cloned() {
            Some(Tok::NameTest(prefix, local)) => {
                self.pos += 1;
                match prefix {
                    None => NodeTest::Name {
                        any_ns: local.is_none(),
                        ns: None,
                        local,
                    },
                    Some(p) => NodeTest::Name {
                        any_ns: false,
                        ns: Some(resolve_prefix(&p)?),
                        local,
                    },
                }
            }
            Some(Tok::NodeType(kind)) => {
                self.pos += 1;
                self.expect(&Tok::LParen, "`(`")?;
                let t = match kind.as_str() {
                    "node" => NodeTest::Node,
                    "text" => NodeTest::Text,
                    "comment" => NodeTest::Comment,
                    _ => match self.peek().cloned() {
                        Some(Tok::Literal(l)) => {
                            self.pos += 1;
                            NodeTest::Pi(Some(l))
                        }
                        _ => NodeTest::Pi(None),
                    },
                };
                self.expect(&Tok::RParen, "`)`")?;
                t
            }
            other => return Err(format!("expected a node test, found {other:?}")),
        };
        let predicates = self.predicates()?;
        Ok(Step {
            axis,
            test,
            predicates,
        })
    }

    fn predicates(&mut self) -> Result<Vec<Ast>, String> {
        let mut out = Vec::new();
        while self.eat(&Tok::LBracket) {
            out.push(self.expr()?);
            self.expect(&Tok::RBracket, "`]`")?;
        }
        Ok(out)
    }

    fn primary(&mut self) -> Result<Ast, String> {
        match self.peek().cloned() {
            Some(Tok::LParen) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(&Tok::RParen, "`)`")?;
                Ok(e)
            }
            Some(Tok::Literal(s)) => {
                self.pos += 1;
                Ok(Ast::Literal(s))
            }
            Some(Tok::Number(n)) => {
                self.pos += 1;
                Ok(Ast::Number(n))
            }
            Some(Tok::Function(prefix, name)) => {
                self.pos += 1;
                if let Some(p) = prefix {
                    return Err(format!(
                        "function `{p}:{name}` is not in the XPath 1.0 core function library"
                    ));
                }
                let (func, min, max) = Func::lookup(&name).ok_or_else(|| {
                    format!("function `{name}` is not in the XPath 1.0 core function library")
                })?;
                self.expect(&Tok::LParen, "`(`")?;
                let mut args = Vec::new();
                if !self.eat(&Tok::RParen) {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(&Tok::Comma) {
                            continue;
                        }
                        self.expect(&Tok::RParen, "`)` or `,`")?;
                        break;
                    }
                }
                if args.len() < min || args.len() > max {
                    return Err(format!(
                        "function `{name}` takes {} argument(s), not {}",
                        if min == max {
                            min.to_string()
                        } else if max == usize::MAX {
                            format!("at least {min}")
                        } else {
                            format!("{min} to {max}")
                        },
                        args.len()
                    ));
                }
                Ok(Ast::Call(func, args))
            }
            other => Err(format!("expected an expression, found {other:?}")),
        }
    }
}

fn descendant_or_self() -> Step {
    Step {
        axis: Axis::DescendantOrSelf,
        test: NodeTest::Node,
        predicates: Vec::new(),
    }
}

/// No namespace bindings are in scope except the predeclared `xml` prefix.
fn resolve_prefix(prefix: &str) -> Result<String, String> {
    if prefix == "xml" {
        Ok(XML_NS.to_owned())
    } else {
        Err(format!(
            "namespace prefix `{prefix}` is not bound (selectors are evaluated without namespace bindings)"
        ))
    }
}

// ------------------------------------------------------------------------------------------
// Data model
// ------------------------------------------------------------------------------------------

/// An XPath node: a roxmltree node, or an attribute / namespace node of an element.
#[derive(Debug, Clone, Copy)]
pub enum XNode<'a, 'i> {
    Node(Node<'a, 'i>),
    Attr(Node<'a, 'i>, usize),
    Ns(Node<'a, 'i>, usize),
}

impl<'a, 'i> XNode<'a, 'i> {
    fn key(&self) -> (u32, u8, usize) {
        match self {
            XNode::Node(n) => (n.id().get(), 0, 0),
            XNode::Ns(e, i) => (e.id().get(), 1, *i),
            XNode::Attr(e, i) => (e.id().get(), 2, *i),
        }
    }

    fn element_like(&self) -> Option<Node<'a, 'i>> {
        match self {
            XNode::Node(n) if n.is_element() || n.is_root() => Some(*n),
            _ => None,
        }
    }

    /// The expanded name (§5): (namespace URI, local name).
    fn expanded_name(&self) -> Option<(Option<&'a str>, String)> {
        match self {
            XNode::Node(n) => match n.node_type() {
                NodeType::Element => {
                    let t = n.tag_name();
                    Some((t.namespace(), t.name().to_owned()))
                }
                NodeType::PI => n.pi().map(|pi| (None, pi.target.to_owned())),
                _ => None,
            },
            XNode::Attr(e, i) => e
                .attributes()
                .nth(*i)
                .map(|a| (a.namespace(), a.name().to_owned())),
            XNode::Ns(e, i) => ns_at(e, *i).map(|(prefix, _)| (None, prefix.to_owned())),
        }
    }

    fn is_text(&self) -> bool {
        matches!(self, XNode::Node(n) if n.is_text())
    }
}

impl PartialEq for XNode<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for XNode<'_, '_> {}

/// An XPath value.
#[derive(Debug, Clone)]
pub enum Value<'a, 'i> {
    /// Sorted in document order, without duplicates.
    Nodes(Vec<XNode<'a, 'i>>),
    Bool(bool),
    Num(f64),
    Str(String),
}

/// Why an evaluation stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalError {
    /// A run-time type error (a node-set was required).
    Type(String),
    /// The work budget was exhausted.
    Budget,
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Type(m) => f.write_str(m),
            EvalError::Budget => f.write_str("evaluation exceeds the verifier's work limit"),
        }
    }
}

type R<T> = Result<T, EvalError>;

struct Ctx<'a, 'i> {
    node: XNode<'a, 'i>,
    position: usize,
    size: usize,
}

struct Eval<'a, 'i> {
    doc: &'a Document<'i>,
    budget: u64,
}

/// Evaluates `expr` with the document node as context node (position 1, size 1).
pub fn evaluate<'a, 'i>(expr: &Expr, doc: &'a Document<'i>, budget: u64) -> R<Value<'a, 'i>> {
    let mut ev = Eval { doc, budget };
    let ctx = Ctx {
        node: XNode::Node(doc.root()),
        position: 1,
        size: 1,
    };
    ev.eval(&expr.0, &ctx)
}

/// The string-value of a node (§5).
pub fn string_value(node: &XNode<'_, '_>) -> String {
    let mut unlimited = u64::MAX;
    string_value_budget(node, &mut unlimited).unwrap_or_default()
}

fn string_value_budget(node: &XNode<'_, '_>, budget: &mut u64) -> R<String> {
    Ok(match node {
        XNode::Node(n) => match n.node_type() {
            NodeType::Root | NodeType::Element => {
                let mut out = String::new();
                for d in n.descendants() {
                    charge(budget, 1)?;
                    if d.is_text() {
                        let t = d.text().unwrap_or("");
                        charge(budget, t.len() as u64 / 64)?;
                        out.push_str(t);
                    }
                }
                out
            }
            NodeType::Text | NodeType::Comment => n.text().unwrap_or("").to_owned(),
            NodeType::PI => n.pi().and_then(|p| p.value).unwrap_or("").to_owned(),
        },
        XNode::Attr(e, i) => e
            .attributes()
            .nth(*i)
            .map(|a| a.value().to_owned())
            .unwrap_or_default(),
        XNode::Ns(e, i) => ns_at(e, *i)
            .map(|(_, uri)| uri.to_owned())
            .unwrap_or_default(),
    })
}

fn charge(budget: &mut u64, n: u64) -> R<()> {
    if *budget < n {
        *budget = 0;
        return Err(EvalError::Budget);
    }
    *budget -= n;
    Ok(())
}

/// One past the largest node id in the subtree of `n` (ids follow document order).
fn subtree_end(n: &Node<'_, '_>) -> u32 {
    let mut last = *n;
    while let Some(child) = last.last_child() {
        last = child;
    }
    last.id().get().saturating_add(1)
}

fn sort_dedup(nodes: &mut Vec<XNode<'_, '_>>) {
    nodes.sort_by_key(XNode::key);
    nodes.dedup();
}

/// `number()` of a string (§4.4): optional whitespace, optional minus, Number.
pub fn str_to_num(s: &str) -> f64 {
    let t = s.trim_matches(is_xml_space);
    let body = t.strip_prefix('-').unwrap_or(t);
    let mut seen_digit = false;
    let mut seen_dot = false;
    for c in body.chars() {
        match c {
            '0'..='9' => seen_digit = true,
            '.' if !seen_dot => seen_dot = true,
            _ => return f64::NAN,
        }
    }
    if !seen_digit {
        return f64::NAN;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

/// `string()` of a number (§4.2).
pub fn num_to_str(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n == f64::INFINITY {
        "Infinity".into()
    } else if n == f64::NEG_INFINITY {
        "-Infinity".into()
    } else if n == 0.0 {
        "0".into()
    } else {
        // Rust's shortest round-trip decimal, never in exponent form.
        format!("{n}")
    }
}

fn cmp_num(op: Cmp, x: f64, y: f64) -> bool {
    match op {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        Cmp::Lt => x < y,
        Cmp::Le => x <= y,
        Cmp::Gt => x > y,
        Cmp::Ge => x >= y,
    }
}

fn cmp_str(op: Cmp, x: &str, y: &str) -> bool {
    match op {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        _ => cmp_num(op, str_to_num(x), str_to_num(y)),
    }
}

fn cmp_bool(op: Cmp, x: bool, y: bool) -> bool {
    match op {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        _ => cmp_num(op, f64::from(u8::from(x)), f64::from(u8::from(y))),
    }
}

fn round_xpath(x: f64) -> f64 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return x;
    }
    if (-0.5..0.0).contains(&x) {
        return -0.0;
    }
    (x + 0.5).floor()
}

impl<'a, 'i> Eval<'a, 'i> {
    fn charge(&mut self, n: u64) -> R<()> {
        charge(&mut self.budget, n)
    }

    fn string_of(&mut self, node: &XNode<'a, 'i>) -> R<String> {
        string_value_budget(node, &mut self.budget)
    }

    fn string_of_value(&mut self, v: &Value<'a, 'i>) -> R<String> {
        Ok(match v {
            Value::Nodes(ns) => match ns.first() {
                Some(n) => self.string_of(n)?,
                None => String::new(),
            },
            Value::Bool(b) => if *b { "true" } else { "false" }.into(),
            Value::Num(n) => num_to_str(*n),
            Value::Str(s) => s.clone(),
        })
    }

    fn number_of_value(&mut self, v: &Value<'a, 'i>) -> R<f64> {
        Ok(match v {
            Value::Num(n) => *n,
            Value::Bool(b) => f64::from(u8::from(*b)),
            Value::Str(s) => str_to_num(s),
            Value::Nodes(_) => {
                let s = self.string_of_value(v)?;
                str_to_num(&s)
            }
        })
    }

    fn to_bool(v: &Value<'a, 'i>) -> bool {
        match v {
            Value::Nodes(ns) => !ns.is_empty(),
            Value::Bool(b) => *b,
            Value::Num(n) => *n != 0.0 && !n.is_nan(),
            Value::Str(s) => !s.is_empty(),
        }
    }

    fn eval(&mut self, ast: &Ast, ctx: &Ctx<'a, 'i>) -> R<Value<'a, 'i>> {
        self.charge(1)?;
        match ast {
            Ast::Or(l, r) => {
                let lv = self.eval(l, ctx)?;
                if Self::to_bool(&lv) {
                    return Ok(Value::Bool(true));
                }
                let rv = self.eval(r, ctx)?;
                Ok(Value::Bool(Self::to_bool(&rv)))
            }
            Ast::And(l, r) => {
                let lv = self.eval(l, ctx)?;
                if !Self::to_bool(&lv) {
                    return Ok(Value::Bool(false));
                }
                let rv = self.eval(r, ctx)?;
                Ok(Value::Bool(Self::to_bool(&rv)))
            }
            Ast::Compare(op, l, r) => {
                let lv = self.eval(l, ctx)?;
                let rv = self.eval(r, ctx)?;
                Ok(Value::Bool(self.compare(*op, &lv, &rv)?))
            }
            Ast::Arith(op, l, r) => {
                let lv = self.eval(l, ctx)?;
                let a = self.number_of_value(&lv)?;
                let rv = self.eval(r, ctx)?;
                let b = self.number_of_value(&rv)?;
                Ok(Value::Num(match op {
                    Arith::Add => a + b,
                    Arith::Sub => a - b,
                    Arith::Mul => a * b,
                    Arith::Div => a / b,
                    // IEEE remainder with the sign of the dividend, like Java's `%` (§3.5).
                    Arith::Mod => a % b,
                }))
            }
            Ast::Negate(e) => {
                let v = self.eval(e, ctx)?;
                Ok(Value::Num(-self.number_of_value(&v)?))
            }
            Ast::Union(l, r) => {
                let lv = self.eval(l, ctx)?;
                let rv = self.eval(r, ctx)?;
                match (lv, rv) {
                    (Value::Nodes(mut a), Value::Nodes(b)) => {
                        self.charge((a.len() + b.len()) as u64)?;
                        a.extend(b);
                        sort_dedup(&mut a);
                        Ok(Value::Nodes(a))
                    }
                    _ => Err(EvalError::Type(
                        "the operands of `|` must be node-sets".into(),
                    )),
                }
            }
            Ast::Path { absolute, steps } => {
                let start = if *absolute {
                    XNode::Node(self.doc.root())
                } else {
                    ctx.node
                };
                let nodes = self.steps(vec![start], steps)?;
                Ok(Value::Nodes(nodes))
            }
            Ast::Filter {
                primary,
                predicates,
                steps,
            } => {
                let v = self.eval(primary, ctx)?;
                let Value::Nodes(mut nodes) = v else {
                    return Err(EvalError::Type(
                        "a predicate or a path step needs a node-set".into(),
                    ));
                };
                for p in predicates {
                    nodes = self.filter(nodes, p)?;
                }
                if !steps.is_empty() {
                    nodes = self.steps(nodes, steps)?;
                }
                Ok(Value::Nodes(nodes))
            }
            Ast::Literal(s) => Ok(Value::Str(s.clone())),
            Ast::Number(n) => Ok(Value::Num(*n)),
            Ast::Call(f, args) => self.call(*f, args, ctx),
        }
    }

    /// §3.4 comparisons.
    fn compare(&mut self, op: Cmp, l: &Value<'a, 'i>, r: &Value<'a, 'i>) -> R<bool> {
        let equality = matches!(op, Cmp::Eq | Cmp::Ne);
        match (l, r) {
            (Value::Nodes(a), Value::Nodes(b)) => {
                let sa: Vec<String> = a.iter().map(|n| self.string_of(n)).collect::<R<_>>()?;
                let sb: Vec<String> = b.iter().map(|n| self.string_of(n)).collect::<R<_>>()?;
                self.charge((sa.len() as u64).saturating_mul(sb.len() as u64))?;
                if equality {
                    Ok(sa.iter().any(|x| sb.iter().any(|y| cmp_str(op, x, y))))
                } else {
                    let na: Vec<f64> = sa.iter().map(|s| str_to_num(s)).collect();
                    let nb: Vec<f64> = sb.iter().map(|s| str_to_num(s)).collect();
                    Ok(na.iter().any(|x| nb.iter().any(|y| cmp_num(op, *x, *y))))
                }
            }
            (Value::Nodes(a), other) | (other, Value::Nodes(a)) => {
                let nodes_left = matches!(l, Value::Nodes(_));
                match other {
                    Value::Bool(b) => {
                        let nb = !a.is_empty();
                        let (x, y) = if nodes_left { (nb, *b) } else { (*b, nb) };
                        Ok(cmp_bool(op, x, y))
                    }
                    Value::Num(n) => {
                        for node in a {
                            let v = str_to_num(&self.string_of(node)?);
                            let (x, y) = if nodes_left { (v, *n) } else { (*n, v) };
                            if cmp_num(op, x, y) {
                                return Ok(true);
                            }
                        }
                        Ok(false)
                    }
                    Value::Str(s) => {
                        for node in a {
                            let v = self.string_of(node)?;
                            let hit = if equality {
                                cmp_str(op, &v, s)
                            } else {
                                let (x, y) = if nodes_left {
                                    (str_to_num(&v), str_to_num(s))
                                } else {
                                    (str_to_num(s), str_to_num(&v))
                                };
                                cmp_num(op, x, y)
                            };
                            if hit {
                                return Ok(true);
                            }
                        }
                        Ok(false)
                    }
                    Value::Nodes(_) => Ok(false), // handled above
                }
            }
            _ => {
                if equality {
                    if matches!(l, Value::Bool(_)) || matches!(r, Value::Bool(_)) {
                        Ok(cmp_bool(op, Self::to_bool(l), Self::to_bool(r)))
                    } else if matches!(l, Value::Num(_)) || matches!(r, Value::Num(_)) {
                        let (x, y) = (self.number_of_value(l)?, self.number_of_value(r)?);
                        Ok(cmp_num(op, x, y))
                    } else {
                        let (x, y) = (self.string_of_value(l)?, self.string_of_value(r)?);
                        Ok(cmp_str(op, &x, &y))
                    }
                } else {
                    let (x, y) = (self.number_of_value(l)?, self.number_of_value(r)?);
                    Ok(cmp_num(op, x, y))
                }
            }
        }
    }

    fn steps(&mut self, mut input: Vec<XNode<'a, 'i>>, steps: &[Step]) -> R<Vec<XNode<'a, 'i>>> {
        for step in steps {
            // Nodes already collected for this step: the output never holds a node twice, so
            // its size is bounded by the document whatever the number of context nodes.
            let mut seen: HashSet<(u32, u8, usize)> = HashSet::new();
            let mut out = Vec::new();
            let plain = step.predicates.is_empty();
            if plain && step.axis == Axis::Following {
                // The following nodes of a node are a suffix of the document (everything after
                // its subtree; for an attribute or namespace node, after its element), so the
                // union over the context nodes is the longest of those suffixes: one scan.
                let start = input
                    .iter()
                    .map(|c| match c {
                        XNode::Node(n) => subtree_end(n),
                        XNode::Attr(e, _) | XNode::Ns(e, _) => e.id().get().saturating_add(1),
                    })
                    .min();
                if let Some(start) = start {
                    for d in self.doc.root().descendants() {
                        self.charge(1)?;
                        let c = XNode::Node(d);
                        if d.id().get() >= start && matches_test(&step.test, step.axis, &c) {
                            out.push(c);
                        }
                    }
                }
                input = out;
                continue;
            }
            // `input` is in document order (a previous step's output, or one node).
            let contexts: &[XNode<'a, 'i>] = match step.axis {
                // Without predicates, the preceding nodes of the last context node include
                // those of every earlier one, so one scan serves them all.
                Axis::Preceding if plain => {
                    input.get(input.len().saturating_sub(1)..).unwrap_or(&[])
                }
                _ => &input,
            };
            // End (exclusive, by node id) of the last subtree whose descendants were all
            // collected: a context node inside it has nothing new to add when the step has no
            // predicate.
            let mut covered_until: u32 = 0;
            for node in contexts {
                let descends = matches!(step.axis, Axis::Descendant | Axis::DescendantOrSelf);
                if plain && descends {
                    if let XNode::Node(n) = node
                        && n.id().get() < covered_until
                    {
                        self.charge(1)?;
                        continue;
                    }
                    if let Some(n) = node.element_like() {
                        covered_until = subtree_end(&n);
                    }
                }
                let mut candidates = self.axis(step.axis, *node)?;
                candidates.retain(|c| matches_test(&step.test, step.axis, c));
                for p in &step.predicates {
                    candidates = self.filter(candidates, p)?;
                }
                self.charge(candidates.len() as u64)?;
                for c in candidates {
                    if seen.insert(c.key()) {
                        out.push(c);
                    }
                }
            }
            sort_dedup(&mut out);
            input = out;
        }
        Ok(input)
    }

    /// Applies a predicate to nodes given in the order of their axis (proximity positions).
    fn filter(&mut self, nodes: Vec<XNode<'a, 'i>>, pred: &Ast) -> R<Vec<XNode<'a, 'i>>> {
        let size = nodes.len();
        let mut out = Vec::new();
        for (i, n) in nodes.into_iter().enumerate() {
            let ctx = Ctx {
                node: n,
                position: i + 1,
                size,
            };
            let v = self.eval(pred, &ctx)?;
            let keep = match v {
                #[allow(clippy::float_cmp)]
                Value::Num(x) => x == (i + 1) as f64,
                other => Self::to_bool(&other),
            };
            if keep {
                out.push(n);
            }
        }
        Ok(out)
    }

    /// The nodes of `axis` from `node`, in axis order (reverse document order for reverse axes).
    fn axis(&mut self, axis: Axis, node: XNode<'a, 'i>) -> R<Vec<XNode<'a, 'i>>> {
        let mut out = Vec::new();
        match axis {
            Axis::SelfNode => out.push(node),
            Axis::Child => {
                if let Some(n) = node.element_like() {
                    for c in n.children() {
                        self.charge(1)?;
                        out.push(XNode::Node(c));
                    }
                }
            }
            Axis::Descendant | Axis::DescendantOrSelf => {
                if axis == Axis::DescendantOrSelf {
                    out.push(node);
                }
                if let Some(n) = node.element_like() {
                    for d in n.descendants().skip(1) {
                        self.charge(1)?;
                        out.push(XNode::Node(d));
                    }
                }
            }
            Axis::Parent => {
                if let Some(p) = parent(&node) {
                    out.push(XNode::Node(p));
                }
            }
            Axis::Ancestor | Axis::AncestorOrSelf => {
                if axis == Axis::AncestorOrSelf {
                    out.push(node);
                }
                let mut cur = parent(&node);
                while let Some(p) = cur {
                    self.charge(1)?;
                    out.push(XNode::Node(p));
                    cur = p.parent();
                }
            }
            Axis::FollowingSibling => {
                if let XNode::Node(n) = node {
                    for s in n.next_siblings().skip(1) {
                        self.charge(1)?;
                        out.push(XNode::Node(s));
                    }
                }
            }
            Axis::PrecedingSibling => {
                if let XNode::Node(n) = node {
                    for s in n.prev_siblings().skip(1) {
                        self.charge(1)?;
                        out.push(XNode::Node(s));
                    }
                }
            }
            Axis::Following => {
                // Attribute and namespace nodes are followed by their element's content.
                let start = match node {
                    XNode::Node(n) => n,
                    XNode::Attr(e, _) | XNode::Ns(e, _) => {
                        for d in e.descendants().skip(1) {
                            self.charge(1)?;
                            out.push(XNode::Node(d));
                        }
                        e
                    }
                };
                let mut cur = Some(start);
                while let Some(a) = cur {
                    for s in a.next_siblings().skip(1) {
                        for d in s.descendants() {
                            self.charge(1)?;
                            out.push(XNode::Node(d));
                        }
                    }
                    cur = a.parent();
                }
            }
            Axis::Preceding => {
                let target = match node {
                    XNode::Node(n) => n,
                    XNode::Attr(e, _) | XNode::Ns(e, _) => e,
                };
                let ancestors: HashSet<u32> = target.ancestors().map(|a| a.id().get()).collect();
                let limit = target.id().get();
                for d in self.doc.root().descendants() {
                    self.charge(1)?;
                    let id = d.id().get();
                    if id >= limit {
                        break;
                    }
                    if !ancestors.contains(&id) {
                        out.push(XNode::Node(d));
                    }
                }
                out.reverse();
            }
            Axis::Attribute => {
                if let XNode::Node(n) = node
                    && n.is_element()
                {
                    for i in 0..n.attributes().len() {
                        self.charge(1)?;
                        out.push(XNode::Attr(n, i));
                    }
                }
            }
            Axis::Namespace => {
                if let XNode::Node(n) = node
                    && n.is_element()
                {
                    for i in 0..ns_count(&n) {
                        self.charge(1)?;
                        out.push(XNode::Ns(n, i));
                    }
                }
            }
        }
        Ok(out)
    }

    fn node_set_arg(&mut self, arg: &Ast, ctx: &Ctx<'a, 'i>, f: &str) -> R<Vec<XNode<'a, 'i>>> {
        match self.eval(arg, ctx)? {
            Value::Nodes(n) => Ok(n),
            _ => Err(EvalError::Type(format!(
                "the argument of {f}() must be a node-set"
            ))),
        }
    }

    fn str_arg(&mut self, args: &[Ast], i: usize, ctx: &Ctx<'a, 'i>) -> R<String> {
        match args.get(i) {
            Some(a) => {
                let v = self.eval(a, ctx)?;
                self.string_of_value(&v)
            }
            None => self.string_of(&ctx.node),
        }
    }

    fn num_arg(&mut self, args: &[Ast], i: usize, ctx: &Ctx<'a, 'i>) -> R<f64> {
        match args.get(i) {
            Some(a) => {
                let v = self.eval(a, ctx)?;
                self.number_of_value(&v)
            }
            None => {
                let s = self.string_of(&ctx.node)?;
                Ok(str_to_num(&s))
            }
        }
    }

    /// The node a name function looks at: the first of its argument, or the context node.
    fn name_subject(
        &mut self,
        args: &[Ast],
        ctx: &Ctx<'a, 'i>,
        f: &str,
    ) -> R<Option<XNode<'a, 'i>>> {
        match args.first() {
            Some(a) => Ok(self.node_set_arg(a, ctx, f)?.first().copied()),
            None => Ok(Some(ctx.node)),
        }
    }

    fn call(&mut self, f: Func, args: &[Ast], ctx: &Ctx<'a, 'i>) -> R<Value<'a, 'i>> {
        Ok(match f {
            Func::Last => Value::Num(ctx.size as f64),
            Func::Position => Value::Num(ctx.position as f64),
            Func::Count => {
                let n = self.node_set_arg(&args[0], ctx, "count")?;
                Value::Num(n.len() as f64)
            }
            Func::Id => {
                // Evaluated for its errors; no attribute is known to be of type ID.
                let _ = self.eval(&args[0], ctx)?;
                Value::Nodes(Vec::new())
            }
            Func::LocalName => {
                let n = self.name_subject(args, ctx, "local-name")?;
                Value::Str(
                    n.and_then(|n| n.expanded_name())
                        .map(|(_, l)| l)
                        .unwrap_or_default(),
                )
            }
            Func::NamespaceUri => {
                let n = self.name_subject(args, ctx, "namespace-uri")?;
                Value::Str(
                    n.and_then(|n| n.expanded_name())
                        .and_then(|(ns, _)| ns.map(str::to_owned))
                        .unwrap_or_default(),
                )
            }
            Func::Name => {
                let n = self.name_subject(args, ctx, "name")?;
                Value::Str(n.map(|n| qname(&n)).unwrap_or_default())
            }
            Func::String => Value::Str(self.str_arg(args, 0, ctx)?),
            Func::Concat => {
                let mut out = String::new();
                for i in 0..args.len() {
                    let s = self.str_arg(args, i, ctx)?;
                    self.charge(s.len() as u64 / 64)?;
                    out.push_str(&s);
                }
                Value::Str(out)
            }
            Func::StartsWith => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                Value::Bool(a.starts_with(&b))
            }
            Func::Contains => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                self.charge(a.len() as u64 / 64)?;
                Value::Bool(a.contains(&b))
            }
            Func::SubstringBefore => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                Value::Str(a.find(&b).map(|i| a[..i].to_owned()).unwrap_or_default())
            }
            Func::SubstringAfter => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                Value::Str(
                    a.find(&b)
                        .map(|i| a[i + b.len()..].to_owned())
                        .unwrap_or_default(),
                )
            }
            Func::Substring => {
                let s = self.str_arg(args, 0, ctx)?;
                let start = round_xpath(self.num_arg(args, 1, ctx)?);
                let end = if args.len() == 3 {
                    start + round_xpath(self.num_arg(args, 2, ctx)?)
                } else {
                    f64::INFINITY
                };
                // Characters at 1-based positions p with start <= p < end (NaN compares false).
                let out: String = s
                    .chars()
                    .enumerate()
                    .filter(|(i, _)| {
                        let p = (*i + 1) as f64;
                        p >= start && p < end
                    })
                    .map(|(_, c)| c)
                    .collect();
                Value::Str(out)
            }
            Func::StringLength => {
                let s = self.str_arg(args, 0, ctx)?;
                Value::Num(s.chars().count() as f64)
            }
            Func::NormalizeSpace => {
                let s = self.str_arg(args, 0, ctx)?;
                Value::Str(
                    s.split(is_xml_space)
                        .filter(|w| !w.is_empty())
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            }
            Func::Translate => {
                let s = self.str_arg(args, 0, ctx)?;
                let from: Vec<char> = self.str_arg(args, 1, ctx)?.chars().collect();
                let to: Vec<char> = self.str_arg(args, 2, ctx)?.chars().collect();
                self.charge((s.len() as u64).saturating_mul(from.len() as u64) / 64)?;
                let out: String = s
                    .chars()
                    .filter_map(|c| match from.iter().position(|&f| f == c) {
                        Some(i) => to.get(i).copied(),
                        None => Some(c),
                    })
                    .collect();
                Value::Str(out)
            }
            Func::Boolean => {
                let v = self.eval(&args[0], ctx)?;
                Value::Bool(Self::to_bool(&v))
            }
            Func::Not => {
                let v = self.eval(&args[0], ctx)?;
                Value::Bool(!Self::to_bool(&v))
            }
            Func::True => Value::Bool(true),
            Func::False => Value::Bool(false),
            Func::Lang => {
                let want = self.str_arg(args, 0, ctx)?;
                Value::Bool(lang_matches(&ctx.node, &want))
            }
            Func::Number => Value::Num(self.num_arg(args, 0, ctx)?),
            Func::Sum => {
                let nodes = self.node_set_arg(&args[0], ctx, "sum")?;
                let mut total = 0.0;
                for n in &nodes {
                    total += str_to_num(&self.string_of(n)?);
                }
                Value::Num(total)
            }
            Func::Floor => Value::Num(self.num_arg(args, 0, ctx)?.floor()),
            Func::Ceiling => Value::Num(self.num_arg(args, 0, ctx)?.ceil()),
            Func::Round => Value::Num(round_xpath(self.num_arg(args, 0, ctx)?)),
        })
    }
}

/// Whether roxmltree lists the `xml` prefix among an element's namespaces (it normally does
/// not, although the XPath data model gives every element a namespace node for it).
fn lists_xml(e: &Node<'_, '_>) -> bool {
    e.namespaces().any(|ns| ns.name() == Some("xml"))
}

/// Number of namespace nodes of an element: roxmltree's in-scope namespaces plus `xml`.
fn ns_count(e: &Node<'_, '_>) -> usize {
    e.namespaces().len() + usize::from(!lists_xml(e))
}

/// The i-th namespace node of an element: (prefix, `""` for the default namespace; URI).
fn ns_at<'a>(e: &Node<'a, '_>, i: usize) -> Option<(&'a str, &'a str)> {
    let listed = e.namespaces().len();
    if i < listed {
        e.namespaces()
            .nth(i)
            .map(|ns| (ns.name().unwrap_or(""), ns.uri()))
    } else if i == listed && !lists_xml(e) {
        Some(("xml", XML_NS))
    } else {
        None
    }
}

fn parent<'a, 'i>(node: &XNode<'a, 'i>) -> Option<Node<'a, 'i>> {
    match node {
        XNode::Node(n) => n.parent(),
        XNode::Attr(e, _) | XNode::Ns(e, _) => Some(*e),
    }
}

fn matches_test(test: &NodeTest, axis: Axis, node: &XNode<'_, '_>) -> bool {
    match test {
        NodeTest::Node => true,
        NodeTest::Text => node.is_text(),
        NodeTest::Comment => matches!(node, XNode::Node(n) if n.is_comment()),
        NodeTest::Pi(target) => match node {
            XNode::Node(n) => match n.pi() {
                Some(pi) => target.as_deref().is_none_or(|t| t == pi.target),
                None => false,
            },
            _ => false,
        },
        NodeTest::Name { any_ns, ns, local } => {
            // The principal node type of the axis (§2.3).
            let principal = match axis {
                Axis::Attribute => matches!(node, XNode::Attr(..)),
                Axis::Namespace => matches!(node, XNode::Ns(..)),
                _ => matches!(node, XNode::Node(n) if n.is_element()),
            };
            if !principal {
                return false;
            }
            let Some((node_ns, node_local)) = node.expanded_name() else {
                return false;
            };
            if !*any_ns && node_ns != ns.as_deref() {
                return false;
            }
            local.as_deref().is_none_or(|l| l == node_local)
        }
    }
}

/// `name()`: the QName with the prefix in scope for the namespace (§4.1).
fn qname(node: &XNode<'_, '_>) -> String {
    let Some((ns, local)) = node.expanded_name() else {
        return String::new();
    };
    let (Some(ns), Some(scope)) = (ns, parent_or_self_element(node)) else {
        return local;
    };
    match scope.lookup_prefix(ns) {
        Some(p) if !p.is_empty() => format!("{p}:{local}"),
        _ => local,
    }
}

fn parent_or_self_element<'a, 'i>(node: &XNode<'a, 'i>) -> Option<Node<'a, 'i>> {
    match node {
        XNode::Node(n) if n.is_element() => Some(*n),
        XNode::Node(n) => n.parent_element(),
        XNode::Attr(e, _) | XNode::Ns(e, _) => Some(*e),
    }
}

/// `lang()` (§4.3): the nearest `xml:lang` equals the argument or is a sublanguage of it,
/// ignoring ASCII case.
fn lang_matches(node: &XNode<'_, '_>, want: &str) -> bool {
    let mut cur = parent_or_self_element(node);
    while let Some(e) = cur {
        if let Some(value) = e.attribute((XML_NS, "lang")) {
            let v = value.to_ascii_lowercase();
            let w = want.to_ascii_lowercase();
            return v == w || (v.starts_with(&w) && v[w.len()..].starts_with('-'));
        }
        cur = e.parent_element();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"<?xml version="1.0"?>
<catalog xmlns:x="urn:x" xml:lang="en-GB">
  <book id="b1" lang="en"><title>Dune</title><price>9.5</price></book>
  <book id="b2"><title>Emma</title><price>12</price><!-- c --></book>
  <x:note>namespaced</x:note>
  <?pi data?>
</catalog>"#;

    fn eval_str(expr: &str) -> Result<String, String> {
        let doc = roxmltree::Document::parse(DOC).map_err(|e| e.to_string())?;
        let e = parse(expr)?;
        let v = evaluate(&e, &doc, DEFAULT_BUDGET).map_err(|e| e.to_string())?;
        let mut ev = Eval {
            doc: &doc,
            budget: DEFAULT_BUDGET,
        };
        ev.string_of_value(&v).map_err(|e| e.to_string())
    }

    fn count(expr: &str) -> usize {
        let doc = roxmltree::Document::parse(DOC).unwrap_or_else(|e| panic!("{e}"));
        match evaluate(
            &parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}")),
            &doc,
            DEFAULT_BUDGET,
        ) {
            Ok(Value::Nodes(n)) => n.len(),
            other => panic!("{expr}: {other:?}"),
        }
    }

    #[test]
    fn paths_and_predicates() {
        assert_eq!(count("/catalog/book"), 2);
        assert_eq!(count("//book[2]"), 1);
        assert_eq!(eval_str("//book[2]/title").as_deref(), Ok("Emma"));
        assert_eq!(eval_str("//book[last()]/@id").as_deref(), Ok("b2"));
        assert_eq!(eval_str("(//title)[1]").as_deref(), Ok("Dune"));
        assert_eq!(count("//book[price > 10]"), 1);
        assert_eq!(count("//book[@lang]"), 1);
        assert_eq!(count("//*"), 8);
        assert_eq!(count("//node()[self::comment()]"), 1);
        assert_eq!(count("//processing-instruction('pi')"), 1);
        assert_eq!(count("//title/ancestor::*"), 3);
        assert_eq!(count("//book[1]/following::*"), 4);
        assert_eq!(count("//book[2]/preceding::*"), 3);
        assert_eq!(count("//book[2]/preceding-sibling::*"), 1);
        assert_eq!(
            eval_str("//book[2]/preceding-sibling::*[1]/@id").as_deref(),
            Ok("b1")
        );
        assert_eq!(
            eval_str("//title[../@id='b2']/ancestor::*[1]/@id").as_deref(),
            Ok("b2")
        );
        assert_eq!(count("//xml:*"), 0);
        assert_eq!(count("/catalog/namespace::*"), 2);
        assert_eq!(count("//book | //title | //book"), 4);
        assert_eq!(count("//*[local-name()='note']"), 1);
        assert_eq!(count("//note"), 0, "unprefixed names are in no namespace");
    }

    #[test]
    fn functions() {
        assert_eq!(eval_str("count(//book)").as_deref(), Ok("2"));
        assert_eq!(eval_str("sum(//price)").as_deref(), Ok("21.5"));
        assert_eq!(eval_str("concat('a', 1, true())").as_deref(), Ok("a1true"));
        assert_eq!(
            eval_str("substring('12345', 1.5, 2.6)").as_deref(),
            Ok("234")
        );
        assert_eq!(eval_str("substring('12345', 0, 3)").as_deref(), Ok("12"));
        assert_eq!(
            eval_str("substring('12345', 0 div 0, 3)").as_deref(),
            Ok("")
        );
        assert_eq!(
            eval_str("substring('12345', -42, 1 div 0)").as_deref(),
            Ok("12345")
        );
        assert_eq!(eval_str("normalize-space('  a  b ')").as_deref(), Ok("a b"));
        assert_eq!(
            eval_str("translate('bar','abc','ABC')").as_deref(),
            Ok("BAr")
        );
        assert_eq!(
            eval_str("translate('--aaa--','abc-','ABC')").as_deref(),
            Ok("AAA")
        );
        assert_eq!(eval_str("round(-0.4)").as_deref(), Ok("0"));
        assert_eq!(eval_str("round(2.5)").as_deref(), Ok("3"));
        assert_eq!(eval_str("1 div 0").as_deref(), Ok("Infinity"));
        assert_eq!(eval_str("0 div 0").as_deref(), Ok("NaN"));
        assert_eq!(eval_str("5 mod -2").as_deref(), Ok("1"));
        assert_eq!(eval_str("-5 mod 2").as_deref(), Ok("-1"));
        assert_eq!(eval_str("number(' 12.5 ')").as_deref(), Ok("12.5"));
        assert_eq!(eval_str("number('1e3')").as_deref(), Ok("NaN"));
        assert_eq!(eval_str("0.1 + 0.2").as_deref(), Ok("0.30000000000000004"));
        assert_eq!(
            eval_str("1000000 * 1000000 * 1000000 * 1000").as_deref(),
            Ok("1000000000000000000000")
        );
        assert_eq!(eval_str("name(//x:note)"), Err("namespace prefix `x` is not bound (selectors are evaluated without namespace bindings)".into()));
        assert_eq!(
            eval_str("name(//*[local-name()='note'])").as_deref(),
            Ok("x:note")
        );
        assert_eq!(
            eval_str("namespace-uri(//*[local-name()='note'])").as_deref(),
            Ok("urn:x")
        );
        assert_eq!(
            eval_str("boolean(//book[lang('en')])").as_deref(),
            Ok("true")
        );
        assert_eq!(
            eval_str("boolean(//book[lang('fr')])").as_deref(),
            Ok("false")
        );
        assert_eq!(eval_str("count(id('b1'))").as_deref(), Ok("0"));
        assert_eq!(eval_str("--'3'").as_deref(), Ok("3"));
        assert_eq!(eval_str("//book = 'x'").as_deref(), Ok("false"));
        assert_eq!(eval_str("//price = 12").as_deref(), Ok("true"));
        assert_eq!(eval_str("//price != 12").as_deref(), Ok("true"));
        assert_eq!(eval_str("true() = //nothing").as_deref(), Ok("false"));
        assert_eq!(eval_str("'10' < '9'").as_deref(), Ok("false"));
        assert_eq!(eval_str("string(//pi)").as_deref(), Ok(""));
        assert_eq!(
            eval_str("string(//processing-instruction())").as_deref(),
            Ok("data")
        );
    }

    #[test]
    fn syntax_errors() {
        for bad in [
            "",
            "//p[",
            "$x",
            "foo()",
            "x:f()",
            "count()",
            "count(1,2)",
            "//p]",
            "a:b",
            "//@",
            "1 +",
            "child::",
            "bogus::p",
            "'unterminated",
            "!",
            "p:*",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should not parse");
        }
        for good in [
            "/",
            "//p",
            "count(//p)",
            "2*3",
            "a*b",
            "* * *",
            "div div div",
            "/child::a/@b",
            "processing-instruction('x')",
            ".//p[. = 'x'][2]",
            "(/)[1]",
            "-1",
            "--1",
            "//@xml:lang",
            "node()",
            "a|b",
        ] {
            assert!(
                parse(good).is_ok(),
                "{good:?} should parse: {:?}",
                parse(good)
            );
        }
    }

    #[test]
    fn hostile_inputs_end_in_errors() {
        let deep = "(".repeat(100_000) + "1" + &")".repeat(100_000);
        assert!(parse(&deep).is_err());
        let minus = "-".repeat(10_000) + "1";
        assert!(parse(&minus).is_ok());
        let chain = vec!["1"; 5000].join("+");
        assert!(
            parse(&chain).is_err(),
            "a 5000-term chain would recurse 5000 deep"
        );
        let nested = "(".repeat(90) + "1" + &")".repeat(90);
        let doc0 = roxmltree::Document::parse("<a/>").unwrap_or_else(|e| panic!("{e}"));
        let e = parse(&nested).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            evaluate(&e, &doc0, DEFAULT_BUDGET),
            Ok(Value::Num(_))
        ));
        let doc = roxmltree::Document::parse(DOC).unwrap_or_else(|e| panic!("{e}"));
        let slow = parse("//*[//*[//*[//*[//*[//*]]]]]").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(evaluate(&slow, &doc, 10_000).err(), Some(EvalError::Budget));
        assert!(matches!(
            evaluate(
                &parse("count(1)").unwrap_or_else(|e| panic!("{e}")),
                &doc,
                1000
            ),
            Err(EvalError::Type(_))
        ));
    }
}
