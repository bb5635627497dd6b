"""Shared by the deliberately broken adapters: each one is the good Python example adapter
(examples/adapters/python) with exactly one defect, or a small protocol misbehaviour."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "examples", "adapters", "python"))
sys.path.insert(0, EXAMPLE)

import citeproof_adapter  # noqa: E402,F401
