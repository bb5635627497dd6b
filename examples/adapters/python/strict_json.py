"""Strict I-JSON parsing (docs/PROFILE.md JSON-001, JSON-002) and RFC 8785 canonicalization
(CANON-001) with the Python standard library only."""

import json
import re

MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 128
MAX_SAFE = 2 ** 53 - 1


class JsonError(Exception):
    """An input that is not acceptable I-JSON; `code` is the registry code."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class LexFloat(float):
    """A number written with a fraction or an exponent (profile JSON-003: never an integer)."""


def _parse_float(text):
    value = LexFloat(text)
    if value in (float("inf"), float("-inf")):
        raise JsonError("json-number-out-of-range", f"{text} overflows a double")
    return value


def _parse_int(text):
    value = int(text)
    try:
        float(value)
    except OverflowError:
        raise JsonError("json-number-out-of-range", f"{text[:20]}... overflows a double") from None
    return value


def _parse_constant(name):
    raise JsonError("json-syntax", f"{name} is not JSON")


class _Object(dict):
    """A JSON object; duplicate names are rejected while parsing."""


def _pairs(pairs):
    obj = _Object()
    for key, value in pairs:
        if key in obj:
            raise JsonError("json-duplicate-member", f"duplicate member name {key!r}")
        obj[key] = value
    return obj


def is_noncharacter(cp):
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def _check_strings(value, depth=1):
    """Lone surrogates, noncharacters and nesting depth (Python's parser accepts all three)."""
    stack = [(value, depth)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)) and d > MAX_DEPTH:
            raise JsonError("json-too-large", f"nesting deeper than {MAX_DEPTH}")
        if isinstance(v, str):
            _check_text(v)
        elif isinstance(v, dict):
            for k, item in v.items():
                _check_text(k)
                stack.append((item, d + 1))
        elif isinstance(v, list):
            stack.extend((item, d + 1) for item in v)


def _check_text(s):
    for ch in s:
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF:
            raise JsonError("json-lone-surrogate", "unpaired surrogate escape")
        if is_noncharacter(cp):
            raise JsonError("json-noncharacter", f"noncharacter U+{cp:04X}")


def parse(data):
    """Parses bytes (or str) as strict I-JSON; raises JsonError with the registry code."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_BYTES:
        raise JsonError("json-too-large", "document larger than 16 MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonError("json-invalid-utf8", str(e)) from None
    if text.startswith("\ufeff"):
        raise JsonError("json-syntax", "byte order mark")
    # Python's parser recurses; a depth far beyond the limit is refused before it runs.
    if _max_bracket_depth(text) > MAX_DEPTH:
        # Only an estimate (brackets inside strings count too); the exact check is below.
        if _max_bracket_depth(_strip_strings(text)) > MAX_DEPTH:
            raise JsonError("json-too-large", f"nesting deeper than {MAX_DEPTH}")
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_float=_parse_float,
                           parse_int=_parse_int, parse_constant=_parse_constant)
    except JsonError:
        raise
    except (ValueError, RecursionError) as e:
        raise JsonError("json-syntax", str(e)) from None
    _check_strings(value)
    return value


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _strip_strings(text):
    return _STRING.sub('""', text)


def _max_bracket_depth(text):
    depth = best = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


# ---------------------------------------------------------------------------------------------
# RFC 8785


def es_number(x):
    """ECMA-262 Number::toString for a finite double (RFC 8785 §3.2.2.3)."""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    r = repr(float(x))  # shortest round-trip digits
    mantissa, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    int_part, _, frac = mantissa.partition(".")
    digits = (int_part + frac).lstrip("0")
    point = len(int_part) + exp  # position of the decimal point in int_part+frac
    lead = len(int_part + frac) - len((int_part + frac).lstrip("0"))
    digits = digits.rstrip("0")
    k = len(digits)
    n = point - lead
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    if k == 1:
        return f"{digits}e{sign}{abs(e)}"
    return f"{digits[0]}.{digits[1:]}e{sign}{abs(e)}"


def canonicalize(value):
    """The RFC 8785 text of a parsed value."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return es_number(float(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(canonicalize(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonicalize(value[k]) for k in keys) + "}"
    raise TypeError(type(value))
