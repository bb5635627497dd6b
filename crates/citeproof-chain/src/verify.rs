//! The verification flow (profile "Citation-chain envelopes"): one envelope, or a response with
//! an answer and its `chains`. Level 1 is offline (structure, id, signature, answer
//! references); Level 2 re-fetches canonical URLs and sources.

use citeproof_fetch::{BudgetedFetcher, FetchBudget, Fetcher};
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use serde_json::Value;

use crate::envelope::{CheckedEnvelope, check_envelope, kind};
use crate::keys::{Check, TrustConfig};
use crate::lossless::{self, Node};
use crate::online::{check_canonical, check_sources};
use crate::refs::find_references;
use crate::report::{
    ChainIncident, ChainReport, EnvelopeReport, ReferenceReport, SignatureStatus, Verdict,
};
use crate::signing::{SigningInput, child, deployed_uncovered, signing_bytes};

/// Most envelopes one response may hold.
pub const MAX_CHAINS: usize = 1024;

/// Default of [`VerifyOptions::stale_after_days`] (CHAIN-010).
pub const STALE_AFTER_DAYS: i64 = 180;

/// How to verify.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// Verification time, Unix seconds (never read from a clock by the library).
    pub now: i64,
    /// 1 (offline checks) or 2 (online checks too); also the level required.
    pub required_level: u8,
    /// Secrets and public keys per signer.
    pub trust: TrustConfig,
    /// An envelope is stale when its freshness date is more than this many days old.
    pub stale_after_days: i64,
    /// The fetches one verification may make (FETCH-009).
    pub budget: FetchBudget,
}

impl VerifyOptions {
    pub fn new(now: i64, required_level: u8, trust: TrustConfig) -> VerifyOptions {
        VerifyOptions {
            now,
            required_level,
            trust,
            stale_after_days: STALE_AFTER_DAYS,
            budget: FetchBudget::default(),
        }
    }
}

struct Run {
    required_level: u8,
    incidents: Vec<ChainIncident>,
}

impl Run {
    fn push(&mut self, level: u8, incident: Incident) {
        self.incidents.push(ChainIncident { level, incident });
    }

    fn extend(&mut self, level: u8, incidents: impl IntoIterator<Item = Incident>) {
        for i in incidents {
            self.push(level, i);
        }
    }

    fn level(&self) -> u8 {
        let failed = |l: u8| {
            self.incidents
                .iter()
                .any(|i| i.level == l && i.incident.severity == Severity::Error)
        };
        if failed(1) {
            0
        } else if self.required_level >= 2 && !failed(2) {
            2
        } else {
            1
        }
    }

    fn report(
        self,
        document: &'static str,
        envelopes: Vec<EnvelopeReport>,
        references: Vec<ReferenceReport>,
    ) -> ChainReport {
        let level = self.level();
        ChainReport {
            document,
            level,
            required_level: self.required_level,
            verified: level >= self.required_level,
            envelopes,
            references,
            incidents: self.incidents,
        }
    }
}

/// Verifies a chain envelope or a chain response given as bytes (CHAIN-001 tells them apart).
/// Fetches (Level 2 only) go through `fetcher`, within `options.budget`.
pub fn verify(bytes: &[u8], fetcher: &dyn Fetcher, options: &VerifyOptions) -> ChainReport {
    verify_as(bytes, fetcher, options, None)
}

/// A fetcher for offline checks: every fetch fails (never called at Level 1).
struct NoNetwork;

impl Fetcher for NoNetwork {
    fn fetch(
        &self,
        url: &str,
    ) -> Result<citeproof_fetch::FetchedResponse, citeproof_fetch::FetchError> {
        Err(citeproof_fetch::FetchError::NotInSnapshot {
            url: url.to_owned(),
        })
    }
}

/// The checks of a document that need no key, no clock and no network (`citeproof validate`):
/// CHAIN-001 to CHAIN-006, CHAIN-008, CHAIN-009, CHAIN-011. `response` says which kind the
/// document must be.
pub fn validate_value(value: &Value, response: bool) -> Vec<Incident> {
    let Ok(bytes) = serde_json::to_vec(value) else {
        return Vec::new();
    };
    let mut options = VerifyOptions::new(0, 1, TrustConfig::default());
    options.stale_after_days = i64::MAX;
    verify_as(&bytes, &NoNetwork, &options, Some(response))
        .incidents
        .into_iter()
        .map(|i| i.incident)
        .filter(|i| i.code != IncidentCode::ChainKeyUnresolved)
        .collect()
}

fn verify_as(
    bytes: &[u8],
    fetcher: &dyn Fetcher,
    options: &VerifyOptions,
    response: Option<bool>,
) -> ChainReport {
    let mut run = Run {
        required_level: options.required_level.clamp(1, 2),
        incidents: Vec::new(),
    };
    let (value, node) = match lossless::parse_with_value(bytes) {
        Ok(parsed) => parsed,
        Err(e) => {
            run.push(1, e.to_incident());
            return run.report("envelope", Vec::new(), Vec::new());
        }
    };
    let budgeted = BudgetedFetcher::new(fetcher, options.budget);
    let is_response = response.unwrap_or_else(|| {
        value
            .as_object()
            .is_some_and(|o| o.contains_key("chains") || o.contains_key("answer"))
    });
    if !is_response {
        let envelope = verify_envelope(&value, &node, "", None, &budgeted, options, &mut run);
        return run.report("envelope", vec![envelope], Vec::new());
    }
    verify_response(&value, &node, &budgeted, options, run)
}

fn verify_response(
    value: &Value,
    node: &Node,
    fetcher: &dyn Fetcher,
    options: &VerifyOptions,
    mut run: Run,
) -> ChainReport {
    let at = |code: IncidentCode, pointer: &str, message: String| {
        Incident::new(code, message, Location::pointer(pointer))
    };
    let Some(obj) = value.as_object() else {
        run.push(
            1,
            at(
                IncidentCode::SchemaViolation,
                "",
                "a chain response must be a JSON object".into(),
            ),
        );
        return run.report("response", Vec::new(), Vec::new());
    };
    for k in obj.keys() {
        if k != "answer" && k != "chains" && !k.starts_with("x-") {
            run.push(
                1,
                at(
                    IncidentCode::UnknownMember,
                    "",
                    format!("unknown member `{k}` (only `x-` extension members may be added)"),
                ),
            );
        }
    }
    let answer = match obj.get("answer") {
        Some(Value::String(a)) => Some(a.as_str()),
        None => {
            run.push(
                1,
                at(
                    IncidentCode::SchemaViolation,
                    "",
                    "missing member `answer`".into(),
                ),
            );
            None
        }
        Some(v) => {
            run.push(
                1,
                at(
                    IncidentCode::SchemaViolation,
                    "/answer",
                    format!("answer must be a string, found {}", kind(v)),
                ),
            );
            None
        }
    };
    let mut envelopes = Vec::new();
    match obj.get("chains") {
        None => run.push(
            1,
            at(
                IncidentCode::SchemaViolation,
                "",
                "missing member `chains`".into(),
            ),
        ),
        Some(Value::Object(chains)) if chains.len() <= MAX_CHAINS => {
            for (key, envelope) in chains {
                let base = child("/chains", key);
                let env_node = node.pointer(&base).unwrap_or(&Node::Null);
                envelopes.push(verify_envelope(
                    envelope,
                    env_node,
                    &base,
                    Some(key),
                    fetcher,
                    options,
                    &mut run,
                ));
            }
        }
        Some(Value::Object(chains)) => run.push(
            1,
            at(
                IncidentCode::SchemaViolation,
                "/chains",
                format!(
                    "a response holds at most {MAX_CHAINS} envelopes, found {}",
                    chains.len()
                ),
            ),
        ),
        Some(v) => run.push(
            1,
            at(
                IncidentCode::SchemaViolation,
                "/chains",
                format!("chains must be an object, found {}", kind(v)),
            ),
        ),
    }
    let mut references = Vec::new();
    if let Some(answer) = answer {
        for r in find_references(answer) {
            let resolved = r
                .full_id()
                .and_then(|id| envelopes.iter().find(|e| e.key.as_deref() == Some(id)));
            let verdict = match resolved {
                Some(e) => e.verdict,
                None => {
                    let why = if r.full_id().is_some() {
                        "is not a key of `chains`"
                    } else {
                        "is not a complete claim id (16 lowercase hex digits)"
                    };
                    let mut location = Location::pointer("/answer");
                    location.claim_id = Some(r.text.clone());
                    run.push(
                        1,
                        Incident::new(
                            IncidentCode::ChainRefUnresolved,
                            format!("the reference [{}] at character {} {why}", r.text, r.offset),
                            location,
                        ),
                    );
                    Verdict::Unverified
                }
            };
            references.push(ReferenceReport {
                text: r.text,
                offset: r.offset,
                verdict,
            });
        }
    }
    run.report("response", envelopes, references)
}

/// Every check of one envelope; its incidents go to `run`.
fn verify_envelope(
    value: &Value,
    node: &Node,
    base: &str,
    key: Option<&str>,
    fetcher: &dyn Fetcher,
    options: &VerifyOptions,
    run: &mut Run,
) -> EnvelopeReport {
    let first = run.incidents.len();
    let mut level1 = Vec::new();
    let checked = check_envelope(value, base, &mut level1);
    run.extend(1, level1);
    if let Some(key) = key
        && checked.claim_id.as_deref() != Some(key)
    {
        let claim_id = value
            .pointer("/claim/id")
            .and_then(Value::as_str)
            .unwrap_or("?");
        run.push(
            1,
            checked_at(
                &checked,
                IncidentCode::ChainMapKeyMismatch,
                "",
                format!(
                    "the `chains` key `{key}` differs from the envelope's claim id `{claim_id}`"
                ),
            ),
        );
    }
    let mut report = EnvelopeReport {
        pointer: base.to_owned(),
        key: key.map(str::to_owned),
        claim_id: checked.claim_id.clone(),
        computed_id: checked.computed_id.clone(),
        algorithm: checked.algorithm,
        signed_by: checked.signed_by.clone(),
        signed_at: checked.signed_at.as_ref().map(|t| t.as_str().to_owned()),
        signature: SignatureStatus::NotChecked,
        signing_input: None,
        key_used: None,
        uncovered: Vec::new(),
        fresh_as_of: None,
        canonical: checked.canonical.clone(),
        canonical_contains_id: None,
        reachable_source: None,
        verdict: Verdict::Unverified,
    };
    check_signature(&checked, node, options, run, &mut report);
    warnings(&checked, value, options, run, &mut report);
    if options.required_level >= 2 {
        if let (Some(canonical), Some(id)) = (&checked.canonical, &checked.claim_id) {
            let outcome = check_canonical(fetcher, canonical, id, base);
            report.canonical_contains_id = outcome.contains_id;
            run.extend(2, outcome.incidents);
        }
        if !checked.sources.is_empty() {
            let outcome =
                check_sources(fetcher, &checked.sources, checked.claim_id.as_deref(), base);
            report.reachable_source = outcome.reachable;
            run.extend(2, outcome.incidents);
        }
    }
    report.verdict = verdict(&run.incidents[first..]);
    report
}

fn checked_at(e: &CheckedEnvelope, code: IncidentCode, pointer: &str, message: String) -> Incident {
    let mut location = Location::pointer(format!("{}{pointer}", e.base));
    location.claim_id = e.claim_id.clone();
    Incident::new(code, message, location)
}

/// CHAIN-006, CHAIN-007, CHAIN-014.
fn check_signature(
    e: &CheckedEnvelope,
    node: &Node,
    options: &VerifyOptions,
    run: &mut Run,
    report: &mut EnvelopeReport,
) {
    let (Some(algorithm), Some(signer), Some(_), Some(signature)) =
        (e.algorithm, &e.signed_by, &e.signed_at, &e.signature)
    else {
        return;
    };
    if e.payload_conflict {
        return;
    }
    let (Some(claim), Some(at), Some(by)) = (
        node.get("claim"),
        node.pointer("/signature/signedAt"),
        node.pointer("/signature/signedBy"),
    ) else {
        return;
    };
    let inputs: Vec<(SigningInput, Vec<u8>)> = SigningInput::ORDER
        .iter()
        .filter_map(|input| {
            signing_bytes(*input, claim, at, by)
                .ok()
                .map(|b| (*input, b))
        })
        .collect();
    if inputs.is_empty() {
        return;
    }
    match options.trust.check(algorithm, signer, signature, &inputs) {
        Check::Verified(m) => {
            report.signature = SignatureStatus::Verified;
            report.signing_input = Some(m.signing_input);
            report.key_used = Some(m.key);
            if m.signing_input == SigningInput::DeployedJs {
                report.uncovered = deployed_uncovered(claim, &e.base);
                run.push(1, checked_at(e, IncidentCode::ChainSignaturePartial, "/signature", format!(
                    "the signature verifies only under the deployed-js signing input, which does not cover: {}",
                    report.uncovered.join(", ")
                )));
            }
        }
        Check::Invalid { tried } => {
            report.signature = SignatureStatus::Invalid;
            let names: Vec<&str> = inputs.iter().map(|(i, _)| i.as_str()).collect();
            run.push(1, checked_at(e, IncidentCode::ChainSignatureInvalid, "/signature/signature", format!(
                "the {} signature does not verify under the signing inputs {} with any of the {tried} keys configured for `{signer}`",
                algorithm.as_str(),
                names.join(", ")
            )));
        }
        Check::NoKey => {
            report.signature = SignatureStatus::KeyUnresolved;
            let what = match algorithm {
                crate::keys::Algorithm::HmacSha256 => "shared secret",
                crate::keys::Algorithm::Ed25519 => "Ed25519 public key",
            };
            run.push(
                1,
                checked_at(
                    e,
                    IncidentCode::ChainKeyUnresolved,
                    "/signature/signedBy",
                    format!("no {what} is configured for the signer `{signer}`"),
                ),
            );
        }
        Check::Broken(broken) => {
            run.push(
                1,
                checked_at(
                    e,
                    broken.code,
                    "/signature/signedBy",
                    format!(
                        "the key set configured for `{signer}` is unusable: {}",
                        broken.message
                    ),
                ),
            );
        }
    }
}

/// CHAIN-008, CHAIN-009, CHAIN-010 (warnings).
fn warnings(
    e: &CheckedEnvelope,
    value: &Value,
    options: &VerifyOptions,
    run: &mut Run,
    report: &mut EnvelopeReport,
) {
    if let Some(Value::Array(sources)) = value.pointer("/claim/sources") {
        let has_excerpt = sources.iter().any(|s| {
            s.get("excerpt")
                .and_then(Value::as_str)
                .is_some_and(|x| !x.is_empty())
        });
        if !sources.is_empty() && !has_excerpt {
            run.push(
                1,
                checked_at(
                    e,
                    IncidentCode::ChainExcerptMissing,
                    "/claim/sources",
                    "no source carries a verbatim excerpt".into(),
                ),
            );
        }
    }
    if let (Some(Value::String(cited)), Some(id), Some(canonical)) =
        (value.get("citedAs"), &e.claim_id, &e.canonical)
        && !(cited.contains(id.as_str()) && cited.contains(canonical.as_str()))
    {
        run.push(
            1,
            checked_at(
                e,
                IncidentCode::ChainCitedAsMismatch,
                "/citedAs",
                "citedAs does not contain both the claim id and the canonical URL".into(),
            ),
        );
    }
    let fresh = match (&e.last_verified, &e.signed_at) {
        (Some((t, text)), _) => Some((*t, text.clone(), "/claim/lastVerified")),
        (None, Some(t)) => Some((
            t.unix_seconds(),
            t.as_str().to_owned(),
            "/signature/signedAt",
        )),
        (None, None) => None,
    };
    if let Some((t, text, pointer)) = fresh {
        report.fresh_as_of = Some(text.clone());
        let age = options.now.saturating_sub(t);
        if age > options.stale_after_days.saturating_mul(86_400) {
            run.push(1, checked_at(e, IncidentCode::ChainStale, pointer, format!(
                "last verified {text}, {} days before the verification time (stale after {})",
                age / 86_400,
                options.stale_after_days
            )));
        }
    }
}

fn verdict(incidents: &[ChainIncident]) -> Verdict {
    let codes = || incidents.iter().map(|i| i.incident.code);
    let tampered = [
        IncidentCode::ChainIdMismatch,
        IncidentCode::ChainSignatureInvalid,
        IncidentCode::ChainMapKeyMismatch,
    ];
    if codes().any(|c| tampered.contains(&c)) {
        Verdict::Tampered
    } else if incidents
        .iter()
        .any(|i| i.incident.severity == Severity::Error)
    {
        Verdict::Unverified
    } else if codes().any(|c| c == IncidentCode::ChainStale) {
        Verdict::Stale
    } else {
        Verdict::Verified
    }
}
