"""Archive citations and the coverage gate (seed 002): verify a signed response bundle and its
display view against the archive, and an append-only bundle log."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ._verdict import Verdict, document_text, drop_none, run_check

__all__ = ["verify", "verify_log"]


def verify(bundle: str | bytes | Mapping[str, Any], display: str | bytes | Mapping[str, Any], *,
           archive: Mapping[str, Any], now: int, keys: Mapping[str, Any] | None = None,
           secrets: Mapping[str, Mapping[str, str | bytes]] | None = None) -> Verdict:
    """One response bundle and its display view against ``archive``
    (``{"snapshots": [...], "artifacts": {...}}``). ``keys``: ``signedBy`` -> JWK Set;
    ``secrets``: ``signedBy`` -> ``{kid: secret}`` (bytes are read as UTF-8 text, as the seed
    signs). A signature is verified only with a key configured for its own signer and kid."""
    if secrets is not None:
        secrets = {s: {k: (v.decode("utf-8") if isinstance(v, (bytes, bytearray)) else v)
                       for k, v in kids.items()} for s, kids in secrets.items()}
    return run_check("archive-verify", drop_none({
        "bundle": document_text(bundle), "display": document_text(display),
        "archive": dict(archive), "now": now,
        "keys": dict(keys) if keys is not None else None, "secrets": secrets}))


def verify_log(log: str, *, archive: Mapping[str, Any], now: int,
               bundles: Sequence[str | bytes | Mapping[str, Any]] | None = None,
               head: Mapping[str, Any] | None = None) -> Verdict:
    """A bundle log (JSON lines): chain of hashes, budget, context requests, the bundles that
    must be logged, and the ``head`` obtained earlier (``{"seq", "hash"}``)."""
    return run_check("archive-log-verify", drop_none({
        "log": log, "archive": dict(archive), "now": now,
        "bundles": [document_text(b) for b in bundles] if bundles is not None else None,
        "head": dict(head) if head is not None else None}))
