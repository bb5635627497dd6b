//! The report in the form every spec shares: one `manifest` item per manifest with one `claim`
//! item per claim and a source view per cited source, and the keys the verification used.
//! Derived from the settled manifest and claim verdicts (`verdicts`), so an item says no more
//! than they do.

use citeproof_model::{Item, SignerKeys, SourceView};

use super::report::{AcaReport, ClaimReport, ManifestReport, SignatureVerdict};

/// Sets `items` and the keys of `trust` from the settled manifests.
pub(super) fn fill(report: &mut AcaReport) {
    let required = report.verdict.required_level;
    report.items = report
        .details
        .manifests
        .iter()
        .map(|m| manifest_item(m, required))
        .collect();
    // ACA-DISC-001: every key is the response origin's; name the keys that verified a
    // manifest whose whole Level 3 check passed.
    let Some(origin) = report.trust.origins.first().cloned() else {
        return;
    };
    let mut used = SignerKeys::default();
    for m in &report.details.manifests {
        if let (SignatureVerdict::Valid { keyid }, Some(thumbprint)) =
            (&m.signature, &m.label_thumbprint)
        {
            let key = (keyid.clone(), thumbprint.clone());
            if !used.keys.contains(&key) {
                used.keys.push(key);
            }
        }
    }
    if used.keys.is_empty() {
        report.trust.signers.remove(&origin);
    } else {
        report.trust.signers.insert(origin, used);
    }
}

/// A manifest is verified when nothing about it failed (its signature included when Level 3
/// was required) and every claim of it is verified.
fn manifest_item(m: &ManifestReport, required: u8) -> Item {
    let mut failed = m.failed.clone();
    if let SignatureVerdict::Failed { failed: codes } = &m.signature {
        for code in codes {
            if !failed.contains(code) {
                failed.push(code.clone());
            }
        }
    }
    let signature_ok = required < 3 || matches!(m.signature, SignatureVerdict::Valid { .. });
    let claims: Vec<Item> = m.claims.iter().enumerate().map(claim_item).collect();
    Item {
        kind: "manifest".into(),
        id: m.url.clone(),
        text: None,
        verified: m.fetched
            && failed.is_empty()
            && signature_ok
            && claims.iter().all(|c| c.verified),
        verdict: Some(m.signature.status().to_owned()),
        failed,
        sources: Vec::new(),
        items: claims,
    }
}

fn claim_item((index, c): (usize, &ClaimReport)) -> Item {
    Item {
        kind: "claim".into(),
        id: c
            .claim_id
            .clone()
            .unwrap_or_else(|| format!("/claims/{index}")),
        text: c.text.clone(),
        verified: c.verified,
        verdict: Some(c.status().to_owned()),
        failed: c.failed.clone(),
        sources: c
            .sources
            .iter()
            .map(|s| SourceView {
                url: s.url.clone(),
                locator: s.locator.clone(),
                declared_hash: s.declared_hash.clone(),
                computed_hash: s.computed_hash.clone(),
                excerpt: s.excerpt.clone(),
                // A source is verified only inside a verified claim: its hash and excerpt
                // checks passed, and nothing else the claim depends on failed.
                verified: c.verified && s.failed.is_empty(),
                failed: s.failed.clone(),
            })
            .collect(),
        items: Vec::new(),
    }
}
