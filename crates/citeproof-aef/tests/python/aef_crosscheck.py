#!/usr/bin/env python3
"""Independent end-to-end cross-check of AEF Level 3 (evidence objects, not bare JWS), run by
`tests/aef_python_crosscheck.rs`. Needs `pip install joserfc cryptography`.

    aef_crosscheck.py --probe    print library versions as JSON; exit 3 if one is missing
    aef_crosscheck.py            JSON request on stdin, JSON response on stdout

The signing payload of an evidence object (AEF-5-003: RFC 8785 JCS without
verification.signature and verification.signing_key_uri) is computed here by
vectors/tools/aef_independent.py, never by citeproof.

Request:  {"ours": <evidence signed by citeproof>, "our_public_jwk": {...},
           "unsigned": <evidence for Python to sign>}
Response: {"versions": {...},
           "verify_ours": {"ok": bool, "error"?: str},           joserfc verifies our evidence
           "verify_ours_tampered": {...},                         ... and refuses a changed claim
           "verify_ours_moved_key_uri": {...},                    signing_key_uri is not signed
           "theirs": <"unsigned" signed by joserfc with a fresh cryptography key, kid "py-1">,
           "their_public_jwk": {...}}
"""

import copy
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..", "..", "vectors", "tools")))

# The same two libraries as citeproof-jose's cross-check: its probe reports them.
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..", "citeproof-jose", "tests", "python")))

import aef_independent as ind  # noqa: E402
from jws_crosscheck import probe  # noqa: E402,F401


def main():
    warnings.simplefilter("ignore")  # joserfc >= 1.5 flags "EdDSA" as deprecated (RFC 9864)
    import cryptography
    import joserfc
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from joserfc import jws
    from joserfc.jwk import OKPKey

    req = json.load(sys.stdin)
    algorithms = ["EdDSA"]
    out = {"versions": {"joserfc": joserfc.__version__, "cryptography": cryptography.__version__}}
    our_key = OKPKey.import_key(req["our_public_jwk"])

    def verify(evidence):
        try:
            payload = ind.signing_payload(evidence)
            jws.deserialize_compact(evidence["verification"]["signature"], our_key,
                                    algorithms=algorithms, payload=payload)
            return {"ok": True}
        except Exception as e:  # reported; the Rust side asserts
            return {"ok": False, "error": f"{type(e).__name__}: {e}"}

    ours = req["ours"]
    out["verify_ours"] = verify(ours)
    tampered = copy.deepcopy(ours)
    tampered["claim_text"] += " (edited)"
    out["verify_ours_tampered"] = verify(tampered)
    moved = copy.deepcopy(ours)
    moved["verification"]["signing_key_uri"] = "https://elsewhere.example/keys.json"
    out["verify_ours_moved_key_uri"] = verify(moved)

    private = Ed25519PrivateKey.generate()
    raw_public = private.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    their_jwk = {"kty": "OKP", "crv": "Ed25519", "x": ind.b64u(raw_public), "kid": "py-1"}
    key = OKPKey.import_key(private.private_bytes(
        ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption()))
    theirs = copy.deepcopy(req["unsigned"])
    payload = ind.signing_payload(theirs)
    attached = jws.serialize_compact({"alg": "EdDSA", "kid": "py-1"}, payload, key, algorithms=algorithms)
    theirs["verification"]["signature"] = jws.detach_content(attached)
    out["theirs"] = theirs
    out["their_public_jwk"] = their_jwk
    json.dump(out, sys.stdout, ensure_ascii=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--probe"]:
        sys.exit(probe())
    sys.exit(main())
