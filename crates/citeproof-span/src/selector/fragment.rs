//! AEF-SEL-003: `fragment_identifier` selectors, RFC 5147 `char=a,b` and `line=a,b` and the
//! WICG Scroll-to-Text-Fragment `:~:text=` directive.

use super::error::Invalid;
use super::{Kind, number};

/// The parts of a text directive, percent-decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextDirective {
    pub(crate) prefix: Option<String>,
    pub(crate) start: String,
    pub(crate) end: Option<String>,
    pub(crate) suffix: Option<String>,
}

/// Parses a fragment identifier (with or without its `#`).
pub(super) fn fragment(value: &str) -> Result<Kind, Invalid> {
    let v = value.strip_prefix('#').unwrap_or(value);
    if let Some(rest) = v.strip_prefix("char=") {
        let (start, end) = pair(rest, "char")?;
        return Ok(Kind::CharRange { start, end });
    }
    if let Some(rest) = v.strip_prefix("line=") {
        let (start, end) = pair(rest, "line")?;
        return Ok(Kind::LineFragment { start, end });
    }
    if let Some(rest) = v.strip_prefix(":~:text=") {
        return text_directive(rest).map(Kind::TextDirective);
    }
    Err(Invalid::FragmentScheme(value.to_owned()))
}

/// `a,b` with `a < b` (an RFC 5147 range; a position selects nothing).
fn pair(rest: &str, scheme: &'static str) -> Result<(u64, u64), Invalid> {
    if rest.contains(';') {
        return Err(Invalid::IntegrityCheck { scheme });
    }
    let Some((a, b)) = rest.split_once(',') else {
        return Err(Invalid::Position {
            scheme,
            rest: rest.to_owned(),
        });
    };
    match (number(a), number(b)) {
        (Some(a), Some(b)) if a < b => Ok((a, b)),
        (Some(_), Some(_)) => Err(Invalid::EmptyFragmentRange {
            scheme,
            rest: rest.to_owned(),
        }),
        _ => Err(Invalid::FragmentNumbers {
            scheme,
            rest: rest.to_owned(),
        }),
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

fn decode_part(part: &str) -> Result<String, Invalid> {
    if part.is_empty() {
        return Err(Invalid::EmptyDirectivePart);
    }
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let byte = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| Invalid::PercentEncoding(part.to_owned()))?;
            out.push(byte);
            i += 3;
        } else if is_explicit_char(b) {
            out.push(b);
            i += 1;
        } else {
            return Err(Invalid::MustBeEncoded(
                char::from(b).escape_default().to_string(),
            ));
        }
    }
    String::from_utf8(out).map_err(|_| Invalid::NotUtf8(part.to_owned()))
}

/// `[prefix-,]start[,end][,-suffix]`, each part percent-decoded.
fn text_directive(rest: &str) -> Result<TextDirective, Invalid> {
    if rest.contains('&') {
        return Err(Invalid::SeveralDirectives);
    }
    let mut parts: Vec<&str> = rest.split(',').collect();
    let prefix = match parts.first().and_then(|p| p.strip_suffix('-')) {
        Some(p) if parts.len() > 1 => {
            let decoded = decode_part(p)?;
            parts.remove(0);
            Some(decoded)
        }
        _ => None,
    };
    let suffix = match parts.last().and_then(|s| s.strip_prefix('-')) {
        Some(s) if parts.len() > 1 => {
            let decoded = decode_part(s)?;
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
        _ => Err(Invalid::DirectiveShape(rest.to_owned())),
    }
}
