#!/usr/bin/env python3
"""A deliberately broken adapter: the Python example adapter (../python) with exactly one
injected fault, the way a real implementation with that single bug would behave.

    python3 python_fault.py FAULT

Faults (one per mutant of mutants.json):
  jcs-sort-codepoint   RFC 8785 members sorted by code point instead of UTF-16 code units
  jcs-numbers          numbers written with Python's repr instead of ECMAScript's rules
  duplicate-names      duplicate member names accepted (the last one wins)
  lone-surrogates      lone surrogate escapes accepted
  line-endings         AEF §5: only CR LF normalized, a lone CR kept
  header-params        Citation-Source: quoted-pairs kept escaped in parameter values
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "python")))

import citeproof_adapter  # noqa: E402
import ops_aca  # noqa: E402
import ops_canon  # noqa: E402
import strict_json  # noqa: E402


def canonicalize_codepoint(value):
    if isinstance(value, dict):
        keys = sorted(value)  # the fault: code point order
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonicalize_codepoint(value[k])
                              for k in keys) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonicalize_codepoint(v) for v in value) + "]"
    return ORIGINAL_CANONICALIZE(value)


def es_number_repr(x):
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e16 else repr(x)


def check_text_noncharacters_only(s):
    for ch in s:
        if strict_json.is_noncharacter(ord(ch)):
            raise strict_json.JsonError("json-noncharacter", f"noncharacter U+{ord(ch):04X}")


def aef_text_crlf_only(data):
    text = data.decode("utf-8").replace("\r\n", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    return text.encode("utf-8")


def quoted_keeping_backslashes(s, i):
    i += 1
    out, backslash = [], False
    while i < len(s):
        c = s[i]
        if c == '"':
            return "".join(out), backslash, i + 1
        if c == "\\" and i + 1 < len(s):
            backslash = True
            out.append(s[i:i + 2])  # the fault: the quoted-pair is not unescaped
            i += 2
            continue
        out.append(c)
        i += 1
    raise ops_aca.Syntax("unterminated quoted-string")


ORIGINAL_CANONICALIZE = strict_json.canonicalize

FAULTS = {
    "jcs-sort-codepoint": lambda: setattr(strict_json, "canonicalize", canonicalize_codepoint),
    "jcs-numbers": lambda: setattr(strict_json, "es_number", es_number_repr),
    "duplicate-names": lambda: setattr(strict_json, "_pairs", dict),
    "lone-surrogates": lambda: setattr(strict_json, "_check_text", check_text_noncharacters_only),
    "line-endings": lambda: setattr(ops_canon, "aef_text", aef_text_crlf_only),
    "header-params": lambda: setattr(ops_aca, "_quoted", quoted_keeping_backslashes),
}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in FAULTS:
        raise SystemExit(__doc__)
    FAULTS[sys.argv[1]]()
    citeproof_adapter.serve()
