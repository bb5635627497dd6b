//! The grammar of XPath 1.0 (§2, §3) as a recursive descent over tokens, under the profile's
//! restrictions: no variables, no namespace prefixes other than `xml`, only core functions with
//! the right number of arguments. Every level of nesting counts toward [`MAX_XPATH_DEPTH`], so neither
//! parsing nor evaluation can recurse deeper.

use super::ast::{Arith, Ast, Axis, Cmp, Expr, Func, NodeTest, Step};
use super::error::SyntaxError;
use super::lexer::{Tok, tokenize};
use super::{MAX_XPATH_BYTES, MAX_XPATH_DEPTH, XML_NS};

/// Builds the node of one binary operator from its operands.
type BinaryNode = fn(Box<Ast>, Box<Ast>) -> Ast;

type R<T> = Result<T, SyntaxError>;

/// Parses an XPath 1.0 expression under the profile's restrictions (no variables, no namespace
/// prefixes other than `xml`, only core functions with the right number of arguments).
pub fn parse(text: &str) -> Result<Expr, SyntaxError> {
    if text.len() > MAX_XPATH_BYTES {
        return Err(SyntaxError::TooLong(text.len()));
    }
    let toks = tokenize(text)?;
    if toks.is_empty() {
        return Err(SyntaxError::Empty);
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let ast = p.expr()?;
    if let Some(extra) = p.peek() {
        return Err(SyntaxError::TrailingToken(format!("{extra:?}")));
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

    fn expect(&mut self, t: &Tok, what: &'static str) -> R<()> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(SyntaxError::Expected {
                what,
                found: format!("{:?}", self.peek()),
            })
        }
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_XPATH_DEPTH {
            return Err(SyntaxError::TooDeep);
        }
        Ok(())
    }

    fn expr(&mut self) -> R<Ast> {
        self.enter()?;
        let r = self.or_expr();
        self.depth -= 1;
        r
    }

    /// One left-associative binary level of the XPath 1.0 grammar (§3.4, §3.5):
    /// `operand (op operand)*`. Each operator counts toward the nesting bound, so a long chain
    /// like `1+1+...+1` builds a deep tree only up to `MAX_XPATH_DEPTH`.
    fn binary_level(
        &mut self,
        operand: fn(&mut Self) -> R<Ast>,
        operator: fn(&Tok) -> Option<BinaryNode>,
    ) -> R<Ast> {
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

    fn or_expr(&mut self) -> R<Ast> {
        self.binary_level(Self::and_expr, |t| match t {
            Tok::Or => Some(Ast::Or),
            _ => None,
        })
    }

    fn and_expr(&mut self) -> R<Ast> {
        self.binary_level(Self::equality, |t| match t {
            Tok::And => Some(Ast::And),
            _ => None,
        })
    }

    fn equality(&mut self) -> R<Ast> {
        self.binary_level(Self::relational, |t| match t {
            Tok::Cmp(Cmp::Eq) => Some(|l, r| Ast::Compare(Cmp::Eq, l, r)),
            Tok::Cmp(Cmp::Ne) => Some(|l, r| Ast::Compare(Cmp::Ne, l, r)),
            _ => None,
        })
    }

    fn relational(&mut self) -> R<Ast> {
        self.binary_level(Self::additive, |t| match t {
            Tok::Cmp(Cmp::Lt) => Some(|l, r| Ast::Compare(Cmp::Lt, l, r)),
            Tok::Cmp(Cmp::Le) => Some(|l, r| Ast::Compare(Cmp::Le, l, r)),
            Tok::Cmp(Cmp::Gt) => Some(|l, r| Ast::Compare(Cmp::Gt, l, r)),
            Tok::Cmp(Cmp::Ge) => Some(|l, r| Ast::Compare(Cmp::Ge, l, r)),
            _ => None,
        })
    }

    fn additive(&mut self) -> R<Ast> {
        self.binary_level(Self::multiplicative, |t| match t {
            Tok::Plus => Some(|l, r| Ast::Arith(Arith::Add, l, r)),
            Tok::Minus => Some(|l, r| Ast::Arith(Arith::Sub, l, r)),
            _ => None,
        })
    }

    fn multiplicative(&mut self) -> R<Ast> {
        self.binary_level(Self::unary, |t| match t {
            Tok::Multiply => Some(|l, r| Ast::Arith(Arith::Mul, l, r)),
            Tok::Div => Some(|l, r| Ast::Arith(Arith::Div, l, r)),
            Tok::Mod => Some(|l, r| Ast::Arith(Arith::Mod, l, r)),
            _ => None,
        })
    }

    fn unary(&mut self) -> R<Ast> {
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

    fn union(&mut self) -> R<Ast> {
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

    fn path_expr(&mut self) -> R<Ast> {
        match self.peek() {
            Some(Tok::LParen | Tok::Literal(_) | Tok::Number(_) | Tok::Function(..)) => {
                let primary = self.primary()?;
                let predicates = self.predicates()?;
                let mut steps = Vec::new();
                self.more_steps(&mut steps)?;
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

    fn location_path(&mut self) -> R<Ast> {
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
        self.more_steps(&mut steps)?;
        Ok(Ast::Path { absolute, steps })
    }

    /// The steps after a first one: each `/step`, and each `//step` as
    /// `/descendant-or-self::node()/step`.
    fn more_steps(&mut self, steps: &mut Vec<Step>) -> R<()> {
        loop {
            if self.eat(&Tok::Slash) {
                steps.push(self.step()?);
            } else if self.eat(&Tok::DoubleSlash) {
                steps.push(descendant_or_self());
                steps.push(self.step()?);
            } else {
                return Ok(());
            }
        }
    }

    fn step(&mut self) -> R<Step> {
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
                Axis::from_name(&name).ok_or(SyntaxError::UnknownAxis(name))?
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
            other => return Err(SyntaxError::ExpectedNodeTest(format!("{other:?}"))),
        };
        let predicates = self.predicates()?;
        Ok(Step {
            axis,
            test,
            predicates,
        })
    }

    fn predicates(&mut self) -> R<Vec<Ast>> {
        let mut out = Vec::new();
        while self.eat(&Tok::LBracket) {
            out.push(self.expr()?);
            self.expect(&Tok::RBracket, "`]`")?;
        }
        Ok(out)
    }

    fn primary(&mut self) -> R<Ast> {
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
                self.call(prefix, name)
            }
            other => Err(SyntaxError::ExpectedExpression(format!("{other:?}"))),
        }
    }

    /// A function call, after its name: a core function with the right number of arguments.
    fn call(&mut self, prefix: Option<String>, name: String) -> R<Ast> {
        if let Some(p) = prefix {
            return Err(SyntaxError::UnknownFunction(format!("{p}:{name}")));
        }
        let Some((func, min, max)) = Func::lookup(&name) else {
            return Err(SyntaxError::UnknownFunction(name));
        };
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
            let takes = if min == max {
                min.to_string()
            } else if max == usize::MAX {
                format!("at least {min}")
            } else {
                format!("{min} to {max}")
            };
            return Err(SyntaxError::Arity {
                name,
                takes,
                got: args.len(),
            });
        }
        Ok(Ast::Call(func, args))
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
fn resolve_prefix(prefix: &str) -> R<String> {
    if prefix == "xml" {
        Ok(XML_NS.to_owned())
    } else {
        Err(SyntaxError::UnboundPrefix(prefix.to_owned()))
    }
}
