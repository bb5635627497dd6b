#!/usr/bin/env python3
"""A citeproof conformance adapter built on the `citeproof` Python package alone.

It speaks the JSON-lines protocol of docs/ADAPTER.md and answers every operation by calling the
package's typed functions (`citeproof.aca.verify_snapshot`, `citeproof.ledger.audit`,
`citeproof.aca.sign_manifest`, ...), so that a run of the whole suite through

    citeproof conformance --impl ".venv/bin/python examples/adapters/python/package/citeproof_package_adapter.py"

shows that the package is complete: every operation, static and generated cases, nothing
skipped. Needs the wheel installed (`cargo xtask test` builds and installs it into `.venv/`).
"""

from __future__ import annotations

import base64
import json
import re
import sys
from typing import Any, Callable

import citeproof
from citeproof import aca, aef, archive, canon, chain, ledger
from citeproof.errors import CiteproofError

Input = dict[str, Any]
Reply = dict[str, Any]


def valid(output: dict[str, Any]) -> Reply:
    return {"result": "valid", "errors": [], "output": output}


def refused(e: CiteproofError) -> Reply:
    """A document the package refuses is an `invalid` answer with every code it found."""
    return {"result": "invalid", "errors": list(e.codes)}


def jcs_canonicalize(i: Input) -> Reply:
    text: str | bytes = i["json"] if "json" in i else base64.b64decode(i["json_base64"], validate=True)
    try:
        return valid({"canonical": canon.canonicalize(text)})
    except citeproof.InvalidDocumentError as e:
        return refused(e)


def hash_bytes(i: Input) -> Reply:
    return valid({"hash": canon.hash_bytes(base64.b64decode(i["data_base64"], validate=True))})


def hash_aef_text(i: Input) -> Reply:
    try:
        return valid({"hash": canon.hash_aef_text(base64.b64decode(i["data_base64"], validate=True))})
    except citeproof.InvalidDocumentError as e:
        return refused(e)


def manifest_sign(i: Input) -> Reply:
    """The producer path: the key loaded from its JWK, the manifest checked, then signed by
    `citeproof.aca.sign_manifest` (the same emitter as `citeproof aca sign`)."""
    errors: list[str] = list(aca.validate_manifest(i["manifest"]).errors)
    try:
        key = citeproof.load_key(i["private_jwk"])
    except citeproof.KeyFormatError as e:
        errors.append(e.code)
        key = None
    if errors or key is None:
        return {"result": "invalid", "errors": errors}
    signed = aca.sign_manifest(i["manifest"], key, keyid=i["keyid"], created=i["created"],
                               expires=i.get("expires"))
    return valid(aca.stored_response(signed))


HANDLERS: dict[str, Callable[[Input], Reply | citeproof.Verdict]] = {
    "jcs-canonicalize": jcs_canonicalize,
    "hash-bytes": hash_bytes,
    "hash-aef-text": hash_aef_text,
    "aca-header-parse": lambda i: aca.parse_header(i["values"]),
    "aca-header-emit": lambda i: aca.format_header(i["entries"]),
    "aca-manifest-validate": lambda i: aca.validate_manifest(i["document"]),
    "aca-discovery-validate": lambda i: aca.validate_discovery(i["document"]),
    "aca-verify-snapshot": lambda i: aca.verify_snapshot(
        i["snapshot"], now=i["now"], required_level=i["required_level"], history=i.get("history")),
    "aca-manifest-sign": manifest_sign,
    "aca-support-check": lambda i: aca.support_check(i["claim"], i["excerpts"]),
    "httpsig-verify": lambda i: aca.verify_http_message(
        i["message"], keys=i["keys"], now=i["now"], required_components=i.get("required_components")),
    "aef-validate": lambda i: aef.validate(i["document"]),
    "aef-verify-span": lambda i: aef.verify_span(
        i["evidence"], media_type=i["source"]["media_type"],
        body=base64.b64decode(i["source"]["body_base64"], validate=True)),
    "aef-jws-sign": lambda i: aef.jws_sign(i["evidence"], i["private_jwk"], i.get("kid")),
    "aef-jws-verify": lambda i: aef.jws_verify(i["evidence"], i["key_document"]),
    "aef-verify": lambda i: aef.verify(i["document"], resources=i["resources"], now=i["now"],
                                       required_level=i["required_level"],
                                       trusted_key_uris=i.get("trusted_key_uris")),
    "archive-verify": lambda i: archive.verify(i["bundle"], i["display"], archive=i["archive"],
                                               now=i["now"], keys=i.get("keys"), secrets=i.get("secrets")),
    "archive-log-verify": lambda i: archive.verify_log(i["log"], archive=i["archive"], now=i["now"],
                                                       bundles=i.get("bundles"), head=i.get("head")),
    "ledger-verify": lambda i: ledger.verify(
        i["ledger"], i["export"] if "export" in i else base64.b64decode(i["export_base64"], validate=True),
        emitted=i.get("emitted"), now=i.get("now"), api=i.get("api"), mode=i.get("mode"),
        threshold=i.get("threshold")),
    "ledger-audit": lambda i: ledger.audit(
        i["export"] if "export" in i else base64.b64decode(i["export_base64"], validate=True),
        mode=i.get("mode"), threshold=i.get("threshold"), ledger_id=i.get("ledger_id"), now=i.get("now")),
    "chain-claim-id": lambda i: chain.claim_id_check(i["claim"]),
    "chain-signing-input": lambda i: chain.signing_input(i["document"]),
    "chain-verify": lambda i: chain.verify(
        i["document"], now=i["now"], required_level=i["required_level"], secrets=i.get("secrets"),
        keys=i.get("keys"), resources=i.get("resources"),
        accept_partial_signature=i.get("accept_partial_signature")),
}


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def transport(value: Any) -> Any:
    """The runner's transport reading (docs/ADAPTER.md 3.1): a lone surrogate escape is U+FFFD."""
    if isinstance(value, str):
        return LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [transport(v) for v in value]
    if isinstance(value, dict):
        return {transport(k): transport(v) for k, v in value.items()}
    return value


def answer(operation: str, case_input: Input) -> Reply:
    handler = HANDLERS.get(operation)
    if handler is None:
        return {"skipped": True, "message": f"operation {operation} is not implemented"}
    try:
        reply = handler(case_input)
    except (CiteproofError, KeyError, TypeError, ValueError) as e:
        return {"errored": True, "message": f"{type(e).__name__}: {e}"}
    return reply.to_dict() if isinstance(reply, citeproof.Verdict) else reply


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        cmd = msg.get("cmd")
        if cmd == "start":
            hello = {"protocol": 1, "operations": sorted(HANDLERS),
                     "implementation": {"name": "citeproof-python-package",
                                        "version": citeproof.__version__, "language": "python"}}
            out.write(json.dumps(hello) + "\n")
        elif cmd == "run":
            case = msg["case"]
            reply = answer(case["operation"], transport(case["input"]))
            reply["seq"] = msg["seq"]
            out.write(json.dumps(reply) + "\n")
        elif cmd == "stop":
            break
        out.flush()


if __name__ == "__main__":
    main()
