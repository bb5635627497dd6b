//! ARCHIVE-014: no archive coordinate in the display view: no string holds 16 or more hex
//! digits of an artifact id. Archive text outside the excerpts is ARCHIVE-033's
//! ([`crate::shown`]).

use std::collections::HashSet;

use citeproof_model::IncidentCode;
use serde_json::Value;

use crate::findings::{Findings, pointer};

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
