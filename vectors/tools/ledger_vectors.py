"""Generates vectors/ledger/level1/{verify,audit}.json (profile LEDGER-*).

Standard library only; never imports or runs citeproof. Files the seed writes are written by the
seed's own code (`ledger_seed.py`: `export_audit_log`, `ProductionAttributionPipeline`); every
expected coverage number, compliance verdict and refusal comes from the seed's arithmetic
(`validate_and_finalize`, which raises in strict mode below the threshold, and `audit_coverage`)
run on the same claims. Error codes are the profile's, assigned by hand per case.
"""

import base64
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ledger_seed as seed  # noqa: E402
from vectorlib import boundary, case, derivation, given, write  # noqa: E402

T0 = 1778925600  # 2026-05-16T10:00:00Z
FLAGS = {
    "api-export": "Checks the seed's export_for_api dictionary against the ledger (LEDGER-016).",
    "counts": "The ledger's declared counts or uncited list (LEDGER-003).",
    "coverage-arithmetic": "The seed's coverage = cited / required, or 1.0 without required claims (LEDGER-004).",
    "dedup": "One source identifier used for different retrievals: premature deduplication (seed pitfall 4, LEDGER-013).",
    "emission-gate": "Strict mode refuses to emit below its threshold; lenient warns (LEDGER-006/007).",
    "framing": "The JSONL framing of the audit file (LEDGER-008).",
    "json-input": "A line or document that is not acceptable I-JSON (JSON-001, JSON-002).",
    "multi-run": "An append-only audit file holding the records of several ledgers (LEDGER-011).",
    "damage-elsewhere": "A damaged line that is not the checked ledger's: a warning, not a failure (LEDGER-008).",
    "interleaved": "Records of several ledgers interleaved, as two requests appending at once write them (LEDGER-011).",
    "seq": "Records numbered by seq within their ledger (LEDGER-011).",
    "undefined-member": "A source reference with members the profile does not define (seed pitfall 6, LEDGER-018).",
    "instant": "The same instant written with Z and with +00:00 (JSON-005).",
    "template-ledger": "The ledger the seed's production template returns from validate_and_finalize() (LEDGER-019).",
    "empty-audit": "An audit that reads no record (LEDGER-020).",
    "null-source": "Claims registered with source None, the case the coverage audit counts.",
    "record-form": "The members of an audit record in the seed's forms (LEDGER-010).",
    "record-match": "Audit records against the ledger's claims (LEDGER-009).",
    "seed-file": "Written by the seed's own code (export_audit_log or the production template).",
    "should-warning": "A SHOULD rule is broken: valid, with its warning.",
    "shape": "The members of the ledger document (LEDGER-001).",
    "threshold": "The threshold of a mode (LEDGER-005, LEDGER-014).",
    "time": "Timestamps against each other or the verification time (LEDGER-002, LEDGER-017).",
    "tool-boundary": "Sources tied to tool calls (LEDGER-002).",
}


def iso(t):
    return seed.datetime.fromtimestamp(t, seed.timezone.utc).isoformat()


# ---- the seed's arithmetic ----

def seed_gate(claims, mode, threshold):
    """Runs the seed's validate_and_finalize on `claims` ([(text, source_id, source_type,
    needs_proof)]). Returns (metadata or None when it raised, raised)."""
    env = "production" if mode == "strict" else "staging"
    p = seed.ProductionAttributionPipeline(env)
    p.coverage_threshold = threshold
    with tempfile.TemporaryDirectory() as d:
        p.audit_path = os.path.join(d, "audit.jsonl")
        for text, sid, stype, needs in claims:
            p.record_claim(text, sid, stype, needs)
        try:
            return p.validate_and_finalize()["metadata"], False
        except RuntimeError:
            return None, True


def seed_coverage(claims, threshold):
    """The numbers of one ledger: the template's score and verdict (lenient, so it never
    raises), the template's required/cited lists, and audit_coverage's uncited texts."""
    meta, _ = seed_gate(claims, "lenient", threshold)
    ledger = seed.AttributionLedger()
    for text, sid, stype, needs in claims:
        src = seed.SourceReference(identifier=sid, category=stype) if sid is not None else None
        ledger.register(text, src, needs)
    report = seed.audit_coverage(ledger)
    # The template's own list comprehensions, for the two counts it does not return.
    required = [c for c in claims if c[3]]
    cited = [c for c in required if c[1] is not None]
    return {
        "total_claims": meta["total_claims"],
        "required_claims": len(required),
        "cited_claims": len(cited),
        "coverage_score": meta["coverage_score"],
        "is_compliant": meta["is_compliant"],
        "uncited_claims": report.uncited_claims,
    }


# ---- citeproof-form ledgers and records, built here from the profile text ----

def source(ident, category, call, fetched, url=None, meta=None):
    s = {"identifier": ident, "category": category, "tool_call_id": call, "fetched_at": iso(fetched)}
    s.update(given(endpoint=url, metadata=meta))
    return s


def claim(text, src, requires=True, recorded=T0 + 10, cid=None):
    c = {"text": text, "requires_attribution": requires, "recorded_at": iso(recorded), "source": src}
    if cid:
        c["claim_id"] = cid
    return c


def base_claims():
    return [
        claim("Market analysis indicates a 4% shift in Q3.",
              source("search-77", "web_search", "call-1", T0 + 2, "https://api.search.example/q?id=77",
                     {"rank": 1, "domain": "search.example"}), cid="c-1"),
        claim("Costs fell by 2% in the same quarter.",
              source("fetch-78", "web_fetch", "call-2", T0 + 4, "https://news.example/costs"), cid="c-2"),
        claim("The pipeline processed 2 sources.", None, requires=False, cid="c-3"),
    ]


def ledger_doc(claims, mode="strict", threshold=1.0, ledger_id="run-a", coverage=None):
    numbers = seed_coverage(
        [(c["text"], c["source"]["identifier"] if c["source"] else None,
          c["source"]["category"] if c["source"] else None, c["requires_attribution"]) for c in claims],
        threshold if threshold > 0 else 1.0)
    cov = {k: numbers[k] for k in ("total_claims", "required_claims", "cited_claims", "coverage_score",
                                   "is_compliant", "uncited_claims")}
    cov["validated_at"] = iso(T0 + 20)
    if coverage:
        cov.update(coverage)
    return {"ledger_version": "1", "ledger_id": ledger_id, "mode": mode, "threshold": threshold,
            "claims": claims, "coverage": cov}


def records(doc, logged=T0 + 21, seq=True):
    """The seed's export_audit_log record of each claim, with the ledger id, its position
    (`seq`, unless seq=False) and the claim id."""
    out = []
    for i, c in enumerate(doc["claims"]):
        r = {"ledger_id": doc["ledger_id"]}
        if seq:
            r["seq"] = i
        if "claim_id" in c:
            r["claim_id"] = c["claim_id"]
        r.update({"claim": c["text"], "source": json.loads(json.dumps(c["source"])),
                  "requires_proof": c["requires_attribution"],
                  "logged_at": iso(logged)})
        out.append(r)
    return out


def jsonl(recs, nl="\n"):
    return "".join(json.dumps(r) + nl for r in recs)


def interleave(a, b):
    """Two requests appending record by record at once: a0 b0 a1 b1 ..."""
    out = []
    for i in range(max(len(a), len(b))):
        out.extend(a[i:i + 1] + b[i:i + 1])
    return out


def zulu(t):
    """`isoformat()`'s `+00:00` written as `Z`: the same instant (citeproof's builder writes Z)."""
    assert t.endswith("+00:00"), t
    return t[:-6] + "Z"


def api_of(doc):
    """The seed's export_for_api, on the seed ledger holding the document's claims."""
    ledger = seed.AttributionLedger()
    for c in doc["claims"]:
        s = c["source"]
        src = None
        if s is not None:
            src = seed.SourceReference(identifier=s["identifier"], category=s["category"],
                                       fetched_at=seed.datetime.fromisoformat(s["fetched_at"]))
        ledger.register(c["text"], src, c["requires_attribution"])
    out = seed.export_for_api(ledger)
    return dict({"ledger_id": doc["ledger_id"]}, **out)


def dumps(v):
    return json.dumps(v, indent=1)


def export_input(text, raw=None):
    """The audit file of an input: as text, or (raw bytes given) as base64."""
    if raw is not None:
        return {"export_base64": base64.b64encode(raw).decode()}
    return {"export": text}


# ---- ledger-verify ----

def verify_cases():
    cases = []
    pub = derivation("hand", "Ledger and records built from the profile text; coverage numbers from the seed's validate_and_finalize and audit_coverage (vectors/tools/ledger_seed.py); codes by hand from PROFILE.md.")

    def v(id, desc, reqs, doc, recs_text, result, errors=None, warnings=None, flags=(), emitted=True,
          api=None, now=None, detail=None, export_base64=None, mode=None, threshold=None):
        inp = dict({"ledger": dumps(doc)}, **export_input(recs_text, export_base64),
                   **given(emitted=emitted, mode=mode, threshold=threshold,
                           api=None if api is None else json.dumps(api), now=now))
        d = derivation("hand", detail) if detail else pub
        cases.append(case("ledger-verify-" + id, desc, reqs, 1, inp, result, errors=errors,
                          warnings=warnings, derivation_=d, flags=list(flags)))

    base = ledger_doc(base_claims())
    base_recs = records(base)
    other = ledger_doc([claim("Run b's only claim.", source("search-9", "web_search", "call-1", T0 + 100),
                              recorded=T0 + 110)], ledger_id="run-b")
    other_recs = records(other, logged=T0 + 120)
    ALL = ["LEDGER-001", "LEDGER-002", "LEDGER-003", "LEDGER-004", "LEDGER-005", "LEDGER-006",
           "LEDGER-008", "LEDGER-009", "LEDGER-010", "LEDGER-011", "LEDGER-013"]

    v("base", "Strict ledger, two cited claims and one exempt claim with source null; one record each.",
      ALL, base, jsonl(base_recs), "valid", warnings=[], flags=["null-source"])
    v("two-runs-first", "An append-only file with two runs: the ledger's records are picked by its id.",
      ["LEDGER-011", "LEDGER-009"], base, jsonl(base_recs + other_recs), "valid", warnings=[], flags=["multi-run"])
    v("two-runs-second", "The second run of the same file verifies against its own ledger.",
      ["LEDGER-011", "LEDGER-009"], other, jsonl(base_recs + other_recs), "valid", warnings=[], flags=["multi-run"])
    v("id-reused", "The ledger's records appear twice (a replayed append): its seq numbers repeat.",
      ["LEDGER-011"], base, jsonl(base_recs + other_recs + base_recs), "invalid", errors=["ledger-id-reused"],
      flags=["multi-run", "seq"])
    busy = ledger_doc([claim("Run b's first claim.", source("search-9", "web_search", "call-1", T0 + 5), recorded=T0 + 11),
                       claim("Run b's second claim.", source("fetch-10", "web_fetch", "call-2", T0 + 6), recorded=T0 + 12),
                       claim("Run b found 2 sources.", None, requires=False, recorded=T0 + 13)], ledger_id="run-b")
    a_recs, b_recs = records(base), records(busy, logged=T0 + 21)
    v("interleaved", "Two requests appended record by record at once: run-a's records, numbered by seq, lie between run-b's.",
      ["LEDGER-011", "LEDGER-009"], base, jsonl(interleave(b_recs, a_recs)), "valid", warnings=[],
      flags=["multi-run", "interleaved", "seq"])
    v("interleaved-replay", "Interleaved records, then run-a's records appended again: seq 0 comes back.",
      ["LEDGER-011"], base, jsonl(interleave(b_recs, a_recs) + a_recs), "invalid", errors=["ledger-id-reused"],
      flags=["multi-run", "interleaved", "seq"])
    v("interleaved-replay-partial", "Interleaved records, then run-a's last record appended again: its seq repeats.",
      ["LEDGER-011"], base, jsonl(interleave(b_recs, a_recs) + a_recs[2:]), "invalid",
      errors=["ledger-id-reused"], flags=["multi-run", "interleaved", "seq"])
    na, nb = records(base, seq=False), records(busy, logged=T0 + 21, seq=False)
    v("no-seq-one-block", "Records with a ledger id and no seq, in one block: accepted.", ["LEDGER-011"], base,
      jsonl(nb + na), "valid", warnings=[], flags=["multi-run"])
    v("no-seq-interleaved", "Records without seq interleaved with another run's: nothing tells them from a replay.",
      ["LEDGER-011"], base, jsonl(interleave(nb, na)), "invalid", errors=["ledger-id-reused"],
      flags=["multi-run", "interleaved"])
    r = records(base); r[1]["seq"], r[2]["seq"] = 2, 1
    v("seq-swapped", "Records in ledger order whose seq numbers run 0, 2, 1.", ["LEDGER-011"], base, jsonl(r),
      "invalid", errors=["ledger-seq-broken"], flags=["seq"])
    r = records(base); del r[1]["seq"]
    v("seq-missing", "One record of the ledger has no seq while the others do.", ["LEDGER-011"], base, jsonl(r),
      "invalid", errors=["ledger-seq-broken"], flags=["seq"])
    r = records(base)
    v("seq-record-removed", "The middle record removed: seq jumps from 0 to 2.", ["LEDGER-011"], base,
      jsonl([r[0], r[2]]), "invalid", errors=["ledger-seq-broken"], flags=["seq"])
    v("crlf", "Lines ending in CRLF (the seed's text-mode append on Windows) are accepted.",
      ["LEDGER-008"], base, jsonl(base_recs, "\r\n"), "valid", warnings=[], flags=["framing"])
    v("torn-last-line", "Another run's last record lost its LF (a torn append): a warning; run-a is verified on its own records.",
      ["LEDGER-008"], base, jsonl(base_recs + other_recs)[:-1], "valid", warnings=["ledger-audit-file-damaged"],
      flags=["framing", "multi-run", "damage-elsewhere"])
    v("torn-own-last-line", "The ledger's own last record lost its LF: the damaged line names run-a.",
      ["LEDGER-008"], base, jsonl(other_recs + base_recs)[:-1], "invalid", errors=["ledger-jsonl-malformed"],
      flags=["framing", "multi-run"])
    torn = json.dumps(base_recs[2])[:9]
    assert torn == '{"ledger_', torn
    v("torn-own-before-id", "The ledger's last record torn before its ledger_id: the line names no ledger (a warning), and run-a has one record short.",
      ["LEDGER-008", "LEDGER-009"], base, jsonl(other_recs + base_recs[:2]) + torn, "invalid",
      errors=["ledger-jsonl-count-mismatch"], warnings=["ledger-audit-file-damaged"],
      flags=["framing", "multi-run", "damage-elsewhere"])
    v("torn-middle-other", "Another run's record cut in the middle of the file (a crashed writer), then run-a appends: a warning.",
      ["LEDGER-008"], base, json.dumps(other_recs[0])[:40] + "\n" + jsonl(base_recs), "valid",
      warnings=["ledger-audit-file-damaged"], flags=["framing", "damage-elsewhere"])
    v("bom", "The file starts with a byte order mark: the records are still read; a warning.", ["LEDGER-008"],
      base, "\ufeff" + jsonl(base_recs), "valid", warnings=["ledger-audit-file-damaged"],
      flags=["framing", "damage-elsewhere"])
    v("empty-line", "An empty line between two runs: it holds no record; a warning.", ["LEDGER-008"], base,
      jsonl(base_recs) + "\n" + jsonl(other_recs), "valid", warnings=["ledger-audit-file-damaged"],
      flags=["framing", "damage-elsewhere"])
    v("array-line", "A line holding a JSON array, not an object: a warning.", ["LEDGER-008"], base,
      jsonl(base_recs) + "[1]\n", "valid", warnings=["ledger-audit-file-damaged"], flags=["framing", "damage-elsewhere"])
    v("duplicate-member-line", "A line with a duplicate member (not I-JSON) that names no ledger: a warning.",
      ["LEDGER-008", "JSON-002"], base, jsonl(base_recs) + '{"claim":"a","claim":"b"}\n', "valid",
      warnings=["ledger-audit-file-damaged"], flags=["framing", "json-input", "damage-elsewhere"])
    v("duplicate-member-own-line", "A line with a duplicate member that names run-a: the ledger's own damage.",
      ["LEDGER-008", "JSON-002"], base, jsonl(base_recs) + '{"ledger_id":"run-a","claim":"a","claim":"b"}\n',
      "invalid", errors=["json-duplicate-member"], flags=["framing", "json-input"])
    v("invalid-utf8-line", "Another run's line is not UTF-8: a warning.", ["LEDGER-008", "JSON-001"], base, None,
      "valid", warnings=["ledger-audit-file-damaged"], flags=["framing", "json-input", "damage-elsewhere"],
      export_base64=jsonl(base_recs).encode() + b'{"ledger_id":"run-b","claim":"\xff"}\n')
    v("invalid-utf8-own-line", "A line naming run-a is not UTF-8.", ["LEDGER-008", "JSON-001"], base, None,
      "invalid", errors=["json-invalid-utf8"], flags=["framing", "json-input"],
      export_base64=jsonl(base_recs).encode() + b'{"ledger_id":"run-a","claim":"\xff"}\n')
    r = records(other, logged=T0 + 120); r[0]["requires_proof"] = "no"
    v("other-record-invalid", "Another run's record fails its shape (requires_proof a string): a warning.",
      ["LEDGER-008", "LEDGER-010"], base, jsonl(r + base_recs), "valid", warnings=["ledger-audit-file-damaged"],
      flags=["record-form", "damage-elsewhere"])
    r = records(base); r[1]["requires_proof"] = "no"
    v("own-record-invalid", "One of run-a's records fails its shape: an error, the records are not compared.",
      ["LEDGER-008", "LEDGER-010"], base, jsonl(other_recs + r), "invalid", errors=["schema-violation"],
      flags=["record-form"])
    v("other-ledger-replayed", "Another run's records appended twice (its seq repeats): not run-a's problem.",
      ["LEDGER-011"], base, jsonl(b_recs + a_recs + b_recs), "valid", warnings=[], flags=["multi-run", "seq"])
    r = records(other, logged=T0 + 120); del r[0]["ledger_id"]
    v("seq-without-ledger-id-elsewhere", "A record with seq and no ledger_id (not run-a's): a warning.",
      ["LEDGER-008", "LEDGER-010"], base, jsonl(r + base_recs), "valid", warnings=["ledger-audit-file-damaged"],
      flags=["record-form", "seq", "damage-elsewhere"])

    # LEDGER-001
    d = json.loads(json.dumps(base)); del d["ledger_id"]
    v("no-ledger-id", "The ledger has no ledger_id.", ["LEDGER-001"], d, jsonl(base_recs), "invalid",
      errors=["schema-violation"], flags=["shape"])
    d = json.loads(json.dumps(base)); d["mode"] = "Strict"
    v("mode-capitalized", "The ledger's mode is written \"Strict\": the modes are \"strict\" and \"lenient\", compared exactly.",
      ["LEDGER-001"], d, jsonl(base_recs), "invalid", errors=["schema-violation"], flags=["shape"])
    d = json.loads(json.dumps(base)); d["claims"][2]["source"] = {}
    v("source-empty-object", "An uncited claim's source written as {} instead of null.", ["LEDGER-001"], d,
      jsonl(base_recs), "invalid", errors=["schema-violation"], flags=["shape", "null-source"])
    d = json.loads(json.dumps(base)); del d["claims"][2]["source"]
    v("source-absent", "A claim without its source member (null must be written).", ["LEDGER-001"], d,
      jsonl(base_recs), "invalid", errors=["schema-violation"], flags=["shape", "null-source"])
    d = json.loads(json.dumps(base)); d["claims"][0]["confidence"] = "high"
    v("unknown-member", "A claim with a member the profile does not define.", ["LEDGER-001", "JSON-004"], d,
      jsonl(base_recs), "invalid", errors=["unknown-member"], flags=["shape"])
    d = json.loads(json.dumps(base)); d["claims"][0]["recorded_at"] = "2026-05-16 10:00:10+00:00"
    v("recorded-at-space", "recorded_at written with a space (str(datetime)), not RFC 3339's T.",
      ["LEDGER-001", "JSON-005"], d, jsonl(base_recs), "invalid", errors=["schema-timestamp-invalid"],
      flags=["shape", "time"])
    n = base["coverage"]["total_claims"]
    v("count-integer-form", f"coverage.total_claims written {n}, an integer in its lexical form.",
      ["LEDGER-001", "JSON-003"], base, jsonl(base_recs), "valid", warnings=[],
      flags=["shape", boundary("integer-form", "inside")])
    d = json.loads(json.dumps(base)); d["coverage"]["total_claims"] = float(n)
    v("count-fraction-form", f"coverage.total_claims written {float(n)!r}: the same value, but not an integer of the profile.",
      ["LEDGER-001", "JSON-003"], d, jsonl(base_recs), "invalid", errors=["schema-violation"],
      flags=["shape", boundary("integer-form", "outside")],
      detail="JSON-003: an integer member is a number without fraction or exponent part; Python's json.dumps "
             "writes the float 3.0 as '3.0'")
    d = json.loads(json.dumps(base)); d["coverage"]["cited_claims"] = float(d["coverage"]["cited_claims"])
    v("cited-count-fraction-form", "coverage.cited_claims written with a fraction part ('.0').",
      ["LEDGER-001", "JSON-003"], d, jsonl(base_recs), "invalid", errors=["schema-violation"],
      flags=["shape", boundary("integer-form", "outside")],
      detail="JSON-003: integers are lexical; '2.0' has a fraction part")
    d = json.loads(json.dumps(base)); d["x-agent"] = "agent.example/v1"
    d["claims"][0]["source"]["endpoint"] = None
    r = records(d)
    v("extension-and-null-endpoint", "An x- member, and endpoint null as vars(SourceReference) writes it.",
      ["LEDGER-001", "JSON-004"], d, jsonl(r), "valid", warnings=[], flags=["shape"])

    # LEDGER-002
    d = json.loads(json.dumps(base)); del d["claims"][0]["source"]["tool_call_id"]
    v("untraced-source", "A source that names no tool call.", ["LEDGER-002"], d, jsonl(records(d)), "invalid",
      errors=["ledger-source-untraced"], flags=["tool-boundary"])
    d = json.loads(json.dumps(base))
    for c in d["claims"]:
        if c["source"] is not None:
            del c["source"]["tool_call_id"]
    v("seed-style-sources", "No source names a tool_call_id: the seed's per-call identifier traces each (review N19).",
      ["LEDGER-002", "LEDGER-001"], d, jsonl(records(d)), "valid", warnings=[], flags=["tool-boundary"])
    d = json.loads(json.dumps(base)); d["claims"][1]["source"]["fetched_at"] = iso(T0 + 11)
    v("fetched-after-claim", "A source fetched one second after its claim was recorded.", ["LEDGER-002"], d,
      jsonl(records(d)), "invalid", errors=["ledger-source-after-claim"],
      flags=["tool-boundary", "time", boundary("fetched-not-after-claim", "outside")])
    d = json.loads(json.dumps(base)); d["claims"][1]["source"]["fetched_at"] = d["claims"][1]["recorded_at"]
    v("fetched-at-claim-instant", "A source fetched at the very second its claim was recorded: not later, so it holds.",
      ["LEDGER-002"], d, jsonl(records(d)), "valid", warnings=[],
      flags=["tool-boundary", "time", boundary("fetched-not-after-claim", "inside")])

    # LEDGER-003 / 004 / 005
    three = base_claims() + [claim("Competitors lag behind.", None)]
    lenient = ledger_doc(three, mode="lenient", threshold=0.5)
    v("lenient-two-of-three", "Lenient 0.5, 2 of 3 required claims cited: coverage 2/3 as the seed divides.",
      ["LEDGER-003", "LEDGER-004", "LEDGER-005", "LEDGER-007", "LEDGER-014"], lenient, jsonl(records(lenient)),
      "valid", warnings=["ledger-threshold-low"], flags=["coverage-arithmetic", "null-source", "threshold"])
    d = ledger_doc(three, mode="lenient", threshold=0.5, coverage={"coverage_score": 0.67})
    v("score-rounded", "coverage_score 0.67 instead of the exact 2/3.", ["LEDGER-004"], d, jsonl(records(d)),
      "invalid", errors=["ledger-coverage-mismatch"], warnings=["ledger-threshold-low"],
      flags=["coverage-arithmetic"])
    d = ledger_doc(three, mode="lenient", threshold=0.5, coverage={"cited_claims": 3})
    v("cited-overstated", "cited_claims counts the exempt claim too (audit_coverage's reading).",
      ["LEDGER-003"], d, jsonl(records(d)), "invalid", errors=["ledger-count-mismatch"],
      warnings=["ledger-threshold-low"], flags=["counts"])
    d = ledger_doc(three, mode="lenient", threshold=0.5, coverage={"uncited_claims": []})
    v("uncited-hidden", "uncited_claims leaves out the uncited claim.", ["LEDGER-003"], d, jsonl(records(d)),
      "invalid", errors=["ledger-uncited-mismatch"], warnings=["ledger-threshold-low"], flags=["counts"])
    d = ledger_doc(three, mode="lenient", threshold=0.5, coverage={"is_compliant": False})
    v("compliance-flipped", "is_compliant false although 2/3 >= 0.5.", ["LEDGER-005"], d, jsonl(records(d)),
      "invalid", errors=["ledger-compliance-mismatch"], warnings=["ledger-threshold-low"], flags=["threshold"])
    d = ledger_doc(base_claims(), mode="strict", threshold=0.9)
    v("strict-threshold-090", "Strict mode with threshold 0.9.", ["LEDGER-005"], d, jsonl(records(d)), "invalid",
      errors=["ledger-threshold-invalid"], flags=["threshold"])
    d = ledger_doc(base_claims(), mode="lenient", threshold=0)
    v("lenient-threshold-0", "Lenient threshold 0: every ledger would be compliant; refused.", ["LEDGER-005"],
      d, jsonl(records(d)), "invalid", errors=["ledger-threshold-invalid"], flags=["threshold"])
    d = ledger_doc(base_claims(), mode="lenient", threshold=0.9)
    v("lenient-threshold-090", "The seed's lenient 0.90: no warning.", ["LEDGER-005", "LEDGER-014"], d,
      jsonl(records(d)), "valid", warnings=[], flags=["threshold"])
    no_required = [claim("The pipeline processed 0 sources.", None, requires=False)]
    d = ledger_doc(no_required)
    v("no-required-claims", "Only exempt claims: coverage 1.0 (the seed's `else 1.0`).", ["LEDGER-004"], d,
      jsonl(records(d)), "valid", warnings=[], flags=["coverage-arithmetic", "null-source"])

    # LEDGER-006 / 007
    strict_short = [(c["text"], c["source"]["identifier"] if c["source"] else None, None,
                     c["requires_attribution"]) for c in three]
    _, raised = seed_gate(strict_short, "strict", 1.0)
    assert raised, "the seed's strict gate must refuse 2/3"
    d = ledger_doc(three)
    v("strict-below-emitted", "Strict, 2 of 3 cited (the seed's validate_and_finalize raises), presented as emitted.",
      ["LEDGER-006"], d, jsonl(records(d)), "invalid", errors=["ledger-below-threshold"], flags=["emission-gate"])
    v("strict-below-refused", "The same ledger kept as the record of a refused response (emitted false).",
      ["LEDGER-006"], d, jsonl(records(d)), "valid", warnings=[], emitted=False, flags=["emission-gate"])
    d = ledger_doc(three, mode="lenient", threshold=0.9)
    v("lenient-below-emitted", "Lenient 0.90, coverage 2/3 emitted: a warning (the seed's 'log warnings').",
      ["LEDGER-007"], d, jsonl(records(d)), "valid", warnings=["ledger-coverage-low"],
      flags=["emission-gate", "should-warning"])

    # LEDGER-009
    r = records(base); r[0]["claim"] = "Market analysis indicates a 40% shift in Q3."
    v("record-claim-edited", "An audit record's claim text edited.", ["LEDGER-009"], base, jsonl(r), "invalid",
      errors=["ledger-jsonl-record-mismatch"], flags=["record-match"])
    r = records(base); r[2]["requires_proof"] = True
    v("record-requires-flipped", "The exempt claim's record says requires_proof true.", ["LEDGER-009"], base,
      jsonl(r), "invalid", errors=["ledger-jsonl-record-mismatch"], flags=["record-match"])
    r = records(base); r[1]["source"]["endpoint"] = "https://news.example/other"
    v("record-source-changed", "A record's source endpoint differs from the ledger's.", ["LEDGER-009"], base,
      jsonl(r), "invalid", errors=["ledger-jsonl-record-mismatch"], flags=["record-match"])
    r = records(base)[:2]
    v("record-missing", "The last claim has no record.", ["LEDGER-009"], base, jsonl(r + other_recs), "invalid",
      errors=["ledger-jsonl-count-mismatch"], flags=["record-match"])
    v("no-records", "The file holds only another run's records.", ["LEDGER-009", "LEDGER-011"], base,
      jsonl(other_recs), "invalid", errors=["ledger-jsonl-count-mismatch"], flags=["record-match", "multi-run"])

    # LEDGER-010
    r = records(base)
    for x in r:
        x["requires_attribution"] = x.pop("requires_proof")
    v("record-alias", "Records with requires_attribution, the documented alias of requires_proof.",
      ["LEDGER-010"], base, jsonl(r), "valid", warnings=[], flags=["record-form"])
    r = records(base); r[0]["requires_attribution"] = True
    v("record-both-names", "A record with requires_proof and requires_attribution.", ["LEDGER-010"], base,
      jsonl(r), "invalid", errors=["schema-violation"], flags=["record-form"])
    r = records(base); r[1]["logged_at"] = "yesterday"
    v("record-logged-at", "A record's logged_at is not a timestamp.", ["LEDGER-010", "JSON-005"], base, jsonl(r),
      "invalid", errors=["schema-timestamp-invalid"], flags=["record-form", "time"])
    r = records(base); r[0]["source"] = "search-77"
    v("record-source-string", "A record's source is an identifier string, not the reference.", ["LEDGER-010"],
      base, jsonl(r), "invalid", errors=["schema-violation"], flags=["record-form"])

    # LEDGER-013
    cs = base_claims()
    cs[1]["source"]["identifier"] = "search-77"
    d = ledger_doc(cs)
    v("premature-dedup", "Two tool calls' retrievals share one source identifier.", ["LEDGER-013"], d,
      jsonl(records(d)), "invalid", errors=["ledger-source-deduplicated"], flags=["dedup"])
    cs = base_claims()
    cs.insert(1, claim("Q3 demand rose.", json.loads(json.dumps(cs[0]["source"])), cid="c-4"))
    d = ledger_doc(cs)
    v("shared-source", "Two claims from one retrieval share its identical source reference.", ["LEDGER-013"], d,
      jsonl(records(d)), "valid", warnings=[], flags=["dedup"])

    # LEDGER-016
    v("api-export", "The seed's export_for_api dictionary of the ledger, with its ledger id.", ["LEDGER-016"],
      base, jsonl(base_recs), "valid", warnings=[], api=api_of(base), flags=["api-export"])
    a = api_of(base); del a["ledger_id"]
    v("api-export-seed-shape", "export_for_api exactly as the seed returns it (no ledger id).", ["LEDGER-016"],
      base, jsonl(base_recs), "valid", warnings=[], api=a, flags=["api-export"])
    a = api_of(base); a["attribution_map"][1]["source_id"] = "search-77"
    v("api-source-swapped", "An attribution_map entry names another claim's source.", ["LEDGER-016"], base,
      jsonl(base_recs), "invalid", errors=["ledger-api-mismatch"], api=a, flags=["api-export"])
    a = api_of(base); a["output_summary"] = a["output_summary"].replace("4%", "14%")
    v("api-summary-edited", "output_summary is not the claims joined by spaces.", ["LEDGER-016"], base,
      jsonl(base_recs), "invalid", errors=["ledger-api-mismatch"], api=a, flags=["api-export"])

    # JSON-005 in LEDGER-009, -013, -016: the same instant written Z and +00:00
    z = json.loads(json.dumps(base))
    for c in z["claims"]:
        c["recorded_at"] = zulu(c["recorded_at"])
        if c["source"] is not None:
            c["source"]["fetched_at"] = zulu(c["source"]["fetched_at"])
    z = ledger_doc(z["claims"])
    assert "+00:00" not in json.dumps(z["claims"]) and "+00:00" in json.dumps(records(base))
    v("instants-z-and-offset", "The ledger writes Z; its records and the seed's export_for_api write isoformat()'s +00:00 for the same instants.",
      ["LEDGER-009", "LEDGER-016", "JSON-005"], z, jsonl(records(base)), "valid", warnings=[], api=api_of(base),
      flags=["instant", "record-match", "api-export"])
    r = records(base); r[1]["source"]["fetched_at"] = iso(T0 + 5)
    v("record-fetched-at-other-instant", "A record's fetched_at is one second off the ledger's (both +00:00).",
      ["LEDGER-009", "JSON-005"], z, jsonl(r), "invalid", errors=["ledger-jsonl-record-mismatch"],
      flags=["instant", "record-match"])
    a = api_of(base); a["attribution_map"][0]["timestamp"] = iso(T0 + 3)
    v("api-timestamp-other-instant", "An export timestamp one second off the source's fetched_at.", ["LEDGER-016"],
      z, jsonl(records(z)), "invalid", errors=["ledger-api-mismatch"], api=a, flags=["instant", "api-export"])
    cs = base_claims()
    cs.insert(1, claim("Q3 demand rose.", json.loads(json.dumps(cs[0]["source"])), cid="c-4"))
    cs[1]["source"]["fetched_at"] = zulu(cs[1]["source"]["fetched_at"])
    d = ledger_doc(cs)
    v("shared-source-instant-forms", "Two claims cite one retrieval; its fetched_at written +00:00 once and Z once: the same reference.",
      ["LEDGER-013", "JSON-005"], d, jsonl(records(d)), "valid", warnings=[], flags=["dedup", "instant"])

    # LEDGER-018
    q = json.loads(json.dumps(base))
    q["claims"][0]["source"]["query_hash"] = "sha256:" + "ab" * 32
    q["claims"][0]["source"]["snapshot_ref"] = "snapshots/search-77.warc"
    v("source-query-hash", "A source with query_hash and snapshot_ref (seed pitfall 6), in the ledger and its record: accepted with a warning each.",
      ["LEDGER-018", "LEDGER-001", "LEDGER-009"], q, jsonl(records(q)), "valid",
      warnings=["ledger-source-member-undefined"], flags=["undefined-member", "should-warning"])
    v("source-query-hash-dropped", "The ledger's source has query_hash and snapshot_ref, its record's does not: undefined members are still compared.",
      ["LEDGER-018", "LEDGER-009"], q, jsonl(base_recs), "invalid", errors=["ledger-jsonl-record-mismatch"],
      warnings=["ledger-source-member-undefined"], flags=["undefined-member", "record-match"])
    r = records(q); r[0]["source"]["snapshot_ref"] = "snapshots/other.warc"
    v("source-snapshot-ref-changed", "The record names another snapshot than the ledger.", ["LEDGER-018", "LEDGER-009"],
      q, jsonl(r), "invalid", errors=["ledger-jsonl-record-mismatch"], warnings=["ledger-source-member-undefined"],
      flags=["undefined-member", "record-match"])
    cs = base_claims()
    cs.insert(1, claim("Q3 demand rose.", json.loads(json.dumps(cs[0]["source"])), cid="c-4"))
    cs[1]["source"]["query_hash"] = "sha256:" + "cd" * 32
    d = ledger_doc(cs)
    v("source-query-hash-differs", "One identifier, two query hashes: two retrievals under one identifier.",
      ["LEDGER-013", "LEDGER-018"], d, jsonl(records(d)), "invalid", errors=["ledger-source-deduplicated"],
      warnings=["ledger-source-member-undefined"], flags=["undefined-member", "dedup"])

    # LEDGER-006: the operation's default
    d = ledger_doc(three)
    v("strict-below-default", "Strict, 2 of 3 cited, with no `emitted` given: judged as emitted (review N17).",
      ["LEDGER-006"], d, jsonl(records(d)), "invalid", errors=["ledger-below-threshold"], emitted=None,
      flags=["emission-gate"])

    cases.extend(template_verify_cases())

    # LEDGER-017
    v("future-timestamps", "The verification time is an hour before the claims were recorded.", ["LEDGER-017"],
      base, jsonl(base_recs), "valid", warnings=["ledger-timestamp-future"], now=T0 - 3600,
      flags=["time", "should-warning"])
    v("timestamps-in-skew", "The verification time is 290 s before the last record was logged (within skew).",
      ["LEDGER-017"], base, jsonl(base_recs), "valid", warnings=[], now=T0 + 21 - 290, flags=["time"])
    # The latest instant of the ledger and its records, read here from the documents (every
    # member LEDGER-017 names), so that the pair stands 300 and 301 s before it.
    stamps = [c[k] for c in base["claims"] for k in ("recorded_at",)]
    stamps += [c["source"]["fetched_at"] for c in base["claims"] if c.get("source")]
    for r in base_recs:
        stamps += [r[k] for k in ("logged_at", "recorded_at") if k in r]
        if isinstance(r.get("source"), dict) and "fetched_at" in r["source"]:
            stamps.append(r["source"]["fetched_at"])
    latest = max(int(seed.datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp()) for t in stamps)
    assert latest == T0 + 21, latest
    v("timestamps-at-skew-limit", "The verification time is exactly 300 s before the latest timestamp of the ledger and its records.",
      ["LEDGER-017"], base, jsonl(base_recs), "valid", warnings=[], now=latest - 300,
      flags=["time", boundary("ledger-future-skew", "inside")])
    v("timestamp-one-second-past-skew", "The verification time is 301 s before the latest timestamp of the ledger and its records.",
      ["LEDGER-017"], base, jsonl(base_recs), "valid", warnings=["ledger-timestamp-future"], now=latest - 301,
      flags=["time", "should-warning", boundary("ledger-future-skew", "outside")])
    return cases


# ---- ledger-verify of the template's ledger (LEDGER-019) ----

def template_runs(runs):
    """The seed's ProductionAttributionPipeline, once per (env, claims) run, appending to one
    audit file. Returns the file's text and, per run, the ledger validate_and_finalize()
    returned (None when it raised)."""
    seed.use_stepping_clock(T0)
    ledgers = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "audit.jsonl")
        for env, claims in runs:
            p = seed.ProductionAttributionPipeline(env)
            p.audit_path = path
            for text, sid, stype, needs in claims:
                p.record_claim(text, sid, stype, needs)
            try:
                ledgers.append(json.loads(json.dumps(p.validate_and_finalize())))
            except RuntimeError:
                ledgers.append(None)
        with open(path, encoding="utf-8") as f:
            return f.read(), ledgers


TEMPLATE_RUNS = [
    ("production", [("Rates held steady in May.", "search-5", "web_search", True)]),
    ("production", [("Q3 revenue grew 4%.", "search-1", "web_search", True),
                    ("Costs fell.", "fetch-2", "web_fetch", True),
                    ("Sorted by confidence.", None, None, False)]),
    ("staging", [("Margins widened.", "search-3", "web_search", True),
                 ("Competitors lag behind.", None, None, True),
                 ("Demand rose.", "fetch-4", "web_fetch", True)]),
    ("production", [("Q4 looks flat.", None, None, False)]),
]


def template_verify_cases():
    cases = []
    detail = ("The ledger validate_and_finalize() returned and the audit file _persist_audit wrote, both by the "
              "seed's own production template (vectors/tools/ledger_seed.py); edits and codes by hand from PROFILE.md.")

    def t(id, desc, reqs, ledger, export, result, errors=None, warnings=None, flags=(), mode=None, threshold=None,
          emitted=True):
        inp = dict({"ledger": dumps(ledger), "export": export},
                   **given(emitted=emitted, mode=mode, threshold=threshold))
        cases.append(case("ledger-verify-template-" + id, desc, reqs, 1, inp, result, errors=errors,
                          warnings=warnings, derivation_=derivation("independent-tool", detail),
                          flags=["template-ledger"] + list(flags)))

    text, ledgers = template_runs(TEMPLATE_RUNS)
    prod, staging = ledgers[1], ledgers[2]
    assert prod["metadata"]["is_compliant"] and not staging["metadata"]["is_compliant"]
    assert staging["metadata"]["coverage_score"] == 2 / 3
    lines = text.splitlines(keepends=True)
    assert len(lines) == 8 and json.loads(lines[1])["text"] == "Q3 revenue grew 4%."
    all_reqs = ["LEDGER-019", "LEDGER-009", "LEDGER-003", "LEDGER-004", "LEDGER-005"]

    t("production", "The production run's ledger among three other requests' records: found by content, verified.",
      all_reqs, prod, text, "valid", warnings=[], flags=["seed-file", "multi-run"])
    t("staging-lenient", "The staging run (2 of 3 cited) verified lenient at the seed's 0.90: emitted below it, a warning.",
      ["LEDGER-019", "LEDGER-007"], staging, text, "valid", warnings=["ledger-coverage-low"], mode="lenient",
      flags=["seed-file", "should-warning"])
    t("staging-as-strict", "The same ledger verified with the default mode (strict): below the threshold, it must not be emitted.",
      ["LEDGER-019", "LEDGER-006"], staging, text, "invalid", errors=["ledger-below-threshold"],
      flags=["seed-file", "emission-gate"])
    t("staging-refused", "The staging ledger as the record of a refused response, lenient.", ["LEDGER-019", "LEDGER-007"],
      staging, text, "valid", warnings=[], mode="lenient", emitted=False, flags=["seed-file"])
    d = json.loads(json.dumps(staging)); d["metadata"]["is_compliant"] = True
    t("compliance-flipped", "is_compliant true although 2/3 < 0.90.", ["LEDGER-019", "LEDGER-005"], d, text, "invalid",
      errors=["ledger-compliance-mismatch"], warnings=["ledger-coverage-low"], mode="lenient", flags=["threshold"])
    d = json.loads(json.dumps(prod)); d["metadata"]["coverage_score"] = 0.99
    t("score-edited", "coverage_score 0.99 where 2/2 gives 1.0.", ["LEDGER-019", "LEDGER-004"], d, text, "invalid",
      errors=["ledger-coverage-mismatch"], flags=["coverage-arithmetic"])
    d = json.loads(json.dumps(prod)); d["metadata"]["total_claims"] = 2
    t("total-edited", "total_claims 2 for three claims.", ["LEDGER-019", "LEDGER-003"], d, text, "invalid",
      errors=["ledger-count-mismatch"], flags=["counts"])
    d = json.loads(json.dumps(prod)); d["claims"][0]["confidence"] = "high"
    t("unknown-member", "A claim member the template does not write.", ["LEDGER-019"], d, text, "invalid",
      errors=["unknown-member"], flags=["shape"])
    edited = text.replace('"Costs fell."', '"Costs rose."', 1)
    assert edited != text
    t("record-edited", "The second record's text edited in the audit file.", ["LEDGER-019", "LEDGER-009"], prod,
      edited, "invalid", errors=["ledger-jsonl-record-mismatch"], flags=["record-match"])
    t("record-removed", "The run's last record removed: the block runs into the next request's records.",
      ["LEDGER-019", "LEDGER-009"], prod, "".join(lines[:3] + lines[4:]), "invalid",
      errors=["ledger-jsonl-record-mismatch"], flags=["record-match"])
    t("records-absent", "The audit file holds only the other requests' records.", ["LEDGER-019", "LEDGER-009"], prod,
      "".join(lines[:1] + lines[4:]), "invalid", errors=["ledger-jsonl-count-mismatch"], flags=["record-match"])
    t("replayed", "The run's records appended a second time.", ["LEDGER-019", "LEDGER-011"], prod,
      text + "".join(lines[1:4]), "invalid", errors=["ledger-id-reused"], flags=["multi-run"])
    t("other-torn", "Another request's record torn at the end of the file: a warning.", ["LEDGER-019", "LEDGER-008"],
      prod, text + lines[7][:30], "valid", warnings=["ledger-audit-file-damaged"], flags=["framing", "damage-elsewhere"])
    t("own-record-torn", "The run's last record cut short in place: the block is broken.", ["LEDGER-019", "LEDGER-008"],
      prod, "".join(lines[:3] + [lines[3][:30] + "\n"] + lines[4:]), "invalid",
      errors=["ledger-jsonl-count-mismatch"], warnings=["ledger-audit-file-damaged"], flags=["framing"])
    dup_text, dup = template_runs([("production", [("A rose.", "search-1", "web_search", True),
                                                   ("B fell.", "search-1", "web_fetch", True)])])
    t("dedup", "One source_id with two source types in the template's ledger.", ["LEDGER-019", "LEDGER-013"], dup[0],
      dup_text, "invalid", errors=["ledger-source-deduplicated"], flags=["dedup", "seed-file"])
    d = dict({"ledger_id": "run-t"}, **prod)
    own = [dict({"ledger_id": "run-t", "seq": i}, **json.loads(l)) for i, l in enumerate(lines[1:4])]
    with_id = "".join(lines[:1]) + jsonl(own) + "".join(lines[4:])
    t("with-ledger-id", "The template's ledger and records with citeproof's ledger_id and seq.",
      ["LEDGER-019", "LEDGER-011"], d, with_id, "valid", warnings=[], flags=["seq"])
    return cases


# ---- ledger-audit ----

def seed_export_file(runs):
    """The seed's export_audit_log (with the isoformat fix) appended once per run; returns
    (text, per-run claims as (text, source_id, category, needs))."""
    seed.use_stepping_clock(T0)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "audit.jsonl")
        for run in runs:
            ledger = seed.AttributionLedger()
            for text, ident, meta, needs in run:
                src = None
                if ident is not None:
                    src = seed.SourceReference(identifier=ident, category="web_search",
                                               endpoint=f"https://search.example/r/{ident}", metadata=meta)
                ledger.register(text, src, needs)
            seed.export_audit_log_iso(ledger, path)
        with open(path, encoding="utf-8") as f:
            return f.read()


def seed_template_file(runs, env):
    """The seed's ProductionAttributionPipeline.validate_and_finalize, once per run."""
    seed.use_stepping_clock(T0)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "audit.jsonl")
        for run in runs:
            p = seed.ProductionAttributionPipeline(env)
            p.audit_path = path
            for text, sid, stype, needs in run:
                p.record_claim(text, sid, stype, needs)
            p.validate_and_finalize()
        with open(path, encoding="utf-8") as f:
            return f.read()


def audit_cases():
    cases = []
    detail = "Files written by the seed's own code (vectors/tools/ledger_seed.py); output from the seed's validate_and_finalize and audit_coverage on the same claims; codes by hand from PROFILE.md."

    def a(id, desc, reqs, export, result, ledgers=None, errors=None, warnings=None, flags=(), mode=None,
          threshold=None, ledger_id=None, export_base64=None):
        inp = dict(export_input(export, export_base64),
                   **given(mode=mode, threshold=threshold, ledger_id=ledger_id))
        out = {"ledgers": ledgers} if ledgers is not None else None
        cases.append(case("ledger-audit-" + id, desc, reqs, 1, inp, result, errors=errors, warnings=warnings,
                          output=out, derivation_=derivation("independent-tool", detail), flags=list(flags)))

    def entry(ledger_id, claims, threshold):
        return dict({"ledger_id": ledger_id}, **seed_coverage(claims, threshold))

    run1 = [("Market analysis indicates a 4% shift in Q3.", "search-1", {"rank": 1}, True),
            ("Competitors lag behind.", None, {}, True),
            ("The pipeline processed 1 source.", None, {}, False)]
    run2 = [("Rates held steady in May.", "search-2", {"rank": 2}, True)]
    text = seed_export_file([run1, run2])
    as_claims = [(t, i, "web_search" if i else None, n) for t, i, _, n in run1 + run2]
    a("seed-export-two-runs", "Two requests appended by the seed's export_audit_log: no ledger id, so one group.",
      ["LEDGER-008", "LEDGER-010", "LEDGER-012", "LEDGER-003", "LEDGER-004", "LEDGER-005"], text, "valid",
      ledgers=[entry(None, as_claims, 1.0)], warnings=["ledger-record-unidentified"],
      flags=["seed-file", "null-source", "multi-run", "should-warning"])
    a("seed-export-lenient", "The same file audited lenient at the seed's 0.90.", ["LEDGER-005"], text, "valid",
      ledgers=[entry(None, as_claims, 0.9)], warnings=["ledger-record-unidentified"], mode="lenient",
      flags=["seed-file", "threshold"])

    trun1 = [("Q3 revenue grew 4%.", "search-1", "web_search", True),
             ("Sorted by confidence.", None, None, False)]
    trun2 = [("Costs fell.", "fetch-2", "web_fetch", True), ("Margins widened.", None, None, True)]
    ttext = seed_template_file([trun1, trun2], "staging")
    a("seed-template", "Records written by the seed's production template (_persist_audit), two staging runs.",
      ["LEDGER-010", "LEDGER-004"], ttext, "valid", ledgers=[entry(None, trun1 + trun2, 0.9)],
      warnings=["ledger-record-unidentified"], mode="lenient", flags=["seed-file", "record-form"])

    base = ledger_doc(base_claims())
    other = ledger_doc([claim("Run b's only claim.", None)], ledger_id="run-b", mode="lenient", threshold=0.9)
    both = jsonl(records(base) + records(other))

    def claims_of(doc):
        return [(c["text"], c["source"]["identifier"] if c["source"] else None, None, c["requires_attribution"])
                for c in doc["claims"]]
    a("citeproof-two-ledgers", "Records with ledger ids: one report per ledger, in file order.",
      ["LEDGER-011", "LEDGER-012", "LEDGER-020"], both, "valid",
      ledgers=[entry("run-a", claims_of(base), 0.9), entry("run-b", claims_of(other), 0.9)],
      warnings=[], mode="lenient", threshold=0.9, flags=["multi-run", "null-source"])
    a("citeproof-one-ledger", "--ledger-id picks one ledger of the file.", ["LEDGER-011", "LEDGER-020"], both, "valid",
      ledgers=[entry("run-b", claims_of(other), 1.0)], warnings=[], ledger_id="run-b", flags=["multi-run"])
    a("id-reused", "A ledger id in two blocks.", ["LEDGER-011"], both + jsonl(records(base)), "invalid",
      errors=["ledger-id-reused"], flags=["multi-run"])
    a("threshold-0", "A lenient threshold of 0 is refused.", ["LEDGER-005"], both, "invalid",
      errors=["ledger-threshold-invalid"], mode="lenient", threshold=0, flags=["threshold"])
    a("strict-threshold-090", "Strict mode with threshold 0.9 is refused.", ["LEDGER-005"], both, "invalid",
      errors=["ledger-threshold-invalid"], mode="strict", threshold=0.9, flags=["threshold"])
    a("empty-file", "An empty audit file is well-formed, but an audit of it read no record: nothing was audited.",
      ["LEDGER-008", "LEDGER-020"], "", "invalid", errors=["ledger-audit-empty"], flags=["framing", "empty-audit"])
    a("ledger-id-absent", "An audit of a ledger id the file does not hold.", ["LEDGER-020"], both, "invalid",
      errors=["ledger-audit-empty"], ledger_id="run-z", flags=["empty-audit", "multi-run"])
    a("only-damage", "A file whose only line is torn: the damage, and nothing audited.", ["LEDGER-008", "LEDGER-020"],
      json.dumps(records(base)[0])[:50], "invalid", errors=["ledger-jsonl-malformed", "ledger-audit-empty"],
      flags=["framing", "empty-audit"])

    # LEDGER-008: damage, whole file against one ledger
    other_torn = both + json.dumps(records(other)[0])[:60]
    a("torn-other-whole-file", "run-b's record appended again and torn: auditing the whole file, the damage is an error.",
      ["LEDGER-008"], other_torn, "invalid", errors=["ledger-jsonl-malformed"], flags=["framing", "multi-run"])
    a("torn-other-by-id", "The same file audited for run-a: run-b's torn line is a warning.", ["LEDGER-008"],
      other_torn, "valid", ledgers=[entry("run-a", claims_of(base), 1.0)], warnings=["ledger-audit-file-damaged"],
      ledger_id="run-a", flags=["framing", "multi-run", "damage-elsewhere"])
    a("torn-own-by-id", "The same file audited for run-b, whose line is torn: an error.", ["LEDGER-008"], other_torn,
      "invalid", errors=["ledger-jsonl-malformed"], ledger_id="run-b", flags=["framing", "multi-run"])
    unnamed = both + json.dumps(records(other)[0])[:9]
    a("torn-unnamed-by-id", "A torn line that names no ledger, auditing run-a: it may be one of run-a's records, so an error.",
      ["LEDGER-008"], unnamed, "invalid", errors=["ledger-jsonl-malformed"], ledger_id="run-a",
      flags=["framing", "multi-run"])
    a("bom-whole-file", "A byte order mark, auditing the whole file.", ["LEDGER-008"], "\ufeff" + both, "invalid",
      errors=["ledger-jsonl-malformed"], flags=["framing"])
    a("bom-by-id", "A byte order mark, auditing run-a: it holds no record; a warning.", ["LEDGER-008"], "\ufeff" + both,
      "valid", ledgers=[entry("run-a", claims_of(base), 1.0)], warnings=["ledger-audit-file-damaged"],
      ledger_id="run-a", flags=["framing", "damage-elsewhere"])

    # LEDGER-011: interleaving and seq
    busy = ledger_doc([claim("Run c's first claim.", None), claim("Run c's second claim.", None, requires=False)],
                      ledger_id="run-c", mode="lenient", threshold=0.9)
    mixed = interleave(records(base), records(busy))
    a("interleaved", "Two requests appended record by record at once, with seq: both audited.", ["LEDGER-011"],
      jsonl(mixed), "valid", ledgers=[entry("run-a", claims_of(base), 1.0), entry("run-c", claims_of(busy), 1.0)],
      warnings=[], flags=["interleaved", "seq", "multi-run"])
    a("interleaved-no-seq", "The same records without seq: a second block of each id.", ["LEDGER-011"],
      jsonl(interleave(records(base, seq=False), records(busy, seq=False))), "invalid", errors=["ledger-id-reused"],
      flags=["interleaved", "multi-run"])
    a("interleaved-replayed", "Interleaved records, then run-a's appended again.", ["LEDGER-011"],
      jsonl(mixed + records(base)), "invalid", errors=["ledger-id-reused"], flags=["interleaved", "seq", "multi-run"])
    r = records(base); del r[1]
    a("seq-gap", "run-a's middle record missing: seq runs 0, 2.", ["LEDGER-011"], jsonl(r), "invalid",
      errors=["ledger-seq-broken"], flags=["seq"])
    r = records(other); del r[0]["ledger_id"]
    a("seq-without-ledger-id", "A record with seq and no ledger_id.", ["LEDGER-010"], jsonl(records(base) + r),
      "invalid", errors=["schema-violation"], flags=["seq", "record-form"])

    # LEDGER-018: the seed's records with pitfall 6's members
    seed.use_stepping_clock(T0)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "audit.jsonl")
        ledger = seed.AttributionLedger()
        ledger.register("Q3 revenue grew 4%.", seed.VersionedSourceReference(
            identifier="search-1", category="web_search", endpoint="https://search.example/r/1",
            query_hash="sha256:" + "ab" * 32, snapshot_ref="snapshots/search-1.warc"), True)
        ledger.register("Costs fell.", None, False)
        seed.export_audit_log_iso(ledger, path)
        with open(path, encoding="utf-8") as f:
            versioned = f.read()
    assert '"query_hash"' in versioned and '"snapshot_ref"' in versioned
    a("seed-versioned-source", "The seed's export_audit_log of a source reference with query_hash and snapshot_ref (pitfall 6).",
      ["LEDGER-018", "LEDGER-010"], versioned, "valid",
      ledgers=[entry(None, [("Q3 revenue grew 4%.", "search-1", "web_search", True), ("Costs fell.", None, None, False)], 1.0)],
      warnings=["ledger-record-unidentified", "ledger-source-member-undefined"],
      flags=["seed-file", "undefined-member", "should-warning"])

    dup = [("Q3 revenue grew 4%.", "search-1", {"rank": 1}, True),
           ("Q3 demand rose.", "search-1", {"rank": 7}, True)]
    a("seed-premature-dedup", "The seed's records: one identifier for two retrievals (other rank, other time).",
      ["LEDGER-013"], seed_export_file([dup]), "invalid", errors=["ledger-source-deduplicated"], flags=["dedup", "seed-file"])
    a("torn-append", "A seed file whose last record lost its LF.", ["LEDGER-008"], text[:-1], "invalid",
      errors=["ledger-jsonl-malformed"], flags=["framing", "seed-file"])
    a("invalid-utf8", "A line that is not UTF-8.", ["LEDGER-008", "JSON-001"], None, "invalid",
      errors=["json-invalid-utf8"], export_base64=text.encode() + b'{"claim":"\xc3"}\n', flags=["framing", "json-input"])
    t = text.replace('"requires_proof": false', '"requires_proof": "no"', 1)
    a("record-wrong-type", "requires_proof written as a string.", ["LEDGER-010"], t, "invalid",
      errors=["schema-violation"], flags=["record-form", "seed-file"])
    return cases


def fixtures():
    """Files for the CLI tests and the README, in vectors/fixtures/ledger/."""
    d = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "ledger")
    os.makedirs(d, exist_ok=True)
    run1 = [("Market analysis indicates a 4% shift in Q3.", "search-1", {"rank": 1}, True),
            ("Competitors lag behind.", None, {}, True),
            ("The pipeline processed 1 source.", None, {}, False)]
    run2 = [("Rates held steady in May.", "search-2", {"rank": 2}, True)]
    base = ledger_doc(base_claims())
    other = ledger_doc([claim("Run b's only claim.", source("search-9", "web_search", "call-1", T0 + 100),
                              recorded=T0 + 110)], ledger_id="run-b")
    busy = ledger_doc([claim("Run b's first claim.", source("search-9", "web_search", "call-1", T0 + 5), recorded=T0 + 11),
                       claim("Run b's second claim.", None, requires=False, recorded=T0 + 12)], ledger_id="run-b")
    # Two workers appending record by record at once, then a third whose append was cut short.
    shared = jsonl(interleave(records(base), records(busy, logged=T0 + 21)))
    third = ledger_doc([claim("Run c's only claim.", None, requires=False, recorded=T0 + 25)], ledger_id="run-c")
    shared += json.dumps(records(third, logged=T0 + 30)[0])[:70]
    template_text, template_ledgers = template_runs(TEMPLATE_RUNS)
    files = {
        "audit-shared.jsonl": shared,
        "template-audit.jsonl": template_text,
        "template-ledger-production.json": json.dumps(template_ledgers[1], indent=2) + "\n",
        "template-ledger-staging.json": json.dumps(template_ledgers[2], indent=2) + "\n",
        "seed-export.jsonl": seed_export_file([run1, run2]),
        "seed-template.jsonl": seed_template_file([[("Q3 revenue grew 4%.", "search-1", "web_search", True),
                                                    ("Sorted by confidence.", None, None, False)]], "production"),
        "ledger-run-a.json": json.dumps(base, indent=2) + "\n",
        "ledger-run-b.json": json.dumps(other, indent=2) + "\n",
        "audit-two-runs.jsonl": jsonl(records(base) + records(other, logged=T0 + 120)),
        "api-run-a.json": json.dumps(api_of(base), indent=2) + "\n",
    }
    for name, text in sorted(files.items()):
        with open(os.path.join(d, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(f"wrote vectors/fixtures/ledger/{name}")


def main():
    fixtures()
    write("ledger/level1/verify.json", "ledger", "ledger-verify",
          "Attribution ledger (seed 003): a ledger document against the records of its id in an append-only JSONL audit file, and its export_for_api dictionary.",
          verify_cases(), flags=FLAGS)
    write("ledger/level1/audit.json", "ledger", "ledger-audit",
          "Attribution ledger (seed 003): coverage of the records of a JSONL audit file, per ledger id, as the seed's validate_and_finalize computes it.",
          audit_cases(), flags=FLAGS)


if __name__ == "__main__":
    main()
