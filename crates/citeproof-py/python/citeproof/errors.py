"""Exceptions of citeproof.

Every exception is a :class:`CiteproofError` with

* ``code``: a stable code: an incident code of the profile's registry (``jwk-malformed``,
  ``aca-url-invalid``, ``ledger-coverage-below-threshold``, ...) where there is one, otherwise a
  code of this package (``bad-input``, ``internal``, ``unsupported``);
* ``location``: a JSON pointer into the document concerned, or ``None``;
* ``codes``: every error code found (a document can break several rules at once).

A verification never raises because what it checked is invalid: it returns a verdict that says
so. Exceptions are for inputs that cannot be checked or outputs that cannot be produced.
"""

from __future__ import annotations


class CiteproofError(Exception):
    """Base class: ``code``, ``location`` and ``codes`` as described in the module."""

    def __init__(self, message: str, code: str, location: str | None = None,
                 codes: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.location = location
        self.codes = list(codes) if codes else [code]

    def __str__(self) -> str:
        where = f" at {self.location}" if self.location else ""
        return f"{self.message} [{self.code}]{where}"


class InvalidInputError(CiteproofError, ValueError):
    """An argument is not of the documented shape (``code`` ``bad-input``)."""


class InvalidDocumentError(CiteproofError, ValueError):
    """A document to sign or canonicalize breaks the profile (``code``: the first error)."""


class KeyFormatError(CiteproofError, ValueError):
    """A key is unusable: not PKCS#8 PEM or an OKP/Ed25519 JWK (``code``: a ``jwk-*`` code)."""


class SignError(CiteproofError):
    """A signature or signed document cannot be produced."""


class LedgerError(CiteproofError):
    """The attribution ledger refused an operation (for example the coverage gate)."""


class EvidenceError(CiteproofError):
    """An AEF evidence object cannot be built or signed (``code``: e.g. ``aef-span-not-found``)."""


class GateError(CiteproofError):
    """The archive gate refused to assemble a bundle (``citeproof archive gate`` exits 1):
    ``code`` is the registry code of the rule the request breaks (``archive-tier-unknown``,
    ``archive-claim-id-duplicate``, ...) or, for a citation that does not verify, the
    citation's own code (``archive-span-out-of-range``, ...); ``location`` points into the
    request (``/claims/2/citations/0``)."""


class AuditError(CiteproofError):
    """The audit store failed (``code``: ``audit-not-found``, ``audit-not-a-store``,
    ``audit-record``, ``audit-busy``, ``audit-closed``, ...). The store is left untouched."""


__all__ = [
    "CiteproofError", "InvalidInputError", "InvalidDocumentError", "KeyFormatError",
    "SignError", "LedgerError", "EvidenceError", "GateError", "AuditError",
]
