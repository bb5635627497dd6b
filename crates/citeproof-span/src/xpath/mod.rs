//! XPath 1.0 (W3C REC 1999-11-16), complete, over a `roxmltree` document: the `xpath` selector of
//! AEF-SEL-002 / AEF-L2-007.
//!
//! Why hand-written rather than a crate: the profile needs exactly XPath 1.0 with *no* namespace
//! bindings (only the predeclared `xml` prefix), no variables and the core function library, and
//! the verifier must never crash on hostile selectors or documents. The candidates fell short:
//! `sxd-xpath` is unmaintained since 2019 and needs `sxd-document`, whose parser refuses DTD
//! internal subsets; `xpath-eval` 0.2 (2026) is young, leaves `id()` out and recurses without a
//! bound (a selector of 100 000 nested parentheses would overflow the stack and abort). Here the
//! parser bounds nesting ([`MAX_XPATH_DEPTH`]), unary minus is iterative, and evaluation runs under a
//! work budget, so every input ends in a value or an error.
//!
//! Data model (§5) over roxmltree: the root, elements, text (CDATA merged, as roxmltree does),
//! comments and processing instructions are roxmltree nodes; attribute and namespace nodes are
//! (element, index) pairs. Document order is roxmltree's node order (nodes are created in
//! document order), an element's namespace nodes and then its attribute nodes coming right after
//! the element. `id()` returns an empty node-set: without reading attribute types from a DTD no
//! attribute is of type ID.
//!
//! | file | part of the REC |
//! |---|---|
//! | `lexer.rs` | §3.7 lexical structure |
//! | `ast.rs`, `parser.rs` | §2 location paths, §3 expressions (the grammar, with the profile's restrictions) |
//! | `node.rs` | §5 data model: nodes, string-values, expanded names, node tests |
//! | `eval.rs` | §2.4 predicates, §3.3 node-sets, §3.4 comparisons, evaluation under a budget |
//! | `axes.rs` | §2.2 axes |
//! | `functions.rs` | §4 core function library |
//! | `number.rs` | §4.2 `string()` of a number, §4.4 `number()` of a string, `round()` |

mod ast;
mod axes;
mod error;
mod eval;
mod functions;
mod lexer;
mod node;
mod number;
mod parser;

#[cfg(test)]
mod crosscheck;
#[cfg(test)]
mod tests;

pub use ast::Expr;
pub use error::{EvalError, SyntaxError};
pub use eval::{Value, evaluate};
pub use node::{XNode, string_value};
pub use number::num_to_str;
pub use parser::parse;

use crate::limits::{MAX_XPATH_BYTES, MAX_XPATH_DEPTH};

/// The namespace the predeclared `xml` prefix is bound to.
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
