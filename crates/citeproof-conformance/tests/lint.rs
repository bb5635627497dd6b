//! The vector lint: the committed vectors are clean and the traceability matrix is current;
//! every lint rule fires on a file that breaks it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_conformance::lint::{Traceability, lint};
use common::*;
use serde_json::{Value, json};

#[test]
fn committed_vectors_lint_clean() {
    let (report, suite) = lint(
        &root().join("vectors"),
        &profile(),
        citeproof_reference::SPECS,
    );
    assert!(
        report.errors.is_empty(),
        "lint errors:\n{}",
        report.errors.join("\n")
    );
    assert!(suite.len() >= 380);
    assert!(suite.files.iter().any(|f| f.path == "canon/jcs.json"));
}

#[test]
fn traceability_matrix_is_current() {
    let suite = vectors();
    let exemptions =
        citeproof_conformance::lint::load_exemptions(&root().join("vectors"), &root(), &profile())
            .unwrap();
    let expected = Traceability::new(&profile(), &suite)
        .with_exemptions(&exemptions)
        .markdown();
    let committed =
        std::fs::read_to_string(root().join("vectors/TRACEABILITY.md")).unwrap_or_default();
    assert!(
        committed == expected,
        "vectors/TRACEABILITY.md is stale: run `cargo xtask conformance --lint-only`"
    );
}

#[test]
fn every_case_of_the_committed_vectors_names_its_derivation() {
    for case in vectors().cases() {
        assert!(!case.derivation.detail.trim().is_empty(), "{}", case.id);
    }
}

fn good_case(id: &str) -> Value {
    json!({
        "id": id, "description": "d", "requirements": ["CANON-003"], "level": 0, "flags": ["f"],
        "input": {"data_base64": ""},
        "expected": {"result": "valid", "output": {"hash": "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}},
        "derivation": {"kind": "independent-tool", "detail": "sha256sum"}
    })
}

fn file(cases: Vec<Value>) -> Value {
    json!({"spec": "canon", "operation": "hash-bytes", "description": "d", "flags": {"f": "a flag"}, "cases": cases})
}

fn lint_one(path: &str, value: Value) -> Vec<String> {
    let (dir, _) = temp_suite(&[(path, value)]);
    lint(dir.path(), &profile(), citeproof_reference::SPECS)
        .0
        .errors
}

fn assert_error(errors: &[String], needle: &str) {
    assert!(
        errors.iter().any(|e| e.contains(needle)),
        "no error containing {needle:?} in {errors:#?}"
    );
}

#[test]
fn a_good_file_is_clean() {
    assert_eq!(
        lint_one("canon/h.json", file(vec![good_case("canon-a")])),
        Vec::<String>::new()
    );
}

#[test]
fn each_rule_fires() {
    let mut c = good_case("canon-a");
    c["requirements"] = json!(["CANON-999"]);
    assert_error(
        &lint_one("canon/h.json", file(vec![c])),
        "is not in docs/PROFILE.md",
    );

    assert_error(
        &lint_one(
            "canon/h.json",
            file(vec![good_case("canon-a"), good_case("canon-a")]),
        ),
        "duplicate case id",
    );

    assert_error(
        &lint_one("canon/h.json", file(vec![good_case("aef-a")])),
        "must start with `canon-`",
    );

    let mut c = good_case("canon-a");
    c["flags"] = json!(["f", "g"]);
    assert_error(
        &lint_one("canon/h.json", file(vec![c])),
        "flag `g` is not declared",
    );

    let mut c = good_case("canon-a");
    c["flags"] = json!([]);
    assert_error(
        &lint_one("canon/h.json", file(vec![c])),
        "flag `f` is declared but no case uses it",
    );

    let mut c = good_case("canon-a");
    c["expected"] = json!({"result": "invalid"});
    assert_error(
        &lint_one("canon/h.json", file(vec![c])),
        "at least one error code",
    );

    let mut c = good_case("canon-a");
    c["expected"] = json!({"result": "invalid", "errors": ["no-such-code"]});
    let errors = lint_one("canon/h.json", file(vec![c]));
    assert_error(&errors, "`no-such-code` is not in the registry");
    assert_error(&errors, "not schema-valid");

    let mut c = good_case("canon-a");
    c["expected"] = json!({"result": "valid", "errors": ["json-syntax"]});
    assert_error(
        &lint_one("canon/h.json", file(vec![c])),
        "a `valid` case lists no error codes",
    );

    let mut c = good_case("canon-a");
    c["input"] = json!({"bytes": ""});
    let errors = lint_one("canon/h.json", file(vec![c]));
    assert_error(&errors, "input lacks `data_base64`");
    assert_error(&errors, "input member `bytes` is not defined");

    // An invalid answer has no output, except for operations whose contract says so
    // (chain-verify's verdicts).
    let mut c = good_case("canon-a");
    c["expected"] =
        json!({"result": "invalid", "errors": ["json-syntax"], "output": {"hash": "x"}});
    assert_error(
        &lint_one("canon/h.json", file(vec![c])),
        "an `invalid` case of this operation has no output",
    );

    let mut c = good_case("canon-a");
    c["expected"]["output"] = json!({"digest": "x"});
    assert_error(
        &lint_one("canon/h.json", file(vec![c])),
        "output member `digest` is not defined",
    );

    let mut f = file(vec![good_case("canon-a")]);
    f["operation"] = json!("hash-everything");
    assert_error(
        &lint_one("canon/h.json", f),
        "not defined in docs/ADAPTER.md",
    );

    assert_error(
        &lint_one("aef/h.json", file(vec![good_case("canon-a")])),
        "does not match its directory",
    );

    let mut c = good_case("canon-a");
    c["level"] = json!(1);
    assert_error(
        &lint_one("canon/level2/h.json", file(vec![c])),
        "level 1 in a `level2` directory",
    );

    let mut c = good_case("canon-a");
    c["derivation"] = json!({"kind": "the code under test", "detail": "ran it"});
    assert_error(&lint_one("canon/h.json", file(vec![c])), "cannot load");

    let (dir, _) = temp_suite(&[]);
    std::fs::create_dir_all(dir.path().join("canon")).unwrap();
    std::fs::write(
        dir.path().join("canon/dup.json"),
        r#"{"spec":"canon","spec":"aef"}"#,
    )
    .unwrap();
    assert_error(
        &lint(dir.path(), &profile(), citeproof_reference::SPECS)
            .0
            .errors,
        "json-duplicate-member",
    );
}

#[test]
fn traceability_finds_gaps() {
    let (_dir, suite) = temp_suite(&[("canon/h.json", file(vec![good_case("canon-a")]))]);
    let matrix = Traceability::new(&profile(), &suite);
    let row = matrix.rows.iter().find(|r| r.id == "CANON-003").unwrap();
    assert_eq!(row.passing, ["canon-a"]);
    assert!(row.failing.is_empty());
    assert!(row.is_gap(), "a MUST with only a passing case is a gap");
    assert!(
        matrix
            .markdown()
            .contains("| CANON-003 | core | 1 | 0 | failing |")
    );
}

#[test]
fn protocol_schemas_in_schemas_dir_are_the_ones_compiled_in() {
    use citeproof_conformance::protocol::schemas;
    for (name, text) in [
        ("start", schemas::START),
        ("hello", schemas::HELLO),
        ("run", schemas::RUN),
        ("reply", schemas::REPLY),
        ("stop", schemas::STOP),
    ] {
        let on_disk =
            std::fs::read_to_string(root().join(format!("schemas/adapter/{name}.json"))).unwrap();
        assert_eq!(on_disk, text, "{name}");
    }
}

/// A spec with no vector file is deferred (its MUSTs are not gaps); core requirements are
/// always active; an exemption needs a MUST, a reason and existing test files, and goes stale
/// once the requirement has a passing and a failing case.
#[test]
fn deferred_specs_and_exemptions() {
    let (_dir, suite) = temp_suite(&[("canon/h.json", file(vec![good_case("canon-a")]))]);
    let matrix = Traceability::new(&profile(), &suite);
    let chain = matrix.rows.iter().find(|r| r.id == "CHAIN-002").unwrap();
    assert!(!chain.spec_active && chain.is_deferred() && !chain.is_gap());
    let core = matrix.rows.iter().find(|r| r.id == "CANON-003").unwrap();
    assert!(core.spec_active && core.is_gap());

    let exempt = citeproof_conformance::lint::Exemption {
        requirement: "CANON-003".into(),
        reason: "r".into(),
        tested_by: vec!["crates/citeproof-model/tests/jcs_rfc8785.rs".into()],
    };
    let matrix = matrix.with_exemptions(std::slice::from_ref(&exempt));
    assert!(matrix.gaps().iter().all(|r| r.id != "CANON-003"));
    assert!(
        matrix
            .markdown()
            .contains("| CANON-003 | r | `crates/citeproof-model/tests/jcs_rfc8785.rs` |")
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("meta")).unwrap();
    let bad = serde_json::json!([
        { "requirement": "NO-SUCH-001", "reason": "r", "tested_by": ["Cargo.toml"] },
        { "requirement": "AEF-4-004", "reason": "r", "tested_by": ["Cargo.toml"] },
        { "requirement": "CANON-003", "reason": "", "tested_by": ["missing/file.rs"] }
    ]);
    std::fs::write(
        dir.path().join("meta/coverage-exemptions.json"),
        bad.to_string(),
    )
    .unwrap();
    let problems =
        citeproof_conformance::lint::load_exemptions(dir.path(), &root(), &profile()).unwrap_err();
    assert_eq!(problems.len(), 4, "{problems:?}");

    // The committed exemptions are valid and none is stale.
    let committed =
        citeproof_conformance::lint::load_exemptions(&root().join("vectors"), &root(), &profile())
            .unwrap();
    let full = Traceability::new(&profile(), &vectors()).with_exemptions(&committed);
    assert!(full.stale_exemptions().is_empty());
}

/// The runner refuses a suite with a duplicate case id (a second case under one id would be
/// reported, xfailed and reproduced as if it were the first), across files and within one.
#[test]
fn a_duplicate_case_id_does_not_load() {
    let (dir, _) = temp_suite(&[
        ("canon/a.json", file(vec![good_case("canon-a")])),
        ("canon/b.json", file(vec![good_case("canon-a")])),
    ]);
    let errors = citeproof_conformance::Suite::load(dir.path()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].path, "canon/b.json");
    assert!(
        errors[0]
            .message
            .contains("duplicate case id `canon-a` (also in canon/a.json)"),
        "{}",
        errors[0].message
    );
    let (dir, _) = temp_suite(&[(
        "canon/a.json",
        file(vec![good_case("canon-a"), good_case("canon-a")]),
    )]);
    assert!(citeproof_conformance::Suite::load(dir.path()).is_err());
    let (dir, _) = temp_suite(&[(
        "canon/a.json",
        file(vec![good_case("canon-a"), good_case("canon-b")]),
    )]);
    assert!(citeproof_conformance::Suite::load(dir.path()).is_ok());
}

/// A selection records what it left out; an xfail entry that matches no case is reported.
#[test]
fn selection_and_stale_xfail_entries() {
    let (_dir, suite) = temp_suite(&[
        (
            "canon/a.json",
            file(vec![good_case("canon-a"), good_case("canon-b")]),
        ),
        ("canon/b.json", file(vec![good_case("canon-c")])),
    ]);
    assert_eq!(suite.selection.loaded, 3);
    let only_a = suite.select(&["canon/a".into()], &["canon-b".into()]);
    assert_eq!(only_a.len(), 1);
    assert_eq!(only_a.selection.left_out_by_files, 1);
    assert_eq!(only_a.selection.left_out_by_cases, 1);
    assert_eq!(only_a.selection.selected(), 1);
    assert_eq!(suite.select(&[], &[]).selection, suite.selection);
    let xfail: Vec<String> = ["canon-a", "canon-c~1", "canon-z*", "canon-?"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    assert_eq!(
        citeproof_conformance::runner::unmatched_xfail(&xfail, &suite),
        ["canon-z*"]
    );
}
