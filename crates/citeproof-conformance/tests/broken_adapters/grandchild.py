#!/usr/bin/env python3
"""Broken: a wrapper that does not `exec`. It starts the "real" adapter as a child process
(here a process that sleeps), writes that grandchild's pid to the file given as first argument,
answers the handshake and then never answers a case. With `--answer` it answers every case
`skipped` and exits on `stop`, leaving the grandchild behind. The runner must kill the whole
process group, grandchild included."""

import json
import subprocess
import sys

from _protocol import announce

pidfile = sys.argv[1]
answer = "--answer" in sys.argv
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(pidfile, "w") as f:
    f.write(str(grandchild.pid))
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        announce("grandchild", ["*"])
    elif message["cmd"] == "run" and answer:
        print(json.dumps({"seq": message["seq"], "skipped": True}), flush=True)
    elif message["cmd"] == "stop":
        sys.exit(0)
