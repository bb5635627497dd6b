//! The content-addressed claim id (profile CHAIN-002), as the producer computes it:
//! the first 16 lowercase hex digits of SHA-256 over the UTF-8 bytes of
//! `vertical|subject|predicate|object`, each field trimmed as ECMAScript
//! `String.prototype.trim` trims and lowercased as ECMAScript `String.prototype.toLowerCase`
//! lowercases.

use sha2::{Digest, Sha256};

/// Length of a claim id in hex digits.
pub const CLAIM_ID_LEN: usize = 16;

/// `true` for 16 lowercase hex digits.
pub fn is_claim_id(s: &str) -> bool {
    s.len() == CLAIM_ID_LEN && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// ECMAScript `WhiteSpace` and `LineTerminator` (ECMA-262 §12.2, §12.3): TAB, VT, FF, ZWNBSP
/// (U+FEFF), every `Zs` character, LF, CR, LS, PS. Not Rust's `char::is_whitespace`, which
/// includes U+0085 and excludes U+FEFF.
pub fn is_ecmascript_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// ECMAScript `String.prototype.trim`.
pub fn ecmascript_trim(s: &str) -> &str {
    s.trim_matches(is_ecmascript_whitespace)
}

/// ECMAScript `String.prototype.toLowerCase`: the Unicode full default lowercase mapping
/// (`SpecialCasing.txt` included: `İ` becomes `i̇`), with the `Final_Sigma` context (`Σ` at the
/// end of a word becomes `ς`). Rust's `str::to_lowercase` implements the same definition.
pub fn ecmascript_to_lower(s: &str) -> String {
    s.to_lowercase()
}

/// The text that is hashed: the four fields normalized and joined with `|`.
pub fn id_input(vertical: &str, subject: &str, predicate: &str, object: &str) -> String {
    [vertical, subject, predicate, object]
        .iter()
        .map(|f| ecmascript_to_lower(ecmascript_trim(f)))
        .collect::<Vec<_>>()
        .join("|")
}

/// The claim id of these four fields.
pub fn claim_id(vertical: &str, subject: &str, predicate: &str, object: &str) -> String {
    let digest = Sha256::digest(id_input(vertical, subject, predicate, object).as_bytes());
    let mut hex = hex::encode(digest);
    hex.truncate(CLAIM_ID_LEN);
    hex
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_example_id() {
        // seeds/004: "id": "ad17e76a8baad7a1" for this claim.
        assert_eq!(
            claim_id(
                "ai-ml",
                "Transformer architecture",
                "introduced_in_paper",
                "Attention Is All You Need (Vaswani et al., 2017)"
            ),
            "ad17e76a8baad7a1"
        );
        // Case and surrounding white space do not change the id.
        assert_eq!(
            claim_id(
                " AI-ML\u{feff}",
                "\u{3000}transformer ARCHITECTURE\n",
                "Introduced_In_Paper",
                "attention is all you need (vaswani et al., 2017)\u{2028}"
            ),
            "ad17e76a8baad7a1"
        );
    }

    #[test]
    fn trim_is_ecmascript_not_rust() {
        assert_eq!(ecmascript_trim("\u{85}a\u{85}"), "\u{85}a\u{85}");
        assert_eq!(ecmascript_trim("\u{feff}a\u{feff}"), "a");
        assert_eq!(ecmascript_trim("\u{180e}a"), "\u{180e}a");
        assert_eq!(ecmascript_trim("\u{200b}a"), "\u{200b}a");
    }

    /// Expected values from Node 20: `"ΟΔΟΣ İ".toLowerCase()`, `"ΣΑ".toLowerCase()`.
    #[test]
    fn lowercase_is_full_and_final_sigma_aware() {
        assert_eq!(ecmascript_to_lower("ΟΔΟΣ İ"), "οδος i\u{307}");
        assert_eq!(ecmascript_to_lower("ΣΑ"), "σα");
    }

    #[test]
    fn id_syntax() {
        assert!(is_claim_id("ad17e76a8baad7a1"));
        for bad in [
            "AD17E76A8BAAD7A1",
            "ad17e76a8baad7a",
            "ad17e76a8baad7a1f",
            "ad17e76a8baad7ag",
        ] {
            assert!(!is_claim_id(bad), "{bad}");
        }
    }
}
