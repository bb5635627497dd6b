//! What a chain verification found.

use citeproof_model::{Incident, IncidentCode, Severity};
use serde::Serialize;

use crate::keys::Algorithm;
use crate::signing::SigningInput;

/// An incident with the conformance level it counts toward (1 offline, 2 online).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainIncident {
    pub level: u8,
    #[serde(flatten)]
    pub incident: Incident,
}

/// The seed's verdicts for a citation ("⚠ unverified", "⚠ tampered", stale), per envelope and
/// per answer reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every required check passed and the envelope is recent.
    Verified,
    /// Every required check passed but `chain-stale` was raised (CHAIN-010).
    Stale,
    /// The id or the signature does not match the envelope's content, or the `chains` key does
    /// not match the envelope (`chain-id-mismatch`, `chain-signature-invalid`,
    /// `chain-map-key-mismatch`).
    Tampered,
    /// The reference resolves to no envelope (`chain-ref-unresolved`), or another required
    /// check failed (no key, unreachable, malformed).
    Unverified,
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
    /// Members the verified signature does not cover (non-empty only for `deployed-js`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uncovered: Vec<String>,
    /// The date staleness was judged from: `claim.lastVerified`, else `signature.signedAt`.
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

/// Result of verifying a chain envelope or a chain response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainReport {
    /// `envelope` or `response`.
    pub document: &'static str,
    /// Level achieved: 0, 1 (offline checks) or 2 (online checks too).
    pub level: u8,
    pub required_level: u8,
    /// `level >= required_level`.
    pub verified: bool,
    pub envelopes: Vec<EnvelopeReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<ReferenceReport>,
    pub incidents: Vec<ChainIncident>,
}

impl ChainReport {
    /// `true` when an incident with this code was raised.
    pub fn has(&self, code: IncidentCode) -> bool {
        self.incidents.iter().any(|i| i.incident.code == code)
    }

    /// Distinct codes of the given severity, in first-seen order.
    pub fn codes(&self, severity: Severity) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for i in &self.incidents {
            let code = i.incident.code.as_str();
            if i.incident.severity == severity && !out.contains(&code) {
                out.push(code);
            }
        }
        out
    }
}
