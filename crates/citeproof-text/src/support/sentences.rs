//! The support check's text model (profile, "ACA Level 2", support check): `D(s)` (NFKC, default
//! ignorable code points removed), its sentences, and `K` of each sentence (NFKC of its case
//! folding, White_Space collapsed). Negation, numbers and quantifiers are judged sentence by
//! sentence on this form, so that compatibility forms, invisible characters and a neighbouring
//! sentence cannot change a verdict.

use icu_casemap::CaseMapper;
use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory, WhiteSpace};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_normalization::UnicodeNormalization;

/// Sentence terminators after NFKC (U+FF0E, U+FF01, U+FF1F and U+FF61 become these).
const TERMINALS: &[char] = &['.', '!', '?', '\u{3002}'];
/// Closing marks that may follow a terminator and stay in its sentence.
const CLOSERS: &[char] = &['"', '\'', ')', ']', '\u{2019}', '\u{201d}', '\u{bb}'];

fn is_white_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ');
    }
    CodePointSetData::new::<WhiteSpace>().contains(c)
}

/// Default_Ignorable_Code_Point (DerivedCoreProperties.txt): never ASCII.
pub fn is_default_ignorable(c: char) -> bool {
    !c.is_ascii() && CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
}

fn is_lowercase_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_lowercase();
    }
    CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::LowercaseLetter
}

/// Whether `c` is a decimal digit of any script (General_Category Nd).
pub fn is_decimal_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::DecimalNumber
}

/// The value of a decimal digit of any script. Unicode's stability policy assigns Nd characters
/// only in contiguous runs of ten, from 0 to 9, so the value is the distance to the start of
/// the run of Nd code points modulo ten (adjacent runs, such as the mathematical digits,
/// are multiples of ten long).
pub fn decimal_value(c: char) -> Option<u32> {
    if c.is_ascii() {
        return c.to_digit(10);
    }
    if !is_decimal_digit(c) {
        return None;
    }
    let mut start = u32::from(c);
    while let Some(prev) = start.checked_sub(1).and_then(char::from_u32)
        && is_decimal_digit(prev)
    {
        start -= 1;
    }
    Some((u32::from(c) - start) % 10)
}

/// The bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069): default
/// ignorable, but they change the order in which a reader sees the letters (U+202E + "ton"
/// reads "not"), so `D` keeps them and a claim sentence holding one must be quoted verbatim.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `D(s)`: NFKC, then every Default_Ignorable_Code_Point that is not a bidirectional control
/// removed. ASCII text is its own D.
pub fn compat(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.nfkc()
            .filter(|c| is_bidi_control(*c) || !is_default_ignorable(*c))
            .collect(),
    )
}

/// `K(p)` of a piece of `D(s)`: NFKC of its full case folding, White_Space runs collapsed to
/// one space and trimmed.
pub fn fold(piece: &str) -> String {
    if piece.is_ascii() {
        return crate::normalize(piece);
    }
    let folded = CaseMapper::new().fold_string(piece).into_owned();
    crate::collapse(folded.nfkc(), folded.len(), is_white_space)
}

/// `D(s)` cut into sentences, as byte ranges of `d`: after a run of terminators (and the
/// closing marks after it) that ends the text, contains U+3002, or is followed by White_Space
/// and then a character that is not a lowercase letter (Ll); and at a White_Space run that
/// holds two line feeds or a U+2029. Pieces may be empty or hold no token.
pub fn pieces(d: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = d.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_white_space(c) {
            let mut line_feeds = usize::from(c == '\n');
            let mut paragraph = c == '\u{2029}';
            let mut end = i + c.len_utf8();
            while let Some(&(j, w)) = chars.peek().filter(|(_, w)| is_white_space(*w)) {
                line_feeds += usize::from(w == '\n');
                paragraph |= w == '\u{2029}';
                end = j + w.len_utf8();
                chars.next();
            }
            if line_feeds >= 2 || paragraph {
                out.push((start, i));
                start = end;
            }
            continue;
        }
        if !TERMINALS.contains(&c) {
            continue;
        }
        let mut ideographic = c == '\u{3002}';
        let mut end = i + c.len_utf8();
        while let Some(&(j, t)) = chars.peek().filter(|(_, t)| TERMINALS.contains(t)) {
            ideographic |= t == '\u{3002}';
            end = j + t.len_utf8();
            chars.next();
        }
        while let Some(&(j, t)) = chars.peek().filter(|(_, t)| CLOSERS.contains(t)) {
            end = j + t.len_utf8();
            chars.next();
        }
        // What follows: end of text, or White_Space and then the next character.
        let rest = d.get(end..).unwrap_or_default();
        let after = rest.trim_start_matches(is_white_space);
        let spaced = after.len() < rest.len();
        let breaks = ideographic
            || rest.is_empty()
            || (spaced && !after.chars().next().is_some_and(is_lowercase_letter));
        if breaks {
            out.push((start, end));
            start = end;
        }
    }
    out.push((start, d.len()));
    out
}

/// The sentences of `s`: `K` of each piece of `D(s)` that holds at least one token, in order.
pub fn sentences(s: &str) -> Vec<String> {
    let d = compat(s);
    pieces(&d)
        .into_iter()
        .filter_map(|(a, b)| d.get(a..b))
        .map(fold)
        .filter(|k| crate::token_spans(k).next().is_some())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_by_hand() {
        // "E.g." and "U.S." are followed by a lowercase word or no space: no break. "list." is
        // followed by "Next": a break. '"Quoted."' keeps its closing quote. Two line feeds end
        // a paragraph without a terminator.
        assert_eq!(
            sentences("E.g. the U.S. list. Next one!  \"Quoted.\" Then\n\nno stop"),
            [
                "e.g. the u.s. list.",
                "next one!",
                "\"quoted.\"",
                "then",
                "no stop"
            ]
        );
        // One line feed is a wrapped line, not a break; a decimal point is not a terminator.
        assert_eq!(
            sentences("Latency rose by 3.5\nseconds. 2 pages."),
            ["latency rose by 3.5 seconds.", "2 pages."]
        );
        // U+3002 ends a sentence with no space after it; U+FF0E is "." after NFKC. A piece
        // without a token ("...") is no sentence.
        assert_eq!(sentences("一つ。二つ．  ... 三"), ["一つ。", "二つ.", "三"]);
        // U+2029 separates paragraphs; CR LF CR LF holds two line feeds.
        assert_eq!(sentences("a\u{2029}b\r\n\r\nc"), ["a", "b", "c"]);
    }

    #[test]
    fn compatibility_forms_and_invisible_characters_are_removed() {
        // Fullwidth letters and digits, mathematical bold, the soft hyphen, a zero-width space
        // and a variation selector.
        assert_eq!(
            sentences("ＡＴ MOST ２ 𝐧𝐨𝐭 no\u{ad}t n\u{200b}ot not\u{fe0f}"),
            ["at most 2 not not not not"]
        );
        // NFKC of the case folding: "ﬁ" is "fi", "Ⅻ" is "xii", "½" is "1⁄2".
        assert_eq!(sentences("ﬁle Ⅻ ½"), ["file xii 1⁄2"]);
    }

    #[test]
    fn decimal_values_in_every_script() {
        // Hand values: ARABIC-INDIC DIGIT THREE, EXTENDED ARABIC-INDIC DIGIT SEVEN, DEVANAGARI
        // DIGIT NINE, BENGALI DIGIT FOUR, FULLWIDTH DIGIT ONE, MATHEMATICAL BOLD DIGIT EIGHT,
        // MATHEMATICAL MONOSPACE DIGIT ZERO (the last of five adjacent runs of ten).
        for (c, v) in [
            ('\u{663}', 3),
            ('\u{6f7}', 7),
            ('\u{96f}', 9),
            ('\u{9ea}', 4),
            ('\u{ff11}', 1),
            ('\u{1d7d6}', 8),
            ('\u{1d7f6}', 0),
            ('7', 7),
        ] {
            assert_eq!(decimal_value(c), Some(v), "{c:?}");
        }
        assert_eq!(decimal_value('x'), None);
        assert_eq!(decimal_value('\u{bd}'), None); // ½ is No, not Nd
    }

    /// The stability policy the value rests on: every maximal run of Nd code points is a
    /// multiple of ten long and starts at a character whose NFKD is not a digit other than 0.
    #[test]
    fn decimal_digits_come_in_runs_of_ten() {
        let mut run = 0u32;
        for cp in 0..=0x10FFFFu32 {
            let nd = char::from_u32(cp).is_some_and(is_decimal_digit);
            if nd {
                run += 1;
            } else {
                assert_eq!(run % 10, 0, "run ending before U+{cp:04X}");
                run = 0;
            }
        }
    }

    /// The profile's list of Default_Ignorable_Code_Point ranges (Unicode 16.0, as written in
    /// vectors/tools/aca_support.py) is ICU4X's property.
    #[test]
    fn default_ignorable_ranges_are_the_profiles() {
        let ranges: &[(u32, u32)] = &[
            (0x00AD, 0x00AD),
            (0x034F, 0x034F),
            (0x061C, 0x061C),
            (0x115F, 0x1160),
            (0x17B4, 0x17B5),
            (0x180B, 0x180F),
            (0x200B, 0x200F),
            (0x202A, 0x202E),
            (0x2060, 0x206F),
            (0x3164, 0x3164),
            (0xFE00, 0xFE0F),
            (0xFEFF, 0xFEFF),
            (0xFFA0, 0xFFA0),
            (0xFFF0, 0xFFF8),
            (0x1BCA0, 0x1BCA3),
            (0x1D173, 0x1D17A),
            (0xE0000, 0xE0FFF),
        ];
        for cp in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(cp) else {
                continue;
            };
            let listed = ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&cp));
            assert_eq!(is_default_ignorable(c), listed, "U+{cp:04X}");
        }
    }
}
