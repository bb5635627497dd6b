//! The transforms of the chain, ledger and archive operations over every static case of each
//! operation, with the reference as the judge: every case gets a variant with a new input, the
//! reference's verdict on it equals the static expectation (a disagreement is a dropped
//! variant), and the transforms that re-sign or re-hash really did.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{path::Path, sync::Arc};

use citeproof_conformance::{
    Suite,
    suite::Case,
    variants::{Origin, VariantPlan, generate},
};
use citeproof_variants::Variants;
use serde_json::Value;

fn suite() -> Suite {
    Suite::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors")).unwrap()
}

/// (static case, its variant) for every case of `operation`, under several seeds; panics when a
/// variant is dropped (the reference disagrees with the static expectation on it), when a case
/// gets no variant, or when a variant's input equals the static one.
fn variants(operation: &str) -> Vec<(Case, Case)> {
    let suite = suite();
    let cases: Vec<&Case> = suite.cases().filter(|c| c.operation == operation).collect();
    assert!(!cases.is_empty(), "no static case of {operation}");
    let plan = VariantPlan {
        generator: Arc::new(Variants),
        oracle: Arc::new(citeproof_reference::Reference::new()),
        per_case: 1,
    };
    let mut out = Vec::new();
    for seed in [1u64, 7, 42, 0x5eed] {
        let g = generate(&cases, &plan, seed);
        assert!(
            g.dropped.is_empty(),
            "{operation} seed {seed}: {:#?}",
            g.dropped
        );
        assert!(g.not_derived.is_empty(), "{operation}: {:?}", g.not_derived);
        assert_eq!(g.unchanged, 0, "{operation} seed {seed}");
        assert_eq!(g.cases.len(), cases.len(), "{operation} seed {seed}");
        for v in g.cases {
            let Origin::Generated { from, .. } = &v.origin else {
                panic!("{} is not generated", v.id)
            };
            let source = cases.iter().find(|c| &c.id == from).unwrap();
            assert_ne!(v.input, source.input, "{}", v.id);
            assert_eq!(v.expected.result, source.expected.result, "{}", v.id);
            out.push(((*source).clone(), v));
        }
    }
    out
}

fn transforms(v: &Case) -> Vec<String> {
    match &v.origin {
        Origin::Generated { transforms, .. } => transforms.clone(),
        Origin::Static => Vec::new(),
    }
}

/// The `signature.signature` of every envelope of a chain document.
fn chain_signatures(document: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(document).unwrap_or(Value::Null);
    let envelopes: Vec<&Value> = match v.get("chains").and_then(Value::as_object) {
        Some(chains) => chains.values().collect(),
        None => vec![&v],
    };
    envelopes
        .iter()
        .filter_map(|e| e.pointer("/signature/signature").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

#[test]
fn chain_claim_id_variants_keep_the_id() {
    for (source, v) in variants("chain-claim-id") {
        assert_eq!(v.expected, source.expected, "{}", v.id);
        assert!(transforms(&v).contains(&"fresh-member".to_owned()));
    }
}

#[test]
fn chain_signing_input_variants_are_new_texts_of_the_same_value() {
    for (source, v) in variants("chain-signing-input") {
        let (old, new) = (
            source.input["document"].as_str().unwrap(),
            v.input["document"].as_str().unwrap(),
        );
        assert_ne!(old, new);
        match serde_json::from_str::<Value>(old) {
            Ok(value) => assert_eq!(
                value,
                serde_json::from_str::<Value>(new).unwrap(),
                "{}",
                v.id
            ),
            // Not I-JSON (a duplicate member): only whitespace around it.
            Err(_) => assert_eq!(new.trim(), old, "{}", v.id),
        }
        assert_eq!(v.expected, source.expected, "{}", v.id);
    }
}

#[test]
fn chain_verify_variants_re_sign_with_fresh_keys_and_secrets() {
    let mut resigned = 0;
    let mut valid = 0;
    for (source, v) in variants("chain-verify") {
        let t = transforms(&v);
        assert!(
            t.contains(&"new-secrets".to_owned()) || t.contains(&"new-keys".to_owned()),
            "{}: {t:?}",
            v.id
        );
        for trust in ["secrets", "keys"] {
            if source
                .input
                .get(trust)
                .is_some_and(|s| s.to_string().len() > 40)
            {
                assert_ne!(v.input[trust], source.input[trust], "{}: {trust}", v.id);
            }
        }
        let old = chain_signatures(source.input["document"].as_str().unwrap());
        let new = chain_signatures(v.input["document"].as_str().unwrap());
        if source.expected.result == citeproof_model::vectors::Validity::Valid {
            valid += 1;
            // A valid envelope verified, so its signature was re-made under the fresh secret.
            assert!(
                old.iter().any(|s| !new.contains(s)),
                "{}: no signature re-made",
                v.id
            );
            assert_eq!(v.expected.output, source.expected.output, "{}", v.id);
        }
        resigned += old.iter().filter(|s| !new.contains(s)).count();
    }
    assert!(valid >= 4 * 20, "{valid}");
    assert!(resigned >= valid, "{resigned}");
}

/// The `ledger_id` values of the JSON lines of a file, in order (`None` for other lines).
fn ledger_ids(text: &str) -> Vec<Option<String>> {
    text.split('\n')
        .map(|l| {
            serde_json::from_str::<Value>(l.trim_end_matches('\r'))
                .ok()
                .and_then(|v| {
                    v.get("ledger_id")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
        })
        .collect()
}

/// Which positions of `ids` hold equal values: the renaming must keep this relation.
fn equalities(ids: &[Option<String>]) -> Vec<(usize, usize, bool)> {
    let mut out = Vec::new();
    for i in 0..ids.len() {
        for j in i + 1..ids.len() {
            if ids[i].is_some() && ids[j].is_some() {
                out.push((i, j, ids[i] == ids[j]));
            }
        }
    }
    out
}

#[test]
fn ledger_verify_variants_keep_framing_and_id_equalities() {
    let mut renamed = 0;
    for (source, v) in variants("ledger-verify") {
        assert_eq!(v.expected, source.expected, "{}", v.id);
        assert_ne!(v.input["ledger"], source.input["ledger"], "{}", v.id);
        if let (Some(old), Some(new)) =
            (source.input["export"].as_str(), v.input["export"].as_str())
        {
            assert_eq!(
                old.matches('\n').count(),
                new.matches('\n').count(),
                "{}",
                v.id
            );
            let (a, b) = (ledger_ids(old), ledger_ids(new));
            assert_eq!(equalities(&a), equalities(&b), "{}", v.id);
            if a != b {
                renamed += 1;
            }
        }
    }
    assert!(renamed >= 40, "{renamed}");
}

#[test]
fn ledger_audit_variants_rename_ids_in_the_output_too() {
    let mut renamed = 0;
    for (source, v) in variants("ledger-audit") {
        let ids = |c: &Case| -> Vec<Value> {
            c.expected
                .output
                .as_ref()
                .and_then(|o| o["ledgers"].as_array().cloned())
                .unwrap_or_default()
                .iter()
                .map(|l| l["ledger_id"].clone())
                .collect()
        };
        let (old, new) = (ids(&source), ids(&v));
        assert_eq!(old.len(), new.len());
        for (o, n) in old.iter().zip(&new) {
            // `null` (records without an id) stays `null`; a string id is renamed.
            assert_eq!(o.is_null(), n.is_null(), "{}", v.id);
            if o.is_string() {
                assert_ne!(o, n, "{}", v.id);
                renamed += 1;
            }
        }
        assert_eq!(v.expected.result, source.expected.result);
        assert_eq!(v.expected.errors, source.expected.errors);
    }
    assert!(renamed >= 4 * 3, "{renamed}");
}

fn parsed(case: &Case, name: &str) -> Value {
    serde_json::from_str(case.input[name].as_str().unwrap()).unwrap_or(Value::Null)
}

#[test]
fn archive_verify_variants_re_sign_and_rebind_the_display() {
    let mut resigned = 0;
    for (source, v) in variants("archive-verify") {
        assert_eq!(v.expected, source.expected, "{}", v.id);
        assert_ne!(v.input["bundle"], source.input["bundle"], "{}", v.id);
        assert_ne!(v.input["display"], source.input["display"], "{}", v.id);
        let (old, new) = (parsed(&source, "bundle"), parsed(&v, "bundle"));
        let old_sig = old.pointer("/signature/signature");
        let new_sig = new.pointer("/signature/signature");
        if old_sig != new_sig {
            resigned += 1;
            // The signature alone changed, and a display bound to the bundle follows it.
            let mut unsigned = (old.clone(), new.clone());
            unsigned.0["signature"]["signature"] = Value::Null;
            unsigned.1["signature"]["signature"] = Value::Null;
            assert_eq!(unsigned.0, unsigned.1, "{}", v.id);
            let (d_old, d_new) = (parsed(&source, "display"), parsed(&v, "display"));
            if source.expected.result == citeproof_model::vectors::Validity::Valid {
                assert_ne!(d_old["bundle_hash"], d_new["bundle_hash"], "{}", v.id);
            }
        } else {
            assert_eq!(old, new, "{}", v.id);
        }
    }
    // Most bundles carry a signature that verifies under a configured key or secret.
    assert!(resigned >= 4 * 60, "{resigned}");
}

#[test]
fn archive_log_variants_keep_every_record_and_its_prev() {
    for (source, v) in variants("archive-log-verify") {
        assert_eq!(v.expected, source.expected, "{}", v.id);
        let (old, new) = (
            source.input["log"].as_str().unwrap(),
            v.input["log"].as_str().unwrap(),
        );
        assert_ne!(old, new, "{}", v.id);
        let old_lines: Vec<&str> = old.split('\n').collect();
        let new_lines: Vec<&str> = new.split('\n').collect();
        assert_eq!(old_lines.len(), new_lines.len(), "{}", v.id);
        for (o, n) in old_lines.iter().zip(&new_lines) {
            // A record that parses is the same value (so its JCS hash, the next `prev`, too).
            if let Ok(o) = serde_json::from_str::<Value>(o) {
                assert_eq!(
                    Ok(o),
                    serde_json::from_str::<Value>(n).map_err(|_| ()),
                    "{}",
                    v.id
                );
            }
        }
    }
}
