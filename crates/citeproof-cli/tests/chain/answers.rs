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
        file_in(dir.path(), name, doc.to_string());
    };
    write(
        "none.json",
        "The Transformer was introduced in 2017.",
        false,
    );
    verify(dir.path(), "none.json", "").exits(1).says(&[
        "-> NOT VERIFIED",
        "answer references: none (nothing in the answer was verified)",
        "[chain-answer-unreferenced]",
    ]);

    // A made-up id behind a zero-width space: an unresolved reference, shown escaped.
    write(
        "hidden.json",
        "It was introduced in 2017 [ad17e76a8baad7a1] and scales [0123456789abcdef\u{200b}].",
        true,
    );
    verify(dir.path(), "hidden.json", "").exits(1).says(&[
        "[0123456789abcdef\\u{200B}] at 56: unverified",
        "[chain-ref-unresolved]",
    ]);

    // Ordinary brackets are text: a warning, and the answer verifies.
    write(
        "footnotes.json",
        "It was introduced in 2017 [ad17e76a8baad7a1] [1] [sic].",
        true,
    );
    verify(dir.path(), "footnotes.json", "")
        .exits(0)
        .says(&["-> VERIFIED", "L1 warning [chain-bracket-not-reference]"]);
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
    file_in(dir.path(), "forged.json", v.to_string());
    let ran = verify(dir.path(), "forged.json", "").exits(1);
    let stdout = &ran.out;
    // Every line of the report is one the report wrote: no line starts with forged text.
    assert!(
        !stdout
            .lines()
            .any(|l| l.starts_with("  signature: verified") || l.starts_with("L1 note")),
        "{stdout}"
    );
    ran.says(&["\\u{000A}", "\\u{202E}"])
        .never_says(&["\u{202e}"]);
}
