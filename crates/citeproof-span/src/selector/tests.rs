//! Selector syntax against hand-picked values (AEF-SEL-001..003).

use citeproof_model::aef::SelectorType;

use super::{Kind, Selector, SelectorError, TextDirective};

fn parse(
    t: SelectorType,
    value: Option<&str>,
    exact_text: Option<&str>,
    context: Option<&str>,
) -> Result<Kind, SelectorError> {
    Selector::parse(t, value, exact_text, context).map(|s| s.0)
}

fn p(t: SelectorType, v: &str) -> Result<Kind, SelectorError> {
    parse(t, Some(v), None, None)
}

#[test]
fn positional() {
    assert!(matches!(
        p(SelectorType::ByteRange, "0-1"),
        Ok(Kind::ByteRange { start: 0, end: 1 })
    ));
    assert!(matches!(
        p(SelectorType::ParagraphIndex, "0"),
        Ok(Kind::ParagraphIndex(0))
    ));
    for bad in [
        "1-1",
        "2-1",
        "01-2",
        "-1-2",
        "1",
        "1-",
        "a-b",
        "1 - 2",
        "+1-2",
        "9007199254740992-9007199254740993",
    ] {
        assert!(p(SelectorType::ByteRange, bad).is_err(), "{bad}");
    }
    assert!(p(SelectorType::LineRange, "3-3").is_ok());
    assert!(p(SelectorType::LineRange, "0-3").is_err());
    assert!(p(SelectorType::PageRange, "2-1").is_err());
    assert!(p(SelectorType::ByteRange, "9007199254740990-9007199254740991").is_ok());
}

#[test]
fn text_quote_anchor() {
    let s = parse(
        SelectorType::TextQuote,
        Some("abc"),
        Some("abcdef"),
        Some("ctx"),
    );
    assert!(matches!(s, Ok(Kind::TextQuote { ref quote, .. }) if quote == "abcdef"));
    // The anchor may sit anywhere in the quote (the upstream example background-citation).
    let s = parse(SelectorType::TextQuote, Some("cde"), Some("abcdef"), None);
    assert!(matches!(s, Ok(Kind::TextQuote { ref quote, .. }) if quote == "abcdef"));
    assert!(parse(SelectorType::TextQuote, Some("xyz"), Some("abcdef"), None).is_err());
    let s = parse(
        SelectorType::TextQuote,
        Some("ab"),
        Some("ab [REDACTED] ef"),
        None,
    );
    assert!(matches!(s, Ok(Kind::RedactedQuote { .. })));
    assert!(
        parse(
            SelectorType::TextQuote,
            Some("ab"),
            Some("ab [REDACTED]"),
            None
        )
        .is_err()
    );
    assert!(
        parse(
            SelectorType::TextQuote,
            Some("ab"),
            Some("[REDACTED] ab"),
            None
        )
        .is_err()
    );
    assert!(parse(SelectorType::TextQuote, Some(""), None, None).is_err());
    assert!(parse(SelectorType::TextQuote, None, None, None).is_err());
}

#[test]
fn fragments() {
    let t = SelectorType::FragmentIdentifier;
    assert!(matches!(
        p(t, "#char=0,10"),
        Ok(Kind::CharRange { start: 0, end: 10 })
    ));
    assert!(matches!(
        p(t, "line=1,4"),
        Ok(Kind::LineFragment { start: 1, end: 4 })
    ));
    for bad in [
        "char=5",
        "char=5,5",
        "char=6,5",
        "line=1,2;length=10",
        "char=,5",
        "text=x",
        "#:~:text=",
        "char=01,5",
    ] {
        assert!(p(t, bad).is_err(), "{bad}");
    }
    let d = |v: &str| match p(t, v) {
        Ok(Kind::TextDirective(d)) => d,
        other => panic!("{v}: {other:?}"),
    };
    assert_eq!(
        d(":~:text=AEO-,three,Audit,-."),
        TextDirective {
            prefix: Some("AEO".into()),
            start: "three".into(),
            end: Some("Audit".into()),
            suffix: Some(".".into())
        }
    );
    assert_eq!(d(":~:text=three%20pillars").start, "three pillars");
    assert_eq!(d(":~:text=%E2%9C%93").start, "\u{2713}");
    for bad in [
        ":~:text=a b",
        ":~:text=a&text=b",
        ":~:text=a,b,c",
        ":~:text=%ZZ",
        ":~:text=%FF",
        ":~:text=-",
        ":~:text=a-b",
    ] {
        assert!(p(t, bad).is_err(), "{bad}");
    }
}

#[test]
fn constructors_validate_like_parse() {
    use crate::limits::MAX_SELECTOR_NUMBER;
    let err = |r: Result<Selector, SelectorError>| r.map(|_| ()).unwrap_err().to_string();
    assert_eq!(
        err(Selector::byte_range(5, 2)),
        "byte_range `5-2`: start must be less than end"
    );
    assert_eq!(
        err(Selector::byte_range(5, 2)),
        err(Selector::parse(
            SelectorType::ByteRange,
            Some("5-2"),
            None,
            None
        ))
    );
    assert!(Selector::byte_range(2, 2).is_err());
    assert_eq!(
        err(Selector::line_range(0, 3)),
        "line_range `0-3`: 1 <= start <= end is required"
    );
    assert!(Selector::line_range(4, 3).is_err());
    assert!(Selector::page_range(0, 0).is_err());
    assert!(Selector::byte_range(0, MAX_SELECTOR_NUMBER).is_ok());
    assert!(Selector::byte_range(0, MAX_SELECTOR_NUMBER + 1).is_err());
    assert!(Selector::line_range(1, u64::MAX).is_err());
    assert!(matches!(
        Selector::line_range(1, 1).map(|s| s.0),
        Ok(Kind::LineRange { start: 1, end: 1 })
    ));
}

#[test]
fn errors_carry_the_code_and_the_engine_error() {
    use std::error::Error as _;
    let css = Selector::parse(SelectorType::Css, Some("p::before"), None, None)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        css.code(),
        citeproof_model::IncidentCode::AefSelectorInvalid
    );
    assert_eq!(
        css.to_string(),
        "CSS selector `p::before`: pseudo-elements (`::`) are not allowed"
    );
    assert_eq!(
        css.source().map(ToString::to_string).as_deref(),
        Some("pseudo-elements (`::`) are not allowed")
    );
    let xpath = Selector::parse(SelectorType::Xpath, Some("$v"), None, None)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        xpath.to_string(),
        "XPath `$v`: variable references are not allowed (no variable bindings)"
    );
    assert!(xpath.source().is_some());
    let missing = Selector::parse(SelectorType::ByteRange, None, None, None)
        .map(|_| ())
        .unwrap_err();
    assert!(missing.source().is_none());
}
