//! AEF Level 3 against an independent implementation, both ways, at the level of whole evidence
//! objects (`tests/python/aef_crosscheck.py`: joserfc + pyca/cryptography, with the signing
//! payload computed by `vectors/tools/aef_independent.py`'s own RFC 8785):
//!
//! (a) evidence signed by `citeproof_aef::build::sign_evidence` verifies with joserfc, and stops
//!     verifying when the claim changes (but not when `signing_key_uri` changes: AEF-5-003);
//! (b) evidence signed by joserfc with a key citeproof never saw verifies with
//!     `citeproof_aef` given the JWK Python published, and stops verifying when changed.
//!
//! Without python3 or its modules the test prints a notice and passes, unless
//! `CITEPROOF_REQUIRE_PYTHON` is set (CI sets it).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_aef::build::{EvidenceSignOptions, sign_evidence};
use citeproof_aef::signature::{KeySource, check};
use citeproof_jose::SigningKey;
use citeproof_testkit::PythonOracle;
use serde_json::{Value, json};

fn oracle() -> PythonOracle {
    PythonOracle::new(env!("CARGO_MANIFEST_DIR"), "tests/python/aef_crosscheck.py")
}

fn evidence() -> Value {
    json!({
        "evidence_version": "0.1",
        "evidence_id": "ev-crosscheck-1",
        "claim_text": "Résumé: the café publishes “three pillars” ✓ — and 𝄞 too.",
        "source": {
            "uri": "https://example.com/aeo?lang=fr#pillars",
            "type": "webpage",
            "title": "AEO Protocol v0.1 — Overview",
            "published_at": "2026-05-01T00:00:00+02:00",
            "fetched_at": "2026-05-12T03:45:00.5Z"
        },
        "span": {
            "selector_type": "text_quote",
            "selector_value": "three pillars",
            "exact_text": "three pillars",
            "surrounding_context": "line one\nline\ttwo \"quoted\" \\ back"
        },
        "retrieval": { "method": "hybrid", "confidence": 0.93, "rank": 1, "freshness_age_seconds": 90, "retriever_id": "bm25+dense" },
        "verification": {
            "content_hash": "sha256:e38f3d1f3a04e02ce84f88defa025bd5c3c5609ca70fbac9a7dbd691c8c7326f",
            "signed_by": "pipeline-7",
            "signing_key_uri": "https://keys.example.com/aef.json"
        },
        "synthesis_role": "partial",
        "notes": "\u{1} control and \u{7f} delete"
    })
}

#[test]
fn joserfc_and_citeproof_verify_each_others_evidence_signatures() {
    if !citeproof_testkit::oracle_available("the AEF joserfc cross-check", oracle().probe()) {
        return;
    }
    let key = SigningKey::generate().unwrap();
    let ours = sign_evidence(
        &evidence(),
        &key,
        &EvidenceSignOptions {
            kid: Some("rust-1".into()),
            ..EvidenceSignOptions::default()
        },
    )
    .unwrap();
    let response = oracle().ask(&json!({
        "ours": ours,
        "our_public_jwk": key.verifying_key().to_jwk(Some("rust-1")),
        "unsigned": evidence(),
    }));
    // (a)
    assert_eq!(response["verify_ours"], json!({"ok": true}), "{response}");
    assert_eq!(
        response["verify_ours_tampered"]["ok"],
        json!(false),
        "{response}"
    );
    assert_eq!(
        response["verify_ours_moved_key_uri"],
        json!({"ok": true}),
        "{response}"
    );
    // (b)
    let theirs = &response["theirs"];
    let jwk = serde_json::to_vec(&response["their_public_jwk"]).unwrap();
    let set = serde_json::to_vec(&json!({ "keys": [response["their_public_jwk"]] })).unwrap();
    assert_eq!(check(theirs, KeySource::Document(&jwk)), vec![], "{theirs}");
    assert_eq!(check(theirs, KeySource::Document(&set)), vec![], "{theirs}");
    let mut changed = theirs.clone();
    changed["retrieval"]["confidence"] = json!(0.94);
    let incidents = check(&changed, KeySource::Document(&jwk));
    assert_eq!(incidents.len(), 1, "{incidents:?}");
    assert_eq!(incidents[0].code.as_str(), "aef-signature-invalid");
    // Our own signer's key does not verify Python's signature.
    let ours_only = serde_json::to_vec(&key.verifying_key().to_jwk(Some("py-1"))).unwrap();
    assert_eq!(
        check(theirs, KeySource::Document(&ours_only))[0]
            .code
            .as_str(),
        "aef-signature-invalid"
    );
}
