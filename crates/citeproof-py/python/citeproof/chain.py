"""Citation-chain envelopes (seed 004): the content-addressed claim id, signed envelopes
(HMAC-SHA256 or Ed25519) and their verification (Level 1 offline, Level 2 from stored
resources)."""

from __future__ import annotations

import json
from typing import Any, Mapping, TypedDict

from . import _native
from ._verdict import Verdict, document_text, drop_none, run_check
from .keys import SigningKey, load_key

__all__ = ["SignedEnvelope", "claim_id", "sign", "signing_input", "verify", "claim_id_check"]


class SignedEnvelope(TypedDict):
    """``envelope``: the envelope's JSON text (two-space indented, numbers as in the claim);
    ``claim_id``; ``signature``."""

    envelope: str
    claim_id: str
    signature: str


def claim_id(vertical: str, subject: str, predicate: str, object: str) -> str:
    """The claim id of CHAIN-002: 16 lowercase hex digits."""
    return _native.chain_claim_id(vertical, subject, predicate, object)


def claim_id_check(claim: Mapping[str, Any]) -> Verdict:
    """The id of a claim object (``output["id"]``); invalid (``schema-violation``) when one of
    ``vertical``, ``subject``, ``predicate``, ``object`` is missing or not a non-empty string."""
    return run_check("chain-claim-id", {"claim": dict(claim)})


def sign(claim: str | bytes | Mapping[str, Any], *, signed_by: str, signed_at: str,
         secret: bytes | None = None, key: SigningKey | bytes | str | Mapping[str, Any] | None = None,
         canonical_base: str | None = None, methodology: str | None = None) -> SignedEnvelope:
    """Builds and signs the envelope of ``claim`` (JSON text keeps its number spellings) with an
    HMAC-SHA256 ``secret`` (bytes) or an Ed25519 ``key``; ``signed_at`` a profile timestamp."""
    envelope, cid, signature = _native.chain_sign(
        document_text(claim), signed_by, signed_at, bytes(secret) if secret is not None else None,
        load_key(key) if key is not None else None, canonical_base, methodology)
    return {"envelope": envelope, "claim_id": cid, "signature": signature}


def signing_input(document: str | bytes | Mapping[str, Any]) -> Verdict:
    """The two signing inputs of CHAIN-006: ``output["seed_python"]``, ``output["deployed_js"]``."""
    return run_check("chain-signing-input", {"document": document_text(document)})


def verify(document: str | bytes | Mapping[str, Any], *, now: int, required_level: int,
           secrets: Mapping[str, list[str | bytes]] | None = None,
           keys: Mapping[str, Any] | None = None, resources: Mapping[str, Any] | None = None,
           accept_partial_signature: bool | None = None) -> Verdict:
    """An envelope or a chain response (CHAIN-001 to -020). ``secrets``: signer -> shared secrets
    (bytes read as UTF-8); ``keys``: signer -> JWK Set. ``output``: ``level``, ``verdicts``,
    ``signing_inputs``, ``unsigned``, ``references`` (on invalid verdicts too)."""
    if secrets is not None:
        secrets = {s: [(v.decode("utf-8") if isinstance(v, (bytes, bytearray)) else v) for v in vs]
                   for s, vs in secrets.items()}
    return run_check("chain-verify", drop_none({
        "document": document_text(document), "now": now, "required_level": required_level,
        "secrets": secrets, "keys": dict(keys) if keys is not None else None,
        "resources": dict(resources) if resources is not None else None,
        "accept_partial_signature": accept_partial_signature}))
