//! The one spec-specific step of the store: ACA's manifest-reuse check (ACA-L2-022) and the
//! record of its report in one transaction, as `citeproof aca verify --record` (single and
//! `--batch`) and the Python package's `AuditStore.record_aca_snapshot` both run it.

use citeproof_aca::{AcaReport, Sighting, apply_history};

use crate::{AuditError, AuditStore, DocumentUse, Head, Record};

/// Under the store's write lock, reads the earlier sightings of the report's manifests,
/// applies the reuse check to `report` and records the result (with `input_key`, a resumable
/// batch's key). Two verifications of the same manifest submitted at the same instant are
/// serialized, so the second always sees the first. `report` is the checked one afterwards;
/// when the record fails it is left as it was.
pub fn check_and_record(
    store: &mut dyn AuditStore,
    report: &mut AcaReport,
    recorded_at: i64,
    verified_at: i64,
    input_key: Option<String>,
) -> Result<Head, AuditError> {
    let unchecked = report.clone();
    let digests: Vec<String> = unchecked
        .details
        .manifests
        .iter()
        .filter_map(|m| m.digest.clone())
        .collect();
    let mut checked = None;
    let head = store.append(&digests, &mut |uses| {
        let history: Vec<(String, Sighting)> = uses
            .iter()
            .map(|u| {
                let seen = Sighting {
                    response_url: u.subject.clone(),
                    run_id: u.run_id.clone(),
                };
                (u.digest.clone(), seen)
            })
            .collect();
        let mut r = unchecked.clone();
        apply_history(&mut r, &history);
        let mut record = Record::of(&r, recorded_at, verified_at)?.with_documents(documents(&r));
        if let Some(k) = &input_key {
            record = record.with_input_key(k.clone());
        }
        checked = Some(r);
        Ok(record)
    })?;
    if let Some(r) = checked {
        *report = r;
    }
    Ok(head)
}

/// The manifests the report saw, by digest: what a later verification's reuse check reads.
fn documents(report: &AcaReport) -> Vec<DocumentUse> {
    report
        .details
        .manifests
        .iter()
        .filter_map(|m| {
            m.digest.as_ref().map(|d| DocumentUse {
                url: m.url.clone(),
                digest: d.clone(),
                run_id: m.run_id.clone(),
            })
        })
        .collect()
}
