#!/usr/bin/env python3
"""Broken: the good adapter, but the process dies (exit status 3) when it receives its fourth
case, after printing a traceback-like message on stderr."""

import sys

import _common  # noqa: F401
import citeproof_adapter

count = 0


def on_run(seq):
    global count
    count += 1
    if count > 3:
        print(f"simulated crash on case seq={seq}", file=sys.stderr, flush=True)
        sys.exit(3)


citeproof_adapter.serve(on_run=on_run)
