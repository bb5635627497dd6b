#!/usr/bin/env python3
"""Probe: answers `errored` (with what it sees) unless its working directory is empty, which is
where the runner must start an adapter (nothing of the checkout at hand by relative path)."""

import json
import os
import sys

from _protocol import announce

for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        announce("cwd-probe", ["*"])
    elif message["cmd"] == "run":
        seen = os.listdir(".")
        if seen:
            reply = {"seq": message["seq"], "errored": True, "message": f"cwd {os.getcwd()} holds {seen[:5]}"}
        else:
            reply = {"seq": message["seq"], "skipped": True, "message": f"empty cwd {os.getcwd()}"}
        print(json.dumps(reply), flush=True)
    else:
        break
