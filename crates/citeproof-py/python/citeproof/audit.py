"""The audit store: the auditor's system of record of verifications, the same store as the CLI's
``--record DB`` and ``citeproof audit --db DB`` (a SQLite file or a ``postgres://`` URL).

Rows are append-only and hash-chained: each commits to the previous row's hash over the RFC 8785
form of its record, so an edited, deleted or reordered row is found by
:meth:`AuditStore.verify_chain`. Write down :meth:`AuditStore.head` (``head()["token"]``) to
check later that the store still extends it.

::

    with AuditStore("audit.db") as store:
        report = citeproof.aca.verify_snapshot_report(snapshot, now=now)
        store.record(report, verified_at=now)
        assert store.verify_chain()["broken"] is None

Every operation runs without the GIL. Errors are :class:`~citeproof.errors.AuditError` with the
CLI's codes (``audit-not-found``, ``audit-not-a-store``, ``audit-record``, ``audit-busy``, ...).
"""

from __future__ import annotations

import json
import os
from types import TracebackType
from typing import Any, Mapping, TypedDict

from . import _native
from .aca import _snapshot_json
from .errors import InvalidInputError

__all__ = ["AuditStore", "Head", "Listed", "ChainCheck", "OUTCOMES"]

#: The outcomes of a verification, the values of ``verdict`` filters.
OUTCOMES = ("verified", "not-verified", "could-not-check")


class Head(TypedDict):
    """The newest row of the chain: ``id``, ``hash`` (``sha256:<hex>``), ``rows`` and
    ``token`` (``ID:sha256:HEX``, what ``citeproof audit head`` prints and
    ``audit verify --head`` / :meth:`AuditStore.verify_chain` take)."""

    id: int
    hash: str
    rows: int
    token: str


class Listed(TypedDict):
    """One verification as listed: ``id``, ``spec``, ``subject``, ``verified_at``, ``level``,
    ``required_level``, ``verified``, ``outcome`` (``verified``, ``not-verified`` or
    ``could-not-check``) and ``errors`` (the error codes, in order)."""

    id: int
    spec: str
    subject: str
    verified_at: int
    level: int
    required_level: int
    verified: bool
    outcome: str
    errors: list[str]


class ChainCheck(TypedDict):
    """What :meth:`AuditStore.verify_chain` found: ``rows`` checked, ``head`` as recomputed
    (a :class:`Head` without ``token``, or ``None``), ``broken``: ``None`` when every row holds,
    else ``{"id", "reason"}`` of the first row where the chain does not."""

    rows: int
    head: dict[str, Any] | None
    broken: dict[str, Any] | None


def _head(text: str | None) -> Head | None:
    if text is None:
        return None
    h = json.loads(text)
    h["token"] = f"{h['id']}:{h['hash']}"
    return h


def _filters(since: int | str | None, until: int | str | None, spec: str | None,
             subject: str | None, code: str | None, outcome: str | None,
             limit: int | None) -> str:
    if outcome is not None and outcome not in OUTCOMES:
        raise InvalidInputError(f"`verdict`: one of {', '.join(OUTCOMES)}, not {outcome!r}",
                                "bad-input")
    return json.dumps({"since": since, "until": until, "spec": spec, "subject": subject,
                       "code": code, "outcome": outcome, "limit": limit})


class AuditStore:
    """An audit store, opened on ``target``: a SQLite file path (created when missing, unless
    ``read_only``) or a ``postgres://`` / ``postgresql://`` URL. A file that is not a citeproof
    store (another application's database, garbage, a newer schema) is refused untouched.

    Use it as a context manager, or call :meth:`close`. One object may be shared by threads
    (calls are serialized); separate objects on one file may write concurrently (the store's
    write lock orders them).
    """

    def __init__(self, target: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self._store = _native.AuditStore(os.fspath(target), read_only)

    def __enter__(self) -> "AuditStore":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return repr(self._store)

    def close(self) -> None:
        """Closes the store; later calls raise :class:`~citeproof.errors.AuditError`
        (``audit-closed``)."""
        self._store.close()

    def record(self, report: Mapping[str, Any], verified_at: int) -> Head:
        """Records one verification: ``report`` is the full report a verify function of the
        package returns (:func:`citeproof.aca.verify_snapshot_report`: the CLI's ``--json``),
        or any report of the common form (``spec``, ``subject``, ``level``, ``required_level``,
        ``verified``, ``outcome``, ``incidents``, ``items``, ``trust``, the spec's details).
        The ``--json`` envelope (``command``, ``ok``) is not stored, as the CLI does not store
        it; ``ok`` must agree with ``verified``. ``verified_at``: the verification time (the
        ``now`` the report was made at), Unix seconds. An ACA report's manifests are recorded by
        digest, so that a later verification sees a manifest reused across responses.

        The report is recorded as given: for ACA, the manifest-reuse check against this store
        (ACA-L2-022) is not applied to it; :meth:`record_aca_snapshot` applies it, as
        ``citeproof aca verify --record`` does. Raises :class:`~citeproof.errors.AuditError`
        (``audit-record``) for a report not of the common form; nothing is then stored.
        """
        return _head(self._store.record(json.dumps(dict(report)), verified_at))  # type: ignore[return-value]

    def record_aca_snapshot(self, snapshot: str | bytes | Mapping[str, Any], *, now: int,
                            required_level: int | None = None,
                            allow_private: bool = False) -> tuple[dict[str, Any], Head]:
        """Verifies an ACA web snapshot and records it in one transaction under the store's
        write lock, as ``citeproof aca verify --snapshot FILE --record DB`` does: the earlier
        sightings of its manifests in this store are read first and the reuse check
        (ACA-L2-022, ``aca-manifest-reused``) applied, so two verifications of one manifest
        recorded at the same instant cannot both miss each other. Returns the report (the
        shape of :func:`citeproof.aca.verify_snapshot_report`, reuse check included) and the
        new head."""
        report, head = self._store.record_aca_snapshot(
            _snapshot_json(snapshot), now, required_level, allow_private)
        return report, _head(head)  # type: ignore[return-value]

    def list(self, *, since: int | str | None = None, until: int | str | None = None,
             spec: str | None = None, subject: str | None = None, code: str | None = None,
             verdict: str | None = None, failed: bool = False,
             limit: int | None = None) -> list[Listed]:
        """Verifications, newest first (``citeproof audit list``, same filters): ``since`` /
        ``until`` (verification time: Unix seconds, RFC 3339, or an age such as ``"7d"``),
        ``spec``, ``subject``, ``code`` (an incident code raised), ``verdict`` (the outcome:
        ``verified``, ``not-verified``, ``could-not-check``), ``failed`` (both outcomes other
        than ``verified``), ``limit``."""
        if failed:
            if verdict is not None:
                raise InvalidInputError("give `verdict` or `failed`, not both", "bad-input")
            rows = [row for outcome in ("not-verified", "could-not-check")
                    for row in self.list(since=since, until=until, spec=spec, subject=subject,
                                         code=code, verdict=outcome, limit=limit)]
            rows.sort(key=lambda r: r["id"], reverse=True)
            return rows[:limit] if limit is not None else rows
        return json.loads(self._store.list(
            _filters(since, until, spec, subject, code, verdict, limit)))

    def summary(self, *, since: int | str | None = None, until: int | str | None = None,
                spec: str | None = None, subject: str | None = None, code: str | None = None,
                verdict: str | None = None) -> dict[str, Any]:
        """Counts over the verifications the filters select (``citeproof audit summary``):
        ``verifications``, ``verified``, ``by_outcome``, ``by_spec``, ``by_code``, ``by_day``,
        ``reused_documents``."""
        return json.loads(self._store.summary(
            _filters(since, until, spec, subject, code, verdict, None)))

    def get(self, id: int) -> dict[str, Any] | None:
        """One verification (``citeproof audit show``): ``id``, ``record`` (subject, times,
        level, outcome, incidents, documents and the ``report`` as recorded), ``prev_hash``,
        ``row_hash``; ``None`` when there is no such row."""
        text = self._store.get(id)
        return json.loads(text) if text is not None else None

    def head(self) -> Head | None:
        """The newest row (``citeproof audit head``), ``None`` for an empty store."""
        return _head(self._store.head())

    def verify_chain(self, head: str | Mapping[str, Any] | None = None) -> ChainCheck:
        """Recomputes the whole chain and checks every indexed column against the record it
        was projected from (``citeproof audit verify``). ``head``: a head written down earlier
        (its ``token`` ``ID:sha256:HEX``, or the :class:`Head` itself) that the chain must still
        contain. The chain holds iff ``broken`` is ``None``."""
        if head is not None and not isinstance(head, str):
            head = f"{head['id']}:{head['hash']}"
        return json.loads(self._store.verify_chain(head))
