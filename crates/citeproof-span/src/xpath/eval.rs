//! Evaluation (§2.4 predicates, §3 expressions) under a work budget: every node visited, value
//! compared and character copied is charged, so any expression over any document ends in a value
//! or [`EvalError::Budget`].

use std::collections::HashSet;

use roxmltree::Document;

use super::ast::{Arith, Ast, Axis, Cmp, Expr, Step};
use super::error::EvalError;
use super::node::{XNode, charge, matches_test, sort_dedup, string_value_budget, subtree_end};
use super::number::{cmp_bool, cmp_num, cmp_str, num_to_str, str_to_num};

/// An XPath value.
#[derive(Debug, Clone)]
pub enum Value<'a, 'i> {
    /// A node-set, sorted in document order, without duplicates.
    Nodes(Vec<XNode<'a, 'i>>),
    /// A boolean.
    Bool(bool),
    /// A number (IEEE 754 double).
    Num(f64),
    /// A string.
    Str(String),
}

pub(super) type R<T> = Result<T, EvalError>;

/// The context of an evaluation (§1): node, proximity position and size.
pub(super) struct Ctx<'a, 'i> {
    pub(super) node: XNode<'a, 'i>,
    pub(super) position: usize,
    pub(super) size: usize,
}

/// An evaluation in progress: the document and what is left of the budget.
pub(super) struct Eval<'a, 'i> {
    pub(super) doc: &'a Document<'i>,
    pub(super) budget: u64,
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

impl<'a, 'i> Eval<'a, 'i> {
    pub(super) fn charge(&mut self, n: u64) -> R<()> {
        charge(&mut self.budget, n)
    }

    pub(super) fn string_of(&mut self, node: &XNode<'a, 'i>) -> R<String> {
        string_value_budget(node, &mut self.budget)
    }

    pub(super) fn string_of_value(&mut self, v: &Value<'a, 'i>) -> R<String> {
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

    pub(super) fn number_of_value(&mut self, v: &Value<'a, 'i>) -> R<f64> {
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

    pub(super) fn to_bool(v: &Value<'a, 'i>) -> bool {
        match v {
            Value::Nodes(ns) => !ns.is_empty(),
            Value::Bool(b) => *b,
            Value::Num(n) => *n != 0.0 && !n.is_nan(),
            Value::Str(s) => !s.is_empty(),
        }
    }

    pub(super) fn eval(&mut self, ast: &Ast, ctx: &Ctx<'a, 'i>) -> R<Value<'a, 'i>> {
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
    pub(super) fn filter(
        &mut self,
        nodes: Vec<XNode<'a, 'i>>,
        pred: &Ast,
    ) -> R<Vec<XNode<'a, 'i>>> {
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
}
