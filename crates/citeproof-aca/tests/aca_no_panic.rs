//! No input panics: arbitrary bytes and JSON into the `Citation-Source` parser, the manifest and
//! discovery checkers, the signature parser and checker, and the whole flow on arbitrary
//! snapshots.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_aca::verify::signature::{
    KeyMiss, KeyResolver, ReceivedResponse, SignatureCheck, VerifyingKey, check_response_signature,
};
use citeproof_aca::{
    VerifyOptions, parse_citation_source, validate_discovery_bytes, validate_manifest_bytes,
    validate_manifest_value, verify_snapshot_bytes,
};
use citeproof_model::aca::{Discovery, Manifest};
use citeproof_testkit::arbitrary::{JsonShape, schema_member_names};
use proptest::prelude::*;
use serde_json::{Value, json};

struct NoKeys;
impl KeyResolver for NoKeys {
    fn resolve(&self, _: Option<&str>) -> Result<VerifyingKey, KeyMiss> {
        Err(KeyMiss::Unresolved("none".into()))
    }
}

/// The member names of the manifest and discovery models.
fn member_names() -> &'static [&'static str] {
    schema_member_names(&[
        serde_json::to_value(schemars::schema_for!(Manifest)).unwrap_or_default(),
        serde_json::to_value(schemars::schema_for!(Discovery)).unwrap_or_default(),
    ])
}

#[test]
fn member_names_reach_every_level_of_the_documents() {
    let names = member_names();
    for name in [
        "run_id",
        "claim_id",
        "excerpt_hash",
        "inputs_ref",
        "keys",
        "kty",
    ] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
}

/// Manifest-shaped JSON: the manifest's member names and a few of its words.
fn json_value() -> impl Strategy<Value = Value> {
    citeproof_testkit::arbitrary::json_value(JsonShape {
        text: "[ -~é\\u{1F600}]{0,12}",
        words: &[
            "run_id",
            "claims",
            "chain",
            "sources",
            "hash",
            "excerpt_offset",
            "inputs_ref",
            "outputs_ref",
            "step",
            "https://example.com/a",
            "sha256:00",
        ],
        extra_leaf: None,
        names: member_names(),
        name_pattern: "[a-z_-]{1,8}",
        max_members: 6,
        branch: 6,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn header_parser_never_panics(lines in prop::collection::vec(any::<String>(), 0..4)) {
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let _ = parse_citation_source(&refs);
    }

    #[test]
    fn header_parser_never_panics_on_near_grammar(lines in prop::collection::vec("[<>;=,\" \\t\\\\a-zA-Z0-9:/.%#?@\\[\\]-]{0,80}", 0..4)) {
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let _ = parse_citation_source(&refs);
    }

    #[test]
    fn manifest_checker_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = validate_manifest_bytes(&bytes);
        let _ = validate_discovery_bytes(&bytes);
    }

    #[test]
    fn manifest_checker_never_panics_on_json(v in json_value()) {
        let _ = validate_manifest_value(&v);
        let doc = json!({"run_id": "r", "agent_id": "a", "emitted_at": "2026-01-01T00:00:00Z", "claims": [v.clone()], "chain": [v.clone()]});
        let _ = validate_manifest_value(&doc);
        let _ = citeproof_aca::validate_discovery_value(&json!({"keys": v}));
    }

    #[test]
    fn signature_parsers_never_panic(input in any::<String>(), sig in any::<String>(), digest in any::<String>(), status in 100u16..600) {
        let headers = vec![
            ("Signature-Input".to_owned(), input),
            ("Signature".to_owned(), sig),
            ("Content-Digest".to_owned(), digest),
            ("Content-Type".to_owned(), "application/json".to_owned()),
        ];
        let resp = ReceivedResponse { status, headers: &headers, body: b"{}" };
        let _ = check_response_signature(&resp, &NoKeys, SignatureCheck { now: 0, max_age: Some(1), emitted_at: Some(0) }, None);
    }

    #[test]
    fn signature_checker_never_panics_near_grammar(
        components in prop::collection::vec("\"[@a-z;=\" -]{0,12}\"", 0..5),
        params in "(;[a-z]{1,7}=(\"[a-z0-9]{0,5}\"|[0-9]{1,12}|\\?[01]|:[A-Za-z0-9+/=]{0,8}:)){0,5}",
    ) {
        let input = format!("sig1=({}){params}", components.join(" "));
        let headers = vec![
            ("Signature-Input".to_owned(), input),
            ("Signature".to_owned(), format!("sig1=:{}:", "A".repeat(88))),
            ("Content-Digest".to_owned(), "sha-256=:RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o=:".to_owned()),
            ("Content-Type".to_owned(), "application/json".to_owned()),
        ];
        let resp = ReceivedResponse { status: 200, headers: &headers, body: b"{}" };
        let _ = check_response_signature(&resp, &NoKeys, SignatureCheck { now: i64::MAX, max_age: Some(u64::MAX), emitted_at: Some(i64::MIN) }, None);
    }

    #[test]
    fn flow_never_panics_on_arbitrary_snapshots(header in any::<String>(), manifest in json_value(), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        use base64::Engine as _;
        let b64 = base64::engine::general_purpose::STANDARD;
        let snapshot = json!({
            "snapshot_version": 1,
            "response": {"url": "https://agent.example/r", "status": 200,
                "headers": [["citation-source", header], ["citation-source", "<https://example.com/a>; manifest=\"https://agent.example/m\""]],
                "body_base64": ""},
            "resources": {
                "https://agent.example/m": {"status": 200, "headers": [["content-type", "application/json"]], "body_base64": b64.encode(serde_json::to_vec(&manifest).unwrap())},
                "https://example.com/a": {"status": 200, "headers": [], "body_base64": b64.encode(&bytes)}
            }
        });
        let opts = VerifyOptions::new(1_777_370_400);
        let _ = verify_snapshot_bytes(&serde_json::to_vec(&snapshot).unwrap(), &opts);
        let _ = verify_snapshot_bytes(&bytes, &opts);
    }
}
