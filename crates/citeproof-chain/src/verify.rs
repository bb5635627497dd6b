//! The verification flow (profile "Citation-chain envelopes"): one envelope, or a response with
//! an answer and its `chains`. Level 1 is offline (structure, id, signature, answer
//! references); Level 2 re-fetches canonical URLs and sources.

use citeproof_fetch::{BudgetedFetcher, FetchBudget, Fetcher};
use citeproof_model::{
    Findings, Incident, IncidentCode, Location, Report, Severity, Subject, SubjectKind,
};
use serde_json::Value;

use crate::answer::check_answer;
use crate::checks::{
    check_dates, excerpt_and_citation, freshness, members_outside_the_profile, unbound_canonical,
};
use crate::envelope::{CheckedEnvelope, check_envelope, kind};
use crate::keys::{Check, TrustConfig};
use crate::lossless::{self, Node};
use crate::online::{check_canonical, check_sources};
use crate::report::{
    ChainDetails, ChainReport, EnvelopeReport, Freshness, SignatureStatus, Verdict,
};
use crate::signing::{SigningInput, child, deployed_uncovered, envelope_signing_inputs};

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
    /// CHAIN-015: let a partially signed envelope (`deployed-js` only) reach a level, with the
    /// warning `chain-signature-partial-accepted` instead of the error
    /// `chain-signature-partial`. Its verdict stays `partially-signed`, never verified.
    pub accept_partial_signature: bool,
}

impl VerifyOptions {
    pub fn new(now: i64, required_level: u8, trust: TrustConfig) -> VerifyOptions {
        VerifyOptions {
            now,
            required_level,
            trust,
            stale_after_days: STALE_AFTER_DAYS,
            budget: FetchBudget::default(),
            accept_partial_signature: false,
        }
    }
}

/// Incidents of one verification, each with the level it counts toward (the kit's
/// [`Findings`]: 1 offline, 2 online).
pub(crate) struct Run {
    required_level: u8,
    /// Document checks only (`citeproof validate`): no key, no clock, no network.
    pub(crate) validate_only: bool,
    pub(crate) findings: Findings,
}

impl Run {
    pub(crate) fn push(&mut self, level: u8, incident: Incident) {
        self.findings.push(level, incident);
    }

    fn extend(&mut self, level: u8, incidents: impl IntoIterator<Item = Incident>) {
        self.findings.extend(level, incidents);
    }

    /// The report, by the one level rule: the level is met when no error counts toward any
    /// level up to it; the document is verified when the level is met and no envelope is
    /// partially signed (CHAIN-014, CHAIN-015).
    fn report(
        self,
        document: &'static str,
        envelopes: Vec<EnvelopeReport>,
        references: Vec<crate::report::ReferenceReport>,
    ) -> ChainReport {
        let mut verdict = self
            .findings
            .finish(self.required_level, self.required_level);
        let accepted = verdict.verified;
        let partial = envelopes
            .iter()
            .any(|e| e.verdict == Verdict::PartiallySigned);
        verdict.verified = accepted && !partial;
        let details = ChainDetails {
            document,
            accepted,
            envelopes,
            references,
        };
        Report::new(
            crate::SPEC.name(),
            Subject::new(SubjectKind::Value, "chain"),
            verdict,
            details,
        )
    }
}

/// Verifies a chain envelope or a chain response given as bytes (CHAIN-001 tells them apart).
/// Fetches (Level 2 only) go through `fetcher`, within `options.budget`.
/// The report's subject is a value with the digest of `bytes`; a caller that read a file names
/// it ([`Report::subject`]).
pub fn verify(bytes: &[u8], fetcher: &dyn Fetcher, options: &VerifyOptions) -> ChainReport {
    let mut report = verify_as(bytes, fetcher, options, None, false);
    report.subject = Subject::new(SubjectKind::Value, "chain").with_digest_of(bytes);
    report.trust = options.trust.describe();
    report
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
/// CHAIN-001 to CHAIN-006, CHAIN-008, CHAIN-009, CHAIN-011, CHAIN-017 to CHAIN-019 (a member
/// outside the profile is a warning here: whether the signature covers it needs a key).
/// `response` says which kind the document must be.
pub fn validate_value(value: &Value, response: bool) -> Vec<Incident> {
    let Ok(bytes) = serde_json::to_vec(value) else {
        return Vec::new();
    };
    let options = VerifyOptions::new(0, 1, TrustConfig::default());
    verify_as(&bytes, &NoNetwork, &options, Some(response), true)
        .verdict
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
    validate_only: bool,
) -> ChainReport {
    let mut run = Run {
        required_level: options.required_level.clamp(1, 2),
        validate_only,
        findings: Findings::new(),
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
    let mut report = if is_response {
        verify_response(&value, &node, &budgeted, options, run)
    } else {
        let envelope = verify_envelope(&value, &node, "", None, &budgeted, options, &mut run);
        run.report("envelope", vec![envelope], Vec::new())
    };
    report.items = crate::report::items(&report, &value);
    report
}

fn at(code: IncidentCode, pointer: &str, message: String) -> Incident {
    Incident::new(code, message, Location::pointer(pointer))
}

/// A chain response (CHAIN-011): its members, its envelopes, then its answer's references.
fn verify_response(
    value: &Value,
    node: &Node,
    fetcher: &dyn Fetcher,
    options: &VerifyOptions,
    mut run: Run,
) -> ChainReport {
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
    let answer = response_answer(obj, &mut run);
    let envelopes = response_envelopes(obj, node, fetcher, options, &mut run);
    let references = match answer {
        Some(answer) => check_answer(answer, &envelopes, &mut run),
        None => Vec::new(),
    };
    run.report("response", envelopes, references)
}

/// The response's members (only `answer`, `chains` and `x-` members) and its answer text.
fn response_answer<'v>(obj: &'v serde_json::Map<String, Value>, run: &mut Run) -> Option<&'v str> {
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
    match obj.get("answer") {
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
    }
}

/// Every envelope of `chains` (at most [`MAX_CHAINS`]), verified in key order.
fn response_envelopes(
    obj: &serde_json::Map<String, Value>,
    node: &Node,
    fetcher: &dyn Fetcher,
    options: &VerifyOptions,
    run: &mut Run,
) -> Vec<EnvelopeReport> {
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
                    run,
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
    envelopes
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
    let first = run.findings.iter().count();
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
            checked.at(
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
        unsigned: Vec::new(),
        freshness: Freshness::NotJudged,
        fresh_as_of: None,
        canonical: checked.canonical.clone(),
        canonical_contains_id: None,
        reachable_source: None,
        verdict: Verdict::Unverified,
    };
    let signer_configured = check_signature(&checked, node, options, run, &mut report);
    members_outside_the_profile(&checked, &report, run);
    excerpt_and_citation(&checked, value, run);
    if !run.validate_only {
        check_dates(&checked, options.now, run);
        freshness(&checked, options, run, &mut report);
    }
    if options.required_level >= 2 {
        if let (Some(canonical), Some(id)) = (&checked.canonical, &checked.claim_id) {
            let outcome = check_canonical(fetcher, canonical, id, base);
            report.canonical_contains_id = outcome.contains_id;
            run.extend(2, outcome.incidents);
            unbound_canonical(&checked, &report, signer_configured, run);
        }
        if !checked.sources.is_empty() {
            let outcome =
                check_sources(fetcher, &checked.sources, checked.claim_id.as_deref(), base);
            report.reachable_source = outcome.reachable;
            run.extend(2, outcome.incidents);
        }
    }
    let own: Vec<&Incident> = run
        .findings
        .iter()
        .skip(first)
        .map(|i| &i.incident)
        .collect();
    report.verdict = verdict(&own, report.signing_input);
    report
}

/// CHAIN-006, CHAIN-007, CHAIN-014, CHAIN-015. Returns whether the key that verified was
/// configured for the envelope's signer (`false` for a key given for any signer, or when
/// nothing verified).
fn check_signature(
    e: &CheckedEnvelope,
    node: &Node,
    options: &VerifyOptions,
    run: &mut Run,
    report: &mut EnvelopeReport,
) -> bool {
    let (Some(algorithm), Some(signer), Some(_), Some(signature)) =
        (e.algorithm, &e.signed_by, &e.signed_at, &e.signature)
    else {
        return false;
    };
    if e.payload_conflict {
        return false;
    }
    let inputs = envelope_signing_inputs(node);
    if inputs.is_empty() {
        return false;
    }
    match options.trust.check(algorithm, signer, signature, &inputs) {
        Check::Verified(m) => {
            report.signature = SignatureStatus::Verified;
            report.signing_input = Some(m.signing_input);
            report.key_used = Some(m.key);
            if m.signing_input == SigningInput::DeployedJs {
                let claim = node.get("claim").unwrap_or(&Node::Null);
                let mut unsigned = deployed_uncovered(claim, &e.base);
                unsigned.sort_unstable();
                report.unsigned = unsigned;
                run.push(1, partial_incident(e, options, &report.unsigned));
            }
            m.signer_configured
        }
        Check::Invalid { tried } => {
            report.signature = SignatureStatus::Invalid;
            let names: Vec<&str> = inputs.iter().map(|(i, _)| i.as_str()).collect();
            run.push(1, e.at(IncidentCode::ChainSignatureInvalid, "/signature/signature", format!(
                "the {} signature does not verify under the signing inputs {} with any of the {tried} keys configured for `{signer}`",
                algorithm.as_str(),
                names.join(", ")
            )));
            false
        }
        Check::NoKey => {
            report.signature = SignatureStatus::KeyUnresolved;
            let what = match algorithm {
                crate::keys::Algorithm::HmacSha256 => "shared secret",
                crate::keys::Algorithm::Ed25519 => "Ed25519 public key",
            };
            run.push(
                1,
                e.at(
                    IncidentCode::ChainKeyUnresolved,
                    "/signature/signedBy",
                    format!("no {what} is configured for the signer `{signer}`"),
                ),
            );
            false
        }
        Check::Broken(broken) => {
            run.push(
                1,
                e.at(
                    broken.code,
                    "/signature/signedBy",
                    format!(
                        "the key set configured for `{signer}` is unusable: {}",
                        broken.message
                    ),
                ),
            );
            false
        }
    }
}

/// CHAIN-014 (an error) or, when the user accepted partial signatures, CHAIN-015 (a warning):
/// both list every unsigned member.
fn partial_incident(e: &CheckedEnvelope, options: &VerifyOptions, unsigned: &[String]) -> Incident {
    let list = unsigned.join(", ");
    if options.accept_partial_signature {
        e.at(
            IncidentCode::ChainSignaturePartialAccepted,
            "/signature",
            format!(
                "PARTIALLY SIGNED, accepted on request: the signature verifies only under the deployed-js signing input; unsigned: {list}"
            ),
        )
    } else {
        e.at(
            IncidentCode::ChainSignaturePartial,
            "/signature",
            format!(
                "partially signed, not verified: the signature verifies only under the deployed-js signing input, which leaves {} members unsigned: {list}",
                unsigned.len()
            ),
        )
    }
}

/// The envelope's verdict from its incidents: tampered, then unverified (any other error but
/// the partial signature's), then partially signed, stale, verified.
fn verdict(incidents: &[&Incident], signing_input: Option<SigningInput>) -> Verdict {
    let codes = || incidents.iter().map(|i| i.code);
    let tampered = [
        IncidentCode::ChainIdMismatch,
        IncidentCode::ChainSignatureInvalid,
        IncidentCode::ChainMapKeyMismatch,
    ];
    if codes().any(|c| tampered.contains(&c)) {
        Verdict::Tampered
    } else if incidents
        .iter()
        .any(|i| i.severity == Severity::Error && i.code != IncidentCode::ChainSignaturePartial)
    {
        Verdict::Unverified
    } else if signing_input == Some(SigningInput::DeployedJs) {
        Verdict::PartiallySigned
    } else if codes().any(|c| c == IncidentCode::ChainStale) {
        Verdict::Stale
    } else {
        Verdict::Verified
    }
}
