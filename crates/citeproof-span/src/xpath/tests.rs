//! Unit tests of the engine against hand derivations (the lxml differential is `crosscheck.rs`).

use super::eval::Eval;
use super::*;
use crate::limits::XPATH_BUDGET;

const DOC: &str = r#"<?xml version="1.0"?>
<catalog xmlns:x="urn:x" xml:lang="en-GB">
  <book id="b1" lang="en"><title>Dune</title><price>9.5</price></book>
  <book id="b2"><title>Emma</title><price>12</price><!-- c --></book>
  <x:note>namespaced</x:note>
  <?pi data?>
</catalog>"#;

fn eval_str(expr: &str) -> Result<String, String> {
    let doc = roxmltree::Document::parse(DOC).map_err(|e| e.to_string())?;
    let e = parse(expr).map_err(|e| e.to_string())?;
    let v = evaluate(&e, &doc, XPATH_BUDGET).map_err(|e| e.to_string())?;
    let mut ev = Eval {
        doc: &doc,
        budget: XPATH_BUDGET,
    };
    ev.string_of_value(&v).map_err(|e| e.to_string())
}

fn count(expr: &str) -> usize {
    let doc = roxmltree::Document::parse(DOC).unwrap_or_else(|e| panic!("{e}"));
    match evaluate(
        &parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}")),
        &doc,
        XPATH_BUDGET,
    ) {
        Ok(Value::Nodes(n)) => n.len(),
        other => panic!("{expr}: {other:?}"),
    }
}

#[test]
fn paths_and_predicates() {
    assert_eq!(count("/catalog/book"), 2);
    assert_eq!(count("//book[2]"), 1);
    assert_eq!(eval_str("//book[2]/title").as_deref(), Ok("Emma"));
    assert_eq!(eval_str("//book[last()]/@id").as_deref(), Ok("b2"));
    assert_eq!(eval_str("(//title)[1]").as_deref(), Ok("Dune"));
    assert_eq!(count("//book[price > 10]"), 1);
    assert_eq!(count("//book[@lang]"), 1);
    assert_eq!(count("//*"), 8);
    assert_eq!(count("//node()[self::comment()]"), 1);
    assert_eq!(count("//processing-instruction('pi')"), 1);
    assert_eq!(count("//title/ancestor::*"), 3);
    assert_eq!(count("//book[1]/following::*"), 4);
    assert_eq!(count("//book[2]/preceding::*"), 3);
    assert_eq!(count("//book[2]/preceding-sibling::*"), 1);
    assert_eq!(
        eval_str("//book[2]/preceding-sibling::*[1]/@id").as_deref(),
        Ok("b1")
    );
    assert_eq!(
        eval_str("//title[../@id='b2']/ancestor::*[1]/@id").as_deref(),
        Ok("b2")
    );
    assert_eq!(count("//xml:*"), 0);
    assert_eq!(count("/catalog/namespace::*"), 2);
    assert_eq!(count("//book | //title | //book"), 4);
    assert_eq!(count("//*[local-name()='note']"), 1);
    assert_eq!(count("//note"), 0, "unprefixed names are in no namespace");
}

#[test]
fn functions() {
    assert_eq!(eval_str("count(//book)").as_deref(), Ok("2"));
    assert_eq!(eval_str("sum(//price)").as_deref(), Ok("21.5"));
    assert_eq!(eval_str("concat('a', 1, true())").as_deref(), Ok("a1true"));
    assert_eq!(
        eval_str("substring('12345', 1.5, 2.6)").as_deref(),
        Ok("234")
    );
    assert_eq!(eval_str("substring('12345', 0, 3)").as_deref(), Ok("12"));
    assert_eq!(
        eval_str("substring('12345', 0 div 0, 3)").as_deref(),
        Ok("")
    );
    assert_eq!(
        eval_str("substring('12345', -42, 1 div 0)").as_deref(),
        Ok("12345")
    );
    assert_eq!(eval_str("normalize-space('  a  b ')").as_deref(), Ok("a b"));
    assert_eq!(
        eval_str("translate('bar','abc','ABC')").as_deref(),
        Ok("BAr")
    );
    assert_eq!(
        eval_str("translate('--aaa--','abc-','ABC')").as_deref(),
        Ok("AAA")
    );
    assert_eq!(eval_str("round(-0.4)").as_deref(), Ok("0"));
    assert_eq!(eval_str("round(2.5)").as_deref(), Ok("3"));
    assert_eq!(eval_str("1 div 0").as_deref(), Ok("Infinity"));
    assert_eq!(eval_str("0 div 0").as_deref(), Ok("NaN"));
    assert_eq!(eval_str("5 mod -2").as_deref(), Ok("1"));
    assert_eq!(eval_str("-5 mod 2").as_deref(), Ok("-1"));
    assert_eq!(eval_str("number(' 12.5 ')").as_deref(), Ok("12.5"));
    assert_eq!(eval_str("number('1e3')").as_deref(), Ok("NaN"));
    assert_eq!(eval_str("0.1 + 0.2").as_deref(), Ok("0.30000000000000004"));
    assert_eq!(
        eval_str("1000000 * 1000000 * 1000000 * 1000").as_deref(),
        Ok("1000000000000000000000")
    );
    assert_eq!(eval_str("name(//x:note)"), Err("namespace prefix `x` is not bound (selectors are evaluated without namespace bindings)".into()));
    assert_eq!(
        eval_str("name(//*[local-name()='note'])").as_deref(),
        Ok("x:note")
    );
    assert_eq!(
        eval_str("namespace-uri(//*[local-name()='note'])").as_deref(),
        Ok("urn:x")
    );
    assert_eq!(
        eval_str("boolean(//book[lang('en')])").as_deref(),
        Ok("true")
    );
    assert_eq!(
        eval_str("boolean(//book[lang('fr')])").as_deref(),
        Ok("false")
    );
    assert_eq!(eval_str("count(id('b1'))").as_deref(), Ok("0"));
    assert_eq!(eval_str("--'3'").as_deref(), Ok("3"));
    assert_eq!(eval_str("//book = 'x'").as_deref(), Ok("false"));
    assert_eq!(eval_str("//price = 12").as_deref(), Ok("true"));
    assert_eq!(eval_str("//price != 12").as_deref(), Ok("true"));
    assert_eq!(eval_str("true() = //nothing").as_deref(), Ok("false"));
    assert_eq!(eval_str("'10' < '9'").as_deref(), Ok("false"));
    assert_eq!(eval_str("string(//pi)").as_deref(), Ok(""));
    assert_eq!(
        eval_str("string(//processing-instruction())").as_deref(),
        Ok("data")
    );
}

#[test]
fn syntax_errors() {
    for bad in [
        "",
        "//p[",
        "$x",
        "foo()",
        "x:f()",
        "count()",
        "count(1,2)",
        "//p]",
        "a:b",
        "//@",
        "1 +",
        "child::",
        "bogus::p",
        "'unterminated",
        "!",
        "p:*",
    ] {
        assert!(parse(bad).is_err(), "{bad:?} should not parse");
    }
    for good in [
        "/",
        "//p",
        "count(//p)",
        "2*3",
        "a*b",
        "* * *",
        "div div div",
        "/child::a/@b",
        "processing-instruction('x')",
        ".//p[. = 'x'][2]",
        "(/)[1]",
        "-1",
        "--1",
        "//@xml:lang",
        "node()",
        "a|b",
    ] {
        assert!(
            parse(good).is_ok(),
            "{good:?} should parse: {:?}",
            parse(good)
        );
    }
}

#[test]
fn hostile_inputs_end_in_errors() {
    let deep = "(".repeat(100_000) + "1" + &")".repeat(100_000);
    assert!(parse(&deep).is_err());
    let minus = "-".repeat(10_000) + "1";
    assert!(parse(&minus).is_ok());
    let chain = vec!["1"; 5000].join("+");
    assert!(
        parse(&chain).is_err(),
        "a 5000-term chain would recurse 5000 deep"
    );
    let nested = "(".repeat(90) + "1" + &")".repeat(90);
    let doc0 = roxmltree::Document::parse("<a/>").unwrap_or_else(|e| panic!("{e}"));
    let e = parse(&nested).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        evaluate(&e, &doc0, XPATH_BUDGET),
        Ok(Value::Num(_))
    ));
    let doc = roxmltree::Document::parse(DOC).unwrap_or_else(|e| panic!("{e}"));
    let slow = parse("//*[//*[//*[//*[//*[//*]]]]]").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(evaluate(&slow, &doc, 10_000).err(), Some(EvalError::Budget));
    assert!(matches!(
        evaluate(
            &parse("count(1)").unwrap_or_else(|e| panic!("{e}")),
            &doc,
            1000
        ),
        Err(EvalError::Type(_))
    ));
}
