"""Seed 003's code (shared/seeds/003_d6acefe2be54255c.txt), the network-free parts, as published.

Standard library only; never imports or runs citeproof. The ledger vectors take their expected
values from this code, and `crates/citeproof-ledger/tests/python/seed_interop.py` runs it against
what citeproof writes.

What is verbatim and what is not:

- Step 1 lost its beginning when the page was converted: the definitions of `SourceReference`,
  `ClaimRecord` and the head of `AttributionLedger` are gone. They are reconstructed here from
  their uses, and marked RECONSTRUCTED: `SourceReference(identifier=..., category=...,
  endpoint=..., metadata=...)` (Step 2) without `fetched_at`, yet `e.source.fetched_at.isoformat()`
  (Step 4), so `fetched_at` is a `datetime` with a default; the rationale says "dataclasses ensures
  immutability", so the dataclasses are frozen; `ClaimRecord(text=, source=, requires_attribution=)`.
- `register`, `CoverageReport`, `audit_coverage`, `export_for_api`, `export_audit_log` (Step 1,
  3, 4) and `ProductionAttributionPipeline` (Configuration Template) are the seed's code, with the
  seed's indentation restored.
- `export_audit_log` as published cannot write a cited claim: `vars(entry.source)` holds the
  `fetched_at` datetime, which `json.dumps` refuses (TypeError). `export_audit_log_iso` is the
  same function with the one change a user makes to run it: `json.dumps(record,
  default=_isoformat)`, writing `fetched_at` as `isoformat()`, the form `export_for_api` uses.
  That is what profile LEDGER-010 calls the seed's record as written.
"""

import datetime as _stdlib_datetime
import inspect
import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional


# ---- Step 1 (RECONSTRUCTED: the seed's text starts inside AttributionLedger.__init__) ----

@dataclass(frozen=True)
class SourceReference:  # RECONSTRUCTED from Step 2 and Step 4
    identifier: str
    category: str
    endpoint: Optional[str] = None
    metadata: Dict[str, Any] = field(default_factory=dict)
    fetched_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))


@dataclass(frozen=True)
class ClaimRecord:  # RECONSTRUCTED from Step 1's register()
    text: str
    source: Optional[SourceReference]
    requires_attribution: bool = True


class AttributionLedger:
    def __init__(self) -> None:  # RECONSTRUCTED head; the body line is the seed's
        self._entries: List[ClaimRecord] = []

    def register(self, claim_text: str, source: Optional[SourceReference], needs_proof: bool = True) -> None:
        self._entries.append(ClaimRecord(
            text=claim_text,
            source=source,
            requires_attribution=needs_proof
        ))


# ---- Step 3 (seed) ----

@dataclass
class CoverageReport:
    total_claims: int
    cited_claims: int
    uncited_claims: List[str]
    is_compliant: bool

    def summary(self) -> str:
        return f"Coverage: {self.cited_claims}/{self.total_claims} | Compliant: {self.is_compliant}"


def audit_coverage(ledger: AttributionLedger) -> CoverageReport:
    uncited = [
        entry.text for entry in ledger._entries
        if entry.requires_attribution and entry.source is None
    ]
    return CoverageReport(
        total_claims=len(ledger._entries),
        cited_claims=len(ledger._entries) - len(uncited),
        uncited_claims=uncited,
        is_compliant=len(uncited) == 0
    )


# ---- Step 4 (seed) ----

def export_for_api(ledger: AttributionLedger) -> Dict[str, Any]:
    return {
        "output_summary": " ".join(e.text for e in ledger._entries),
        "attribution_map": [
            {
                "claim": e.text,
                "source_id": e.source.identifier if e.source else None,
                "source_category": e.source.category if e.source else None,
                "timestamp": e.source.fetched_at.isoformat() if e.source else None
            }
            for e in ledger._entries
        ]
    }


def export_audit_log(ledger: AttributionLedger, filepath: str) -> None:
    with open(filepath, "a", encoding="utf-8") as stream:
        for entry in ledger._entries:
            record = {
                "claim": entry.text,
                "source": vars(entry.source) if entry.source else None,
                "requires_proof": entry.requires_attribution,
                "logged_at": datetime.now(timezone.utc).isoformat()
            }
            stream.write(json.dumps(record) + "\n")


def _isoformat(value):
    if isinstance(value, _stdlib_datetime.datetime):
        return value.isoformat()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _with_one_change(function, old, new, name):
    """`function` redefined from its own source under `name`, with one literal replaced (it must
    stand there exactly once): the seed's code stays verbatim, and the change is exactly one."""
    source = inspect.getsource(function)
    assert source.count(old) == 1, f"{function.__name__}: {old!r} found {source.count(old)} times"
    source = source.replace(old, new).replace(f"def {function.__name__}(", f"def {name}(", 1)
    scope = {}
    exec(compile(source, __file__, "exec"), globals(), scope)
    return scope[name]


# `export_audit_log` with `json.dumps(record, default=_isoformat)`: the only change.
export_audit_log_iso = _with_one_change(export_audit_log, "json.dumps(record)",
                                        "json.dumps(record, default=_isoformat)", "export_audit_log_iso")


# ---- Configuration Template (seed) ----

class ProductionAttributionPipeline:
    def __init__(self, env: str = "production") -> None:
        self.env = env
        self.strict_mode = env == "production"
        self.coverage_threshold = 1.0 if self.strict_mode else 0.90
        self.audit_path = os.getenv("AUDIT_LOG_PATH", "/var/log/agent-attribution.jsonl")
        self._ledger: Dict[str, Any] = {"claims": [], "metadata": {}}

    def record_claim(self, text: str, source_id: Optional[str], source_type: Optional[str], needs_proof: bool = True) -> None:
        self._ledger["claims"].append({
            "text": text,
            "source_id": source_id,
            "source_type": source_type,
            "requires_proof": needs_proof,
            "recorded_at": datetime.now(timezone.utc).isoformat()
        })

    def validate_and_finalize(self) -> Dict[str, Any]:
        required_claims = [c for c in self._ledger["claims"] if c["requires_proof"]]
        cited_claims = [c for c in required_claims if c["source_id"] is not None]
        coverage = len(cited_claims) / len(required_claims) if required_claims else 1.0
        is_compliant = coverage >= self.coverage_threshold
        if not is_compliant and self.strict_mode:
            raise RuntimeError(f"Attribution coverage {coverage:.2%} below threshold {self.coverage_threshold:.0%}")
        self._ledger["metadata"] = {
            "coverage_score": coverage,
            "is_compliant": is_compliant,
            "total_claims": len(self._ledger["claims"]),
            "validated_at": datetime.now(timezone.utc).isoformat()
        }
        self._persist_audit()
        return self._ledger

    def _persist_audit(self) -> None:
        with open(self.audit_path, "a", encoding="utf-8") as f:
            for claim in self._ledger["claims"]:
                f.write(json.dumps(claim) + "\n")


# ---- Pitfall 6 applied (not seed code) ----

@dataclass(frozen=True)
class VersionedSourceReference(SourceReference):
    """A `SourceReference` as seed 003's Pitfall 6 asks: "Always record fetched_at timestamps,
    query hashes, and response snapshots. Store versioned source references". The member names
    are this file's (the seed names none); `vars()` writes them after the seed's five."""
    query_hash: Optional[str] = None
    snapshot_ref: Optional[str] = None


# ---- A deterministic clock for reproducible files (not seed code) ----

class SteppingDatetime(datetime):
    """`datetime.now()` that advances 1.5 s per call from a fixed instant, so that generated
    files are byte-for-byte reproducible and carry `isoformat()` fractions (`.500000`)."""

    _next = None

    @classmethod
    def start(cls, unix_seconds: float) -> None:
        cls._next = unix_seconds

    @classmethod
    def now(cls, tz=None):
        t = cls._next
        cls._next = t + 1.5
        base = datetime.fromtimestamp(t, tz or timezone.utc)
        return cls(base.year, base.month, base.day, base.hour, base.minute, base.second,
                   base.microsecond, base.tzinfo)


def use_stepping_clock(unix_seconds: float) -> None:
    """Makes every `datetime.now(...)` of the seed code above read the stepping clock."""
    SteppingDatetime.start(unix_seconds)
    globals()["datetime"] = SteppingDatetime
