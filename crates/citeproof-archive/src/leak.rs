//! ARCHIVE-014: no archive coordinate in the display view. Artifact ids (16 or more hex digits
//! of one) anywhere, and whole span texts beyond what the gates allow in labels, removed
//! topics and excerpts.

use std::collections::HashSet;

use citeproof_model::IncidentCode;
use citeproof_model::archive::Consent;
use serde_json::Value;

use crate::findings::{Findings, pointer};
use crate::text;

/// Hex digits of an artifact id that count as revealing it.
pub const ID_RUN: usize = 16;

/// Every 16-digit window of the lowercase hex digests of `ids`.
pub fn id_windows<'a>(ids: impl IntoIterator<Item = &'a str>) -> HashSet<String> {
    let mut out = HashSet::new();
    for id in ids {
        let hex = id.strip_prefix("sha256:").unwrap_or(id);
        let b = hex.as_bytes();
        for w in b.windows(ID_RUN) {
            if let Ok(s) = std::str::from_utf8(w) {
                out.insert(s.to_owned());
            }
        }
    }
    out
}

/// Reports strings of `value` holding 16 consecutive hex digits of an artifact id.
pub fn check_ids(value: &Value, at: &str, windows: &HashSet<String>, f: &mut Findings) {
    match value {
        Value::String(s) => {
            if let Some(run) = id_run(s, windows) {
                f.at(
                    IncidentCode::ArchiveDisplayLeak,
                    at.to_owned(),
                    format!("`{run}` is part of an artifact id"),
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                check_ids(v, &pointer(at, i), windows, f);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                check_ids(&Value::String(k.clone()), at, windows, f);
                check_ids(v, &pointer(at, k), windows, f);
            }
        }
        _ => {}
    }
}

fn id_run(s: &str, windows: &HashSet<String>) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b.get(i).is_some_and(u8::is_ascii_hexdigit) {
            i += 1;
            continue;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_hexdigit) {
            i += 1;
        }
        if let Some(run) = lower.get(start..i)
            && run.len() >= ID_RUN
        {
            let rb = run.as_bytes();
            for w in rb.windows(ID_RUN) {
                if let Ok(w) = std::str::from_utf8(w)
                    && windows.contains(w)
                {
                    return Some(w.to_owned());
                }
            }
        }
    }
    None
}

/// A span text the display may not show whole: longer than the gates allow its citation.
#[derive(Debug, Clone)]
pub struct Guarded {
    pub text: String,
}

/// Span texts of the bundle's citations that are longer than their allowance.
pub fn guarded(
    spans: impl IntoIterator<Item = (String, Option<Consent>)>,
    cap: usize,
) -> Vec<Guarded> {
    spans
        .into_iter()
        .filter_map(|(text, consent)| {
            let allowed = match consent {
                Some(Consent::Open) => cap,
                _ => 0,
            };
            (text::scalar_len(&text) > allowed).then_some(Guarded { text })
        })
        .collect()
}

/// Reports a label, topic or excerpt (`value` at `at`) holding a guarded span text.
pub fn check_span_text(value: &str, at: &str, guarded: &[Guarded], f: &mut Findings) {
    if guarded.iter().any(|g| value.contains(g.text.as_str())) {
        f.at(
            IncidentCode::ArchiveDisplayLeak,
            at.to_owned(),
            "the display shows a whole span text beyond what the gates allow",
        );
    }
}
