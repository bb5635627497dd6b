//! The seed's four-step verification flow over a [`Fetcher`], with the level rules of the
//! profile ("Conformance levels"): the level achieved is the highest n such that no
//! error-severity incident counts toward levels 1 to n.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use citeproof_fetch::{
    BudgetedFetcher, FetchBudget, FetchError, FetchPolicy, FetchedResponse, Fetcher,
    SnapshotFetcher, parse_snapshot,
};
use citeproof_jose::VerifyingKey;
use citeproof_model::{
    ContentHash, Incident, IncidentCode, Location, Severity, aef_text_hash, jcs::canonicalize,
    json::parse_strict, sha256_bytes, snapshot::WebSnapshot,
};
use serde::Serialize;
use serde_json::Value;

use super::binding::ResponseText;
use super::discovery::{DISCOVERY_PATH, PublishedKey, check_discovery, check_jwk_set};
use super::header::parse_citation_source;
use super::jsonpath::Ctx;
use super::manifest::{CheckedSource, ManifestFindings, check_manifest};
use super::signature::{KeyResolver, ReceivedResponse, SignatureCheck, check_response_signature};
use super::support::{ExcerptRef, LexicalJudge, SupportJudge, assess};
use super::url::{equality_key, origin_of, urls_equal};

/// Skew tolerated for `emitted_at` in the future (ACA-L2-011), seconds.
const EMITTED_SKEW_SECONDS: i64 = 300;
/// Bounds of the excerpt search of ACA-L2-015.
const MAX_SEARCH_EXCERPT: u64 = 1024;
const MAX_SEARCH_BODY: usize = 1024 * 1024;

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
    /// Maximum age of manifest signatures, seconds (`None`: no limit, the profile default).
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
}

/// Default of [`VerifyOptions::max_excerpt_bytes`]: 256 MiB.
pub const DEFAULT_MAX_EXCERPT_BYTES: u64 = 256 * 1024 * 1024;

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
            max_signature_age: None,
            judge: Arc::new(LexicalJudge),
            extra_judges: Vec::new(),
            allow_private: false,
            history: None,
            budget: FetchBudget::default(),
            max_excerpt_bytes: DEFAULT_MAX_EXCERPT_BYTES,
        }
    }
}

/// An incident with the conformance level it counts toward.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AcaIncident {
    pub level: u8,
    #[serde(flatten)]
    pub incident: Incident,
}

/// Result of verifying one agent response.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcaReport {
    /// Level achieved, 0-3.
    pub level: u8,
    /// Level checked and required.
    pub required_level: u8,
    /// `level >= required_level`.
    pub verified: bool,
    /// URL of the agent response.
    pub url: String,
    pub incidents: Vec<AcaIncident>,
    pub manifests: Vec<ManifestReport>,
    /// Name of the support judge used.
    pub judge: String,
}

impl AcaReport {
    /// The incidents without their levels.
    pub fn plain_incidents(&self) -> Vec<Incident> {
        self.incidents.iter().map(|i| i.incident.clone()).collect()
    }

    /// Whether an incident with this code was reported.
    pub fn has(&self, code: IncidentCode) -> bool {
        self.incidents.iter().any(|i| i.incident.code == code)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestReport {
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// `sha256:<hex>` of the manifest body as served (what an audit store remembers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// `Some(keyid)` when a signature verified (Level 3 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<String>,
    pub claims: Vec<ClaimReport>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub sources: Vec<SourceReport>,
    /// `Some(true/false)` when the support check ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supported: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceReport {
    pub url: String,
    pub verdict: String,
}

/// Fetches the agent response at `url` and verifies it.
pub fn verify_url(url: &str, fetcher: &dyn Fetcher, opts: &VerifyOptions) -> AcaReport {
    match fetcher.fetch(url) {
        Ok(resp) => verify_response(&resp, fetcher, opts),
        Err(e) => {
            let mut run = Run::new(fetcher, opts, url);
            run.push(1, fetch_cause(&e, url));
            run.finish(opts.required_level.unwrap_or(1), Vec::new())
        }
    }
}

/// Verifies the agent response of a web snapshot, answering every fetch from the snapshot.
pub fn verify_snapshot(snapshot: &WebSnapshot, opts: &VerifyOptions) -> AcaReport {
    let policy = FetchPolicy {
        allow_private: opts.allow_private,
        ..FetchPolicy::default()
    };
    match SnapshotFetcher::new(snapshot, policy) {
        Ok(fetcher) => verify_response(fetcher.agent_response(), &fetcher, opts),
        Err(e) => snapshot_failure(&e, &snapshot.response.url, opts),
    }
}

/// [`verify_snapshot`] from the snapshot's JSON bytes.
pub fn verify_snapshot_bytes(bytes: &[u8], opts: &VerifyOptions) -> AcaReport {
    match parse_snapshot(bytes) {
        Ok(s) => verify_snapshot(&s, opts),
        Err(e) => snapshot_failure(&e, "", opts),
    }
}

/// The report of a snapshot that could not be read at all (`fetch-snapshot-invalid`, Level 0).
pub fn verify_snapshot_error(e: &FetchError, url: &str, opts: &VerifyOptions) -> AcaReport {
    snapshot_failure(e, url, opts)
}

fn snapshot_failure(e: &FetchError, url: &str, opts: &VerifyOptions) -> AcaReport {
    struct NoFetch;
    impl Fetcher for NoFetch {
        fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
            Err(FetchError::NotInSnapshot {
                url: url.to_owned(),
            })
        }
    }
    let nf = NoFetch;
    let mut run = Run::new(&nf, opts, url);
    run.push(1, fetch_cause(e, url));
    run.finish(opts.required_level.unwrap_or(1), Vec::new())
}

fn fetch_cause(e: &FetchError, url: &str) -> Incident {
    let code = IncidentCode::from_code(e.code()).unwrap_or(IncidentCode::FetchIoFailed);
    Incident::new(code, e.to_string(), url_loc(url))
}

fn url_loc(url: &str) -> Location {
    Location {
        url: Some(url.to_owned()),
        ..Location::default()
    }
}

struct Run<'a> {
    fetcher: &'a dyn Fetcher,
    opts: &'a VerifyOptions,
    url: String,
    incidents: Vec<AcaIncident>,
    /// Excerpt bytes handed to the support check so far (ACA-L2-023).
    excerpt_bytes: u64,
    budget_reported: bool,
}

/// One manifest URL of the response.
struct ManifestState {
    url: String,
    response: Option<FetchedResponse>,
    value: Option<Value>,
    findings: Option<ManifestFindings>,
    report: ManifestReport,
}

/// Keys available for one origin.
#[derive(Default)]
struct KeyTable {
    /// `manifest_origins` of the discovery document (ACA-DISC-006).
    manifest_origins: Vec<String>,
    keys: Vec<PublishedKey>,
    unusable: BTreeSet<String>,
    note: Option<String>,
}

impl KeyResolver for KeyTable {
    fn resolve(&self, keyid: &str) -> Result<VerifyingKey, String> {
        if self.unusable.contains(keyid) {
            return Err("the key published under this kid is not usable".into());
        }
        let found: Vec<&PublishedKey> = self.keys.iter().filter(|k| k.kid == keyid).collect();
        match found.as_slice() {
            [one] => Ok(one.key),
            [] => Err(match &self.note {
                Some(note) => format!("no published key has this kid ({note})"),
                None => "no key published by the discovery document has this kid".into(),
            }),
            _ => Err("several published keys have this kid".into()),
        }
    }
}

impl<'a> Run<'a> {
    fn new(fetcher: &'a dyn Fetcher, opts: &'a VerifyOptions, url: &str) -> Run<'a> {
        Run {
            fetcher,
            opts,
            url: url.to_owned(),
            incidents: Vec::new(),
            excerpt_bytes: 0,
            budget_reported: false,
        }
    }

    fn push(&mut self, level: u8, incident: Incident) {
        self.incidents.push(AcaIncident { level, incident });
    }

    fn extend(&mut self, level: u8, incidents: impl IntoIterator<Item = Incident>) {
        for i in incidents {
            self.push(level, i);
        }
    }

    /// GET under the fetching rules: status 200 and no content coding (FETCH-006, FETCH-007).
    /// On failure returns the consumer incident and the cause incident.
    fn fetch_ok(
        &self,
        url: &str,
        consumer: IncidentCode,
        what: &str,
    ) -> Result<FetchedResponse, Vec<Incident>> {
        let fail = |cause: Incident| {
            vec![
                Incident::new(
                    consumer,
                    format!("{what} `{url}` could not be fetched: {}", cause.message),
                    url_loc(url),
                ),
                cause,
            ]
        };
        let resp = self
            .fetcher
            .fetch(url)
            .map_err(|e| fail(fetch_cause(&e, url)))?;
        if resp.status != 200 {
            return Err(fail(Incident::new(
                IncidentCode::FetchHttpStatus,
                format!("status {} (only 200 is accepted)", resp.status),
                url_loc(url),
            )));
        }
        let codings: Vec<String> = resp
            .header_values("content-encoding")
            .flat_map(|v| v.split(','))
            .map(|c| c.trim_matches([' ', '\t']).to_ascii_lowercase())
            .filter(|c| !c.is_empty())
            .collect();
        if codings.iter().any(|c| c != "identity") {
            return Err(fail(Incident::new(
                IncidentCode::FetchContentEncoding,
                format!(
                    "Content-Encoding `{}` was applied although identity was requested",
                    codings.join(", ")
                ),
                url_loc(url),
            )));
        }
        Ok(resp)
    }

    fn finish(mut self, required: u8, manifests: Vec<ManifestReport>) -> AcaReport {
        let required = required.clamp(1, 3);
        let failed = |lvl: u8| {
            self.incidents
                .iter()
                .any(|i| i.level == lvl && i.incident.severity == Severity::Error)
        };
        let mut level = 0;
        for l in 1..=required {
            if failed(l) {
                break;
            }
            level = l;
        }
        self.incidents.sort_by_key(|i| i.level);
        AcaReport {
            level,
            required_level: required,
            verified: level >= required,
            url: self.url,
            incidents: self.incidents,
            manifests,
            judge: self.opts.judge.name().to_owned(),
        }
    }
}

/// Verifies one agent response; every other resource is fetched with `fetcher`.
pub fn verify_response(
    agent: &FetchedResponse,
    fetcher: &dyn Fetcher,
    opts: &VerifyOptions,
) -> AcaReport {
    let budgeted = BudgetedFetcher::new(fetcher, opts.budget);
    let mut run = Run::new(&budgeted, opts, &agent.url);

    // Step 1: Citation-Source (Level 1).
    let lines: Vec<&str> = agent.header_values("citation-source").collect();
    let header = parse_citation_source(&lines);
    run.extend(1, header.incidents.iter().cloned());
    if opts.required_level == Some(1) {
        return run.finish(1, Vec::new());
    }
    // ACA-L1-005, ACA-L2-004: a header-only entry or one without `run` is Level 1 at most.
    run.extend(2, header.level2.iter().cloned());

    // Step 2: manifests (Level 2, chain findings kept for Level 3).
    let mut manifests: Vec<ManifestState> = Vec::new();
    for entry in header.entries.iter().filter(|e| e.usable) {
        let Some(m) = &entry.manifest else { continue };
        if manifests
            .iter()
            .any(|s| equality_key(&s.url) == equality_key(m))
        {
            continue;
        }
        manifests.push(load_manifest(&mut run, m));
    }
    let claimed = if manifests.iter().any(|m| {
        m.findings
            .as_ref()
            .is_some_and(|f| f.manifest.has_chain_member)
            || m.response.as_ref().is_some_and(|r| {
                r.header("signature-input").is_some() || r.header("signature").is_some()
            })
    }) {
        3
    } else if header.entries.iter().all(|e| e.manifest.is_none()) {
        // A header-only response (seed Level 1, "useful for legacy agents") claims Level 1.
        1
    } else {
        2
    };
    let required = opts.required_level.unwrap_or(claimed).clamp(1, 3);

    check_run_binding(&mut run, &manifests, header.run.as_deref());
    check_claims_in_response(&mut run, agent, &manifests);
    check_claim_id_conflicts(&mut run, &manifests);
    check_emission_time(&mut run, &manifests);
    check_header_agreement(&mut run, &header.entries, &manifests);
    check_sources(&mut run, &mut manifests);

    // Step 3: chain and signatures (Level 3).
    let response_origin = origin_of(&agent.url).unwrap_or_default();
    if required >= 3 {
        let mut tables: BTreeMap<String, KeyTable> = BTreeMap::new();
        for m in &mut manifests {
            if let Some(f) = &m.findings {
                run.extend(3, f.level3.iter().cloned());
            }
            let Some(resp) = &m.response else { continue };
            if let Some(value) = &m.value
                && canonicalize(value) != resp.body
            {
                run.push(
                    3,
                    Incident::new(
                        IncidentCode::AcaManifestNotJcs,
                        "the manifest body is not byte-identical to its RFC 8785 canonical form",
                        url_loc(&m.url),
                    ),
                );
            }
            // ACA-DISC-001: the agent's identity is the response's origin; its discovery
            // document names the keys, whatever origin hosts the manifest.
            let origin = response_origin.clone();
            if !tables.contains_key(&origin) {
                let table = load_keys(&mut run, &origin);
                tables.insert(origin.clone(), table);
            }
            let empty = KeyTable::default();
            let table = tables.get(&origin).unwrap_or(&empty);
            check_manifest_origin(&mut run, &m.url, &origin, table);
            let received = ReceivedResponse {
                status: resp.status,
                headers: &resp.headers,
                body: &resp.body,
            };
            let settings = SignatureCheck {
                now: opts.now,
                max_age: opts.max_signature_age,
            };
            let found = check_response_signature(&received, table, settings, Some(&m.url));
            run.extend(3, found.incidents);
            m.report.signed_by = found.verified.map(|v| v.keyid);
        }
    }
    let reports = manifests.into_iter().map(|m| m.report).collect();
    let mut report = run.finish(required, reports);
    if let Some(history) = &opts.history {
        apply_history(&mut report, history.as_ref());
    }
    report
}

/// ACA-L2-022 on a finished report: a manifest seen before under another run or for another
/// response is reused. Also used after a batch verified in parallel, in input order, so the
/// verdict does not depend on timing.
pub fn apply_history(report: &mut AcaReport, history: &dyn ManifestHistory) {
    let mut found = Vec::new();
    for m in &report.manifests {
        let Some(digest) = &m.digest else { continue };
        let run_id = m.run_id.as_deref();
        let earlier = history
            .sightings(digest)
            .into_iter()
            .find(|e| e.run_id.as_deref() != run_id || !urls_equal(&e.response_url, &report.url));
        if let Some(e) = earlier {
            found.push(AcaIncident {
                level: 2,
                incident: Incident::new(
                    IncidentCode::AcaManifestReused,
                    format!(
                        "this manifest ({digest}) was already cited by `{}` under run `{}`",
                        e.response_url,
                        e.run_id.as_deref().unwrap_or("(none)")
                    ),
                    url_loc(&m.url),
                ),
            });
        }
    }
    if found.is_empty() {
        return;
    }
    report.incidents.extend(found);
    report.incidents.sort_by_key(|i| i.level);
    report.level = report.level.min(1);
    report.verified = report.level >= report.required_level;
}

fn load_manifest(run: &mut Run<'_>, url: &str) -> ManifestState {
    let mut state = ManifestState {
        url: url.to_owned(),
        response: None,
        value: None,
        findings: None,
        report: ManifestReport {
            url: url.to_owned(),
            run_id: None,
            digest: None,
            signed_by: None,
            claims: Vec::new(),
        },
    };
    let resp = match run.fetch_ok(url, IncidentCode::AcaManifestFetchFailed, "manifest") {
        Ok(r) => r,
        Err(incidents) => {
            run.extend(2, incidents);
            return state;
        }
    };
    state.report.digest = Some(sha256_bytes(&resp.body).to_string());
    let media = resp
        .content_type_essence()
        .unwrap_or_else(|| "application/octet-stream".into());
    if media != "application/json" && !media.ends_with("+json") {
        run.push(
            2,
            Incident::new(
                IncidentCode::AcaManifestContentType,
                format!(
                    "the manifest is served as `{media}`, not application/json or a +json type"
                ),
                url_loc(url),
            ),
        );
    }
    match parse_strict(&resp.body) {
        Ok(value) => {
            let findings = check_manifest(&value, Some(url));
            run.extend(2, findings.level2.iter().cloned());
            state.report.run_id = findings.manifest.run_id.clone();
            state.report.claims = findings
                .manifest
                .claims
                .iter()
                .map(|c| ClaimReport {
                    claim_id: c.claim_id.clone(),
                    text: c.text.clone(),
                    sources: Vec::new(),
                    supported: None,
                })
                .collect();
            state.findings = Some(findings);
            state.value = Some(value);
        }
        Err(e) => {
            let mut i = e.to_incident();
            i.location.url = Some(url.to_owned());
            run.push(2, i);
        }
    }
    state.response = Some(resp);
    state
}

/// ACA-L2-004.
fn check_run_binding(run: &mut Run<'_>, manifests: &[ManifestState], header_run: Option<&str>) {
    let mut reference: Option<(String, String)> =
        header_run.map(|r| (r.to_owned(), "the header's run parameter".to_owned()));
    for m in manifests {
        let Some(id) = m.findings.as_ref().and_then(|f| f.manifest.run_id.clone()) else {
            continue;
        };
        match &reference {
            None => reference = Some((id, format!("manifest `{}`", m.url))),
            Some((r, from)) if *r != id => {
                let mut i = Incident::new(
                    IncidentCode::AcaRunMismatch,
                    format!(
                        "run_id `{id}` differs from `{r}` of {from}: the manifest was reused across runs"
                    ),
                    url_loc(&m.url),
                );
                i.location.pointer = Some("/run_id".into());
                run.push(2, i);
            }
            Some(_) => {}
        }
    }
}

/// ACA-L2-007 (second half).
/// ACA-L2-021: every claim text of every manifest occurs in the response body.
fn check_claims_in_response(
    run: &mut Run<'_>,
    agent: &FetchedResponse,
    manifests: &[ManifestState],
) {
    let text = ResponseText::of(agent.header("content-type"), &agent.body);
    for m in manifests {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            let Some(claim) = &c.text else { continue };
            if text.contains_claim(claim) {
                continue;
            }
            let why = if text.is_empty() {
                "the response body has no text to find it in (not a textual media type, not UTF-8, or empty)"
            } else {
                "it does not occur in the response body (compared after normalization)"
            };
            run.push(
                2,
                Incident::new(
                    IncidentCode::AcaClaimNotInResponse,
                    format!("claim `{}`: {why}", c.claim_id.as_deref().unwrap_or("?")),
                    Location {
                        url: Some(m.url.clone()),
                        claim_id: c.claim_id.clone(),
                        pointer: Some(format!("{}/text", c.pointer)),
                        ..Location::default()
                    },
                ),
            );
        }
    }
}

/// ACA-DISC-006: a manifest hosted on another origin than the response's is authorized by the
/// response origin's discovery document.
fn check_manifest_origin(run: &mut Run<'_>, manifest_url: &str, origin: &str, table: &KeyTable) {
    let manifest_origin = origin_of(manifest_url).unwrap_or_default();
    if manifest_origin == origin || table.manifest_origins.contains(&manifest_origin) {
        return;
    }
    if table.note.is_some() {
        // No usable discovery document: already reported, nothing to judge by (rule 3).
        return;
    }
    run.push(
        3,
        Incident::new(
            IncidentCode::AcaManifestOriginUnauthorized,
            format!(
                "the manifest is hosted on {manifest_origin}, but the discovery document of the response origin {origin} does not list it in manifest_origins"
            ),
            url_loc(manifest_url),
        ),
    );
}

fn check_claim_id_conflicts(run: &mut Run<'_>, manifests: &[ManifestState]) {
    let mut seen: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut reported: BTreeSet<String> = BTreeSet::new();
    for m in manifests {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            let (Some(id), Some(text)) = (&c.claim_id, &c.text) else {
                continue;
            };
            match seen.get(id) {
                None => {
                    seen.insert(id.clone(), (text.clone(), m.url.clone()));
                }
                Some((t, other)) if t != text && *other != m.url && reported.insert(id.clone()) => {
                    run.push(
                        2,
                        Incident::new(
                            IncidentCode::AcaClaimIdConflict,
                            format!(
                                "claim_id `{id}` names different texts in `{other}` and `{}`",
                                m.url
                            ),
                            Location {
                                url: Some(m.url.clone()),
                                claim_id: Some(id.clone()),
                                pointer: Some(format!("{}/text", c.pointer)),
                                ..Location::default()
                            },
                        ),
                    );
                }
                Some(_) => {}
            }
        }
    }
}

/// ACA-L2-011 (warning).
fn check_emission_time(run: &mut Run<'_>, manifests: &[ManifestState]) {
    for m in manifests {
        let Some(t) = m
            .findings
            .as_ref()
            .and_then(|f| f.manifest.emitted_at.clone())
        else {
            continue;
        };
        let limit = run.opts.now.saturating_add(EMITTED_SKEW_SECONDS);
        // Offsets are whole minutes, so the fraction written is the instant's fraction.
        let later = t.unix_seconds() > limit
            || (t.unix_seconds() == limit && has_nonzero_fraction(t.as_str()));
        if later {
            let mut i = Incident::new(
                IncidentCode::AcaEmittedInFuture,
                format!(
                    "emitted_at {t} is more than {EMITTED_SKEW_SECONDS} s after the verification time"
                ),
                url_loc(&m.url),
            );
            i.location.pointer = Some("/emitted_at".into());
            run.push(2, i);
        }
    }
}

/// Whether a timestamp's text has a fraction of a second other than zero (`.000` is zero).
fn has_nonzero_fraction(text: &str) -> bool {
    text.get(19..)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|digits| {
            digits
                .chars()
                .take_while(char::is_ascii_digit)
                .any(|c| c != '0')
        })
}

/// ACA-L2-012.
fn check_header_agreement(
    run: &mut Run<'_>,
    entries: &[super::header::HeaderEntry],
    manifests: &[ManifestState],
) {
    let header_sources: BTreeSet<String> = entries
        .iter()
        .filter(|e| super::url::is_web_url(&e.source))
        .map(|e| equality_key(&e.source))
        .collect();
    for entry in entries.iter().filter(|e| e.usable) {
        let Some(m_url) = &entry.manifest else {
            continue;
        };
        let Some(m) = manifests
            .iter()
            .find(|m| equality_key(&m.url) == equality_key(m_url))
        else {
            continue;
        };
        let Some(f) = &m.findings else { continue };
        let key = equality_key(&entry.source);
        let cited = f
            .manifest
            .claims
            .iter()
            .flat_map(|c| c.sources.iter())
            .any(|s| s.url.as_ref().is_some_and(|u| equality_key(u) == key));
        if cited {
            continue;
        }
        // A consulted source no claim cites is fine ("every source URL consulted"), but at
        // Level 3 the chain of its manifest records the tool call that consulted it.
        let in_chain = f.manifest.chain.as_ref().is_some_and(|steps| {
            steps
                .iter()
                .flat_map(|st| st.sources.iter())
                .any(|u| equality_key(u) == key)
        });
        if !in_chain {
            run.push(
                3,
                Incident::new(
                    IncidentCode::AcaSourceNotInManifest,
                    format!(
                        "`{}` is listed in Citation-Source, but neither a claim nor the chain of manifest `{m_url}` names it",
                        entry.source
                    ),
                    url_loc(&entry.source),
                ),
            );
        }
    }
    for m in manifests {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            for s in &c.sources {
                let Some(u) = &s.url else { continue };
                if !header_sources.contains(&equality_key(u)) {
                    run.push(
                        2,
                        Incident::new(
                            IncidentCode::AcaSourceNotInHeader,
                            format!(
                                "source `{u}` is cited in `{}` but not listed in Citation-Source",
                                m.url
                            ),
                            Location {
                                url: Some(m.url.clone()),
                                pointer: Some(format!("{}/url", s.pointer)),
                                claim_id: c.claim_id.clone(),
                                ..Location::default()
                            },
                        ),
                    );
                }
            }
        }
    }
}

/// Steps 3 and 4: re-fetch sources, compare hashes, check excerpts and support.
fn check_sources(run: &mut Run<'_>, manifests: &mut [ManifestState]) {
    // Each distinct source is fetched and hashed once, however many claims cite it.
    let mut bodies: BTreeMap<String, Option<(FetchedResponse, ContentHash)>> = BTreeMap::new();
    for m in manifests.iter() {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            for s in &c.sources {
                let Some(u) = &s.url else { continue };
                let key = equality_key(u);
                if bodies.contains_key(&key) {
                    continue;
                }
                let got = match run.fetch_ok(u, IncidentCode::AcaSourceFetchFailed, "source") {
                    Ok(r) => {
                        let hash = sha256_bytes(&r.body);
                        Some((r, hash))
                    }
                    Err(incidents) => {
                        run.extend(2, incidents);
                        None
                    }
                };
                bodies.insert(key, got);
            }
        }
    }
    for m in manifests.iter_mut() {
        let Some(f) = &m.findings else { continue };
        for (ci, c) in f.manifest.claims.iter().enumerate() {
            let mut excerpts: Vec<String> = Vec::new();
            let mut all = !c.sources.is_empty();
            let mut source_reports = Vec::new();
            for s in &c.sources {
                let Some(u) = &s.url else {
                    all = false;
                    continue;
                };
                let body = bodies.get(&equality_key(u)).and_then(Option::as_ref);
                let (excerpt, verdict) = match body {
                    None => (None, "not fetched".to_owned()),
                    Some((resp, actual)) => {
                        check_one_source(run, &m.url, c.claim_id.as_deref(), s, &resp.body, *actual)
                    }
                };
                source_reports.push(SourceReport {
                    url: u.clone(),
                    verdict,
                });
                match excerpt {
                    Some(e) => excerpts.push(e),
                    None => all = false,
                }
            }
            let mut supported = None;
            if all && let Some(text) = &c.text {
                let loc = Location {
                    url: Some(m.url.clone()),
                    claim_id: c.claim_id.clone(),
                    pointer: Some(format!("{}/text", c.pointer)),
                    ..Location::default()
                };
                supported = judge_claim(run, text, &c.sources, &excerpts, &loc);
            }
            if let Some(r) = m.report.claims.get_mut(ci) {
                r.sources = source_reports;
                r.supported = supported;
            }
        }
    }
}

/// ACA-L2-018 to ACA-L2-020 for one claim whose every source yielded an excerpt.
fn judge_claim(
    run: &mut Run<'_>,
    text: &str,
    sources: &[CheckedSource],
    excerpts: &[String],
    loc: &Location,
) -> Option<bool> {
    // ACA-L2-023: the support check's work is bounded whatever the manifest says.
    let bytes: u64 = excerpts
        .iter()
        .map(|e| u64::try_from(e.len()).unwrap_or(u64::MAX))
        .sum();
    run.excerpt_bytes = run.excerpt_bytes.saturating_add(bytes);
    if run.excerpt_bytes > run.opts.max_excerpt_bytes {
        if !run.budget_reported {
            run.budget_reported = true;
            run.push(
                2,
                Incident::new(
                    IncidentCode::AcaBudgetExhausted,
                    format!(
                        "the excerpts to check exceed {} bytes in all; the remaining claims are not checked",
                        run.opts.max_excerpt_bytes
                    ),
                    loc.clone(),
                ),
            );
        }
        return None;
    }
    let refs: Vec<ExcerptRef<'_>> = sources
        .iter()
        .zip(excerpts)
        .map(|(s, e)| {
            let mut location = loc.clone();
            location.pointer = Some(s.pointer.clone());
            ExcerptRef {
                text: e,
                source_url: s.url.as_deref().unwrap_or(""),
                location,
            }
        })
        .collect();
    let judges: Vec<&dyn SupportJudge> = run.opts.extra_judges.iter().map(|j| &**j).collect();
    let assessment = assess(text, &refs, loc, &*run.opts.judge, &judges);
    run.extend(2, assessment.incidents);
    assessment.supported
}

/// ACA-L2-014 to ACA-L2-017 for one claim source: returns the excerpt (when one is available
/// for the support check) and a verdict for the report.
fn check_one_source(
    run: &mut Run<'_>,
    manifest_url: &str,
    claim_id: Option<&str>,
    s: &CheckedSource,
    body: &[u8],
    actual: ContentHash,
) -> (Option<String>, String) {
    let ctx = Ctx {
        url: Some(manifest_url.to_owned()),
    };
    let Some(hash) = s.hash else {
        return (None, "no usable hash".into());
    };
    if actual != hash {
        run.push(
            2,
            ctx.at_claim(
                IncidentCode::AcaSourceHashMismatch,
                &format!("{}/hash", s.pointer),
                claim_id,
                format!(
                    "the source `{}` changed: its SHA-256 is {actual}, the manifest recorded {hash}",
                    s.url.as_deref().unwrap_or("")
                ),
            ),
        );
        // ACA-L2-015: diagnosis.
        let (Some(excerpt_hash), Some((start, end))) = (s.excerpt_hash, s.excerpt_offset) else {
            return (
                None,
                "source changed (no excerpt_hash to locate the excerpt)".into(),
            );
        };
        return match find_intact(body, start, end, excerpt_hash) {
            Some((a, b, moved)) => {
                let text = String::from_utf8_lossy(&body[a..b]).into_owned();
                run.push(
                    2,
                    ctx.at_claim(
                        IncidentCode::AcaExcerptIntact,
                        &format!("{}/excerpt_hash", s.pointer),
                        claim_id,
                        if moved {
                            format!(
                                "the source changed but the excerpt is intact at bytes [{a}, {b})"
                            )
                        } else {
                            "the source changed but the excerpt is intact at its offsets".to_owned()
                        },
                    ),
                );
                (Some(text), "source changed, excerpt intact".into())
            }
            None => {
                run.push(
                    2,
                    ctx.at_claim(
                        IncidentCode::AcaExcerptChanged,
                        &format!("{}/excerpt_hash", s.pointer),
                        claim_id,
                        "the source changed and the excerpt is no longer found exactly once".into(),
                    ),
                );
                (None, "source changed, excerpt changed".into())
            }
        };
    }
    let Some((start, end)) = s.excerpt_offset else {
        return (None, "hash ok, no usable excerpt_offset".into());
    };
    let len = body.len() as u64;
    if end > len {
        run.push(
            2,
            ctx.at_claim(
                IncidentCode::AcaOffsetOutOfRange,
                &format!("{}/excerpt_offset", s.pointer),
                claim_id,
                format!("excerpt_offset end {end} is beyond the body length {len}"),
            ),
        );
        return (None, "hash ok, offsets out of range".into());
    }
    let (a, b) = (start as usize, end as usize);
    let Ok(text) = std::str::from_utf8(&body[a..b]) else {
        run.push(
            2,
            ctx.at_claim(
                IncidentCode::AcaExcerptNotUtf8,
                &format!("{}/excerpt_offset", s.pointer),
                claim_id,
                format!("the bytes [{start}, {end}) are not well-formed UTF-8"),
            ),
        );
        return (None, "hash ok, excerpt not UTF-8".into());
    };
    if let Some(eh) = s.excerpt_hash {
        let got = aef_text_hash(text.as_bytes()).ok();
        if got != Some(eh) {
            run.push(
                2,
                ctx.at_claim(
                    IncidentCode::AcaExcerptHashMismatch,
                    &format!("{}/excerpt_hash", s.pointer),
                    claim_id,
                    format!(
                        "excerpt_hash is {eh} but the excerpt at [{start}, {end}) hashes to {}",
                        got.map(|h| h.to_string()).unwrap_or_default()
                    ),
                ),
            );
            return (
                Some(text.to_owned()),
                "hash ok, excerpt_hash mismatch".into(),
            );
        }
    }
    (Some(text.to_owned()), "hash ok, excerpt ok".into())
}

/// ACA-L2-015 (1) and (2): where the excerpt with `excerpt_hash` is in a changed body.
/// Returns `(start, end, moved)`.
fn find_intact(
    body: &[u8],
    start: u64,
    end: u64,
    excerpt_hash: ContentHash,
) -> Option<(usize, usize, bool)> {
    let len = body.len() as u64;
    if end <= len {
        let (a, b) = (start as usize, end as usize);
        if std::str::from_utf8(&body[a..b]).is_ok()
            && aef_text_hash(&body[a..b]).ok() == Some(excerpt_hash)
        {
            return Some((a, b, false));
        }
    }
    let width = end - start;
    if width > MAX_SEARCH_EXCERPT || body.len() > MAX_SEARCH_BODY || width > len {
        return None;
    }
    let w = width as usize;
    let mut found = None;
    for a in 0..=(body.len() - w) {
        let window = &body[a..a + w];
        // A window that starts or ends inside a UTF-8 sequence is not well-formed.
        if std::str::from_utf8(window).is_err() {
            continue;
        }
        if aef_text_hash(window).ok() == Some(excerpt_hash) {
            if found.is_some() {
                return None; // found twice: no longer identifies one passage
            }
            found = Some((a, a + w, true));
        }
    }
    found
}

/// Discovery document and keys of one origin (ACA-DISC-001 to -004), all Level 3.
fn load_keys(run: &mut Run<'_>, origin: &str) -> KeyTable {
    let mut table = KeyTable::default();
    let url = format!("{origin}{DISCOVERY_PATH}");
    let resp = match run.fetch_ok(
        &url,
        IncidentCode::AcaDiscoveryFetchFailed,
        "discovery document",
    ) {
        Ok(r) => r,
        Err(incidents) => {
            run.extend(3, incidents);
            table.note = Some("the discovery document could not be fetched".into());
            return table;
        }
    };
    let media = resp.content_type_essence().unwrap_or_default();
    if media != "application/json" && !media.ends_with("+json") {
        run.push(
            3,
            Incident::new(
                IncidentCode::AcaDiscoveryFetchFailed,
                format!("the discovery document is served as `{media}`, not as JSON"),
                url_loc(&url),
            ),
        );
        table.note = Some("the discovery document is not JSON".into());
        return table;
    }
    let value = match parse_strict(&resp.body) {
        Ok(v) => v,
        Err(e) => {
            let mut i = e.to_incident();
            i.location.url = Some(url.clone());
            run.push(3, i);
            table.note = Some("the discovery document is not I-JSON".into());
            return table;
        }
    };
    let f = check_discovery(&value, Some(&url));
    run.extend(3, f.incidents);
    table.manifest_origins = f.manifest_origins;
    table.keys = f.keys;
    table.unusable.extend(f.unusable_kids);
    if let Some(jwks_uri) = f.jwks_uri {
        match run.fetch_ok(&jwks_uri, IncidentCode::AcaJwksFetchFailed, "JWK Set") {
            Err(incidents) => run.extend(3, incidents),
            Ok(resp) => {
                match parse_strict(&resp.body) {
                    Err(e) => {
                        let mut i = e.to_incident();
                        i.location.url = Some(jwks_uri.clone());
                        run.push(3, i);
                    }
                    Ok(v) => {
                        let ctx = Ctx {
                            url: Some(jwks_uri.clone()),
                        };
                        let set = check_jwk_set(&v, "", &ctx);
                        run.extend(3, set.incidents);
                        table.unusable.extend(set.unusable_kids);
                        for k in set.keys {
                            match table.keys.iter().find(|e| e.kid == k.kid) {
                                Some(existing) if existing.key == k.key => {} // same key inline and at jwks_uri
                                Some(_) => {
                                    run.push(
                                    3,
                                    Incident::new(
                                        IncidentCode::JwkDuplicateKid,
                                        format!("kid `{}` names different keys inline and at jwks_uri", k.kid),
                                        url_loc(&jwks_uri),
                                    ),
                                );
                                    table.unusable.insert(k.kid.clone());
                                }
                                None => table.keys.push(k),
                            }
                        }
                    }
                }
            }
        }
    }
    table
}
