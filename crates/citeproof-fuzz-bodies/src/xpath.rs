//! `xpath`: the XPath 1.0 engine of the `xpath` selector (AEF-SEL-002, AEF-L2-007).

use citeproof_span::engines::{
    EvalError, Value, evaluate, num_to_str, parse_xml, parse_xpath, string_value,
};

/// Work budget of one evaluation here: a fiftieth of the verifier's
/// (`citeproof_span::limits::XPATH_BUDGET`), so that a fuzzer spends its time on many inputs,
/// not on one expensive one; libFuzzer's `-timeout` catches work the budget does not count.
const BUDGET: u64 = 1_000_000;

/// A document with every node type (elements in and out of a namespace, attributes, namespace
/// nodes, text, a comment, a processing instruction), used when the input's does not parse.
const DEFAULT_DOC: &str = "<r xmlns:x=\"urn:x\" lang=\"en\"><x:e a=\"1\" x:b=\"2\">u<f/>v</x:e>\
    <e a=\"3\" id=\"i\">w<!--c--><?pi d?></e><p>one<q>two</q>three</p><p xml:lang=\"de\">4</p></r>";

/// Largest node-set whose uniqueness is checked pairwise.
const PAIRWISE_MAX: usize = 200;

/// `[expression NUL document]`: parse the expression and the XML (entity declarations
/// refused), evaluate under a work budget. Checks: a node-set has no duplicates; and the engine
/// agrees with itself through the core functions: for a node-set `E`, `count(E)`,
/// `boolean(E)`, `string(E)`, `E | E` and `(E)[last()]` give its size, non-emptiness, first
/// node's string-value, itself and its last node; for a string, number or boolean,
/// `string()`, `boolean()` and `number()` give the §4 conversions of it. A wrapped expression
/// that exceeds the depth limit or the budget is skipped; a type error in one is a bug.
pub fn xpath(data: &[u8]) {
    let (expr_bytes, doc_bytes) = crate::halves(data);
    let Ok(expr_text) = std::str::from_utf8(expr_bytes) else {
        return;
    };
    let Ok(expr) = parse_xpath(expr_text) else {
        return;
    };
    let own = std::str::from_utf8(doc_bytes)
        .ok()
        .and_then(|t| parse_xml(t).ok());
    let default;
    let doc = match own {
        Some(d) => d,
        None => {
            default = parse_xml(DEFAULT_DOC).expect("the default document parses");
            default
        }
    };
    let Ok(value) = evaluate(&expr, &doc, BUDGET) else {
        return;
    };
    let wrapped = |template: &str| -> Option<Value<'_, '_>> {
        let text = template.replace('E', expr_text);
        let parsed = parse_xpath(&text).ok()?;
        match evaluate(&parsed, &doc, BUDGET) {
            Ok(v) => Some(v),
            Err(EvalError::Budget) => None,
            Err(e) => panic!("{text:?}: {e} although {expr_text:?} evaluated to {value:?}"),
        }
    };
    match &value {
        Value::Nodes(nodes) => {
            if nodes.len() <= PAIRWISE_MAX {
                for (i, a) in nodes.iter().enumerate() {
                    assert!(!nodes[i + 1..].contains(a), "a duplicate node in {nodes:?}");
                }
            }
            if let Some(v) = wrapped("count(E)") {
                assert!(
                    matches!(v, Value::Num(n) if n == nodes.len() as f64),
                    "{v:?}"
                );
            }
            if let Some(v) = wrapped("boolean(E)") {
                assert!(
                    matches!(v, Value::Bool(b) if b != nodes.is_empty()),
                    "{v:?}"
                );
            }
            if let Some(v) = wrapped("string(E)") {
                let first = nodes.first().map(string_value).unwrap_or_default();
                assert!(
                    matches!(&v, Value::Str(s) if *s == first),
                    "{v:?} {first:?}"
                );
            }
            if let Some(v) = wrapped("E | E") {
                assert!(matches!(&v, Value::Nodes(n) if n == nodes), "{v:?}");
            }
            if let Some(v) = wrapped("(E)[last()]") {
                let last: Vec<_> = nodes.last().copied().into_iter().collect();
                assert!(matches!(&v, Value::Nodes(n) if *n == last), "{v:?}");
            }
        }
        scalar => {
            let (s, b, n) = conversions(scalar);
            if let Some(v) = wrapped("string(E)") {
                assert!(matches!(&v, Value::Str(x) if *x == s), "{v:?} {s:?}");
            }
            if let Some(v) = wrapped("boolean(E)") {
                assert!(matches!(v, Value::Bool(x) if x == b), "{v:?} {b}");
            }
            if let Some(v) = wrapped("number(E)") {
                assert!(
                    matches!(v, Value::Num(x) if x == n || (x.is_nan() && n.is_nan())),
                    "{v:?} {n}"
                );
            }
        }
    }
}

/// `string()`, `boolean()` and `number()` of a string, number or boolean (XPath 1.0 §4.2-4.4),
/// written from the recommendation.
fn conversions(v: &Value<'_, '_>) -> (String, bool, f64) {
    match v {
        Value::Str(s) => (s.clone(), !s.is_empty(), xpath_number(s)),
        Value::Num(n) => (num_to_str(*n), *n != 0.0 && !n.is_nan(), *n),
        Value::Bool(b) => (b.to_string(), *b, if *b { 1.0 } else { 0.0 }),
        Value::Nodes(_) => unreachable!("node-sets are handled by the caller"),
    }
}

/// §4.4 `number()` of a string: optional whitespace, an optional minus, a Number
/// (`Digits ('.' Digits?)? | '.' Digits`), optional whitespace; anything else is NaN.
fn xpath_number(s: &str) -> f64 {
    let t = s.trim_matches([' ', '\t', '\r', '\n']);
    let body = t.strip_prefix('-').unwrap_or(t);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |x: &str| x.bytes().all(|c| c.is_ascii_digit());
    // A non-empty `frac` implies a '.', so `.5` is well formed and `5.` too.
    let well_formed = digits(int) && digits(frac) && (!int.is_empty() || !frac.is_empty());
    if !well_formed || body.is_empty() || body == "." {
        return f64::NAN;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_recommendation() {
        assert_eq!(xpath_number(" 12 "), 12.0);
        assert_eq!(xpath_number("-1.5"), -1.5);
        assert_eq!(xpath_number(".5"), 0.5);
        assert_eq!(xpath_number("5."), 5.0);
        for nan in ["", ".", "-", "1e3", "+1", "1.2.3", "0x10", "1 2", "--1"] {
            assert!(xpath_number(nan).is_nan(), "{nan:?}");
        }
    }
}
