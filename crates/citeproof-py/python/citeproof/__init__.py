"""citeproof: emit and verify verifiable citations of AI agents.

The Rust core of citeproof (the same crates as the ``citeproof`` command line, so the two
cannot disagree), for Python:

* :mod:`citeproof.aca`: Agent Citation Attribution: ``Citation-Source`` header, manifests,
  discovery document, RFC 9421 signed manifest responses; verification at Levels 1-3 from a web
  snapshot (:func:`citeproof.aca.verify_snapshot_report` returns the CLI's ``--json`` report);
* :mod:`citeproof.ledger`: the attribution ledger (seed 003): :class:`citeproof.ledger.Ledger`
  (``register``, ``audit_coverage``, ``export_for_api``, ``export_audit_log``, strict and
  lenient thresholds, the manifest of the run), ledger verification and audits;
* :mod:`citeproof.aef`: AI Evidence Format evidence objects: build, sign, verify;
* :mod:`citeproof.chain`: citation-chain envelopes: claim id, sign, verify;
* :mod:`citeproof.archive`: archive citations: the gate (signed bundle and display view),
  bundle and display verification, bundle logs;
* :mod:`citeproof.audit`: the audit store (:class:`citeproof.audit.AuditStore`, SQLite or
  PostgreSQL): record verifications, list, count, show, verify the hash chain;
* :mod:`citeproof.canon`: RFC 8785 JCS and the profile's content hashes;
* :mod:`citeproof.keys`: Ed25519 keys from PKCS#8 PEM or JWK (:class:`SigningKey`);
* :mod:`citeproof.errors`: :class:`CiteproofError` and its subclasses, each with ``code`` and
  ``location``.

Checks return a :class:`Verdict` (``valid``, ``errors``, ``warnings``, ``output``); they raise only
for inputs that cannot be checked. Long work runs without the GIL, so threads use every core.
Nothing in the package opens a network connection, except an audit store opened on a
``postgres://`` URL: verification reads what it is given.
"""

from . import _native, aca, aef, archive, audit, canon, chain, errors, keys, ledger
from ._verdict import Verdict
from .errors import (AuditError, CiteproofError, EvidenceError, GateError, InvalidDocumentError,
                     InvalidInputError, KeyFormatError, LedgerError, SignError)
from .keys import SigningKey, load_key

__version__: str = _native.__version__

__all__ = [
    "aca", "aef", "archive", "audit", "canon", "chain", "errors", "keys", "ledger",
    "Verdict", "SigningKey", "load_key", "CiteproofError", "InvalidInputError",
    "InvalidDocumentError", "KeyFormatError", "SignError", "LedgerError", "EvidenceError",
    "GateError", "AuditError", "__version__",
]
