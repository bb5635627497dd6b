"""An independent implementation of the citation-chain envelope rules (profile CHAIN-002,
CHAIN-006) for the vector generator. Standard library, plus pyca/cryptography for Ed25519.

Nothing here imports or runs citeproof:

- `seed_python_payload` is the seed's own verifier code (seeds/004, "How to verify a chain
  locally"), applied to the envelope as Python's `json.loads` reads it: the bytes are CPython's.
- `deployed_js_payload` re-implements ECMAScript `JSON.stringify(payload,
  Object.keys(payload).sort())` of the producer's deployed signer in Python, written from
  ECMA-262 (SerializeJSONObject with a property list, QuoteJSONString, Number::toString).
  `python3 chain_vectors.py --check-node` compares it, and the claim ids, with node.js on every
  vector (done once when the vectors were made: all equal, node v20.20.2).
- `claim_id` re-implements the producer's `claimId()`: ECMAScript `trim()` (its WhiteSpace and
  LineTerminator sets, typed from ECMA-262 §12.2-12.3 and Unicode `Zs`) and `toLowerCase()`
  (CPython's `str.lower()`: full Unicode lowercase mapping with Final_Sigma, like ECMAScript).
"""

import hashlib
import hmac
import json

# ECMA-262 WhiteSpace (TAB VT FF ZWNBSP USP=Zs) and LineTerminator (LF CR LS PS).
ES_WHITESPACE = "\t\n\u000b\u000c\r \u00a0\u1680" + "".join(
    chr(c) for c in range(0x2000, 0x200B)) + "\u2028\u2029\u202f\u205f\u3000\ufeff"


def es_trim(s):
    return s.strip(ES_WHITESPACE)


def claim_id(vertical, subject, predicate, obj):
    text = "|".join(es_trim(f).lower() for f in (vertical, subject, predicate, obj))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def seed_python_payload(envelope):
    """The seed's code, verbatim but for the function around it."""
    claim = envelope["claim"]
    sig = envelope["signature"]
    payload = json.dumps(
        {**claim, "signedAt": sig["signedAt"], "signedBy": sig["signedBy"]},
        sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()
    return payload


def hmac_hex(secret, payload):
    return hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()


# ---- ECMAScript JSON.stringify with a property-list replacer ----

def _shortest(x):
    """Shortest round-trip digits of |x| and the decimal point position (0.d1d2.. x 10^n),
    from Python's repr (the same digits ECMAScript's Number::toString uses)."""
    r = repr(abs(x))
    mant, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    ip = mant.index(".") if "." in mant else len(mant)
    digits = mant.replace(".", "")
    n = ip + exp
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    return digits, n


def es_number(x):
    x = float(x)
    if x == 0:
        return "0"
    digits, n = _shortest(x)
    sign = "-" if x < 0 else ""
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + digits + "e" + es
    return sign + digits[0] + "." + digits[1:] + "e" + es


def es_quote(s):
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif c < 0x20:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def es_stringify(value, keys):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return es_number(value)
    if isinstance(value, str):
        return es_quote(value)
    if isinstance(value, list):
        return "[" + ",".join(es_stringify(v, keys) for v in value) + "]"
    if isinstance(value, dict):
        parts = [es_quote(k) + ":" + es_stringify(value[k], keys) for k in keys if k in value]
        return "{" + ",".join(parts) + "}"
    raise TypeError(type(value))


PAYLOAD_KEYS = ["id", "vertical", "subject", "predicate", "object", "statement", "confidence",
                "sources", "publishedAt", "methodologyVersion"]


def deployed_payload_object(claim):
    """The producer's `payload` literal; members the claim lacks are `undefined` (left out)."""
    payload = {}
    for k in PAYLOAD_KEYS:
        if k not in claim:
            continue
        if k == "sources":
            payload[k] = [{"url": s.get("url"), "title": s.get("title"),
                           "publisher": s.get("publisher"),
                           "publishedDate": s.get("publishedDate"), "type": s.get("type")}
                          for s in claim["sources"]]
        else:
            payload[k] = claim[k]
    return payload


def deployed_js_payload(envelope):
    payload = deployed_payload_object(envelope["claim"])
    return es_stringify(payload, sorted(PAYLOAD_KEYS)).encode()


def jcs_payload(envelope):
    """The earlier draft's JCS payload, for the case showing it does not verify. Only for
    claims whose members are ASCII and whose numbers JCS and ECMAScript write alike."""
    claim = dict(envelope["claim"])
    claim["signedAt"] = envelope["signature"]["signedAt"]
    claim["signedBy"] = envelope["signature"]["signedBy"]

    def enc(v):
        if isinstance(v, dict):
            return "{" + ",".join(es_quote(k) + ":" + enc(v[k]) for k in sorted(v)) + "}"
        if isinstance(v, list):
            return "[" + ",".join(enc(x) for x in v) + "]"
        if isinstance(v, bool) or v is None:
            return json.dumps(v)
        if isinstance(v, (int, float)):
            return es_number(v)
        return es_quote(v)
    return enc(claim).encode()


# ---- what the deployed-js input leaves unsigned (profile CHAIN-014) ----

def _pointer_token(name):
    return name.replace("~", "~0").replace("/", "~1")


def deployed_unsigned(envelope, base=""):
    """JSON pointers of the members whose value the deployed-js bytes do not depend on, sorted
    by code point: claim members outside the payload, every member of every source, members of
    objects nested in a covered value that the property list filters out, and signedAt and
    signedBy. Written from the profile's rule, not from citeproof."""
    keys = set(PAYLOAD_KEYS)
    claim = envelope["claim"]
    out = []

    def filtered(value, at):
        if isinstance(value, dict):
            for k, v in value.items():
                here = at + "/" + _pointer_token(k)
                if k in keys:
                    filtered(v, here)
                else:
                    out.append(here)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                filtered(v, "%s/%d" % (at, i))

    for name, value in claim.items():
        at = base + "/claim/" + _pointer_token(name)
        if name not in keys:
            out.append(at)
        elif name == "sources":
            for i, source in enumerate(value):
                for k in source:
                    out.append("%s/%d/%s" % (at, i, _pointer_token(k)))
        else:
            filtered(value, at)
    out += [base + "/signature/signedAt", base + "/signature/signedBy"]
    return sorted(out)
