"""The example agent (examples/python-agent): served on loopback, verified at Level 3 by the
`citeproof` CLI (an independent consumer: the binary, over HTTP), a tampered copy refused; its
ledger, audit records and AEF evidence verified; OpenAI `url_citation` annotations converted
offline; and the package's ACA report equal to the CLI's `--json` on the same snapshot."""

from __future__ import annotations

import hashlib
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import citeproof
from citeproof import aca, aef, ledger
from conftest import run_cli

import agent as agent_mod  # examples/python-agent/agent.py
import frameworks


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    audit = tmp_path_factory.mktemp("agent") / "audit.jsonl"
    server, agent = agent_mod.serve(0, citeproof.SigningKey.generate(), audit)
    yield agent, audit
    server.shutdown()


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as r:  # loopback only
        return r.read()


def ask(agent: agent_mod.Agent, question: str) -> dict[str, Any]:
    return json.loads(get(f"{agent.base}/ask?q={question.replace(' ', '+')}"))


def verify_cli(url: str, *extra: str) -> dict[str, Any]:
    out = run_cli("aca", "verify", url, "--allow-private", "--level", "3", "--json", *extra)
    assert out.stdout, out.stderr
    return json.loads(out.stdout)


def test_the_agent_verifies_at_level_3_with_the_cli(served) -> None:
    agent, _ = served
    run = ask(agent, "canonical URLs crawlers templates")
    report = verify_cli(run["answer_url"])
    assert report["ok"] is True, json.dumps(report["incidents"], indent=1)
    assert report["level"] == 3
    errors = [i for i in report["incidents"] if i["severity"] == "error"]
    assert errors == []


def test_a_tampered_copy_fails(served) -> None:
    agent, _ = served
    run = ask(agent, "canonical question per page")
    path = run["answer_url"].removeprefix(agent.base)
    # The manifest rewritten in transit (the headers and signature kept): the signature fails.
    status, headers, body = agent.served.get(f"{path}/manifest")
    forged = body.replace(b"python-agent.citeproof/v1", b"impostor.example/v9")
    assert forged != body
    agent.served.put(f"{path}/manifest", forged, headers, status)
    report = verify_cli(run["answer_url"])
    assert report["ok"] is False and report["level"] < 3
    codes = {i["code"] for i in report["incidents"]}
    assert codes & {"aca-content-digest-mismatch", "aca-signature-invalid"}, codes
    # A copy of the honest answer served at another URL fails its response binding.
    run2 = ask(agent, "sitemaps canonical URLs")
    path2 = run2["answer_url"].removeprefix(agent.base)
    status, headers, body = agent.served.get(path2)
    agent.served.put("/copied-answer", body, headers, status)
    copied = verify_cli(agent.base + "/copied-answer")
    assert copied["ok"] is False
    assert "aca-response-url-mismatch" in {i["code"] for i in copied["incidents"]}


def test_ledger_audit_log_and_evidence_verify(served) -> None:
    agent, audit = served
    run = ask(agent, "parent hub sibling pages")
    doc = json.loads(get(run["ledger_url"]))
    records = get(run["audit_url"]).decode()
    assert ledger.verify(doc, records).valid
    # The shared audit file holds the records of every run; this ledger is found in it.
    assert ledger.verify(doc, audit.read_text()).valid
    evidence = json.loads(get(run["evidence_url"]))
    assert evidence, "the agent emitted no evidence"
    jwks = get(f"{agent.base}/jwks.json")
    # Levels 1-3 of each evidence object, on the bytes the agent serves. (`aef.verify` would
    # fetch from stored resources, but refuses loopback URLs like a live fetch: the three
    # levels' checks are run one by one instead.)
    for e in evidence:
        source = get(e["source"]["uri"])
        assert aef.validate(e).valid
        span = aef.verify_span(e, media_type=agent_mod.TEXT, body=source)
        assert span.valid and span.output["exact_text"] == e["claim_text"], span
        assert aef.jws_verify(e, jwks).valid
        negated = json.loads(json.dumps(e))
        negated["claim_text"] = "It is not true that " + negated["claim_text"]
        assert not aef.jws_verify(negated, jwks).valid
        swapped = source.replace(e["claim_text"].encode(), b"Something else entirely.")
        assert not aef.verify_span(e, media_type=agent_mod.TEXT, body=swapped).valid


def test_the_package_report_is_the_clis_json(served, tmp_path: Path) -> None:
    agent, _ = served
    run = ask(agent, "stable canonical URLs")
    snap = tmp_path / "snap.json"
    now = int(time.time())
    live = verify_cli(run["answer_url"], "--save-snapshot", str(snap), "--now", str(now))
    assert live["ok"] is True
    cli = run_cli("aca", "verify", "--snapshot", str(snap), "--allow-private", "--now", str(now), "--json")
    from_cli = json.loads(cli.stdout)
    from_py = aca.verify_snapshot_report(snap.read_bytes(), now=now, allow_private=True)
    assert from_py == from_cli
    assert from_py["ok"] is True and from_py["level"] == 3
    verdict = aca.verify_snapshot(snap.read_text(), now=now, required_level=3)
    # The conformance operation refuses loopback hosts like a live fetch (no allow_private).
    assert verdict.output is not None


def test_openai_url_citations_convert_offline(root: Path) -> None:
    message = json.loads((root / "examples/python-agent/fixtures/openai_response.json").read_text())
    docs = root / "examples/python-agent/docs"
    cache = {f"https://docs.example/{p.name}": p.read_bytes() for p in docs.glob("*.txt")}
    lg = ledger.Ledger("run-openai-1", clock_start=1_700_000_000)
    ids = frameworks.from_openai_message(message, cache.__getitem__, lg)
    assert len(ids) == 2
    manifest = lg.build_manifest("openai-converted/v1")
    assert aca.validate_manifest(manifest).valid
    text = message["content"][0]["text"]
    for claim, a in zip(manifest["claims"], message["content"][0]["annotations"]):
        assert claim["text"] == text[a["start_index"]:a["end_index"]]
        (src,) = claim["sources"]
        body = cache[a["url"]]
        assert src["url"] == a["url"]
        assert src["hash"] == "sha256:" + hashlib.sha256(body).hexdigest()
        start, end = src["excerpt_offset"]
        assert body[start:end].decode() == claim["text"]
