"""`citeproof.archive.gate` against `citeproof archive gate` on the fixture archive the CLI's own
tests use (vectors/fixtures/archive): the same key and time give the same signed bundle, display
view and log line (Ed25519 is deterministic); the result verifies in Python and with the CLI; a
claim tampered by one byte fails both with the same codes; a refusal carries the code the CLI
prints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof import archive
from citeproof.errors import GateError, InvalidDocumentError, InvalidInputError
from citeproof.keys import jwk_set
from conftest import run_cli

SIGNED_AT = 1778925601  # 2026-05-16T10:00:01Z, as in crates/citeproof-cli/tests/archive_cli.rs
NOW = 1778925900  # 2026-05-16T10:05:00Z
SIGNER = "archive.example"
KID = "archive-2026"


@pytest.fixture(scope="module")
def fixtures(root: Path) -> Path:
    return root / "vectors" / "fixtures" / "archive"


@pytest.fixture()
def work(tmp_path: Path) -> tuple[Path, citeproof.SigningKey]:
    key = citeproof.SigningKey.generate()
    (tmp_path / "private.pem").write_text(key.private_pem())
    (tmp_path / "jwks.json").write_text(json.dumps(jwk_set({KID: key})))
    return tmp_path, key


def cli_gate(fixtures: Path, d: Path, request: Path, *extra: str) -> Any:
    return run_cli("archive", "gate", str(request), "--archive", str(fixtures / "archive.json"),
                   "--kid", KID, "--signed-by", SIGNER, "--now", str(SIGNED_AT),
                   "--bundle", str(d / "cli-bundle.json"), "--display", str(d / "cli-display.json"),
                   "--json", *extra)


def cli_verify(fixtures: Path, d: Path, bundle: Path, display: Path) -> dict[str, Any]:
    out = run_cli("archive", "verify", str(bundle), str(display),
                  "--archive", str(fixtures / "archive.json"),
                  "--keys", f"{SIGNER}={d / 'jwks.json'}", "--now", str(NOW), "--json")
    assert out.stdout, out.stderr
    report = json.loads(out.stdout)
    assert out.returncode == (0 if report["ok"] else 1), out.stderr
    return report


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def error_codes(report: dict[str, Any]) -> set[str]:
    return {i["code"] for i in report["incidents"] if i["severity"] == "error"}


def test_gate_equals_the_cli_and_verifies(fixtures: Path, work) -> None:
    d, key = work
    arch = json.loads((fixtures / "archive.json").read_text())
    gated = archive.gate((fixtures / "request.json").read_bytes(), archive=arch,
                         signed_by=SIGNER, kid=KID, now=SIGNED_AT, key=key, log="")
    # The rungs the CLI's own test expects of this request.
    rungs = dict(gated["rungs"])
    assert (rungs["c3"], rungs["c4"], rungs["c5"]) == ("labeled", "supported", "narrowed")

    out = cli_gate(fixtures, d, fixtures / "request.json", "--key", str(d / "private.pem"),
                   "--log", str(d / "cli.log"))
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["ok"] is True
    assert gated["bundle_hash"] == cli["bundle_hash"]
    assert [list(r) for r in gated["rungs"]] == cli["rungs"]
    assert gated["bundle"] == json.loads((d / "cli-bundle.json").read_text())
    assert gated["display"] == json.loads((d / "cli-display.json").read_text())
    assert gated["log_line"] == (d / "cli.log").read_text()

    (d / "bundle.json").write_text(json.dumps(gated["bundle"]))
    (d / "display.json").write_text(json.dumps(gated["display"]))
    keys = {SIGNER: json.loads((d / "jwks.json").read_text())}
    verdict = archive.verify(gated["bundle"], gated["display"], archive=arch, now=NOW, keys=keys)
    assert verdict.valid, verdict.errors
    report = cli_verify(fixtures, d, d / "bundle.json", d / "display.json")
    assert report["ok"] is True and error_codes(report) == set()

    # One byte of one claim's text changed: both refuse, with the same codes.
    bundle = json.loads((d / "bundle.json").read_text())
    text = bundle["claims"][0]["text"]
    bundle["claims"][0]["text"] = text[:-1] + ("," if text[-1] != "," else ";")
    (d / "tampered.json").write_text(json.dumps(bundle))
    verdict = archive.verify(bundle, gated["display"], archive=arch, now=NOW, keys=keys)
    report = cli_verify(fixtures, d, d / "tampered.json", d / "display.json")
    assert not verdict.valid and report["ok"] is False
    assert "archive-signature-invalid" in verdict.errors
    assert set(verdict.errors) == error_codes(report)


def test_gate_with_a_shared_secret_and_a_category_refusal(fixtures: Path, work) -> None:
    d, _ = work
    arch = json.loads((fixtures / "archive.json").read_text())
    request = {"response_id": "r-2026-05-16-002", "requester": "req-7f3a", "tier": "researcher",
               "category_refusal": "post-death-events"}
    (d / "refusal.json").write_text(json.dumps(request))
    (d / "secret").write_text("correct horse battery staple\n")
    gated = archive.gate(request, archive=arch, signed_by=SIGNER, kid="hmac-1", now=SIGNED_AT,
                         secret=b"correct horse battery staple")
    out = run_cli("archive", "gate", str(d / "refusal.json"), "--archive",
                  str(fixtures / "archive.json"), "--kid", "hmac-1", "--signed-by", SIGNER,
                  "--now", str(SIGNED_AT), "--secret-file", str(d / "secret"),
                  "--bundle", str(d / "b.json"), "--display", str(d / "v.json"), "--json")
    assert out.returncode == 0, out.stderr
    assert gated["bundle"] == json.loads((d / "b.json").read_text())
    secrets = {SIGNER: {"hmac-1": b"correct horse battery staple"}}
    assert archive.verify(gated["bundle"], gated["display"], archive=arch, now=NOW,
                          secrets=secrets).valid
    wrong = {SIGNER: {"hmac-1": b"another secret"}}
    verdict = archive.verify(gated["bundle"], gated["display"], archive=arch, now=NOW,
                             secrets=wrong)
    assert not verdict.valid and "archive-signature-invalid" in verdict.errors


def test_refusals_carry_the_code_the_cli_prints(fixtures: Path, work) -> None:
    d, key = work
    arch = (fixtures / "archive.json").read_text()
    request = json.loads((fixtures / "request.json").read_text())
    span = request["claims"][1]["citations"][0]["span"]
    span["char_end"] = 10_000_000
    (d / "broken.json").write_text(json.dumps(request))
    with pytest.raises(GateError) as e:
        archive.gate(request, archive=arch, signed_by=SIGNER, kid=KID, now=SIGNED_AT, key=key)
    assert e.value.location == "/claims/1/citations/0"
    out = cli_gate(fixtures, d, d / "broken.json", "--key", str(d / "private.pem"))
    assert out.returncode == 1
    assert f"[{e.value.code}]" in out.stdout + out.stderr, (e.value.code, out.stderr)
    assert e.value.code.startswith("archive-span-")

    request = json.loads((fixtures / "request.json").read_text())
    request["tier"] = "stranger"
    with pytest.raises(GateError) as e:
        archive.gate(request, archive=arch, signed_by=SIGNER, kid=KID, now=SIGNED_AT, key=key)
    assert (e.value.code, e.value.location) == ("archive-tier-unknown", "/tier")

    # Signed before the request was created: refused, nothing signed.
    request = json.loads((fixtures / "request.json").read_text())
    with pytest.raises(GateError) as e:
        archive.gate(request, archive=arch, signed_by=SIGNER, kid=KID, now=SIGNED_AT - 3600,
                     key=key)
    assert e.value.code == "archive-time-invalid"

    with pytest.raises(InvalidDocumentError) as e:
        archive.gate({"response_id": "r"}, archive=arch, signed_by=SIGNER, kid=KID,
                     now=SIGNED_AT, key=key)
    assert e.value.code == "schema-violation"
    with pytest.raises(InvalidInputError):
        archive.gate(request, archive=arch, signed_by=SIGNER, kid=KID, now=SIGNED_AT)
    # Bytes that are not UTF-8 are refused, never repaired into a request that gets signed.
    raw = (fixtures / "request.json").read_bytes().replace(b"She had", b"She \xff had", 1)
    with pytest.raises(InvalidDocumentError) as e:
        archive.gate(raw, archive=arch, signed_by=SIGNER, kid=KID, now=SIGNED_AT, key=key)
    out = cli_gate(fixtures, d, write(d / "raw.json", raw), "--key", str(d / "private.pem"))
    assert out.returncode == 1 and f"[{e.value.code}]" in out.stderr, (e.value.code, out.stderr)
    with pytest.raises(InvalidDocumentError):
        archive.gate(request, archive=arch, signed_by=SIGNER, kid=KID, now=SIGNED_AT, key=key,
                     log="not a log\n")
