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

Boundary faults (issue 24: each gets one boundary of one rule wrong by one step):
  date-julian-leap     every year divisible by 4 is a leap year (2100-02-29 accepted)
  number-integral-float  an integer member written 2.0 counts as an integer (JSON-003 is lexical)
  uri-visible-ascii    a URL character is any visible ASCII (only pct-encodings checked), so
                       '|', '{', '}', '^' and the backtick pass
  id-length-off-by-one a run id of 129 characters accepted ({0,128} after the first character)
  skew-15-minutes      a date up to 900 s in the future accepted (AWS SigV4's 15 minutes, not
                       the profile's 300 s)
"""

import inspect
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "python")))

import citeproof_adapter  # noqa: E402
import ops_aca  # noqa: E402
import ops_aef  # noqa: E402
import ops_canon  # noqa: E402
import ops_chain_verify  # noqa: E402
import ops_ledger  # noqa: E402
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


def days_in_month_julian(year, month):
    if month == 2:
        return 29 if year % 4 == 0 else 28  # the fault: no century rule
    return 30 if month in (4, 6, 9, 11) else 31


def is_int_by_value(v):
    # The fault: an integral float (2.0, 2e0) counts as an integer.
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def replace_in_function(module, name, old, new):
    """Redefines module.name from its own source with one literal replaced (exactly once)."""
    source = inspect.getsource(getattr(module, name))
    assert source.count(old) == 1, f"{name}: {old!r} found {source.count(old)} times"
    exec(compile(source.replace(old, new), module.__file__, "exec"), module.__dict__)


ORIGINAL_CANONICALIZE = strict_json.canonicalize

FAULTS = {
    "jcs-sort-codepoint": lambda: setattr(strict_json, "canonicalize", canonicalize_codepoint),
    "jcs-numbers": lambda: setattr(strict_json, "es_number", es_number_repr),
    "duplicate-names": lambda: setattr(strict_json, "_pairs", dict),
    "lone-surrogates": lambda: setattr(strict_json, "_check_text", check_text_noncharacters_only),
    "line-endings": lambda: setattr(ops_canon, "aef_text", aef_text_crlf_only),
    # The quoted-pair is kept as it stands (backslash included) instead of unescaped.
    "header-params": lambda: replace_in_function(ops_aca, "_quoted", "out.append(s[i + 1])", "out.append(s[i:i + 2])"),
    "date-julian-leap": lambda: setattr(ops_aef, "_days_in_month", days_in_month_julian),
    "number-integral-float": lambda: setattr(ops_ledger, "is_int", is_int_by_value),
    "uri-visible-ascii": lambda: setattr(ops_aca, "URI_CHARS", re.compile(r"(?:[\x21-\x24\x26-\x7e]|%[0-9A-Fa-f]{2})*")),
    "id-length-off-by-one": lambda: setattr(ops_aca, "RUN_ID", re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,128}")),
    "skew-15-minutes": lambda: replace_in_function(ops_chain_verify, "verify_envelope", "now + 300", "now + 900"),
}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in FAULTS:
        raise SystemExit(__doc__)
    FAULTS[sys.argv[1]]()
    citeproof_adapter.serve()
