"""`citeproof.audit.AuditStore` against `citeproof audit --db FILE`: verifications recorded from
Python are listed, counted and chain-verified alike by the CLI; a row edited behind the store's
back (with the `sqlite3` module) is found by both; the ACA reuse check runs in the record's
transaction as with `aca verify --record`."""

from __future__ import annotations

import base64
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof import _native, aca
from citeproof.audit import AuditStore
from citeproof.errors import AuditError, InvalidInputError
from conftest import flip_source_byte, run_cli

NOW = _native.SYNTHETIC_NOW


@pytest.fixture(scope="module")
def snapshot() -> str:
    return _native._synthetic_snapshot(3, 2)


def tampered(snapshot: str) -> str:
    """The snapshot with one byte of a cited source changed (its hash no longer matches the
    manifest's): found by the verifier, never by this test's own judgement."""
    snap = json.loads(snapshot)
    flip_source_byte(snap, 0)
    return json.dumps(snap)


def served_again(snapshot: str, response_url: str) -> str:
    """The snapshot with its manifest re-signed without `response_url` (the bench key of the
    synthetic run), the answer served at `response_url`: the same signed manifest can then be
    cited by two responses, which only the store can see (ACA-L2-022)."""
    snap = json.loads(snapshot)
    url = "https://agent.example/runs/r/manifest/0"
    manifest = json.loads(base64.b64decode(snap["resources"][url]["body_base64"]))
    del manifest["response_url"]
    key = citeproof.SigningKey.from_secret_bytes(bytes([42] * 32))
    signed = aca.sign_manifest(manifest, key, keyid="bench", created=1777370460)
    snap["resources"][url] = aca.stored_response(signed)
    snap["response"]["url"] = response_url
    return json.dumps(snap)


def cli_audit(db: Path, *args: str) -> tuple[int, dict[str, Any]]:
    out = run_cli("audit", "--db", str(db), *args, "--json")
    assert out.stdout, out.stderr
    return out.returncode, json.loads(out.stdout)


def test_record_list_verify_and_the_cli_agrees(tmp_path: Path, snapshot: str) -> None:
    db = tmp_path / "audit.db"
    good = aca.verify_snapshot_report(snapshot, now=NOW)
    bad = aca.verify_snapshot_report(tampered(snapshot), now=NOW)
    assert good["ok"] is True and good["outcome"] == "verified"
    assert bad["ok"] is False and bad["outcome"] == "not-verified"
    with AuditStore(db) as store:
        assert store.head() is None
        first = store.record(good, verified_at=NOW)
        second = store.record(bad, verified_at=NOW + 1)
        assert (first["id"], second["id"]) == (1, 2) and second["rows"] == 2
        assert [v["id"] for v in store.list(verdict="verified")] == [1]
        failed = store.list(verdict="not-verified")
        assert [v["id"] for v in failed] == [2]
        assert failed[0]["errors"] == [i["code"] for i in bad["incidents"]
                                       if i["severity"] == "error"]
        assert [v["id"] for v in store.list()] == [2, 1]  # newest first
        assert store.list(failed=True) == failed
        assert [v["id"] for v in store.list(since=NOW + 1)] == [2]
        summary = store.summary()
        assert (summary["verifications"], summary["verified"]) == (2, 1)
        stored = store.get(1)
        assert stored is not None and store.get(3) is None
        # The report is stored without the `--json` envelope, as the CLI records it.
        expected = {k: v for k, v in good.items() if k not in ("command", "ok")}
        assert stored["record"]["report"] == expected
        assert stored["row_hash"] == first["hash"]
        check = store.verify_chain(head=first)
        assert check["broken"] is None and check["rows"] == 2
        head = store.head()
        assert head == second
        # A head that is not the store's: rewritten, or rows deleted.
        assert store.verify_chain(f"1:sha256:{'0' * 64}")["broken"]["id"] == 1
        assert store.verify_chain(f"9:{second['hash']}")["broken"]["id"] == 9

    code, listed = cli_audit(db, "list")
    assert code == 0
    assert [(v["id"], v["outcome"]) for v in listed["verifications"]] == [
        (2, "not-verified"), (1, "verified")]
    code, check = cli_audit(db, "verify", "--head", head["token"])
    assert code == 0 and check["ok"] is True and check["broken"] is None
    assert check["head"]["hash"] == head["hash"] and check["rows"] == 2
    code, shown = cli_audit(db, "show", "1")
    assert shown["outcome"] == "verified"

    # A row edited behind the store's back: the outcome of the failed verification rewritten.
    with sqlite3.connect(db) as con:
        con.execute("UPDATE verification SET outcome = 'verified', verified = 1 WHERE id = 2")
    with AuditStore(db, read_only=True) as store:
        check = store.verify_chain()
    assert check["broken"] is not None and check["broken"]["id"] == 2
    code, cli_check = cli_audit(db, "verify")
    assert code == 1 and cli_check["ok"] is False
    assert cli_check["broken"] == check["broken"]


def test_the_record_of_an_edited_entry_is_found(tmp_path: Path, snapshot: str) -> None:
    db = tmp_path / "audit.db"
    with AuditStore(db) as store:
        store.record(aca.verify_snapshot_report(snapshot, now=NOW), verified_at=NOW)
        store.record(aca.verify_snapshot_report(snapshot, now=NOW), verified_at=NOW)
    with sqlite3.connect(db) as con:
        (entry,) = con.execute(
            "SELECT entry FROM record_entry WHERE verification_id = 1").fetchone()
        assert '"verified_at":%d' % NOW in entry
        con.execute("UPDATE record_entry SET entry = ? WHERE verification_id = 1",
                    (entry.replace('"verified_at":%d' % NOW, '"verified_at":%d' % (NOW + 5)),))
    with AuditStore(db) as store:
        broken = store.verify_chain()["broken"]
    assert broken is not None and broken["id"] == 1
    code, cli_check = cli_audit(db, "verify")
    assert code == 1 and cli_check["broken"] == broken


def test_reuse_is_judged_in_the_record_transaction(tmp_path: Path, snapshot: str) -> None:
    db = tmp_path / "audit.db"
    first = served_again(snapshot, "https://agent.example/runs/r")
    again = served_again(snapshot, "https://agent.example/runs/another")
    (tmp_path / "again.json").write_text(again)
    assert aca.verify_snapshot_report(again, now=NOW)["ok"] is True  # alone, it verifies
    with AuditStore(tmp_path / "alone.db") as store:
        report, head = store.record_aca_snapshot(first, now=NOW)
        assert report == aca.verify_snapshot_report(first, now=NOW)  # no history: the same
        assert report["ok"] is True and head["id"] == 1
    with AuditStore(db) as store:
        # Recorded from a report: its manifest is kept by digest, so the next one sees it.
        head = store.record(aca.verify_snapshot_report(first, now=NOW), verified_at=NOW)
        assert head["id"] == 1
        report, head = store.record_aca_snapshot(again, now=NOW)
        assert store.get(head["id"])["record"]["report"]["outcome"] == "not-verified"
    codes = [i["code"] for i in report["incidents"]]
    assert "aca-manifest-reused" in codes and report["ok"] is False, codes
    code, listed = cli_audit(db, "list", "--verdict", "not-verified")
    assert [v["id"] for v in listed["verifications"]] == [head["id"]]
    # The CLI, recording into the same store, sees what Python recorded.
    out = run_cli("aca", "verify", "--snapshot", str(tmp_path / "again.json"), "--now", str(NOW),
                  "--record", str(db), "--json")
    cli = json.loads(out.stdout)
    assert out.returncode == 1 and "aca-manifest-reused" in [i["code"] for i in cli["incidents"]]


def test_refusals_and_threads(tmp_path: Path, snapshot: str) -> None:
    with pytest.raises(AuditError) as e:
        AuditStore(tmp_path / "missing.db", read_only=True)
    assert e.value.code == "audit-not-found"
    (tmp_path / "text.db").write_text("not a database at all, just some text\n" * 100)
    with pytest.raises(AuditError) as e:
        AuditStore(tmp_path / "text.db")
    assert e.value.code == "audit-not-a-database"
    store = AuditStore(tmp_path / "audit.db")
    good = aca.verify_snapshot_report(snapshot, now=NOW)
    for broken in ({"spec": "aca"}, {**good, "ok": not good["ok"]},
                   {**good, "outcome": "maybe"}):
        with pytest.raises(AuditError) as e:
            store.record(broken, verified_at=NOW)
        assert e.value.code == "audit-record"
    assert store.head() is None  # nothing stored by a refused record
    with pytest.raises(InvalidInputError):
        store.list(verdict="ok")

    # Threads sharing one store: every record lands, the chain holds.
    def work() -> None:
        for _ in range(5):
            store.record(good, verified_at=NOW)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.verify_chain() == {**store.verify_chain(), "rows": 20, "broken": None}
    store.close()
    with pytest.raises(AuditError) as e:
        store.head()
    assert e.value.code == "audit-closed"
