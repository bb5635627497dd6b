//! Reports a person reads, attacked through the document: hostile claim text, hostile URLs, a
//! spec's passing word on an item that failed, spreadsheet formulas; and the banner's words
//! come from the outcome alone.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_audit::Record;
use citeproof_audit::render::{Format, Provenance, render};
use serde_json::json;

fn hostile(outcome: &str) -> Record {
    let verified = outcome == "verified";
    Record::from_report(
        json!({
            "spec": "aca",
            "subject": {"kind": "url", "name": "javascript:alert(0)"},
            "level": 1, "required_level": 2, "verified": verified, "outcome": outcome,
            "incidents": [{"level": 2, "code": "aca-claim-unsupported", "severity": "error",
                           "message": "<b>bold</b> message", "location": {}}],
            "items": [{
                "kind": "claim", "id": "c1\"><script>x</script>",
                "text": "</td><script>alert(1)</script>",
                "verified": false, "verdict": "supported", "failed": ["aca-claim-unsupported"],
                "sources": [
                    {"url": "javascript:alert(2)", "excerpt": "<img src=x onerror=alert(3)>", "verified": false},
                    {"url": "https://example.org/a?b=<c>", "excerpt": "=HYPERLINK(\"http://evil\")", "verified": true}
                ]
            }]
        }),
        1_777_593_700,
        1_777_593_600,
    )
    .unwrap()
}

#[test]
fn html_has_no_active_content_and_no_passing_word_on_a_failure() {
    let page = render(
        &hostile("not-verified"),
        &Provenance::default(),
        Format::Html,
    )
    .unwrap();
    assert!(!page.contains("<script") && !page.contains("<img") && !page.contains("<b>"));
    assert!(
        !page.contains("href=\"javascript"),
        "a javascript: URL became a link"
    );
    assert_eq!(
        page.matches("<a href=").count(),
        1,
        "only the https source is a link"
    );
    // minijinja escapes `/` in attributes; the browser reads it back (see audit_cli.rs).
    assert!(page.contains("<a href=\"https:&#x2f;&#x2f;example.org"));
    assert!(
        page.contains("&lt;&#x2f;td&gt;&lt;script&gt;"),
        "the claim text is shown, escaped"
    );
    // The spec said "supported", the item failed: the badge says NOT VERIFIED.
    assert!(!page.contains(">SUPPORTED<"));
    assert!(page.contains("<span class=\"badge bad\">NOT VERIFIED</span>"));
    assert!(page.contains("id=\"verdict-word\">NOT VERIFIED<"));
    // Self-contained: no external asset of any kind.
    for needle in ["src=\"http", "<link", "@import", "url(http"] {
        assert!(!page.contains(needle), "{needle}");
    }
}

#[test]
fn banner_words_come_from_the_outcome() {
    for (outcome, word) in [
        ("verified", "VERIFIED"),
        ("not-verified", "NOT VERIFIED"),
        ("could-not-check", "COULD NOT CHECK"),
    ] {
        let mut r = hostile(outcome);
        r.report["items"] = json!([]);
        let page = render(&r, &Provenance::default(), Format::Html).unwrap();
        assert!(
            page.contains(&format!("id=\"verdict-word\">{word}<")),
            "{outcome}"
        );
        let md = render(&r, &Provenance::default(), Format::Markdown).unwrap();
        assert!(md.starts_with(&format!("# {word}:")), "{md}");
    }
    // A record whose outcome and verified flag disagree cannot be built.
    let mut v = hostile("not-verified").report;
    v["verified"] = json!(true);
    assert_eq!(
        Record::from_report(v, 0, 0).unwrap_err().code(),
        "audit-record"
    );
}

#[test]
fn markdown_and_csv_carry_no_markup_or_formula() {
    let r = hostile("not-verified");
    let md = render(&r, &Provenance::default(), Format::Markdown).unwrap();
    assert!(!md.contains("<script") && !md.contains("<img"));
    assert!(
        md.contains("&lt;/td&gt;&lt;script&gt;alert\\(1\\)&lt;/script&gt;"),
        "{md}"
    );
    let csv = render(&r, &Provenance::default(), Format::Csv).unwrap();
    // Read back with the csv crate's own reader: one header, one row per source.
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[1][14], "'=HYPERLINK(\"http://evil\")");
    assert_eq!(
        &rows[0][7], "</td><script>alert(1)</script>",
        "CSV keeps the text as data"
    );
    assert_eq!(&rows[0][8], "FAILED");
}

/// The trust section names what the user configured and nothing about where it came from that
/// the report does not record: a key given with `--key` is not "from the trust file".
#[test]
fn trust_section_claims_no_provenance_the_report_lacks() {
    let report = json!({
        "spec": "chain", "subject": {"kind": "file", "name": "e.json"},
        "level": 1, "required_level": 1, "verified": true, "outcome": "verified",
        "incidents": [], "items": [],
        "trust": {"signers": {"agent": {"secrets": ["s1"], "keys": [["k1", "th1"]]}}}
    });
    let r = Record::from_report(report, 1_777_593_700, 1_777_593_600).unwrap();
    let page = render(&r, &Provenance::default(), Format::Html).unwrap();
    assert!(!page.contains("from the trust file"), "{page}");
    assert!(
        page.contains("HMAC secret `s1` (configured by you"),
        "{page}"
    );
    assert!(page.contains("thumbprint th1 (configured by you"), "{page}");
}
