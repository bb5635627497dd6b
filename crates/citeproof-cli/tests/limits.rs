//! Bounds that only the CLI enforces, exceeded: the size of an AEF source file
//! (`MAX_SOURCE_BYTES`, 10 MiB, in `cmd/aef.rs`) and the `--batch` list of every verify
//! (`MAX_LINE_BYTES`, 64 KiB a line, and `MAX_LINES`, 1 000 000 lines, in `cmd/batch.rs`).
//! Each ends in an error naming the bound before anything is verified.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod kit;

use kit::{citeproof, stderr_of};

#[test]
fn evidence_new_refuses_a_source_over_10_mib() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("big.html");
    std::fs::write(&source, vec![b' '; 10 * 1024 * 1024 + 1]).unwrap();
    let out = citeproof()
        .args(["evidence", "new", "--source"])
        .arg(&source)
        .args(["--uri", "https://example.com/big", "--selector", "css=p"])
        .args(["--claim", "x", "--fetched-at", "2026-05-12T03:45:00Z"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    assert!(
        stderr_of(&out).contains("larger than the 10485760-byte limit"),
        "{}",
        stderr_of(&out)
    );
}

/// `aca verify --batch` of a list file holding `text`: exit 2 and `expected` on stderr, before
/// any line is verified.
fn batch_list_is_refused(text: &str, expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("batch.txt");
    std::fs::write(&list, text).unwrap();
    let out = citeproof()
        .args(["aca", "verify", "--batch"])
        .arg(&list)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains(expected), "{}", stderr_of(&out));
}

#[test]
fn batch_refuses_a_line_over_64_kib() {
    let mut text = "x".repeat(64 * 1024 + 1);
    text.push('\n');
    batch_list_is_refused(&text, "line 1 is longer than 65536 bytes");
}

#[test]
fn batch_refuses_more_than_1000000_lines() {
    batch_list_is_refused(&"x\n".repeat(1_000_001), "more than 1000000 lines");
}
