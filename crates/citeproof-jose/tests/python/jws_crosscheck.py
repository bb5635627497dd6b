#!/usr/bin/env python3
"""Independent cross-check of citeproof-jose with joserfc (and pyca/cryptography).

Run by `tests/python_crosscheck.rs`; needs `pip install joserfc cryptography`.

    jws_crosscheck.py --probe     print the library versions as JSON; exit 3 if one is missing
    jws_crosscheck.py             read a JSON request on stdin, write a JSON response on stdout

Request members (all strings unless noted):
    payload_b64u          the payload bytes, base64url without padding
    our_jws               a detached JWS over the payload made by citeproof-jose
    our_public_jwk        (object) the public JWK to verify `our_jws` with
    our_private_pem       a PKCS#8 PEM private key made by citeproof-jose, for joserfc to sign with
    their_kid             the `kid` joserfc puts in its header
    rfc8037_private_jwk   (object) RFC 8037 A.1 private JWK

Response members:
    versions                      {"joserfc": .., "cryptography": ..}
    verify_ours                   {"ok": true} or {"ok": false, "error": ..}: (a) joserfc verifies
                                  our detached JWS over the payload with our public JWK
    verify_ours_tampered_payload  the same over the payload with one byte changed (must fail)
    their_jws                     (b) detached JWS made by joserfc over the payload with the key of
                                  `our_private_pem`, header {"alg":"EdDSA","kid":their_kid}
    rfc8037_a4_compact            joserfc's attached JWS of "Example of Ed25519 signing" with
                                  header {"alg":"EdDSA"} and the A.1 key (RFC 8037 A.4)
    generated_pkcs8_pem           a fresh Ed25519 key made by cryptography: PKCS#8 PEM,
    generated_spki_pem            its SubjectPublicKeyInfo PEM,
    generated_public_hex          its raw public key, hex,
    generated_signature_hex       and its raw Ed25519 signature of the payload, hex
"""

import base64
import json
import sys
import warnings


def b64u_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def probe():
    try:
        import cryptography
        import joserfc
    except ImportError as e:  # pragma: no cover - environment dependent
        print(json.dumps({"error": f"missing module: {e}"}))
        return 3
    print(json.dumps({"joserfc": joserfc.__version__, "cryptography": cryptography.__version__}))
    return 0


def main():
    # joserfc >= 1.5 warns that "EdDSA" is deprecated by RFC 9864 in favour of "Ed25519";
    # citeproof uses RFC 8037 "EdDSA" on purpose (same bytes), so the warning is expected.
    warnings.simplefilter("ignore")

    import cryptography
    import joserfc
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from joserfc import jws
    from joserfc.jwk import OKPKey

    req = json.load(sys.stdin)
    payload = b64u_decode(req["payload_b64u"])
    algorithms = ["EdDSA"]  # EdDSA is not in joserfc's "recommended" default set
    out = {"versions": {"joserfc": joserfc.__version__, "cryptography": cryptography.__version__}}

    # (a) verify our detached JWS
    our_public = OKPKey.import_key(req["our_public_jwk"])

    def verify(payload_bytes):
        try:
            jws.deserialize_compact(
                req["our_jws"], our_public, algorithms=algorithms, payload=payload_bytes
            )
            return {"ok": True}
        except Exception as e:  # report, do not crash: the Rust side asserts
            return {"ok": False, "error": f"{type(e).__name__}: {e}"}

    out["verify_ours"] = verify(payload)
    tampered = bytearray(payload or b"\x00")
    tampered[0] ^= 0x01
    out["verify_ours_tampered_payload"] = verify(bytes(tampered))

    # (b) sign with the key we were given, detached
    their_key = OKPKey.import_key(req["our_private_pem"])
    attached = jws.serialize_compact(
        {"alg": "EdDSA", "kid": req["their_kid"]}, payload, their_key, algorithms=algorithms
    )
    out["their_jws"] = jws.detach_content(attached)

    # RFC 8037 A.4 through joserfc
    a1 = OKPKey.import_key(req["rfc8037_private_jwk"])
    out["rfc8037_a4_compact"] = jws.serialize_compact(
        {"alg": "EdDSA"}, b"Example of Ed25519 signing", a1, algorithms=algorithms
    )

    # a fresh key from pyca/cryptography, PEM both ways, and a raw signature
    k = Ed25519PrivateKey.generate()
    out["generated_pkcs8_pem"] = k.private_bytes(
        ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption()
    ).decode()
    out["generated_spki_pem"] = (
        k.public_key()
        .public_bytes(ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    out["generated_public_hex"] = (
        k.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw).hex()
    )
    out["generated_signature_hex"] = k.sign(payload).hex()

    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--probe"]:
        sys.exit(probe())
    sys.exit(main())
