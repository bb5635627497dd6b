//! ECMAScript `JSON.stringify(value, replacerArray)`, the serialization of the `deployed-js`
//! signing input (profile CHAIN-006).
//!
//! With an array replacer, ECMA-262 (§25.5.2.2 `JSON.stringify`, `SerializeJSONObject`) builds a
//! *property list* from the array and uses it for **every** object in the value, at any depth:
//! an object is written with exactly those of its own properties that are in the list, in the
//! list's order. Arrays are written whole. Strings use `QuoteJSONString`, which for valid
//! Unicode text is [`crate::lossless::write_string`]; numbers use `Number::toString`
//! ([`crate::numfmt::ecmascript_number`]). No crate does this, and the rules are short.

use crate::lossless::{Node, write_string};
use crate::numfmt::ecmascript_token;

/// `JSON.stringify(node, keys)`: `None` for a number with no ECMAScript form (never produced by
/// the strict parser).
pub fn stringify_with_keys(node: &Node, keys: &[&str]) -> Option<String> {
    let mut out = String::new();
    write(node, keys, &mut out)?;
    Some(out)
}

fn write(node: &Node, keys: &[&str], out: &mut String) -> Option<()> {
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(true) => out.push_str("true"),
        Node::Bool(false) => out.push_str("false"),
        Node::Number(token) => out.push_str(&ecmascript_token(token)?),
        Node::String(s) => write_string(s, out),
        Node::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, keys, out)?;
            }
            out.push(']');
        }
        Node::Object(_) => {
            out.push('{');
            let mut first = true;
            for key in keys {
                if let Some(value) = node.get(key) {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    write_string(key, out);
                    out.push(':');
                    write(value, keys, out)?;
                }
            }
            out.push('}');
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lossless::parse;

    /// Expected value from Node 20:
    /// `JSON.stringify({b:1.0,a:{b:2,c:3},c:[{a:1e21,z:0}]}, ["b","a","c"])`.
    #[test]
    fn published_ecmascript_behaviour() {
        let n = parse(br#"{"b":1.0,"a":{"b":2,"c":3},"c":[{"a":1e21,"z":0}]}"#).unwrap();
        assert_eq!(
            stringify_with_keys(&n, &["b", "a", "c"]).unwrap(),
            r#"{"b":1,"a":{"b":2,"c":3},"c":[{"a":1e+21}]}"#
        );
    }
}
