//! The example adapters in other languages pass what they implement, static and generated; the
//! lookup cheats fail, and fail because of per-run tokens and generated variants.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command as StdCommand;

use serde_json::Value;

mod kit;
use kit::{citeproof, root};

/// A program, or `None` (test skipped) when it is missing and `require` is not set.
fn program(name: &str, require: &str) -> Option<String> {
    if StdCommand::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Some(name.to_owned());
    }
    assert!(
        std::env::var_os(require).is_none(),
        "{name} is required ({require} is set) but not found"
    );
    eprintln!("skipped: {name} not found");
    None
}

/// Runs the suite against `implementation` with `args`; returns the exit code and the report.
fn run(implementation: &str, args: &[&str]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let out = citeproof()
        .current_dir(root())
        .args(["conformance", "--no-progress", "--impl", implementation])
        .args(args)
        .args(["--report", "json", "--out"])
        .arg(&report)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&report).unwrap_or_else(|e| {
        panic!(
            "no report ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (
        out.status.code().unwrap(),
        serde_json::from_str(&text).unwrap(),
    )
}

fn count(report: &Value, status: &str, generated: bool) -> usize {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == status)
        .filter(|c| (c["origin"]["kind"] == "generated") == generated)
        .count()
}

fn bad(report: &Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "failed" || c["status"] == "errored")
        .map(|c| format!("{} {}: {}", c["id"], c["status"], c["message"]))
        .collect()
}

#[test]
fn node_example_adapter_passes_its_subset_static_and_generated() {
    let Some(node) = program("node", "CITEPROOF_REQUIRE_NODE") else {
        return;
    };
    let dir = root().join("examples/adapters/node");
    if !dir.join("node_modules/jose").is_dir() {
        assert!(
            std::env::var_os("CITEPROOF_REQUIRE_NODE").is_none(),
            "run `npm ci` in examples/adapters/node first"
        );
        eprintln!("skipped: examples/adapters/node has no node_modules (npm ci)");
        return;
    }
    let script = dir.join("citeproof_adapter.mjs");
    let (code, report) = run(&format!("{node} '{}'", script.display()), &["--seed", "1"]);
    assert_eq!(code, 0, "{:#?}", bad(&report));
    assert_eq!(report["implementation"]["name"], "citeproof-node-example");
    assert_eq!(
        report["implementation"]["starts"], 1,
        "no restart was needed"
    );
    let ops: Vec<&str> = report["implementation"]["operations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for op in [
        "jcs-canonicalize",
        "hash-bytes",
        "hash-aef-text",
        "aca-header-parse",
        "aca-header-emit",
        "aef-validate",
        "aef-jws-sign",
    ] {
        assert!(ops.contains(&op), "{op}");
    }
    assert!(count(&report, "passed", false) >= 400);
    assert!(count(&report, "passed", true) >= 380);
    for level in report["levels"].as_array().unwrap() {
        if level["spec"] == "canon" || (level["spec"] == "aef" && level["level"] == 1) {
            assert_eq!(level["verdict"], "achieved", "{level}");
        }
    }
}

#[test]
fn python_example_adapter_passes_generated_variants_too() {
    let Some(py) = program("python3", "CITEPROOF_REQUIRE_PYTHON") else {
        return;
    };
    let script = root().join("examples/adapters/python/citeproof_adapter.py");
    let (code, report) = run(&format!("{py} '{}'", script.display()), &["--seed", "2"]);
    assert_eq!(code, 0, "{:#?}", bad(&report));
    assert!(count(&report, "passed", true) >= 380);
    assert_eq!(report["run"]["seed"], 2);
    assert_eq!(report["generation"]["dropped"], serde_json::json!([]));
}

#[test]
fn lookup_cheats_fail_because_of_tokens_and_variants() {
    let Some(py) = program("python3", "CITEPROOF_REQUIRE_PYTHON") else {
        return;
    };
    let cheat = root().join("examples/adapters/mutants/cheat.py");
    let by = |key: &str| format!("{py} '{}' --key {key}", cheat.display());
    let canon = ["--suite", "canon", "--seed", "3"];
    // By (operation, input): every static case passes; only the generated variants catch it.
    let (code, report) = run(&by("input"), &[&canon[..], &["--no-variants"]].concat());
    assert_eq!(code, 0, "the static vectors alone are passable by lookup");
    let (code, report_v) = run(&by("input"), &canon);
    assert_eq!(code, 1);
    assert_eq!(count(&report_v, "failed", false), 0);
    assert!(count(&report_v, "failed", true) > 100);
    assert_eq!(report_v["levels"][0]["verdict"], "not-achieved");
    // Every static case passed; a `--suite canon` selection never achieves a level, even its
    // static part.
    let statics = &report_v["levels"][0]["static"];
    assert_eq!(statics["cases"]["passed"], statics["cases"]["total"]);
    assert_eq!(statics["verdict"], "not-verified");
    // By case id: the id never goes on the wire (per-run tokens), so even static cases fail.
    let (code, report_id) = run(&by("id"), &[&canon[..], &["--no-variants"]].concat());
    assert_eq!(code, 1);
    assert!(count(&report_id, "failed", false) > 100);
    assert_eq!(
        count(&report, "passed", false),
        report["cases"].as_array().unwrap().len()
    );
}

#[test]
fn lookup_cheats_fail_on_every_operation_of_the_chain_ledger_and_archive_specs() {
    let Some(py) = program("python3", "CITEPROOF_REQUIRE_PYTHON") else {
        return;
    };
    let cheat = root().join("examples/adapters/mutants/cheat.py");
    let by_input = format!("{py} '{}' --key input", cheat.display());
    for (spec, operations) in [
        (
            "chain",
            &["chain-claim-id", "chain-signing-input", "chain-verify"][..],
        ),
        ("ledger", &["ledger-verify", "ledger-audit"][..]),
        ("archive", &["archive-verify", "archive-log-verify"][..]),
    ] {
        let args = ["--suite", spec, "--seed", "3"];
        let (code, _) = run(&by_input, &[&args[..], &["--no-variants"]].concat());
        assert_eq!(
            code, 0,
            "{spec}: the static vectors alone are passable by lookup"
        );
        let (code, report) = run(&by_input, &args);
        assert_eq!(code, 1, "{spec}");
        assert_eq!(count(&report, "failed", false), 0, "{spec}");
        // Every operation has generated inputs the lookup cannot find.
        for op in operations {
            let failed = report["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["operation"] == *op && c["status"] == "failed")
                .count();
            assert!(
                failed > 0,
                "{spec}: no generated case of {op} caught the lookup"
            );
        }
    }
}
