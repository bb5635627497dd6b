#!/usr/bin/env python3
"""Broken: two off-by-one errors in otherwise good code.
1. AEF §5 text hash: drops the last character whether or not it is a newline
   (`text[:-1]` where `text[:-1] if text.endswith("\\n")` was meant).
2. AEF `retrieval.rank`: accepts 0 (`rank >= 0` where the schema's minimum is 1)."""

import _common  # noqa: F401
import citeproof_adapter
import ops_aef
import ops_canon


def aef_text(data):
    text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    return text[:-1].encode("utf-8")


ops_canon.aef_text = aef_text
ops_aef.MIN_RANK = 0
citeproof_adapter.serve()
