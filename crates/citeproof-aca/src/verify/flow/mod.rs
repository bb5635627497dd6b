//! The seed's four-step verification flow over a [`Fetcher`], with the level rules of the
//! profile ("Conformance levels"): the level achieved is the highest n such that no
//! error-severity incident counts toward levels 1 to n.
//!
//! - [`report`]: options and the report types;
//! - `manifests`: step 2, the manifests and how they bind to this response;
//! - `sources`: steps 3 and 4, re-fetched sources, excerpts and the support check;
//! - `keys`: discovery documents and keys (Level 3);
//! - `verdicts`: what each manifest's signature line and each claim line may say;
//! - `items`: the report's items (the shared form of every spec) and the trust used.
//!
//! The findings go into the one accumulator of every spec ([`Findings`]), whose level rule
//! decides the verdict; the report is the common [`Report`] with [`AcaDetails`].

mod items;
mod keys;
mod manifests;
pub mod report;
mod sources;
mod verdicts;

pub use report::{
    AcaDetails, AcaReport, ClaimReport, ManifestHistory, ManifestReport, Sighting,
    SignatureVerdict, SourceReport, VerifyOptions,
};

use std::collections::{BTreeMap, BTreeSet};

use citeproof_fetch::{
    BudgetedFetcher, FetchError, FetchPolicy, FetchedResponse, Fetcher, JsonSnapshotError,
    SnapshotFetcher, fetch_incident, get_ok, read_json_snapshot, refusal, url_location,
};
use citeproof_model::{
    ContentHash, Findings, Incident, IncidentCode, LeveledIncident, Location, Outcome, Report,
    Severity, Subject, SubjectKind, aef_text_hash, json::parse_strict, sha256_bytes,
    snapshot::WebSnapshot,
};

use crate::verify::binding::ResponseText;
use crate::verify::discovery::{DISCOVERY_PATH, PublishedKey, check_discovery, check_jwk_set};
use crate::verify::header::{HeaderParse, parse_citation_source};
use crate::verify::jsonpath::Ctx;
use crate::verify::manifest::{CheckedSource, ManifestFindings, read_manifest};
use crate::verify::signature::{
    KeyMiss, KeyResolver, ReceivedResponse, SignatureCheck, check_response_signature,
};
use crate::verify::support::{Analyzed, ExcerptRef, SupportJudge, assess, normalize};
use crate::verify::url::{equality_key, origin_of, urls_equal};

use keys::{KeyTable, check_manifest_origin, load_keys};
use manifests::{
    check_claim_id_conflicts, check_claims_in_response, check_emission_time,
    check_header_agreement, check_response_binding, check_run_binding, load_manifest,
};
use sources::check_sources;

/// Bounds of the excerpt search of ACA-L2-015.
const MAX_SEARCH_EXCERPT: u64 = 1024;
const MAX_SEARCH_BODY: usize = 1024 * 1024;

/// Fetches the agent response at `url` and verifies it.
pub fn verify_url(url: &str, fetcher: &dyn Fetcher, opts: &VerifyOptions) -> AcaReport {
    match fetcher.fetch(url) {
        Ok(resp) => verify_response(&resp, fetcher, opts),
        Err(e) => {
            let mut run = Run::new(fetcher, opts, url);
            run.extend(1, response_fetch_failed(url, fetch_incident(&e, url)));
            run.finish(opts.required_level.unwrap_or(1), Vec::new())
        }
    }
}

/// ACA-L1-009 and reporting rule 4: the consumer code of the agent response and its cause.
fn response_fetch_failed(url: &str, cause: Incident) -> Vec<Incident> {
    fetch_failed(
        IncidentCode::AcaResponseFetchFailed,
        "the agent response",
        url,
        cause,
    )
}

/// Reporting rule 4: the consumer incident `code` about `what` at `url`, then its cause.
fn fetch_failed(code: IncidentCode, what: &str, url: &str, cause: Incident) -> Vec<Incident> {
    let message = format!("{what} `{url}` could not be fetched: {}", cause.message);
    vec![Incident::new(code, message, url_location(url)), cause]
}

/// Verifies the agent response of a web snapshot, answering every fetch from the snapshot.
/// The report's subject is the response URL, of kind `snapshot`.
pub fn verify_snapshot(snapshot: &WebSnapshot, opts: &VerifyOptions) -> AcaReport {
    let policy = FetchPolicy {
        allow_private: opts.allow_private,
        ..FetchPolicy::default()
    };
    let mut report = match SnapshotFetcher::new(snapshot, policy) {
        Ok(fetcher) => verify_response(fetcher.agent_response(), &fetcher, opts),
        Err(e) => snapshot_failure(&e, &snapshot.response.url, opts),
    };
    report.subject.kind = SubjectKind::Snapshot;
    report
}

/// [`verify_snapshot`] from the snapshot's JSON bytes (bodies decoded straight from them and
/// hashed while decoded: [`read_json_snapshot`]).
pub fn verify_snapshot_bytes(bytes: &[u8], opts: &VerifyOptions) -> AcaReport {
    let policy = FetchPolicy {
        allow_private: opts.allow_private,
        ..FetchPolicy::default()
    };
    let mut report = match read_json_snapshot(bytes, policy) {
        Ok(fetcher) => verify_response(fetcher.agent_response(), &fetcher, opts),
        Err(JsonSnapshotError::Unreadable(e)) => snapshot_failure(&e, "", opts),
        Err(JsonSnapshotError::Invalid { agent_url, error }) => {
            snapshot_failure(&error, &agent_url, opts)
        }
    };
    report.subject.kind = SubjectKind::Snapshot;
    report
}

/// The report of a snapshot that could not be read at all (`fetch-snapshot-invalid`, Level 0).
pub fn verify_snapshot_error(e: &FetchError, url: &str, opts: &VerifyOptions) -> AcaReport {
    let mut report = snapshot_failure(e, url, opts);
    report.subject.kind = SubjectKind::Snapshot;
    report
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
    run.subject_kind = SubjectKind::Snapshot;
    // A snapshot that cannot be read fails every fetch (FETCH-008), the agent response's first.
    run.extend(1, response_fetch_failed(url, fetch_incident(e, url)));
    run.finish(opts.required_level.unwrap_or(1), Vec::new())
}

struct Run<'a> {
    fetcher: &'a dyn Fetcher,
    opts: &'a VerifyOptions,
    url: String,
    subject_kind: SubjectKind,
    findings: Findings,
    /// Incidents pushed so far (the accumulator only iterates).
    pushed: usize,
    /// Origins whose discovery document supplied keys for Level 3 (the trust used).
    key_origins: Vec<String>,
    /// Excerpt bytes handed to the support check so far (ACA-L2-023).
    excerpt_bytes: u64,
    budget_reported: bool,
    /// Bytes hashed by the excerpt searches so far (ACA-L2-015, ACA-L2-023).
    search_bytes: u64,
    search_budget_reported: bool,
}

/// One manifest URL of the response.
struct ManifestState {
    url: String,
    response: Option<FetchedResponse>,
    /// `Some(is the body its own RFC 8785 form)` when the body parsed (ACA-L3-012).
    canonical: Option<bool>,
    findings: Option<ManifestFindings>,
    /// N(text) of each claim with a text, by claim index: computed once for ACA-L2-021 and
    /// reused by the support check.
    normalized: Vec<Option<String>>,
    report: ManifestReport,
}

impl<'a> Run<'a> {
    fn new(fetcher: &'a dyn Fetcher, opts: &'a VerifyOptions, url: &str) -> Run<'a> {
        Run {
            fetcher,
            opts,
            url: url.to_owned(),
            subject_kind: SubjectKind::Url,
            findings: Findings::new(),
            pushed: 0,
            key_origins: Vec::new(),
            excerpt_bytes: 0,
            budget_reported: false,
            search_bytes: 0,
            search_budget_reported: false,
        }
    }

    fn push(&mut self, level: u8, incident: Incident) {
        self.findings.push(level, incident);
        self.pushed += 1;
    }

    /// The incidents pushed since `before` (a value of `pushed`).
    fn since(&self, before: usize) -> impl Iterator<Item = &LeveledIncident> {
        self.findings.iter().skip(before)
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
        get_ok(self.fetcher, url).map_err(|cause| fetch_failed(consumer, what, url, cause))
    }

    /// The report under the one level rule: the levels up to `required` are checked.
    fn finish(self, required: u8, manifests: Vec<ManifestReport>) -> AcaReport {
        let required = required.clamp(1, 3);
        let details = AcaDetails {
            manifests,
            judge: self.opts.judge.name().to_owned(),
        };
        let subject = Subject::new(self.subject_kind, self.url);
        let mut report = Report::new(
            crate::SPEC.name(),
            subject,
            self.findings.finish(required, required),
            details,
        );
        report.trust.origins = self.key_origins;
        settle(&mut report);
        report
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

    // ACA-L1-009: the agent response is the final response of a GET under the fetching rules
    // (a snapshot's `response` included): an error page is not the agent's answer, whatever
    // header it carries. Nothing else is checked (reporting rule 3).
    if let Some(cause) = refusal(agent, &agent.url, |status| status == 200) {
        run.extend(1, response_fetch_failed(&agent.url, cause));
        return run.finish(opts.required_level.unwrap_or(1), Vec::new());
    }

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
    let mut manifests = load_manifests(&mut run, &header);
    let required = opts
        .required_level
        .unwrap_or_else(|| claimed_level(&header, &manifests))
        .clamp(1, 3);

    check_run_binding(&mut run, &manifests, header.run.as_deref());
    check_response_binding(&mut run, &agent.url, &manifests);
    check_claims_in_response(&mut run, agent, &mut manifests);
    check_claim_id_conflicts(&mut run, &manifests);
    check_emission_time(&mut run, &manifests);
    check_header_agreement(&mut run, &header.entries, &mut manifests);
    check_sources(&mut run, &mut manifests);

    // Step 3: chain and signatures (Level 3).
    if required >= 3 {
        check_level3(&mut run, &agent.url, &mut manifests);
    }
    let reports = manifests.into_iter().map(|m| m.report).collect();
    let mut report = run.finish(required, reports);
    if let Some(history) = &opts.history {
        apply_history(&mut report, history.as_ref());
    }
    report
}

/// Fetches and reads each distinct manifest the usable header entries name (ACA-L2-001).
fn load_manifests(run: &mut Run<'_>, header: &HeaderParse) -> Vec<ManifestState> {
    let mut manifests: Vec<ManifestState> = Vec::new();
    for entry in header.entries.iter().filter(|e| e.usable) {
        let Some(m) = &entry.manifest else { continue };
        if manifests
            .iter()
            .any(|s| equality_key(&s.url) == equality_key(m))
        {
            continue;
        }
        manifests.push(load_manifest(run, m));
    }
    manifests
}

/// The level a response claims when the caller requires none: 3 when a manifest has a chain or
/// is signed, 1 for a header-only response (seed Level 1, "useful for legacy agents"), else 2.
fn claimed_level(header: &HeaderParse, manifests: &[ManifestState]) -> u8 {
    let level3 = manifests.iter().any(|m| {
        m.findings
            .as_ref()
            .is_some_and(|f| f.manifest.has_chain_member)
            || m.response.as_ref().is_some_and(|r| {
                r.header("signature-input").is_some() || r.header("signature").is_some()
            })
    });
    if level3 {
        3
    } else if header.entries.iter().all(|e| e.manifest.is_none()) {
        1
    } else {
        2
    }
}

/// Step 3: each manifest's chain findings, canonical form, origin and RFC 9421 signature
/// against the keys the agent's origin publishes (fetched once per origin).
fn check_level3(run: &mut Run<'_>, agent_url: &str, manifests: &mut [ManifestState]) {
    let response_origin = origin_of(agent_url).unwrap_or_default();
    let mut tables: BTreeMap<String, KeyTable> = BTreeMap::new();
    // Errors of the discovery document and key set: they concern every manifest's signature.
    let mut key_failures: Vec<IncidentCode> = Vec::new();
    for m in manifests {
        if let Some(f) = &m.findings {
            run.extend(3, f.level3.iter().cloned());
        }
        if m.response.is_none() {
            continue;
        }
        if m.canonical == Some(false) {
            run.push(
                3,
                Incident::new(
                    IncidentCode::AcaManifestNotJcs,
                    "the manifest body is not byte-identical to its RFC 8785 canonical form",
                    url_location(&m.url),
                ),
            );
        }
        // ACA-DISC-001: the agent's identity is the response's origin; its discovery
        // document names the keys, whatever origin hosts the manifest.
        let origin = response_origin.clone();
        if !tables.contains_key(&origin) {
            let before = run.pushed;
            let table = load_keys(run, &origin);
            let found: Vec<IncidentCode> = run
                .since(before)
                .filter(|i| i.incident.severity == Severity::Error)
                .map(|i| i.incident.code)
                .collect();
            key_failures.extend(found);
            if table.has_keys() {
                run.key_origins.push(origin.clone());
            }
            tables.insert(origin.clone(), table);
        }
        m.report.level3_extra.extend(key_failures.iter().copied());
        let empty = KeyTable::default();
        let table = tables.get(&origin).unwrap_or(&empty);
        check_manifest_origin(run, &m.url, &origin, table);
        check_manifest_signature(run, m, table);
    }
}

/// ACA-L3: the manifest response's RFC 9421 signature with the origin's keys.
fn check_manifest_signature(run: &mut Run<'_>, m: &mut ManifestState, table: &KeyTable) {
    let Some(resp) = &m.response else { return };
    let received = ReceivedResponse {
        status: resp.status,
        headers: &resp.headers,
        body: &resp.body,
    };
    let settings = SignatureCheck {
        now: run.opts.now,
        max_age: run.opts.max_signature_age,
        // ACA-L3-010: a signature made before the run was emitted signs something that
        // did not exist yet (a manifest prepared for reuse).
        emitted_at: m
            .findings
            .as_ref()
            .and_then(|f| f.manifest.emitted_at.as_ref())
            .map(|t| t.unix_seconds()),
    };
    let found = check_response_signature(&received, table, settings, Some(&m.url));
    run.extend(3, found.incidents);
    // Not yet a verdict: `verdicts` decides whether the whole Level 3 check passed.
    m.report.label_thumbprint = found
        .verified
        .as_ref()
        .and_then(|v| table.thumbprint(&v.keyid));
    m.report.label_keyid = found.verified.map(|v| v.keyid);
}

/// ACA-L2-022 on a finished report: a manifest that does not name its response (no
/// `response_url`) seen before under another run or for another response is reused. A manifest
/// that names its response is judged by ACA-L2-024 alone: which sighting is the original is
/// written in it, so the order in which sightings were recorded never matters. Also used after
/// a batch verified in parallel, in input order.
pub fn apply_history(report: &mut AcaReport, history: &dyn ManifestHistory) {
    let mut found = Findings::new();
    for m in &report.details.manifests {
        if m.response_url.is_some() {
            continue;
        }
        let Some(digest) = &m.digest else { continue };
        let run_id = m.run_id.as_deref();
        let earlier = history.sightings(digest).into_iter().find(|e| {
            e.run_id.as_deref() != run_id || !urls_equal(&e.response_url, &report.subject.name)
        });
        if let Some(e) = earlier {
            found.push(
                2,
                Incident::new(
                    IncidentCode::AcaManifestReused,
                    format!(
                        "this manifest ({digest}) was already cited by `{}` under run `{}`",
                        e.response_url,
                        e.run_id.as_deref().unwrap_or("(none)")
                    ),
                    url_location(&m.url),
                ),
            );
        }
    }
    if found.is_empty() {
        return;
    }
    // The same level rule over every finding, the new ones after the earlier ones of their
    // level (the sort is stable).
    let mut all = Findings::new();
    for i in report
        .verdict
        .incidents
        .drain(..)
        .chain(found.iter().cloned())
    {
        all.push(i.level, i.incident);
    }
    let required = report.verdict.required_level;
    report.verdict = all.finish(required, required);
    report.outcome = Outcome::of(&report.verdict);
    settle(report);
}

/// Everything derived from the verdict: what each manifest and claim may claim, the items and
/// the keys used.
fn settle(report: &mut AcaReport) {
    verdicts::settle(report);
    items::fill(report);
}
