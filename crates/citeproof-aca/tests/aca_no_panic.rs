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
use proptest::prelude::*;
use serde_json::{Value, json};

struct NoKeys;
impl KeyResolver for NoKeys {
    fn resolve(&self, _: Option<&str>) -> Result<VerifyingKey, KeyMiss> {
        Err(KeyMiss::Unresolved("none".into()))
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[ -~é\\u{1F600}]{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("run_id"),
            Just("claims"),
            Just("chain"),
            Just("sources"),
            Just("hash"),
            Just("excerpt_offset"),
            Just("inputs_ref"),
            Just("outputs_ref"),
            Just("step"),
            Just("https://example.com/a"),
            Just("sha256:00")
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("run_id".to_owned()),
                    Just("agent_id".to_owned()),
                    Just("emitted_at".to_owned()),
                    Just("claims".to_owned()),
                    Just("claim_id".to_owned()),
                    Just("text".to_owned()),
                    Just("sources".to_owned()),
                    Just("url".to_owned()),
                    Just("retrieved_at".to_owned()),
                    Just("hash".to_owned()),
                    Just("excerpt_offset".to_owned()),
                    Just("excerpt_hash".to_owned()),
                    Just("chain".to_owned()),
                    Just("step".to_owned()),
                    Just("tool".to_owned()),
                    Just("inputs".to_owned()),
                    Just("inputs_hash".to_owned()),
                    Just("inputs_ref".to_owned()),
                    Just("outputs_ref".to_owned()),
                    Just("keys".to_owned()),
                    Just("kty".to_owned()),
                    "[a-z_-]{1,8}"
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
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
