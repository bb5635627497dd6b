//! Unknown-member policy per document type (docs/PROFILE.md, "Unknown object members"):
//! ACA, archive and chain envelopes accept `x-` extension members and reject any other
//! unknown member (chain claims and sources keep a member outside the profile with a warning,
//! CHAIN-017); AEF evidence objects and display citations reject every unknown member;
//! JWKs ignore unknown members (RFC 7517 §4). Checked at both layers: the schema (incident
//! `unknown-member` with a pointer) and the typed serde model.

use citeproof_model::{IncidentCode, aca, aef, archive, envelope, jwk};
use citeproof_reference::validate_value;
use citeproof_schema::DocumentKind;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

const HASH: &str = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

fn manifest() -> Value {
    json!({
        "run_id": "123", "agent_id": "agent.example/v1", "emitted_at": "2026-04-28T10:00:00Z",
        "claims": [{
            "claim_id": "c1", "text": "A claim.", "confidence": "high",
            "sources": [{ "url": "https://example.com/a", "retrieved_at": "2026-04-28T09:55:00Z",
                          "hash": HASH, "excerpt_offset": [0, 3] }]
        }],
        "chain": [{ "step": 1, "tool": "search", "inputs": { "q": "a" }, "outputs_ref": "runs/123/step/1",
                    "sources": ["https://example.com/a"] }]
    })
}

fn discovery() -> Value {
    json!({ "version": "1.0", "manifest_schema": "https://agent.example/schema/manifest-v1.json",
            "supported_signing": ["http-message-signatures"], "contact": "attribution@agent.example",
            "jwks_uri": "https://agent.example/jwks.json" })
}

fn evidence() -> Value {
    json!({
        "evidence_version": "0.1", "evidence_id": "ev-1", "claim_text": "A claim.",
        "source": { "uri": "https://example.com/a", "type": "webpage", "fetched_at": "2026-05-12T03:45:00Z" },
        "span": { "selector_type": "none" },
        "retrieval": { "method": "direct_fetch" },
        "verification": { "content_hash": HASH },
        "synthesis_role": "supporting"
    })
}

fn envelope() -> Value {
    json!({
        "apiVersion": "v1", "methodology": "https://sourcescore.org/methodology/",
        "canonical": "https://sourcescore.org/claims/ad17e76a8baad7a1/",
        "claim": { "id": "ad17e76a8baad7a1", "vertical": "ai-ml", "subject": "Transformer architecture",
                   "predicate": "introduced_in_paper",
                   "object": "Attention Is All You Need (Vaswani et al., 2017)",
                   "sources": [{ "url": "https://arxiv.org/abs/1706.03762", "excerpt": "e" }] },
        "signature": { "algorithm": "HMAC-SHA256", "signedBy": "did:web:sourcescore.org",
                       "signedAt": "2026-05-16T00:00:00.000Z",
                       "signature": "cfdd0b49ce576bd42e17ba4caa0b64cdcfdd0b49ce576bd42e17ba4caa0b64cd" }
    })
}

fn citation() -> Value {
    json!({ "artifact_id": HASH, "archive_version": "2026-01",
            "span": { "kind": "text", "paragraph_index": 3, "char_start": 0, "char_end": 10 },
            "relation": "direct_quote" })
}

fn display() -> Value {
    json!({ "handle": "Source A", "relation_label": "their words", "excerpt": "e", "restricted": false })
}

fn with_member(mut doc: Value, pointer: &str, name: &str) -> Value {
    if let Some(Value::Object(m)) = doc.pointer_mut(pointer) {
        m.insert(name.to_owned(), json!("surprise"));
    }
    doc
}

fn codes(kind: DocumentKind, doc: &Value) -> Vec<IncidentCode> {
    validate_value(kind, doc)
        .into_iter()
        .map(|i| i.code)
        .collect()
}

fn typed_ok<T: DeserializeOwned>(doc: &Value) -> bool {
    serde_json::from_value::<T>(doc.clone()).is_ok()
}

fn assert_policy<T: DeserializeOwned>(
    kind: DocumentKind,
    base: Value,
    objects: &[&str],
    extensions: bool,
) {
    assert!(
        codes(kind, &base).is_empty(),
        "{kind}: base document invalid: {:?}",
        validate_value(kind, &base)
    );
    assert!(
        typed_ok::<T>(&base),
        "{kind}: base document does not deserialize"
    );
    for pointer in objects {
        let unknown = with_member(base.clone(), pointer, "surprise");
        let found = validate_value(kind, &unknown);
        assert!(
            found.iter().any(|i| i.code == IncidentCode::UnknownMember
                && i.location.pointer.as_deref() == Some(pointer)),
            "{kind}: unknown member at {pointer:?} not reported with its pointer: {found:?}"
        );
        assert!(
            !typed_ok::<T>(&unknown),
            "{kind}: typed model accepted unknown member at {pointer:?}"
        );

        let extension = with_member(base.clone(), pointer, "x-vendor");
        if extensions {
            assert!(
                codes(kind, &extension).is_empty(),
                "{kind}: x- extension at {pointer:?} rejected"
            );
            assert!(
                typed_ok::<T>(&extension),
                "{kind}: typed model rejected x- extension at {pointer:?}"
            );
        } else {
            assert!(
                codes(kind, &extension).contains(&IncidentCode::UnknownMember),
                "{kind}: x- member at {pointer:?} accepted"
            );
            assert!(
                !typed_ok::<T>(&extension),
                "{kind}: typed model accepted x- member at {pointer:?}"
            );
        }
    }
}

#[test]
fn aca_documents_allow_only_x_extensions() {
    assert_policy::<aca::Manifest>(
        DocumentKind::AcaManifest,
        manifest(),
        &["", "/claims/0", "/claims/0/sources/0", "/chain/0"],
        true,
    );
    assert_policy::<aca::Discovery>(DocumentKind::AcaDiscovery, discovery(), &[""], true);
}

#[test]
fn aef_evidence_allows_no_unknown_member() {
    assert_policy::<aef::Evidence>(
        DocumentKind::AefEvidence,
        evidence(),
        &["", "/source", "/span", "/retrieval", "/verification"],
        false,
    );
}

#[test]
fn archive_and_envelope_documents() {
    assert_policy::<archive::ArchiveCitation>(
        DocumentKind::ArchiveCitation,
        citation(),
        &[""],
        true,
    );
    assert_policy::<archive::DisplayCitation>(
        DocumentKind::ArchiveDisplayCitation,
        display(),
        &[""],
        false,
    );
    assert_policy::<envelope::ChainEnvelope>(DocumentKind::ChainEnvelope, envelope(), &[""], true);
    // Claims and sources are forward-compatible (CHAIN-017): a member outside the profile is a
    // warning in document validation (whether the signature covers it needs a key; without
    // one, `chain verify` rejects it), and the typed model keeps it.
    for pointer in ["/claim", "/claim/sources/0"] {
        let doc = with_member(envelope(), pointer, "surprise");
        assert_eq!(
            codes(DocumentKind::ChainEnvelope, &doc),
            [IncidentCode::ChainMemberUnrecognized],
            "{pointer}"
        );
        assert!(typed_ok::<envelope::ChainEnvelope>(&doc), "{pointer}");
    }
}

#[test]
fn jwks_ignore_unknown_members() {
    let set = json!({ "keys": [{ "kty": "OKP", "crv": "Ed25519",
        "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kid": "k1", "surprise": 1 }] });
    assert!(codes(DocumentKind::JwkSet, &set).is_empty());
    let parsed: jwk::JwkSet = serde_json::from_value(set).unwrap();
    assert_eq!(parsed.keys[0].other.get("surprise"), Some(&json!(1)));
}

#[test]
fn display_citation_never_carries_bundle_fields() {
    for field in ["artifact_id", "span", "archive_version"] {
        let leaked = with_member(display(), "", field);
        assert!(
            codes(DocumentKind::ArchiveDisplayCitation, &leaked)
                .contains(&IncidentCode::UnknownMember),
            "{field}"
        );
    }
}
