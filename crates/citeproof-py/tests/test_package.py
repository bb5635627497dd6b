"""The package on its own: import, help, errors, and results checked against independent
derivations (hashlib, hand-computed RFC 8785 forms), never against the package itself."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

import citeproof
from citeproof import aca, canon, chain, ledger
from citeproof.errors import InvalidDocumentError, KeyFormatError, LedgerError


def test_import_and_help_touch_no_network() -> None:
    script = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    raise AssertionError('network touched at import')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "import citeproof, io, contextlib, pydoc\n"
        "text = pydoc.render_doc(citeproof, renderer=pydoc.plaintext)\n"
        "assert 'verify_snapshot_report' in pydoc.render_doc(citeproof.aca, renderer=pydoc.plaintext)\n"
        "assert 'Ledger' in text and 'CiteproofError' in text\n"
        "assert 'record_aca_snapshot' in pydoc.render_doc(citeproof.audit, renderer=pydoc.plaintext)\n"
        "assert 'GateError' in pydoc.render_doc(citeproof.archive.gate, renderer=pydoc.plaintext)\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_canonical_form_and_hashes_match_independent_derivations() -> None:
    # RFC 8785 §3.2.3 ordering by UTF-16 code units; numbers in ECMAScript form (hand-derived).
    assert canon.canonicalize('{"b": 1, "a": [1.0, 2e1], "\\u00e9": "x"}') == '{"a":[1,20],"b":1,"é":"x"}'
    data = b"line one\r\nline two\r\n"
    assert canon.hash_bytes(data) == "sha256:" + hashlib.sha256(data).hexdigest()
    assert canon.hash_aef_text(data) == "sha256:" + hashlib.sha256(b"line one\nline two").hexdigest()


def test_errors_carry_code_and_location() -> None:
    with pytest.raises(InvalidDocumentError) as e:
        canon.canonicalize('{"a": 1, "a": 2}')
    assert e.value.code == "json-duplicate-member"
    with pytest.raises(InvalidDocumentError) as e:
        canon.hash_aef_text(b"\xff")
    assert e.value.code == "canon-text-not-utf8"
    with pytest.raises(KeyFormatError) as e:
        citeproof.load_key({"kty": "OKP", "crv": "Ed25519", "x": "AAAA"})
    assert e.value.code.startswith("jwk-")
    assert isinstance(e.value, citeproof.CiteproofError)


def test_a_check_input_is_read_strictly_as_the_adapter_reads_it() -> None:
    """A repeated member in a check's input is refused, never resolved "last wins" (the
    adapter's strict reader refuses the same line); json.dumps cannot write one, the native
    entry point can be handed one."""
    from citeproof import _native
    from citeproof.errors import InvalidInputError

    with pytest.raises(InvalidInputError) as e:
        _native.check("hash-bytes", '{"data_base64": "AA==", "data_base64": "AQ=="}')
    assert "json-duplicate-member" in str(e.value)
    with pytest.raises(InvalidInputError):
        _native.aca_verify_snapshot(b"{}", '{"now": 1, "now": 2}')
    assert json.loads(_native.check("hash-bytes", '{"data_base64": "AA=="}'))["result"] == "valid"


def test_ledger_offsets_hashes_and_gate() -> None:
    body = "Intro.\nThe sky is blue at noon.\nMore text.\n".encode()
    quote = "The sky is blue at noon."
    lg = ledger.Ledger("run-test-1", clock_start=1_700_000_000)
    call = lg.tool_call("web_fetch", {"url": "https://docs.example/sky"})
    cap = lg.capture(call, "https://docs.example/sky", body)
    cid = lg.register(quote, capture=cap, quote=quote)
    manifest = lg.build_manifest("test.agent/v1")
    (claim,) = manifest["claims"]
    assert claim["claim_id"] == cid
    (src,) = claim["sources"]
    start, end = src["excerpt_offset"]
    assert body[start:end] == quote.encode()
    assert src["hash"] == "sha256:" + hashlib.sha256(body).hexdigest()
    assert src["excerpt_hash"] == "sha256:" + hashlib.sha256(quote.encode()).hexdigest()
    assert aca.validate_manifest(manifest).valid
    assert lg.audit_coverage()["coverage_score"] == 1.0
    # An uncited claim that requires attribution closes the strict gate.
    lg.register("The sea is green.")
    cov = lg.audit_coverage()
    assert (cov["required_claims"], cov["cited_claims"], cov["is_compliant"]) == (2, 1, False)
    assert cov["uncited_claims"] == ["The sea is green."]
    with pytest.raises(LedgerError) as e:
        lg.gate()
    assert e.value.code == "ledger-coverage-below-threshold"
    # Lenient at 0.5 lets it through; the audit records and export verify with the package.
    lenient = ledger.Ledger("run-test-2", mode="lenient", threshold=0.5, clock_start=1_700_000_000)
    call = lenient.tool_call("web_fetch", {"url": "https://docs.example/sky"})
    cap = lenient.capture(call, "https://docs.example/sky", body)
    lenient.register(quote, capture=cap, quote=quote)
    lenient.register("The sea is green.")
    doc = lenient.to_document()
    log = lenient.export_audit_log()
    assert len(log.splitlines()) == 2 and all(json.loads(x)["ledger_id"] for x in log.splitlines())
    verdict = ledger.verify(doc, log, api=lenient.export_for_api())
    assert verdict.valid, verdict
    assert ledger.audit(log).output["ledgers"][0]["cited_claims"] == 1


def test_signed_manifest_verifies_and_a_rebinding_is_refused() -> None:
    key = citeproof.SigningKey.from_secret_bytes(bytes(range(32)))
    lg = ledger.Ledger("run-test-3", clock_start=1_700_000_000)
    call = lg.tool_call("web_fetch", {"url": "https://docs.example/a"})
    cap = lg.capture(call, "https://docs.example/a", b"Water boils at 100 C at sea level.")
    lg.register("Water boils at 100 C at sea level.", capture=cap, quote="Water boils at 100 C at sea level.")
    manifest = lg.build_manifest("test.agent/v1")
    signed = aca.sign_manifest(manifest, key, keyid="k1", created=1_700_000_100,
                               response_url="https://agent.example/r/1")
    names = [h[0] for h in signed["headers"]]
    assert names == ["content-type", "content-digest", "signature-input", "signature"]
    assert json.loads(signed["body"])["response_url"] == "https://agent.example/r/1"
    with pytest.raises(citeproof.SignError) as e:
        aca.sign_manifest(json.loads(signed["body"]), key, keyid="k1", created=1,
                          response_url="https://agent.example/r/2")
    assert e.value.code == "aca-response-url-mismatch" and e.value.location == "/response_url"
    with pytest.raises(InvalidDocumentError):
        aca.sign_manifest({"claims": []}, key, keyid="k1", created=1)
    # RFC 9421 verification of the signed response with the published key.
    message = "HTTP/1.1 200 OK\r\n" + "".join(f"{n}: {v}\r\n" for n, v in signed["headers"]) + "\r\n"
    message += signed["body"].decode()
    keys = citeproof.keys.jwk_set({"k1": key})
    assert aca.verify_http_message(message, keys=keys, now=1_700_000_200).valid
    tampered = message.replace("test.agent/v1", "evil.agent/v1")
    assert not aca.verify_http_message(tampered, keys=keys, now=1_700_000_200).valid


def test_chain_claim_id_and_signature_round_trip() -> None:
    fields = {"vertical": "geo", "subject": "Acme", "predicate": "founded_in", "object": "1999"}
    claim = {**fields, "sources": [{"url": "https://acme.example/about", "title": "About Acme"}]}
    cid = chain.claim_id(**fields)
    assert len(cid) == 16 and chain.claim_id_check(claim).output == {"id": cid}
    signed = chain.sign(claim, signed_by="did:web:acme.example", signed_at="2026-01-01T00:00:00Z",
                        secret=b"a-shared-secret-of-enough-length!")
    assert signed["claim_id"] == cid
    ok = chain.verify(signed["envelope"], now=1_767_225_700, required_level=1,
                      secrets={"did:web:acme.example": [b"a-shared-secret-of-enough-length!"]})
    assert ok.valid and ok.output["verdicts"][cid] == "verified"
    wrong = chain.verify(signed["envelope"], now=1_767_225_700, required_level=1,
                         secrets={"did:web:acme.example": [b"another-secret-of-enough-length!!"]})
    assert not wrong.valid


def test_the_wheel_installs_into_a_fresh_virtual_environment(root, tmp_path) -> None:
    import glob
    import os
    wheel = os.environ.get("CITEPROOF_WHEEL") or next(iter(sorted(glob.glob(str(root / "target/wheels/citeproof-*.whl")))), None)
    assert wheel, "no wheel: `cargo xtask test` builds one (or set CITEPROOF_WHEEL)"
    assert "-abi3-" in os.path.basename(wheel), wheel
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = str(venv / "bin" / "python")
    subprocess.run([py, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", wheel],
                   check=True, timeout=300)
    out = subprocess.run([py, "-c", "import citeproof; help(citeproof); print(citeproof.__version__)"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "citeproof.aca" in out.stdout and out.stdout.strip().endswith(citeproof.__version__)
