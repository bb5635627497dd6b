//! JSON texts rewritten without changing their value: object members permuted, insignificant
//! whitespace changed, every string and number token kept byte for byte (so escapes and number
//! spellings, which canonicalization and strict parsing care about, survive).
//!
//! Only texts the strict I-JSON parser accepts are rewritten: then no member name repeats (a
//! permutation cannot move which duplicate comes first) and the tokens are well formed. The
//! tree is built from the tokens of the strict reader of `citeproof-model`
//! ([`citeproof_model::json::Reader`]), which gives each token's text as written and the members
//! in their order (serde_json's `RawValue` keeps a whole subtree, `preserve_order` would change
//! every crate of the workspace).

use citeproof_conformance::variants::VariantRng;
use citeproof_model::json::{self, Mode, Reader, Token, Tree};

/// A JSON value as raw tokens.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A string, number or literal, exactly as written.
    Scalar(String),
    Array(Vec<Node>),
    /// Members with their names exactly as written (quotes included).
    Object(Vec<(String, Node)>),
}

/// Parses `text` when it is strict I-JSON; `None` otherwise.
pub fn parse(text: &str) -> Option<Node> {
    let mut reader = Reader::new(text.as_bytes(), Mode::Strict, json::MAX_DOCUMENT_BYTES).ok()?;
    json::build(&mut reader).ok()
}

impl Tree for Node {
    type Key = String;
    type Members = Vec<(String, Node)>;

    fn key(name: Token<'_>) -> String {
        name.raw.to_owned()
    }

    fn leaf(token: Token<'_>) -> Node {
        Node::Scalar(token.raw.to_owned())
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

/// How [`emit`] writes a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// No whitespace at all.
    Compact,
    /// Random insignificant whitespace between tokens (space, tab, LF, CR LF).
    Spaced,
    /// Random spaces and tabs only, so the text stays on one line (a JSON-lines record).
    Inline,
}

/// Writes `node`; members in their current order. [`Style::Spaced`] always puts some
/// whitespace before the value (JSON allows it around the top-level value), so even a scalar
/// is written differently.
pub fn emit(node: &Node, style: Style, rng: &mut VariantRng) -> String {
    let mut out = String::new();
    match style {
        Style::Compact => {}
        Style::Spaced => {
            const LEAD: [&str; 4] = [" ", "\n", "\t", "\r\n"];
            out.push_str(LEAD[rng.below(LEAD.len())]);
        }
        Style::Inline => {
            const LEAD: [&str; 3] = [" ", "\t", "  "];
            out.push_str(LEAD[rng.below(LEAD.len())]);
        }
    }
    write(node, style, rng, &mut out);
    space(style, rng, &mut out);
    out
}

fn space(style: Style, rng: &mut VariantRng, out: &mut String) {
    match style {
        Style::Compact => {}
        Style::Spaced => {
            const WS: [&str; 6] = ["", "", " ", "  ", "\n", "\r\n\t"];
            out.push_str(WS[rng.below(WS.len())]);
        }
        Style::Inline => {
            const WS: [&str; 4] = ["", "", " ", "\t"];
            out.push_str(WS[rng.below(WS.len())]);
        }
    }
}

fn write(node: &Node, style: Style, rng: &mut VariantRng, out: &mut String) {
    match node {
        Node::Scalar(s) => out.push_str(s),
        Node::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(style, rng, out);
                write(item, style, rng, out);
                space(style, rng, out);
            }
            out.push(']');
        }
        Node::Object(members) => {
            out.push('{');
            for (i, (name, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(style, rng, out);
                out.push_str(name);
                space(style, rng, out);
                out.push(':');
                space(style, rng, out);
                write(value, style, rng, out);
                space(style, rng, out);
            }
            out.push('}');
        }
    }
}

impl Node {
    /// The member whose name decodes to `name` (names are raw tokens), mutably.
    pub fn member_mut(&mut self, name: &str) -> Option<&mut Node> {
        let Node::Object(members) = self else {
            return None;
        };
        members
            .iter_mut()
            .find(|(n, _)| is_named(n, name))
            .map(|(_, v)| v)
    }

    /// The value at `path` (member names, decoded).
    pub fn at_mut(&mut self, path: &[&str]) -> Option<&mut Node> {
        let mut node = self;
        for name in path {
            node = node.member_mut(name)?;
        }
        Some(node)
    }

    /// The decoded string of a string token.
    pub fn as_string(&self) -> Option<String> {
        match self {
            Node::Scalar(raw) if raw.starts_with('"') => decode(raw),
            _ => None,
        }
    }

    /// A string token for `s`.
    pub fn string(s: &str) -> Node {
        Node::Scalar(serde_json::Value::String(s.to_owned()).to_string())
    }
}

/// The value of a string token.
fn decode(raw: &str) -> Option<String> {
    serde_json::from_str(raw).ok()
}

/// Whether the raw name token `raw` decodes to `name`.
fn is_named(raw: &str, name: &str) -> bool {
    decode(raw).as_deref() == Some(name)
}

/// Replaces the string value of every member named in `names`, at any depth, by `map` of it
/// (`None`: kept). Returns how many tokens changed.
pub fn map_strings(
    node: &mut Node,
    names: &[&str],
    map: &mut dyn FnMut(&str, &str) -> Option<String>,
) -> usize {
    let mut changed = 0;
    match node {
        Node::Scalar(_) => {}
        Node::Array(items) => {
            for item in items {
                changed += map_strings(item, names, map);
            }
        }
        Node::Object(members) => {
            for (name, value) in members.iter_mut() {
                let decoded = decode(name);
                let hit = decoded.as_deref().filter(|n| names.contains(n));
                match (hit, value.as_string()) {
                    (Some(n), Some(s)) => {
                        if let Some(new) = map(n, &s).filter(|new| *new != s) {
                            *value = Node::string(&new);
                            changed += 1;
                        }
                    }
                    _ => changed += map_strings(value, names, map),
                }
            }
        }
    }
    changed
}

/// A text that is not rewritten token by token (it is not strict I-JSON), with whitespace
/// added before and after it: JSON whitespace around the top-level value is insignificant, so
/// any parser sees the same tokens and reports the same fault. `None` for a text that starts
/// with a byte order mark (only recognized at the start: moving it changes the fault) or is
/// over 1 MiB (near the size limits). With [`Style::Inline`] only spaces and tabs are added and
/// an empty text is kept (an empty JSON-lines line is a framing fault of its own).
pub fn pad(text: &str, style: Style, rng: &mut VariantRng) -> Option<String> {
    if text.starts_with('\u{feff}') || text.len() > 1 << 20 {
        return None;
    }
    const SPACED: [&str; 5] = [" ", "\n", "\t", "\r\n", "  "];
    const INLINE: [&str; 3] = [" ", "\t", "  "];
    let set: &[&str] = match style {
        Style::Compact => return None,
        Style::Spaced => &SPACED,
        Style::Inline if text.is_empty() => return None,
        Style::Inline => &INLINE,
    };
    let lead = set[rng.below(set.len())];
    let trail = if rng.chance(0.5) {
        set[rng.below(set.len())]
    } else {
        ""
    };
    Some(format!("{lead}{text}{trail}"))
}

/// Permutes the members of every object of the tree.
pub fn shuffle(node: &mut Node, rng: &mut VariantRng) {
    match node {
        Node::Scalar(_) => {}
        Node::Array(items) => items.iter_mut().for_each(|i| shuffle(i, rng)),
        Node::Object(members) => {
            rng.shuffle(members);
            members.iter_mut().for_each(|(_, v)| shuffle(v, rng));
        }
    }
}

/// The UTF-16 code units of a member name token (RFC 8785 §3.2.3 sorts names by them).
fn utf16_key(name: &str) -> Option<Vec<u16>> {
    let decoded: String = serde_json::from_str(name).ok()?;
    Some(decoded.encode_utf16().collect())
}

/// Inserts the member `name: value` (tokens as written) into a top-level object at the place
/// RFC 8785 sorting gives it. `None` when the node is not an object, a name cannot be decoded
/// or the name is already there.
pub fn insert_sorted(node: &mut Node, name: &str, value: &str) -> Option<()> {
    let Node::Object(members) = node else {
        return None;
    };
    let key = utf16_key(name)?;
    let mut at = members.len();
    for (i, (n, _)) in members.iter().enumerate() {
        let other = utf16_key(n)?;
        if other == key {
            return None;
        }
        if other > key {
            at = i;
            break;
        }
    }
    members.insert(at, (name.to_owned(), Node::Scalar(value.to_owned())));
    Some(())
}

/// Inserts the member at a random place of a top-level object.
pub fn insert_anywhere(
    node: &mut Node,
    name: &str,
    value: &str,
    rng: &mut VariantRng,
) -> Option<()> {
    let Node::Object(members) = node else {
        return None;
    };
    let at = rng.below(members.len() + 1);
    members.insert(at, (name.to_owned(), Node::Scalar(value.to_owned())));
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewriting_keeps_the_value_and_the_tokens() {
        let text = r#"{"b": [1.50, -0, 1E2, "\u00e9\n"], "a": {"z": null, "y": true}, "\u0063": 12345678901234567890}"#;
        let mut rng = VariantRng::new(1);
        let tree = parse(text).unwrap();
        let original: serde_json::Value = serde_json::from_str(text).unwrap();
        for _ in 0..20 {
            let mut t = tree.clone();
            shuffle(&mut t, &mut rng);
            let out = emit(&t, Style::Spaced, &mut rng);
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&out).unwrap(),
                original
            );
            assert!(out.contains("1.50") && out.contains("1E2") && out.contains(r#""\u00e9\n""#));
        }
        assert_eq!(emit(&tree, Style::Compact, &mut rng), text.replace(" ", ""));
    }

    #[test]
    fn inline_style_stays_on_one_line_and_strings_map_by_name() {
        let mut rng = VariantRng::new(6);
        let mut tree = parse(r#"{"id":"a","x":{"id":"a","n":1.0},"l":["a"],"name":"a"}"#).unwrap();
        let n = map_strings(&mut tree, &["id"], &mut |_, s| Some(format!("{s}!")));
        assert_eq!(n, 2);
        for _ in 0..20 {
            let out = emit(&tree, Style::Inline, &mut rng);
            assert!(!out.contains('\n') && !out.contains('\r'), "{out}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["id"], "a!");
            assert_eq!(v["x"]["id"], "a!");
            assert_eq!(v["name"], "a");
            assert!(out.contains("1.0"));
        }
        assert_eq!(
            tree.member_mut("name")
                .and_then(|n| n.as_string())
                .as_deref(),
            Some("a")
        );
        *tree.at_mut(&["x", "n"]).unwrap() = Node::string("s");
        assert_eq!(
            emit(&tree, Style::Compact, &mut rng),
            r#"{"id":"a!","x":{"id":"a!","n":"s"},"l":["a"],"name":"a"}"#
        );
    }

    #[test]
    fn padding_keeps_the_tokens_and_leaves_boms_and_empty_lines_alone() {
        let mut rng = VariantRng::new(9);
        let text = r#"{"a":1,"a":2}"#;
        for _ in 0..20 {
            let spaced = pad(text, Style::Spaced, &mut rng).unwrap();
            assert_ne!(spaced, text);
            assert_eq!(spaced.trim_matches([' ', '\t', '\n', '\r']), text);
            let inline = pad(text, Style::Inline, &mut rng).unwrap();
            assert!(!inline.contains(['\n', '\r']), "{inline:?}");
            assert_eq!(inline.trim_matches([' ', '\t']), text);
        }
        assert_eq!(pad("\u{feff}{}", Style::Spaced, &mut rng), None);
        assert_eq!(pad("", Style::Inline, &mut rng), None);
        assert_eq!(pad("{}", Style::Compact, &mut rng), None);
    }

    #[test]
    fn only_strict_texts_are_parsed() {
        for bad in [
            r#"{"a":1,"a":2}"#,
            "[1,]",
            r#""\ud800""#,
            "NaN",
            "\u{feff}1",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn sorted_insertion_uses_utf16_order() {
        // U+10000 (D800 DC00) sorts before U+E000 although its code point is higher.
        let mut t = parse("{\"\u{e000}\":1}").unwrap();
        insert_sorted(&mut t, "\"\u{10000}\"", "2").unwrap();
        let mut rng = VariantRng::new(1);
        assert_eq!(
            emit(&t, Style::Compact, &mut rng),
            "{\"\u{10000}\":2,\"\u{e000}\":1}"
        );
        assert!(
            insert_sorted(&mut t, "\"\\ue000\"", "3").is_none(),
            "already there"
        );
    }
}
