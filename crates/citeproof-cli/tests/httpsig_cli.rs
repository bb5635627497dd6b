//! `citeproof httpsig verify` against published data: RFC 9421 Appendix B.2.6 (in
//! crates/citeproof-httpsig/tests/data): the published base is printed and the signature holds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod kit;

use kit::{citeproof, stdout_of};

fn rfc(name: &str) -> String {
    format!(
        "{}/../citeproof-httpsig/tests/data/rfc9421/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The B.2 test request with the B.2.6 signature fields, as an HTTP/1.1 message file.
fn b26_message(dir: &std::path::Path) -> std::path::PathBuf {
    let req = std::fs::read_to_string(rfc("test-request.http")).unwrap();
    let (head, body) = req.split_once("\n\n").unwrap();
    let input = std::fs::read_to_string(rfc("b2_6-signature-input.txt")).unwrap();
    let sig = std::fs::read_to_string(rfc("b2_6-signature.txt")).unwrap();
    // Header lines end in CRLF; the 18-byte body is kept exactly as published.
    let text = format!(
        "{}\r\nSignature-Input: {input}\r\nSignature: {sig}\r\n\r\n{body}",
        head.replace('\n', "\r\n")
    );
    let path = dir.join("b26.http");
    std::fs::write(&path, text).unwrap();
    path
}

/// `httpsig verify` of `msg` under the B.2.6 public key at the RFC's time, with `extra`.
fn verify_b26(msg: &std::path::Path, extra: &[&str]) -> std::process::Output {
    citeproof()
        .args(["httpsig", "verify", "--message"])
        .arg(msg)
        .args(["--key", &rfc("test-key-ed25519-public.pem")])
        .args(["--now", "1618884500"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn httpsig_verify_accepts_rfc9421_b26_and_prints_the_published_base() {
    let dir = tempfile::tempdir().unwrap();
    let msg = b26_message(dir.path());
    let out = verify_b26(&msg, &["--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));
    let published = std::fs::read_to_string(rfc("b2_6-signature-base.txt")).unwrap();
    assert!(stdout_of(&out).contains(&published), "{}", stdout_of(&out));
    assert!(stdout_of(&out).contains("valid: signature `sig-b26`"));

    // A changed Date header breaks it: exit 1.
    let text = std::fs::read_to_string(&msg)
        .unwrap()
        .replace("02:07:55", "02:07:56");
    std::fs::write(&msg, text).unwrap();
    let out = verify_b26(&msg, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout_of(&out).contains("httpsig-signature-invalid"));
}

/// `--record` and `--report` are refused (exit 2), never silently ignored: a message is not a
/// spec's subject, and nothing is written.
#[test]
fn httpsig_verify_refuses_record_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let msg = b26_message(dir.path());
    let db = dir.path().join("audit.db");
    let page = dir.path().join("report.html");
    for extra in [
        vec!["--record".to_owned(), db.display().to_string()],
        vec![
            "--report".to_owned(),
            "html".to_owned(),
            "--out".to_owned(),
            page.display().to_string(),
        ],
    ] {
        let out = citeproof()
            .args(["httpsig", "verify", "--message"])
            .arg(&msg)
            .args(["--key", &rfc("test-key-ed25519-public.pem")])
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("does not record"));
    }
    assert!(!db.exists() && !page.exists());
}
