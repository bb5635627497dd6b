#!/usr/bin/env python3
"""Broken: claims every operation and answers `valid` (no output, no codes) to every case."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        reply = {"protocol": 1, "implementation": {"name": "always-valid", "version": "0", "language": "python"},
                 "operations": ["*"]}
    elif message["cmd"] == "run":
        reply = {"seq": message["seq"], "result": "valid", "errors": []}
    else:
        break
    print(json.dumps(reply), flush=True)
