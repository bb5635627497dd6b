//! The profile's text normalization `N(s)`, its tokens and the deterministic support rule
//! ([`support`]; docs/PROFILE.md, "ACA Level 2", support check), used by the ACA support and relevance checks (ACA-L2-018/019), the claims
//! in-response binding (ACA-L2-021, with the markdown text model of [`markdown`]) and the archive
//! display filter (ARCHIVE-021). One
//! definition, so that the specs cannot drift apart.
//!
//! Unicode data comes from ICU4X (full case folding, General_Category, White_Space) and
//! `unicode-normalization` (NFC); ASCII text takes a fast path with the same result.

pub mod markdown;
pub mod support;

pub use markdown::markdown_text;

use icu_casemap::CaseMapper;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup, WhiteSpace};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_normalization::UnicodeNormalization;

/// `N(s)`: NFC, full case folding, NFC, White_Space runs collapsed to one space and trimmed.
pub fn normalize(s: &str) -> String {
    if s.is_ascii() {
        // Same result for ASCII: NFC is the identity, full case folding is ASCII lowercase, and
        // the ASCII White_Space characters are \t \n \v \f \r and space. Byte by byte.
        let mut out = Vec::with_capacity(s.len());
        let mut in_space = false;
        for &b in s.as_bytes() {
            if matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ') {
                in_space = true;
            } else {
                if in_space && !out.is_empty() {
                    out.push(b' ');
                }
                in_space = false;
                out.push(b.to_ascii_lowercase());
            }
        }
        // ASCII in, ASCII out: always UTF-8.
        return String::from_utf8(out).unwrap_or_default();
    }
    let nfc: String = s.nfc().collect();
    let folded = CaseMapper::new().fold_string(&nfc).into_owned();
    let ws = CodePointSetData::new::<WhiteSpace>();
    collapse(folded.nfc(), folded.len(), |c| ws.contains(c))
}

/// The characters of `chars` with each run of `is_space` ones collapsed to one space, none at
/// either end.
pub(crate) fn collapse(
    chars: impl Iterator<Item = char>,
    capacity: usize,
    is_space: impl Fn(char) -> bool,
) -> String {
    let mut out = String::with_capacity(capacity);
    let mut in_space = false;
    for c in chars {
        if is_space(c) {
            in_space = true;
        } else {
            if in_space && !out.is_empty() {
                out.push(' ');
            }
            in_space = false;
            out.push(c);
        }
    }
    out
}

/// Whether `c` is a token character: General_Category L*, M* or N*.
pub fn is_token_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    GeneralCategoryGroup::Letter.contains(gc)
        || GeneralCategoryGroup::Mark.contains(gc)
        || GeneralCategoryGroup::Number.contains(gc)
}

/// Tokens of an already normalized string: maximal runs of token characters.
pub fn split_tokens(normalized: &str) -> Vec<String> {
    token_spans(normalized).map(|(_, t)| t.to_owned()).collect()
}

/// The tokens of an already normalized string with the byte offset of each, without copying
/// them.
pub fn token_spans(normalized: &str) -> TokenSpans<'_> {
    TokenSpans {
        text: normalized,
        pos: 0,
    }
}

/// Iterator of [`token_spans`].
#[derive(Debug, Clone)]
pub struct TokenSpans<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for TokenSpans<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let start = self.boundary(self.pos, true)?;
        let end = self.boundary(start, false).unwrap_or(self.text.len());
        self.pos = end;
        Some((start, self.text.get(start..end)?))
    }
}

impl TokenSpans<'_> {
    /// The first character boundary at or after `from` whose character is (`token`) or is not
    /// a token character. ASCII bytes are classified without decoding.
    fn boundary(&self, from: usize, token: bool) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut i = from;
        while let Some(&b) = bytes.get(i) {
            let (is_token, len) = if b.is_ascii() {
                (b.is_ascii_alphanumeric(), 1)
            } else {
                let c = self.text.get(i..)?.chars().next()?;
                (is_token_char(c), c.len_utf8())
            };
            if is_token == token {
                return Some(i);
            }
            i += len;
        }
        None
    }
}

/// Tokens of `N(s)`.
pub fn tokens(s: &str) -> Vec<String> {
    split_tokens(&normalize(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn normalization_by_hand() {
        // NFC of "e" + U+0301 is "é"; "ß" folds to "ss"; "ΣΑΣ" folds to "σασ" (full folding
        // has no final-sigma context); U+00A0 and U+2003 are White_Space.
        assert_eq!(
            normalize("  Cafe\u{301}\u{a0}STRAßE\u{2003}\t"),
            "café strasse"
        );
        assert_eq!(normalize("ΣΑΣ"), "σασ");
        assert_eq!(normalize("A\r\n\u{b}\u{c}B "), "a b");
        // U+001F is not White_Space (Python's str.isspace says otherwise).
        assert_eq!(normalize("a\u{1f}b"), "a\u{1f}b");
        assert_eq!(normalize(""), "");
    }

    #[test]
    fn tokens_fold_case_and_split_on_punctuation() {
        assert_eq!(
            tokens("The HARBOUR froze—solid, in 1963!"),
            ["the", "harbour", "froze", "solid", "in", "1963"]
        );
        assert_eq!(tokens("Straße"), ["strasse"]);
        // Marks stay inside a token (U+0301 survives only where NFC has no composite).
        assert_eq!(tokens("q\u{301}x y"), ["q\u{301}x", "y"]);
    }

    #[test]
    fn ascii_fast_path_agrees_with_the_unicode_path() {
        for s in ["  Hello\tWorld \r\n", "A\u{b}B\u{c}C", "", "   "] {
            let nfc: String = s.nfc().collect();
            let folded = CaseMapper::new().fold_string(&nfc);
            let slow = collapse(folded.chars(), 0, |c| {
                CodePointSetData::new::<WhiteSpace>().contains(c)
            });
            assert_eq!(normalize(s), slow, "{s:?}");
        }
    }

    proptest! {
        // Token spans are the pieces of the definition (split at non-token characters, empty
        // pieces dropped), at their offsets.
        #[test]
        fn token_spans_are_the_split_pieces(s in "[a-zA-Z0-9 .,'\u{e9}\u{301}\u{2019}\u{3000}\u{1d7d8}-]{0,30}") {
            let pieces: Vec<&str> = s.split(|c: char| !is_token_char(c)).filter(|t| !t.is_empty()).collect();
            let spans: Vec<(usize, &str)> = token_spans(&s).collect();
            prop_assert_eq!(spans.iter().map(|(_, t)| *t).collect::<Vec<_>>(), pieces);
            for (at, t) in spans {
                prop_assert_eq!(s.get(at..at + t.len()), Some(t));
            }
        }

        // The ASCII fast path agrees with the Unicode path it shortcuts: the same text with a
        // non-ASCII token character appended, which neither path touches, then removed.
        #[test]
        fn ascii_fast_path_agrees(s in "[ -~\t\n\r\u{b}\u{c}]{0,40}") {
            let fast = normalize(&s);
            let slow = normalize(&format!("{s}\u{e9}"));
            let slow = slow.strip_suffix('\u{e9}').unwrap_or(&slow).trim_end().to_owned();
            prop_assert_eq!(fast.trim_end(), slow);
        }
    }
}
