//! The two readings of a manifest agree: `read_manifest` (tokens straight into the checked
//! manifest, the `Value` walk only when the document has something to report) and
//! `read_manifest_tree` (always the `Value` walk) give the same findings, incidents in the same
//! order with the same codes, messages and pointers, and the same JCS flag, on every JSON body of
//! the ACA vectors and on every one-member mutation of valid manifests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use base64::Engine as _;
use citeproof_aca::sign::SigningKey;
use citeproof_aca::sign::synthetic::{SyntheticSpec, build_synthetic_run};
use citeproof_aca::verify::manifest::{read_manifest, read_manifest_tokens, read_manifest_tree};
use citeproof_model::Severity;
use citeproof_schema::{DocumentKind, SchemaValidator};
use citeproof_testkit::mutation::{one_member_mutations, pointers};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Both paths on `bytes`; panics with `what` when they differ, or when the verifier's reading
/// passes a document the manifest's JSON Schema refuses. Returns whether the typed reading kept
/// the document (so a test can show that valid manifests take it).
fn same(bytes: &[u8], what: &str) -> bool {
    let url = Some("https://agent.example/m");
    no_schema_error_passes(bytes, what);
    let tree = format!("{:?}", read_manifest_tree(bytes, url));
    let shown = || String::from_utf8_lossy(bytes).into_owned();
    assert_eq!(
        format!("{:?}", read_manifest(bytes, url)),
        tree,
        "{what}: read_manifest and the Value walk differ on {}",
        shown()
    );
    let typed = read_manifest_tokens(bytes, url);
    if let Some(typed) = &typed {
        assert_eq!(
            format!("{:?}", Ok::<_, ()>(typed)),
            tree,
            "{what}: the typed reading and the Value walk differ on {}",
            shown()
        );
    }
    typed.is_some()
}

/// The verifier does not run the JSON Schema of a manifest (only the validate operations do):
/// its own rules must refuse everything the schema refuses, or a verdict could pass a manifest
/// that `validate-manifest` fails. The schema is applied by the `jsonschema` crate, an
/// implementation apart from the verifier's rules (and checked against Python's `jsonschema`
/// in citeproof-schema's tests).
fn no_schema_error_passes(bytes: &[u8], what: &str) {
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return;
    };
    if !value.is_object() || value.get("claims").is_none() {
        return; // not a manifest (a source, a discovery document)
    }
    let schema = SchemaValidator::cached(DocumentKind::AcaManifest).unwrap();
    let refused = schema.validate(&value);
    if refused.is_empty() {
        return;
    }
    let passed = match read_manifest(bytes, Some("https://agent.example/m")) {
        Err(_) => false,
        Ok((f, _)) => !f
            .level2
            .iter()
            .chain(&f.level3)
            .any(|i| i.severity == Severity::Error),
    };
    assert!(
        !passed,
        "{what}: the schema refuses the manifest ({}) and the verifier's rules pass it: {}",
        refused
            .iter()
            .map(|i| format!("{} at {:?}", i.message, i.location.pointer))
            .collect::<Vec<_>>()
            .join("; "),
        String::from_utf8_lossy(bytes)
    );
}

/// Every JSON document of the ACA vectors: manifest documents and every body of every snapshot.
fn vector_documents() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for level in ["level1", "level2", "level3"] {
        let dir = root().join("vectors/aca").join(level);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            for case in file["cases"].as_array().into_iter().flatten() {
                let id = case["id"].as_str().unwrap_or("?").to_owned();
                let input = &case["input"];
                if let Some(doc) = input.get("document").and_then(Value::as_str) {
                    out.push((id.clone(), doc.as_bytes().to_vec()));
                }
                if let Some(doc) = input.get("manifest") {
                    out.push((id.clone(), serde_json::to_vec(doc).unwrap()));
                }
                let resources = input["snapshot"]["resources"].as_object();
                for (url, r) in resources.into_iter().flatten() {
                    if let Some(b64) = r["body_base64"].as_str() {
                        let body = base64::engine::general_purpose::STANDARD
                            .decode(b64)
                            .unwrap();
                        out.push((format!("{id} {url}"), body));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn both_paths_agree_on_every_vector_document() {
    let docs = vector_documents();
    assert!(docs.len() > 200, "only {} documents found", docs.len());
    let fast = docs.iter().filter(|(id, bytes)| same(bytes, id)).count();
    // The corpus reaches the typed path (valid manifests) and the Value walk (the rest).
    assert!(fast > 20, "only {fast} documents read by the typed path");
    assert!(
        fast < docs.len() / 2,
        "{fast} of {} documents typed",
        docs.len()
    );
}

/// A valid Level 3 manifest with every optional member: escapes in strings, an `x-` member,
/// a step with `inputs` and its hash, references by string and by array, step sources.
fn rich_manifest() -> Value {
    let inputs = json!({"q": "caf\u{e9}", "n": [1, 2.5, {"k": null}]});
    let hash = citeproof_model::sha256_bytes(&citeproof_model::jcs::canonicalize(&inputs));
    json!({
        "run_id": "r1",
        "agent_id": "agent.example/v1",
        "emitted_at": "2026-04-28T10:00:00Z",
        "response_url": "https://agent.example/answer",
        "x-note": {"a": [1, {"b": "c"}]},
        "claims": [
            {
                "claim_id": "c1",
                "text": "A \"quoted\" claim\n",
                "confidence": "high",
                "sources": [{
                    "url": "https://example.com/a",
                    "retrieved_at": "2026-04-28T09:00:00Z",
                    "hash": format!("sha256:{}", "a".repeat(64)),
                    "excerpt_offset": [0, 10],
                    "excerpt_hash": format!("sha256:{}", "b".repeat(64)),
                    "x-extra": true
                }]
            },
            {
                "claim_id": "c2",
                "text": "Second",
                "sources": [{
                    "url": "https://example.org/b",
                    "retrieved_at": "2026-04-28T09:30:00.5+01:00",
                    "hash": format!("sha256:{}", "c".repeat(64)),
                    "excerpt_offset": [3, 4]
                }]
            }
        ],
        "chain": [
            {"step": 1, "tool": "web_search", "inputs": inputs, "inputs_hash": hash.to_string(),
             "outputs_ref": "o1", "sources": ["https://example.com/a", "https://example.org/b"]},
            {"step": 2, "tool": "fetch", "inputs_ref": "o1", "outputs_ref": "o2", "sources": []},
            {"step": 3, "tool": "t", "inputs_ref": ["o1", "o2"], "outputs_ref": "o3", "x-y": 1}
        ]
    })
}

fn check_mutations(base: &Value, name: &str) {
    let replacements = [
        json!(null),
        json!(true),
        json!(0),
        json!(1),
        json!(2),
        json!(1.5),
        json!(9_007_199_254_740_992_u64),
        json!(-1),
        json!(""),
        json!("x"),
        json!("o1"),
        json!("high"),
        json!("ftp://example.com/a"),
        json!("2026-04-28T11:00:00Z"),
        json!(format!("sha256:{}", "a".repeat(64))),
        json!([]),
        json!(["o1"]),
        json!(["o1", "o1"]),
        json!([0, 0]),
        json!({}),
        // Past the schema's length bounds (tool 256, outputs_ref 2048 characters), a timestamp
        // without its offset, a hash in capitals, characters outside ASCII.
        json!("t".repeat(257)),
        json!("r".repeat(2049)),
        json!("2026-04-28T11:00:00"),
        json!(format!("sha256:{}", "A".repeat(64))),
        json!("h\u{e9}llo \u{1F600}"),
        json!([1, 0]),
        json!([0, 1, 2]),
    ];
    assert!(same(&serde_json::to_vec(base).unwrap(), name));
    assert!(same(&serde_json::to_vec_pretty(base).unwrap(), name));
    for (label, doc) in one_member_mutations(base, &replacements) {
        same(
            &serde_json::to_vec(&doc).unwrap(),
            &format!("{name} {label}"),
        );
    }
}

#[test]
fn both_paths_agree_on_every_mutation_of_a_rich_manifest() {
    let base = rich_manifest();
    check_mutations(&base, "rich");
    // A member no rule knows, in every object.
    for p in pointers(&base) {
        if let Some(Value::Object(_)) = base.pointer(&p) {
            let mut doc = base.clone();
            doc.pointer_mut(&p)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .insert("unknown".into(), json!(1));
            same(
                &serde_json::to_vec(&doc).unwrap(),
                &format!("rich {p} + unknown"),
            );
        }
    }
}

#[test]
fn both_paths_agree_on_a_signed_synthetic_manifest_and_its_mutations() {
    let spec = SyntheticSpec {
        chain_steps: 4,
        ..SyntheticSpec::new(3)
    };
    let run = build_synthetic_run(&spec, &SigningKey::from_secret_bytes(&[42u8; 32])).unwrap();
    let body = &run.responses["https://agent.example/runs/r/manifest/0"].body;
    assert!(same(body, "synthetic"), "the synthetic manifest is valid");
    let (_, canonical) = read_manifest(body, None).unwrap();
    assert!(canonical, "the signer writes JCS");
    check_mutations(&serde_json::from_slice(body).unwrap(), "synthetic");
}

#[test]
fn both_paths_agree_on_malformed_json() {
    for text in [
        "",
        "{",
        "[]",
        "{\"run_id\":\"r\",\"run_id\":\"r\"}",
        "{\"claims\":[{\"text\":\"\\ud800\"}]}",
        "{\"chain\":[{\"step\":1e400}]}",
        "\u{feff}{}",
        "{} x",
    ] {
        same(text.as_bytes(), text);
    }
}
