//! AEF Levels 1-3 end to end: evidence objects verified against sources and key documents served
//! from recorded responses, every AEF incident code exercised (the last test checks that).
//!
//! Hashes here are AEF §5 hashes computed independently with Python hashlib:
//!   python3 -c "import hashlib;print(hashlib.sha256(b'three pillars').hexdigest())"

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_aef::build::{EvidenceSignOptions, sign_evidence};
use citeproof_aef::{AefReport, SourceChoice, VerifyOptions, Vocabulary, verify_with_resources};
use citeproof_jose::SigningKey;
use citeproof_model::IncidentCode;
use citeproof_model::snapshot::StoredResponse;
use serde_json::{Value, json};

mod level2;
mod level3;

use level2::level_2_failures_give_level_1;
use level3::level_3_failures_give_level_2;

const THREE_PILLARS: &str =
    "sha256:e38f3d1f3a04e02ce84f88defa025bd5c3c5609ca70fbac9a7dbd691c8c7326f";
const PAGE: &str = "https://example.com/aeo";
const KEYS: &str = "https://keys.example.com/aef.json";

static SEEN: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

fn article() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../vectors/fixtures/aef/article.html"
    ))
    .unwrap()
}

/// A stored response of the snapshot: status, headers in order, the body as base64.
fn stored(status: u16, headers: &[(&str, &str)], body: &[u8]) -> StoredResponse {
    let body_base64 = STANDARD.encode(body);
    let headers = headers.iter().map(|&(n, v)| (n.to_owned(), v.to_owned()));
    StoredResponse {
        status,
        headers: headers.collect(),
        body_base64,
    }
}

fn evidence() -> Value {
    json!({
        "evidence_version": "0.1",
        "evidence_id": "ev-1",
        "claim_text": "The AEO Protocol defines three pillars.",
        "source": { "uri": PAGE, "type": "webpage", "fetched_at": "2026-05-12T03:45:00Z" },
        "span": { "selector_type": "text_quote", "selector_value": "three pillars", "exact_text": "three pillars" },
        "retrieval": { "method": "direct_fetch" },
        "verification": { "content_hash": THREE_PILLARS },
        "synthesis_role": "supporting"
    })
}

fn key() -> SigningKey {
    SigningKey::from_secret_bytes(&[7u8; 32])
}

fn jwks(kid: &str) -> Vec<u8> {
    let jwk = serde_json::to_value(key().verifying_key().to_jwk(Some(kid))).unwrap();
    serde_json::to_vec(&json!({ "keys": [jwk] })).unwrap()
}

fn signed(doc: &Value, kid: &str) -> Value {
    let options = EvidenceSignOptions {
        kid: Some(kid.to_owned()),
        signed_by: Some("pipeline-1".into()),
        signing_key_uri: Some(KEYS.into()),
    };
    sign_evidence(doc, &key(), &options).unwrap()
}

fn resources() -> BTreeMap<String, StoredResponse> {
    let mut r = BTreeMap::new();
    r.insert(
        PAGE.to_owned(),
        stored(
            200,
            &[("Content-Type", "text/html; charset=utf-8")],
            &article(),
        ),
    );
    r.insert(
        KEYS.to_owned(),
        stored(200, &[("Content-Type", "application/json")], &jwks("k1")),
    );
    r
}

fn run(doc: &Value, res: BTreeMap<String, StoredResponse>, level: Option<u8>) -> AefReport {
    run_with(doc, res, level, Vocabulary::Spec)
}

fn run_with(
    doc: &Value,
    res: BTreeMap<String, StoredResponse>,
    level: Option<u8>,
    vocabulary: Vocabulary,
) -> AefReport {
    let options = VerifyOptions {
        required_level: level,
        vocabulary,
        // The user trusts the test key's location (AEF-L3-006).
        trusted_key_uris: vec![KEYS.into()],
        ..VerifyOptions::default()
    };
    let report = verify_with_resources(&serde_json::to_vec(doc).unwrap(), res, &options);
    let mut seen = SEEN.lock().unwrap();
    for i in &report.verdict.incidents {
        seen.insert(i.incident.code.as_str());
    }
    report
}

fn codes(r: &AefReport) -> Vec<&'static str> {
    r.verdict
        .incidents
        .iter()
        .map(|i| i.incident.code.as_str())
        .collect()
}

fn set(doc: &mut Value, pointer: &str, v: Value) {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .insert(last.into(), v);
}

fn remove(doc: &mut Value, pointer: &str) {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(last);
}

/// AEF-L3-006: the same signed object without a trusted key location stays at Level 2, with a
/// specific code, although the JWS verifies.
#[test]
fn a_key_the_document_names_is_not_trusted() {
    let s = signed(&evidence(), "k1");
    let options = VerifyOptions::default();
    let r = verify_with_resources(&serde_json::to_vec(&s).unwrap(), resources(), &options);
    assert_eq!(r.verdict.level, 2, "{:?}", codes(&r));
    assert_eq!(codes(&r), vec!["aef-key-untrusted"]);
    let mut seen = SEEN.lock().unwrap();
    seen.insert("aef-key-untrusted");
}

#[test]
fn level_2_and_level_3_are_reached() {
    let r = run(&evidence(), resources(), None);
    assert_eq!(
        (
            r.verdict.level,
            r.verdict.required_level,
            r.verdict.verified
        ),
        (2, 2, true),
        "{:?}",
        codes(&r)
    );
    assert_eq!(r.details.span.as_ref().unwrap().exact_text, "three pillars");
    let s = signed(&evidence(), "k1");
    let r = run(&s, resources(), None);
    assert_eq!(
        (
            r.verdict.level,
            r.verdict.required_level,
            r.verdict.verified
        ),
        (3, 3, true),
        "{:?}",
        codes(&r)
    );
    // signing_key_uri is outside the payload: changing it keeps the signature valid, but a key
    // location the user does not trust gives no Level 3 (AEF-L3-006).
    let mut moved = s.clone();
    set(
        &mut moved,
        "/verification/signing_key_uri",
        json!("https://mirror.example.com/k.json"),
    );
    let mut res = resources();
    res.insert(
        "https://mirror.example.com/k.json".into(),
        stored(200, &[], &jwks("k1")),
    );
    let r = run(&moved, res.clone(), None);
    assert_eq!(r.verdict.level, 2);
    assert_eq!(codes(&r), vec!["aef-key-untrusted"]);
    let options = VerifyOptions {
        trusted_key_uris: vec!["https://mirror.example.com/k.json".into()],
        ..VerifyOptions::default()
    };
    let r = verify_with_resources(&serde_json::to_vec(&moved).unwrap(), res, &options);
    assert_eq!(r.verdict.level, 3, "{:?}", codes(&r));
}

#[test]
fn level_1_failures_give_level_0() {
    for (pointer, value, code) in [
        ("/evidence_version", json!("0.2"), "aef-version-unsupported"),
        ("/source/type", json!("blog"), "aef-vocabulary-invalid"),
        (
            "/retrieval/method",
            json!("Vector"),
            "aef-vocabulary-invalid",
        ),
        (
            "/source/fetched_at",
            json!("yesterday"),
            "schema-timestamp-invalid",
        ),
        (
            "/verification/content_hash",
            json!("sha256:ABC"),
            "canon-hash-syntax",
        ),
        ("/extra", json!(1), "unknown-member"),
    ] {
        let mut doc = evidence();
        set(&mut doc, pointer, value);
        let r = run(&doc, resources(), None);
        assert_eq!(r.verdict.level, 0, "{pointer}");
        assert!(codes(&r).contains(&code), "{pointer}: {:?}", codes(&r));
    }
}

#[test]
fn warnings_do_not_lower_the_level() {
    let mut doc = evidence();
    set(
        &mut doc,
        "/source/published_at",
        json!("2026-06-01T00:00:00Z"),
    );
    remove(&mut doc, "/span/exact_text");
    let r = run(&doc, resources(), None);
    assert_eq!(r.verdict.level, 2, "{:?}", codes(&r));
    for c in ["aef-published-after-fetched", "aef-exact-text-missing"] {
        assert!(codes(&r).contains(&c), "{c}: {:?}", codes(&r));
    }
    let mut whole = evidence();
    set(
        &mut whole,
        "/span",
        json!({ "selector_type": "none", "selector_value": "ignored" }),
    );
    set(
        &mut whole,
        "/source/uri",
        json!("https://example.com/notes.txt"),
    );
    // §5 hash of "abc\n" is the hash of "abc" (FIPS 180-2 example):
    set(
        &mut whole,
        "/verification/content_hash",
        json!("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    );
    let mut res = resources();
    res.insert(
        "https://example.com/notes.txt".into(),
        stored(200, &[("Content-Type", "text/plain")], b"abc\n"),
    );
    let r = run(&whole, res, None);
    assert_eq!(r.verdict.level, 2, "{:?}", codes(&r));
    assert!(codes(&r).contains(&"aef-selector-value-ignored"));
    // AEF-4-007: fetched_at 2026-05-12T03:45:00Z is 301 s after 03:39:59Z (1778557500 - 301),
    // and exactly the 300 s skew after 03:40:00Z.
    for (now, flagged) in [(1_778_557_500 - 301, true), (1_778_557_500 - 300, false)] {
        let options = VerifyOptions {
            now: Some(now),
            ..VerifyOptions::default()
        };
        let bytes = serde_json::to_vec(&evidence()).unwrap();
        let r = verify_with_resources(&bytes, resources(), &options);
        assert_eq!(r.verdict.level, 2, "{:?}", codes(&r));
        assert_eq!(
            codes(&r).contains(&"aef-fetched-in-future"),
            flagged,
            "{now}"
        );
        if flagged {
            SEEN.lock().unwrap().insert("aef-fetched-in-future");
        }
    }
}

/// A trust file's keys for a signer id equal to `signing_key_uri` are used without fetching
/// and trusted; its `key_locations` trust a fetched key like `trusted_key_uris`.
#[test]
fn a_trust_file_gives_keys_and_trusted_locations() {
    let bytes = serde_json::to_vec(&signed(&evidence(), "k1")).unwrap();
    let jwks = json!({"keys": [key().verifying_key().to_jwk(Some("k1"))]});
    let trusting = |config: Value| VerifyOptions {
        trust: citeproof_jose::SignerTrust::from_json(&config).unwrap(),
        ..VerifyOptions::default()
    };
    // The key location is not among the resources: only the configured keys can verify.
    let mut without_keys = resources();
    without_keys.remove(KEYS);
    let r = verify_with_resources(
        &bytes,
        without_keys.clone(),
        &trusting(json!({"keys": {KEYS: jwks}})),
    );
    assert_eq!(r.verdict.level, 3, "{:?}", codes(&r));
    let r = verify_with_resources(&bytes, without_keys, &VerifyOptions::default());
    assert_eq!(
        r.verdict.level,
        2,
        "no key without the trust file: {:?}",
        codes(&r)
    );
    // The key is fetched from its location (in resources()); trusted only when listed.
    let r = verify_with_resources(
        &bytes,
        resources(),
        &trusting(json!({"key_locations": [KEYS]})),
    );
    assert_eq!(r.verdict.level, 3, "{:?}", codes(&r));
    let r = verify_with_resources(&bytes, resources(), &VerifyOptions::default());
    assert_eq!(codes(&r), ["aef-key-untrusted"]);
}

/// AEF-VOC-001/002: a landing-page value is a Level 1 error; in lenient mode it is a warning and
/// the report says the result is not a conformance level.
#[test]
fn landing_vocabulary_is_an_error_unless_lenient() {
    let mut doc = evidence();
    set(&mut doc, "/source/type", json!("paper"));
    set(&mut doc, "/retrieval/method", json!("direct"));
    let strict = run(&doc, resources(), None);
    assert_eq!(strict.verdict.level, 0, "{:?}", codes(&strict));
    assert_eq!(
        codes(&strict)
            .iter()
            .filter(|c| **c == "aef-vocabulary-invalid")
            .count(),
        2
    );
    assert_eq!(strict.details.vocabulary, Vocabulary::Spec);
    let lenient = run_with(&doc, resources(), None, Vocabulary::Landing);
    assert_eq!(lenient.verdict.level, 2, "{:?}", codes(&lenient));
    assert_eq!(lenient.details.vocabulary, Vocabulary::Landing);
    assert_eq!(
        codes(&lenient)
            .iter()
            .filter(|c| **c == "aef-nonstandard-vocabulary")
            .count(),
        2
    );
    assert!(!codes(&lenient).contains(&"aef-vocabulary-invalid"));

    // AEF-L2-009 (lenient mode): a PDF page range never reaches Level 2, and the PDF is not parsed.
    let mut pages = evidence();
    set(
        &mut pages,
        "/span",
        json!({ "selector_type": "page_range", "selector_value": "1-1" }),
    );
    let pdf = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../vectors/fixtures/aef/report.pdf"
    ))
    .unwrap();
    let res: BTreeMap<String, StoredResponse> = [(
        PAGE.to_owned(),
        stored(200, &[("Content-Type", "application/pdf")], &pdf),
    )]
    .into();
    let strict = run(&pages, res.clone(), None);
    assert_eq!(strict.verdict.level, 0, "{:?}", codes(&strict));
    assert!(codes(&strict).contains(&"aef-vocabulary-invalid"));
    let lenient = run_with(&pages, res, None, Vocabulary::Landing);
    assert_eq!(lenient.verdict.level, 1, "{:?}", codes(&lenient));
    assert!(codes(&lenient).contains(&"aef-span-unverifiable"));
}

#[test]
fn the_landing_page_example_fails_level_2_on_its_placeholder_hash() {
    // seeds/001, "A canonical example", verbatim.
    let doc: Value = serde_json::from_str(include_str!("../data/seed-001-example.json")).unwrap();
    let r = run(&doc, BTreeMap::new(), Some(1));
    assert_eq!(r.verdict.level, 1);
    let r = run(&doc, BTreeMap::new(), None);
    assert_eq!(r.verdict.level, 1);
    assert!(
        codes(&r).contains(&"aef-exact-text-mismatch"),
        "{:?}",
        codes(&r)
    );
}

#[test]
fn given_keys_replace_the_key_uri_and_local_sources_need_no_fetch() {
    let s = signed(&evidence(), "k1");
    let options = VerifyOptions {
        source: SourceChoice::Bytes {
            media_type: "text/html".into(),
            body: article(),
        },
        keys: Some(citeproof_jose::KeySet::single(key().verifying_key(), None)),
        ..VerifyOptions::default()
    };
    let r = verify_with_resources(&serde_json::to_vec(&s).unwrap(), BTreeMap::new(), &options);
    assert_eq!(r.verdict.level, 3, "{:?}", codes(&r));
    let other = SigningKey::from_secret_bytes(&[9u8; 32]);
    let options = VerifyOptions {
        keys: Some(citeproof_jose::KeySet::single(other.verifying_key(), None)),
        ..options
    };
    let r = verify_with_resources(&serde_json::to_vec(&s).unwrap(), BTreeMap::new(), &options);
    assert_eq!(r.verdict.level, 2);
    assert!(codes(&r).contains(&"aef-signature-invalid"));
}

#[test]
fn non_json_input_is_level_0() {
    let r = verify_with_resources(
        b"{\"a\":1,\"a\":2}",
        BTreeMap::new(),
        &VerifyOptions::default(),
    );
    assert_eq!(r.verdict.level, 0);
    assert_eq!(codes(&r), ["json-duplicate-member"]);
}

/// Runs last (alphabetically after the others, and it re-runs them to be order-independent).
#[test]
fn zz_every_aef_code_is_exercised() {
    level_1_failures_give_level_0();
    warnings_do_not_lower_the_level();
    level_2_failures_give_level_1();
    level_3_failures_give_level_2();
    the_landing_page_example_fails_level_2_on_its_placeholder_hash();
    landing_vocabulary_is_an_error_unless_lenient();
    let seen = SEEN.lock().unwrap().clone();
    let missing: Vec<&str> = IncidentCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| c.starts_with("aef-") || c.starts_with("jws-") || c.starts_with("jwk-"))
        .filter(|c| *c != "jwk-kid-missing") // not an AEF rule: AEF keys need no kid (AEF-L3-004)
        .filter(|c| !seen.contains(c))
        .collect();
    assert!(missing.is_empty(), "not exercised: {missing:?}");
}

/// The shared item form: a person (or the audit store) sees the claim, the source, the hash the
/// object declares next to the hash computed from the source, and the text that was judged; the
/// trust section names the trusted key location. A tampered hash turns the item unverified and
/// names the failing code.
#[test]
fn report_items_show_claim_source_hashes_and_trust() {
    let report = run(&evidence(), resources(), Some(2));
    assert!(report.verdict.verified, "{:?}", codes(&report));
    assert_eq!(report.items.len(), 1);
    let item = &report.items[0];
    assert_eq!(item.kind, "evidence");
    assert_eq!(item.id, "ev-1");
    assert_eq!(
        item.text.as_deref(),
        Some("The AEO Protocol defines three pillars.")
    );
    assert!(item.verified && item.failed.is_empty());
    let source = &item.sources[0];
    assert_eq!(source.url, PAGE);
    assert_eq!(source.locator.as_deref(), Some("text_quote: three pillars"));
    assert_eq!(source.declared_hash.as_deref(), Some(THREE_PILLARS));
    // Python hashlib, module doc: the §5 hash of "three pillars".
    assert_eq!(source.computed_hash.as_deref(), Some(THREE_PILLARS));
    assert_eq!(source.excerpt.as_deref(), Some("three pillars"));
    assert_eq!(report.trust.key_locations, vec![KEYS.to_owned()]);

    let mut tampered = evidence();
    set(
        &mut tampered,
        "/verification/content_hash",
        json!("sha256:0000000000000000000000000000000000000000000000000000000000000000"),
    );
    let report = run(&tampered, resources(), Some(2));
    let item = &report.items[0];
    assert!(!item.verified);
    assert!(!item.failed.is_empty(), "the failing code is named");
    assert_eq!(
        item.sources[0].computed_hash.as_deref(),
        Some(THREE_PILLARS),
        "the computed hash is shown next to the declared one"
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["items"][0]["kind"], "evidence");

    // A Level 1 run never compared the source: its item may not say the source is verified.
    let report = run(&evidence(), resources(), Some(1));
    assert!(report.verdict.verified);
    assert!(report.items[0].sources[0].computed_hash.is_none());
    assert!(!report.items[0].sources[0].verified);
    assert_eq!(json["trust"]["key_locations"][0], KEYS);
}
