//! Every incident code the ACA verifier can raise, produced by a tampered or malformed input.
//!
//! A baseline Level 3 response is built as a web snapshot (agent response, one signed manifest,
//! two sources, discovery document); each case changes one thing and states the codes that
//! must appear and the level achieved. The last test checks that the cases together raise every
//! `aca-*` code of the registry and the other codes the ACA flow owns.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_aca::sign::{ManifestSignOptions, SigningKey, sign_manifest_value};
use citeproof_aca::{AcaReport, VerifyOptions, verify_snapshot};
use citeproof_model::snapshot::{SnapshotResponse, StoredResponse, WebSnapshot};
use citeproof_model::{IncidentCode, aef_text_hash, jcs::canonicalize, sha256_bytes};
use serde_json::{Value, json};

const NOW: i64 = 1_777_370_400; // 2026-04-28T10:00:00Z
const AGENT: &str = "https://agent.example/runs/r1";
const MANIFEST: &str = "https://agent.example/runs/r1/manifest";
const DISCOVERY: &str = "https://agent.example/.well-known/agent-citation-attribution";
const SRC_A: &str = "https://example.com/a";
const SRC_B: &str = "https://example.com/b";
const BODY_A: &str = "<html><body><p>Programmatic GEO templates emit at most one canonical question per page.</p></body></html>\n";
const BODY_B: &str = "AI crawlers revisit pages with stable canonical URLs more often.\nSitemaps list canonical URLs.\n";
const QUOTE_A: &str = "Programmatic GEO templates emit at most one canonical question per page.";
const QUOTE_B: &str = "AI crawlers revisit pages with stable canonical URLs more often.";
/// The agent's answer: it states both claims of the baseline manifest (ACA-L2-021).
const ANSWER: &str = "Programmatic GEO templates emit at most one canonical question per page. \
AI crawlers revisit stable canonical URLs more often.\n";

fn key() -> SigningKey {
    SigningKey::from_secret_bytes(&[9u8; 32])
}

fn stored(status: u16, headers: &[(&str, &str)], body: &[u8]) -> StoredResponse {
    StoredResponse {
        status,
        headers: headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
        body_base64: STANDARD.encode(body),
    }
}

fn offsets(body: &str, quote: &str) -> (usize, usize) {
    let start = body.find(quote).unwrap();
    (start, start + quote.len())
}

fn source(url: &str, body: &str, quote: &str) -> Value {
    let (s, e) = offsets(body, quote);
    json!({
        "url": url,
        "retrieved_at": "2026-04-28T09:55:00Z",
        "hash": sha256_bytes(body.as_bytes()).to_string(),
        "excerpt_offset": [s, e],
        "excerpt_hash": aef_text_hash(&body.as_bytes()[s..e]).unwrap().to_string(),
    })
}

type Tamper = Box<dyn Fn(&mut StoredResponse)>;

struct Scenario {
    agent_status: u16,
    agent_headers: Vec<(String, String)>,
    agent_url: String,
    agent_body: String,
    manifest: Value,
    sign: bool,
    created: i64,
    expires: Option<i64>,
    keyid: String,
    signing_key: SigningKey,
    /// Applied to the manifest response after signing.
    tamper: Option<Tamper>,
    resources: BTreeMap<String, StoredResponse>,
    discovery: Value,
    opts: VerifyOptions,
}

impl Scenario {
    fn baseline() -> Scenario {
        let header = format!(
            "<{SRC_A}>; manifest=\"{MANIFEST}\"; run=\"r1\", <{SRC_B}>; manifest=\"{MANIFEST}\"; run=\"r1\""
        );
        let manifest = json!({
            "run_id": "r1",
            "agent_id": "agent.example/v1",
            "emitted_at": "2026-04-28T10:00:00Z",
            "response_url": AGENT,
            "claims": [
                {"claim_id": "c1", "text": QUOTE_A, "sources": [source(SRC_A, BODY_A, QUOTE_A)], "confidence": "high"},
                {"claim_id": "c2", "text": "AI crawlers revisit stable canonical URLs more often.", "sources": [source(SRC_B, BODY_B, QUOTE_B)]}
            ],
            "chain": [
                {"step": 1, "tool": "search", "inputs": {"q": "programmatic geo"}, "outputs_ref": "runs/r1/step/1", "sources": [SRC_A, SRC_B]},
                {"step": 2, "tool": "summarize", "inputs_ref": "runs/r1/step/1",
                 "inputs_hash": sha256_bytes(&canonicalize(&json!({"secret": "x"}))).to_string(),
                 "outputs_ref": "runs/r1/step/2", "sources": [SRC_A, SRC_B]}
            ]
        });
        let k = key();
        let x =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(k.verifying_key().to_bytes());
        let discovery = json!({
            "version": "1.0",
            "manifest_schema": "https://agent.example/schema/manifest-v1.json",
            "supported_signing": ["http-message-signatures"],
            "contact": "attribution@agent.example",
            "keys": {"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "k1", "x": x}]}
        });
        let mut resources = BTreeMap::new();
        resources.insert(
            SRC_A.to_owned(),
            stored(200, &[("content-type", "text/html")], BODY_A.as_bytes()),
        );
        resources.insert(
            SRC_B.to_owned(),
            stored(200, &[("content-type", "text/plain")], BODY_B.as_bytes()),
        );
        Scenario {
            agent_status: 200,
            agent_headers: vec![
                ("content-type".into(), "text/plain".into()),
                ("citation-source".into(), header),
            ],
            agent_url: AGENT.into(),
            agent_body: ANSWER.into(),
            manifest,
            sign: true,
            created: NOW - 60,
            expires: None,
            keyid: "k1".into(),
            signing_key: k,
            tamper: None,
            resources,
            discovery,
            opts: VerifyOptions::new(NOW),
        }
    }

    fn header(&mut self, value: &str) {
        self.agent_headers.retain(|(n, _)| n != "citation-source");
        self.agent_headers
            .push(("citation-source".into(), value.into()));
    }

    fn snapshot(&self) -> WebSnapshot {
        let mut resources = self.resources.clone();
        let mut manifest_response = if self.sign {
            let signed = sign_manifest_value(
                &self.manifest,
                &self.signing_key,
                &ManifestSignOptions {
                    keyid: self.keyid.clone(),
                    created: self.created,
                    expires: self.expires,
                },
            )
            .unwrap();
            StoredResponse {
                status: 200,
                headers: signed.headers,
                body_base64: STANDARD.encode(&signed.body),
            }
        } else {
            stored(
                200,
                &[("content-type", "application/json")],
                &canonicalize(&self.manifest),
            )
        };
        if let Some(t) = &self.tamper {
            t(&mut manifest_response);
        }
        resources
            .entry(MANIFEST.to_owned())
            .or_insert(manifest_response);
        resources.entry(DISCOVERY.to_owned()).or_insert_with(|| {
            stored(
                200,
                &[("content-type", "application/json")],
                &canonicalize(&self.discovery),
            )
        });
        WebSnapshot {
            snapshot_version: 1,
            response: SnapshotResponse {
                url: self.agent_url.clone(),
                status: self.agent_status,
                headers: self.agent_headers.clone(),
                body_base64: STANDARD.encode(self.agent_body.as_bytes()),
            },
            resources,
        }
    }

    fn verify(&self) -> AcaReport {
        verify_snapshot(&self.snapshot(), &self.opts)
    }
}

fn body_of(r: &StoredResponse) -> Vec<u8> {
    STANDARD.decode(&r.body_base64).unwrap()
}

fn set_body(r: &mut StoredResponse, body: &[u8]) {
    r.body_base64 = STANDARD.encode(body);
}

/// The value of header `name` of a response that has it.
fn header_of(r: &StoredResponse, name: &str) -> String {
    r.headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .unwrap()
        .1
        .clone()
}

fn set_header(r: &mut StoredResponse, name: &str, value: Option<&str>) {
    r.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    if let Some(v) = value {
        r.headers.push((name.to_owned(), v.to_owned()));
    }
}

/// The mutation of a case that sets header `name` of the manifest response to `value` (`None`:
/// removes it) after the response was signed: most signature cases differ only in these two.
fn after_signing(name: &'static str, value: Option<&'static str>) -> impl Fn(&mut Scenario) {
    move |s| s.tamper = Some(Box::new(move |r| set_header(r, name, value)))
}

type Mutation = Box<dyn Fn(&mut Scenario)>;

struct Case {
    name: &'static str,
    mutate: Mutation,
    codes: Vec<IncidentCode>,
    level: u8,
}

fn case(
    name: &'static str,
    level: u8,
    codes: &[IncidentCode],
    mutate: impl Fn(&mut Scenario) + 'static,
) -> Case {
    Case {
        name,
        mutate: Box::new(mutate),
        codes: codes.to_vec(),
        level,
    }
}

/// A judge that always gives the same verdict.
struct Fixed(citeproof_aca::Judgement);

impl citeproof_aca::SupportJudge for Fixed {
    fn name(&self) -> &str {
        "fixed judge"
    }
    fn judge(&self, _claim: &str, _excerpts: &[&str]) -> citeproof_aca::Judgement {
        self.0.clone()
    }
}

fn claim_source(s: &mut Scenario) -> &mut serde_json::Map<String, Value> {
    s.manifest["claims"][0]["sources"][0]
        .as_object_mut()
        .unwrap()
}

fn discovery_tamper(s: &mut Scenario, f: impl Fn(&mut Value)) {
    f(&mut s.discovery);
}

mod level1;
mod level2;
mod level3;
mod verdicts;

fn cases() -> Vec<Case> {
    let mut v = level1::cases();
    v.extend(level2::cases());
    v.extend(level3::cases());
    v
}

#[test]
fn baseline_is_level_3_without_incidents() {
    let r = Scenario::baseline().verify();
    assert_eq!(r.verdict.level, 3, "{:#?}", r.verdict.incidents);
    assert!(r.verdict.incidents.is_empty(), "{:#?}", r.verdict.incidents);
}

/// Reporting rule 3: a key that is unusable for a reason already reported (a failed discovery
/// document or JWK Set, a published private key, a missing or duplicate kid) is not reported
/// again as `aca-key-unresolved`.
#[test]
fn unusable_keys_are_not_reported_twice() {
    let names = [
        "discovery 404",
        "discovery as html",
        "discovery without keys",
        "jwks_uri unreachable",
        "published private key",
        "key without kid",
        "two keys with one kid",
    ];
    let mut checked = 0;
    for c in cases().into_iter().filter(|c| names.contains(&c.name)) {
        let mut s = Scenario::baseline();
        (c.mutate)(&mut s);
        let r = s.verify();
        assert!(
            !r.has(IncidentCode::AcaKeyUnresolved),
            "{}: {:?}",
            c.name,
            r.verdict.incidents
        );
        assert_eq!(r.verdict.level, 2, "{}", c.name);
        checked += 1;
    }
    assert_eq!(checked, names.len());
}

#[test]
fn every_case_raises_its_codes_and_reaches_its_level() {
    let mut seen: BTreeSet<&'static str> = BTreeSet::new();
    let mut failures = Vec::new();
    for c in cases() {
        let mut s = Scenario::baseline();
        (c.mutate)(&mut s);
        let r = s.verify();
        for code in &c.codes {
            if !r.has(*code) {
                failures.push(format!(
                    "{}: {} missing; got {:?}",
                    c.name,
                    code.as_str(),
                    r.verdict
                        .incidents
                        .iter()
                        .map(|i| i.incident.code.as_str())
                        .collect::<Vec<_>>()
                ));
            }
        }
        if r.verdict.level != c.level {
            failures.push(format!(
                "{}: level {} instead of {}; {:?}",
                c.name,
                r.verdict.level,
                c.level,
                r.verdict
                    .incidents
                    .iter()
                    .map(|i| (i.level, i.incident.code.as_str()))
                    .collect::<Vec<_>>()
            ));
        }
        for i in &r.verdict.incidents {
            seen.insert(i.incident.code.as_str());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Every aca-* code, and every other code the ACA flow raises itself, is covered.
    let mut must: Vec<&str> = IncidentCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| {
            c.starts_with("aca-")
                || c.starts_with("httpsig-")
                || c.starts_with("jwk-")
                || c.starts_with("json-")
        })
        .collect();
    must.extend([
        "schema-violation",
        "unknown-member",
        "schema-timestamp-invalid",
        "canon-hash-syntax",
    ]);
    must.extend([
        "fetch-http-status",
        "fetch-content-encoding",
        "fetch-not-in-snapshot",
        "fetch-snapshot-invalid",
        "fetch-too-many-redirects",
        "fetch-redirect-invalid",
        "fetch-address-forbidden",
        "fetch-port-forbidden",
        "fetch-too-large",
    ]);
    let missing: Vec<&&str> = must.iter().filter(|c| !seen.contains(**c)).collect();
    assert!(missing.is_empty(), "codes never raised: {missing:?}");
}

/// The scenario verifies, at `level` (its incidents shown when not).
fn verified_at_level(s: &Scenario, level: u8) {
    let r = s.verify();
    assert_eq!(
        (r.verdict.level, r.verdict.verified),
        (level, true),
        "{:#?}",
        r.verdict.incidents
    );
}

#[test]
fn required_level_bounds_the_checks() {
    // Level 2 requested: the discovery document is not fetched and an unsigned manifest passes.
    let mut s = Scenario::baseline();
    s.sign = false;
    s.opts.required_level = Some(2);
    verified_at_level(&s, 2);
    // Level 1 requested: manifests are not fetched.
    let mut s = Scenario::baseline();
    s.resources.insert(MANIFEST.into(), stored(404, &[], b""));
    s.opts.required_level = Some(1);
    verified_at_level(&s, 1);
    // Default: the claimed level (a chain is a Level 3 claim).
    let mut s = Scenario::baseline();
    s.sign = false;
    let r = s.verify();
    assert_eq!(
        (
            r.verdict.level,
            r.verdict.required_level,
            r.verdict.verified
        ),
        (2, 3, false)
    );
}

#[test]
fn a_good_label_wins_over_a_bad_one() {
    let mut s = Scenario::baseline();
    s.tamper = Some(Box::new(|r| {
        let input = header_of(r, "signature-input");
        let sig = header_of(r, "signature");
        set_header(
            r,
            "signature-input",
            Some(&format!(
                "bad=(\"@status\");created=1;keyid=\"k1\", {input}"
            )),
        );
        set_header(r, "signature", Some(&format!("bad=:AAAA:, {sig}")));
    }));
    let r = s.verify();
    assert_eq!(r.verdict.level, 3, "{:#?}", r.verdict.incidents);
}

#[test]
fn unregistered_signature_parameters_are_ignored_but_signed() {
    // Sign by hand with a `tag` and an unregistered parameter; the verifier keeps them in
    // @signature-params and otherwise ignores them (ACA-L3-009).
    let mut s = Scenario::baseline();
    s.sign = false;
    let body = canonicalize(&s.manifest);
    let digest = citeproof_httpsig::content_digest_sha256(&body);
    let params = "(\"@status\" \"content-type\" \"content-digest\");created=1777370340;keyid=\"k1\";tag=\"aca\";x-note=\"hi\"";
    let base = format!(
        "\"@status\": 200\n\"content-type\": application/json\n\"content-digest\": {digest}\n\"@signature-params\": {params}"
    );
    let sig = key().sign(base.as_bytes());
    let resp = stored(
        200,
        &[
            ("Content-Type", "application/json"),
            ("Content-Digest", &digest),
            ("Signature-Input", &format!("sig1={params}")),
            ("Signature", &format!("sig1=:{}:", STANDARD.encode(sig))),
        ],
        &body,
    );
    s.resources.insert(MANIFEST.into(), resp);
    let r = s.verify();
    assert_eq!(r.verdict.level, 3, "{:#?}", r.verdict.incidents);
}

#[test]
fn a_pluggable_judge_reports_under_the_same_code() {
    use citeproof_aca::{Judgement, SupportJudge};
    struct Strict;
    impl SupportJudge for Strict {
        fn name(&self) -> &str {
            "exact-match judge"
        }
        fn judge(&self, claim: &str, excerpts: &[&str]) -> Judgement {
            if excerpts.contains(&claim) {
                Judgement::Supported
            } else {
                Judgement::Unsupported {
                    reason: "not an exact excerpt".into(),
                }
            }
        }
    }
    let mut s = Scenario::baseline();
    s.opts.judge = std::sync::Arc::new(Strict);
    let r = s.verify();
    // c1 is its excerpt verbatim; c2 paraphrases its excerpt: the lexical judge accepts it, this
    // judge does not.
    assert_eq!(r.details.judge, "exact-match judge");
    let unsupported: Vec<_> = r
        .verdict
        .incidents
        .iter()
        .filter(|i| i.incident.code == IncidentCode::AcaClaimUnsupported)
        .collect();
    assert_eq!(unsupported.len(), 1, "{:#?}", r.verdict.incidents);
    assert_eq!(
        unsupported[0].incident.location.claim_id.as_deref(),
        Some("c2")
    );
    assert_eq!(unsupported[0].incident.message, "not an exact excerpt");
    assert_eq!(r.verdict.level, 1);
}
