//! Why an expression does not parse, and why an evaluation stopped. The texts are the messages of
//! the `aef-selector-invalid` incidents they become.

use super::{MAX_XPATH_BYTES, MAX_XPATH_DEPTH};

/// Why an expression is not an XPath 1.0 expression the profile accepts (AEF-SEL-002).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SyntaxError {
    /// Longer than [`MAX_XPATH_BYTES`].
    #[error("expression is {0} bytes; the limit is {MAX_XPATH_BYTES}")]
    TooLong(usize),
    /// Nothing but whitespace.
    #[error("empty expression")]
    Empty,
    /// Nested deeper than [`MAX_XPATH_DEPTH`].
    #[error("expression nests deeper than {MAX_XPATH_DEPTH}")]
    TooDeep,
    /// A character that cannot stand alone (`!`, `:`).
    #[error("unexpected `{ch}` at character {at}")]
    LoneCharacter {
        /// The character.
        ch: char,
        /// Its position, in characters.
        at: usize,
    },
    /// A character no token starts with.
    #[error("unexpected character {ch:?} at {at}")]
    UnexpectedCharacter {
        /// The character.
        ch: char,
        /// Its position, in characters.
        at: usize,
    },
    /// A string literal without its closing quote.
    #[error("unterminated string literal")]
    UnterminatedLiteral,
    /// `$name`: the profile evaluates without variable bindings.
    #[error("variable references are not allowed (no variable bindings)")]
    Variable,
    /// A number token that does not convert.
    #[error("bad number `{text}`: {source}")]
    BadNumber {
        /// The token.
        text: String,
        /// Why it does not convert.
        source: std::num::ParseFloatError,
    },
    /// A name where an operator must stand (§3.7).
    #[error("expected an operator, found `{0}`")]
    ExpectedOperator(String),
    /// `prefix:` not followed by a name or `*`.
    #[error("bad name after `{0}:`")]
    BadName(String),
    /// A token left over after a complete expression.
    #[error("unexpected token {0}")]
    TrailingToken(String),
    /// A token other than the one the grammar requires here.
    #[error("expected {what}, found {found}")]
    Expected {
        /// What the grammar requires.
        what: &'static str,
        /// The token found (or `None`).
        found: String,
    },
    /// A name before `::` that is not an axis.
    #[error("unknown axis `{0}`")]
    UnknownAxis(String),
    /// A step without a node test.
    #[error("expected a node test, found {0}")]
    ExpectedNodeTest(String),
    /// A primary expression was expected.
    #[error("expected an expression, found {0}")]
    ExpectedExpression(String),
    /// A function outside the core library (prefixed names included).
    #[error("function `{0}` is not in the XPath 1.0 core function library")]
    UnknownFunction(String),
    /// A core function called with the wrong number of arguments.
    #[error("function `{name}` takes {takes} argument(s), not {got}")]
    Arity {
        /// The function.
        name: String,
        /// How many it takes (`1`, `0 to 1`, `at least 2`).
        takes: String,
        /// How many it was given.
        got: usize,
    },
    /// A namespace prefix other than `xml`.
    #[error(
        "namespace prefix `{0}` is not bound (selectors are evaluated without namespace bindings)"
    )]
    UnboundPrefix(String),
}

/// Why an evaluation stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A run-time type error (a node-set was required).
    #[error("{0}")]
    Type(String),
    /// The work budget was exhausted.
    #[error("evaluation exceeds the verifier's work limit")]
    Budget,
}
