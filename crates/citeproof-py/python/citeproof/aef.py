"""AI Evidence Format v0.1: build evidence objects from source bytes and a selector, sign them
(detached JWS, EdDSA), and verify them (Levels 1-3)."""

from __future__ import annotations

import base64
import json
from typing import Any, Mapping, Sequence

from . import _native
from ._verdict import Verdict, document_text, drop_none, run_check
from .keys import SigningKey, load_key

__all__ = ["new_evidence", "sign_evidence", "validate", "verify_span", "jws_sign",
           "jws_verify", "verify"]


def new_evidence(*, evidence_id: str, claim_text: str, source_uri: str, fetched_at: str,
                 selector_type: str, body: bytes, media_type: str,
                 selector_value: str | None = None, **optional: Any) -> dict[str, Any]:
    """A Level-1-valid evidence object whose ``exact_text`` and ``content_hash`` are computed from
    ``body`` (served as ``media_type``) under the selector, with the verifier's own resolver.

    ``selector_type``: ``text_quote``, ``text_position``, ``css``, ``xpath``, ``rfc5147``,
    ``text_fragment``, ``page_range`` or ``none``. ``optional``: ``source_type``, ``title``,
    ``publisher``, ``published_at``, ``quote``, ``surrounding_context``, ``retrieval_method``,
    ``confidence``, ``rank``, ``freshness_age_seconds``, ``retriever_id``, ``synthesis_role``,
    ``notes``, ``signed_by``, ``signing_key_uri``. Raises :class:`~citeproof.errors.EvidenceError`
    (``aef-span-not-found``, ``aef-span-ambiguous``, ...) when the span does not resolve.
    """
    fields = drop_none({"evidence_id": evidence_id, "claim_text": claim_text,
                        "source_uri": source_uri, "fetched_at": fetched_at,
                        "selector_type": selector_type, "selector_value": selector_value,
                        **optional})
    return json.loads(_native.aef_new_evidence(json.dumps(fields), media_type, bytes(body)))


def sign_evidence(evidence: Mapping[str, Any], key: SigningKey | bytes | str | Mapping[str, Any],
                  *, kid: str | None = None, signed_by: str | None = None,
                  signing_key_uri: str | None = None) -> dict[str, Any]:
    """``evidence`` with ``verification.signature`` set to a detached JWS over its AEF-5-003
    payload (``signed_by`` is covered, ``signing_key_uri`` is not)."""
    return json.loads(_native.aef_sign_evidence(json.dumps(dict(evidence)), load_key(key), kid,
                                                signed_by, signing_key_uri))


def validate(document: str | bytes | Mapping[str, Any]) -> Verdict:
    """Level 1 (Attach) of one evidence object."""
    return run_check("aef-validate", {"document": document_text(document)})


def verify_span(evidence: Mapping[str, Any], *, media_type: str, body: bytes) -> Verdict:
    """Selector, span and hash verification against the source bytes;
    ``output["exact_text"]``, ``output["content_hash"]``."""
    return run_check("aef-verify-span", {
        "evidence": dict(evidence),
        "source": {"media_type": media_type, "body_base64": base64.b64encode(bytes(body)).decode("ascii")},
    })


def jws_sign(evidence: Mapping[str, Any], private_jwk: Mapping[str, Any], kid: str | None = None) -> Verdict:
    """The detached JWS of an evidence object (``output["signature"]``), deterministic."""
    return run_check("aef-jws-sign", drop_none({"evidence": dict(evidence),
                                                "private_jwk": dict(private_jwk), "kid": kid}))


def jws_verify(evidence: Mapping[str, Any], key_document: str | bytes | Mapping[str, Any]) -> Verdict:
    """AEF Level 3 signature check with the key document given (a JWK Set or one JWK)."""
    return run_check("aef-jws-verify", {"evidence": dict(evidence),
                                        "key_document": document_text(key_document)})


def verify(document: str | bytes | Mapping[str, Any], *, resources: Mapping[str, Any], now: int,
           required_level: int, trusted_key_uris: Sequence[str] | None = None) -> Verdict:
    """Full verification (Levels 1-3); fetches are answered from ``resources`` (URL -> stored
    response ``{"status", "headers", "body_base64"}``). ``trusted_key_uris``: the key locations
    the verifier trusts (Level 3 needs the evidence's ``signing_key_uri`` among them: trust
    comes from configuration, never from the document). ``output["level"]``."""
    return run_check("aef-verify", drop_none({
        "document": document_text(document), "resources": dict(resources), "now": now,
        "required_level": required_level,
        "trusted_key_uris": list(trusted_key_uris) if trusted_key_uris is not None else None}))
