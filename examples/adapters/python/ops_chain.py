"""Citation-chain envelopes (docs/PROFILE.md CHAIN-002, CHAIN-006) with the standard library.

The `seed-python` signing input is the seed's own verifier code: Python's `json.dumps` of the
claim as `json.loads` read it, so this adapter is the seed's reference behaviour. The
`deployed-js` input re-implements ECMAScript `JSON.stringify(payload, Object.keys(payload).sort())`.
"""

import hashlib
import json

import strict_json

# ECMA-262 WhiteSpace and LineTerminator: what String.prototype.trim removes.
ES_WHITESPACE = ("\t\n\u000b\u000c\r \u00a0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B))
                 + "\u2028\u2029\u202f\u205f\u3000\ufeff")
PAYLOAD_KEYS = ["id", "vertical", "subject", "predicate", "object", "statement", "confidence",
                "sources", "publishedAt", "methodologyVersion"]


def claim_id(claim):
    """(errors, id) of CHAIN-002."""
    fields = []
    for name in ("vertical", "subject", "predicate", "object"):
        value = claim.get(name)
        if not isinstance(value, str) or not value:
            return ["schema-violation"], None
        fields.append(value.strip(ES_WHITESPACE).lower())
    return [], hashlib.sha256("|".join(fields).encode("utf-8")).hexdigest()[:16]


def _quote(s):
    out = []
    for ch in s:
        c = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\b\f\n\r\t":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif c < 0x20:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _stringify(value, keys):
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return strict_json.es_number(float(value))
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, list):
        return "[" + ",".join(_stringify(v, keys) for v in value) + "]"
    return "{" + ",".join(_quote(k) + ":" + _stringify(value[k], keys) for k in keys if k in value) + "}"


def signing_input(document):
    """(errors, output) of the `chain-signing-input` operation."""
    try:
        envelope = strict_json.parse(document)
    except strict_json.JsonError as e:
        return [e.code], None
    claim = envelope.get("claim") if isinstance(envelope, dict) else None
    sig = envelope.get("signature") if isinstance(envelope, dict) else None
    if not isinstance(claim, dict) or not isinstance(sig, dict):
        return ["schema-violation"], None
    if not isinstance(sig.get("signedAt"), str) or not isinstance(sig.get("signedBy"), str):
        return ["schema-violation"], None
    if "signedAt" in claim or "signedBy" in claim:
        return ["chain-payload-conflict"], None
    sources = claim.get("sources")
    if "sources" in claim and not (isinstance(sources, list) and all(isinstance(s, dict) for s in sources)):
        return ["schema-violation"], None
    # The seed's verifier, verbatim.
    seed = json.dumps({**claim, "signedAt": sig["signedAt"], "signedBy": sig["signedBy"]},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    payload = {k: claim[k] for k in PAYLOAD_KEYS if k in claim}
    if "sources" in payload:
        payload["sources"] = [{} for _ in sources]
    return [], {"seed_python": seed, "deployed_js": _stringify(payload, sorted(PAYLOAD_KEYS))}
