"""Archive citations and the coverage gate (seed 002): gate a response into a signed bundle and
its display view (:func:`gate`, what ``citeproof archive gate`` does), verify a bundle and its
display view against the archive (:func:`verify`), and an append-only bundle log
(:func:`verify_log`)."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence, TypedDict

from . import _native
from ._verdict import Verdict, document_text, drop_none, run_check
from .keys import SigningKey, load_key

__all__ = ["Gated", "gate", "verify", "verify_log"]


class _GatedRequired(TypedDict):
    bundle: dict[str, Any]
    display: dict[str, Any]
    bundle_hash: str
    rungs: list[tuple[str, str]]


class Gated(_GatedRequired, total=False):
    """What :func:`gate` returns: ``bundle`` (the signed response bundle, auditor-facing: the
    file ``--bundle`` writes), ``display`` (the display view, requestor-facing: ``--display``),
    ``bundle_hash`` (``sha256:`` of the bundle's RFC 8785 form, which the view is bound to),
    ``rungs`` (``(claim_id, rung)`` per claim, as the CLI lists them) and, when a ``log`` was
    given, ``log_line``: the bundle log record to append to it (one JSON line, ARCHIVE-029)."""

    log_line: str


def _json_bytes(document: str | bytes | Mapping[str, Any]) -> bytes:
    """The JSON bytes of a document: bytes as they are (invalid UTF-8 is refused by the strict
    parse, never replaced), text encoded, objects serialized."""
    if isinstance(document, (bytes, bytearray, memoryview)):
        return bytes(document)
    if isinstance(document, str):
        return document.encode("utf-8")
    return json.dumps(document).encode("utf-8")


def gate(request: str | bytes | Mapping[str, Any], *, archive: str | bytes | Mapping[str, Any],
         signed_by: str, kid: str, now: int,
         key: SigningKey | bytes | str | Mapping[str, Any] | None = None,
         secret: bytes | str | None = None, log: str | bytes | None = None,
         plaintext_excerpts: bool = False) -> Gated:
    """Gates one response as ``citeproof archive gate REQUEST --archive A ...`` does: each
    claim's citations verified against ``archive`` and its rung earned, removed topics and
    refusals decided, the bundle signed (at ``now``, Unix seconds; also its ``created_at`` when
    the request has none) and the display view built.

    ``request``: the gate request (``response_id``, ``requester``, ``tier``, ``created_at``?,
    ``claims``, ``category_refusal``?, ``downgrade``?; checked against
    ``schemas/archive-gate-request.schema.json``); ``archive``: ``{"snapshots", "artifacts"}``.
    Signed with exactly one of ``key`` (Ed25519: a :data:`~citeproof.keys.SigningKey`, PEM or a
    private JWK; the ``--key`` of the CLI) and ``secret`` (HMAC-SHA256 shared secret, bytes or
    text, used as given: the CLI strips one final newline from ``--secret-file``).
    ``log``: the current text of the bundle log (``""`` for a new one); the result's
    ``log_line`` is then the record to append (append it before delivering the bundle).
    ``plaintext_excerpts``: put the unredacted span text in each citation (ARCHIVE-023
    advises against it).

    Raises :class:`~citeproof.errors.GateError` when the gate refuses to assemble (a citation
    that does not verify, an unknown tier, ...; nothing is signed),
    :class:`~citeproof.errors.InvalidDocumentError` for a request, archive or log that is not
    of its shape, :class:`~citeproof.errors.InvalidInputError` for bad arguments.
    """
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if isinstance(log, (bytes, bytearray)):
        log = bytes(log).decode("utf-8")
    out = json.loads(_native.archive_gate(
        _json_bytes(request), _json_bytes(archive), kid, signed_by, now,
        load_key(key) if key is not None else None, secret, log, plaintext_excerpts))
    out["rungs"] = [tuple(r) for r in out["rungs"]]
    return out


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
