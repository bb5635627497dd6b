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

from common_json import es_number, jcs, quote as es_quote

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

# QuoteJSONString and Number::toString: es_quote and es_number, from common_json.


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
    """The earlier draft's RFC 8785 (JCS) payload, for the case showing it does not verify."""
    claim = dict(envelope["claim"])
    claim["signedAt"] = envelope["signature"]["signedAt"]
    claim["signedBy"] = envelope["signature"]["signedBy"]
    return jcs(claim)


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
