#!/usr/bin/env python3
"""A deliberately broken adapter: a proxy over a good one (`citeproof adapter`) that perturbs
one class of answer, the way a real implementation with that single bug would answer.

    python3 proxy.py FAULT -- CMD [ARGS...]

Faults (one per mutant of mutants.json):
  hex-upper                hash outputs in uppercase hex (`sha256:AB…`)
  signatures-always-valid  every signature accepted: signature error codes dropped
  no-hash-mismatch         content and source hash mismatches never reported
  level-off-by-one         the level achieved reported one too high (in answers that carry one)
  drop-warnings            warnings never reported
  wrong-code               the first error code replaced by another registered code
  strict-should            a SHOULD violation (a warning) rejects the input
  archive-claim-text-ungated  archive: a delivered claim text (and a label, a topic) is not held
                           to the consent and tier gates, only the display excerpts are
  archive-relations-unchecked archive: only direct quotes are checked; paraphrase, metadata-fact
                           and inference citations count as declared
"""

import json
import subprocess
import sys

SIGNATURE_CODES = ("signature", "httpsig-", "jws-", "key-unresolved")
HASH_CODES = ("hash-mismatch", "content-digest-mismatch")
LEVEL_OPS = ("aca-verify-snapshot", "aef-verify", "chain-verify")
SHOWN_TEXT_CODES = ("archive-restricted-text-shown", "archive-quote-too-long")
RELATION_CODES = ("archive-claim-unsupported",)


def drop_codes(reply, markers):
    """Removes the error codes containing any marker; an answer left without errors is valid."""
    if reply.get("result") != "invalid":
        return reply
    kept = [c for c in reply.get("errors", []) if not any(m in c for m in markers)]
    if kept == reply.get("errors", []):
        return reply
    reply["errors"] = kept
    if not kept:
        reply["result"] = "valid"
    return reply


FAULTS = ("hex-upper", "signatures-always-valid", "no-hash-mismatch", "level-off-by-one", "drop-warnings",
          "wrong-code", "strict-should", "archive-claim-text-ungated", "archive-relations-unchecked")


def perturb(fault, run, reply):
    """The reply a program with `fault` would give; replies the fault does not touch pass."""
    if "result" not in reply:
        return reply
    op = run["case"]["operation"]
    if fault == "hex-upper":
        for name in ("hash", "content_hash"):
            value = reply.get("output", {}).get(name)
            if isinstance(value, str) and value.startswith("sha256:"):
                reply["output"][name] = "sha256:" + value[7:].upper()
    elif fault == "signatures-always-valid":
        reply = drop_codes(reply, SIGNATURE_CODES)
    elif fault == "no-hash-mismatch":
        reply = drop_codes(reply, HASH_CODES)
    elif fault == "level-off-by-one":
        if op not in LEVEL_OPS:
            return reply
        # Only answers that carry a level (valid ones) can be off by one.
        level = reply.get("output", {}).get("level")
        if isinstance(level, int):
            reply["output"]["level"] = min(level + 1, 3)
    elif fault == "drop-warnings":
        reply.pop("warnings", None)
    elif fault == "wrong-code":
        errors = reply.get("errors", [])
        if errors:
            errors[0] = "schema-violation" if errors[0] != "schema-violation" else "json-syntax"
    elif fault == "archive-claim-text-ungated":
        if op == "archive-verify":
            reply = drop_codes(reply, SHOWN_TEXT_CODES)
    elif fault == "archive-relations-unchecked":
        if op == "archive-verify":
            reply = drop_codes(reply, RELATION_CODES)
    elif fault == "strict-should":
        if reply.get("result") == "valid" and reply.get("warnings"):
            reply = {"seq": reply["seq"], "result": "invalid", "errors": list(reply["warnings"]),
                     "warnings": reply["warnings"]}
    return reply


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        raise SystemExit(__doc__)
    fault, command = args[0], args[2:]
    if fault not in FAULTS:
        raise SystemExit(f"proxy.py: unknown fault {fault!r}\n{__doc__}")
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             encoding="utf-8", bufsize=1)
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        child.stdin.write(line if line.endswith("\n") else line + "\n")
        child.stdin.flush()
        cmd = message.get("cmd")
        if cmd == "stop":
            break
        if cmd not in ("start", "run"):
            continue
        answer = child.stdout.readline()
        if not answer:
            break
        reply = json.loads(answer)
        if cmd == "run":
            reply = perturb(fault, message, reply)
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()
    child.stdin.close()
    child.wait(timeout=5)


if __name__ == "__main__":
    main()
