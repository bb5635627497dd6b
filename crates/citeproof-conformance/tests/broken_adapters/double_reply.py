#!/usr/bin/env python3
"""Broken: a correct `hash-bytes` adapter that answers its second case twice. With `--late` it
instead answers the last case a second time when told to stop. The runner must blame the case
that got two replies, not the next one."""

import base64
import hashlib
import json
import sys

from _protocol import announce

late = "--late" in sys.argv
runs = 0
last = None
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        announce("double-reply", ["hash-bytes"])
    elif message["cmd"] == "run":
        runs += 1
        data = base64.b64decode(message["case"]["input"]["data_base64"])
        last = {"seq": message["seq"], "result": "valid", "errors": [],
                "output": {"hash": "sha256:" + hashlib.sha256(data).hexdigest()}}
        print(json.dumps(last), flush=True)
        if runs == 2 and not late:
            print(json.dumps(last), flush=True)
    elif message["cmd"] == "stop":
        if late and last is not None:
            print(json.dumps(last), flush=True)
        break
