//! One suite, two backends: every case runs on a fresh SQLite file and on a fresh database of
//! a real PostgreSQL server (see `common`). What goes in comes out; filters and counts answer;
//! editing any column of any row, deleting a row, or reordering rows is found by the chain
//! check; ids are never reused; the history check and the append are one step under
//! concurrency; stores that are not ours, or newer, are refused untouched.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_audit::{
    Access, AuditError, AuditStore, DocumentUse, Filter, chain::parse_head, open,
};
use common::Target;
use common::reports::{DAY, T0, rec};

fn store(t: &Target, access: Access) -> Box<dyn AuditStore> {
    open(&t.name(), access).unwrap()
}

/// Three verifications on three days; the second fails with two codes and saw a document.
fn fill(t: &Target) -> Box<dyn AuditStore> {
    let mut s = store(t, Access::Write);
    s.record(&rec("aef", "e1.json", "verified", &[], T0))
        .unwrap();
    let doc = DocumentUse {
        url: "https://a.example/m".into(),
        digest: "sha256:11".into(),
        run_id: Some("r1".into()),
    };
    s.record(
        &rec(
            "aca",
            "https://a.example/r",
            "not-verified",
            &["aca-claim-unsupported", "aca-content-digest-mismatch"],
            T0 + DAY,
        )
        .with_documents(vec![doc])
        .with_input_key("sha256:input".into()),
    )
    .unwrap();
    s.record(&rec(
        "chain",
        "answer.json",
        "could-not-check",
        &["fetch-timeout"],
        T0 + 2 * DAY,
    ))
    .unwrap();
    s
}

fn case_round_trip(t: &Target) {
    let mut s = fill(t);
    let all = s.list(&Filter::default()).unwrap();
    assert_eq!(all.iter().map(|l| l.id).collect::<Vec<_>>(), [3, 2, 1]);
    assert_eq!(
        all[1].errors,
        ["aca-claim-unsupported", "aca-content-digest-mismatch"]
    );
    // Each filter alone: the ids it selects, newest first.
    type SetFilter = fn(&mut Filter);
    let filtered: [(SetFilter, &[i64]); 7] = [
        (|f| f.spec = Some("aca".into()), &[2]),
        (|f| f.outcome = Some("verified".into()), &[1]),
        (|f| f.code = Some("fetch-timeout".into()), &[3]),
        (|f| f.subject = Some("e1.json".into()), &[1]),
        (|f| f.since = Some(T0 + DAY), &[3, 2]),
        (|f| f.until = Some(T0 + DAY), &[1]),
        (|f| f.limit = Some(1), &[3]),
    ];
    for (set, want) in filtered {
        let mut f = Filter::default();
        set(&mut f);
        let got: Vec<i64> = s.list(&f).unwrap().iter().map(|l| l.id).collect();
        assert_eq!(got, want, "{f:?}");
    }
    let sum = s.summary(&Filter::default()).unwrap();
    assert_eq!(sum.verifications, 3);
    assert_eq!(
        sum.by_outcome,
        [
            ("could-not-check".to_owned(), 1),
            ("not-verified".to_owned(), 1),
            ("verified".to_owned(), 1)
        ]
    );
    assert_eq!(
        sum.by_day.iter().map(|d| d.0.as_str()).collect::<Vec<_>>(),
        ["2026-05-01", "2026-05-02", "2026-05-03"]
    );
    assert_eq!(sum.by_day[0], ("2026-05-01".to_owned(), 1, 1));
    assert_eq!(sum.by_code.len(), 3);
    let sum = s
        .summary(&Filter {
            spec: Some("aca".into()),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(sum.verifications, 1);
    let got = s.get(2).unwrap().unwrap();
    assert_eq!(
        got.record.report["items"][0]["sources"][0]["excerpt"],
        "the sky is blue"
    );
    assert_eq!(got.record.documents[0].digest, "sha256:11");
    assert_eq!(s.find_input("sha256:input").unwrap(), Some(2));
    assert_eq!(s.find_input("sha256:other").unwrap(), None);
    assert_eq!(s.prior_uses("sha256:11").unwrap()[0].verification_id, 2);
    let check = s.verify_chain(None).unwrap();
    assert_eq!(check.broken, None, "{check:?}");
    assert_eq!(check.rows, 3);
    assert_eq!(check.head, s.head().unwrap());
    // A reading connection reads the same and cannot write.
    let mut r = store(t, Access::Read);
    assert_eq!(r.list(&Filter::default()).unwrap().len(), 3);
    assert!(r.record(&rec("aef", "x", "verified", &[], T0)).is_err());
    assert_eq!(
        store(t, Access::Read)
            .list(&Filter::default())
            .unwrap()
            .len(),
        3
    );
}

/// Each edit is applied to row 2 of a fresh 3-row store; the chain check must name row 2.
#[rustfmt::skip]
const EDITS: &[(&str, &str)] = &[
    ("spec", "UPDATE verification SET spec = 'aef' WHERE id = 2"),
    ("subject_kind", "UPDATE verification SET subject_kind = 'url' WHERE id = 2"),
    ("subject", "UPDATE verification SET subject = 'https://b.example/r' WHERE id = 2"),
    ("subject_digest", "UPDATE verification SET subject_digest = NULL WHERE id = 2"),
    ("verified_at", "UPDATE verification SET verified_at = verified_at + 1 WHERE id = 2"),
    ("recorded_at", "UPDATE verification SET recorded_at = recorded_at + 1 WHERE id = 2"),
    ("level", "UPDATE verification SET level = 2 WHERE id = 2"),
    ("required_level", "UPDATE verification SET required_level = 1 WHERE id = 2"),
    ("verified", "UPDATE verification SET verified = TRUE WHERE id = 2"),
    ("outcome", "UPDATE verification SET outcome = 'verified' WHERE id = 2"),
    ("input_key", "UPDATE verification SET input_key = NULL WHERE id = 2"),
    ("prev_hash", "UPDATE verification SET prev_hash = 'sha256:00' WHERE id = 2"),
    ("row_hash", "UPDATE verification SET row_hash = 'sha256:00' WHERE id = 2"),
    ("entry", "UPDATE record_entry SET entry = replace(entry, 'not-verified', 'verified') WHERE verification_id = 2"),
    ("incident code", "UPDATE incident SET code = 'x' WHERE verification_id = 2 AND seq = 0"),
    ("incident level", "UPDATE incident SET level = 3 WHERE verification_id = 2 AND seq = 0"),
    ("incident severity", "UPDATE incident SET severity = 'warning' WHERE verification_id = 2"),
    ("incident message", "UPDATE incident SET message = 'fine' WHERE verification_id = 2 AND seq = 1"),
    ("incident location", "UPDATE incident SET location = '{}' WHERE verification_id = 2 AND seq = 0"),
    ("incident deleted", "DELETE FROM incident WHERE verification_id = 2 AND seq = 1"),
    ("incident added", "INSERT INTO incident VALUES (2, 9, 2, 'x', 'error', 'm', '{}')"),
    ("document url", "UPDATE document_use SET url = 'https://c.example/m' WHERE verification_id = 2"),
    ("document digest", "UPDATE document_use SET digest = 'sha256:22' WHERE verification_id = 2"),
    ("document run", "UPDATE document_use SET run_id = NULL WHERE verification_id = 2"),
    ("document deleted", "DELETE FROM document_use WHERE verification_id = 2"),
    ("row deleted", "DELETE FROM incident WHERE verification_id = 2; DELETE FROM document_use WHERE verification_id = 2; DELETE FROM record_entry WHERE verification_id = 2; DELETE FROM verification WHERE id = 2"),
];

fn case_every_edit_is_found(fresh: &mut dyn FnMut() -> Target) {
    for (what, sql) in EDITS {
        let t = fresh();
        drop(fill(&t));
        t.exec(sql);
        let check = store(&t, Access::Read).verify_chain(None).unwrap();
        let broken = check
            .broken
            .unwrap_or_else(|| panic!("edit of {what} not found"));
        // A deleted row 2 shows as row 3 no longer following row 1.
        let expected = if *what == "row deleted" { 3 } else { 2 };
        assert_eq!(broken.id, expected, "{what}: {}", broken.reason);
    }
    // Reordering: rows 1 and 3 swap every column (ids stay, contents move).
    let t = fresh();
    drop(fill(&t));
    let cols = "spec, subject_kind, subject, subject_digest, verified_at, recorded_at, level, required_level, verified, outcome, input_key, prev_hash, row_hash";
    let set: Vec<String> = cols.split(", ").map(|c| format!("{c} = o.{c}")).collect();
    t.exec(&format!(
        "CREATE TABLE copy AS SELECT id, {cols} FROM verification;
         UPDATE verification SET {} FROM copy o WHERE o.id = CASE verification.id WHEN 1 THEN 3 WHEN 3 THEN 1 END AND verification.id IN (1, 3);
         CREATE TABLE ecopy AS SELECT * FROM record_entry;
         UPDATE record_entry SET entry = o.entry FROM ecopy o WHERE o.verification_id = CASE record_entry.verification_id WHEN 1 THEN 3 WHEN 3 THEN 1 END AND record_entry.verification_id IN (1, 3);",
        set.join(", ")
    ));
    let check = store(&t, Access::Read).verify_chain(None).unwrap();
    assert_eq!(check.broken.map(|b| b.id), Some(1), "reordering not found");
    // A level edited out of range: listing it is the same typed error on both backends, never
    // a level clamped or wrapped into range.
    for column in ["level", "required_level"] {
        let t = fresh();
        drop(fill(&t));
        t.exec(&format!(
            "UPDATE verification SET {column} = 300 WHERE id = 2"
        ));
        let err = store(&t, Access::Read)
            .list(&Filter::default())
            .unwrap_err();
        assert_eq!(err.code(), "audit-record", "{column}: {err}");
        assert!(
            err.to_string()
                .contains("verification 2 has a level of 300"),
            "{err}"
        );
    }
}

fn case_head_and_tail(fresh: &mut dyn FnMut() -> Target) {
    let t = fresh();
    let mut s = fill(&t);
    let head = s.head().unwrap().unwrap();
    assert_eq!((head.id, head.rows), (3, 3));
    let written_down = parse_head(&head.token()).unwrap();
    s.record(&rec("aef", "e2.json", "verified", &[], T0 + 3 * DAY))
        .unwrap();
    assert_eq!(s.verify_chain(Some(&written_down)).unwrap().broken, None);
    drop(s);
    // Cutting the tail (rows 3 and 4) leaves a valid chain, found only against the head.
    t.exec("DELETE FROM incident WHERE verification_id >= 3; DELETE FROM record_entry WHERE verification_id >= 3; DELETE FROM verification WHERE id >= 3");
    let mut s = store(&t, Access::Write);
    assert_eq!(s.verify_chain(None).unwrap().broken, None);
    let broken = s.verify_chain(Some(&written_down)).unwrap().broken.unwrap();
    assert_eq!(broken.id, 3);
    // Ids are never reused, and the next row chains to the deleted head: the cut shows.
    let next = s
        .record(&rec("aef", "e3.json", "verified", &[], T0))
        .unwrap();
    assert_eq!(next.id, 5);
    assert_eq!(s.verify_chain(None).unwrap().broken.map(|b| b.id), Some(5));
    assert_eq!(s.get(3).unwrap(), None);
    // A head with another hash for a present row: the chain was rewritten.
    let forged = parse_head(&format!("1:sha256:{}", "ab".repeat(32))).unwrap();
    assert_eq!(
        s.verify_chain(Some(&forged)).unwrap().broken.map(|b| b.id),
        Some(1)
    );
}

fn case_check_and_record_is_one_step(t: &Target) {
    drop(store(t, Access::Write));
    let threads = 8;
    let mut handles = Vec::new();
    for n in 0..threads {
        let name = t.name();
        handles.push(std::thread::spawn(move || {
            let mut s = open(&name, Access::Write).unwrap();
            let mut saw_earlier = false;
            s.append(&["sha256:same".into()], &mut |uses| {
                saw_earlier = !uses.is_empty();
                Ok(rec(
                    "aca",
                    &format!("https://a.example/{n}"),
                    "verified",
                    &[],
                    T0,
                )
                .with_documents(vec![DocumentUse {
                    url: "https://a.example/m".into(),
                    digest: "sha256:same".into(),
                    run_id: None,
                }]))
            })
            .unwrap();
            saw_earlier
        }));
    }
    let saw: Vec<bool> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(
        saw.iter().filter(|s| !**s).count(),
        1,
        "exactly one saw no earlier use: {saw:?}"
    );
    let mut s = store(t, Access::Read);
    assert_eq!(s.prior_uses("sha256:same").unwrap().len(), threads);
    assert_eq!(s.verify_chain(None).unwrap().broken, None);
}

fn case_refusals(fresh: &mut dyn FnMut() -> Target) {
    // A reading command on an empty database.
    let t = fresh();
    if let Target::Sqlite(p) = &t {
        assert_eq!(
            open(&t.name(), Access::Read).err().unwrap().code(),
            "audit-not-found"
        );
        std::fs::write(p, b"").unwrap();
    }
    assert_eq!(
        open(&t.name(), Access::Read).err().unwrap().code(),
        "audit-not-a-store"
    );
    // Another application's database: refused by readers and writers, left as it was.
    let t = fresh();
    t.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');");
    for access in [Access::Read, Access::Write] {
        let e = open(&t.name(), access).err().unwrap();
        assert_eq!(e.code(), "audit-not-a-store", "{e}");
    }
    let tables = match &t {
        Target::Sqlite(p) => {
            let c = rusqlite::Connection::open(p).unwrap();
            let mode: String = c
                .query_row("PRAGMA journal_mode", [], |r| r.get(0))
                .unwrap();
            assert_eq!(mode, "delete", "the journal mode was changed");
            c.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap()
        }
        Target::Postgres(url) => {
            let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
            c.query_one(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'",
                &[],
            )
            .unwrap()
            .get::<_, i64>(0)
        }
    };
    assert_eq!(
        tables, 1,
        "tables were added to another application's database"
    );
    // A newer schema: refused, data intact.
    let t = fresh();
    drop(fill(&t));
    match &t {
        Target::Sqlite(_) => t.exec("PRAGMA user_version = 3"),
        Target::Postgres(_) => {
            t.exec("UPDATE citeproof_audit SET value = '3' WHERE key = 'schema'")
        }
    }
    for access in [Access::Read, Access::Write] {
        let e = open(&t.name(), access).err().unwrap();
        assert!(matches!(e, AuditError::NewerSchema { found: 3, .. }), "{e}");
        assert_eq!(e.code(), "audit-schema-newer");
    }
}

fn case_list_is_indexed(t: &Target) {
    let mut s = store(t, Access::Write);
    // 20 000 rows in a handful of transactions would need a bulk API; one append each is the
    // real path, so the row count is smaller on PostgreSQL where each commit is a round trip.
    let n = if t.is_postgres() { 5_000 } else { 20_000 };
    for i in 0..n {
        let codes: &[&str] = if i % 3 == 0 {
            &["aca-claim-unsupported"]
        } else {
            &[]
        };
        let outcome = if codes.is_empty() {
            "verified"
        } else {
            "not-verified"
        };
        s.record(&rec(
            "aca",
            &format!("https://a.example/{i}"),
            outcome,
            codes,
            T0 + i,
        ))
        .unwrap();
    }
    let start = std::time::Instant::now();
    let all = s.list(&Filter::default()).unwrap();
    let listed = start.elapsed();
    assert_eq!(all.len(), usize::try_from(n).unwrap());
    let start = std::time::Instant::now();
    let failed = s
        .list(&Filter {
            code: Some("aca-claim-unsupported".into()),
            ..Filter::default()
        })
        .unwrap();
    let by_code = start.elapsed();
    assert_eq!(failed.len(), usize::try_from((n + 2) / 3).unwrap());
    let start = std::time::Instant::now();
    let sum = s.summary(&Filter::default()).unwrap();
    let summed = start.elapsed();
    assert_eq!(sum.verifications, u64::try_from(n).unwrap());
    eprintln!(
        "{}: {n} rows: list {listed:?}, list --code {by_code:?}, summary {summed:?}",
        t.name()
    );
    for d in [listed, by_code, summed] {
        assert!(d.as_secs_f64() < 1.0, "{d:?}");
    }
}

fn suite(fresh: &mut dyn FnMut() -> Target) {
    case_round_trip(&fresh());
    case_every_edit_is_found(fresh);
    case_head_and_tail(fresh);
    case_check_and_record_is_one_step(&fresh());
    case_refusals(fresh);
    case_list_is_indexed(&fresh());
}

#[test]
fn sqlite_suite() {
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    suite(&mut || {
        n += 1;
        common::fresh_sqlite(dir.path(), n)
    });
}

#[test]
fn postgres_suite() {
    let Some(server) = common::postgres_or_skip() else {
        return;
    };
    suite(&mut || Target::Postgres(server.fresh_url()));
}

#[test]
fn sqlite_only_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.db");
    std::fs::write(
        &garbage,
        b"this is not a database, it is a README ".repeat(200),
    )
    .unwrap();
    for access in [Access::Read, Access::Write] {
        let e = open(garbage.to_str().unwrap(), access).err().unwrap();
        assert_eq!(e.code(), "audit-not-a-database", "{e}");
    }
    assert_eq!(std::fs::read(&garbage).unwrap().len(), 39 * 200);
    // A store of the first layout (schema 1, no application id) is not adopted.
    let old = dir.path().join("old.db");
    let c = rusqlite::Connection::open(&old).unwrap();
    c.execute_batch("CREATE TABLE verification (id INTEGER PRIMARY KEY); PRAGMA user_version = 1;")
        .unwrap();
    drop(c);
    assert_eq!(
        open(old.to_str().unwrap(), Access::Write)
            .err()
            .unwrap()
            .code(),
        "audit-not-a-store"
    );
    // A truncated store is corrupt, and left as it was.
    let t = common::fresh_sqlite(dir.path(), 99);
    drop(fill(&t));
    let Target::Sqlite(p) = &t else {
        unreachable!()
    };
    let bytes = std::fs::read(p).unwrap();
    std::fs::write(p, &bytes[..bytes.len() / 2]).unwrap();
    let _ = std::fs::remove_file(p.with_extension("db-wal"));
    let e = open(p.to_str().unwrap(), Access::Read)
        .and_then(|mut s| s.verify_chain(None).map(|_| ()))
        .err()
        .unwrap();
    assert!(
        matches!(e.code(), "audit-corrupt" | "audit-not-a-database"),
        "{e}"
    );
}
