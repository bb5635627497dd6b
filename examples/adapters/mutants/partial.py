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

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proxy import relay  # noqa: E402

ANNOUNCED = ["hash-bytes", "hash-aef-text"]
DECLINED = ("hash-aef-text",)


def decline(message):
    if message.get("cmd") == "run" and message["case"]["operation"] in DECLINED:
        return {"seq": message["seq"], "skipped": True, "message": "not implemented"}
    return None


def announce(message, reply):
    if message.get("cmd") == "start":
        reply["operations"] = ANNOUNCED
    return reply


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] != "--":
        raise SystemExit(__doc__)
    relay(args[1:], announce, decline)


if __name__ == "__main__":
    main()
