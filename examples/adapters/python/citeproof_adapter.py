#!/usr/bin/env python3
"""A citeproof conformance adapter in Python (standard library only).

It speaks the JSON-lines protocol of docs/ADAPTER.md on stdin/stdout and implements a real
subset of the operations: RFC 8785 canonicalization, content hashes, `Citation-Source` header
parsing, AI Evidence Format Level 1 validation, the attribution ledger (verify, audit), the
citation-chain claim id and signing inputs (the seed's own `json.dumps`), and chain envelope
verification at Levels 1-2 (HMAC with `hmac`, Ed25519 with the RFC 8032 reference algorithm in
pure Python). Run it against the vectors with

    citeproof conformance --impl "python3 examples/adapters/python/citeproof_adapter.py"

Operations it does not announce are reported as skipped by the runner, never as passed.
"""

import base64
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ops_aca  # noqa: E402
import ops_aef  # noqa: E402
import ops_canon  # noqa: E402
import ops_ledger  # noqa: E402
import ops_chain  # noqa: E402
import ops_chain_verify  # noqa: E402
import strict_json  # noqa: E402

PROTOCOL = 1
IMPLEMENTATION = {
    "name": "citeproof-python-example",
    "version": "0.1.0",
    "language": "python",
    "homepage": "https://github.com/citeproof/citeproof/tree/main/examples/adapters/python",
}


def valid(output=None, warnings=()):
    reply = {"result": "valid", "errors": []}
    if warnings:
        reply["warnings"] = list(warnings)
    if output is not None:
        reply["output"] = output
    return reply


def invalid(errors, warnings=(), output=None):
    reply = {"result": "invalid", "errors": list(errors)}
    if warnings:
        reply["warnings"] = list(warnings)
    if output is not None:
        reply["output"] = output
    return reply


def op_jcs_canonicalize(input):
    try:
        return valid({"canonical": ops_canon.jcs(input)})
    except strict_json.JsonError as e:
        return invalid([e.code])


def op_hash_bytes(input):
    data = base64.b64decode(input["data_base64"], validate=True)
    return valid({"hash": ops_canon.sha256(data)})


def op_hash_aef_text(input):
    data = base64.b64decode(input["data_base64"], validate=True)
    try:
        return valid({"hash": ops_canon.sha256(ops_canon.aef_text(data))})
    except UnicodeDecodeError:
        return invalid(["canon-text-not-utf8"])


def op_aca_header_parse(input):
    errors, entries = ops_aca.header_parse(input["values"])
    return invalid(errors) if errors else valid({"entries": entries})


def op_aef_validate(input):
    errors, warnings = ops_aef.validate(input["document"])
    return invalid(errors, warnings) if errors else valid(None, warnings)


def op_ledger_verify(input):
    f = ops_ledger.verify(input)
    return invalid(f.errors, f.warnings) if f.errors else valid(None, f.warnings)


def op_ledger_audit(input):
    f, output = ops_ledger.audit(input)
    return invalid(f.errors, f.warnings) if f.errors else valid(output, f.warnings)


def op_chain_claim_id(input):
    errors, claim_id = ops_chain.claim_id(input["claim"])
    return invalid(errors) if errors else valid({"id": claim_id})


def op_chain_signing_input(input):
    errors, output = ops_chain.signing_input(input["document"])
    return invalid(errors) if errors else valid(output)


def op_chain_verify(input):
    errors, warnings, output, accepted = ops_chain_verify.verify(input)
    # chain-verify's output (verdicts, unsigned members) comes with invalid answers too.
    return valid(output, warnings) if accepted else invalid(errors, warnings, output)


OPERATIONS = {
    "jcs-canonicalize": op_jcs_canonicalize,
    "hash-bytes": op_hash_bytes,
    "hash-aef-text": op_hash_aef_text,
    "aca-header-parse": op_aca_header_parse,
    "aef-validate": op_aef_validate,
    "ledger-verify": op_ledger_verify,
    "ledger-audit": op_ledger_audit,
    "chain-claim-id": op_chain_claim_id,
    "chain-signing-input": op_chain_signing_input,
    "chain-verify": op_chain_verify,
}


def handle(message, operations):
    """The reply to one command, or None (stop, or nothing to answer)."""
    cmd = message.get("cmd")
    if cmd == "start":
        return {"protocol": PROTOCOL, "implementation": IMPLEMENTATION, "operations": sorted(operations)}
    if cmd != "run":
        return None
    seq = message["seq"]
    case = message["case"]
    op = operations.get(case["operation"])
    if op is None:
        return {"seq": seq, "skipped": True, "message": f"operation {case['operation']} not implemented"}
    try:
        reply = op(case["input"])
    except Exception as e:  # a bug or a bad input: report it, keep serving
        return {"seq": seq, "errored": True, "message": f"{type(e).__name__}: {e}"}
    return {"seq": seq, **reply}


def serve(operations=None, on_run=None):
    """Serves the protocol until `stop` or end of input. `on_run(seq)` is a test hook."""
    operations = OPERATIONS if operations is None else operations
    stdin = sys.stdin.buffer
    stdout = sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("cmd") == "stop":
            return
        if message.get("cmd") == "run" and on_run is not None:
            on_run(message["seq"])
        reply = handle(message, operations)
        if reply is not None:
            stdout.write(json.dumps(reply, ensure_ascii=True) + "\n")
            stdout.flush()


if __name__ == "__main__":
    serve()
