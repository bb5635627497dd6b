#!/usr/bin/env python3
"""Honest: answers every case `valid` with a span text holding the noncharacters U+FDD0 and
U+10FFFF, written as raw UTF-8 or (with `--escaped`) as \\u escapes. A reply is transport: such
a span text is an answer, not a malformed line."""

import json
import sys

from _protocol import announce

escaped = "--escaped" in sys.argv
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        announce("noncharacter", ["*"])
    elif message["cmd"] == "run":
        reply = {"seq": message["seq"], "result": "valid", "errors": [],
                 "output": {"exact_text": "span \ufdd0 text \U0010ffff", "content_hash": "sha256:00"}}
        sys.stdout.buffer.write(json.dumps(reply, ensure_ascii=escaped).encode("utf-8") + b"\n")
        sys.stdout.flush()
    else:
        break
