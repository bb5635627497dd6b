//! A subset never certifies a level (issue 19, item 7): for each kind of subset (`--suite`,
//! `--case`, `--no-variants`, another `--profile`, operations the implementation does not
//! support), every report format (console text, JSON, JUnit, Markdown, HTML, SVG badge) says
//! "subset, not a conformance claim" and none prints a level as achieved or draws a green pass;
//! the complete run of the reference claims every level in every format. Also the runner's
//! guard rails: the embedded suite unless `--vectors`, a duplicate case id, an implementation
//! that cannot start, a report that cannot be written, a stale xfail entry.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use serde_json::Value;

mod kit;
use kit::{
    Ran, XFAIL_RUN, assert_conformance_report_schema, cli, cli_args, cli_in, each, every_report,
    file_in, root, words,
};

fn vectors() -> String {
    root().join("vectors").display().to_string()
}

/// `python3`, or `None` (test skipped) when missing and CITEPROOF_REQUIRE_PYTHON is unset.
fn python() -> Option<&'static str> {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Some("python3");
    }
    assert!(
        std::env::var_os("CITEPROOF_REQUIRE_PYTHON").is_none(),
        "python3 is required (CITEPROOF_REQUIRE_PYTHON is set) but not found"
    );
    eprintln!("skipped: python3 not found");
    None
}

/// Every report of one run, and its console output.
struct Run {
    ran: Ran,
    json: Value,
    junit: String,
    markdown: String,
    html: String,
    svg: String,
}

fn run(args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let mut line: Vec<String> = words("conformance --no-progress --seed 4", &[])
        .into_iter()
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect();
    line.extend(every_report(dir.path()));
    let ran = cli_args(None, None, line);
    let read = |name: &str| {
        std::fs::read_to_string(dir.path().join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}\n{}", ran.err))
    };
    let json: Value = serde_json::from_str(&read("r.json")).unwrap();
    assert_conformance_report_schema(&json);
    Run {
        json,
        junit: read("r.xml"),
        markdown: read("r.md"),
        html: read("r.html"),
        svg: read("r.svg"),
        ran,
    }
}

/// The first line that says "achieved", other than "not achieved".
fn achieved(text: &str) -> Option<&str> {
    text.lines()
        .find(|l| l.replace("not achieved", "").contains("achieved"))
}

fn html_doc(html: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse_with_options(
        html,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("well-formed (XHTML syntax)")
}

fn by_id<'a, 'i>(doc: &'a roxmltree::Document<'i>, id: &str) -> roxmltree::Node<'a, 'i> {
    doc.descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no element #{id}"))
}

fn text_of(node: roxmltree::Node<'_, '_>) -> String {
    node.descendants().filter_map(|n| n.text()).collect()
}

/// Every format says the run is a subset and none claims a level; the JSON gap is `reason`.
fn assert_subset(r: &Run, reason: &str, what: &str) {
    const SUBSET: &str = "subset, not a conformance claim";
    assert_eq!(
        r.ran.code, 0,
        "{what}: every case run passes\n{}",
        r.ran.out
    );
    assert!(r.json["totals"]["passed"].as_u64().unwrap() > 0, "{what}");
    // Console text.
    assert!(
        r.ran.out.contains(&format!("claim: {SUBSET}")),
        "{what}: {}",
        r.ran.out
    );
    assert_eq!(achieved(&r.ran.out), None, "{what}: {}", r.ran.out);
    assert!(!r.ran.out.contains("PASS: every case passed"), "{what}");
    // JSON: the machine-readable claim.
    let claim = &r.json["claim"];
    assert_eq!(claim["subset"], true, "{what}");
    assert_eq!(claim["conformance_claim"], false, "{what}");
    assert_eq!(claim["levels"], serde_json::json!([]), "{what}");
    assert!(
        claim["statement"].as_str().unwrap().starts_with(SUBSET),
        "{what}: {claim}"
    );
    let reasons = each(&claim["gaps"], "reason");
    assert!(reasons.contains(&reason), "{what}: {reasons:?}");
    for level in r.json["levels"].as_array().unwrap() {
        assert_ne!(level["verdict"], "achieved", "{what}: {level}");
        assert_ne!(level["static"]["verdict"], "achieved", "{what}: {level}");
        assert_ne!(level["generated"]["verdict"], "achieved", "{what}: {level}");
    }
    // JUnit: in the name CI shows and in every suite's properties.
    let junit = roxmltree::Document::parse(&r.junit).unwrap();
    let suites = junit.root_element();
    assert!(
        suites
            .attribute("name")
            .unwrap()
            .ends_with(&format!("({SUBSET})")),
        "{what}"
    );
    for suite in suites.children().filter(|n| n.has_tag_name("testsuite")) {
        let property = |name: &str| {
            suite
                .descendants()
                .find(|p| p.has_tag_name("property") && p.attribute("name") == Some(name))
                .and_then(|p| p.attribute("value"))
                .unwrap()
                .to_owned()
        };
        assert_eq!(property("conformance_claim"), "false", "{what}");
        assert!(property("claim").starts_with(SUBSET), "{what}");
    }
    // Markdown.
    assert!(
        r.markdown.contains(&format!("- Claim: **{SUBSET}")),
        "{what}: {}",
        r.markdown
    );
    assert!(
        r.markdown
            .contains("- Result: **pass for the cases run (subset)**"),
        "{what}"
    );
    assert_eq!(achieved(&r.markdown), None, "{what}");
    // HTML: the claim and the result are not green, no level is achieved.
    let doc = html_doc(&r.html);
    let claim_p = by_id(&doc, "claim");
    assert_eq!(claim_p.attribute("class"), Some("subset"), "{what}");
    assert!(text_of(claim_p).contains(SUBSET), "{what}");
    let result = by_id(&doc, "result");
    assert_eq!(result.attribute("class"), Some("subset"), "{what}");
    assert!(text_of(result).contains("pass for the cases run (subset)"));
    let body = doc.descendants().find(|n| n.has_tag_name("body")).unwrap();
    assert_eq!(achieved(&text_of(body)), None, "{what}");
    assert!(
        !doc.descendants()
            .any(|n| n.attribute("class") == Some("achieved")),
        "{what}"
    );
    // Badge: no level, no green.
    assert!(
        r.svg
            .contains("<title>citeproof: subset, not a claim</title>"),
        "{what}: {}",
        r.svg
    );
    assert!(!r.svg.contains('✓') && !r.svg.contains("#4c1"), "{what}");
}

#[test]
fn a_suite_filter_is_a_subset_in_every_report() {
    let r = run(&["--vectors", &vectors(), "--suite", "canon/hash-bytes"]);
    assert_subset(&r, "suite-filter", "--suite canon/hash-bytes");
    let suite = &r.json["suite"];
    assert_eq!(suite["filters"], serde_json::json!(["canon/hash-bytes"]));
    assert_eq!(suite["selected_cases"], 18);
    r.ran.says(&["(--suite canon/hash-bytes: 18 of "]);
}

#[test]
fn a_case_filter_is_a_subset_in_every_report() {
    let r = run(&["--vectors", &vectors(), "--case", "canon-hash-bytes-*"]);
    assert_subset(&r, "case-filter", "--case canon-hash-bytes-*");
    let case_filters = &r.json["suite"]["case_filters"];
    assert_eq!(case_filters, &serde_json::json!(["canon-hash-bytes-*"]));
}

#[test]
fn no_variants_is_a_subset_in_every_report() {
    // The whole suite, static only: every level passes its static cases, none is claimed.
    let r = run(&["--vectors", &vectors(), "--no-variants"]);
    assert_subset(&r, "no-variants", "--no-variants");
    assert_eq!(r.json["generation"], Value::Null);
    assert_eq!(r.json["totals"]["passed"], r.json["suite"]["static_cases"]);
}

#[test]
fn another_profile_is_a_subset_in_every_report() {
    // A profile whose only MUST is CANON-003: the canon levels would rest on what the user's
    // file calls MUST, not on the suite's profile.
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("PROFILE.md");
    std::fs::write(&profile, "### CANON-003 [MUST] Hashes\n- Level: core\n").unwrap();
    let r = run(&words(
        "--vectors {} --suite canon --profile {}",
        &[&vectors(), profile.to_str().unwrap()],
    ));
    assert_subset(&r, "other-profile", "--profile");
    // The suite's own profile, named explicitly, is not "another" profile.
    let own = root().join("docs/PROFILE.md");
    let r = run(&words(
        "--vectors {} --suite canon/hash-bytes --profile {}",
        &[&vectors(), own.to_str().unwrap()],
    ));
    let reasons = r.json["claim"]["gaps"].to_string();
    assert!(!reasons.contains("other-profile"), "{reasons}");
}

/// A hand-picked vectors directory (one file of the suite, with its profile) is a selection
/// by other means: its digest is not the suite's built into the binary.
#[test]
fn a_vectors_directory_other_than_the_suite_is_a_subset_in_every_report() {
    let dir = tempfile::tempdir().unwrap();
    let canon = dir.path().join("vectors/canon");
    std::fs::create_dir_all(&canon).unwrap();
    std::fs::create_dir_all(dir.path().join("docs")).unwrap();
    std::fs::copy(
        root().join("vectors/canon/hash-bytes.json"),
        canon.join("hash-bytes.json"),
    )
    .unwrap();
    std::fs::copy(
        root().join("docs/PROFILE.md"),
        dir.path().join("docs/PROFILE.md"),
    )
    .unwrap();
    let picked = dir.path().join("vectors");
    let r = run(&["--vectors", picked.to_str().unwrap()]);
    assert_subset(&r, "other-suite", "a one-file --vectors");
    assert_eq!(
        r.json["suite"]["selected_cases"],
        r.json["suite"]["static_cases"]
    );
    // The checkout's own vectors are the embedded suite: no such gap.
    let r = run(&["--vectors", &vectors(), "--suite", "canon/hash-bytes"]);
    let gaps = r.json["claim"]["gaps"].to_string();
    assert!(!gaps.contains("other-suite"), "{gaps}");
}

/// The whole suite against an implementation of `hash-bytes` alone (it declines
/// `hash-aef-text` and does not announce the rest): no filter, every case it runs passes, and
/// no level is claimed, canon core included.
#[test]
fn unsupported_operations_are_a_subset_in_every_report() {
    let Some(py) = python() else { return };
    let partial = root().join("examples/adapters/mutants/partial.py");
    let bin = assert_cmd::cargo::cargo_bin("citeproof");
    let implementation = format!(
        "{py} '{}' -- '{}' adapter",
        partial.display(),
        bin.display()
    );
    let r = run(&["--vectors", &vectors(), "--impl", &implementation]);
    assert_subset(&r, "unsupported", "unsupported operations");
    let reasons = r.json["claim"]["gaps"].to_string();
    assert!(reasons.contains("declined"), "{reasons}");
    assert_eq!(r.json["totals"]["passed"], 36);
    // One line for all the operations not supported, not one each.
    assert_eq!(
        r.ran
            .out
            .matches("not supported by the implementation, not run: 21 operations")
            .count(),
        1,
        "{}",
        r.ran.out
    );
    assert!(
        !r.ran
            .out
            .contains("operation not supported by the implementation")
    );
}

/// The complete run of the reference claims every level, in every format: the checks above can
/// see a claim when there is one.
#[test]
fn the_complete_run_claims_every_level_in_every_report() {
    let r = run(&["--vectors", &vectors()]);
    assert_eq!(r.ran.code, 0, "{}", r.ran.out);
    let claim = &r.json["claim"];
    assert_eq!(claim["subset"], false);
    assert_eq!(claim["conformance_claim"], true);
    assert_eq!(claim["gaps"], serde_json::json!([]));
    assert_eq!(
        each(&claim["levels"], "spec"),
        ["aca", "aef", "archive", "canon", "chain", "ledger"]
    );
    for level in r.json["levels"].as_array().unwrap() {
        assert_eq!(level["verdict"], "achieved", "{level}");
        assert_eq!(level["complete"], true, "{level}");
    }
    assert!(
        r.ran.out.contains("canon    core     achieved"),
        "{}",
        r.ran.out
    );
    assert!(
        r.ran
            .out
            .contains("claim: conformance claim: aca Level 3, aef Level 3")
    );
    assert!(r.ran.out.contains("PASS: every case passed"));
    assert!(
        r.markdown
            .contains("- Claim: **conformance claim: aca Level 3")
    );
    assert!(r.markdown.contains("- Result: **pass**"));
    assert!(
        r.junit
            .contains("name=\"conformance_claim\" value=\"true\"")
    );
    let doc = html_doc(&r.html);
    assert_eq!(by_id(&doc, "claim").attribute("class"), Some("claim"));
    assert_eq!(by_id(&doc, "result").attribute("class"), Some("passed"));
    assert!(
        r.svg
            .contains("aca L3 · aef L3 · archive L1 · canon ✓ · chain L2 · ledger L1")
            && r.svg.contains("#4c1"),
        "{}",
        r.svg
    );
}

/// A `vectors/` directory in the working directory or above (an ML repository's embeddings)
/// is never picked up: the embedded suite runs, and says so.
#[test]
fn a_vectors_directory_nearby_is_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let embeddings = dir.path().join("vectors/embeddings");
    std::fs::create_dir_all(&embeddings).unwrap();
    std::fs::write(embeddings.join("config.json"), r#"{"dim": 768}"#).unwrap();
    let below = dir.path().join("src/model");
    std::fs::create_dir_all(&below).unwrap();
    for cwd in [dir.path(), below.as_path()] {
        let ran = cli_in(
            cwd,
            "conformance --no-progress --suite canon/hash-bytes",
            &[],
        )
        .exits(0);
        ran.warns(&["using the suite embedded in this binary"]);
        assert!(!ran.err.contains("dim"), "{}", ran.err);
    }
    // Given explicitly, it is loaded (and refused).
    cli_in(dir.path(), "conformance --vectors vectors", &[])
        .exits(2)
        .warns(&["unknown field `dim`"]);
}

#[test]
fn a_duplicate_case_id_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let canon = dir.path().join("vectors/canon");
    std::fs::create_dir_all(&canon).unwrap();
    let text = std::fs::read_to_string(root().join("vectors/canon/hash-bytes.json")).unwrap();
    let mut file: Value = serde_json::from_str(&text).unwrap();
    let first = file["cases"][0].clone();
    file["cases"].as_array_mut().unwrap().push(first.clone());
    std::fs::write(canon.join("hash-bytes.json"), file.to_string()).unwrap();
    let vectors = dir.path().join("vectors");
    let duplicate = format!("duplicate case id `{}`", first["id"].as_str().unwrap());
    cli("conformance --vectors {}", &[vectors.to_str().unwrap()])
        .exits(2)
        .warns(&[&duplicate]);
}

/// A program that does not exist: one "could not check" (exit 3), not an errored case per
/// case; the reports are written and claim nothing.
#[test]
fn an_implementation_that_cannot_start_is_one_error_exit_3() {
    let r = run(&words(
        "--vectors {} --suite canon --impl /nonexistent/citeproof-adapter",
        &[&vectors()],
    ));
    assert_eq!(r.ran.code, 3, "{}", r.ran.out);
    assert_eq!(
        r.ran
            .out
            .matches("cannot start `/nonexistent/citeproof-adapter`")
            .count(),
        2,
        "the COULD NOT CHECK line and the claim: {}",
        r.ran.out
    );
    assert!(
        r.ran.out.contains("COULD NOT CHECK: no case was run"),
        "{}",
        r.ran.out
    );
    assert!(!r.ran.out.contains("ERRORED"), "{}", r.ran.out);
    assert_eq!(r.json["could_not_start"], true);
    assert_eq!(r.json["totals"]["errored"], 0);
    assert_eq!(r.json["totals"]["passed"], 0);
    assert_eq!(r.json["implementation"]["starts"], 1);
    assert!(r.svg.contains("could not start"));
}

/// A report into a directory that does not exist is refused before the run, not after it.
#[test]
fn a_report_that_cannot_be_written_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/r.html");
    let clock = Instant::now();
    let line = "conformance --vectors {} --no-progress --report html --out {}";
    let ran = cli(line, &[&vectors(), missing.to_str().unwrap()]).exits(2);
    ran.warns(&["does not exist"]);
    assert!(ran.out.is_empty(), "nothing ran");
    assert!(clock.elapsed() < Duration::from_secs(30));
    cli(
        "conformance --report json --out {}",
        &[dir.path().to_str().unwrap()],
    )
    .exits(2)
    .warns(&["is a directory"]);
}

#[test]
fn a_stale_xfail_entry_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let stale = "canon-no-such-case-*   # renamed long ago\ncanon-jcs-bom\n";
    let xfail = file_in(dir.path(), "xfail.txt", stale);
    let ran = cli(XFAIL_RUN, &[&vectors(), &xfail]).exits(0);
    ran.warns(&["warning: --xfail entry `canon-no-such-case-*` matches no case"]);
    // An entry for a case of the suite that this selection left out is not stale.
    assert!(!ran.err.contains("canon-jcs-bom"), "{}", ran.err);
}
