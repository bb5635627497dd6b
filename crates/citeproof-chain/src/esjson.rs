//! ECMAScript `JSON.stringify(value, replacerArray)`, the serialization of the `deployed-js`
//! signing input (profile CHAIN-006).
//!
//! With an array replacer, ECMA-262 (§25.5.2.2 `JSON.stringify`, `SerializeJSONObject`) builds a
//! *property list* from the array and uses it for **every** object in the value, at any depth:
//! an object is written with exactly those of its own properties that are in the list, in the
//! list's order. Arrays are written whole. Strings use `QuoteJSONString`, which for valid
//! Unicode text is [`crate::lossless::write_string`]; numbers use `Number::toString`
//! ([`crate::numfmt::ecmascript_number`]). No crate does this, and the rules are short.

use crate::lossless::{Compact, Node, write_compact};
use crate::numfmt::ecmascript_token;

/// `JSON.stringify(node, keys)`: `None` for a number with no ECMAScript form (never produced by
/// the strict parser).
pub fn stringify_with_keys(node: &Node, keys: &[&str]) -> Option<String> {
    let mut out = String::new();
    write_compact(&PropertyList(keys), node, &mut out).ok()?;
    Some(out)
}

/// The replacer array: every object is written with the listed members it has, in list order.
struct PropertyList<'k>(&'k [&'k str]);

impl Compact for PropertyList<'_> {
    type Error = ();

    fn number(&self, token: &str) -> Result<String, ()> {
        ecmascript_token(token).ok_or(())
    }

    fn members<'a>(&'a self, object: &'a Node) -> Vec<(&'a str, &'a Node)> {
        let listed = self.0.iter().map(|key| (*key, object.get(key)));
        listed
            .filter_map(|(key, value)| Some((key, value?)))
            .collect()
    }
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
