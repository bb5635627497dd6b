//! The ledger the seed's production template returns (LEDGER-019):
//!
//! ```python
//! self._ledger = {"claims": [], "metadata": {}}
//! def record_claim(self, text, source_id, source_type, needs_proof=True):
//!     self._ledger["claims"].append({"text": text, "source_id": source_id,
//!         "source_type": source_type, "requires_proof": needs_proof,
//!         "recorded_at": datetime.now(timezone.utc).isoformat()})
//! def validate_and_finalize(self):
//!     ...
//!     self._ledger["metadata"] = {"coverage_score": coverage, "is_compliant": is_compliant,
//!         "total_claims": len(self._ledger["claims"]), "validated_at": ...}
//!     self._persist_audit()
//!     return self._ledger
//! ```
//!
//! It states neither mode nor threshold (the template's `env` decides them), so the verifier
//! is told them; checked on its own (`validate`), compliance is not judged.

use citeproof_model::IncidentCode;
use citeproof_model::ledger::LedgerMode;
use citeproof_model::{Incident, Timestamp};
use serde_json::Value;

use crate::document::{self, Doc, DocClaim, Form, coverage_of, incident};
use crate::shape::Shape;

/// The producer's configuration, which the template's ledger does not state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TemplateConfig {
    pub mode: LedgerMode,
    pub threshold: f64,
}

/// Whether a parsed ledger document is the template's (`metadata`, no `ledger_version`).
pub(crate) fn is_template(value: &Value) -> bool {
    value.get("metadata").is_some() && value.get("ledger_version").is_none()
}

/// Checks a template ledger; the rules after the shape run only when it holds. Without
/// `config`, compliance and the emission gate are not judged.
pub(crate) fn check(
    value: &Value,
    config: Option<TemplateConfig>,
    emitted: bool,
    now: Option<i64>,
    out: &mut Vec<Incident>,
) -> Option<Doc> {
    let doc = shape(value, config, out)?;
    let metadata = value.get("metadata");
    let declared = |name: &str| metadata.and_then(|m| m.get(name));
    if let Some(total) = declared("total_claims").and_then(Value::as_u64)
        && total != doc.coverage.total_claims
    {
        out.push(incident(
            IncidentCode::LedgerCountMismatch,
            format!(
                "`total_claims` is {total}; the ledger has {} claim(s)",
                doc.coverage.total_claims
            ),
            "/metadata/total_claims",
        ));
    }
    if let Some(score) = declared("coverage_score").and_then(Value::as_f64)
        && score != doc.coverage.coverage_score
    {
        out.push(incident(
            IncidentCode::LedgerCoverageMismatch,
            format!(
                "`coverage_score` is {score}; {} / {} gives {}",
                doc.coverage.cited_claims,
                doc.coverage.required_claims,
                doc.coverage.coverage_score
            ),
            "/metadata/coverage_score",
        ));
    }
    if config.is_some() {
        let compliance = declared("is_compliant").and_then(Value::as_bool);
        document::gate(&doc, compliance, "", "/metadata/is_compliant", emitted, out);
    }
    dedup(&doc, out);
    document::future(&doc, now, out);
    Some(doc)
}

/// LEDGER-013 in the template's terms: every use of a `source_id` has the same `source_type`.
fn dedup(doc: &Doc, out: &mut Vec<Incident>) {
    let mut seen: std::collections::HashMap<&str, (usize, Option<&str>)> = Default::default();
    for (i, c) in doc.claims.iter().enumerate() {
        let Some(id) = &c.identifier else { continue };
        match seen.get(id.as_str()) {
            Some((first, t)) if *t != c.category.as_deref() => out.push(incident(
                IncidentCode::LedgerSourceDeduplicated,
                format!("`source_id` `{id}` already names a source of another type in claim {first}: one identifier per tool call and retrieval (seed 003 pitfall 4)"),
                &format!("/claims/{i}/source_id"),
            )),
            Some(_) => {}
            None => {
                seen.insert(id, (i, c.category.as_deref()));
            }
        }
    }
}

fn shape(value: &Value, config: Option<TemplateConfig>, out: &mut Vec<Incident>) -> Option<Doc> {
    let before = out.len();
    let mut s = Shape::document(out);
    let obj = s.root(
        value,
        &["ledger_id", "claims", "metadata"],
        &["claims", "metadata"],
    )?;
    let ledger_id = s.id(obj, "ledger_id", "", 128).map(str::to_owned);
    let claims = s.array_of(obj, "claims", claim);
    if let Some(m) = obj.get("metadata")
        && let Some(m) = s.object(m, "/metadata")
    {
        let names = [
            "coverage_score",
            "is_compliant",
            "total_claims",
            "validated_at",
        ];
        s.members(m, "/metadata", &names, &names);
        s.number(m, "coverage_score", "/metadata");
        s.boolean(m, "is_compliant", "/metadata");
        s.count(m, "total_claims", "/metadata");
        s.timestamp(m, "validated_at", "/metadata");
    }
    if s.incidents.len() != before {
        return None;
    }
    let TemplateConfig { mode, threshold } = config.unwrap_or(TemplateConfig {
        mode: LedgerMode::Strict,
        threshold: crate::config::STRICT_THRESHOLD,
    });
    Some(Doc {
        form: Form::Template,
        ledger_id,
        mode,
        threshold,
        coverage: coverage_of(&claims, threshold),
        claims,
    })
}

fn claim(s: &mut Shape<'_>, value: &Value, pointer: &str) -> Option<DocClaim> {
    let obj = s.object(value, pointer)?;
    let before = s.incidents.len();
    let names = [
        "text",
        "source_id",
        "source_type",
        "requires_proof",
        "recorded_at",
    ];
    s.members(obj, pointer, &names, &names);
    let text = s.string(obj, "text", pointer, 0);
    let source_id = s.nullable_string(obj, "source_id", pointer, None);
    let source_type = s.nullable_string(obj, "source_type", pointer, None);
    let requires = s.boolean(obj, "requires_proof", pointer);
    let recorded_at: Option<Timestamp> = s.timestamp(obj, "recorded_at", pointer);
    if s.incidents.len() != before {
        return None;
    }
    Some(DocClaim {
        claim_id: None,
        text: text?.to_owned(),
        requires_attribution: requires?,
        recorded_at: recorded_at?,
        source: Value::Null,
        identifier: source_id?.map(str::to_owned),
        category: source_type?.map(str::to_owned),
        fetched_at: None,
        undefined: Vec::new(),
    })
}
