"""Canonical forms (profile JSON-001, JSON-002, CANON-001, CANON-003): RFC 8785 JCS after a
strict I-JSON parse, and the content hashes of the profile."""

from __future__ import annotations

import base64

from ._verdict import run_check
from .errors import InvalidDocumentError

__all__ = ["canonicalize", "hash_bytes", "hash_aef_text"]


def canonicalize(document: str | bytes) -> str:
    """The RFC 8785 canonical text of a JSON text (any JSON value at top level).

    Bytes are read as they are (invalid UTF-8 is ``json-invalid-utf8``). Raises
    :class:`~citeproof.errors.InvalidDocumentError` when the text has no canonical form, with
    ``code`` ``json-syntax``, ``json-duplicate-member``, ``json-lone-surrogate``,
    ``json-noncharacter``, ``json-number-out-of-range`` or ``json-too-large``.
    """
    if isinstance(document, str):
        verdict = run_check("jcs-canonicalize", {"json": document})
    else:
        data = base64.b64encode(bytes(document)).decode("ascii")
        verdict = run_check("jcs-canonicalize", {"json_base64": data})
    verdict.raise_if_invalid()
    assert verdict.output is not None
    return verdict.output["canonical"]


def hash_bytes(data: bytes) -> str:
    """``sha256:`` and the 64 lowercase hex digits of the SHA-256 of ``data`` (CANON-003 a)."""
    verdict = run_check("hash-bytes", {"data_base64": base64.b64encode(bytes(data)).decode("ascii")})
    assert verdict.output is not None
    return verdict.output["hash"]


def hash_aef_text(data: bytes) -> str:
    """The AEF §5 text hash (CANON-003 b): UTF-8 text, CRLF and CR as LF, one final LF
    stripped. Raises :class:`~citeproof.errors.InvalidDocumentError` (``canon-text-not-utf8``)
    for bytes that are not UTF-8."""
    verdict = run_check("hash-aef-text", {"data_base64": base64.b64encode(bytes(data)).decode("ascii")})
    verdict.raise_if_invalid()
    assert verdict.output is not None
    return verdict.output["hash"]
