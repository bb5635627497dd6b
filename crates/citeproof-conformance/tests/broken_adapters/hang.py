#!/usr/bin/env python3
"""Broken: a good handshake, then it never answers a case (it keeps reading and ignoring them).
With `--hang-hello` it never answers the handshake either. With `--stop-reading` it stops
reading stdin after the handshake, so a large case input fills the pipe."""

import json
import sys
import time

from _protocol import announce

hang_hello = "--hang-hello" in sys.argv
stop_reading = "--stop-reading" in sys.argv
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start" and not hang_hello:
        announce("hang", ["*"])
        if stop_reading:
            time.sleep(3600)
