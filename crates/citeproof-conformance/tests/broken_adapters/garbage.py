#!/usr/bin/env python3
"""Broken: a good handshake, then a different kind of garbage for each case, chosen by `seq`
(which keeps counting across restarts):
  seq % 6 == 1: plain text            2: a reply with the wrong seq
  3: a reply with result "maybe"      4: bytes that are not UTF-8
  5: one 64 KiB line                  0: a JSON array
With `--bad-hello` the handshake itself is garbage."""

import json
import sys

bad_hello = "--bad-hello" in sys.argv
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    message = json.loads(line)
    if message["cmd"] == "start":
        if bad_hello:
            out.write(b"HELLO! I am an adapter\n")
        else:
            out.write(json.dumps({"protocol": 1, "implementation": {"name": "garbage", "version": "0", "language": "python"},
                                  "operations": ["*"]}).encode() + b"\n")
    elif message["cmd"] == "run":
        seq = message["seq"]
        kind = seq % 6
        if kind == 1:
            out.write(b"this is not JSON\n")
        elif kind == 2:
            out.write(json.dumps({"seq": seq + 1000, "result": "valid", "errors": []}).encode() + b"\n")
        elif kind == 3:
            out.write(json.dumps({"seq": seq, "result": "maybe", "errors": []}).encode() + b"\n")
        elif kind == 4:
            out.write(b"{\"seq\": \xff\xfe}\n")
        elif kind == 5:
            out.write(b"x" * 65536 + b"\n")
        else:
            out.write(b"[1, 2, 3]\n")
    else:
        break
    out.flush()
