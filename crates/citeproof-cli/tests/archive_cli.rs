//! `citeproof archive gate|verify|display|log-verify` on the fixture archive, as in the README
//! walkthrough: exit codes (0 ok, 1 invalid, 2 usage), the codes of tampered bundles, displays
//! and logs, and `--json` envelopes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::Value;

mod kit;
use kit::{archive_gate, run, words};

/// Every bundle of the setup is logged here.
const LOG: &[&str] = &["--log", "bundles.log"];
const NOW: &str = "1778925900"; // 2026-05-16T10:05:00Z

fn fixture(name: &str) -> String {
    kit::fixture_in("archive", name)
}

/// keygen + gate of request.json (signed at 10:00:01) + a category refusal at 10:01:40, both
/// logged.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (c, _, e) = run(d, &["keygen", "--out", "keys", "--kid", "archive-2026"]);
    assert_eq!(c, 0, "{e}");
    let (c, out, e) = archive_gate(d, &fixture("request.json"), "1778925601", "", LOG);
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
    let (c, _, e) = archive_gate(d, "refusal.json", "1778925700", "refusal-", LOG);
    assert_eq!(c, 0, "{e}");
    dir
}

/// `archive log-verify LOG --archive A EXTRA...` in `d`: status and output.
fn log_verify(d: &Path, log: &str, extra: &[&str]) -> (i32, String, String) {
    let archive = fixture("archive.json");
    let mut args = vec!["archive", "log-verify", log, "--archive", &archive];
    args.extend(extra);
    run(d, &args)
}

/// `archive VERB ARGS... --archive A --keys archive.example=keys/jwks.json --now NOW` in `d`:
/// status and stdout.
fn checked(d: &Path, args: &[&str]) -> (i32, String) {
    let archive = fixture("archive.json");
    let mut all = vec!["archive"];
    all.extend(args);
    all.extend([
        "--archive",
        &archive,
        "--keys",
        "archive.example=keys/jwks.json",
    ]);
    all.extend(["--now", NOW]);
    let (c, out, _) = run(d, &all);
    (c, out)
}

fn verify(d: &Path, bundle: &str, display: &str) -> (i32, String) {
    checked(d, &["verify", bundle, display])
}

fn display(d: &Path, display: &str, bundle: &str) -> (i32, String) {
    checked(d, &["display", display, "--bundle", bundle])
}

#[test]
fn gate_display_verify() {
    let dir = setup();
    let d = dir.path();
    let (c, out) = verify(d, "bundle.json", "display.json");
    assert_eq!(c, 0, "{out}");
    assert!(
        out.starts_with("bundle and display view -> VERIFIED\n")
            && out.ends_with("\nno incidents\n"),
        "{out}"
    );
    let (c, out) = display(d, "display.json", "bundle.json");
    assert_eq!(c, 0, "{out}");
    assert!(out.contains(
        "Source E (paraphrased): Supported by archived material (source restricted by the person's instructions)."
    ));
    assert!(out.contains("Source A (their words): \"The harbour froze solid last week, and the boys walked out to the lighthouse\"\n"));
    assert!(out.contains("A lighthouse is a tower with a lamp that guides ships at night.\n  ⚠ General context, not from the archive.\n"), "{out}");
    let (c, out) = verify(d, "refusal-bundle.json", "refusal-display.json");
    assert_eq!(c, 0, "{out}");
    let (c, out) = display(d, "refusal-display.json", "refusal-bundle.json");
    assert_eq!(c, 0, "{out}");
    assert!(
        out.contains("Their archive does not extend past their death."),
        "{out}"
    );
}

/// Review 3, N1: c4 quotes the auditor-only diary word for word, re-signed with the walkthrough's
/// key, and its display rebound: a verifier must reject it and `display` must not show it beside
/// "source restricted by the person's instructions".
#[test]
fn display_never_shows_restricted_text() {
    use citeproof_archive::signature::{Signer, SignerKey, sign};
    let dir = setup();
    let d = dir.path();
    let diary = "9 August 1958. Bjørn came home from sea after two years.";
    let mut bundle: Value =
        serde_json::from_slice(&std::fs::read(d.join("bundle.json")).unwrap()).unwrap();
    bundle["claims"][3]["text"] = Value::from(format!("She wrote: \"{diary}\""));
    bundle["claims"][3]["citations"][0]["relation"] = Value::from("direct_quote");
    let obj = bundle.as_object_mut().unwrap();
    obj.remove("signature");
    let key = citeproof_jose::load_signing_key(&std::fs::read(d.join("keys/private.pem")).unwrap())
        .unwrap();
    let signer = Signer {
        signed_by: "archive.example".into(),
        kid: "archive-2026".into(),
        key: SignerKey::Ed25519(key),
    };
    sign(
        obj,
        &signer,
        &citeproof_model::Timestamp::parse("2026-05-16T10:00:01Z").unwrap(),
    );
    let mut view: Value =
        serde_json::from_slice(&std::fs::read(d.join("display.json")).unwrap()).unwrap();
    view["claims"][3]["text"] = bundle["claims"][3]["text"].clone();
    view["claims"][3]["citations"][0]["relation_label"] = Value::from("their words");
    view["bundle_hash"] = Value::from(
        citeproof_model::sha256_bytes(&citeproof_model::jcs::canonicalize(&bundle)).to_string(),
    );
    std::fs::write(d.join("quoted.json"), bundle.to_string()).unwrap();
    std::fs::write(d.join("quoted-display.json"), view.to_string()).unwrap();

    let (c, out) = verify(d, "quoted.json", "quoted-display.json");
    assert_eq!(c, 1, "{out}");
    assert!(out.contains("signature: valid"), "{out}");
    assert!(
        out.contains(
            "c4 Supported: 1 of 1 citations counted - FAILED: archive-restricted-text-shown"
        ),
        "{out}"
    );
    let (c, out) = display(d, "quoted-display.json", "quoted.json");
    assert_eq!(c, 1, "{out}");
    assert!(out.contains("NOT VERIFIED"), "{out}");
    assert!(!out.contains("Bjørn came home"), "{out}");
    assert!(!out.contains("source restricted"), "{out}");
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
        display.replace(
            "1963 winter. Ask\"",
            "1963 winter. Ask the Lund family for photographs of the boat shed.\"",
        ),
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
    let (c, out, _) = log_verify(d, "reordered.log", &["--now", NOW]);
    assert_eq!(c, 1);
    assert!(
        out.contains("[archive-log-broken]") && out.contains("[archive-log-time-invalid]"),
        "{out}"
    );
    // UX review 3: a log that did not verify offers no head to keep.
    assert!(!out.contains("keep it to verify"), "{out}");
    assert!(out.contains("head: none to keep"), "{out}");
}

#[test]
fn log_verify_json_and_head() {
    let dir = setup();
    let d = dir.path();
    let (c, out, _) = log_verify(
        d,
        "bundles.log",
        &words(
            "--bundle bundle.json --bundle refusal-bundle.json --now {} --json",
            &[NOW],
        ),
    );
    assert_eq!(c, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["command"], "archive log-verify");
    assert_eq!(v["ok"], true);
    assert_eq!(v["counts"]["refused_category"], 1);
    assert_eq!(v["incidents"][0]["code"], "archive-log-unanchored");
    let head = format!("1:{}", v["head"][1].as_str().unwrap());
    let (c, out, _) = log_verify(d, "bundles.log", &["--head", &head, "--now", NOW]);
    assert_eq!(c, 0, "{out}");
    assert!(out.contains("no incidents"), "{out}");
    // Truncated: the head's record is gone.
    let log = std::fs::read_to_string(d.join("bundles.log")).unwrap();
    std::fs::write(
        d.join("short.log"),
        log.lines().next().unwrap().to_owned() + "\n",
    )
    .unwrap();
    let (c, out, _) = log_verify(d, "short.log", &["--head", &head, "--now", NOW]);
    assert_eq!(c, 1);
    assert!(out.contains("[archive-log-head-mismatch]"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (c, _, _) = run(
        dir.path(),
        &words("archive verify a.json b.json --archive missing.json", &[]),
    );
    // Files that cannot be read: nothing was checked (3); a bad option value is usage (2).
    assert_eq!(c, 3);
    std::fs::write(dir.path().join("x.log"), "").unwrap();
    let (c, _, e) = run(
        dir.path(),
        &words(
            "archive log-verify x.log --archive {} --head nope",
            &[&fixture("archive.json")],
        ),
    );
    assert_eq!(c, 2, "{e}");
}

/// `archive verify` on the surface of every verify: `--trust FILE` (the keys of the signer by
/// `kid`, as `--keys` gives them), `--now` in both forms, exit 0/1/2/3, `--json` errors.
#[test]
fn verify_takes_the_common_options() {
    let dir = setup();
    let d = dir.path();
    let jwks: Value =
        serde_json::from_slice(&std::fs::read(d.join("keys/jwks.json")).unwrap()).unwrap();
    let trust = serde_json::json!({"keys": {"archive.example": jwks}});
    std::fs::write(d.join("trust.json"), trust.to_string()).unwrap();
    let other = serde_json::json!({"keys": {"someone-else.example": jwks}});
    std::fs::write(d.join("other-trust.json"), other.to_string()).unwrap();
    let archive = fixture("archive.json");
    let verify_with = |bundle: &str, extra: &[&str]| {
        run(
            d,
            &[
                &words(
                    "archive verify {} display.json --archive {}",
                    &[bundle, archive.as_str()],
                )[..],
                extra,
            ]
            .concat(),
        )
    };
    // 0: the trust file, --now as Unix seconds or RFC 3339 (2026-05-16T10:05:00Z).
    for now in [NOW, "2026-05-16T10:05:00Z"] {
        let (c, out, e) = verify_with("bundle.json", &["--trust", "trust.json", "--now", now]);
        assert_eq!(c, 0, "{now}: {out}{e}");
        assert!(
            out.starts_with("bundle and display view -> VERIFIED\n"),
            "{out}"
        );
    }
    // 1: the keys of another signer; a tampered bundle.
    let (c, out, _) = verify_with(
        "bundle.json",
        &["--trust", "other-trust.json", "--now", NOW],
    );
    assert_eq!(c, 1, "{out}");
    assert!(
        out.starts_with("bundle and display view -> NOT VERIFIED\n"),
        "{out}"
    );
    assert!(out.contains("archive-key-unresolved"), "{out}");
    // 2: a trust file of the wrong shape; a bad --now.
    std::fs::write(d.join("bad-trust.json"), r#"{"keys": 1}"#).unwrap();
    for extra in [
        &["--trust", "bad-trust.json"][..],
        &["--now", "tomorrow"][..],
    ] {
        let (c, _, e) = verify_with("bundle.json", extra);
        assert_eq!(c, 2, "{extra:?}: {e}");
        let (c, out, _) = verify_with("bundle.json", &[extra, &["--json"][..]].concat());
        assert_eq!(c, 2);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["error"]["code"], "usage", "{extra:?}: {v:#}");
    }
    // 3: a bundle that cannot be read, in text and in JSON.
    let (c, _, _) = verify_with("missing.json", &["--trust", "trust.json"]);
    assert_eq!(c, 3);
    let (c, out, _) = verify_with("missing.json", &["--trust", "trust.json", "--json"]);
    assert_eq!(c, 3);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["error"]["code"], "input-unreadable");
}

/// A refusal to assemble carries the registered code and where in the request, as text and as a
/// `--json` incident (exit 1): an unknown tier, and a claim id used twice (the second use).
#[test]
fn gate_refusals_name_their_code_and_place() {
    let dir = setup();
    let d = dir.path();
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("request.json")).unwrap()).unwrap();
    let mut unknown_tier = request.clone();
    unknown_tier["tier"] = "no-such-tier".into();
    let mut duplicate = request.clone();
    let first_id = duplicate["claims"][0]["claim_id"].clone();
    duplicate["claims"][1]["claim_id"] = first_id;
    for (name, doc, code, pointer) in [
        ("tier.json", unknown_tier, "archive-tier-unknown", "/tier"),
        (
            "dup.json",
            duplicate,
            "archive-claim-id-duplicate",
            "/claims/1/claim_id",
        ),
    ] {
        std::fs::write(d.join(name), doc.to_string()).unwrap();
        let gate = |json: bool| {
            let mut args = vec![
                "archive",
                "gate",
                name,
                "--archive",
                &fixture("archive.json"),
                "--key",
                "keys/private.pem",
                "--kid",
                "archive-2026",
                "--signed-by",
                "archive.example",
                "--now",
                "1778925601",
                "--bundle",
                "b.json",
                "--display",
                "d.json",
            ]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
            if json {
                args.push("--json".into());
            }
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            run(d, &refs)
        };
        let (c, _, err) = gate(false);
        assert_eq!(c, 1, "{err}");
        assert!(err.contains(&format!("[{code}] at {pointer}")), "{err}");
        let (c, out, _) = gate(true);
        assert_eq!(c, 1);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["incidents"][0]["code"], code, "{out}");
        assert_eq!(v["incidents"][0]["location"]["pointer"], pointer, "{out}");
        assert!(
            !d.join("b.json").exists(),
            "nothing is delivered on a refusal"
        );
    }
}
