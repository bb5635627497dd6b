"""JSON text as RFC 8785 (JCS) and ECMAScript write it, shared by the vector generators.

Standard library only; citeproof is never imported or run. Written from the spec texts:

- quote(): ECMA-262 QuoteJSONString, which RFC 8785 section 3.2.2.2 adopts: `"` and `\\`
  escaped, the five short escapes (\\b \\f \\n \\r \\t), every other control character below
  U+0020 as a lowercase \\u00xx, everything else as it is.
- es_number(): ECMA-262 Number::toString for a finite number (RFC 8785 section 3.2.2.3), on
  top of Python's shortest round-trip repr (the same digits ECMAScript chooses).
- jcs_text() / jcs(): RFC 8785 for the values the generators use. Integers must be safe
  (|n| < 2^53): a larger one would be rounded to a double by any JCS implementation, and no
  vector means that.
"""

import decimal


def quote(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


_SHORT_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def es_number(x) -> str:
    """ECMA-262 Number::toString(x) for finite x, from Python's shortest round-trip digits."""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    d = decimal.Decimal(repr(float(x))).normalize()
    _, digits, exp = d.as_tuple()
    s = "".join(map(str, digits))
    k = len(s)
    n = exp + k
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    sign = "+" if e >= 0 else "-"
    if k == 1:
        return f"{s}e{sign}{abs(e)}"
    return f"{s[0]}.{s[1:]}e{sign}{abs(e)}"


def jcs_text(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        assert abs(v) < 2 ** 53, "only safe integers are used in these vectors"
        return str(v)
    if isinstance(v, float):
        return es_number(v)
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, list):
        return "[" + ",".join(jcs_text(x) for x in v) + "]"
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(quote(k) + ":" + jcs_text(v[k]) for k in keys) + "}"
    raise TypeError(type(v))


def jcs(v) -> bytes:
    return jcs_text(v).encode("utf-8")
