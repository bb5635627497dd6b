//! The verification flow end to end with in-memory fetchers: Level 2 fetch rules (HEAD, the
//! GET fallback on 405/501, stopping at the first reachable source, the fetch budget), the
//! verdicts of a response's references, key rotation and signer binding, and the signer's own
//! rules. Expected values are worked out by hand from docs/PROFILE.md; signatures come from the
//! signer, and the seed's verifier checks the signer in `python_crosscheck.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Mutex;

use citeproof_chain::report::{SignatureStatus, Verdict};
use citeproof_chain::verify::validate_value;
use citeproof_chain::{
    ChainReport, SignKey, SignOptions, SigningInput, TrustConfig, VerifyOptions, sign, verify,
};
use citeproof_fetch::{FetchBudget, FetchError, FetchedResponse, Fetcher};
use citeproof_jose::{KeySet, SigningKey};
use citeproof_model::{IncidentCode, Severity};
use serde_json::{Value, json};

#[path = "flow/schema.rs"]
mod schema;
#[path = "flow/signer.rs"]
mod signer;

const SECRET: &str = "flow test secret, long enough";
const SIGNER: &str = "did:web:sourcescore.org";
const NOW: i64 = 1_779_235_200; // 2026-05-20T00:00:00Z

fn claim(subject: &str) -> String {
    json!({
        "vertical": "ai-ml", "subject": subject, "predicate": "introduced_in_paper",
        "object": "Attention Is All You Need (Vaswani et al., 2017)", "confidence": 1.0,
        "sources": [
            {"url": "https://a.example/1", "excerpt": "We propose a new simple network architecture"},
            {"url": "https://b.example/2"},
            {"url": "https://c.example/3"}
        ],
        "lastVerified": "2026-05-16"
    })
    .to_string()
}

fn options() -> SignOptions {
    SignOptions {
        signed_by: SIGNER.into(),
        signed_at: "2026-05-16T00:00:00.000Z".into(),
        canonical_base: None,
        methodology: None,
    }
}

fn signed(subject: &str) -> String {
    sign(claim(subject).as_bytes(), SignKey::Hmac(SECRET), &options())
        .unwrap()
        .envelope
}

fn trust() -> TrustConfig {
    let mut t = TrustConfig::default();
    t.add_secret(SIGNER, SECRET);
    t
}

/// Answers from a table `(method, url) -> status`; records every request.
struct Table {
    answers: Vec<(&'static str, String, u16)>,
    body: String,
    seen: Mutex<Vec<(String, String)>>,
}

impl Table {
    fn new(answers: &[(&'static str, &str, u16)], body: &str) -> Table {
        Table {
            answers: answers
                .iter()
                .map(|(m, u, s)| (*m, (*u).to_owned(), *s))
                .collect(),
            body: body.into(),
            seen: Mutex::new(Vec::new()),
        }
    }

    fn answer(&self, method: &str, url: &str) -> Result<FetchedResponse, FetchError> {
        self.seen.lock().unwrap().push((method.into(), url.into()));
        let status = self
            .answers
            .iter()
            .find(|(m, u, _)| *m == method && u == url)
            .map(|(_, _, s)| *s)
            .ok_or_else(|| FetchError::NotInSnapshot { url: url.into() })?;
        Ok(FetchedResponse {
            url: url.into(),
            status,
            headers: Vec::new(),
            body: if method == "GET" {
                self.body.clone().into_bytes().into()
            } else {
                Vec::new().into()
            },
        })
    }

    fn seen(&self) -> Vec<(String, String)> {
        self.seen.lock().unwrap().clone()
    }
}

impl Fetcher for Table {
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        self.answer("GET", url)
    }

    fn head(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        self.answer("HEAD", url)
    }
}

/// `document` verified at `NOW` with no network (an empty table), at `level`, under `trust`.
fn offline(document: &[u8], level: u8, trust: TrustConfig) -> ChainReport {
    verify(
        document,
        &Table::new(&[], ""),
        &VerifyOptions::new(NOW, level, trust),
    )
}

fn canonical_of(envelope: &str) -> String {
    serde_json::from_str::<Value>(envelope).unwrap()["canonical"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn head_then_get_on_405_and_stop_at_the_first_reachable_source() {
    let env = signed("Transformer architecture");
    let canonical = canonical_of(&env);
    let table = Table::new(
        &[
            ("GET", &canonical, 200),
            ("HEAD", "https://a.example/1", 404),
            ("HEAD", "https://b.example/2", 405),
            ("GET", "https://b.example/2", 200),
            ("HEAD", "https://c.example/3", 200),
        ],
        "page of ad17e76a8baad7a1",
    );
    let report = verify(env.as_bytes(), &table, &VerifyOptions::new(NOW, 2, trust()));
    assert!(report.verdict.verified, "{report:#?}");
    assert_eq!(report.verdict.level, 2);
    assert_eq!(
        report.details.envelopes[0].reachable_source.as_deref(),
        Some("https://b.example/2")
    );
    let seen = table.seen();
    assert_eq!(
        seen.iter()
            .map(|(m, u)| format!("{m} {u}"))
            .collect::<Vec<_>>(),
        [
            format!("GET {canonical}"),
            "HEAD https://a.example/1".into(),
            "HEAD https://b.example/2".into(),
            "GET https://b.example/2".into(),
        ],
        "c.example is never asked: the first reachable source ends the check"
    );
    // A failure before the reachable source is not an incident.
    assert!(
        report.verdict.incidents.is_empty(),
        "{:#?}",
        report.verdict.incidents
    );
}

#[test]
fn unreachable_sources_report_each_cause_at_level_2_only() {
    let env = signed("Transformer architecture");
    let table = Table::new(
        &[
            ("GET", &canonical_of(&env), 200),
            ("HEAD", "https://a.example/1", 501),
            ("GET", "https://a.example/1", 503),
        ],
        "ad17e76a8baad7a1",
    );
    let report = verify(env.as_bytes(), &table, &VerifyOptions::new(NOW, 2, trust()));
    assert_eq!(report.verdict.level, 1);
    assert!(!report.verdict.verified);
    let codes: Vec<(&str, u8)> = report
        .verdict
        .incidents
        .iter()
        .map(|i| (i.incident.code.as_str(), i.level))
        .collect();
    assert_eq!(
        codes,
        [
            ("chain-sources-unreachable", 2),
            ("fetch-http-status", 2),
            ("fetch-not-in-snapshot", 2),
            ("fetch-not-in-snapshot", 2)
        ]
    );
    // Offline, the same envelope reaches its required level 1 without a single fetch.
    let offline = Table::new(&[], "");
    let report = verify(
        env.as_bytes(),
        &offline,
        &VerifyOptions::new(NOW, 1, trust()),
    );
    assert!(report.verdict.verified);
    assert!(offline.seen().is_empty());
}

#[test]
fn the_fetch_budget_bounds_level_2() {
    let env = signed("Transformer architecture");
    let table = Table::new(&[("GET", &canonical_of(&env), 200)], "ad17e76a8baad7a1");
    let mut options = VerifyOptions::new(NOW, 2, trust());
    options.budget = FetchBudget {
        max_fetches: 2,
        ..FetchBudget::default()
    };
    let report = verify(env.as_bytes(), &table, &options);
    assert!(report.has(IncidentCode::FetchBudgetExhausted));
    assert_eq!(table.seen().len(), 2, "the third request is never made");
}

#[test]
fn a_response_gives_each_reference_its_own_verdict() {
    let fresh = signed("Transformer architecture");
    let tampered = signed("RLHF").replace("\"confidence\": 1.0", "\"confidence\": 0.5");
    let stale_claim = claim("LoRA").replace("2026-05-16", "2025-01-01");
    let stale = sign(stale_claim.as_bytes(), SignKey::Hmac(SECRET), &options())
        .unwrap()
        .envelope;
    let id = |e: &str| {
        serde_json::from_str::<Value>(e).unwrap()["claim"]["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (a, b, c) = (id(&fresh), id(&tampered), id(&stale));
    let answer = format!("One [{a}], two [{b}], three [{c}], four [ce8a...], five [2017].");
    let doc = format!(
        r#"{{"answer": {}, "chains": {{"{a}": {fresh}, "{b}": {tampered}, "{c}": {stale}}}}}"#,
        serde_json::to_string(&answer).unwrap()
    );
    let report = offline(doc.as_bytes(), 1, trust());
    let verdicts: Vec<(&str, Verdict)> = report
        .details
        .references
        .iter()
        .map(|r| (r.text.as_str(), r.verdict))
        .collect();
    assert_eq!(
        verdicts,
        [
            (a.as_str(), Verdict::Verified),
            (b.as_str(), Verdict::Tampered),
            (c.as_str(), Verdict::Stale),
            ("ce8a...", Verdict::Unverified)
        ]
    );
    assert_eq!(
        citeproof_chain::report::codes(&report, Severity::Error),
        ["chain-signature-invalid", "chain-ref-unresolved"]
    );
    // `[2017]` is text, reported as such.
    assert_eq!(
        citeproof_chain::report::codes(&report, Severity::Warning),
        ["chain-stale", "chain-bracket-not-reference"]
    );
    assert_eq!(report.verdict.level, 0);

    // The shared items: one per envelope (its verdict word, statement and sources with their
    // excerpts), then one per reference, in the answer's order.
    let item = |kind: &str, id: &str| {
        report
            .items
            .iter()
            .find(|i| i.kind == kind && i.id == id)
            .unwrap_or_else(|| panic!("no {kind} item {id}: {:#?}", report.items))
    };
    let fresh_item = item("envelope", &a);
    assert!(fresh_item.verified && fresh_item.failed.is_empty());
    assert_eq!(fresh_item.verdict.as_deref(), Some("verified"));
    assert_eq!(fresh_item.sources.len(), 3);
    assert_eq!(fresh_item.sources[0].url, "https://a.example/1");
    assert_eq!(
        fresh_item.sources[0].excerpt.as_deref(),
        Some("We propose a new simple network architecture")
    );
    assert_eq!(fresh_item.sources[1].excerpt, None);
    let tampered_item = item("envelope", &b);
    assert!(!tampered_item.verified);
    assert_eq!(tampered_item.verdict.as_deref(), Some("tampered"));
    assert_eq!(tampered_item.failed, ["chain-signature-invalid"]);
    assert!(tampered_item.sources.iter().all(|s| !s.verified));
    // Stale is a warning: not verified by its word, with no error of its own.
    let stale_item = item("envelope", &c);
    assert_eq!(stale_item.verdict.as_deref(), Some("stale"));
    assert!(!stale_item.verified && stale_item.failed.is_empty());
    let references: Vec<(&str, Option<&str>, bool, Vec<String>)> = report
        .items
        .iter()
        .filter(|i| i.kind == "reference")
        .map(|i| {
            (
                i.id.as_str(),
                i.verdict.as_deref(),
                i.verified,
                i.failed.clone(),
            )
        })
        .collect();
    assert_eq!(
        references,
        [
            (a.as_str(), Some("verified"), true, vec![]),
            (
                b.as_str(),
                Some("tampered"),
                false,
                vec!["chain-signature-invalid".to_owned()]
            ),
            (c.as_str(), Some("stale"), false, vec![]),
            (
                "ce8a...",
                Some("unverified"),
                false,
                vec!["chain-ref-unresolved".to_owned()]
            ),
        ]
    );
    // The trust used names the signer and its secret by position, never the secret.
    let trust_json = serde_json::to_string(&report.trust).unwrap();
    assert!(!trust_json.contains(SECRET), "{trust_json}");
    assert_eq!(report.trust.signers[SIGNER].secrets, ["secret 1"]);
    assert_eq!(report.spec, "chain");
    assert_eq!(report.outcome, citeproof_model::Outcome::NotVerified);
}

#[test]
fn rotated_ed25519_keys_and_the_signer_binding() {
    let old = SigningKey::from_secret_bytes(&[1; 32]);
    let new = SigningKey::from_secret_bytes(&[2; 32]);
    let env = sign(
        claim("Transformer architecture").as_bytes(),
        SignKey::Ed25519(&new),
        &options(),
    )
    .unwrap()
    .envelope;
    let set = KeySet::new(vec![
        citeproof_jose::KeyEntry {
            kid: Some("2025".into()),
            key: old.verifying_key(),
        },
        citeproof_jose::KeyEntry {
            kid: Some("2026".into()),
            key: new.verifying_key(),
        },
    ])
    .unwrap();
    let mut trust = TrustConfig::default();
    trust.add_keys(SIGNER, set.clone());
    let report = offline(env.as_bytes(), 1, trust);
    assert!(report.verdict.verified, "{report:#?}");
    assert_eq!(
        report.details.envelopes[0].key_used.as_deref(),
        Some("2026")
    );
    assert_eq!(
        report.details.envelopes[0].signing_input,
        Some(SigningInput::SeedPython)
    );

    // The same keys configured for another signer: nothing is configured for this one.
    let mut elsewhere = TrustConfig::default();
    elsewhere.add_keys("did:web:other.example", set);
    let report = offline(env.as_bytes(), 1, elsewhere);
    assert_eq!(
        report.details.envelopes[0].signature,
        SignatureStatus::KeyUnresolved
    );
    assert!(report.has(IncidentCode::ChainKeyUnresolved));
}

#[test]
fn validate_checks_documents_without_keys_or_network() {
    let env: Value = serde_json::from_str(&signed("Transformer architecture")).unwrap();
    assert!(validate_value(&env, false).is_empty());
    let mut bad = env.clone();
    bad["claim"]["id"] = json!("ad17e76a8baad7a2");
    let codes: Vec<_> = validate_value(&bad, false).iter().map(|i| i.code).collect();
    assert!(codes.contains(&IncidentCode::ChainIdMismatch), "{codes:?}");
    let response = json!({"answer": "see [abc123]", "chains": {}});
    let codes: Vec<_> = validate_value(&response, true)
        .iter()
        .map(|i| i.code)
        .collect();
    assert_eq!(codes, [IncidentCode::ChainRefUnresolved]);
    // An envelope given as a response is missing the response's members.
    let codes: Vec<_> = validate_value(&env, true).iter().map(|i| i.code).collect();
    assert!(codes.contains(&IncidentCode::SchemaViolation), "{codes:?}");
}

#[test]
fn hostile_documents_get_incidents_never_panics() {
    let inputs: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"[]".to_vec(),
        b"null".to_vec(),
        b"{\"chains\": 5}".to_vec(),
        b"{\"claim\": {\"sources\": [null, 1, {}]}, \"signature\": {\"signature\": 5}}".to_vec(),
        b"{\"answer\": \"[\", \"chains\": {\"a\": []}}".to_vec(),
        format!("{}{}", "[".repeat(200), "]".repeat(200)).into_bytes(),
        vec![0xff, 0xfe],
    ];
    for input in inputs {
        let report = offline(&input, 2, trust());
        assert_eq!(
            report.verdict.level,
            0,
            "{}",
            String::from_utf8_lossy(&input)
        );
        assert!(!report.verdict.incidents.is_empty());
    }
}

/// `env` re-signed over the `deployed-js` input with `secret` (as the producer's signer does).
fn deployed_signed(env: &str, secret: &str) -> String {
    use citeproof_chain::keys::hmac_sign;
    use citeproof_chain::lossless::parse;
    use citeproof_chain::signing::signing_bytes;
    let node = parse(env.as_bytes()).unwrap();
    let bytes = signing_bytes(
        SigningInput::DeployedJs,
        node.get("claim").unwrap(),
        node.pointer("/signature/signedAt").unwrap(),
        node.pointer("/signature/signedBy").unwrap(),
    )
    .unwrap();
    let mut v: Value = serde_json::from_str(env).unwrap();
    v["signature"]["signature"] = json!(hex::encode(hmac_sign(secret.as_bytes(), &bytes)));
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn a_relabeled_signer_under_a_partial_signature_and_an_any_signer_key_binds_nothing() {
    // The producer's envelope, relabeled to an attacker's did:web and canonical page: the
    // deployed-js input covers neither, so an any-signer secret still matches.
    let mut v: Value = serde_json::from_str(&signed("Transformer architecture")).unwrap();
    v["signature"]["signedBy"] = json!("did:web:attacker.example");
    v["canonical"] = json!("https://attacker.example/claims/ad17e76a8baad7a1/");
    v.as_object_mut().unwrap().remove("citedAs");
    let env = deployed_signed(&v.to_string(), SECRET);
    let table = Table::new(
        &[
            (
                "GET",
                "https://attacker.example/claims/ad17e76a8baad7a1/",
                200,
            ),
            ("HEAD", "https://a.example/1", 200),
        ],
        "ad17e76a8baad7a1",
    );
    let mut any = TrustConfig::default();
    any.add_secret_for_any_signer(SECRET);
    let mut options = VerifyOptions::new(NOW, 2, any);
    options.accept_partial_signature = true;
    let report = verify(env.as_bytes(), &table, &options);
    assert!(
        report.details.accepted && !report.verdict.verified,
        "{report:#?}"
    );
    // Accepted is not verified: the outcome a script acts on says so, and the level is met.
    assert_eq!(report.outcome, citeproof_model::Outcome::NotVerified);
    assert_eq!(report.verdict.level, 2);
    assert_eq!(report.items[0].verdict.as_deref(), Some("partially-signed"));
    assert!(!report.items[0].verified);
    // A secret given for any signer is listed under `(any signer)`.
    assert_eq!(report.trust.signers["(any signer)"].secrets, ["secret 1"]);
    let e = &report.details.envelopes[0];
    assert_eq!(e.verdict, Verdict::PartiallySigned);
    assert_eq!(e.key_used.as_deref(), Some("secret 1 (any signer)"));
    assert!(e.unsigned.iter().any(|u| u == "/signature/signedBy"));
    assert_eq!(
        citeproof_chain::report::codes(&report, Severity::Warning),
        [
            "chain-signature-partial-accepted",
            "chain-canonical-unbound"
        ],
        "the canonical page proves nothing about the signer"
    );
    // Without the user's opt-in the same envelope reaches no level at all.
    options.accept_partial_signature = false;
    let report = verify(env.as_bytes(), &table, &options);
    assert_eq!(report.verdict.level, 0);
    assert_eq!(
        citeproof_chain::report::codes(&report, Severity::Error),
        ["chain-signature-partial"]
    );
    // With the secret bound to the real signer, the relabeled envelope finds no key.
    let report = verify(env.as_bytes(), &table, &VerifyOptions::new(NOW, 2, trust()));
    assert!(report.has(IncidentCode::ChainKeyUnresolved));
}

#[test]
fn dates_members_and_answers_the_profile_added() {
    // A signed lastVerified in the future: an error, never fresh.
    let future = claim("Transformer architecture").replace("2026-05-16", "2099-01-01");
    let env = sign(future.as_bytes(), SignKey::Hmac(SECRET), &options())
        .unwrap()
        .envelope;
    let report = offline(env.as_bytes(), 1, trust());
    assert_eq!(
        citeproof_chain::report::codes(&report, Severity::Error),
        ["chain-date-in-future"]
    );
    assert_eq!(report.details.envelopes[0].verdict, Verdict::Unverified);

    // A signed member outside the profile: a warning; validation without a key says the same.
    let mut c: Value = serde_json::from_str(&claim("Transformer architecture")).unwrap();
    c["category"] = json!("architecture");
    let env = sign(c.to_string().as_bytes(), SignKey::Hmac(SECRET), &options())
        .unwrap()
        .envelope;
    let report = offline(env.as_bytes(), 1, trust());
    assert!(report.verdict.verified, "{report:#?}");
    assert_eq!(
        citeproof_chain::report::codes(&report, Severity::Warning),
        ["chain-member-unrecognized"]
    );
    let codes: Vec<IncidentCode> = validate_value(&serde_json::from_str(&env).unwrap(), false)
        .iter()
        .map(|i| i.code)
        .collect();
    assert_eq!(codes, [IncidentCode::ChainMemberUnrecognized]);

    // An answer that cites nothing verifies nothing.
    let doc = json!({"answer": "No citation here.", "chains": {}}).to_string();
    let report = offline(doc.as_bytes(), 1, trust());
    assert!(!report.verdict.verified && !report.details.accepted);
    assert_eq!(
        citeproof_chain::report::codes(&report, Severity::Error),
        ["chain-answer-unreferenced"]
    );
}
