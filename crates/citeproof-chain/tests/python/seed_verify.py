"""The seed's own chain verifier, as an oracle for citeproof's chain crate.

`verify_chain` below is copied verbatim from seeds/004 ("How to verify a chain locally"). Its
network calls go to a stub `requests` whose answers the test gives: the canonical page text and
whether each source URL is reachable. Everything else (the json.dumps payload, hmac, the
comparison) is the seed's code running on CPython.

Modes (JSON on stdin, JSON on stdout):
  verify  {"cases": [{"envelope": TEXT, "secret": S, "page": TEXT, "reachable": [URL...]}]}
          -> [{"url_ok", "sig_ok", "sources_ok", "verified"}]
  dumps   {"documents": [TEXT...]}
          -> [json.dumps(json.loads(TEXT), sort_keys=True, separators=(",", ":"), ensure_ascii=False)]
  repr    {"bits": ["<16 hex digits of an IEEE 754 double>", ...]} -> [repr(float)]
  probe   -> {"python": version}
"""

import hashlib
import hmac
import json
import struct
import sys
import types

STUB = {"page": "", "reachable": set()}


class _Response:
    def __init__(self, text="", ok=False):
        self.text = text
        self.ok = ok


def _get(url, **_kwargs):
    return _Response(text=STUB["page"], ok=True)


def _head(url, **_kwargs):
    return _Response(ok=url in STUB["reachable"])


requests = types.SimpleNamespace(get=_get, head=_head)


# ---- seeds/004_53919f9e1e95c9ad.txt, verbatim ----
def verify_chain(envelope: dict, shared_secret: str) -> dict:
    claim = envelope["claim"]
    sig   = envelope["signature"]

    # Check 1 — re-fetch the canonical URL and compare
    canonical = requests.get(envelope["canonical"]).text
    url_ok = claim["id"] in canonical  # canonical page shows claim id

    # Check 2 — re-compute HMAC-SHA256 over canonical-JSON of claim + signing metadata
    payload = json.dumps(
        {**claim, "signedAt": sig["signedAt"], "signedBy": sig["signedBy"]},
        sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()
    expected = hmac.new(shared_secret.encode(), payload, hashlib.sha256).hexdigest()
    sig_ok = hmac.compare_digest(expected, sig["signature"])

    # Check 3 — at least one source URL must still be reachable
    sources_ok = any(requests.head(s["url"], timeout=4).ok for s in claim["sources"])

    return {"url_ok": url_ok, "sig_ok": sig_ok, "sources_ok": sources_ok,
            "verified": all([url_ok, sig_ok, sources_ok])}
# ---- end of the seed's code ----


def main():
    mode = sys.argv[1]
    if mode == "probe":
        print(json.dumps({"python": sys.version.split()[0]}))
        return
    request = json.load(sys.stdin)
    if mode == "verify":
        out = []
        for c in request["cases"]:
            STUB["page"] = c["page"]
            STUB["reachable"] = set(c["reachable"])
            out.append(verify_chain(json.loads(c["envelope"]), c["secret"]))
    elif mode == "dumps":
        out = [json.dumps(json.loads(t), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
               for t in request["documents"]]
    elif mode == "repr":
        out = [repr(struct.unpack(">d", bytes.fromhex(b))[0]) for b in request["bits"]]
    else:
        raise SystemExit("unknown mode " + mode)
    sys.stdout.write(json.dumps(out, ensure_ascii=True))


if __name__ == "__main__":
    main()
