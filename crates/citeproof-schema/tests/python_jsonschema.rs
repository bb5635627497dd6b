//! Schemas = profile = verifier: every document of the document-validation vectors goes through
//! citeproof's schema (the Rust `jsonschema` crate) and through Python's `jsonschema` (an
//! independent implementation, `tests/python/validate.py`) over the committed `schemas/` files.
//! Both must give the same verdict on every document, and no document a vector calls valid may be
//! rejected by the schema.
//!
//! Needs `pip install 'jsonschema[format-nongpl]'`; skipped when python3 is missing unless
//! `CITEPROOF_REQUIRE_PYTHON` is set (CI sets it).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use citeproof_model::json::parse_strict;
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Operations whose input `document` is one document of a kind, and the files holding them.
fn document_cases() -> Vec<(String, DocumentKind, String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root().join("vectors")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !["tools", "meta", "fixtures"]
                    .iter()
                    .any(|d| path.ends_with(d))
                {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let kind = match file["operation"].as_str() {
                Some("aca-manifest-validate") => DocumentKind::AcaManifest,
                Some("aca-discovery-validate") => DocumentKind::AcaDiscovery,
                Some("aef-validate") => DocumentKind::AefEvidence,
                _ => continue,
            };
            for case in file["cases"].as_array().unwrap() {
                let Some(doc) = case["input"]["document"].as_str() else {
                    continue;
                };
                let result = case["expected"]["result"].as_str().unwrap().to_owned();
                out.push((
                    case["id"].as_str().unwrap().to_owned(),
                    kind,
                    doc.to_owned(),
                    result,
                ));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Known defects of the Python side, each with its reference. They are the only allowed
/// disagreements; a case listed here that agrees fails the test (the list must stay true).
/// rfc3339-validator rejects second 60; RFC 3339 §5.6 allows it and JSON-Schema-Test-Suite
/// (draft2020-12/optional/format/date-time.json, "a valid date-time with a leap second, UTC")
/// calls it valid.
const LEAP_SECOND: &str = "rfc3339-validator rejects second 60, which RFC 3339 §5.6 allows";

const PYTHON_DEFECTS: &[(&str, &str)] = &[
    ("aef-validate-timestamp-rfc3339-leap-second", LEAP_SECOND),
    (
        "aef-validate-should-published-leap-second-after-fetched",
        LEAP_SECOND,
    ),
    (
        "aef-validate-should-published-leap-second-offset-after-fetched",
        LEAP_SECOND,
    ),
];

fn python() -> Option<&'static str> {
    if Command::new("python3").arg("--version").output().is_ok() {
        return Some("python3");
    }
    assert!(
        std::env::var_os("CITEPROOF_REQUIRE_PYTHON").is_none(),
        "python3 is required (CITEPROOF_REQUIRE_PYTHON is set)"
    );
    None
}

#[test]
fn rust_and_python_jsonschema_agree_on_every_vector_document() {
    let Some(py) = python() else {
        eprintln!("skipped: python3 not found");
        return;
    };
    // Documents that are not I-JSON (duplicate members, lone surrogates, ...) have no schema
    // verdict: Python's json module reads them differently by design.
    let cases: Vec<_> = document_cases()
        .into_iter()
        .filter_map(|(id, kind, doc, result)| {
            parse_strict(doc.as_bytes())
                .ok()
                .map(|v| (id, kind, doc, result, v))
        })
        .collect();
    assert!(cases.len() > 200, "only {} documents", cases.len());
    let mut child = Command::new(py)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/validate.py"))
        .arg(root().join("schemas"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for (_, kind, doc, _, _) in &cases {
            let line = json!({"schema": kind.file_name(), "document": doc}).to_string();
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python failed (pip install 'jsonschema[format-nongpl]'): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len());
    let mut disagreements = Vec::new();
    let mut valid_rejected = Vec::new();
    let (mut both_valid, mut both_invalid) = (0, 0);
    for ((id, kind, _, expected, value), py) in cases.iter().zip(&answers) {
        let rust = SchemaValidator::cached(*kind).unwrap().validate(value);
        let python_valid = py["valid"].as_bool().unwrap();
        let known = PYTHON_DEFECTS.iter().any(|(k, _)| k == id);
        if known {
            assert!(
                rust.is_empty() != python_valid,
                "{id} is listed as a Python defect but both agree now"
            );
            continue;
        }
        if rust.is_empty() != python_valid {
            disagreements.push(format!(
                "{id}: rust {:?}, python {}",
                rust.iter().map(|i| i.to_string()).collect::<Vec<_>>(),
                py["errors"]
            ));
        } else if python_valid {
            both_valid += 1;
        } else {
            both_invalid += 1;
        }
        if expected == "valid" && !rust.is_empty() {
            valid_rejected.push(format!(
                "{id}: {:?}",
                rust.iter().map(|i| i.to_string()).collect::<Vec<_>>()
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(
        valid_rejected.is_empty(),
        "the schema rejects documents the vectors call valid:\n{}",
        valid_rejected.join("\n")
    );
    eprintln!("{both_valid} documents valid and {both_invalid} invalid for both implementations");
    assert!(both_valid > 50 && both_invalid > 50);
}
