"""Seed 003's own code (vectors/tools/ledger_seed.py) on both sides of citeproof's ledger.

    python3 seed_interop.py produce DIR   # the seed writes files; prints what the seed computed
    python3 seed_interop.py consume DIR   # the seed reads what citeproof wrote; prints its results

Standard library only. Used by tests/seed_interop.rs.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "vectors", "tools"))
import ledger_seed as seed  # noqa: E402


def produce(d):
    seed.use_stepping_clock(1778925600)
    out = {}
    # Step 1-4: a request with a cited, an uncited and an exempt claim, then a second request.
    ledger = seed.AttributionLedger()
    ledger.register("Market analysis indicates a 4% shift in Q3.",
                    seed.SourceReference(identifier="search-77", category="web_search",
                                         endpoint="https://api.search.example/q?id=77",
                                         metadata={"rank": 1, "domain": "search.example"}), True)
    ledger.register("Competitors lag behind.", None, True)
    ledger.register("The pipeline processed 1 source.", None, False)
    second = seed.AttributionLedger()
    second.register("Rates held steady in May.",
                    seed.SourceReference(identifier="search-78", category="web_search"), True)
    path = os.path.join(d, "seed-export.jsonl")
    # The published export_audit_log cannot serialize a cited claim's datetime.
    try:
        seed.export_audit_log(ledger, os.path.join(d, "verbatim.jsonl"))
        out["verbatim_error"] = None
    except TypeError as e:
        out["verbatim_error"] = str(e)
    seed.export_audit_log_iso(ledger, path)
    seed.export_audit_log_iso(second, path)
    both = seed.AttributionLedger()
    both._entries = ledger._entries + second._entries
    r = seed.audit_coverage(both)
    out["audit_coverage"] = {"total": r.total_claims, "cited": r.cited_claims,
                             "uncited": r.uncited_claims, "compliant": r.is_compliant,
                             "summary": r.summary()}
    with open(os.path.join(d, "seed-api.json"), "w") as f:
        json.dump(seed.export_for_api(ledger), f)
    # The production template, staging (lenient 0.90), then production (strict) twice.
    os.environ["AUDIT_LOG_PATH"] = os.path.join(d, "seed-template.jsonl")
    finals = []
    for env, claims in [
        ("staging", [("Q3 revenue grew 4%.", "search-1", "web_search", True),
                     ("Margins widened.", None, None, True),
                     ("Sorted by confidence.", None, None, False)]),
        ("production", [("Costs fell.", "fetch-2", "web_fetch", True)]),
        ("production", [("Costs fell again.", None, None, True)]),
    ]:
        p = seed.ProductionAttributionPipeline(env)
        for c in claims:
            p.record_claim(*c)
        try:
            returned = p.validate_and_finalize()
            finals.append(returned["metadata"])
            # The template's ledger itself, as validate_and_finalize() returns it.
            with open(os.path.join(d, f"template-ledger-{len(finals) - 1}.json"), "w") as f:
                json.dump(returned, f)
        except RuntimeError as e:
            finals.append({"raised": str(e)})
    out["validate_and_finalize"] = finals
    print(json.dumps(out))


def consume(d):
    """Reads citeproof's audit records back into the seed's own dataclasses, and runs the
    seed's audit, template arithmetic and export_for_api on them."""
    ledger = seed.AttributionLedger()
    ids = set()
    with open(os.path.join(d, "audit.jsonl"), encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            ids.add(rec.get("ledger_id"))
            src = rec["source"]
            ref = None
            if src is not None:
                ref = seed.SourceReference(identifier=src["identifier"], category=src["category"],
                                           endpoint=src.get("endpoint"), metadata=src.get("metadata") or {},
                                           fetched_at=seed.datetime.fromisoformat(src["fetched_at"].replace("Z", "+00:00")))
            ledger.register(rec["claim"], ref, rec["requires_proof"])
    r = seed.audit_coverage(ledger)
    p = seed.ProductionAttributionPipeline("staging")
    p.audit_path = os.path.join(d, "template-out.jsonl")
    for e in ledger._entries:
        p.record_claim(e.text, e.source.identifier if e.source else None,
                       e.source.category if e.source else None, e.requires_attribution)
    meta = p.validate_and_finalize()["metadata"]
    api = seed.export_for_api(ledger)
    # isoformat() writes +00:00 where citeproof writes Z: the seed's own rendering.
    print(json.dumps({"ledger_ids": sorted(i for i in ids if i), "audit_coverage": {
        "total": r.total_claims, "cited": r.cited_claims, "uncited": r.uncited_claims,
        "compliant": r.is_compliant}, "template": {"coverage_score": meta["coverage_score"],
        "is_compliant": meta["is_compliant"], "total_claims": meta["total_claims"]}, "api": api}))


if __name__ == "__main__":
    {"produce": produce, "consume": consume}[sys.argv[1]](sys.argv[2])
