//! The profile's "normalized text" of a textual source (AI Evidence Format section): UTF-8,
//! every CRLF and lone CR turned into LF. Lines are the pieces between LFs, an empty piece after a
//! final LF not counting as a line. Also the exact substring search of AEF-L2-006/-008.

/// CRLF and lone CR become LF (the one definition, in the model: the §5 hash uses it too).
pub(crate) use citeproof_model::hash::normalize_line_endings;

/// The lines of normalized text.
pub(crate) fn lines(text: &str) -> Vec<&str> {
    let mut pieces: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') {
        pieces.pop();
    }
    pieces
}

/// AEF-L2-005 for `text/plain` and `text/markdown`: maximal runs of non-blank lines (a blank
/// line holds only SP and HTAB), each joined with LF.
pub(crate) fn paragraphs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in lines(text) {
        if line.bytes().all(|b| b == b' ' || b == b'\t') {
            if !current.is_empty() {
                out.push(current.join("\n"));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        out.push(current.join("\n"));
    }
    out
}

/// HTML whitespace collapsing (the last step of T(n)): every maximal run of ASCII whitespace
/// (TAB, LF, FF, CR, SP) becomes one SP, then one leading and one trailing SP are removed.
pub(crate) fn collapse_ascii_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_space = false;
    for c in text.chars() {
        if matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ') {
            if !in_space {
                out.push(' ');
                in_space = true;
            }
        } else {
            out.push(c);
            in_space = false;
        }
    }
    let trimmed = out.strip_prefix(' ').unwrap_or(&out);
    let trimmed = trimmed.strip_suffix(' ').unwrap_or(trimmed);
    trimmed.to_owned()
}

/// Byte offsets of every occurrence of `needle` in `haystack`, overlapping occurrences included
/// (`"aa"` occurs twice in `"aaa"`). Stops after `limit` occurrences. An empty needle has none.
pub(crate) fn occurrences(haystack: &str, needle: &str, limit: usize) -> Vec<usize> {
    let mut out = Vec::new();
    if needle.is_empty() {
        return out;
    }
    let mut from = 0;
    while from <= haystack.len() && out.len() < limit {
        match haystack.get(from..).and_then(|rest| rest.find(needle)) {
            Some(i) => {
                let at = from + i;
                out.push(at);
                // Next char boundary after `at`, so overlapping matches are found.
                from = at + haystack[at..].chars().next().map_or(1, char::len_utf8);
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_and_lines() {
        assert_eq!(normalize_line_endings("a\r\nb\rc\n"), "a\nb\nc\n");
        assert_eq!(lines("a\nb\n"), ["a", "b"]);
        assert_eq!(lines("a\nb"), ["a", "b"]);
        assert_eq!(lines("a\n\n"), ["a", ""]);
        assert_eq!(lines(""), [""]);
    }

    #[test]
    fn paragraphs_are_runs_of_non_blank_lines() {
        assert_eq!(paragraphs("a\nb\n\n \t\nc\n"), ["a\nb", "c"]);
        assert_eq!(paragraphs("\n\n"), Vec::<String>::new());
    }

    #[test]
    fn whitespace_collapse() {
        assert_eq!(collapse_ascii_whitespace("  a \t\n b  "), "a b");
        assert_eq!(collapse_ascii_whitespace("a\u{a0}b"), "a\u{a0}b");
    }

    #[test]
    fn overlapping_occurrences() {
        assert_eq!(occurrences("aaa", "aa", 10), [0, 1]);
        assert_eq!(occurrences("éaé", "é", 10), [0, 3]);
        assert_eq!(occurrences("abc", "", 10), Vec::<usize>::new());
    }
}
