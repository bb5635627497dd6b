//! What each part of a report may claim (issue 19, item 6): the verdict of each manifest's
//! Level 3 check and of each claim, derived from the incidents after every check (and after the
//! history of ACA-L2-022), so that no line of any output says more than was verified.
//!
//! An error incident of a level that was checked is attributed by its location: to a claim
//! when it is at a manifest URL under that claim's pointer (`/claims/<i>`), to the manifest when
//! it is at its URL elsewhere, to every claim citing a source when it is at that source's URL
//! (a failed fetch), and to the response otherwise. Level 3 incidents that concern a manifest
//! without being located at it (its discovery document, a consulted source its chain omits)
//! were noted on the manifest by the flow (`level3_extra`).

use std::collections::{HashMap, HashSet};

use citeproof_model::{IncidentCode, Severity};

use super::report::{AcaReport, ManifestReport, SignatureVerdict, SourceReport};
use crate::verify::url::EqualityKeys;

/// The index of the claim a JSON pointer is under (`/claims/3/sources/0/hash` → 3).
fn claim_index(pointer: Option<&str>) -> Option<usize> {
    let rest = pointer?.strip_prefix("/claims/")?;
    let digits = rest.split('/').next()?;
    digits.parse().ok()
}

/// The pointer of the claim source a JSON pointer is under
/// (`/claims/3/sources/0/hash` → `/claims/3/sources/0`).
fn source_pointer(pointer: Option<&str>) -> Option<&str> {
    let pointer = pointer?;
    let rest = pointer.strip_prefix("/claims/")?;
    let mut parts = rest.splitn(4, '/');
    let (claim, member, source) = (parts.next()?, parts.next()?, parts.next()?);
    if member != "sources" || claim.parse::<usize>().is_err() || source.parse::<usize>().is_err() {
        return None;
    }
    let len = "/claims/".len() + claim.len() + "/sources/".len() + source.len();
    pointer.get(..len)
}

fn push_unique(list: &mut Vec<String>, code: IncidentCode) {
    if !list.iter().any(|c| c == code.as_str()) {
        list.push(code.as_str().to_owned());
    }
}

#[derive(Default)]
struct Found {
    /// Levels 1-2, about the manifest itself.
    manifest: Vec<IncidentCode>,
    /// Level 3, about the manifest or any of its claims.
    level3: Vec<IncidentCode>,
    /// By claim index: every level checked.
    claims: HashMap<usize, Vec<IncidentCode>>,
    /// By claim source pointer: every level checked.
    sources: HashMap<String, Vec<IncidentCode>>,
}

/// Error codes located neither at a manifest of the report nor under one, by the equality key
/// of their URL (a cited source's failed fetch, the response's own faults).
#[derive(Default)]
struct Elsewhere {
    keys: EqualityKeys,
    codes: HashMap<String, Vec<(u8, IncidentCode)>>,
}

/// Sets `failed`, `signature` and `signed_by` of every manifest and `failed` and `verified` of
/// every claim of `report` from its incidents.
pub(super) fn settle(report: &mut AcaReport) {
    let required = report.verdict.required_level;
    let (found, mut elsewhere) = attribute(report, required);
    // The keys of `elsewhere` that name a cited source.
    let mut source_keys: HashSet<String> = HashSet::new();
    for (m, f) in report.details.manifests.iter_mut().zip(found) {
        m.failed.clear();
        for code in &f.manifest {
            push_unique(&mut m.failed, *code);
        }
        m.signature = signature_verdict(m, &f, required);
        m.signed_by = match &m.signature {
            SignatureVerdict::Valid { keyid } => Some(keyid.clone()),
            _ => None,
        };
        let manifest_ok = m.failed.is_empty()
            && (required < 3 || matches!(m.signature, SignatureVerdict::Valid { .. }));
        for (ci, c) in m.claims.iter_mut().enumerate() {
            c.failed.clear();
            for code in f.claims.get(&ci).into_iter().flatten() {
                push_unique(&mut c.failed, *code);
            }
            for s in &mut c.sources {
                settle_source(s, &mut c.failed, &f, &mut elsewhere, &mut source_keys);
            }
            c.verified = c.supported == Some(true) && c.failed.is_empty() && manifest_ok;
        }
    }
    // Whatever is located neither at a manifest nor at a cited source concerns the response
    // (its status, its header, its binding): no claim of it is verified. Level 3 ones (the
    // discovery document) were already counted against each manifest's signature.
    let response_failed = elsewhere.codes.iter().any(|(key, codes)| {
        !source_keys.contains(key) && codes.iter().any(|(level, _)| *level < 3)
    });
    if response_failed {
        for c in report
            .details
            .manifests
            .iter_mut()
            .flat_map(|m| m.claims.iter_mut())
        {
            c.verified = false;
        }
    }
}

/// Sorts the error incidents of the checked levels: by manifest (and under it by claim and
/// source) when located at a manifest URL of the report, elsewhere otherwise.
fn attribute(report: &AcaReport, required: u8) -> (Vec<Found>, Elsewhere) {
    let index: HashMap<&str, usize> = report
        .details
        .manifests
        .iter()
        .enumerate()
        .map(|(i, m)| (m.url.as_str(), i))
        .collect();
    let mut found: Vec<Found> = report
        .details
        .manifests
        .iter()
        .map(|_| Found::default())
        .collect();
    let mut elsewhere = Elsewhere::default();
    for i in &report.verdict.incidents {
        if i.level > required || i.incident.severity != Severity::Error {
            continue;
        }
        let code = i.incident.code;
        let url = i.incident.location.url.as_deref();
        let Some(f) = url
            .and_then(|u| index.get(u))
            .and_then(|k| found.get_mut(*k))
        else {
            let key = elsewhere.keys.key(url.unwrap_or("")).to_owned();
            elsewhere
                .codes
                .entry(key)
                .or_default()
                .push((i.level, code));
            continue;
        };
        if i.level == 3 {
            f.level3.push(code);
        }
        if let Some(p) = source_pointer(i.incident.location.pointer.as_deref()) {
            f.sources.entry(p.to_owned()).or_default().push(code);
        }
        match claim_index(i.incident.location.pointer.as_deref()) {
            Some(c) => f.claims.entry(c).or_default().push(code),
            None if i.level < 3 => f.manifest.push(code),
            None => {}
        }
    }
    (found, elsewhere)
}

/// A manifest's Level 3 verdict: valid only with a verified label and no Level 3 error.
fn signature_verdict(m: &ManifestReport, f: &Found, required: u8) -> SignatureVerdict {
    if required < 3 {
        return SignatureVerdict::NotChecked {
            reason: format!("Level 3 was not required (required level {required})"),
        };
    }
    if !m.fetched {
        return SignatureVerdict::NotChecked {
            reason: "the manifest could not be fetched".into(),
        };
    }
    let mut failed = Vec::new();
    for code in f.level3.iter().chain(&m.level3_extra) {
        push_unique(&mut failed, *code);
    }
    match (&m.label_keyid, failed.is_empty()) {
        (Some(keyid), true) => SignatureVerdict::Valid {
            keyid: keyid.clone(),
        },
        _ => SignatureVerdict::Failed { failed },
    }
}

/// A claim source's failures: those located under its pointer and those located at its URL
/// (noted in `source_keys`), which are also its claim's.
fn settle_source(
    s: &mut SourceReport,
    claim_failed: &mut Vec<String>,
    f: &Found,
    elsewhere: &mut Elsewhere,
    source_keys: &mut HashSet<String>,
) {
    s.failed.clear();
    for code in f.sources.get(&s.pointer).into_iter().flatten() {
        push_unique(&mut s.failed, *code);
    }
    // Only the keys of errors located elsewhere are looked up in `source_keys`: a source with
    // none (every source of a passing run) records nothing.
    let key = elsewhere.keys.key(&s.url);
    if let Some(codes) = elsewhere.codes.get(key) {
        for (_, code) in codes {
            push_unique(claim_failed, *code);
            push_unique(&mut s.failed, *code);
        }
        if !source_keys.contains(key) {
            source_keys.insert(key.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{claim_index, source_pointer};

    #[test]
    fn source_pointers_name_their_source() {
        assert_eq!(
            source_pointer(Some("/claims/3/sources/0/hash")),
            Some("/claims/3/sources/0")
        );
        assert_eq!(
            source_pointer(Some("/claims/3/sources/12")),
            Some("/claims/3/sources/12")
        );
        assert_eq!(source_pointer(Some("/claims/3/text")), None);
        assert_eq!(source_pointer(Some("/claims/3/sources")), None);
        assert_eq!(source_pointer(Some("/claims/x/sources/0")), None);
        assert_eq!(source_pointer(None), None);
    }

    #[test]
    fn claim_pointers_name_their_claim() {
        assert_eq!(claim_index(Some("/claims/3/sources/0/hash")), Some(3));
        assert_eq!(claim_index(Some("/claims/12")), Some(12));
        assert_eq!(claim_index(Some("/claims")), None);
        assert_eq!(claim_index(Some("/claims/x")), None);
        assert_eq!(claim_index(Some("/chain/0/sources")), None);
        assert_eq!(claim_index(None), None);
    }
}
