//! Reports are produced and checked: JSON against its schema, JUnit with a real XML parser
//! against the JUnit structure, HTML and SVG as well-formed XML with the expected tables.
//! Also: xfail handling (strict) and the statuses of an in-process run with every status.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_conformance::{
    Status, Summary,
    report::{self, Format},
};
use common::*;
use serde_json::json;

fn case(id: &str, input: serde_json::Value, expected: serde_json::Value) -> serde_json::Value {
    json!({
        "id": id, "description": "test case", "requirements": ["CANON-003"], "level": 0,
        "input": input, "expected": expected,
        "derivation": {"kind": "hand", "detail": "test"}
    })
}

/// A small suite with one case of every status when run against the in-process reference:
/// passed, failed (wrong expected hash), errored (input breaks the operation's contract),
/// skipped (an operation no implementation announces), xfailed (declared failure).
fn mixed_suite() -> (tempfile::TempDir, citeproof_conformance::Suite) {
    let abc = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    temp_suite(&[
        (
            "canon/hash-bytes.json",
            json!({
                "spec": "canon", "operation": "hash-bytes", "description": "d", "cases": [
                    case("canon-t-pass", json!({"data_base64": "YWJj"}), json!({"result": "valid", "output": {"hash": abc}})),
                    case("canon-t-fail", json!({"data_base64": "YWJk"}), json!({"result": "valid", "output": {"hash": abc}})),
                    case("canon-t-xfail", json!({"data_base64": "YWJl"}), json!({"result": "valid", "output": {"hash": abc}})),
                    case("canon-t-error", json!({"data_base64": 5}), json!({"result": "valid", "output": {"hash": abc}})),
                    case("canon-t-xpass", json!({"data_base64": "YWJj"}), json!({"result": "valid", "output": {"hash": abc}})),
                ]
            }),
        ),
        (
            "aca/level1/future.json",
            json!({
                "spec": "aca", "operation": "aca-future-operation", "description": "d", "cases": [
                    {"id": "aca-t-skip", "description": "<skipped> & \"quoted\"", "requirements": ["ACA-L1-002"],
                     "level": 1, "input": {"entries": []}, "expected": {"result": "invalid", "errors": ["aca-header-missing"]},
                     "derivation": {"kind": "hand", "detail": "test"}}
                ]
            }),
        ),
    ])
}

fn mixed_run() -> (
    tempfile::TempDir,
    citeproof_conformance::Suite,
    citeproof_conformance::RunResult,
) {
    let (dir, suite) = mixed_suite();
    let mut opts = options(1000, None);
    opts.xfail = vec!["canon-t-xfail".into(), "canon-t-xp*".into()];
    let run = run_reference(&suite, &opts);
    (dir, suite, run)
}

#[test]
fn every_status_and_strict_xfail() {
    let (_dir, _suite, run) = mixed_run();
    let status = |id: &str| {
        run.results
            .iter()
            .find(|r| r.case.id == id)
            .map(|r| (r.status, r.message.clone().unwrap_or_default()))
            .unwrap()
    };
    assert_eq!(status("canon-t-pass").0, Status::Passed);
    let (s, m) = status("canon-t-fail");
    assert_eq!(s, Status::Failed);
    assert!(m.contains("wrong output") && m.contains("`hash`"), "{m}");
    assert_eq!(status("canon-t-xfail").0, Status::Xfailed);
    let (s, m) = status("canon-t-xpass");
    assert_eq!(s, Status::Failed, "an xfail that passes fails the run");
    assert!(m.contains("but passed"), "{m}");
    let (s, m) = status("canon-t-error");
    assert_eq!(s, Status::Errored);
    assert!(m.contains("bad input"), "{m}");
    let (s, m) = status("aca-t-skip");
    assert_eq!(s, Status::Skipped);
    assert!(m.contains("does not support"), "{m}");
    assert!(!run.success());
}

#[test]
fn json_report_matches_its_schema() {
    let (_dir, suite, run) = mixed_run();
    let summary = Summary::new(&run, &profile());
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: true,
    };
    let text = report::render(Format::Json, &run, &summary, &ctx);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let schema: serde_json::Value = serde_json::from_str(report::JSON_REPORT_SCHEMA).unwrap();
    let validator = citeproof_schema::compile(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(value["totals"]["total"], 6);
    assert_eq!(value["totals"]["failed"], 2);
    assert_eq!(value["totals"]["errored"], 1);
    assert_eq!(value["totals"]["skipped"], 1);
    assert_eq!(value["totals"]["xfailed"], 1);
    assert_eq!(value["success"], false);
    let failed = value["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "canon-t-fail")
        .unwrap();
    assert_eq!(failed["expected"]["result"], "valid");
    assert_eq!(
        failed["actual"]["output"]["hash"].as_str().unwrap().len(),
        71
    );

    // The full run of the real vectors matches the schema too.
    let suite = vectors();
    let run = run_reference(&suite, &options(1000, None));
    let summary = Summary::new(&run, &profile());
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: true,
    };
    let value: serde_json::Value =
        serde_json::from_str(&report::render(Format::Json, &run, &summary, &ctx)).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(value["cases"].as_array().unwrap().len(), suite.len());
}

fn rows<'a, 'i>(t: roxmltree::Node<'a, 'i>) -> Vec<roxmltree::Node<'a, 'i>> {
    t.descendants()
        .filter(|n| n.has_tag_name("tbody"))
        .flat_map(|b| b.children().filter(|r| r.has_tag_name("tr")))
        .collect()
}

fn attr(node: roxmltree::Node<'_, '_>, name: &str) -> usize {
    node.attribute(name)
        .unwrap_or_else(|| panic!("missing {name}"))
        .parse()
        .unwrap()
}

#[test]
fn junit_report_has_the_junit_structure() {
    let (_dir, suite, run) = mixed_run();
    let summary = Summary::new(&run, &profile());
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: true,
    };
    let text = report::render(Format::Junit, &run, &summary, &ctx);
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(attr(root, "tests"), 6);
    assert_eq!(attr(root, "failures"), 2);
    assert_eq!(attr(root, "errors"), 1);
    assert_eq!(attr(root, "skipped"), 2, "skipped + xfailed");
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 2);
    let (mut failures, mut errors, mut skipped, mut cases) = (0, 0, 0, 0);
    for s in &suites {
        assert!(
            s.attribute("name").is_some()
                && s.attribute("time").is_some()
                && s.attribute("timestamp").is_some()
        );
        let testcases: Vec<_> = s
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        assert_eq!(testcases.len(), attr(*s, "tests"));
        let count = |tag: &str| {
            testcases
                .iter()
                .filter(|t| t.children().any(|c| c.has_tag_name(tag)))
                .count()
        };
        assert_eq!(count("failure"), attr(*s, "failures"));
        assert_eq!(count("error"), attr(*s, "errors"));
        assert_eq!(count("skipped"), attr(*s, "skipped"));
        for t in &testcases {
            assert!(t.attribute("name").is_some() && t.attribute("classname").is_some());
            t.attribute("time").unwrap().parse::<f64>().unwrap();
            // at most one outcome element per testcase
            assert!(t.children().filter(|c| c.is_element()).count() <= 1);
        }
        failures += count("failure");
        errors += count("error");
        skipped += count("skipped");
        cases += testcases.len();
    }
    assert_eq!((cases, failures, errors, skipped), (6, 2, 1, 2));
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert!(failure.text().unwrap().contains("expected: valid"));
}

#[test]
fn html_report_is_a_requirement_matrix() {
    let (_dir, suite, run) = mixed_run();
    let profile = profile();
    let summary = Summary::new(&run, &profile);
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: true,
    };
    let text = report::render(Format::Html, &run, &summary, &ctx);
    assert!(text.starts_with("<!DOCTYPE html>"));
    let doc = roxmltree::Document::parse_with_options(
        &text,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("well-formed (XHTML syntax)");
    let table = |id: &str| {
        doc.descendants()
            .find(|n| n.has_tag_name("table") && n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("table {id}"))
    };
    let requirements = table("requirements");
    let req_rows = rows(requirements);
    assert_eq!(
        req_rows.len(),
        summary.requirements.len(),
        "one row per requirement"
    );
    assert!(req_rows.len() >= profile.requirements.len());
    let header_cells = requirements
        .descendants()
        .filter(|n| n.has_tag_name("th"))
        .count();
    for r in &req_rows {
        assert_eq!(
            r.children().filter(|c| c.has_tag_name("td")).count(),
            header_cells
        );
    }
    let canon003 = req_rows
        .iter()
        .find(|r| r.attribute("id") == Some("req-CANON-003"))
        .unwrap();
    assert_eq!(canon003.attribute("class"), Some("failed"));
    // The cases that did not pass are listed (failed and errored ones link to the failures
    // table), passed ones only counted: no wall of every case.
    let links: Vec<&str> = canon003
        .descendants()
        .filter(|n| n.has_tag_name("a"))
        .filter_map(|a| a.attribute("href"))
        .collect();
    assert_eq!(
        links,
        [
            format!(
                "{}/blob/main/docs/PROFILE.md#canon-003-must-what-each-content-hash-covers",
                env!("CARGO_PKG_REPOSITORY")
            )
            .as_str(),
            "#case-canon-t-fail",
            "#case-canon-t-error",
            "#case-canon-t-xpass"
        ]
    );
    for link in &links[1..] {
        let id = link.trim_start_matches('#');
        assert!(
            doc.descendants().any(|n| n.attribute("id") == Some(id)),
            "{link} points nowhere"
        );
    }
    let cells: Vec<_> = canon003
        .children()
        .filter(|c| c.has_tag_name("td"))
        .collect();
    let listed = cells.last().unwrap();
    assert!(
        listed
            .descendants()
            .any(|n| n.text() == Some("canon-t-xfail")),
        "xfailed cases are listed"
    );
    assert!(
        !listed
            .descendants()
            .any(|n| n.text() == Some("canon-t-pass")),
        "passed cases are counted, not listed"
    );
    // Long text wraps inside a fixed-layout table (no overflow at 1280 px).
    assert!(text.contains("table.wide{table-layout:fixed;width:100%}"));
    assert!(text.contains("overflow-wrap:anywhere"));
    assert_eq!(
        table("failures").attribute("class"),
        Some("wide"),
        "the failures table has a fixed layout"
    );
    assert_eq!(rows(table("levels")).len(), summary.levels.len());
    assert_eq!(rows(table("failures")).len(), 3, "2 failed + 1 errored");
    // text from the vectors is escaped
    assert!(!text.contains("<skipped>"));
}

#[test]
fn svg_badge_and_markdown() {
    let (_dir, suite, run) = mixed_run();
    let summary = Summary::new(&run, &profile());
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: true,
    };
    let svg = report::render(Format::Svg, &run, &summary, &ctx);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(svg.contains("3 failing"), "{svg}");
    let md = report::render(Format::Markdown, &run, &summary, &ctx);
    assert!(md.contains("| spec | level | verdict |"));
    assert!(md.contains("`canon-t-fail`"));
    assert!(md.contains("**1 cases were not run**"));

    // A clean run of a subset (issue 19 item 7: `--suite canon/hash-bytes` drew a green
    // "canon ✓") draws no level and no green.
    let suite = vectors().filtered(&["canon/hash-bytes".into()]);
    let run = run_reference(&suite, &options(1000, None));
    assert!(run.success());
    let summary = Summary::new(&run, &profile());
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: true,
    };
    let svg = report::render(Format::Svg, &run, &summary, &ctx);
    assert!(svg.contains("subset, not a claim"), "{svg}");
    assert!(!svg.contains('✓') && !svg.contains("#4c1"), "{svg}");
}

#[test]
fn console_summary_says_plainly_that_skipped_cases_were_not_run() {
    let (_dir, suite, run) = mixed_run();
    let summary = Summary::new(&run, &profile());
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: true,
    };
    let text = report::summary_text(&run, &summary, &ctx);
    assert!(text.contains("NOT RUN: 1 cases were skipped"), "{text}");
    // One line for every operation the implementation does not announce.
    assert!(
        text.contains("not supported by the implementation, not run: 1 operations, 1 cases:\n    aca-future-operation\n"),
        "{text}"
    );
    assert!(
        text.contains("claim: subset, not a conformance claim"),
        "{text}"
    );
    assert!(text.contains("FAIL: 2 failed, 1 errored"), "{text}");
    let aca = summary.levels.iter().find(|l| l.spec == "aca").unwrap();
    assert_eq!(
        aca.verdict,
        citeproof_conformance::summary::Verdict::NotVerified
    );
    let failures = report::failures_text(&run, 50);
    assert!(
        failures.contains("canon-t-fail")
            && failures.contains("expected:")
            && failures.contains("actual:")
    );
}
