//! Variants of the canonical-form operations.

use base64::{Engine as _, engine::general_purpose::STANDARD};
use citeproof_conformance::{
    suite::Case,
    variants::{Derived, VariantRng},
};
use serde_json::{Value, json};

use crate::{
    TransformFn, derived, expects_valid,
    jsontext::{self, Style},
};

pub const TRANSFORMS: &[(&str, TransformFn)] = &[
    ("jcs-canonicalize", jcs),
    ("hash-bytes", hash_bytes),
    ("hash-aef-text", hash_aef_text),
];

/// `jcs-canonicalize`: a strict text gets its members permuted, a fresh member (inserted in the
/// expected output at its RFC 8785 place, when the case has one) and new whitespace; any
/// `json` text may go as `json_base64` (the same bytes).
fn jcs(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let text = case.input.get("json").and_then(Value::as_str)?;
    let mut transforms = Vec::new();
    let mut expected = case.expected.clone();
    let mut text = text.to_owned();
    if let Some(mut tree) = jsontext::parse(&text) {
        jsontext::shuffle(&mut tree, rng);
        transforms.push("member-order");
        let canonical = expected
            .output
            .as_ref()
            .and_then(|o| o.get("canonical"))
            .and_then(Value::as_str)
            .and_then(jsontext::parse);
        if expects_valid(case)
            && let Some(mut canonical) = canonical
        {
            let name = format!("\"{}\"", rng.letters(9));
            let value = format!("\"{}\"", rng.letters(12));
            let mut with = tree.clone();
            if jsontext::insert_sorted(&mut canonical, &name, &value).is_some()
                && jsontext::insert_anywhere(&mut with, &name, &value, rng).is_some()
            {
                tree = with;
                expected.output = Some(json!({
                    "canonical": jsontext::emit(&canonical, Style::Compact, rng)
                }));
                transforms.push("fresh-member");
            }
        }
        text = jsontext::emit(&tree, Style::Spaced, rng);
        transforms.push("whitespace");
    }
    let input = if transforms.is_empty() || rng.chance(0.5) {
        transforms.push("as-bytes");
        json!({"json_base64": STANDARD.encode(text.as_bytes())})
    } else {
        json!({"json": text})
    };
    let mut d = derived(case, &transforms, input);
    d.expected = expected;
    Some(d)
}

fn data(case: &Case) -> Option<Vec<u8>> {
    STANDARD
        .decode(case.input.get("data_base64")?.as_str()?)
        .ok()
}

/// `hash-bytes`: random bytes appended; the new hash is the oracle's.
fn hash_bytes(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let mut bytes = data(case)?;
    let mut extra = vec![0u8; 1 + rng.below(48)];
    rng.fill(&mut extra);
    bytes.extend_from_slice(&extra);
    let mut d = derived(
        case,
        &["fresh-bytes"],
        json!({"data_base64": STANDARD.encode(&bytes)}),
    );
    if expects_valid(case) {
        d.oracle_outputs = vec!["hash".into()];
    }
    Some(d)
}

/// The line breaks of `bytes` re-encoded: every CR LF, lone CR and LF is one line break; each
/// is written again as LF or CR LF (or all as lone CR). The AEF §5 normalized text is the same.
/// Only the bytes 0x0D and 0x0A move, so bytes that are not UTF-8 stay not UTF-8 (an ASCII byte
/// is never part of a multi-byte sequence).
fn reencode_line_breaks(bytes: &[u8], rng: &mut VariantRng) -> Vec<u8> {
    let all_cr = rng.chance(0.2);
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let line_break = match b {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                i += 2;
                true
            }
            b'\r' | b'\n' => {
                i += 1;
                true
            }
            _ => {
                out.push(b);
                i += 1;
                false
            }
        };
        if line_break {
            if all_cr {
                out.push(b'\r');
            } else if rng.chance(0.5) {
                out.extend_from_slice(b"\r\n");
            } else {
                out.push(b'\n');
            }
        }
    }
    out
}

/// `hash-aef-text`: line breaks re-encoded (same hash) and a random ASCII word prepended (the
/// new hash is the oracle's).
fn hash_aef_text(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let original = data(case)?;
    let mut bytes = reencode_line_breaks(&original, rng);
    let mut transforms = vec!["line-endings"];
    if rng.chance(0.5) || bytes == original {
        let len = 1 + rng.below(10);
        let mut word = rng.letters(len).into_bytes();
        word.push(b' ');
        word.extend_from_slice(&bytes);
        bytes = word;
        transforms.push("prepend-text");
    }
    let changes_hash = transforms.contains(&"prepend-text");
    let mut d = derived(
        case,
        &transforms,
        json!({"data_base64": STANDARD.encode(&bytes)}),
    );
    if changes_hash && expects_valid(case) {
        d.oracle_outputs = vec!["hash".into()];
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_keep_the_normalized_text() {
        let normalize = |b: &[u8]| {
            String::from_utf8_lossy(b)
                .replace("\r\n", "\n")
                .replace('\r', "\n")
        };
        let mut rng = VariantRng::new(4);
        for input in [
            &b"a\r\nb\rc\n\n\r\r\n"[..],
            b"\n",
            b"\r",
            b"x\r\n\r\n",
            b"\xff\r\n\xc3",
        ] {
            for _ in 0..20 {
                let out = reencode_line_breaks(input, &mut rng);
                assert_eq!(normalize(&out), normalize(input));
                assert_eq!(
                    std::str::from_utf8(&out).is_ok(),
                    std::str::from_utf8(input).is_ok()
                );
            }
        }
    }
}
