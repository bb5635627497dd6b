//! The one report shape of every verifier (ACA, AEF, chain, ledger, archive): what was
//! verified ([`Subject`]), the [`Verdict`] of the one level rule, the [`Outcome`] a script acts
//! on, and the spec's own details. The CLI's `--json`, the Python package and the audit store
//! all carry this value.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::verdict::Verdict;
use crate::{IncidentCode, Severity};

/// What a report is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Subject {
    pub kind: SubjectKind,
    /// The URL, the file path as given, `-` for standard input, or a name the caller chose.
    pub name: String,
    /// `sha256:<hex>` of the bytes verified, when they were read whole (a file, standard
    /// input, an agent response body).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SubjectKind {
    /// A live URL.
    Url,
    /// A recorded web snapshot (JSON or WARC) replayed offline.
    Snapshot,
    /// A local file.
    File,
    /// Standard input.
    Stdin,
    /// A value handed over by a program (a conformance operation, a library call).
    Value,
}

impl Subject {
    pub fn new(kind: SubjectKind, name: impl Into<String>) -> Subject {
        Subject {
            kind,
            name: name.into(),
            digest: None,
        }
    }

    /// The subject with the SHA-256 of the bytes verified.
    pub fn with_digest_of(mut self, bytes: &[u8]) -> Subject {
        self.digest = Some(crate::sha256_bytes(bytes).to_string());
        self
    }
}

/// What a script acts on (the CLI's exit status): verified (0), not verified (1, the checks
/// ran and found the input wanting) or could not check (3, the checks that decide could not
/// run: a network failure, a timeout, an incomplete or unreadable snapshot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Verified,
    NotVerified,
    CouldNotCheck,
}

impl Outcome {
    /// The outcome of a verdict. Only the errors of the first level that failed decide it:
    /// when each of them is a transient fetch failure or the consumer code wrapping one
    /// (`*-fetch-failed`), and at least one is transient, the level was not decided by a
    /// finding about the input, so the input could not be checked. A definitive answer (a 404,
    /// a hash mismatch, a bad signature) next to them makes it not verified.
    pub fn of(verdict: &Verdict) -> Outcome {
        if verdict.verified {
            return Outcome::Verified;
        }
        let failed_level = if verdict
            .incidents
            .iter()
            .any(|i| i.level == 0 && i.incident.severity == Severity::Error)
        {
            0
        } else {
            verdict.level + 1
        };
        let blocking: Vec<IncidentCode> = verdict
            .incidents
            .iter()
            .filter(|i| i.level == failed_level && i.incident.severity == Severity::Error)
            .map(|i| i.incident.code)
            .collect();
        let transient = blocking.iter().any(|c| is_transient(*c));
        if transient
            && blocking
                .iter()
                .all(|c| is_transient(*c) || is_fetch_wrapper(*c))
        {
            Outcome::CouldNotCheck
        } else {
            Outcome::NotVerified
        }
    }

    /// The exit status of the CLI: 0, 1 or 3 (2 is a usage error, decided before any check).
    pub fn exit_status(self) -> u8 {
        match self {
            Outcome::Verified => 0,
            Outcome::NotVerified => 1,
            Outcome::CouldNotCheck => 3,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Verified => "verified",
            Outcome::NotVerified => "not-verified",
            Outcome::CouldNotCheck => "could-not-check",
        }
    }
}

/// Fetch failures that say nothing about the resource: the network, the clock or the
/// snapshot at hand failed. A status, a redirect loop, a size cap or a forbidden address is an
/// answer about the resource, not one of these.
pub fn is_transient(code: IncidentCode) -> bool {
    matches!(
        code,
        IncidentCode::FetchDnsFailed
            | IncidentCode::FetchConnectFailed
            | IncidentCode::FetchTimeout
            | IncidentCode::FetchIoFailed
            | IncidentCode::FetchNotInSnapshot
            | IncidentCode::FetchSnapshotInvalid
    )
}

/// A consumer code saying that a resource could not be fetched, raised beside its cause: the
/// `*-fetch-failed` codes, and the chain's "no source answered" (raised beside each source's
/// own fetch code).
fn is_fetch_wrapper(code: IncidentCode) -> bool {
    code.as_str().ends_with("-fetch-failed") || code == IncidentCode::ChainSourcesUnreachable
}

/// One thing a report is about, in a form every spec shares so that a person (text, HTML,
/// Markdown, CSV) and the audit store can show it without knowing the spec: a manifest and its
/// claims (ACA), an evidence object (AEF), an envelope or an answer reference (chain), a claim
/// and its citations (archive), a ledger claim (ledger). Derived from the verdict: `verified`
/// is true only when no error concerns the item or anything under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Item {
    /// `manifest`, `claim`, `evidence`, `envelope`, `reference`, `ledger`, ...
    pub kind: String,
    /// The item's id in its document (claim id, envelope id, manifest URL).
    pub id: String,
    /// The claim text, when the item states one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub verified: bool,
    /// The spec's word for the item's state where it names one (chain: `verified`, `tampered`,
    /// `stale`, `unverified`, `partially-signed`; ACA signatures: `valid`, `failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// The error codes that concern the item (empty when it is verified).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// What the item was checked against.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<SourceView>,
    /// Items under this one (the claims of a manifest, the steps of a chain).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Item>,
}

/// A source an item was checked against, with what a person needs to re-check it by eye:
/// where it is, the hash declared and the hash computed, and the exact text that was judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SourceView {
    /// The source's URL, or its id where it has no URL (an archive artifact, a handle).
    pub url: String,
    /// Where in the source: byte offsets, a selector, a paragraph and characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// The hash the document declares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_hash: Option<String>,
    /// The hash the verifier computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computed_hash: Option<String>,
    /// The text that was judged (the excerpt at the offsets, the resolved span).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    pub verified: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
}

/// The trust configuration a verification used, as a report may show it: signer ids and key
/// names (`kid`, `secret 1`), key thumbprints, key locations and origins; never a secret.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TrustUsed {
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub signers: std::collections::BTreeMap<String, SignerKeys>,
    /// Key URLs the user trusts (AEF-L3-006).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_locations: Vec<String>,
    /// Origins whose published keys were used because the user asked about them (ACA: the
    /// response origin's discovery document).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<String>,
}

/// The keys configured for one signer, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SignerKeys {
    /// HMAC secrets by name (`kid`, or `secret N` in configuration order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
    /// Ed25519 keys: name (`kid`, or `key N`) and RFC 7638 thumbprint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<(String, String)>,
    /// The `jwk-*` code of a key set that did not load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broken: Option<String>,
}

/// A verification report: the subject, the verdict (flattened: `level`, `required_level`,
/// `verified`, `incidents`), the outcome, the trust used, the items in the shared form, and
/// the spec's details (flattened).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report<D> {
    /// The spec verified against: `aca`, `aef`, `chain`, `ledger` or `archive`.
    pub spec: String,
    pub subject: Subject,
    #[serde(flatten)]
    pub verdict: Verdict,
    pub outcome: Outcome,
    /// The trust configuration used (empty when the spec took no keys from the user).
    #[serde(default, skip_serializing_if = "is_default_trust")]
    pub trust: TrustUsed,
    /// What the report is about, in the form every spec shares.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Item>,
    #[serde(flatten)]
    pub details: D,
}

fn is_default_trust(t: &TrustUsed) -> bool {
    *t == TrustUsed::default()
}

impl<D> Report<D> {
    /// Whether an incident with this code was reported.
    pub fn has(&self, code: IncidentCode) -> bool {
        self.verdict.has(code)
    }

    /// The incidents without their levels.
    pub fn plain_incidents(&self) -> Vec<crate::Incident> {
        self.verdict.plain_incidents()
    }

    pub fn new(spec: &str, subject: Subject, verdict: Verdict, details: D) -> Report<D> {
        let outcome = Outcome::of(&verdict);
        Report {
            spec: spec.to_owned(),
            subject,
            verdict,
            outcome,
            trust: TrustUsed::default(),
            items: Vec::new(),
            details,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Findings, Incident, Location};

    fn verdict(incidents: &[(u8, IncidentCode)], required: u8) -> Verdict {
        let mut f = Findings::new();
        for (level, code) in incidents {
            f.push(*level, Incident::new(*code, "x", Location::default()));
        }
        f.finish(required, required)
    }

    /// Hand-derived from the rule in `Outcome::of`.
    #[test]
    fn outcomes() {
        use IncidentCode::*;
        let of = |i: &[(u8, IncidentCode)]| Outcome::of(&verdict(i, 2));
        assert_eq!(of(&[]), Outcome::Verified);
        // A timeout behind its consumer code: nothing was decided.
        assert_eq!(
            of(&[(2, AefSourceFetchFailed), (2, FetchTimeout)]),
            Outcome::CouldNotCheck
        );
        // A 404 is an answer about the source.
        assert_eq!(
            of(&[(2, AefSourceFetchFailed), (2, FetchHttpStatus)]),
            Outcome::NotVerified
        );
        // No chain source answered, each for a transient reason: nothing was decided.
        assert_eq!(
            of(&[
                (2, ChainSourcesUnreachable),
                (2, FetchNotInSnapshot),
                (2, FetchTimeout)
            ]),
            Outcome::CouldNotCheck
        );
        // One of them answered 404: an answer about the sources.
        assert_eq!(
            of(&[
                (2, ChainSourcesUnreachable),
                (2, FetchTimeout),
                (2, FetchHttpStatus)
            ]),
            Outcome::NotVerified
        );
        // A definitive finding next to a timeout.
        assert_eq!(
            of(&[(2, FetchTimeout), (2, AefContentHashMismatch)]),
            Outcome::NotVerified
        );
        // Only the first failing level decides: a level-1 error stands.
        assert_eq!(
            of(&[(1, SchemaViolation), (2, FetchTimeout)]),
            Outcome::NotVerified
        );
        assert_eq!(of(&[(0, JsonSyntax)]), Outcome::NotVerified);
        assert_eq!(Outcome::CouldNotCheck.exit_status(), 3);
    }

    #[test]
    fn the_json_shape_is_flat() {
        let report = Report::new(
            "aef",
            Subject::new(SubjectKind::File, "e.json").with_digest_of(b"abc"),
            verdict(&[], 1),
            serde_json::json!({"span": null}),
        );
        let v = serde_json::to_value(&report).unwrap();
        let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "incidents",
                "level",
                "outcome",
                "required_level",
                "span",
                "spec",
                "subject",
                "verified"
            ]
        );
        // SHA-256 of "abc" (FIPS 180-2 appendix B.1).
        assert_eq!(
            v["subject"]["digest"],
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(v["outcome"], "verified");
    }
}
