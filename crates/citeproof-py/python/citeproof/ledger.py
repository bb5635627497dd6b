"""The attribution ledger (seed 003): register claims at the tool boundary with the bytes they
come from, gate coverage before a response is emitted, and emit the ledger document, the JSONL
audit records, the seed's ``export_for_api`` dictionary and the ACA manifest of the run; verify
a ledger against its audit records, and audit a JSONL file's coverage per ledger."""

from __future__ import annotations

import base64
import json
from typing import Any, Mapping, Sequence

from . import _native
from ._verdict import Verdict, document_text, drop_none, run_check

__all__ = ["Ledger", "verify", "audit", "STRICT", "LENIENT"]

STRICT = "strict"
LENIENT = "lenient"


class Ledger:
    """The ledger of one agent run (seed 003's ``AttributionLedger``).

    ``mode``: ``"strict"`` (every claim that requires attribution must be cited, threshold 1.0)
    or ``"lenient"`` (``threshold``, default 0.90). ``clock_start``: Unix seconds of a stepping
    clock (``clock_step`` seconds a reading) for reproducible output; by default the system
    clock. Claims are located in the captured bytes when registered: their manifest carries byte
    offsets and hashes computed from those bytes.

    >>> ledger = Ledger(run_id="run-1", clock_start=1_700_000_000)
    >>> search = ledger.tool_call("web_fetch", {"url": "https://docs.example/a"})
    >>> page = ledger.capture(search, "https://docs.example/a", b"The sky is blue.")
    >>> ledger.register("The sky is blue.", capture=page, quote="The sky is blue.")
    'c-...'
    """

    def __init__(self, run_id: str | None = None, *, mode: str = STRICT,
                 threshold: float | None = None, clock_start: int | None = None,
                 clock_step: int = 1) -> None:
        self._native = _native.Ledger(run_id, mode, threshold, clock_start, clock_step)

    @property
    def run_id(self) -> str:
        return self._native.run_id

    def tool_call(self, tool: str, inputs: Mapping[str, Any] | None = None, *,
                  private: bool = False, inputs_from: Sequence[int] = ()) -> int:
        """Records a tool call (a chain step); returns its handle. ``private``: only the hash of
        the inputs' JCS form is recorded. ``inputs_from``: earlier calls whose outputs it used."""
        return self._native.tool_call(tool, json.dumps(dict(inputs)) if inputs is not None else None,
                                      private, list(inputs_from))

    def capture(self, call: int, url: str, body: bytes, *, category: str = "web_fetch",
                fetched_at: str | None = None, identifier: str | None = None,
                metadata: Mapping[str, Any] | None = None) -> int:
        """Captures the bytes ``call`` fetched from ``url``; returns the capture's handle."""
        return self._native.capture(call, url, bytes(body), category, fetched_at, identifier,
                                    json.dumps(dict(metadata)) if metadata is not None else None)

    def register(self, text: str, *, capture: int | None = None, quote: str | None = None,
                 start: int | None = None, end: int | None = None,
                 requires_attribution: bool = True, claim_id: str | None = None,
                 confidence: str | None = None) -> str:
        """Registers a claim; returns its id. With ``capture``, ``quote`` (text that occurs once
        in the captured bytes) or ``start``/``end`` (byte offsets) locates the excerpt.
        ``requires_attribution=False`` for computational or structural claims."""
        return self._native.register(text, capture, quote, start, end, requires_attribution,
                                     claim_id, confidence)

    def audit_coverage(self) -> dict[str, Any]:
        """The seed's ``audit_coverage()``: ``total_claims``, ``required_claims``,
        ``cited_claims``, ``coverage_score``, ``threshold``, ``is_compliant``, ``uncited_claims``."""
        return json.loads(self._native.audit_coverage())

    def gate(self) -> dict[str, Any]:
        """The coverage gate: the coverage, or :class:`~citeproof.errors.LedgerError` when the
        response must not be emitted."""
        return json.loads(self._native.gate())

    def to_document(self) -> dict[str, Any]:
        """The ledger document of an emitted response (LEDGER-001); gated."""
        return json.loads(self._native.to_document())

    def document_of_refused(self) -> dict[str, Any]:
        """The ledger document of a refused response (kept for the audit)."""
        return json.loads(self._native.document_of_refused())

    def export_for_api(self) -> dict[str, Any]:
        """The seed's ``export_for_api()`` dictionary (LEDGER-016)."""
        return json.loads(self._native.export_for_api())

    def export_audit_log(self) -> str:
        """The JSONL audit records (one per claim), to append to a shared audit file."""
        return self._native.export_audit_log()

    def build_manifest(self, agent_id: str, *, with_chain: bool = True) -> dict[str, Any]:
        """The ACA manifest of the run after the gate; ``with_chain`` for Level 3."""
        return json.loads(self._native.build_manifest(agent_id, with_chain))

    def __repr__(self) -> str:
        return repr(self._native)


def _export(export: str | bytes) -> dict[str, str]:
    if isinstance(export, str):
        return {"export": export}
    return {"export_base64": base64.b64encode(bytes(export)).decode("ascii")}


def verify(ledger: str | bytes | Mapping[str, Any], export: str | bytes, *,
           emitted: bool | None = None, now: int | None = None,
           api: str | bytes | Mapping[str, Any] | None = None, mode: str | None = None,
           threshold: float | None = None) -> Verdict:
    """A ledger document against its records in a JSONL audit file (text, or bytes for a file
    that is not UTF-8) shared by other requests, and optionally its ``export_for_api``."""
    return run_check("ledger-verify", drop_none({
        "ledger": document_text(ledger), **_export(export), "emitted": emitted, "now": now,
        "api": document_text(api) if api is not None else None, "mode": mode,
        "threshold": threshold}))


def audit(export: str | bytes, *, mode: str | None = None, threshold: float | None = None,
          ledger_id: str | None = None, now: int | None = None) -> Verdict:
    """The coverage audit of a JSONL audit file, per ledger: ``output["ledgers"]``, each with
    ``ledger_id``, ``total_claims``, ``required_claims``, ``cited_claims``, ``coverage_score``,
    ``is_compliant`` and ``uncited_claims``."""
    return run_check("ledger-audit", drop_none({
        **_export(export), "mode": mode, "threshold": threshold, "ledger_id": ledger_id,
        "now": now}))
