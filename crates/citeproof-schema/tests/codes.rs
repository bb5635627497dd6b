//! Schema errors map to the profile's specific codes (JSON-005 timestamps, CANON-002 hashes,
//! JSON-004 unknown members) with the instance pointer of the offending value.

use citeproof_model::IncidentCode;
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde_json::{Value, json};

fn manifest(emitted_at: &str, hash: &str) -> Value {
    json!({
        "run_id": "r1", "agent_id": "a", "emitted_at": emitted_at,
        "claims": [{ "claim_id": "c1", "text": "t", "sources": [{
            "url": "https://example.com/", "retrieved_at": "2026-04-28T09:55:00Z", "hash": hash }] }]
    })
}

const HASH: &str = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

fn found(kind: DocumentKind, doc: &Value) -> Vec<(IncidentCode, String)> {
    SchemaValidator::new(kind)
        .unwrap()
        .validate(doc)
        .into_iter()
        .map(|i| (i.code, i.location.pointer.unwrap_or_default()))
        .collect()
}

#[test]
fn timestamp_violations_get_their_own_code() {
    assert!(
        found(
            DocumentKind::AcaManifest,
            &manifest("2026-04-28T10:00:00Z", HASH)
        )
        .is_empty()
    );
    for bad in [
        "2026-04-28t10:00:00Z",
        "2016-12-31T23:59:60Z",
        "2026-04-28T10:00:00.1234567891Z",
        "2026-02-30T10:00:00Z",
    ] {
        let got = found(DocumentKind::AcaManifest, &manifest(bad, HASH));
        assert!(
            got.contains(&(IncidentCode::SchemaTimestampInvalid, "/emitted_at".into())),
            "{bad}: {got:?}"
        );
        assert!(
            got.iter()
                .all(|(c, _)| *c == IncidentCode::SchemaTimestampInvalid),
            "{bad}: {got:?}"
        );
    }
}

#[test]
fn hash_syntax_gets_its_own_code() {
    let bad = HASH.to_uppercase().replace("SHA256", "sha256");
    let got = found(
        DocumentKind::AcaManifest,
        &manifest("2026-04-28T10:00:00Z", &bad),
    );
    assert_eq!(
        got,
        vec![(
            IncidentCode::CanonHashSyntax,
            "/claims/0/sources/0/hash".into()
        )]
    );
}

#[test]
fn aef_timestamps_follow_the_published_schema_not_json_005() {
    let evidence = |fetched_at: &str| {
        json!({
            "evidence_version": "0.1", "evidence_id": "e", "claim_text": "c",
            "source": { "uri": "https://example.com/", "type": "webpage", "fetched_at": fetched_at },
            "span": { "selector_type": "none" }, "retrieval": { "method": "keyword" },
            "verification": { "content_hash": HASH }, "synthesis_role": "background"
        })
    };
    assert!(found(DocumentKind::AefEvidence, &evidence("2026-04-28t10:00:00z")).is_empty());
    assert!(found(DocumentKind::AefEvidence, &evidence("2016-12-31T23:59:60Z")).is_empty());
    let got = found(DocumentKind::AefEvidence, &evidence("2026-04-28 10:00:00Z"));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, "/source/fetched_at");
}
