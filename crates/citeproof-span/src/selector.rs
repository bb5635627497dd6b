//! Selector syntax (AEF-SEL-001 to AEF-SEL-003): what a `span` selects, before any source is
//! looked at. A syntax error is `aef-selector-invalid`.

use citeproof_model::aef::SelectorType;

use crate::limits::MAX_SELECTOR_NUMBER;
use crate::{css, redaction, xpath};

/// A parsed selector.
#[derive(Debug, Clone)]
pub enum Selector {
    /// `none`: the whole body.
    Whole,
    /// `byte_range` `start-end`: bytes `[start, end)`.
    ByteRange { start: u64, end: u64 },
    /// `line_range` `start-end`: lines start..=end, 1-based.
    LineRange { start: u64, end: u64 },
    /// `page_range` `start-end`: pages start..=end, 1-based.
    PageRange { start: u64, end: u64 },
    /// `paragraph_index` n, 0-based.
    ParagraphIndex(u64),
    /// `text_quote`: the quote (`exact_text` when present, else `selector_value`) and the
    /// optional `surrounding_context`.
    TextQuote {
        quote: String,
        context: Option<String>,
    },
    /// `text_quote` whose quote has redacted runs ([`crate::redaction`]): the quote as written,
    /// beginning and ending with unredacted text.
    RedactedQuote { pattern: String },
    /// `css` / `css_selector`: the validated selector.
    Css(Box<scraper::Selector>),
    /// `xpath`: the parsed expression.
    XPath(Box<xpath::Expr>),
    /// `fragment_identifier` `char=a,b` (RFC 5147): positions a to b.
    CharRange { start: u64, end: u64 },
    /// `fragment_identifier` `line=a,b` (RFC 5147): lines a+1 to b.
    LineFragment { start: u64, end: u64 },
    /// `fragment_identifier` `:~:text=...`.
    TextDirective(TextDirective),
}

/// The parts of a text directive, percent-decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextDirective {
    pub prefix: Option<String>,
    pub start: String,
    pub end: Option<String>,
    pub suffix: Option<String>,
}

/// Parses a selector (AEF-SEL-001..003). `value` is `selector_value`, `exact_text` and
/// `context` the other span members. The error is the message of an `aef-selector-invalid`.
pub fn parse(
    selector_type: SelectorType,
    value: Option<&str>,
    exact_text: Option<&str>,
    context: Option<&str>,
) -> Result<Selector, String> {
    if selector_type == SelectorType::None {
        return Ok(Selector::Whole);
    }
    let Some(value) = value else {
        return Err("`selector_value` is required unless `selector_type` is `none`".into());
    };
    match selector_type {
        SelectorType::None => Ok(Selector::Whole),
        SelectorType::ByteRange => {
            let (start, end) = range(value, "byte_range")?;
            if start >= end {
                return Err(format!("byte_range `{value}`: start must be less than end"));
            }
            Ok(Selector::ByteRange { start, end })
        }
        SelectorType::LineRange => {
            let (start, end) = one_based_range(value, "line_range")?;
            Ok(Selector::LineRange { start, end })
        }
        SelectorType::PageRange => {
            let (start, end) = one_based_range(value, "page_range")?;
            Ok(Selector::PageRange { start, end })
        }
        SelectorType::ParagraphIndex => Ok(Selector::ParagraphIndex(
            number(value)
                .ok_or_else(|| format!("paragraph_index `{value}` is not a decimal number"))?,
        )),
        SelectorType::TextQuote => {
            if value.is_empty() {
                return Err("text_quote `selector_value` must not be empty".into());
            }
            let quote = match exact_text {
                Some(exact) if exact.contains(value) => exact.to_owned(),
                Some(_) => {
                    return Err(
                        "text_quote `selector_value` must occur in `exact_text` (the quote contains its anchor)"
                            .into(),
                    );
                }
                None => value.to_owned(),
            };
            if redaction::is_redacted(&quote) {
                let p = redaction::Pattern::parse(&quote);
                if p.leading_marker || p.trailing_marker || p.parts.is_empty() {
                    return Err(format!(
                        "a redacted text_quote must begin and end with unredacted text, not with {}",
                        redaction::REDACTION_MARKER
                    ));
                }
                return Ok(Selector::RedactedQuote { pattern: quote });
            }
            Ok(Selector::TextQuote {
                quote,
                context: context.map(str::to_owned),
            })
        }
        SelectorType::Css | SelectorType::CssSelector => css::check(value)
            .map(|s| Selector::Css(Box::new(s)))
            .map_err(|e| format!("CSS selector `{value}`: {e}")),
        SelectorType::Xpath => xpath::parse(value)
            .map(|e| Selector::XPath(Box::new(e)))
            .map_err(|e| format!("XPath `{value}`: {e}")),
        SelectorType::FragmentIdentifier => fragment(value),
    }
}

/// A decimal number without sign or leading zeros, at most 2^53 - 1.
pub fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if text.len() > 1 && text.starts_with('0') {
        return None;
    }
    text.parse::<u64>()
        .ok()
        .filter(|n| *n <= MAX_SELECTOR_NUMBER)
}

fn range(value: &str, what: &str) -> Result<(u64, u64), String> {
    let (a, b) = value
        .split_once('-')
        .ok_or_else(|| format!("{what} `{value}` is not `start-end`"))?;
    match (number(a), number(b)) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(format!(
            "{what} `{value}` is not `start-end` with decimal numbers (no sign, no leading zeros, at most 2^53-1)"
        )),
    }
}

fn one_based_range(value: &str, what: &str) -> Result<(u64, u64), String> {
    let (start, end) = range(value, what)?;
    if start < 1 || start > end {
        return Err(format!("{what} `{value}`: 1 <= start <= end is required"));
    }
    Ok((start, end))
}

/// AEF-SEL-003.
fn fragment(value: &str) -> Result<Selector, String> {
    let v = value.strip_prefix('#').unwrap_or(value);
    if let Some(rest) = v.strip_prefix("char=") {
        let (a, b) = pair(rest, "char")?;
        return Ok(Selector::CharRange { start: a, end: b });
    }
    if let Some(rest) = v.strip_prefix("line=") {
        let (a, b) = pair(rest, "line")?;
        return Ok(Selector::LineFragment { start: a, end: b });
    }
    if let Some(rest) = v.strip_prefix(":~:text=") {
        return text_directive(rest).map(Selector::TextDirective);
    }
    Err(format!(
        "fragment identifier `{value}` is not `char=a,b`, `line=a,b` or `:~:text=...`"
    ))
}

fn pair(rest: &str, scheme: &str) -> Result<(u64, u64), String> {
    if rest.contains(';') {
        return Err(format!(
            "{scheme}= with an integrity check is not allowed (content_hash already covers it)"
        ));
    }
    let (a, b) = rest.split_once(',').ok_or_else(|| {
        format!("{scheme}={rest}: a range `a,b` is required (a position selects nothing)")
    })?;
    match (number(a), number(b)) {
        (Some(a), Some(b)) if a < b => Ok((a, b)),
        (Some(_), Some(_)) => Err(format!("{scheme}={rest}: a must be less than b")),
        _ => Err(format!("{scheme}={rest}: a and b must be decimal numbers")),
    }
}

/// Characters allowed unencoded in a text directive part (WICG Scroll-to-Text-Fragment
/// `ExplicitChar`): everything else, `-`, `,` and `&` included, must be percent-encoded.
fn is_explicit_char(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'$'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b'.'
                | b'/'
                | b':'
                | b';'
                | b'='
                | b'?'
                | b'@'
                | b'_'
                | b'~'
        )
}

fn decode_part(part: &str) -> Result<String, String> {
    if part.is_empty() {
        return Err("a text directive part is empty".into());
    }
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                .ok_or_else(|| format!("bad percent-encoding in `{part}`"))?;
            out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
            i += 3;
        } else if is_explicit_char(b) {
            out.push(b);
            i += 1;
        } else {
            return Err(format!(
                "`{}` must be percent-encoded in a text directive",
                char::from(b).escape_default()
            ));
        }
    }
    String::from_utf8(out).map_err(|_| format!("`{part}` does not decode to UTF-8"))
}

fn text_directive(rest: &str) -> Result<TextDirective, String> {
    if rest.contains('&') {
        return Err("only one text directive is allowed".into());
    }
    let mut parts: Vec<&str> = rest.split(',').collect();
    let prefix = match parts.first() {
        Some(p) if p.ends_with('-') && parts.len() > 1 => {
            let decoded = decode_part(&p[..p.len() - 1])?;
            parts.remove(0);
            Some(decoded)
        }
        _ => None,
    };
    let suffix = match parts.last() {
        Some(s) if s.starts_with('-') && parts.len() > 1 => {
            let decoded = decode_part(&s[1..])?;
            parts.pop();
            Some(decoded)
        }
        _ => None,
    };
    match parts.as_slice() {
        [start] => Ok(TextDirective {
            prefix,
            start: decode_part(start)?,
            end: None,
            suffix,
        }),
        [start, end] => Ok(TextDirective {
            prefix,
            start: decode_part(start)?,
            end: Some(decode_part(end)?),
            suffix,
        }),
        _ => Err(format!(
            "`text={rest}` is not `[prefix-,]start[,end][,-suffix]`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(t: SelectorType, v: &str) -> Result<Selector, String> {
        parse(t, Some(v), None, None)
    }

    #[test]
    fn positional() {
        assert!(matches!(
            p(SelectorType::ByteRange, "0-1"),
            Ok(Selector::ByteRange { start: 0, end: 1 })
        ));
        assert!(matches!(
            p(SelectorType::ParagraphIndex, "0"),
            Ok(Selector::ParagraphIndex(0))
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
        assert!(matches!(s, Ok(Selector::TextQuote { ref quote, .. }) if quote == "abcdef"));
        // The anchor may sit anywhere in the quote (the upstream example background-citation).
        let s = parse(SelectorType::TextQuote, Some("cde"), Some("abcdef"), None);
        assert!(matches!(s, Ok(Selector::TextQuote { ref quote, .. }) if quote == "abcdef"));
        assert!(parse(SelectorType::TextQuote, Some("xyz"), Some("abcdef"), None).is_err());
        let s = parse(
            SelectorType::TextQuote,
            Some("ab"),
            Some("ab [REDACTED] ef"),
            None,
        );
        assert!(matches!(s, Ok(Selector::RedactedQuote { .. })));
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
            Ok(Selector::CharRange { start: 0, end: 10 })
        ));
        assert!(matches!(
            p(t, "line=1,4"),
            Ok(Selector::LineFragment { start: 1, end: 4 })
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
            Ok(Selector::TextDirective(d)) => d,
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
}
