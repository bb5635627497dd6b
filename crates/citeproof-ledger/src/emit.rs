//! What the ledger emits besides the manifest: the ledger document (LEDGER-001), the records of
//! the append-only JSONL audit file in the seed's `export_audit_log` form with the ledger id
//! (LEDGER-008 to -011), and the seed's `export_for_api` dictionary (LEDGER-016). The verifier
//! in this crate accepts all three; `tests/roundtrip.rs` checks that it does.

use std::io::Write;

use citeproof_model::ledger::{
    ApiExport, Attribution, AuditRecord, ClaimRecord, Coverage, Ledger, SourceReference,
};
use citeproof_model::{Extensions, Timestamp, jcs::canonicalize};

use crate::builder::AttributionLedger;
use crate::error::LedgerError;

impl AttributionLedger {
    fn source_reference(&self, i: usize) -> Option<SourceReference> {
        let cap = self.captures.get(i)?;
        Some(SourceReference {
            identifier: cap.identifier.clone(),
            category: cap.category.clone(),
            tool_call_id: Some(cap.tool_call_id.clone()),
            fetched_at: cap.fetched_at.clone(),
            endpoint: Some(cap.url.clone()),
            metadata: cap.metadata.clone(),
            other: Default::default(),
        })
    }

    fn claim_source(&self, source: Option<(usize, u64, u64)>) -> Option<SourceReference> {
        source.and_then(|(i, _, _)| self.source_reference(i))
    }

    /// The ledger document of an emitted response (LEDGER-001), `validated_at` from the clock.
    /// Refused in strict mode below the threshold (LEDGER-006): such a response is not
    /// emitted; use [`document_of_refused`](Self::document_of_refused) to keep its ledger.
    pub fn to_document(&self) -> Result<Ledger, LedgerError> {
        self.gate()?;
        self.document_of_refused()
    }

    /// The ledger document without the strict gate: the record of a response that was refused
    /// (verify it with `emitted = false`).
    pub fn document_of_refused(&self) -> Result<Ledger, LedgerError> {
        let report = self.audit();
        let validated_at = self.clock.now()?;
        Ok(Ledger {
            ledger_version: "1".into(),
            ledger_id: self.run_id.as_str().to_owned(),
            mode: self.config.mode,
            threshold: self.config.threshold,
            claims: self
                .entries
                .iter()
                .map(|e| ClaimRecord {
                    claim_id: Some(e.claim_id.clone()),
                    text: e.text.clone(),
                    requires_attribution: e.requires_attribution,
                    recorded_at: e.recorded_at.clone(),
                    source: self.claim_source(e.source),
                    extensions: Extensions::default(),
                })
                .collect(),
            coverage: Coverage {
                total_claims: report.total_claims,
                required_claims: report.required_claims,
                cited_claims: report.cited_claims,
                coverage_score: report.coverage_score,
                is_compliant: report.is_compliant,
                uncited_claims: report.uncited_claims,
                validated_at: Some(validated_at),
            },
            extensions: Extensions::default(),
        })
    }

    /// One audit record per claim, in ledger order (LEDGER-009): the seed's
    /// `{"claim", "source", "requires_proof", "logged_at"}` plus `ledger_id`, `seq` (the
    /// claim's position, so that records of concurrent requests may interleave, LEDGER-011)
    /// and `claim_id`.
    pub fn audit_records(&self, logged_at: &Timestamp) -> Vec<AuditRecord> {
        self.entries
            .iter()
            .zip(0u64..)
            .map(|(e, seq)| AuditRecord {
                ledger_id: Some(self.run_id.as_str().to_owned()),
                seq: Some(seq),
                claim_id: Some(e.claim_id.clone()),
                claim: e.text.clone(),
                source: self.claim_source(e.source),
                requires_proof: Some(e.requires_attribution),
                requires_attribution: None,
                logged_at: logged_at.clone(),
                extensions: Extensions::default(),
            })
            .collect()
    }

    /// Appends one JSONL audit record per claim (LEDGER-008, LEDGER-009): each line is the JCS
    /// form of the record followed by LF. Written with one `write_all` of the whole buffer, so
    /// that on a file opened for appending the records of one ledger usually stay one block;
    /// their `seq` keeps them verifiable when another writer's lines come between them
    /// (LEDGER-011).
    pub fn write_audit_jsonl(&self, out: &mut dyn Write) -> Result<usize, LedgerError> {
        let logged_at = self.clock.now()?;
        let records = self.audit_records(&logged_at);
        let mut buf = Vec::new();
        for record in &records {
            let value = serde_json::to_value(record).map_err(|e| LedgerError::Io(e.to_string()))?;
            buf.extend_from_slice(&canonicalize(&value));
            buf.push(b'\n');
        }
        out.write_all(&buf)
            .map_err(|e| LedgerError::Io(e.to_string()))?;
        out.flush().map_err(|e| LedgerError::Io(e.to_string()))?;
        Ok(records.len())
    }

    /// [`write_audit_jsonl`](Self::write_audit_jsonl) to a file opened for appending (created
    /// when absent): the audit trail is append-only, like the seed's `open(filepath, "a")`.
    pub fn append_audit_log(&self, path: &std::path::Path) -> Result<usize, LedgerError> {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| LedgerError::Io(format!("{}: {e}", path.display())))?;
        self.write_audit_jsonl(&mut f)
    }

    /// The seed's `export_for_api` dictionary (LEDGER-016): `output_summary` is every claim's
    /// text joined by one space, `attribution_map` has one entry per claim with the source's
    /// `identifier`, `category` and `fetched_at` (all `null` for an uncited claim). The ledger
    /// id is added so that the export can be matched with its ledger.
    pub fn export_for_api(&self) -> ApiExport {
        let texts: Vec<&str> = self.entries.iter().map(|e| e.text.as_str()).collect();
        ApiExport {
            ledger_id: Some(self.run_id.as_str().to_owned()),
            output_summary: texts.join(" "),
            attribution_map: self
                .entries
                .iter()
                .map(|e| {
                    let source = self.claim_source(e.source);
                    Attribution {
                        claim: e.text.clone(),
                        source_id: source.as_ref().map(|s| s.identifier.clone()),
                        source_category: source.as_ref().map(|s| s.category.clone()),
                        timestamp: source.map(|s| s.fetched_at),
                        extensions: Extensions::default(),
                    }
                })
                .collect(),
            extensions: Extensions::default(),
        }
    }
}
