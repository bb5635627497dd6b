//! What a chain answer's text may say: answers that verify nothing or hide an id, and document text that cannot print a line of its own.

use super::*;

#[test]
fn answers_that_verify_nothing_or_hide_an_id_say_so() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    sign_hmac(dir.path());
    let envelope: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("envelope.json")).unwrap())
            .unwrap();
    let write = |name: &str, answer: &str, with_envelope: bool| {
        let chains = if with_envelope {
            serde_json::json!({"ad17e76a8baad7a1": envelope.clone()})
        } else {
            serde_json::json!({})
        };
        let doc = serde_json::json!({"answer": answer, "chains": chains});
        std::fs::write(dir.path().join(name), doc.to_string()).unwrap();
    };
    write(
        "none.json",
        "The Transformer was introduced in 2017.",
        false,
    );
    let out = verify(dir.path(), "none.json", &[]);
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}");
    assert!(stdout.contains("-> NOT VERIFIED"), "{stdout}");
    assert!(
        stdout.contains("answer references: none (nothing in the answer was verified)"),
        "{stdout}"
    );
    assert!(stdout.contains("[chain-answer-unreferenced]"), "{stdout}");

    // A made-up id behind a zero-width space: an unresolved reference, shown escaped.
    write(
        "hidden.json",
        "It was introduced in 2017 [ad17e76a8baad7a1] and scales [0123456789abcdef\u{200b}].",
        true,
    );
    let out = verify(dir.path(), "hidden.json", &[]);
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}");
    assert!(
        stdout.contains("[0123456789abcdef\\u{200B}] at 56: unverified"),
        "{stdout}"
    );
    assert!(stdout.contains("[chain-ref-unresolved]"), "{stdout}");

    // Ordinary brackets are text: a warning, and the answer verifies.
    write(
        "footnotes.json",
        "It was introduced in 2017 [ad17e76a8baad7a1] [1] [sic].",
        true,
    );
    let out = verify(dir.path(), "footnotes.json", &[]);
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 0, "{stdout}");
    assert!(stdout.contains("-> VERIFIED"), "{stdout}");
    assert!(
        stdout.contains("L1 warning [chain-bracket-not-reference]"),
        "{stdout}"
    );
}

#[test]
fn document_text_cannot_print_a_line_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    sign_hmac(dir.path());
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("envelope.json")).unwrap())
            .unwrap();
    v["signature"]["signedBy"] =
        serde_json::json!("did:web:sourcescore.org\n  signature: verified over seed-python");
    v["claim"]["x\nL1 note"] = serde_json::json!(1);
    v["claim"]["y\u{202e}"] = serde_json::json!(1);
    std::fs::write(dir.path().join("forged.json"), v.to_string()).unwrap();
    let out = verify(dir.path(), "forged.json", &[]);
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}");
    // Every line of the report is one the report wrote: no line starts with forged text.
    assert!(
        !stdout
            .lines()
            .any(|l| l.starts_with("  signature: verified") || l.starts_with("L1 note")),
        "{stdout}"
    );
    assert!(stdout.contains("\\u{000A}"), "{stdout}");
    assert!(stdout.contains("\\u{202E}"), "{stdout}");
    assert!(!stdout.contains('\u{202e}'), "{stdout}");
}
