#!/usr/bin/env python3
"""Broken: the good adapter, plus it claims the signature-checking operations and answers every
one of them with `valid` at Level 3, signed or not."""

import _common  # noqa: F401
import citeproof_adapter


def level3(input):
    return citeproof_adapter.valid({"level": 3})


def verified(input):
    return citeproof_adapter.valid()


ops = dict(citeproof_adapter.OPERATIONS)
ops.update({
    "aca-verify-snapshot": level3,
    "aef-verify": level3,
    "chain-verify": level3,
    "aef-jws-verify": verified,
    "httpsig-verify": verified,
})
citeproof_adapter.serve(ops)
