//! citeproof against the producer's deployed ECMAScript signing path, run by node
//! (`tests/node/deployed_signer.js`, written from the facts of profile CHAIN-002/CHAIN-006):
//!
//! (a) envelopes node signs over `JSON.stringify(payload, Object.keys(payload).sort())` match
//!     in citeproof under the `deployed-js` input and are **partially signed**, never verified:
//!     by default `chain-signature-partial` (an error) lists the members the signature leaves
//!     out; accepted on request (CHAIN-015) they reach Level 1 with the verdict still
//!     `partially-signed`; a tampered source URL is invisible to the signature, and the list
//!     names exactly that member; a tampered covered member fails as tampered;
//! (b) claim ids and `Number::toString` agree with node on generated input.
//!
//! Without `node` the test prints a notice and passes, unless `CITEPROOF_REQUIRE_PYTHON` is set
//! (CI sets it; it also requires node), in which case it fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_chain::id::claim_id;
use citeproof_chain::numfmt::ecmascript_number;
use citeproof_chain::report::{ChainReport, SignatureStatus, Verdict};
use citeproof_chain::{SigningInput, TrustConfig, VerifyOptions, verify};
use citeproof_fetch::{FetchError, FetchedResponse, Fetcher};
use citeproof_model::IncidentCode;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{Value, json};

const SECRET: &str = "the producer's deployed secret, 2026";
const NOW: i64 = 1_779_235_200; // 2026-05-20T00:00:00Z

fn node(mode: &str, request: &Value) -> Result<Value, String> {
    common::oracle("node", "tests/node/deployed_signer.js", mode, request)
}

fn available() -> bool {
    citeproof_testkit::oracle_available("the node interop test", node("probe", &json!({})))
}

struct NoNetwork;

impl Fetcher for NoNetwork {
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        Err(FetchError::NotInSnapshot { url: url.into() })
    }
}

fn check_with(envelope: &str, accept_partial_signature: bool) -> ChainReport {
    let mut trust = TrustConfig::default();
    trust.add_secret("did:web:sourcescore.org", SECRET);
    let mut options = VerifyOptions::new(NOW, 1, trust);
    options.accept_partial_signature = accept_partial_signature;
    verify(envelope.as_bytes(), &NoNetwork, &options)
}

fn check(envelope: &str) -> ChainReport {
    check_with(envelope, false)
}

fn producer_claims() -> Value {
    json!([
        {
            "vertical": "ai-ml",
            "subject": "Transformer architecture",
            "predicate": "introduced_in_paper",
            "object": "Attention Is All You Need (Vaswani et al., 2017)",
            "confidence": 1.0,
            "sources": [
                {"url": "https://arxiv.org/abs/1706.03762", "title": "Attention Is All You Need",
                 "publisher": "arXiv", "publishedDate": "2017-06-12", "accessedDate": "2026-05-16",
                 "type": "preprint", "excerpt": "We propose a new simple network architecture, the Transformer"},
                {"url": "https://research.google/pubs/attention-is-all-you-need/", "title": "Google Research",
                 "publisher": "Google Research", "accessedDate": "2026-05-16", "type": "official-blog"}
            ],
            "publishedAt": "2026-05-16T00:00:00Z",
            "lastVerified": "2026-05-16",
            "methodologyVersion": "veritas-v0.1",
            "tags": ["transformer", "attention"]
        },
        {
            "vertical": "ai-ml",
            "subject": "GPT-4 Turbo",
            "predicate": "context_window_tokens",
            "object": "128000",
            "confidence": 0.95,
            "sources": [{"url": "https://openai.com/index/new-models-and-developer-products-announced-at-devday/",
                         "title": "DevDay", "publisher": "OpenAI", "accessedDate": "2026-05-16", "type": "official-blog",
                         "excerpt": "GPT-4 Turbo ... has a 128K context window"}],
            "publishedAt": "2026-05-16T00:00:00Z",
            "lastVerified": "2026-05-16",
            "methodologyVersion": "veritas-v0.1",
            "tags": []
        }
    ])
}

#[test]
fn deployed_envelopes_are_partially_signed_never_verified_and_tampering_shows() {
    if !available() {
        return;
    }
    let envelopes = node(
        "sign",
        &json!({"secret": SECRET, "signedAt": "2026-05-16T00:00:00.000Z", "claims": producer_claims()}),
    )
    .unwrap();
    for text in envelopes.as_array().unwrap() {
        let text = text.as_str().unwrap();
        let report = check(text);
        assert!(
            !report.verdict.verified && !report.details.accepted,
            "{text}\n{report:#?}"
        );
        assert_eq!(report.verdict.level, 0);
        let e = &report.details.envelopes[0];
        assert_eq!(e.signature, SignatureStatus::Verified);
        assert_eq!(e.signing_input, Some(SigningInput::DeployedJs));
        assert_eq!(e.verdict, Verdict::PartiallySigned);
        assert_eq!(e.claim_id, e.computed_id, "node's id is citeproof's");
        assert_eq!(
            citeproof_chain::report::codes(&report, citeproof_model::Severity::Error),
            ["chain-signature-partial"]
        );
        for member in [
            "/claim/sources/0/url",
            "/claim/sources/0/excerpt",
            "/claim/tags",
            "/claim/lastVerified",
            "/signature/signedAt",
            "/signature/signedBy",
        ] {
            assert!(
                e.unsigned.iter().any(|u| u == member),
                "{member} not listed: {:?}",
                e.unsigned
            );
        }
        for member in ["/claim/confidence", "/claim/subject", "/claim/statement"] {
            assert!(
                !e.unsigned.iter().any(|u| u == member),
                "{member} is covered"
            );
        }
        // Freshness is never judged from unsigned dates.
        assert_eq!(e.freshness, citeproof_chain::Freshness::NotJudged);
        assert_eq!(e.fresh_as_of, None);

        // Accepted on request: Level 1, a warning, and still not "verified".
        let accepted = check_with(text, true);
        assert!(
            accepted.details.accepted && !accepted.verdict.verified,
            "{accepted:#?}"
        );
        assert_eq!(
            accepted.details.envelopes[0].verdict,
            Verdict::PartiallySigned
        );
        assert_eq!(
            citeproof_chain::report::codes(&accepted, citeproof_model::Severity::Warning),
            ["chain-signature-partial-accepted"]
        );

        // A swapped source URL is not covered by the deployed input: the signature still
        // matches, and the incident names that member.
        let mut v: Value = serde_json::from_str(text).unwrap();
        v["claim"]["sources"][0]["url"] = json!("https://attacker.example/fabricated");
        let swapped = serde_json::to_string_pretty(&v).unwrap();
        let report = check(&swapped);
        assert!(!report.verdict.verified);
        assert_eq!(
            report.details.envelopes[0].verdict,
            Verdict::PartiallySigned
        );
        let partial = report
            .verdict
            .incidents
            .iter()
            .find(|i| i.incident.code == IncidentCode::ChainSignaturePartial)
            .unwrap();
        assert!(
            partial.incident.message.contains("/claim/sources/0/url"),
            "{}",
            partial.incident.message
        );

        // Covered members: the signature fails and the verdict is "tampered".
        for (pointer, value) in [
            ("/claim/confidence", json!(0.5)),
            ("/claim/statement", json!("edited")),
            ("/claim/publishedAt", json!("2020-01-01T00:00:00Z")),
        ] {
            let mut v: Value = serde_json::from_str(text).unwrap();
            *v.pointer_mut(pointer).unwrap() = value;
            let report = check(&serde_json::to_string(&v).unwrap());
            assert!(!report.verdict.verified, "{pointer}");
            assert!(report.has(IncidentCode::ChainSignatureInvalid), "{pointer}");
            assert_eq!(report.details.envelopes[0].verdict, Verdict::Tampered);
        }
        // Relabeling the signer (not covered) moves the envelope to keys it was not made with.
        let mut v: Value = serde_json::from_str(text).unwrap();
        v["signature"]["signedBy"] = json!("did:web:other.example");
        v["canonical"] = json!(
            v["canonical"]
                .as_str()
                .unwrap()
                .replace("sourcescore.org", "other.example")
        );
        let report = check(&serde_json::to_string(&v).unwrap());
        assert!(report.has(IncidentCode::ChainKeyUnresolved));
    }
}

#[test]
fn ecmascript_numbers_equal_node_on_random_doubles() {
    if !available() {
        return;
    }
    let doubles = common::random_doubles(
        5,
        [
            1e21,
            1e20,
            1e-6,
            1e-7,
            -0.0,
            0.0,
            5e-324,
            f64::from_bits(0x431a_0929_e12c_c7fd),
        ],
    );
    common::assert_doubles_written_alike(&doubles, |q| node("numbers", q), ecmascript_number);
    println!("{} doubles: citeproof == node String(x)", doubles.len());
}

#[test]
fn claim_ids_equal_node_on_generated_fields() {
    if !available() {
        return;
    }
    // Letters with special lowercase mappings, ECMAScript and non-ECMAScript white space.
    let chars = prop_oneof![
        6 => proptest::char::range('A', 'z'),
        1 => Just(' '), 1 => Just('\u{a0}'), 1 => Just('\u{feff}'), 1 => Just('\u{3000}'),
        1 => Just('\u{2028}'), 1 => Just('\u{85}'), 1 => Just('\u{180e}'), 1 => Just('\u{200b}'),
        1 => Just('\u{3a3}'), 1 => Just('\u{391}'), 1 => Just('\u{130}'), 1 => Just('\u{1e9e}'),
        1 => Just('\u{10400}'), 1 => Just('\u{41}'), 1 => Just('-'), 1 => Just('.'),
    ];
    let field =
        proptest::collection::vec(chars, 1..12).prop_map(|c| c.into_iter().collect::<String>());
    let strategy = (field.clone(), field.clone(), field.clone(), field);
    let mut runner = common::seeded_runner(6);
    let fields: Vec<(String, String, String, String)> = (0..3000)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    let request: Vec<Value> = fields
        .iter()
        .map(|(a, b, c, d)| json!([a, b, c, d]))
        .collect();
    let expected = node("ids", &json!({ "fields": request })).unwrap();
    for ((v, s, p, o), want) in fields.iter().zip(expected.as_array().unwrap()) {
        assert_eq!(
            claim_id(v, s, p, o),
            want.as_str().unwrap(),
            "{v:?} {s:?} {p:?} {o:?}"
        );
    }
    println!("{} generated claims: citeproof id == node id", fields.len());
}
