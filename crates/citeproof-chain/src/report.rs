//! What a chain verification found: the common report ([`ChainReport`]) with the envelopes
//! and answer references in the details and as shared items.

use citeproof_model::{IncidentCode, Item, Report, Severity, SourceView, pointer};
use serde::Serialize;
use serde_json::Value;

use crate::keys::Algorithm;
use crate::signing::SigningInput;

/// The seed's verdicts for a citation ("⚠ unverified", "⚠ tampered", stale), per envelope and
/// per answer reference, and the profile's `partially-signed` (CHAIN-014).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every required check passed, the signature covers the whole claim and the envelope is
    /// recent by its signed dates.
    Verified,
    /// Every required check passed but `chain-stale` was raised (CHAIN-010).
    Stale,
    /// The signature verifies only under `deployed-js`, which leaves the sources, `tags`,
    /// `lastVerified`, `signedAt` and `signedBy` unsigned (CHAIN-014). Never counts as
    /// verified, even when the user accepted partial signatures (CHAIN-015).
    PartiallySigned,
    /// The id or the signature does not match the envelope's content, or the `chains` key does
    /// not match the envelope (`chain-id-mismatch`, `chain-signature-invalid`,
    /// `chain-map-key-mismatch`).
    Tampered,
    /// The reference resolves to no envelope (`chain-ref-unresolved`), or another required
    /// check failed (no key, unreachable, malformed).
    Unverified,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Stale => "stale",
            Verdict::PartiallySigned => "partially-signed",
            Verdict::Tampered => "tampered",
            Verdict::Unverified => "unverified",
        }
    }
}

/// Whether the envelope is recent (CHAIN-010), judged from signed dates only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Freshness {
    Fresh,
    Stale,
    /// No signed date to judge from: the signature did not verify, or verified only under
    /// `deployed-js`, which signs neither `lastVerified` nor `signedAt`.
    NotJudged,
}

/// The state of an envelope's signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignatureStatus {
    Verified,
    Invalid,
    KeyUnresolved,
    /// The envelope is too malformed for the signature to be checked.
    NotChecked,
}

/// One envelope of the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnvelopeReport {
    /// JSON pointer of the envelope (`""` for a lone envelope).
    pub pointer: String,
    /// The `chains` key, for an envelope of a response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    pub claim_id: Option<String>,
    /// The id computed from the claim's fields (CHAIN-002).
    pub computed_id: Option<String>,
    pub algorithm: Option<Algorithm>,
    pub signed_by: Option<String>,
    pub signed_at: Option<String>,
    pub signature: SignatureStatus,
    /// The signing input that verified (CHAIN-007).
    pub signing_input: Option<SigningInput>,
    /// The configured secret or key that verified (`secret 1`, a `kid`, `key 1`).
    pub key_used: Option<String>,
    /// JSON pointers of the members the verified signature does not cover, in code point
    /// order (non-empty only for `deployed-js`).
    pub unsigned: Vec<String>,
    /// Recent, stale, or not judged (no signed date).
    pub freshness: Freshness,
    /// The signed date freshness was judged from: `claim.lastVerified`, else
    /// `signature.signedAt` (`None` when not judged).
    pub fresh_as_of: Option<String>,
    pub canonical: Option<String>,
    /// Level 2: whether the canonical page showed the id (`None`: not fetched).
    pub canonical_contains_id: Option<bool>,
    /// Level 2: the first source that answered.
    pub reachable_source: Option<String>,
    pub verdict: Verdict,
}

/// One claim reference of the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReferenceReport {
    /// The reference as written (`ad17e76a8baad7a1`, `ce8a...`).
    pub text: String,
    /// Offset of its `[` in the answer, in Unicode scalar values.
    pub offset: usize,
    pub verdict: Verdict,
}

/// What a chain report carries besides the common verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainDetails {
    /// `envelope` or `response`.
    pub document: &'static str,
    /// `level >= required_level`: the operation's `valid`. Partially signed envelopes reach a
    /// level only when the user accepted them (CHAIN-015); then the document is accepted but
    /// never verified (the common `verified` is `accepted` and no envelope partially signed).
    pub accepted: bool,
    pub envelopes: Vec<EnvelopeReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<ReferenceReport>,
}

/// Result of verifying a chain envelope or a chain response: the common report shape
/// ([`citeproof_model::Report`], spec `chain`) with [`ChainDetails`].
pub type ChainReport = Report<ChainDetails>;

/// Distinct codes of the given severity, in first-seen order.
pub fn codes(report: &ChainReport, severity: Severity) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for i in &report.verdict.incidents {
        let code = i.incident.code.as_str();
        if i.incident.severity == severity && !out.contains(&code) {
            out.push(code);
        }
    }
    out
}

/// The error codes of the incidents located at `pointer` or under it, in first-seen order.
fn errors_under(report: &ChainReport, pointer: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in &report.verdict.incidents {
        let at = i.incident.location.pointer.as_deref().unwrap_or("");
        let under = at == pointer
            || (at.starts_with(pointer) && at.as_bytes().get(pointer.len()) == Some(&b'/'));
        let code = i.incident.code.as_str();
        if under && i.incident.severity == Severity::Error && !out.iter().any(|c| c == code) {
            out.push(code.to_owned());
        }
    }
    out
}

/// The report's envelopes and answer references in the shared item form.
pub(crate) fn items(report: &ChainReport, document: &Value) -> Vec<Item> {
    let mut items: Vec<Item> = report
        .details
        .envelopes
        .iter()
        .map(|e| envelope_item(report, e, document.pointer(&e.pointer)))
        .collect();
    items.extend(
        report
            .details
            .references
            .iter()
            .map(|r| reference_item(report, r)),
    );
    items
}

/// One envelope: its claim statement, and each source with its excerpt. Chain sources carry
/// no hash; the envelope's own content address is its id (`claim_id` and `computed_id` in the
/// details). Every error located in the envelope concerns it.
fn envelope_item(report: &ChainReport, e: &EnvelopeReport, value: Option<&Value>) -> Item {
    let failed = errors_under(report, &e.pointer);
    let text = |v: Option<&Value>, pointer: &str| {
        v.and_then(|v| v.pointer(pointer))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let sources_value = value
        .and_then(|v| v.pointer("/claim/sources"))
        .and_then(Value::as_array);
    let sources = sources_value
        .map(|list| {
            list.iter()
                .enumerate()
                .map(|(n, source)| {
                    let at = pointer::index(&format!("{}/claim/sources", e.pointer), n);
                    let failed = errors_under(report, &at);
                    SourceView {
                        url: text(Some(source), "/url").unwrap_or_default(),
                        locator: None,
                        declared_hash: None,
                        computed_hash: None,
                        excerpt: text(Some(source), "/excerpt"),
                        verified: e.verdict == Verdict::Verified && failed.is_empty(),
                        failed,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Item {
        kind: "envelope".into(),
        id: e
            .key
            .clone()
            .or_else(|| e.claim_id.clone())
            .unwrap_or_default(),
        text: text(value, "/claim/statement"),
        verified: e.verdict == Verdict::Verified && failed.is_empty(),
        verdict: Some(e.verdict.as_str().to_owned()),
        failed,
        sources,
        items: Vec::new(),
    }
}

/// One answer reference: its verdict and errors are those of the envelope it resolves to; an
/// unresolved reference fails with `chain-ref-unresolved`.
fn reference_item(report: &ChainReport, r: &ReferenceReport) -> Item {
    let unresolved = report.verdict.incidents.iter().any(|i| {
        i.incident.code == IncidentCode::ChainRefUnresolved
            && i.incident.location.claim_id.as_deref() == Some(r.text.as_str())
    });
    let failed = if unresolved {
        vec![IncidentCode::ChainRefUnresolved.as_str().to_owned()]
    } else {
        report
            .details
            .envelopes
            .iter()
            .find(|e| e.key.as_deref() == Some(r.text.as_str()))
            .map(|e| errors_under(report, &e.pointer))
            .unwrap_or_default()
    };
    Item {
        kind: "reference".into(),
        id: r.text.clone(),
        text: None,
        verified: r.verdict == Verdict::Verified,
        verdict: Some(r.verdict.as_str().to_owned()),
        failed,
        sources: Vec::new(),
        items: Vec::new(),
    }
}
