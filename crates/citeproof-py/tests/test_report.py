"""`citeproof.aca.verify_snapshot_report` builds its dict straight from the Rust report (no
JSON text in between): it must stay exactly `json.loads` of `citeproof aca verify --snapshot
FILE --json` on the same snapshot, member order, value types (`True` is not `1`) and all, on
verified, failing and unreadable snapshots; its containers are never shared, so a caller may
edit one item without touching another; and a thread verifying holds no GIL."""

from __future__ import annotations

import base64
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from citeproof import _native, aca
from citeproof.audit import AuditStore
from conftest import flip_source_byte, run_cli

NOW = _native.SYNTHETIC_NOW


def same(a: Any, b: Any, at: str = "") -> None:
    """`a` and `b` are the same JSON value with the same types at every node and the same
    member order in every object (plain `==` takes `True` for `1` and ignores order)."""
    assert type(a) is type(b), f"{at or '/'}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        assert list(a) == list(b), f"{at or '/'}: members {list(a)} != {list(b)}"
        for k in a:
            same(a[k], b[k], f"{at}/{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), f"{at or '/'}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{at}/{i}")
    else:
        assert a == b, f"{at or '/'}: {a!r} != {b!r}"


@pytest.fixture(scope="module")
def snapshot() -> str:
    return _native._synthetic_snapshot(300, 4)


def tampered(snapshot: str) -> str:
    """One byte of a cited source changed and the run's signed manifest re-served under an
    unpublished key id: claim, source and Level 3 failures, judged by the verifier alone."""
    snap = json.loads(snapshot)
    flip_source_byte(snap, 1)
    manifest = snap["resources"]["https://agent.example/runs/r/manifest/0"]
    manifest["headers"] = [[n, v.replace('keyid="bench"', 'keyid="other"')]
                           for n, v in manifest["headers"]]
    return json.dumps(snap)


def cli_report(tmp_path: Path, snapshot: str | bytes) -> dict[str, Any]:
    path = tmp_path / "snapshot.json"
    path.write_bytes(snapshot.encode() if isinstance(snapshot, str) else snapshot)
    out = run_cli("aca", "verify", "--snapshot", str(path), "--now", str(NOW), "--json")
    assert out.stdout, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("case", ["verified", "tampered", "incomplete", "not-json", "not-utf8"])
def test_the_report_is_the_clis_json_exactly(tmp_path: Path, snapshot: str, case: str) -> None:
    given: str | bytes = {
        "verified": snapshot,
        "tampered": tampered(snapshot) if case == "tampered" else "",
        "incomplete": '{"snapshot_version": 1}',
        "not-json": "{",
        "not-utf8": b'{"snapshot_version": 1, "response": "\xff"}',
    }[case]
    from_cli = cli_report(tmp_path, given)
    from_py = aca.verify_snapshot_report(given, now=NOW)
    same(from_py, from_cli)
    assert json.dumps(from_py) == json.dumps(from_cli)
    expected_ok = case == "verified"
    assert from_py["ok"] is expected_ok and from_py["verified"] is expected_ok
    if case == "verified":
        assert from_py["level"] == 3 and len(from_py["items"][0]["items"]) == 300
    if case == "tampered":
        codes = {i["code"] for i in from_py["incidents"]}
        assert {"aca-source-hash-mismatch", "aca-key-unresolved"} <= codes, codes
        assert from_py["manifests"][0]["signature"]["status"] == "failed"


def test_str_bytes_and_dict_give_the_same_report(snapshot: str) -> None:
    from_str = aca.verify_snapshot_report(snapshot, now=NOW)
    for given in (snapshot.encode(), bytearray(snapshot.encode()),
                  memoryview(snapshot.encode()), json.loads(snapshot)):
        same(aca.verify_snapshot_report(given, now=NOW), from_str)
    with pytest.raises(TypeError):
        _native.aca_report(12, NOW, None, False)


def test_containers_are_never_shared(snapshot: str) -> None:
    report = aca.verify_snapshot_report(snapshot, now=NOW)
    seen: set[int] = set()
    held: list[Any] = []  # keeps every container alive, so that no id() is reused

    def walk(v: Any) -> None:
        if isinstance(v, (dict, list)):
            assert id(v) not in seen, "one container appears twice in the report"
            seen.add(id(v))
            held.append(v)
            for x in (v.values() if isinstance(v, dict) else v):
                walk(x)

    walk(report)
    claims = report["items"][0]["items"]
    claims[0]["sources"][0]["url"] = "https://elsewhere.example/"
    assert claims[4]["sources"][0]["url"] == "https://sources.example/doc/0"
    assert aca.verify_snapshot_report(snapshot, now=NOW)["items"][0]["items"][0]["sources"][0]["url"] \
        == "https://sources.example/doc/0"


def test_record_aca_snapshot_returns_the_same_report(tmp_path: Path, snapshot: str) -> None:
    with AuditStore(tmp_path / "audit.db") as store:
        report, head = store.record_aca_snapshot(snapshot.encode(), now=NOW)
    same(report, aca.verify_snapshot_report(snapshot, now=NOW))
    assert head["id"] == 1


def test_a_verifying_thread_holds_no_gil() -> None:
    big = _native._synthetic_snapshot(3000, 4)
    done = threading.Event()
    ticks = 0

    def verify() -> None:
        aca.verify_snapshot_report(big, now=NOW)
        done.set()

    t = threading.Thread(target=verify)
    start = time.perf_counter()
    t.start()
    while not done.is_set():
        ticks += 1  # pure Python: runs only while the other thread does not hold the GIL
    t.join()
    elapsed = time.perf_counter() - start
    # The verification takes tens of milliseconds at least; a thread holding the GIL all that
    # time would let this loop run only in the few switch intervals (5 ms) around it.
    assert elapsed > 0.02
    assert ticks > 1000 * (elapsed / 0.005), (ticks, elapsed)


def test_threads_of_one_run_share_a_ledger() -> None:
    """Ledger methods run without the GIL, one at a time: parallel tool calls of one agent run
    capture and register into one ledger without a borrow error or a lost claim."""
    from citeproof import ledger

    run = ledger.Ledger("run-threads-1", clock_start=1_777_370_400)
    page = b"".join(b"Fact %d holds for block %d.\n" % (i, i) for i in range(2000))
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(25):
                call = run.tool_call("web_fetch", {"url": f"https://docs.example/{n}/{i}"})
                cap = run.capture(call, f"https://docs.example/{n}/{i}", page)
                k = n * 25 + i
                run.register(f"Fact {k} holds.", capture=cap, quote=f"Fact {k} holds for block {k}.")
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    coverage = run.audit_coverage()
    assert coverage["total_claims"] == 100 and coverage["is_compliant"] is True
    manifest = run.build_manifest("threads/v1")
    assert aca.validate_manifest(manifest).valid
    assert len(manifest["claims"]) == 100


def test_non_ascii_and_escaped_strings_are_the_clis(tmp_path: Path) -> None:
    """Claim text with non-ASCII characters, an astral-plane emoji, a NUL, a tab, quotes and a
    backslash (re-signed with the synthetic run's key): the dict's strings are the ones the
    CLI's JSON escapes and json.loads decodes."""
    import citeproof

    snap = json.loads(_native._synthetic_snapshot(3, 2))
    url = "https://agent.example/runs/r/manifest/0"
    manifest = json.loads(base64.b64decode(snap["resources"][url]["body_base64"]))
    manifest["claims"][0]["text"] = 'Record 0.0 — é ✓ 🎉 \u0000 tab\t "quoted" \\ back\u2028'
    key = citeproof.SigningKey.from_secret_bytes(bytes([42] * 32))
    signed = aca.sign_manifest(manifest, key, keyid="bench", created=1777370460,
                               allow_invalid=True)
    snap["resources"][url] = aca.stored_response(signed)
    given = json.dumps(snap, ensure_ascii=False)
    from_cli = cli_report(tmp_path, given)
    from_py = aca.verify_snapshot_report(given, now=NOW)
    same(from_py, from_cli)
    texts = [c.get("text") for c in from_py["items"][0]["items"]]
    assert manifest["claims"][0]["text"] in texts


def test_a_duplicate_member_fails_the_verdict_as_in_the_cli(snapshot: str, tmp_path: Path) -> None:
    """A snapshot whose text repeats a member: a lenient parse keeps the last one and verifies,
    the CLI refuses the snapshot. The verdict path (`verify_snapshot`) reads the text as the CLI
    does, so it may not say valid where the CLI says not verified."""
    assert aca.verify_snapshot(snapshot, now=NOW, required_level=3).valid
    repeated = '{"snapshot_version": 1, ' + snapshot.lstrip()[1:]
    path = tmp_path / "repeated.json"
    path.write_text(repeated)
    out = run_cli("aca", "verify", "--snapshot", str(path), "--now", str(NOW), "--json")
    assert out.returncode != 0, out.stdout
    cli_codes = {i["code"] for i in json.loads(out.stdout)["incidents"]}
    assert "fetch-snapshot-invalid" in cli_codes, cli_codes
    for given in (repeated, repeated.encode()):
        verdict = aca.verify_snapshot(given, now=NOW, required_level=3)
        assert not verdict.valid
        assert "fetch-snapshot-invalid" in verdict.errors, verdict.errors
    report = aca.verify_snapshot_report(repeated, now=NOW)
    assert report["ok"] is False
