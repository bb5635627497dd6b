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

/// Result of verifying a chain envelope or a chain response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainReport {
    /// `envelope` or `response`.
    pub document: &'static str,
    /// Level achieved: 0, 1 (offline checks) or 2 (online checks too).
    pub level: u8,
    pub required_level: u8,
    /// `level >= required_level`: the exit status and the operation's `valid`. Partially
    /// signed envelopes reach a level only when the user accepted them (CHAIN-015).
    pub accepted: bool,
    /// `accepted` and no envelope is partially signed: what may be called VERIFIED.
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
