"""The verdict of a check, and the plumbing between typed functions and the native checks."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from . import _native
from .errors import InvalidDocumentError


@dataclass(frozen=True)
class Verdict:
    """The verdict of one check.

    * ``valid``: no error-severity incident (and, for verifications, the required level reached);
    * ``errors`` / ``warnings``: the incident codes found, each once, in order;
    * ``output``: what the check computed (a level, the resolved span, the parsed entries, ...),
      or ``None``. Present on invalid verdicts too where the check defines it (chain verdicts).
    """

    valid: bool
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    output: Mapping[str, Any] | None = field(default=None)

    def __bool__(self) -> bool:
        return self.valid

    def raise_if_invalid(self) -> "Verdict":
        """Returns self when valid, else raises :class:`InvalidDocumentError` with every code."""
        if not self.valid:
            first = self.errors[0] if self.errors else "invalid"
            raise InvalidDocumentError(
                "invalid: " + ", ".join(self.errors or ("(no error code)",)), first,
                None, list(self.errors))
        return self

    def to_dict(self) -> dict[str, Any]:
        """``{"result": "valid"|"invalid", "errors", "warnings", "output"?}``: the reply shape
        of docs/ADAPTER.md."""
        d: dict[str, Any] = {
            "result": "valid" if self.valid else "invalid",
            "errors": list(self.errors),
            "warnings": list(self.warnings),
        }
        if self.output is not None:
            d["output"] = dict(self.output)
        return d


def document_text(document: str | bytes | Mapping[str, Any] | list[Any]) -> str:
    """A raw JSON text as the checks read it: text as is, bytes decoded (undecodable bytes
    become U+FFFD and fail the strict parse), objects serialized."""
    if isinstance(document, str):
        return document
    if isinstance(document, (bytes, bytearray, memoryview)):
        return bytes(document).decode("utf-8", errors="replace")
    return json.dumps(document)


def run_check(operation: str, input: Mapping[str, Any]) -> Verdict:
    """Runs one native check (the reference implementation's) without the GIL."""
    return verdict_of(_native.check(operation, json.dumps(input)))


def verdict_of(reply_json: str) -> Verdict:
    """The :class:`Verdict` of a native check's reply (JSON text)."""
    reply = json.loads(reply_json)
    return Verdict(
        valid=reply["result"] == "valid",
        errors=tuple(reply.get("errors") or ()),
        warnings=tuple(reply.get("warnings") or ()),
        output=reply.get("output"),
    )


def drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}
