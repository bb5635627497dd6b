//! `Citation-Source` parsing on arbitrary field lines: never panics, usable entries carry web
//! URLs, and the emitter's output for the parsed entries parses to the same entries.

#![no_main]

use citeproof_aca::parse_citation_source;
use citeproof_aca::sign::{EntryText, format_citation_source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let parsed = parse_citation_source(&lines);
    if !parsed.incidents.is_empty() {
        return;
    }
    for e in &parsed.entries {
        assert!(citeproof_model::weburl::is_web_url(&e.source));
    }
    let texts: Vec<EntryText<'_>> = parsed
        .entries
        .iter()
        .map(|e| EntryText {
            source: &e.source,
            manifest: e.manifest.as_deref(),
            run: e.run.as_deref(),
            params: &e.params,
        })
        .collect();
    let emitted = format_citation_source(&texts);
    if emitted.len() > 8192 {
        // Re-emitting may add quotes and spaces: past the field limit is not a round trip.
        return;
    }
    let again = parse_citation_source(&[&emitted]);
    assert!(again.incidents.is_empty(), "{:?}", again.incidents);
    assert_eq!(again.entries.len(), parsed.entries.len());
    for (a, b) in again.entries.iter().zip(&parsed.entries) {
        assert_eq!((&a.source, &a.manifest, &a.run), (&b.source, &b.manifest, &b.run));
    }
});
