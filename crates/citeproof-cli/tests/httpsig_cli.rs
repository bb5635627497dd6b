//! `citeproof httpsig verify` against published data: RFC 9421 Appendix B.2.6 (in
//! crates/citeproof-httpsig/tests/data): the published base is printed and the signature holds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod kit;

use kit::{Ran, cli, file_in, rfc9421_b26_message};

fn rfc(name: &str) -> String {
    kit::rfc9421(name).to_string_lossy().into_owned()
}

/// `httpsig verify` of `msg` under the B.2.6 public key at the RFC's time, with `extra`.
fn verify_b26(msg: &str, extra: &str) -> Ran {
    let line = format!("httpsig verify --message {{}} --key {{}} --now 1618884500 {extra}");
    cli(&line, &[msg, &rfc("test-key-ed25519-public.pem")])
}

#[test]
fn httpsig_verify_accepts_rfc9421_b26_and_prints_the_published_base() {
    let dir = tempfile::tempdir().unwrap();
    let msg = file_in(dir.path(), "b26.http", rfc9421_b26_message());
    let published = std::fs::read_to_string(rfc("b2_6-signature-base.txt")).unwrap();
    verify_b26(&msg, "--verbose")
        .exits(0)
        .says(&[&published, "valid: signature `sig-b26`"]);

    // A changed Date header breaks it: exit 1.
    let text = std::fs::read_to_string(&msg)
        .unwrap()
        .replace("02:07:55", "02:07:56");
    std::fs::write(&msg, text).unwrap();
    verify_b26(&msg, "")
        .exits(1)
        .says(&["httpsig-signature-invalid"]);
}

/// `--record` and `--report` are refused (exit 2), never silently ignored: a message is not a
/// spec's subject, and nothing is written.
#[test]
fn httpsig_verify_refuses_record_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let msg = file_in(dir.path(), "b26.http", rfc9421_b26_message());
    let db = dir.path().join("audit.db");
    let page = dir.path().join("report.html");
    let key = rfc("test-key-ed25519-public.pem");
    for (extra, file) in [("--record {}", &db), ("--report html --out {}", &page)] {
        let line = format!("httpsig verify --message {{}} --key {{}} {extra}");
        cli(&line, &[&msg, &key, file.to_str().unwrap()])
            .exits(2)
            .warns(&["does not record"]);
    }
    assert!(!db.exists() && !page.exists());
}
