#!/usr/bin/env python3
"""A partial adapter: a proxy over a good one (`citeproof adapter`) that implements one operation
of canon, `hash-bytes`, and nothing else. It announces `hash-bytes` and `hash-aef-text`, answers
every `hash-bytes` case correctly (the good adapter's answer) and declines every `hash-aef-text`
case (`skipped`); `jcs-canonicalize` and every other operation are not announced.

    python3 partial.py -- CMD [ARGS...]

Every case it runs passes, so no case can kill it: what is under test is the runner's claim. A
runner that certified canon core (or any level) from its runs, filtered or not, would hand it a
conformance claim for work that was never done (issue 19, item 7). `cargo xtask mutants` kills
it when no report of any of its runs claims a level (mutants.json, `"kill": "no-claim"`).
"""

import json
import subprocess
import sys

ANNOUNCED = ["hash-bytes", "hash-aef-text"]
DECLINED = ("hash-aef-text",)


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] != "--":
        raise SystemExit(__doc__)
    child = subprocess.Popen(args[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             encoding="utf-8", bufsize=1)
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        cmd = message.get("cmd")
        if cmd == "run" and message["case"]["operation"] in DECLINED:
            out.write(json.dumps({"seq": message["seq"], "skipped": True,
                                  "message": "not implemented"}) + "\n")
            out.flush()
            continue
        child.stdin.write(line if line.endswith("\n") else line + "\n")
        child.stdin.flush()
        if cmd == "stop":
            break
        if cmd not in ("start", "run"):
            continue
        answer = child.stdout.readline()
        if not answer:
            break
        reply = json.loads(answer)
        if cmd == "start":
            reply["operations"] = ANNOUNCED
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()
    child.stdin.close()
    child.wait(timeout=5)


if __name__ == "__main__":
    main()
