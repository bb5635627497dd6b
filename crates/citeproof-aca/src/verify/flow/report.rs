//! Options and reports of the ACA verification flow.

use std::borrow::Cow;
use std::sync::Arc;

use citeproof_fetch::FetchBudget;
use citeproof_model::{IncidentCode, Report};
use serde::Serialize;

use crate::verify::support::{LexicalJudge, SupportJudge};

/// How to verify.
#[derive(Clone)]
pub struct VerifyOptions {
    /// Verification time, Unix seconds (the profile's "verification time"; never read from a
    /// clock by the library).
    pub now: i64,
    /// Level to check up to and require; `None`: the highest level the response claims (3 when
    /// a manifest has a `chain` or its response carries a signature, else 2, or 1 when the
    /// header lists nothing).
    pub required_level: Option<u8>,
    /// Maximum age of manifest signatures, seconds (ACA-L3-010; default 90 days; `None`: no
    /// limit, for an auditor replaying an archive at a verification time of their choosing).
    pub max_signature_age: Option<u64>,
    /// Support judge of ACA-L2-018: the profile's deterministic rule unless replaced.
    pub judge: Arc<dyn SupportJudge>,
    /// Further judges (a model behind `--judge CMD`): each can only add findings
    /// (`aca-judge-unsupported`, `aca-judge-failed`), never make a claim supported.
    pub extra_judges: Vec<Arc<dyn SupportJudge>>,
    /// Allow loopback and private addresses (snapshot replay; live fetchers carry their own
    /// policy).
    pub allow_private: bool,
    /// Earlier sightings of manifests (an audit store): a manifest seen under another run or
    /// for another response is reported as reused (ACA-L2-022). `None`: no history, no check.
    pub history: Option<Arc<dyn ManifestHistory>>,
    /// The fetches this verification may make (FETCH-009), after the agent response itself.
    pub budget: FetchBudget,
    /// Excerpt text the support check may analyze in all, bytes (ACA-L2-023).
    pub max_excerpt_bytes: u64,
    /// Bytes the excerpt searches of ACA-L2-015 may hash in all (ACA-L2-023): the sum over
    /// searches of window width times number of windows.
    pub max_search_bytes: u64,
}

/// Default of [`VerifyOptions::max_excerpt_bytes`]: 256 MiB.
pub const DEFAULT_MAX_EXCERPT_BYTES: u64 = 256 * 1024 * 1024;

/// Default of [`VerifyOptions::max_search_bytes`]: 1 GiB, one search at the bounds of
/// ACA-L2-015 (a 1024-byte excerpt in a 1 MiB body).
pub const DEFAULT_MAX_SEARCH_BYTES: u64 = 1024 * 1024 * 1024;

/// Where a verifier remembers the manifests it saw (ACA-L2-022).
pub trait ManifestHistory: Send + Sync {
    /// Earlier verifications that saw a manifest whose body has this digest.
    fn sightings(&self, digest: &str) -> Vec<Sighting>;
}

/// One earlier sighting of a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Sighting {
    /// The agent response that cited it.
    pub response_url: String,
    /// The `run_id` the manifest carried then.
    pub run_id: Option<String>,
}

impl ManifestHistory for Vec<(String, Sighting)> {
    fn sightings(&self, digest: &str) -> Vec<Sighting> {
        self.iter()
            .filter(|(d, _)| d == digest)
            .map(|(_, s)| s.clone())
            .collect()
    }
}

impl std::fmt::Debug for VerifyOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerifyOptions")
            .field("now", &self.now)
            .field("required_level", &self.required_level)
            .field("max_signature_age", &self.max_signature_age)
            .field("judge", &self.judge.name())
            .field(
                "extra_judges",
                &self
                    .extra_judges
                    .iter()
                    .map(|j| j.name())
                    .collect::<Vec<_>>(),
            )
            .field("allow_private", &self.allow_private)
            .field("history", &self.history.is_some())
            .finish()
    }
}

impl VerifyOptions {
    /// Options with the profile defaults and the lexical judge.
    pub fn new(now: i64) -> VerifyOptions {
        VerifyOptions {
            now,
            required_level: None,
            max_signature_age: Some(crate::verify::signature::DEFAULT_MAX_SIGNATURE_AGE),
            judge: Arc::new(LexicalJudge),
            extra_judges: Vec::new(),
            allow_private: false,
            history: None,
            budget: FetchBudget::default(),
            max_excerpt_bytes: DEFAULT_MAX_EXCERPT_BYTES,
            max_search_bytes: DEFAULT_MAX_SEARCH_BYTES,
        }
    }
}

/// What an ACA report carries besides the common verdict, trust and items: the support judge,
/// and per manifest what only ACA has (its run, the response it names, the digest an audit
/// store remembers, the Level 3 verdict). The claims and their sources are in the report's
/// [`items`](citeproof_model::Report::items) (one `manifest` item per manifest, one `claim`
/// item per claim); in Rust they are also under [`ManifestReport::claims`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcaDetails {
    pub manifests: Vec<ManifestReport>,
    /// Name of the support judge used.
    pub judge: String,
}

/// Result of verifying one agent response: the common report shape
/// ([`citeproof_model::Report`], spec `aca`) with [`AcaDetails`]. The subject names the agent
/// response's URL (kind `url`, or `snapshot` when it was replayed from a web snapshot).
pub type AcaReport = Report<AcaDetails>;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestReport {
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// The manifest's `response_url` when it is a web URL (ACA-L2-024): the response it was
    /// emitted for. A manifest that names its response is judged by that name, never by the
    /// history (ACA-L2-022).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_url: Option<String>,
    /// `sha256:<hex>` of the manifest body as served (what an audit store remembers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// `Some(keyid)` only when the whole Level 3 check of this manifest passed
    /// (`signature` is `valid`): never for a signature that verified over a body that does not
    /// match its digest, or under a key the agent does not publish.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<String>,
    /// The Level 3 check of this manifest: chain, signature, digest, canonical body, key and
    /// origin (ACA-L3-*, ACA-DISC-*).
    pub signature: SignatureVerdict,
    /// Codes of the Level 1-2 errors about this manifest itself (not its claims), e.g.
    /// `aca-response-url-mismatch` or `aca-manifest-reused`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// The claims, in the JSON form as the `claim` items under this manifest's item.
    #[serde(skip)]
    pub claims: Vec<ClaimReport>,
    /// The manifest was fetched (its Level 3 check could run).
    #[serde(skip)]
    pub(crate) fetched: bool,
    /// The keyid of a signature label that verified cryptographically (ACA-L3-014): not yet a
    /// verdict, see `signature`.
    #[serde(skip)]
    pub(crate) label_keyid: Option<String>,
    /// The RFC 7638 thumbprint of the key behind `label_keyid` (for the report's trust).
    #[serde(skip)]
    pub(crate) label_thumbprint: Option<String>,
    /// Level 3 errors that concern this manifest without being located at it: its discovery
    /// document or key set, a consulted source its chain omits (ACA-L2-012).
    #[serde(skip)]
    pub(crate) level3_extra: Vec<IncidentCode>,
}

/// The Level 3 verdict of one manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum SignatureVerdict {
    /// Level 3 was not checked for this manifest.
    NotChecked { reason: String },
    /// Every Level 3 check of this manifest passed, with the key `keyid` of the response
    /// origin's discovery document.
    Valid { keyid: String },
    /// These Level 3 checks of this manifest failed.
    Failed { failed: Vec<String> },
}

impl SignatureVerdict {
    /// The status word: `valid`, `failed` or `not-checked` (a manifest item's `verdict`).
    pub fn status(&self) -> &'static str {
        match self {
            SignatureVerdict::NotChecked { .. } => "not-checked",
            SignatureVerdict::Valid { .. } => "valid",
            SignatureVerdict::Failed { .. } => "failed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub sources: Vec<SourceReport>,
    /// `Some(true/false)` when the support check ran: whether the excerpts support the text,
    /// nothing more (see `verified`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supported: Option<bool>,
    /// Supported, and nothing this claim depends on failed at the levels checked: the claim
    /// itself, its sources, its manifest (its signature included at Level 3) and the response.
    pub verified: bool,
    /// Codes of the errors about this claim and its sources.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
}

impl ClaimReport {
    /// The word a `claim` item carries: `supported` only for a verified claim;
    /// `excerpt-supports-only` when the excerpts support the text but something the claim
    /// depends on failed; `not-supported` when the support check said no; `not-checked` when
    /// it did not run.
    pub fn status(&self) -> &'static str {
        match (self.verified, self.supported) {
            (true, _) => "supported",
            (false, Some(true)) => "excerpt-supports-only",
            (false, Some(false)) => "not-supported",
            (false, None) => "not-checked",
        }
    }
}

/// One cited source of a claim, as checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceReport {
    pub url: String,
    /// What the source check found, in words (`hash ok, excerpt ok`, `not fetched`, ...).
    pub verdict: Cow<'static, str>,
    /// `excerpt_offset` as `bytes [start, end)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// The `hash` the manifest records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_hash: Option<String>,
    /// The SHA-256 of the body as fetched now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed_hash: Option<String>,
    /// The excerpt text handed to the support check (at the offsets, or where an intact
    /// excerpt was found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// Codes of the errors about this source (located under its pointer or at its URL).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// The source's pointer in the manifest (`/claims/0/sources/1`).
    #[serde(skip)]
    pub(crate) pointer: String,
}
