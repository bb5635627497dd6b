//! `citation_source`, `aca_documents` and `aca_verify`: Agent Citation Attribution.

use citeproof_aca::sign::{EntryText, format_citation_source};
use citeproof_aca::verify::support::{Analyzed, ExcerptRef, assess};
use citeproof_aca::{
    AcaReport, LexicalJudge, VerifyOptions, parse_citation_source, validate_discovery_bytes,
    validate_manifest_bytes, verify_snapshot_bytes,
};
use citeproof_model::{Location, Severity};

/// `Citation-Source` field lines (split at LF). Checks: usable entries carry web URLs, and the
/// emitter's output for the parsed entries parses to the same entries (a round trip through
/// the reference signer's emitter).
pub fn citation_source(data: &[u8]) {
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
        assert_eq!(
            (&a.source, &a.manifest, &a.run),
            (&b.source, &b.manifest, &b.run)
        );
    }
}

/// Manifest and discovery validation, and the support check (ACA-L2-018); the first byte picks
/// which. Checks: a claim that is its own excerpt is supported.
pub fn aca_documents(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    match which % 3 {
        0 => {
            let _ = validate_manifest_bytes(rest);
        }
        1 => {
            let _ = validate_discovery_bytes(rest);
        }
        _ => {
            let text = String::from_utf8_lossy(rest);
            let mid = (0..=text.len() / 2)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            let (claim, excerpt) = text.split_at(mid);
            let _ = Analyzed::new(excerpt);
            let refs = [ExcerptRef {
                text: excerpt,
                source_url: "",
                location: Location::default(),
            }];
            let _ = assess(
                &Analyzed::new(claim),
                &refs,
                &Location::default(),
                &LexicalJudge,
                &[],
            );
            let own = [ExcerptRef {
                text: claim,
                source_url: "",
                location: Location::default(),
            }];
            let own = assess(
                &Analyzed::new(claim),
                &own,
                &Location::default(),
                &LexicalJudge,
                &[],
            );
            // A claim is supported by itself, unless it has no word or more sentences than the
            // rule checks (ACA-L2-018: 1 to 16 sentences).
            if own.supported == Some(false) {
                let why: Vec<&str> = own.incidents.iter().map(|i| i.message.as_str()).collect();
                assert!(
                    why.iter().any(|m| m.contains("the claim has no word")
                        || m.contains("a claim of more than")),
                    "{claim:?}: {why:?}"
                );
            }
        }
    }
}

/// Verification time of the ACA vectors (2026-04-28T10:00:00Z), so that their signed
/// snapshots seed the corpus with signatures that are in date.
const NOW: i64 = 1_777_370_400;

/// The whole ACA verification of a web snapshot (the `aca-verify-snapshot` operation and
/// `citeproof aca verify --snapshot`): `Citation-Source`, manifests and chain, discovery and
/// keys, re-fetched sources and excerpts, the support check, RFC 9421 signatures. The first
/// byte picks the required level (`None`, 1, 2, 3); the rest is the snapshot JSON. Checks the
/// report's level rule: the level achieved is the highest n with no error counting toward
/// levels 1..=n, at most the required level, and `verified` means it reached it.
pub fn aca_verify(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let mut opts = VerifyOptions::new(NOW);
    opts.required_level = match which % 4 {
        0 => None,
        n => Some(n),
    };
    opts.allow_private = which & 0x80 != 0;
    let report = verify_snapshot_bytes(rest, &opts);
    check_levels(&report);
    check_claim_verdicts(&report);
}

/// No claim says more than was verified (PROFILE "Parts of a report"): a claim reported
/// verified has no error, at a level required, located at one of its sources, at its manifest
/// outside the other claims, or nowhere in particular (the response as a whole).
fn check_claim_verdicts(report: &AcaReport) {
    let r = &report.verdict;
    let errors: Vec<_> = r
        .incidents
        .iter()
        .filter(|i| i.level <= r.required_level && i.incident.severity == Severity::Error)
        .map(|i| &i.incident.location)
        .collect();
    for m in &report.details.manifests {
        for (index, c) in m.claims.iter().enumerate() {
            if !c.verified {
                continue;
            }
            let own = format!("/claims/{index}");
            for at in &errors {
                let url = at.url.as_deref();
                let pointer = at.pointer.as_deref().unwrap_or("");
                let at_source = c.sources.iter().any(|s| url == Some(s.url.as_str()));
                let at_manifest = url == Some(m.url.as_str())
                    && (!pointer.starts_with("/claims/")
                        || pointer == own
                        || pointer.starts_with(&format!("{own}/")));
                assert!(
                    url.is_some() && !at_source && !at_manifest,
                    "claim {:?} verified despite an error at {at:?}",
                    c.claim_id
                );
            }
        }
    }
}

fn check_levels(report: &AcaReport) {
    let r = &report.verdict;
    assert!((1..=3).contains(&r.required_level), "{r:?}");
    assert!(r.level <= r.required_level, "{r:?}");
    assert_eq!(r.verified, r.level >= r.required_level);
    let fails = |n: u8| {
        r.incidents
            .iter()
            .any(|i| i.level == n && i.incident.severity == Severity::Error)
    };
    for n in 1..=r.level {
        assert!(!fails(n), "level {} achieved with an error at {n}", r.level);
    }
    if r.level < r.required_level {
        assert!(
            fails(r.level + 1),
            "level {} stops without an error: {r:?}",
            r.level
        );
    }
}
