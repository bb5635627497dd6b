//! The SQLite store on a real file: what goes in comes out, queries filter, counts add up, and
//! a database of another schema version is refused instead of misread.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_audit::{
    AuditError, AuditStore, DocumentUse, Filter, RecordedIncident, SqliteStore, VerificationRecord,
};
use citeproof_model::{Incident, IncidentCode, Location};
use serde_json::json;

fn record(
    subject: &str,
    run: &str,
    digest: &str,
    level: u8,
    codes: &[IncidentCode],
) -> VerificationRecord {
    VerificationRecord {
        spec: "aca".into(),
        subject: subject.into(),
        verified_at: 1_777_370_400,
        level,
        required_level: 3,
        verified: level >= 3,
        documents: vec![DocumentUse {
            url: format!("{subject}/manifest"),
            digest: digest.into(),
            run_id: Some(run.into()),
        }],
        incidents: codes
            .iter()
            .map(|c| RecordedIncident {
                level: 2,
                incident: Incident::new(*c, "m", Location::pointer("/x")),
            })
            .collect(),
        report: json!({"level": level, "subject": subject}),
    }
}

const D1: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";
const D2: &str = "sha256:2222222222222222222222222222222222222222222222222222222222222222";

#[test]
fn records_persist_and_queries_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.db");
    {
        let mut s = SqliteStore::open(&path).unwrap();
        assert_eq!(
            s.record(&record("https://a.example/r1", "r1", D1, 3, &[]))
                .unwrap(),
            1
        );
        assert_eq!(
            s.record(&record(
                "https://a.example/r2",
                "r2",
                D1,
                1,
                &[
                    IncidentCode::AcaClaimUnsupported,
                    IncidentCode::AcaSourceIrrelevant
                ]
            ))
            .unwrap(),
            2
        );
        s.record(&record("https://a.example/r3", "r3", D2, 3, &[]))
            .unwrap();
    }
    // Reopened from the file.
    let s = SqliteStore::open(&path).unwrap();
    let uses = s.prior_uses(D1).unwrap();
    assert_eq!(uses.len(), 2);
    assert_eq!(
        (uses[0].subject.as_str(), uses[0].run_id.as_deref()),
        ("https://a.example/r1", Some("r1"))
    );
    assert_eq!(uses[1].verification_id, 2);
    assert!(s.prior_uses("sha256:none").unwrap().is_empty());

    let all = s.list(&Filter::default()).unwrap();
    assert_eq!(all.iter().map(|v| v.id).collect::<Vec<_>>(), [3, 2, 1]);
    assert_eq!(all[1].errors, ["aca-claim-unsupported"]);
    assert_eq!(all[1].warnings, ["aca-source-irrelevant"]);
    let with_code = s
        .list(&Filter {
            code: Some("aca-claim-unsupported".into()),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(with_code.len(), 1);
    let failed = s
        .list(&Filter {
            verified: Some(false),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(failed.iter().map(|v| v.id).collect::<Vec<_>>(), [2]);
    assert_eq!(
        s.list(&Filter {
            limit: Some(1),
            ..Filter::default()
        })
        .unwrap()
        .len(),
        1
    );
    assert_eq!(
        s.report(2).unwrap(),
        Some(json!({"level": 1, "subject": "https://a.example/r2"}))
    );
    assert_eq!(s.report(99).unwrap(), None);

    let sum = s.summary().unwrap();
    assert_eq!(
        (sum.verifications, sum.verified, sum.not_verified),
        (3, 2, 1)
    );
    assert_eq!(
        sum.by_level,
        [("aca".to_owned(), 1, 1), ("aca".to_owned(), 3, 2)]
    );
    assert_eq!(sum.by_code.len(), 2);
    // D1 was seen under runs r1 and r2 on two subjects; D2 once.
    assert_eq!(sum.reused_documents, [(D1.to_owned(), 2, 2)]);
}

#[test]
fn a_database_of_another_schema_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    {
        let conn = rusqlite_connection(&path);
        conn.execute_batch("PRAGMA user_version = 7; CREATE TABLE x (y);")
            .unwrap();
    }
    match SqliteStore::open(&path) {
        Err(e @ AuditError::SchemaVersion { found: 7, .. }) => {
            assert_eq!(e.code(), "audit-schema-version")
        }
        other => panic!("{other:?}"),
    }
}

fn rusqlite_connection(path: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}
