//! A JSON tree that keeps every number exactly as it was written.
//!
//! # Why not `serde_json::Value`
//!
//! The seed's verifier (profile CHAIN-006, signing input `seed-python`) serializes the claim the
//! way Python's `json.loads` read it: a number written without fraction or exponent is a Python
//! `int` (arbitrary precision, `-0` is `0`), any other number is a `float` (`1.0` stays `1.0`,
//! `1e2` becomes `100.0`). `serde_json::Value` cannot tell `-0` from `-0.0` and turns integers
//! beyond 64 bits into doubles, and the workspace must not enable `arbitrary_precision` (see
//! `shared/CRATES.md`). So the claim is read a second time, here, keeping each number's text.
//!
//! [`parse`] first runs the strict I-JSON parser of `citeproof-model` (so every error has the
//! profile's code, offset and pointer, JSON-001/JSON-002) and only then builds this tree; the
//! tree builder still never panics and bounds its depth, so it is safe on any input.

use citeproof_model::IncidentCode;
use citeproof_model::json::{JsonError, MAX_DEPTH, parse_strict};

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
        if pointer.is_empty() {
            return Some(self);
        }
        let mut node = self;
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
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
    parse_with_value(input).map(|(_, node)| node)
}

/// [`parse`], also returning the `serde_json::Value` the strict parser built.
pub fn parse_with_value(input: &[u8]) -> Result<(serde_json::Value, Node), JsonError> {
    let value = parse_strict(input)?;
    // parse_strict accepted the bytes, so they are UTF-8 without a BOM.
    let text = std::str::from_utf8(input).map_err(|e| internal(e.valid_up_to()))?;
    let mut reader = Reader {
        bytes: text.as_bytes(),
        text,
        pos: 0,
    };
    reader.skip_ws();
    let node = reader.value(1)?;
    reader.skip_ws();
    if reader.pos != reader.bytes.len() {
        return Err(internal(reader.pos));
    }
    Ok((value, node))
}

/// An inconsistency between the strict parser and this reader (never expected).
fn internal(offset: usize) -> JsonError {
    JsonError {
        code: IncidentCode::JsonSyntax,
        message: format!("unexpected input at byte {offset}"),
        offset: Some(offset as u64),
        pointer: None,
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        while matches!(self.bytes.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Result<(), JsonError> {
        if self.bytes.get(self.pos) == Some(&b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(internal(self.pos))
        }
    }

    fn literal(&mut self, word: &str, node: Node) -> Result<Node, JsonError> {
        if self
            .text
            .get(self.pos..)
            .is_some_and(|t| t.starts_with(word))
        {
            self.pos += word.len();
            Ok(node)
        } else {
            Err(internal(self.pos))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, JsonError> {
        match self.bytes.get(self.pos) {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Node::String),
            Some(b't') => self.literal("true", Node::Bool(true)),
            Some(b'f') => self.literal("false", Node::Bool(false)),
            Some(b'n') => self.literal("null", Node::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(internal(self.pos)),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Node, JsonError> {
        if depth > MAX_DEPTH {
            return Err(internal(self.pos));
        }
        self.eat(b'{')?;
        let mut members = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Node::Object(members));
        }
        loop {
            self.skip_ws();
            let name = self.string()?;
            self.skip_ws();
            self.eat(b':')?;
            self.skip_ws();
            let value = self.value(depth + 1)?;
            members.push((name, value));
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Node::Object(members));
                }
                _ => return Err(internal(self.pos)),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Node, JsonError> {
        if depth > MAX_DEPTH {
            return Err(internal(self.pos));
        }
        self.eat(b'[')?;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Node::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Node::Array(items));
                }
                _ => return Err(internal(self.pos)),
            }
        }
    }

    fn number(&mut self) -> Result<Node, JsonError> {
        let start = self.pos;
        while matches!(
            self.bytes.get(self.pos),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.pos += 1;
        }
        let token = self
            .text
            .get(start..self.pos)
            .ok_or_else(|| internal(start))?;
        if !is_json_number(token) {
            return Err(internal(start));
        }
        Ok(Node::Number(token.to_owned()))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| internal(self.pos))?;
        let v = u32::from_str_radix(digits, 16).map_err(|_| internal(self.pos))?;
        self.pos += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.eat(b'"')?;
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while !matches!(self.bytes.get(self.pos), Some(b'"' | b'\\') | None) {
                self.pos += 1;
            }
            out.push_str(
                self.text
                    .get(run_start..self.pos)
                    .ok_or_else(|| internal(run_start))?,
            );
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escape = *self.bytes.get(self.pos).ok_or_else(|| internal(self.pos))?;
                    self.pos += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(internal(self.pos - 1)),
                    };
                    out.push(c);
                }
                _ => return Err(internal(self.pos)),
            }
        }
    }

    /// After `\u`: one escape, or a surrogate pair of two.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let at = self.pos;
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if self.text.get(self.pos..self.pos + 2) != Some("\\u") {
                return Err(internal(at));
            }
            self.pos += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(internal(at));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| internal(at))
    }
}

/// RFC 8259 `number`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
pub fn is_json_number(token: &str) -> bool {
    let b = token.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
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
