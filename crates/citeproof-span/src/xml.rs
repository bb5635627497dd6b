//! XML for the `xpath` selector (AEF-L2-007): namespace-well-formed XML 1.0 parsed by
//! `roxmltree`, which never loads external entities. A document type declaration whose internal
//! subset declares entities is refused before parsing, so no entity expansion (billion laughs,
//! quadratic blowup) can happen.

use roxmltree::{Document, ParsingOptions};

/// Why a body is not XML the profile reads (`aef-source-unparseable`).
#[derive(Debug, thiserror::Error)]
pub enum XmlError {
    /// A document type declaration declares entities.
    #[error("the document type declaration declares entities, which are refused")]
    DeclaresEntities,
    /// Not namespace-well-formed XML 1.0.
    #[error("not well-formed XML: {0}")]
    NotWellFormed(roxmltree::Error),
}

/// Parses `text` under the profile's rules.
pub fn parse(text: &str) -> Result<Document<'_>, XmlError> {
    if declares_entities(text) {
        return Err(XmlError::DeclaresEntities);
    }
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(text, options).map_err(XmlError::NotWellFormed)
}

/// Whether the prolog has a `<!DOCTYPE` whose internal subset contains an `<!ENTITY`
/// declaration (comments, processing instructions and quoted literals are skipped, so the word
/// inside them does not count).
fn declares_entities(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    // Prolog: XML declaration, comments, PIs, whitespace, then DOCTYPE or the root element.
    loop {
        while b
            .get(i)
            .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
        {
            i += 1;
        }
        if b[i..].starts_with(b"\xEF\xBB\xBF") {
            i += 3;
            continue;
        }
        match skip_pi_or_comment(b, i) {
            Some(Some(end)) => i = end,
            Some(None) => return false,
            None if b[i..].starts_with(b"<!DOCTYPE") => {
                return doctype_declares_entities(b, i + 9);
            }
            None => return false,
        }
    }
}

/// At `i`, a processing instruction or a comment: `Some(Some(end))` with the index past it,
/// `Some(None)` when it is not closed; `None` when `i` starts neither.
fn skip_pi_or_comment(b: &[u8], i: usize) -> Option<Option<usize>> {
    let (open, close): (usize, &[u8]) = if b[i..].starts_with(b"<?") {
        (2, b"?>")
    } else if b[i..].starts_with(b"<!--") {
        (4, b"-->")
    } else {
        return None;
    };
    Some(find(b, i + open, close).map(|end| end + close.len()))
}

/// From `i`, the first byte of `stops` outside quoted literals, with its index; `None` at the
/// end of the input or in a literal that is not closed.
fn scan_to(b: &[u8], mut i: usize, stops: &[u8]) -> Option<(usize, u8)> {
    loop {
        match b.get(i) {
            None => return None,
            Some(&c) if stops.contains(&c) => return Some((i, c)),
            Some(&q @ (b'"' | b'\'')) => {
                i += b[i + 1..].iter().position(|&c| c == q)? + 2;
            }
            Some(_) => i += 1,
        }
    }
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

fn doctype_declares_entities(b: &[u8], mut i: usize) -> bool {
    // Name and external id, up to `[` or `>`.
    match scan_to(b, i, b"[>") {
        Some((at, b'[')) => i = at + 1,
        _ => return false,
    }
    // Internal subset.
    loop {
        match b.get(i) {
            None | Some(b']') => return false,
            Some(b' ' | b'\t' | b'\r' | b'\n') => i += 1,
            Some(b'%') => i += 1,
            Some(b'<') => match skip_pi_or_comment(b, i) {
                Some(Some(end)) => i = end,
                Some(None) => return false,
                None if b[i..].starts_with(b"<!ENTITY") => return true,
                None => {
                    // Another markup declaration: skip to its `>`, quoted literals included.
                    match scan_to(b, i + 1, b">") {
                        Some((at, _)) => i = at + 1,
                        None => return false,
                    }
                }
            },
            Some(_) => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_declarations_are_detected() {
        assert!(declares_entities(
            "<?xml version='1.0'?><!DOCTYPE a [<!ENTITY x 'y'>]><a>&x;</a>"
        ));
        assert!(declares_entities(
            "<!-- c --><!DOCTYPE a [<!ELEMENT a ANY><!ATTLIST a b CDATA '>'>\n<!ENTITY % p 'q'>]><a/>"
        ));
        assert!(!declares_entities(
            "<!DOCTYPE a [<!-- <!ENTITY x 'y'> --><!ELEMENT a ANY>]><a/>"
        ));
        assert!(!declares_entities(
            "<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0 Strict//EN' 'http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd'><html/>"
        ));
        assert!(!declares_entities("<a><!DOCTYPE b [<!ENTITY x 'y'>]></a>"));
    }

    #[test]
    fn parse_refuses_entities_and_bad_xml() {
        assert!(parse("<a>ok</a>").is_ok());
        assert!(parse("<!DOCTYPE a [<!ELEMENT a ANY>]><a>ok</a>").is_ok());
        assert!(parse("<!DOCTYPE a [<!ENTITY x 'y'>]><a>&x;</a>").is_err());
        assert!(parse("<a><b></a>").is_err());
        assert!(
            parse("<p:a/>").is_err(),
            "unbound prefix: not namespace-well-formed"
        );
        assert!(parse("<a>&nbsp;</a>").is_err());
    }
}
