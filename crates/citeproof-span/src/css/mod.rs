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
//!
//! `lexer.rs` is the §10.2 lexical scanner, `parser.rs` the §10.1 grammar with the profile's
//! restrictions.

mod lexer;
mod parser;
#[cfg(test)]
mod tests;

/// Why a CSS selector value is refused (AEF-SEL-002). The texts are the messages of the
/// `aef-selector-invalid` incidents they become.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SyntaxError {
    /// `/*` without `*/`.
    #[error("unterminated comment")]
    UnterminatedComment,
    /// A string without its closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// A raw line break inside a string.
    #[error("newline in a string")]
    NewlineInString,
    /// A backslash that starts no escape inside a string.
    #[error("bad escape in a string")]
    BadEscape,
    /// A token where a comma, a combinator or the end must stand.
    #[error("unexpected {0}")]
    Unexpected(String),
    /// A compound selector with no simple selector (`found` is a token, or `the end`).
    #[error("expected a simple selector, found {0}")]
    ExpectedSimpleSelector(String),
    /// A namespace prefix of a type selector: none is declared.
    #[error("namespace prefix `{0}` is not declared (only `*|` and `|` can be used)")]
    UndeclaredPrefix(String),
    /// A namespace prefix of an attribute selector: none is declared.
    #[error("namespace prefix `{0}` is not declared")]
    UndeclaredAttributePrefix(String),
    /// `.` without a class name.
    #[error("`.` must be followed by a class name")]
    ClassName,
    /// `[` without an attribute name.
    #[error("an attribute selector needs an attribute name")]
    AttributeName,
    /// An attribute value that is neither an identifier nor a string (flags included).
    #[error("an attribute value must be an identifier or a string")]
    AttributeValue,
    /// `[` without `]`.
    #[error("unclosed attribute selector")]
    UnclosedAttribute,
    /// `::name`.
    #[error("pseudo-elements (`::`) are not allowed")]
    DoubleColonPseudoElement,
    /// A CSS2 pseudo-element written with one colon (`:before`).
    #[error("`:{0}` is a pseudo-element, which is not allowed")]
    PseudoElement(String),
    /// A pseudo-class that depends on more than the document (`:hover`, `:lang()`, ...).
    #[error(
        "pseudo-class `:{0}` is not allowed (only structural pseudo-classes, which depend on the document alone)"
    )]
    PseudoClass(String),
    /// A functional pseudo-class other than the `nth-` ones.
    #[error("functional pseudo-class `:{0}()` is not allowed")]
    FunctionalPseudoClass(String),
    /// An `nth-` argument that is not `an+b`.
    #[error("`{0}` is not an `an+b` expression")]
    NotAnPlusB(String),
    /// `:` followed by neither a name nor a function.
    #[error("`:` must be followed by a pseudo-class name")]
    PseudoClassName,
    /// A pseudo-class argument with tokens an `an+b` cannot have.
    #[error("malformed pseudo-class argument")]
    MalformedArgument,
    /// `()`.
    #[error("empty pseudo-class argument")]
    EmptyArgument,
    /// `:not(:not(...))`.
    #[error("`:not()` cannot be nested")]
    NestedNegation,
    /// `:not()` without a simple selector.
    #[error("`:not()` needs one simple selector")]
    NegationArgument,
    /// `:not()` with more than one simple selector.
    #[error("`:not()` takes exactly one simple selector")]
    NegationArguments,
    /// Level 3 grammar, but the matching engine refuses it.
    #[error("the selector is not supported by the matching engine: {0}")]
    Engine(String),
}

/// Checks AEF-SEL-002 for a CSS selector value, then that the matching engine understands it.
pub fn check(selector: &str) -> Result<scraper::Selector, SyntaxError> {
    let tokens = lexer::tokenize(selector)?;
    parser::check_group(tokens)?;
    scraper::Selector::parse(selector).map_err(|e| SyntaxError::Engine(e.to_string()))
}
