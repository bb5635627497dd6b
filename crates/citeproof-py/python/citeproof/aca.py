"""Agent Citation Attribution (seed 000): the ``Citation-Source`` header, manifests, discovery
documents, RFC 9421 signed manifest responses, and their verification (Levels 1-3).

Producer side: :func:`citation_source`, :func:`sign_manifest`, :func:`discovery_document` (and
:class:`citeproof.ledger.Ledger` builds the manifest of a run, byte offsets and hashes computed
from the captured source bytes). Consumer side: :func:`verify_snapshot_report` (the report of
``citeproof aca verify --snapshot FILE --json``), :func:`verify_snapshot` and the offline checks.
Nothing here fetches: a verification reads the web snapshot it is given.
"""

from __future__ import annotations

import base64
import json
from typing import Any, Mapping, Sequence, TypedDict

from . import _native
from ._verdict import Verdict, document_text, drop_none, run_check, verdict_of
from .keys import SigningKey, load_key

#: Where the discovery document is served on the agent's origin (ACA-DISC-001).
DISCOVERY_PATH = "/.well-known/agent-citation-attribution"

__all__ = [
    "DISCOVERY_PATH", "stored_response",
    "SignedResponse", "parse_header", "format_header", "citation_source", "validate_manifest",
    "validate_discovery", "verify_snapshot", "verify_snapshot_report", "support_check",
    "verify_http_message", "sign_manifest", "discovery_document",
]


class SignedResponse(TypedDict):
    """A signed manifest response: ``status`` (200), ``headers`` (``[(name, value), ...]``:
    content-type, content-digest, signature-input, signature) and ``body`` (the RFC 8785 bytes
    of the manifest)."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


def parse_header(values: Sequence[str]) -> Verdict:
    """Parses the ``Citation-Source`` field lines of a response (ACA-L1-001 to -008).

    ``output["entries"]``: ``[{"source", "manifest", "run"?, "params"?}, ...]`` in field order.
    """
    return run_check("aca-header-parse", {"values": list(values)})


def format_header(entries: Sequence[Mapping[str, Any]]) -> Verdict:
    """Writes ``Citation-Source`` entries (the shape :func:`parse_header` returns) as one field
    value, ``output["value"]``; invalid (with the parser's codes) when an entry would break
    ACA Level 1."""
    return run_check("aca-header-emit", {"entries": [dict(e) for e in entries]})


def citation_source(sources: Sequence[str], manifest_url: str, run_id: str | None = None) -> str:
    """The ``Citation-Source`` value of a run: one entry per source URL, all naming
    ``manifest_url`` (and ``run_id``). Raises :class:`~citeproof.errors.SignError`
    (``aca-url-invalid``, ``aca-header-too-long``, ...)."""
    return _native.aca_citation_source(list(sources), manifest_url, run_id)


def validate_manifest(document: str | bytes | Mapping[str, Any]) -> Verdict:
    """Offline checks of one manifest document (ACA-L2-003, -005 to -010, ACA-L3-001 to -006)."""
    return run_check("aca-manifest-validate", {"document": document_text(document)})


def validate_discovery(document: str | bytes | Mapping[str, Any]) -> Verdict:
    """Offline checks of one discovery document (ACA-DISC-002 to -004)."""
    return run_check("aca-discovery-validate", {"document": document_text(document)})


def _snapshot_json(snapshot: str | bytes | Mapping[str, Any]) -> str | bytes:
    """The snapshot as JSON text the native verifier reads in place: ``str`` or ``bytes`` as
    given (bytes are read as the CLI reads a file: not decoded here)."""
    if isinstance(snapshot, (str, bytes)):
        return snapshot
    if isinstance(snapshot, (bytearray, memoryview)):
        return bytes(snapshot)
    return json.dumps(snapshot)


def verify_snapshot(snapshot: str | bytes | Mapping[str, Any], *, now: int, required_level: int,
                    history: Sequence[Mapping[str, Any]] | None = None) -> Verdict:
    """Verifies one agent response from a web snapshot (Levels 1-3), offline.

    ``snapshot``: the snapshot (``schemas/web-snapshot.schema.json``) as a dict or JSON text;
    ``now``: the verification time, Unix seconds; ``history``: earlier sightings of manifests,
    ``[{"digest", "response_url", "run_id"?}]`` (ACA-L2-022). ``output["level"]``: the level
    achieved; valid iff it is at least ``required_level``.
    """
    members: dict[str, Any] = {"now": now, "required_level": required_level}
    if history is not None:
        members["history"] = [dict(h) for h in history]
    # The snapshot's own text goes to the verifier (as the CLI reads a file): a duplicate
    # member is then found, where a parse here or in the input's JSON would keep the last one.
    reply = _native.aca_verify_snapshot(_snapshot_json(snapshot), json.dumps(members))
    return verdict_of(reply)


def verify_snapshot_report(snapshot: str | bytes | Mapping[str, Any], *, now: int,
                           required_level: int | None = None,
                           allow_private: bool = False) -> dict[str, Any]:
    """The full report of :func:`verify_snapshot`, exactly as
    ``citeproof aca verify --snapshot FILE --now NOW --json`` prints it: ``command``, ``ok``,
    ``incidents`` (``{code, severity, message, location}``), ``level_achieved``, the manifests,
    claims and signatures with their verdicts. ``allow_private``: replay a snapshot of loopback
    or private addresses (``--allow-private``).

    The verification and the dropping of the Rust report run without the GIL; the dict is built
    straight from the Rust report (no JSON text in between), each distinct string once, with
    the members in the order of the CLI's ``--json`` (sorted by name)."""
    return _native.aca_report(_snapshot_json(snapshot), now, required_level, allow_private)


def support_check(claim: str, excerpts: Sequence[str]) -> Verdict:
    """The support check of ACA Level 2 on one claim (ACA-L2-018 to -020)."""
    return run_check("aca-support-check", {"claim": claim, "excerpts": list(excerpts)})


def verify_http_message(message: str, *, keys: Mapping[str, Any], now: int,
                        required_components: Sequence[str] | None = None) -> Verdict:
    """RFC 9421 verification of one HTTP/1.1 message (text, CRLF line endings) with the keys of
    a JWK Set; ``output["signature_base"]`` of the label that verified."""
    return run_check("httpsig-verify", drop_none({
        "message": message, "keys": dict(keys), "now": now,
        "required_components": list(required_components) if required_components is not None else None,
    }))


def sign_manifest(manifest: str | bytes | Mapping[str, Any], key: SigningKey | bytes | str | Mapping[str, Any],
                  *, keyid: str, created: int, expires: int | None = None,
                  response_url: str | None = None, allow_invalid: bool = False) -> SignedResponse:
    """The signed manifest response of ACA Level 3 (what ``citeproof aca sign`` prints).

    The body is the RFC 8785 form of the manifest; ``content-digest`` is RFC 9530 SHA-256; the
    signature ``sig1`` covers ``("@status" "content-type" "content-digest")`` with ``created``,
    ``keyid``, ``alg="ed25519"`` (and ``expires``). ``response_url`` is written into the manifest
    first (ACA-L2-024; a manifest naming another response is refused). A manifest that breaks
    the profile raises :class:`~citeproof.errors.InvalidDocumentError` unless ``allow_invalid``.
    """
    status, headers, body = _native.aca_sign_manifest(
        document_text(manifest), load_key(key), keyid, created, expires, response_url, allow_invalid)
    return {"status": status, "headers": [tuple(h) for h in headers], "body": bytes(body)}


def discovery_document(*, manifest_schema: str, contact: str, keys: Mapping[str, SigningKey],
                       jwks_uri: str | None = None,
                       manifest_origins: Sequence[str] = ()) -> dict[str, Any]:
    """The discovery document (ACA-DISC) publishing the public halves of ``{kid: key}``; serve
    it as JSON at :data:`DISCOVERY_PATH` of the agent's origin."""
    return json.loads(_native.aca_discovery_document(
        manifest_schema, contact, [(kid, load_key(k)) for kid, k in keys.items()], jwks_uri,
        list(manifest_origins)))


def stored_response(signed: SignedResponse) -> dict[str, Any]:
    """``signed`` as a snapshot's stored response (``status``, ``headers``, ``body_base64``)."""
    return {"status": signed["status"], "headers": [list(h) for h in signed["headers"]],
            "body_base64": base64.b64encode(signed["body"]).decode("ascii")}
