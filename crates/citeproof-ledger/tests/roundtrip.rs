//! Builder → verifier round trips, and the attacks a verifier must catch: every tampered
//! ledger, audit file or API export below is rejected with the code the profile names.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_aca::sign::StepInputs;
use citeproof_ledger::verify::{Subject, VerifyReport};
use citeproof_ledger::*;
use serde_json::{Map, Value, json};

#[derive(Clone)]
struct Emitted {
    ledger: Value,
    audit: Vec<u8>,
    api: Value,
}

fn build(run: &str, config: LedgerConfig, start: i64) -> AttributionLedger {
    let mut l = AttributionLedger::new(
        config,
        RunId::new(run).unwrap(),
        Box::new(SteppingClock::new(start, 1)),
    );
    let search = l
        .tool_call("web_search", StepInputs::Public(Map::new()), &[])
        .unwrap();
    let page = l
        .capture(
            &search,
            "https://example.com/q3",
            b"Q3 revenue grew 4%. Costs fell.".to_vec(),
            "web_search",
        )
        .unwrap();
    let other = l
        .capture(
            &search,
            "https://example.org/costs",
            b"Costs fell by 2%.".to_vec(),
            "web_fetch",
        )
        .unwrap();
    l.register(ClaimInput::attributed(
        "Q3 revenue grew 4%.",
        page,
        Excerpt::quote("Q3 revenue grew 4%."),
    ))
    .unwrap();
    l.register(ClaimInput::attributed(
        "Costs fell by 2%.",
        other,
        Excerpt::quote("Costs fell by 2%."),
    ))
    .unwrap();
    l.register(ClaimInput::unattributed("I read 2 sources.", false))
        .unwrap();
    l
}

fn emit(l: &AttributionLedger) -> Emitted {
    let mut audit = Vec::new();
    l.write_audit_jsonl(&mut audit).unwrap();
    Emitted {
        ledger: serde_json::to_value(l.to_document().unwrap()).unwrap(),
        audit,
        api: serde_json::to_value(l.export_for_api()).unwrap(),
    }
}

fn check(e: &Emitted, emitted: bool) -> VerifyReport {
    verify(
        &serde_json::to_vec(&e.ledger).unwrap(),
        &e.audit,
        Some(&serde_json::to_vec(&e.api).unwrap()),
        &VerifyOptions {
            emitted,
            now: Some(1_777_400_000),
            ..VerifyOptions::default()
        },
    )
}

/// The codes of every incident of `r`, in order.
fn codes(r: &VerifyReport) -> Vec<&'static str> {
    let findings = r.verdict.incidents.iter();
    findings.map(|f| f.incident.code.as_str()).collect()
}

fn errors(r: &VerifyReport) -> Vec<(Subject, &'static str)> {
    let mut v: Vec<_> = citeproof_ledger::verify::findings(r)
        .into_iter()
        .filter(|f| f.incident.severity == citeproof_model::Severity::Error)
        .map(|f| (f.file, f.incident.code.as_str()))
        .collect();
    v.sort_by_key(|(s, c)| (format!("{s:?}"), *c));
    v.dedup();
    v
}

fn records(audit: &[u8]) -> Vec<Value> {
    audit
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

fn jsonl(records: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        out.extend(serde_json::to_vec(r).unwrap());
        out.push(b'\n');
    }
    out
}

#[test]
fn what_the_builder_emits_verifies() {
    let e = emit(&build("run-a", LedgerConfig::strict(), 1_777_370_000));
    let r = check(&e, true);
    assert!(r.verdict.verified, "{:#?}", r.verdict.incidents);
    assert!(r.verdict.incidents.is_empty(), "{:#?}", r.verdict.incidents);
    assert_eq!(r.details.records, 3);
    let c = r.details.coverage.unwrap();
    // Hand: 3 claims, 2 required, both cited: 2/2 = 1.0.
    assert_eq!(
        (c.total_claims, c.required_claims, c.cited_claims),
        (3, 2, 2)
    );
    assert_eq!(c.coverage_score, 1.0);
    // One item per ledger claim, in the ledger's order, with its text; a cited claim shows
    // its source identifier.
    assert_eq!(r.spec, "ledger");
    assert_eq!(r.items.len(), 3);
    assert!(r.items.iter().all(|i| i.kind == "claim" && i.verified));
    let ledger: Value = e.ledger.clone();
    for (item, claim) in r.items.iter().zip(ledger["claims"].as_array().unwrap()) {
        assert_eq!(item.text.as_deref(), claim["text"].as_str());
        assert_eq!(
            item.sources.first().map(|s| s.url.as_str()),
            claim["source"]["identifier"].as_str()
        );
    }
}

#[test]
fn the_right_run_is_picked_from_an_append_only_file() {
    let dir = std::env::temp_dir().join(format!("citeproof-ledger-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("audit.jsonl");
    let _ = std::fs::remove_file(&path);
    let a = build("run-a", LedgerConfig::strict(), 1_777_370_000);
    let b = build("run-b", LedgerConfig::strict(), 1_777_380_000);
    a.append_audit_log(&path).unwrap();
    b.append_audit_log(&path).unwrap();
    let file = std::fs::read(&path).unwrap();
    assert_eq!(records(&file).len(), 6);
    for l in [&a, &b] {
        let mut e = emit(l);
        e.audit = file.clone();
        let r = check(&e, true);
        assert!(r.verdict.verified, "{:#?}", r.verdict.incidents);
        assert_eq!(r.details.records, 3);
    }
    // The audit of the file reports both runs, in file order.
    let report = audit(&file, &AuditOptions::default());
    let ids: Vec<_> = report
        .ledgers
        .iter()
        .map(|l| l.ledger_id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["run-a", "run-b"]);
    assert!(report.ok);
    // Appending run-a's records again (a replay) is caught.
    let mut replayed = file.clone();
    replayed.extend(emit(&a).audit);
    let mut e = emit(&a);
    e.audit = replayed.clone();
    assert_eq!(
        errors(&check(&e, true)),
        [(Subject::Audit, "ledger-id-reused")]
    );
    let report = audit(&replayed, &AuditOptions::default());
    assert!(!report.ok);
    assert_eq!(
        report.ledgers[0].incidents[0].code.as_str(),
        "ledger-id-reused"
    );
    assert_eq!(report.ledgers[0].incidents[0].location.line, Some(7));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tampered_ledgers_are_rejected_with_their_code() {
    let base = emit(&build("run-a", LedgerConfig::strict(), 1_777_370_000));
    type Tamper = fn(&mut Value);
    let cases: &[(&str, Tamper, &[&str])] = &[
        (
            "drop a source",
            |l| l["claims"][1]["source"] = Value::Null,
            &[
                // The ledger no longer matches its records, its counts, score and compliance, and
                // a strict ledger below 1.0 was emitted.
                "ledger-below-threshold",
                "ledger-compliance-mismatch",
                "ledger-count-mismatch",
                "ledger-coverage-mismatch",
                "ledger-uncited-mismatch",
            ],
        ),
        (
            "raise the score",
            |l| l["coverage"]["coverage_score"] = json!(0.99),
            &["ledger-coverage-mismatch"],
        ),
        (
            "hide an uncited claim",
            |l| l["coverage"]["uncited_claims"] = json!(["x"]),
            &["ledger-uncited-mismatch"],
        ),
        (
            "untraced source",
            |l| {
                l["claims"][0]["source"]
                    .as_object_mut()
                    .unwrap()
                    .remove("tool_call_id");
            },
            &["ledger-source-untraced"],
        ),
        (
            "source fetched after the claim",
            |l| {
                l["claims"][0]["source"]["fetched_at"] = json!("2030-01-01T00:00:00Z");
            },
            &["ledger-source-after-claim"],
        ),
        (
            "strict threshold lowered",
            |l| l["threshold"] = json!(0.5),
            &["ledger-threshold-invalid"],
        ),
        (
            "premature dedup",
            |l| {
                let id = l["claims"][0]["source"]["identifier"].clone();
                l["claims"][1]["source"]["identifier"] = id;
            },
            &["ledger-source-deduplicated"],
        ),
        (
            "compliance flipped",
            |l| l["coverage"]["is_compliant"] = json!(false),
            &["ledger-compliance-mismatch"],
        ),
        (
            "source null spelled as an empty object",
            |l| l["claims"][2]["source"] = json!({}),
            &["schema-violation"],
        ),
        (
            "unknown member",
            |l| l["claims"][0]["confidence"] = json!("high"),
            &["unknown-member"],
        ),
        ("other ledger id", |l| l["ledger_id"] = json!("run-z"), &[]),
    ];
    for (what, tamper, codes) in cases {
        let mut e = base.clone();
        tamper(&mut e.ledger);
        let got = errors(&check(&e, true));
        let ledger_codes: Vec<&str> = got
            .iter()
            .filter(|(s, _)| *s == Subject::Ledger)
            .map(|(_, c)| *c)
            .collect();
        assert_eq!(&ledger_codes, codes, "{what}: {got:?}");
        assert!(!got.is_empty(), "{what}: verified");
    }
}

#[test]
fn tampered_audit_files_are_rejected_with_their_code() {
    let base = emit(&build("run-a", LedgerConfig::strict(), 1_777_370_000));
    let with_audit = |audit| Emitted {
        audit,
        ..base.clone()
    };
    let recs = records(&base.audit);
    assert!(recs.iter().zip(0..).all(|(r, i)| r["seq"] == json!(i)));
    type Tamper = fn(&mut Vec<Value>);
    // (what, tamper, code with the builder's `seq`, code once `seq` is removed from every
    // record): with `seq` a record missing or moved breaks the sequence (LEDGER-011) before
    // the records are compared; without it, the comparison (LEDGER-009) or the block rule
    // catches it.
    let cases: &[(&str, Tamper, &str, &str)] = &[
        (
            "claim text edited",
            |r| r[0]["claim"] = json!("Q3 revenue grew 40%."),
            "ledger-jsonl-record-mismatch",
            "ledger-jsonl-record-mismatch",
        ),
        (
            "source swapped",
            |r| {
                let s = r[1]["source"].clone();
                r[0]["source"] = s;
            },
            "ledger-jsonl-record-mismatch",
            "ledger-jsonl-record-mismatch",
        ),
        (
            "exempt claim made required",
            |r| r[2]["requires_proof"] = json!(true),
            "ledger-jsonl-record-mismatch",
            "ledger-jsonl-record-mismatch",
        ),
        (
            "record dropped",
            |r| {
                r.remove(1);
            },
            "ledger-seq-broken",
            "ledger-jsonl-count-mismatch",
        ),
        (
            "records reordered",
            |r| r.swap(0, 1),
            "ledger-seq-broken",
            "ledger-jsonl-record-mismatch",
        ),
        (
            "last record moved to another run",
            |r| r[2]["ledger_id"] = json!("run-b"),
            "ledger-jsonl-count-mismatch",
            "ledger-jsonl-count-mismatch",
        ),
        (
            "middle record moved to another run",
            |r| r[1]["ledger_id"] = json!("run-b"),
            "ledger-seq-broken",
            "ledger-id-reused",
        ),
        (
            "last record appended again",
            |r| {
                let last = r[2].clone();
                r.push(last);
            },
            "ledger-id-reused",
            "ledger-jsonl-count-mismatch",
        ),
    ];
    for (what, tamper, with_seq, without_seq) in cases {
        for (numbered, code) in [(true, with_seq), (false, without_seq)] {
            let mut r = recs.clone();
            if !numbered {
                for x in &mut r {
                    x.as_object_mut().unwrap().remove("seq");
                }
            }
            tamper(&mut r);
            assert_eq!(
                errors(&check(&with_audit(jsonl(&r)), true)),
                [(Subject::Audit, *code)],
                "{what} (seq: {numbered})"
            );
        }
    }
    // A torn append of the ledger's own last record (its LF lost): the line names run-a, so it
    // is the ledger's damage, and the records are not compared (reporting rule 3).
    let mut torn = base.audit.clone();
    torn.pop();
    let got = errors(&check(&with_audit(torn), true));
    assert_eq!(got, [(Subject::Audit, "ledger-jsonl-malformed")]);
    // Another run's torn append after the ledger's records: a warning only.
    let other = emit(&build("run-b", LedgerConfig::strict(), 1_777_380_000));
    let mut shared = base.audit.clone();
    shared.extend_from_slice(&other.audit[..other.audit.len() / 2]);
    let r = check(&with_audit(shared), true);
    assert!(r.verdict.verified, "{:#?}", r.verdict.incidents);
    assert_eq!(codes(&r), ["ledger-audit-file-damaged"]);
    let crlf: Vec<u8> = String::from_utf8(base.audit.clone())
        .unwrap()
        .replace('\n', "\r\n")
        .into_bytes();
    let e = with_audit(crlf);
    assert!(check(&e, true).verdict.verified);
}

#[test]
fn records_of_concurrent_runs_may_interleave() {
    // Two builders appending at once, record by record: each verifies; a replay of one
    // anywhere after is caught by its repeated `seq`.
    let a = emit(&build("run-a", LedgerConfig::strict(), 1_777_370_000));
    let b = emit(&build("run-b", LedgerConfig::strict(), 1_777_380_000));
    let (ra, rb) = (records(&a.audit), records(&b.audit));
    let mixed: Vec<Value> = ra
        .iter()
        .zip(&rb)
        .flat_map(|(x, y)| [y.clone(), x.clone()])
        .collect();
    for e in [&a, &b] {
        let e = Emitted {
            audit: jsonl(&mixed),
            ..e.clone()
        };
        let r = check(&e, true);
        assert!(r.verdict.verified, "{:#?}", r.verdict.incidents);
        assert!(r.verdict.incidents.is_empty(), "{:#?}", r.verdict.incidents);
    }
    let report = audit(&jsonl(&mixed), &AuditOptions::default());
    assert!(report.ok, "{report:#?}");
    let mut replayed = mixed.clone();
    replayed.insert(3, ra[0].clone());
    let e = Emitted {
        audit: jsonl(&replayed),
        ..a.clone()
    };
    assert_eq!(
        errors(&check(&e, true)),
        [(Subject::Audit, "ledger-id-reused")]
    );
}

#[test]
fn tampered_api_exports_are_rejected() {
    let base = emit(&build("run-a", LedgerConfig::strict(), 1_777_370_000));
    type Tamper = fn(&mut Value);
    let cases: &[(&str, Tamper, &str)] = &[
        (
            "summary edited",
            |a| a["output_summary"] = json!("All good."),
            "ledger-api-mismatch",
        ),
        (
            "source id swapped",
            |a| a["attribution_map"][0]["source_id"] = json!("call-1-src-2"),
            "ledger-api-mismatch",
        ),
        (
            "timestamp moved",
            |a| a["attribution_map"][1]["timestamp"] = json!("2026-01-01T00:00:00Z"),
            "ledger-api-mismatch",
        ),
        (
            "entry dropped",
            |a| {
                a["attribution_map"].as_array_mut().unwrap().pop();
            },
            "ledger-api-mismatch",
        ),
        (
            "other ledger",
            |a| a["ledger_id"] = json!("run-b"),
            "ledger-api-mismatch",
        ),
        (
            "member added",
            |a| a["attribution_map"][0]["url"] = json!("https://x.example/"),
            "unknown-member",
        ),
    ];
    for (what, tamper, code) in cases {
        let mut e = base.clone();
        tamper(&mut e.api);
        assert_eq!(errors(&check(&e, true)), [(Subject::Api, *code)], "{what}");
    }
}

#[test]
fn the_emission_gate() {
    // Strict, one required claim uncited: the document of the refused response verifies as
    // not emitted, and is an error when presented as emitted (LEDGER-006).
    let mut l = build("run-s", LedgerConfig::strict(), 1_777_370_000);
    l.register(ClaimInput::unattributed("Uncited figure.", true))
        .unwrap();
    let doc = serde_json::to_vec(&l.document_of_refused().unwrap()).unwrap();
    let mut audit_file = Vec::new();
    l.write_audit_jsonl(&mut audit_file).unwrap();
    let ok = |emitted| {
        verify(
            &doc,
            &audit_file,
            None,
            &VerifyOptions {
                emitted,
                ..VerifyOptions::default()
            },
        )
    };
    assert!(ok(false).verdict.verified);
    let r = ok(true);
    assert!(!r.verdict.verified);
    assert_eq!(errors(&r), [(Subject::Ledger, "ledger-below-threshold")]);
    // Lenient 0.90, 2 of 3 cited (0.666...): a warning only (LEDGER-007).
    let mut l = build("run-l", LedgerConfig::lenient_default(), 1_777_370_000);
    l.register(ClaimInput::unattributed("Uncited figure.", true))
        .unwrap();
    let e = emit(&l);
    let r = check(&e, true);
    assert!(r.verdict.verified);
    let warnings = codes(&r);
    assert_eq!(warnings, ["ledger-coverage-low"]);
    // 2/3 as one IEEE division (Python: 2/3 == 0.6666666666666666).
    assert_eq!(
        r.details.coverage.unwrap().coverage_score,
        0.6666666666666666
    );
}
