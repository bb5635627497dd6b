//! Differential test of the XPath 1.0 engine against libxml2's (Python `lxml`), an independent
//! implementation: for every (document, expression) pair both must give the same node-set (as
//! the node kinds and string-values in document order) or the same number, string or boolean.
//! The expressions cover every axis with and without predicates, including the shapes the
//! evaluator shortcuts (predicate-free `descendant`, `following` and `preceding` steps).
//!
//! Two known libxml2 deviations from XPath 1.0 are left out of the comparison and tested against
//! hand derivations instead: libxml2 never returns the root node (so `ancestor::node()` lacks
//! it; root items are dropped from our side), and its `following` axis from an attribute node
//! skips the attribute's element content, which XPath 1.0 §5 puts after the attribute in
//! document order.
//!
//! Needs `python3` with `lxml`; skipped without them unless `CITEPROOF_REQUIRE_PYTHON=1` (CI).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value as Json, json};

use crate::limits::XPATH_BUDGET;
use crate::xpath::{Value, XNode, evaluate, parse, string_value};

const LXML_SIDE: &str = r#"
import json, sys
from lxml import etree
out = []
for case in json.load(sys.stdin):
    doc = etree.fromstring(case["doc"].encode("utf-8")).getroottree()
    r = doc.xpath(case["expr"])
    if isinstance(r, list):
        items = []
        for n in r:
            if isinstance(n, str):  # text, attribute value, namespace URI: smart strings
                kind = "attr" if n.is_attribute else ("text" if n.is_text or n.is_tail else "str")
                items.append([kind, str(n)])
            elif isinstance(n, tuple):  # namespace node (prefix, uri)
                items.append(["ns", n[1]])
            elif isinstance(n, etree._Comment):
                items.append(["comment", n.text or ""])
            elif isinstance(n, etree._ProcessingInstruction):
                items.append(["pi", n.text or ""])
            elif isinstance(n, etree._ElementTree):
                items.append(["root", "".join(n.getroot().itertext())])
            else:
                items.append(["element", "".join(n.itertext())])
        out.append({"nodes": items})
    elif isinstance(r, bool):
        out.append({"bool": r})
    elif isinstance(r, float):
        out.append({"num": None if r != r else r})
    else:
        out.append({"str": str(r)})
json.dump(out, sys.stdout)
"#;

fn docs() -> Vec<String> {
    let nested = format!("<a>{}x{}</a>", "<a>".repeat(40), "</a>".repeat(40));
    let wide: String = (0..60)
        .map(|i| format!("<b id=\"b{i}\" n=\"{}\"><c>t{i}</c><!--k{i}--></b>", i % 7))
        .collect();
    vec![
        nested,
        format!("<r>{wide}</r>"),
        "<r><p>one<q>two</q>three</p><?pi data?><p>four</p><s><p>five<p>six</p></p></s></r>".into(),
        "<r xmlns:x=\"urn:x\"><x:e a=\"1\" x:b=\"2\">u<f/>v</x:e><e a=\"3\">w</e></r>".into(),
    ]
}

const EXPRESSIONS: &[&str] = &[
    "//node()",
    "//node()//node()",
    "//*//*",
    "//a//a",
    "//a//a[1]",
    "//a//a[last()]",
    "//b//c",
    "//p//p",
    "//p//p[1]",
    "//p/descendant::node()",
    "//p/descendant-or-self::p",
    "//node()/following::node()",
    "//c/following::node()",
    "//c/following::c[1]",
    "//c/following::c[position() < 3]",
    "//@id/../following::node()",
    "//b[@n='3']/following::b",
    "//node()/preceding::node()",
    "//c/preceding::node()",
    "//c/preceding::c[1]",
    "//c/preceding::b[2]",
    "//@n/preceding::comment()",
    "//p/preceding::text()",
    "//c/following-sibling::node()",
    "//comment()/preceding-sibling::*[1]",
    "//c/ancestor::node()",
    "//c/ancestor-or-self::*[2]",
    "//text()/parent::*",
    "//@*",
    "count(//node()//node())",
    "count(//c/following::c)",
    "count(//c/preceding::node())",
    "string(//p[2])",
    "sum(//b/@n)",
    "//b[@n > 4][position() mod 2 = 0]/c",
    "(//c)[last()]/following::node()",
    "//processing-instruction()",
];

fn ours(doc: &str, expr: &str) -> Json {
    let d = crate::xml::parse(doc).unwrap();
    let e = parse(expr).unwrap();
    match evaluate(&e, &d, XPATH_BUDGET).unwrap() {
        Value::Nodes(nodes) => {
            let items: Vec<Json> = nodes
                .iter()
                .filter_map(|n| {
                    let kind = match n {
                        XNode::Attr(..) => "attr",
                        XNode::Ns(..) => "ns",
                        XNode::Node(m) if m.is_text() => "text",
                        XNode::Node(m) if m.is_comment() => "comment",
                        XNode::Node(m) if m.is_pi() => "pi",
                        XNode::Node(m) if m.is_root() => return None,
                        XNode::Node(_) => "element",
                    };
                    Some(json!([kind, string_value(n)]))
                })
                .collect();
            json!({ "nodes": items })
        }
        Value::Bool(b) => json!({ "bool": b }),
        Value::Num(x) if x.is_nan() => json!({ "num": null }),
        Value::Num(x) => json!({ "num": x }),
        Value::Str(s) => json!({ "str": s }),
    }
}

#[test]
fn xpath_agrees_with_libxml2() {
    let required = std::env::var("CITEPROOF_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
    let has_lxml = Command::new("python3")
        .args(["-c", "import lxml"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_lxml {
        assert!(
            !required,
            "python3 with lxml is required (pip install lxml)"
        );
        eprintln!("skipped: python3 with lxml not available");
        return;
    }
    let mut cases = Vec::new();
    for doc in docs() {
        for expr in EXPRESSIONS {
            cases.push((doc.clone(), *expr));
        }
    }
    let input: Vec<Json> = cases
        .iter()
        .map(|(d, e)| json!({ "doc": d, "expr": e }))
        .collect();
    let mut child = Command::new("python3")
        .args(["-c", LXML_SIDE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&input).unwrap().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let theirs: Vec<Json> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(theirs.len(), cases.len());
    let mut failures = Vec::new();
    for ((doc, expr), want) in cases.iter().zip(&theirs) {
        let got = ours(doc, expr);
        if &got != want {
            failures.push(format!(
                "{expr} on {}...: ours {got}, lxml {want}",
                doc.get(..40).unwrap_or(doc)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// XPath 1.0 §5: an element's attribute nodes come before its children, so the children follow
/// the attribute (libxml2 disagrees, hence a hand derivation): `//@a/following::*` on the
/// namespaced document is `f` (inside `x:e`, after its attributes) then the second `e`.
#[test]
fn following_from_an_attribute_includes_its_element_content() {
    let doc = "<r xmlns:x=\"urn:x\"><x:e a=\"1\" x:b=\"2\">u<f/>v</x:e><e a=\"3\">w</e></r>";
    let got = ours(doc, "//@a/following::*");
    assert_eq!(got, json!({"nodes": [["element", ""], ["element", "w"]]}));
    // The predicate form goes through the general (per context node) path: the first
    // following element of `a="1"` is `f`; `a="3"` has no following element (its element holds
    // text only and is the last one).
    let first = ours(doc, "//@a/following::*[1]");
    assert_eq!(first, json!({"nodes": [["element", ""]]}));
}
