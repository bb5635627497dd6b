//! A JSON tree that keeps every number exactly as it was written.
//!
//! # Why not `serde_json::Value`
//!
//! The seed's verifier (profile CHAIN-006, signing input `seed-python`) serializes the claim the
//! way Python's `json.loads` read it: a number written without fraction or exponent is a Python
//! `int` (arbitrary precision, `-0` is `0`), any other number is a `float` (`1.0` stays `1.0`,
//! `1e2` becomes `100.0`). `serde_json::Value` cannot tell `-0` from `-0.0` and turns integers
//! beyond 64 bits into doubles, and the workspace must not enable `arbitrary_precision` (see
//! `shared/CRATES.md`). So the tree is built from the tokens of the strict I-JSON reader of
//! `citeproof-model` ([`citeproof_model::json::Reader`]), which keeps each number's text: one
//! pass, in which every error has the profile's code, offset and pointer (JSON-001, JSON-002).

use citeproof_model::json::{self, Event, JsonError, Mode, Reader, Token, Tree};
use serde_json::{Map, Value};

/// A JSON value; objects keep member order, numbers keep their text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Null,
    Bool(bool),
    /// The number token exactly as written (RFC 8259 `number`).
    Number(String),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    /// The member `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Node> {
        match self {
            Node::Object(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value at an RFC 6901 pointer (`""` is the whole value).
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        let mut node = self;
        for token in citeproof_model::pointer::tokens(pointer)? {
            node = match node {
                Node::Object(_) => node.get(&token)?,
                Node::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }
}

/// Parses `input` as strict I-JSON (JSON-001, JSON-002) into a tree that keeps number texts.
pub fn parse(input: &[u8]) -> Result<Node, JsonError> {
    json::build(&mut reader(input)?)
}

/// [`parse`], also returning the `serde_json::Value` the strict parser makes of the same
/// tokens (in the same pass).
pub fn parse_with_value(input: &[u8]) -> Result<(Value, Node), JsonError> {
    json::build(&mut reader(input)?).map(|Both(value, node)| (value, node))
}

fn reader(input: &[u8]) -> Result<Reader<'_>, JsonError> {
    Reader::new(input, Mode::Strict, json::MAX_DOCUMENT_BYTES)
}

fn name(token: Token<'_>) -> String {
    match token.event {
        Event::Name(name) => name.into_owned(),
        _ => String::new(),
    }
}

impl Tree for Node {
    type Key = String;
    type Members = Vec<(String, Node)>;

    fn key(token: Token<'_>) -> String {
        name(token)
    }

    fn leaf(token: Token<'_>) -> Node {
        match token.event {
            Event::String(s) => Node::String(s.into_owned()),
            Event::Number(_) => Node::Number(token.raw.to_owned()),
            Event::Bool(b) => Node::Bool(b),
            _ => Node::Null,
        }
    }

    fn push_member(members: &mut Self::Members, key: String, value: Node) {
        members.push((key, value));
    }

    fn array(items: Vec<Node>) -> Node {
        Node::Array(items)
    }

    fn object(members: Self::Members) -> Node {
        Node::Object(members)
    }
}

/// The `Value` and the [`Node`] of one value, built together.
struct Both(Value, Node);

impl Tree for Both {
    type Key = String;
    type Members = (Map<String, Value>, Vec<(String, Node)>);

    fn key(token: Token<'_>) -> String {
        name(token)
    }

    fn leaf(token: Token<'_>) -> Both {
        Both(Value::leaf(token.clone()), Node::leaf(token))
    }

    fn push_member(members: &mut Self::Members, key: String, Both(value, node): Both) {
        members.0.insert(key.clone(), value);
        members.1.push((key, node));
    }

    fn array(items: Vec<Both>) -> Both {
        let (values, nodes) = items.into_iter().map(|Both(v, n)| (v, n)).unzip();
        Both(Value::Array(values), Node::Array(nodes))
    }

    fn object((map, members): Self::Members) -> Both {
        Both(Value::Object(map), Node::Object(members))
    }
}

/// RFC 8259 `number`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` (the grammar of
/// the strict reader; magnitude is not checked).
pub fn is_json_number(token: &str) -> bool {
    json::is_number_text(token)
}

/// `true` when the number token has neither a fraction nor an exponent (Python reads it as an
/// `int`, profile CHAIN-006).
pub fn is_integer_token(token: &str) -> bool {
    !token.contains(['.', 'e', 'E'])
}

/// Writes `s` as a JSON string with the escapes that Python's `json.dumps(ensure_ascii=False)`,
/// ECMAScript `JSON.stringify` and RFC 8785 all use for valid Unicode text: `\"`, `\\`, `\b`,
/// `\f`, `\n`, `\r`, `\t`, `\u00xx` (lowercase hex) for the other controls below U+0020, every
/// other character as itself (DEL and U+2028 included).
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// What differs between the compact serializers of the two signing inputs ([`crate::pyjson`],
/// [`crate::esjson`]): how a number token is written, and which members of an object are
/// written, in which order. The rest is [`write_compact`].
pub(crate) trait Compact {
    type Error;
    fn number(&self, token: &str) -> Result<String, Self::Error>;
    fn members<'a>(&'a self, object: &'a Node) -> Vec<(&'a str, &'a Node)>;
}

/// `node` with no whitespace: `null`, `true`, `false`, arrays in order, strings by
/// [`write_string`], numbers and object members as `style` says.
pub(crate) fn write_compact<C: Compact>(
    style: &C,
    node: &Node,
    out: &mut String,
) -> Result<(), C::Error> {
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(token) => out.push_str(&style.number(token)?),
        Node::String(s) => write_string(s, out),
        Node::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(style, item, out)?;
            }
            out.push(']');
        }
        Node::Object(_) => {
            out.push('{');
            for (i, (name, value)) in style.members(node).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(name, out);
                out.push(':');
                write_compact(style, value, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// The tree as JSON text indented by two spaces (the layout of ECMAScript
/// `JSON.stringify(value, null, 2)`), every number written as it was read.
pub fn to_pretty(node: &Node) -> String {
    let mut out = String::new();
    pretty(node, 0, &mut out);
    out
}

fn pretty(node: &Node, indent: usize, out: &mut String) {
    let pad = |n: usize, out: &mut String| out.extend(std::iter::repeat_n(' ', n));
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(t) => out.push_str(t),
        Node::String(s) => write_string(s, out),
        Node::Array(items) if items.is_empty() => out.push_str("[]"),
        Node::Object(members) if members.is_empty() => out.push_str("{}"),
        Node::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                pad(indent + 2, out);
                pretty(item, indent + 2, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            pad(indent, out);
            out.push(']');
        }
        Node::Object(members) => {
            out.push_str("{\n");
            for (i, (k, v)) in members.iter().enumerate() {
                pad(indent + 2, out);
                write_string(k, out);
                out.push_str(": ");
                pretty(v, indent + 2, out);
                out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
            }
            pad(indent, out);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_text() {
        let n = parse(br#"{"a":1.0,"b":-0,"c":1E2,"d":123456789012345678901234567890}"#).unwrap();
        assert_eq!(n.get("a"), Some(&Node::Number("1.0".into())));
        assert_eq!(n.get("b"), Some(&Node::Number("-0".into())));
        assert_eq!(n.get("c"), Some(&Node::Number("1E2".into())));
        assert_eq!(
            n.get("d"),
            Some(&Node::Number("123456789012345678901234567890".into()))
        );
    }

    #[test]
    fn strings_are_unescaped_and_pairs_joined() {
        let n = parse(br#"["a\u00e9\ud83d\ude00\n\/","\u2028"]"#).unwrap();
        assert_eq!(
            n,
            Node::Array(vec![
                Node::String("a\u{e9}\u{1f600}\n/".into()),
                Node::String("\u{2028}".into())
            ])
        );
    }

    #[test]
    fn strict_errors_come_from_the_strict_parser() {
        for (input, code) in [
            (&br#"{"a":1,"a":2}"#[..], "json-duplicate-member"),
            (br#"["\ud800"]"#, "json-lone-surrogate"),
            (br#"[1e400]"#, "json-number-out-of-range"),
            (br#"[01]"#, "json-syntax"),
            (b"\xef\xbb\xbf{}", "json-syntax"),
        ] {
            assert_eq!(parse(input).unwrap_err().code.as_str(), code, "{input:?}");
        }
        let deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
        assert_eq!(
            parse(deep.as_bytes()).unwrap_err().code.as_str(),
            "json-too-large"
        );
        let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert!(parse(ok.as_bytes()).is_ok());
    }

    #[test]
    fn number_grammar() {
        for ok in ["0", "-0", "1.5", "1e5", "1E+5", "-1.0e-07", "10"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in ["", "-", "01", "1.", ".5", "1e", "+1", "1e+", "0x1", "1.5.5"] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    #[test]
    fn pointer_lookup() {
        let n = parse(br#"{"a/b":[{"~c":true}]}"#).unwrap();
        assert_eq!(n.pointer("/a~1b/0/~0c"), Some(&Node::Bool(true)));
        assert_eq!(n.pointer("/a~1b/1"), None);
        assert_eq!(n.pointer(""), Some(&n));
    }

    #[test]
    fn pretty_layout_matches_json_stringify_indent_2() {
        // node -e 'console.log(JSON.stringify({a:[1,{}],b:{},c:"\u0001é",d:[]},null,2))'
        let n = parse(br#"{"a":[1,{}],"b":{},"c":"\u0001\u00e9","d":[]}"#).unwrap();
        assert_eq!(
            to_pretty(&n),
            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": {},\n  \"c\": \"\\u0001\u{e9}\",\n  \"d\": []\n}"
        );
    }
}
