//! `citeproof archive gate|verify|display|log-verify` on the fixture archive, as in the README
//! walkthrough: exit codes (0 ok, 1 invalid, 2 usage), the codes of tampered bundles, displays
//! and logs, and `--json` envelopes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

const NOW: &str = "1778925900"; // 2026-05-16T10:05:00Z

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/fixtures/archive")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn citeproof(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("citeproof").unwrap();
    c.current_dir(dir);
    c
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = citeproof(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// keygen + gate of request.json (signed at 10:00:01) + a category refusal at 10:01:40, both
/// logged.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (c, _, e) = run(d, &["keygen", "--out", "keys", "--kid", "archive-2026"]);
    assert_eq!(c, 0, "{e}");
    let archive = fixture("archive.json");
    let (c, out, e) = run(
        d,
        &[
            "archive",
            "gate",
            &fixture("request.json"),
            "--archive",
            &archive,
            "--key",
            "keys/private.pem",
            "--kid",
            "archive-2026",
            "--signed-by",
            "archive.example",
            "--now",
            "1778925601",
            "--bundle",
            "bundle.json",
            "--display",
            "display.json",
            "--log",
            "bundles.log",
        ],
    );
    assert_eq!(c, 0, "{e}");
    assert!(
        out.contains("  c3: labeled\n  c4: supported\n  c5: narrowed"),
        "{out}"
    );
    std::fs::write(
        d.join("refusal.json"),
        r#"{"response_id": "r-2026-05-16-002", "requester": "req-7f3a", "tier": "researcher", "category_refusal": "post-death-events"}"#,
    )
    .unwrap();
    let (c, _, e) = run(
        d,
        &[
            "archive",
            "gate",
            "refusal.json",
            "--archive",
            &archive,
            "--key",
            "keys/private.pem",
            "--kid",
            "archive-2026",
            "--signed-by",
            "archive.example",
            "--now",
            "1778925700",
            "--bundle",
            "refusal-bundle.json",
            "--display",
            "refusal-display.json",
            "--log",
            "bundles.log",
        ],
    );
    assert_eq!(c, 0, "{e}");
    dir
}

fn verify(d: &Path, bundle: &str, display: &str) -> (i32, String) {
    let (c, out, _) = run(
        d,
        &[
            "archive",
            "verify",
            bundle,
            display,
            "--archive",
            &fixture("archive.json"),
            "--keys",
            "archive.example=keys/jwks.json",
            "--now",
            NOW,
        ],
    );
    (c, out)
}

#[test]
fn gate_display_verify() {
    let dir = setup();
    let d = dir.path();
    let (c, out) = verify(d, "bundle.json", "display.json");
    assert_eq!(c, 0, "{out}");
    assert!(out.contains("-> VERIFIED\nno incidents"), "{out}");
    let (c, out, _) = run(d, &["archive", "display", "display.json"]);
    assert_eq!(c, 0);
    assert!(out.contains(
        "Source E (paraphrased): Supported by archived material (source restricted by the person's instructions)."
    ));
    assert!(out.contains("Source A (their words): \"The harbour froze solid last week, and the boys walked out to the lighthouse on\"\n"));
    let (c, out) = verify(d, "refusal-bundle.json", "refusal-display.json");
    assert_eq!(c, 0, "{out}");
}

#[test]
fn tampered_bundle_display_and_log_are_caught() {
    let dir = setup();
    let d = dir.path();
    let bundle = std::fs::read_to_string(d.join("bundle.json")).unwrap();
    std::fs::write(
        d.join("upgraded.json"),
        bundle.replace("\"rung\": \"labeled\"", "\"rung\": \"supported\""),
    )
    .unwrap();
    let (c, out) = verify(d, "upgraded.json", "display.json");
    assert_eq!(c, 1);
    for code in [
        "archive-signature-invalid",
        "archive-rung-mismatch",
        "archive-display-unbound",
    ] {
        assert!(out.contains(code), "{code}: {out}");
    }
    let display = std::fs::read_to_string(d.join("display.json")).unwrap();
    std::fs::write(
        d.join("wide.json"),
        display.replace("lighthouse on\"", "lighthouse on the ice.\""),
    )
    .unwrap();
    let (c, out) = verify(d, "bundle.json", "wide.json");
    assert_eq!(c, 1);
    assert!(out.contains("[archive-excerpt-too-long]"), "{out}");

    let log = std::fs::read_to_string(d.join("bundles.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2);
    std::fs::write(
        d.join("reordered.log"),
        format!("{}\n{}\n", lines[1], lines[0]),
    )
    .unwrap();
    let archive = fixture("archive.json");
    let (c, out, _) = run(
        d,
        &[
            "archive",
            "log-verify",
            "reordered.log",
            "--archive",
            &archive,
            "--now",
            NOW,
        ],
    );
    assert_eq!(c, 1);
    assert!(
        out.contains("[archive-log-broken]") && out.contains("[archive-log-time-invalid]"),
        "{out}"
    );
}

#[test]
fn log_verify_json_and_head() {
    let dir = setup();
    let d = dir.path();
    let archive = fixture("archive.json");
    let (c, out, _) = run(
        d,
        &[
            "archive",
            "log-verify",
            "bundles.log",
            "--archive",
            &archive,
            "--bundle",
            "bundle.json",
            "--bundle",
            "refusal-bundle.json",
            "--now",
            NOW,
            "--json",
        ],
    );
    assert_eq!(c, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["command"], "archive log-verify");
    assert_eq!(v["ok"], true);
    assert_eq!(v["counts"]["refused_category"], 1);
    assert_eq!(v["incidents"][0]["code"], "archive-log-unanchored");
    let head = format!("1:{}", v["head"][1].as_str().unwrap());
    let (c, out, _) = run(
        d,
        &[
            "archive",
            "log-verify",
            "bundles.log",
            "--archive",
            &archive,
            "--head",
            &head,
            "--now",
            NOW,
        ],
    );
    assert_eq!(c, 0, "{out}");
    assert!(out.contains("no incidents"), "{out}");
    // Truncated: the head's record is gone.
    let log = std::fs::read_to_string(d.join("bundles.log")).unwrap();
    std::fs::write(
        d.join("short.log"),
        log.lines().next().unwrap().to_owned() + "\n",
    )
    .unwrap();
    let (c, out, _) = run(
        d,
        &[
            "archive",
            "log-verify",
            "short.log",
            "--archive",
            &archive,
            "--head",
            &head,
            "--now",
            NOW,
        ],
    );
    assert_eq!(c, 1);
    assert!(out.contains("[archive-log-head-mismatch]"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (c, _, _) = run(
        dir.path(),
        &[
            "archive",
            "verify",
            "a.json",
            "b.json",
            "--archive",
            "missing.json",
        ],
    );
    // Files that cannot be read: nothing was checked (3); a bad option value is usage (2).
    assert_eq!(c, 3);
    std::fs::write(dir.path().join("x.log"), "").unwrap();
    let (c, _, e) = run(
        dir.path(),
        &[
            "archive",
            "log-verify",
            "x.log",
            "--archive",
            &fixture("archive.json"),
            "--head",
            "nope",
        ],
    );
    assert_eq!(c, 2, "{e}");
}
