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
  negation-whole-excerpt   ACA support check: negation parity counted over the whole claim
                           and the whole excerpt, not sentence by sentence (issue 19, item 4)
  partial-signature-verified
                           a chain envelope whose signature covers only part of it
                           (deployed-js) is reported verified: `chain-signature-partial`
                           dropped, `partially-signed` verdicts reported `verified`, the
                           unsigned members not listed
  archive-claim-text-ungated  archive: a delivered claim text (and a label, a topic) is not held
                           to the consent and tier gates, only the display excerpts are
  archive-relations-unchecked archive: only direct quotes are checked; paraphrase, metadata-fact
                           and inference citations count as declared
"""

import json
import os
import subprocess
import sys

# The profile's support rule as the vectors' independent generator writes it.
sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 "..", "..", "..", "vectors", "tools")))
import aca_support  # noqa: E402

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
          "wrong-code", "strict-should", "negation-whole-excerpt",
          "partial-signature-verified", "archive-claim-text-ungated", "archive-relations-unchecked")


class WholeTextNegation(aca_support.Text):
    """A text whose every sentence carries the negation count of the whole text: the rule
    before review 3's N4, where an excerpt's neighbouring "not" counted."""

    def __init__(self, s):
        super().__init__(s)
        total = sum(x.neg for x in self.sentences)
        for x in self.sentences:
            x.neg = total


def whole_excerpt_check(claim, excerpts):
    right = aca_support.Text
    aca_support.Text = WholeTextNegation
    try:
        return aca_support.check(claim, excerpts)
    finally:
        aca_support.Text = right


def partial_as_verified(reply, required_level):
    """What a chain verifier that treats any signature match as full coverage answers."""
    reply = drop_codes(reply, ("chain-signature-partial",))
    reply["warnings"] = [w for w in reply.get("warnings", []) if not w.startswith("chain-signature-partial")]
    output = reply.get("output")
    if isinstance(output, dict):
        for name, verdict in list(output.get("verdicts", {}).items()):
            if verdict == "partially-signed":
                output["verdicts"][name] = "verified"
        for ref in output.get("references", []):
            if ref.get("verdict") == "partially-signed":
                ref["verdict"] = "verified"
        output.pop("unsigned", None)
        if reply.get("result") == "valid" and output.get("level") == 0:
            output["level"] = required_level
    return reply


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
    elif fault == "negation-whole-excerpt":
        if op != "aca-support-check":
            return reply
        inp = run["case"]["input"]
        faulty = whole_excerpt_check(inp["claim"], inp["excerpts"])
        # Only the answers the fault changes differ from the good adapter's.
        if faulty != aca_support.check(inp["claim"], inp["excerpts"]):
            errors, warnings = faulty
            reply = {"seq": reply["seq"], "result": "invalid" if errors else "valid"}
            if errors:
                reply["errors"] = errors
            reply["warnings"] = warnings
    elif fault == "partial-signature-verified":
        if op == "chain-verify":
            reply = partial_as_verified(reply, run["case"]["input"].get("required_level", 1))
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


def relay(command, on_reply, answer_itself=lambda message: None):
    """Runs COMMAND (a good adapter) and passes it every message, and back every answer to a
    `start` or a `run` as `on_reply(message, reply)` makes it; a message for which
    `answer_itself(message)` returns a reply is answered with it and never reaches COMMAND."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             encoding="utf-8", bufsize=1)
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        own = answer_itself(message)
        if own is not None:
            out.write(json.dumps(own) + "\n")
            out.flush()
            continue
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
        reply = on_reply(message, json.loads(answer))
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()
    child.stdin.close()
    child.wait(timeout=5)


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        raise SystemExit(__doc__)
    fault, command = args[0], args[2:]
    if fault not in FAULTS:
        raise SystemExit(f"proxy.py: unknown fault {fault!r}\n{__doc__}")

    def on_reply(message, reply):
        return perturb(fault, message, reply) if message.get("cmd") == "run" else reply

    relay(command, on_reply)


if __name__ == "__main__":
    main()
