//! The core function library (§4), one function per section of the REC. Argument counts were
//! checked by the parser; an argument that must be a node-set and is not is a run-time
//! [`EvalError::Type`].

use super::ast::{Ast, BooleanFn, Func, NodeSetFn, NumberFn, StringFn};
use super::error::EvalError;
use super::eval::{Ctx, Eval, R, Value};
use super::lexer::is_xml_space;
use super::node::{XNode, lang_matches, qname};
use super::number::{round_xpath, str_to_num};

type Nodes<'a, 'i> = Vec<XNode<'a, 'i>>;

/// The only argument of a one-argument function (the parser checked that it is there).
fn only(args: &[Ast]) -> R<&Ast> {
    args.first()
        .ok_or_else(|| EvalError::Type("a function argument is missing".into()))
}

impl<'a, 'i> Eval<'a, 'i> {
    /// Calls a core function.
    pub(super) fn call(&mut self, f: Func, args: &[Ast], ctx: &Ctx<'a, 'i>) -> R<Value<'a, 'i>> {
        match f {
            Func::NodeSet(f) => self.node_set_function(f, args, ctx),
            Func::String(f) => self.string_function(f, args, ctx),
            Func::Boolean(f) => self.boolean_function(f, args, ctx),
            Func::Number(f) => self.number_function(f, args, ctx),
        }
    }

    fn node_set_arg(&mut self, arg: &Ast, ctx: &Ctx<'a, 'i>, f: &str) -> R<Nodes<'a, 'i>> {
        match self.eval(arg, ctx)? {
            Value::Nodes(n) => Ok(n),
            _ => Err(EvalError::Type(format!(
                "the argument of {f}() must be a node-set"
            ))),
        }
    }

    /// Argument `i` as a string, or the context node's string-value when it is omitted.
    fn str_arg(&mut self, args: &[Ast], i: usize, ctx: &Ctx<'a, 'i>) -> R<String> {
        match args.get(i) {
            Some(a) => {
                let v = self.eval(a, ctx)?;
                self.string_of_value(&v)
            }
            None => self.string_of(&ctx.node),
        }
    }

    /// Argument `i` as a number, or the context node's string-value as a number when omitted.
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

    /// §4.1.
    fn node_set_function(
        &mut self,
        f: NodeSetFn,
        args: &[Ast],
        ctx: &Ctx<'a, 'i>,
    ) -> R<Value<'a, 'i>> {
        Ok(match f {
            NodeSetFn::Last => Value::Num(ctx.size as f64),
            NodeSetFn::Position => Value::Num(ctx.position as f64),
            NodeSetFn::Count => {
                let n = self.node_set_arg(only(args)?, ctx, "count")?;
                Value::Num(n.len() as f64)
            }
            NodeSetFn::Id => {
                // Evaluated for its errors; no attribute is known to be of type ID.
                let _ = self.eval(only(args)?, ctx)?;
                Value::Nodes(Vec::new())
            }
            NodeSetFn::LocalName => {
                let n = self.name_subject(args, ctx, "local-name")?;
                Value::Str(
                    n.and_then(|n| n.expanded_name())
                        .map(|(_, l)| l)
                        .unwrap_or_default(),
                )
            }
            NodeSetFn::NamespaceUri => {
                let n = self.name_subject(args, ctx, "namespace-uri")?;
                Value::Str(
                    n.and_then(|n| n.expanded_name())
                        .and_then(|(ns, _)| ns.map(str::to_owned))
                        .unwrap_or_default(),
                )
            }
            NodeSetFn::Name => {
                let n = self.name_subject(args, ctx, "name")?;
                Value::Str(n.map(|n| qname(&n)).unwrap_or_default())
            }
        })
    }

    /// §4.2.
    fn string_function(
        &mut self,
        f: StringFn,
        args: &[Ast],
        ctx: &Ctx<'a, 'i>,
    ) -> R<Value<'a, 'i>> {
        Ok(match f {
            StringFn::String => Value::Str(self.str_arg(args, 0, ctx)?),
            StringFn::Concat => {
                let mut out = String::new();
                for i in 0..args.len() {
                    let s = self.str_arg(args, i, ctx)?;
                    self.charge(s.len() as u64 / 64)?;
                    out.push_str(&s);
                }
                Value::Str(out)
            }
            StringFn::StartsWith => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                Value::Bool(a.starts_with(&b))
            }
            StringFn::Contains => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                self.charge(a.len() as u64 / 64)?;
                Value::Bool(a.contains(&b))
            }
            StringFn::SubstringBefore => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                Value::Str(a.find(&b).map(|i| a[..i].to_owned()).unwrap_or_default())
            }
            StringFn::SubstringAfter => {
                let (a, b) = (self.str_arg(args, 0, ctx)?, self.str_arg(args, 1, ctx)?);
                Value::Str(
                    a.find(&b)
                        .map(|i| a[i + b.len()..].to_owned())
                        .unwrap_or_default(),
                )
            }
            StringFn::Substring => Value::Str(self.substring(args, ctx)?),
            StringFn::StringLength => {
                let s = self.str_arg(args, 0, ctx)?;
                Value::Num(s.chars().count() as f64)
            }
            StringFn::NormalizeSpace => {
                let s = self.str_arg(args, 0, ctx)?;
                Value::Str(
                    s.split(is_xml_space)
                        .filter(|w| !w.is_empty())
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            }
            StringFn::Translate => Value::Str(self.translate(args, ctx)?),
        })
    }

    /// `substring(s, start, length?)`: the characters at 1-based positions p with
    /// `round(start) <= p < round(start) + round(length)` (NaN compares false).
    fn substring(&mut self, args: &[Ast], ctx: &Ctx<'a, 'i>) -> R<String> {
        let s = self.str_arg(args, 0, ctx)?;
        let start = round_xpath(self.num_arg(args, 1, ctx)?);
        let end = if args.len() == 3 {
            start + round_xpath(self.num_arg(args, 2, ctx)?)
        } else {
            f64::INFINITY
        };
        Ok(s.chars()
            .enumerate()
            .filter(|(i, _)| {
                let p = (*i + 1) as f64;
                p >= start && p < end
            })
            .map(|(_, c)| c)
            .collect())
    }

    /// `translate(s, from, to)`.
    fn translate(&mut self, args: &[Ast], ctx: &Ctx<'a, 'i>) -> R<String> {
        let s = self.str_arg(args, 0, ctx)?;
        let from: Vec<char> = self.str_arg(args, 1, ctx)?.chars().collect();
        let to: Vec<char> = self.str_arg(args, 2, ctx)?.chars().collect();
        self.charge((s.len() as u64).saturating_mul(from.len() as u64) / 64)?;
        Ok(s.chars()
            .filter_map(|c| match from.iter().position(|&f| f == c) {
                Some(i) => to.get(i).copied(),
                None => Some(c),
            })
            .collect())
    }

    /// §4.3.
    fn boolean_function(
        &mut self,
        f: BooleanFn,
        args: &[Ast],
        ctx: &Ctx<'a, 'i>,
    ) -> R<Value<'a, 'i>> {
        Ok(match f {
            BooleanFn::Boolean => {
                let v = self.eval(only(args)?, ctx)?;
                Value::Bool(Self::to_bool(&v))
            }
            BooleanFn::Not => {
                let v = self.eval(only(args)?, ctx)?;
                Value::Bool(!Self::to_bool(&v))
            }
            BooleanFn::True => Value::Bool(true),
            BooleanFn::False => Value::Bool(false),
            BooleanFn::Lang => {
                let want = self.str_arg(args, 0, ctx)?;
                Value::Bool(lang_matches(&ctx.node, &want))
            }
        })
    }

    /// §4.4.
    fn number_function(
        &mut self,
        f: NumberFn,
        args: &[Ast],
        ctx: &Ctx<'a, 'i>,
    ) -> R<Value<'a, 'i>> {
        Ok(match f {
            NumberFn::Number => Value::Num(self.num_arg(args, 0, ctx)?),
            NumberFn::Sum => {
                let nodes = self.node_set_arg(only(args)?, ctx, "sum")?;
                let mut total = 0.0;
                for n in &nodes {
                    total += str_to_num(&self.string_of(n)?);
                }
                Value::Num(total)
            }
            NumberFn::Floor => Value::Num(self.num_arg(args, 0, ctx)?.floor()),
            NumberFn::Ceiling => Value::Num(self.num_arg(args, 0, ctx)?.ceil()),
            NumberFn::Round => Value::Num(round_xpath(self.num_arg(args, 0, ctx)?)),
        })
    }
}
