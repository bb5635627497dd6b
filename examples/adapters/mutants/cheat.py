#!/usr/bin/env python3
"""A cheating adapter: it implements nothing. It reads the public vector files and answers
each case with its `expected` result, looked up by case id (`--key id`) or by operation and
input (`--key input`). Cases it cannot find get the most common answer of their operation.

Against the static vectors alone, both would pass every case. The runner defeats them: cases
go on the wire under opaque per-run tokens (so `--key id` finds nothing) and every run adds
generated variants with fresh inputs (so `--key input` finds nothing for them either).

    python3 cheat.py --key id|input [VECTORS_DIR]
"""

import collections
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def canonical(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def answer(expected):
    result = expected["result"]
    if result == "acceptable":
        return {"result": "valid", "errors": [], "warnings": expected.get("errors", [])}
    reply = {"result": result, "errors": expected.get("errors", [])}
    if "warnings" in expected:
        reply["warnings"] = expected["warnings"]
    if "output" in expected:
        reply["output"] = expected["output"]
    return reply


def load(vectors):
    by_id, by_input, common = {}, {}, collections.defaultdict(collections.Counter)
    for path in glob.glob(os.path.join(vectors, "**", "*.json"), recursive=True):
        rel = os.path.relpath(path, vectors)
        if rel.split(os.sep)[0] in ("tools", "meta", "fixtures"):
            continue
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for case in data.get("cases", []):
            reply = answer(case["expected"])
            by_id[case["id"]] = reply
            by_input[(data["operation"], canonical(case["input"]))] = reply
            common[data["operation"]][canonical(reply)] += 1
    guess = {op: json.loads(c.most_common(1)[0][0]) for op, c in common.items()}
    return by_id, by_input, guess


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "--key" or sys.argv[2] not in ("id", "input"):
        raise SystemExit(__doc__)
    key = sys.argv[2]
    vectors = sys.argv[3] if len(sys.argv) > 3 else os.path.join(HERE, "..", "..", "..", "vectors")
    by_id, by_input, guess = load(os.path.normpath(vectors))
    for line in sys.stdin:
        message = json.loads(line)
        cmd = message.get("cmd")
        if cmd == "start":
            reply = {"protocol": 1, "implementation": {"name": f"lookup-cheat-by-{key}", "version": "0",
                                                         "language": "python"}, "operations": ["*"]}
        elif cmd == "run":
            case = message["case"]
            found = by_id.get(case["id"]) if key == "id" else by_input.get((case["operation"], canonical(case["input"])))
            reply = dict(found or guess.get(case["operation"], {"result": "valid", "errors": []}))
            reply["seq"] = message["seq"]
        else:
            break
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
