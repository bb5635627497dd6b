//! Claim references in an answer (profile CHAIN-011).
//!
//! A bracket is `[`, then at most 256 characters none of which is `[` or `]`, then `]`. Its
//! content is split at `,` and `;` into items, each trimmed of spaces and tabs. An item **looks
//! like a claim id** when it is `H` or `H` followed by an ellipsis (two or more `.`, or `…`),
//! where `H` is a run of ASCII hex digits (either case), and at least one of:
//!
//! 1. `H` has 16 or more digits;
//! 2. an ellipsis follows and `H` has 4 or more digits (a truncated id: `[ce8a...]`);
//! 3. `H` has 6 or more digits, at least one decimal digit and at least one letter `a`-`f`
//!    (a short id: `[abc123]`).
//!
//! So `[1]`, `[12]`, `[2017]`, `[2017a]`, `[Smith et al., 2024]`, `[added]` and `[sic]` are not
//! references. Every item that looks like a claim id is a reference; it resolves only when it
//! is exactly 16 lowercase hex digits with no ellipsis and is a key of the response's `chains`.

/// Longest bracket content considered, in characters.
pub const MAX_BRACKET_CHARS: usize = 256;

/// One claim reference found in an answer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reference {
    /// The item as written (`ce8a...`).
    pub text: String,
    /// Offset of the bracket's `[` in the answer, in Unicode scalar values.
    pub offset: usize,
}

impl Reference {
    /// The claim id it names, when it is a complete id (16 lowercase hex digits).
    pub fn full_id(&self) -> Option<&str> {
        crate::id::is_claim_id(&self.text).then_some(self.text.as_str())
    }
}

/// `true` when an item of a bracket looks like a claim id (rules in the module docs).
pub fn looks_like_claim_id(item: &str) -> bool {
    let (hex, ellipsis) = if let Some(h) = item.strip_suffix('…') {
        (h, true)
    } else {
        let h = item.trim_end_matches('.');
        let dots = item.len() - h.len();
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

/// Every claim reference in `answer`, in order.
pub fn find_references(answer: &str) -> Vec<Reference> {
    let chars: Vec<char> = answer.chars().collect();
    let mut refs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '[' {
            i += 1;
            continue;
        }
        let close = chars[i + 1..]
            .iter()
            .take(MAX_BRACKET_CHARS + 1)
            .position(|c| *c == ']' || *c == '[');
        match close {
            Some(len) if chars[i + 1 + len] == ']' => {
                let content: String = chars[i + 1..i + 1 + len].iter().collect();
                for item in content.split([',', ';']) {
                    let item = item.trim_matches([' ', '\t']);
                    if looks_like_claim_id(item) {
                        refs.push(Reference {
                            text: item.to_owned(),
                            offset: i,
                        });
                    }
                }
                i += len + 2;
            }
            // No `]` before the next `[` (or within the bound): not a bracket.
            _ => i += 1,
        }
    }
    refs
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
        let long = format!("[abc123,{}]", "x".repeat(MAX_BRACKET_CHARS));
        assert_eq!(texts(&long), Vec::<String>::new());
        let offsets: Vec<usize> = find_references("é [abc123]")
            .iter()
            .map(|r| r.offset)
            .collect();
        assert_eq!(offsets, [2]);
    }
}
