//! Bracketed items of an answer (profile CHAIN-011, CHAIN-019).
//!
//! A bracket is an opening bracket (a character whose NFKC form is `[`: `[`, U+FF3B, U+FE47),
//! then any characters none of which is an opening or closing bracket, then a closing bracket
//! (NFKC form `]`). There is no length bound: a long bracket is examined like a short one. Its
//! content is split into items at every character whose NFKC form is `,` or `;`.
//!
//! Each item is judged on its **skeleton**: the NFKC form of the item with every character of
//! General_Category Cc (controls, line feeds and tabs included) or Cf (format characters: zero
//! width spaces and joiners, the byte order mark, bidirectional controls, soft hyphens) removed,
//! and the characters of General_Category Zs, Zl and Zp trimmed from both ends. So a newline, a
//! non-breaking or zero-width space, fullwidth digits or an ellipsis character change nothing
//! in how an item is classified. An item whose skeleton is empty is ignored (`[]`, `[ ]`).
//!
//! An item is a **claim reference** when its skeleton is `H` or `H` followed by two or more `.`,
//! where `H` is a run of ASCII hex digits (either case), and at least one of:
//!
//! 1. `H` has 16 or more digits;
//! 2. dots follow and `H` has 4 or more digits (a truncated id: `[ce8a...]`, `[ce8a…]`);
//! 3. `H` has 6 or more digits, at least one decimal digit and at least one letter `a`-`f`
//!    (a short id: `[abc123]`).
//!
//! A claim reference resolves only when the item **as written** (with leading and trailing
//! U+0020 and U+0009 removed, nothing else) is exactly 16 lowercase hex digits and is a key of
//! the response's `chains`. Every other item is text (`[1]`, `[2017]`, `[Smith et al., 2024]`,
//! `[sic]`): never a citation, reported as a warning (CHAIN-019).

use icu_properties::CodePointMapData;
use icu_properties::props::GeneralCategory;
use unicode_normalization::UnicodeNormalization;

/// One bracketed item of an answer that is not empty.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Item {
    /// The item as written, with leading and trailing spaces and tabs removed.
    pub text: String,
    /// Offset of the bracket's opening character in the answer, in Unicode scalar values.
    pub offset: usize,
    /// The skeleton's shape makes it a claim reference (module docs).
    pub is_reference: bool,
}

/// A claim reference (an [`Item`] with `is_reference`).
pub type Reference = Item;

impl Item {
    /// The claim id it names, when it is written exactly as one (16 lowercase hex digits).
    pub fn full_id(&self) -> Option<&str> {
        crate::id::is_claim_id(&self.text).then_some(self.text.as_str())
    }

    /// The item as written, with every character that is not printable ASCII shown as
    /// `\u{XXXX}`, so that what a person reads is what was judged.
    pub fn escaped(&self) -> String {
        escape(&self.text)
    }
}

/// `s` with every character outside U+0020..U+007E written `\u{XXXX}`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:04X}}}", u32::from(c)));
        }
    }
    out
}

/// `s` with every character of General_Category Cc, Cf, Zl or Zp written `\u{XXXX}` and
/// everything else kept: for lines a person reads, so that a line break, a bidirectional
/// override or a terminal escape taken from a document cannot forge or hide a line.
pub fn escape_invisible(s: &str) -> String {
    let gc = CodePointMapData::<GeneralCategory>::new();
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match gc.get(c) {
            GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator => {
                out.push_str(&format!("\\u{{{:04X}}}", u32::from(c)));
            }
            _ => out.push(c),
        }
    }
    out
}

/// `true` when the NFKC form of `c` is `target`, an ASCII character that is no composite (`[`,
/// `]`, `,`, `;`): then NFKC(c) is `target` exactly when the compatibility decomposition of
/// `c` is, which is much cheaper to compute on every character of a long answer.
fn nfkc_is(c: char, target: char) -> bool {
    if c.is_ascii() {
        return c == target;
    }
    let mut count = 0;
    let mut only_target = true;
    unicode_normalization::char::decompose_compatible(c, |d| {
        count += 1;
        only_target &= d == target;
    });
    count == 1 && only_target
}

fn is_open(c: char) -> bool {
    nfkc_is(c, '[')
}

fn is_close(c: char) -> bool {
    nfkc_is(c, ']')
}

fn is_separator(c: char) -> bool {
    nfkc_is(c, ',') || nfkc_is(c, ';')
}

/// The skeleton of an item (module docs).
pub fn skeleton(item: &str) -> String {
    let gc = CodePointMapData::<GeneralCategory>::new();
    let kept: String = item
        .nfkc()
        .filter(|c| {
            !matches!(
                gc.get(*c),
                GeneralCategory::Control | GeneralCategory::Format
            )
        })
        .collect();
    let space = |c: char| {
        matches!(
            gc.get(c),
            GeneralCategory::SpaceSeparator
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
    };
    kept.trim_matches(space).to_owned()
}

/// `true` when a skeleton has the shape of a claim id (rules in the module docs).
pub fn looks_like_claim_id(skeleton: &str) -> bool {
    let (hex, ellipsis) = if let Some(h) = skeleton.strip_suffix('…') {
        (h, true)
    } else {
        let h = skeleton.trim_end_matches('.');
        let dots = skeleton.len() - h.len();
        if dots == 1 {
            return false;
        }
        (h, dots >= 2)
    };
    if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let has_digit = hex.bytes().any(|b| b.is_ascii_digit());
    let has_letter = hex.bytes().any(|b| b.is_ascii_alphabetic());
    hex.len() >= 16 || (ellipsis && hex.len() >= 4) || (hex.len() >= 6 && has_digit && has_letter)
}

/// Calls `visit` with every non-empty bracketed item of `answer`, in order, without keeping
/// them: linear in the answer's length (each character is looked at about once) and using
/// memory for one item at a time.
pub fn for_each_item(answer: &str, mut visit: impl FnMut(Item)) {
    // `pos` is a byte offset of `answer`, `offset` the same position in Unicode scalar values.
    let (mut pos, mut offset) = (0, 0);
    while let Some(c) = answer[pos..].chars().next() {
        if !is_open(c) {
            pos += c.len_utf8();
            offset += 1;
            continue;
        }
        let start = pos + c.len_utf8();
        let mut inner = 0;
        let mut stop = None;
        for (at, d) in answer[start..].char_indices() {
            if is_open(d) || is_close(d) {
                stop = Some((start + at, d));
                break;
            }
            inner += 1;
        }
        match stop {
            Some((end, d)) if is_close(d) => {
                for raw in answer[start..end].split(is_separator) {
                    let shape = skeleton(raw);
                    if shape.is_empty() {
                        continue;
                    }
                    visit(Item {
                        text: raw.trim_matches([' ', '\t']).to_owned(),
                        offset,
                        is_reference: looks_like_claim_id(&shape),
                    });
                }
                pos = end + d.len_utf8();
                offset += inner + 2;
            }
            // Another opening bracket before a closing one: this one opens no bracket, and
            // nothing before the next one can.
            Some((next_open, _)) => {
                pos = next_open;
                offset += inner + 1;
            }
            // No bracket character up to the end: no bracket.
            None => return,
        }
    }
}

/// Every non-empty bracketed item of `answer`, in order ([`for_each_item`]).
pub fn find_items(answer: &str) -> Vec<Item> {
    let mut items = Vec::new();
    for_each_item(answer, |item| items.push(item));
    items
}

/// Every claim reference in `answer`, in order.
pub fn find_references(answer: &str) -> Vec<Reference> {
    find_items(answer)
        .into_iter()
        .filter(|i| i.is_reference)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(answer: &str) -> Vec<String> {
        find_references(answer)
            .into_iter()
            .map(|r| r.text)
            .collect()
    }

    #[test]
    fn the_seed_answer() {
        // seeds/004, "Chains and LLM agents".
        let answer = "The Transformer architecture was introduced in 2017 [ad17e76a8baad7a1]. \
                      It uses self-attention [ad17e76a8baad7a1] and is the substrate of GPT-4 [ce8a...].";
        assert_eq!(
            texts(answer),
            ["ad17e76a8baad7a1", "ad17e76a8baad7a1", "ce8a..."]
        );
    }

    #[test]
    fn what_looks_like_a_claim_id() {
        for yes in [
            "ad17e76a8baad7a1",
            "AD17E76A8BAAD7A1",
            "ad17e76a8baad7a1f",
            "1234567890123456",
            "ce8a...",
            "ce8a…",
            "ce8a..",
            "2017...",
            "abc123",
            "ad17e76a",
            "deadbeefdeadbeef",
        ] {
            assert!(looks_like_claim_id(yes), "{yes}");
        }
        for no in [
            "1",
            "12",
            "2017",
            "2017a",
            "12345678",
            "added",
            "deadbeef",
            "sic",
            "ce8",
            "ce8a",
            "ce8a.",
            "abc12",
            "Smith et al.",
            "ab-123",
            "",
            "...",
            "ce8a....x",
            "ACE 2020",
        ] {
            assert!(!looks_like_claim_id(no), "{no}");
        }
    }

    #[test]
    fn brackets_and_items() {
        assert_eq!(
            texts("see [Smith et al., 2024] and [1], [2017]"),
            Vec::<String>::new()
        );
        assert_eq!(
            texts("two [ad17e76a8baad7a1, ce8a…; 1] refs"),
            ["ad17e76a8baad7a1", "ce8a…"]
        );
        assert_eq!(texts("nested [a [abc123] b]"), ["abc123"]);
        assert_eq!(texts("unclosed [abc123"), Vec::<String>::new());
        let offsets: Vec<usize> = find_references("é [abc123]")
            .iter()
            .map(|r| r.offset)
            .collect();
        assert_eq!(offsets, [2]);
        // Ordinary brackets are items too, just not references.
        let items = find_items("[1] [sic] [] [ ] [ACE 2020]");
        let text: Vec<(&str, bool)> = items
            .iter()
            .map(|i| (i.text.as_str(), i.is_reference))
            .collect();
        assert_eq!(text, [("1", false), ("sic", false), ("ACE 2020", false)]);
    }

    #[test]
    fn invisible_and_compatibility_characters_do_not_hide_a_reference() {
        for (answer, written) in [
            ("x [abc123\n] y", "abc123\n"),
            ("x [\u{a0}abc123] y", "\u{a0}abc123"),
            ("x [abc\u{200b}123] y", "abc\u{200b}123"),
            ("x [0123456789abcdef\u{feff}] y", "0123456789abcdef\u{feff}"),
            ("x [ａｂｃ１２３] y", "ａｂｃ１２３"),
            ("x ［abc123］ y", "abc123"),
            ("x [ce8a\u{2026}] y", "ce8a\u{2026}"),
            ("x [ad17e76a8baad7a1\u{2060}] y", "ad17e76a8baad7a1\u{2060}"),
        ] {
            let refs = find_references(answer);
            assert_eq!(refs.len(), 1, "{answer:?}");
            assert_eq!(refs[0].text, written);
            assert_eq!(refs[0].full_id(), None, "{answer:?} is not written exactly");
        }
        // More than 256 characters: still examined.
        let long = format!("x [{}] y", "ab12".repeat(80));
        assert_eq!(find_references(&long).len(), 1);
        // Exactly an id, with plain spaces around it: resolvable.
        let refs = find_references("[ ad17e76a8baad7a1 ]");
        assert_eq!(refs[0].full_id(), Some("ad17e76a8baad7a1"));
        assert_eq!(
            refs.iter().map(Item::escaped).collect::<Vec<_>>(),
            ["ad17e76a8baad7a1"]
        );
        assert_eq!(escape("a\u{200b}b\n"), "a\\u{200B}b\\u{000A}");
        assert_eq!(
            escape_invisible("é — x\n\u{1b}[2J\u{202e}"),
            "é — x\\u{000A}\\u{001B}[2J\\u{202E}"
        );
    }

    #[test]
    fn bracket_and_separator_characters_are_those_whose_nfkc_form_is_one() {
        let mut found = std::collections::BTreeMap::new();
        for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
            let n: String = std::iter::once(c).nfkc().collect();
            for target in ['[', ']', ',', ';'] {
                assert_eq!(nfkc_is(c, target), n == target.to_string(), "{c:?}");
                if n == target.to_string() {
                    found
                        .entry(target)
                        .or_insert_with(Vec::new)
                        .push(u32::from(c));
                }
            }
        }
        // Python 3.11 unicodedata (Unicode 14): the same sets.
        assert_eq!(found[&'['], [0x5B, 0xFE47, 0xFF3B]);
        assert_eq!(found[&']'], [0x5D, 0xFE48, 0xFF3D]);
        assert_eq!(found[&','], [0x2C, 0xFE10, 0xFE50, 0xFF0C]);
        assert_eq!(found[&';'], [0x3B, 0x37E, 0xFE14, 0xFE54, 0xFF1B]);
    }

    #[test]
    fn scanning_is_linear_on_hostile_bracket_runs() {
        let many_open = "[".repeat(200_000);
        assert!(find_items(&many_open).is_empty());
        let unclosed = format!("[{}", "a".repeat(200_000)).repeat(4);
        assert!(find_items(&unclosed).is_empty());
    }
}
