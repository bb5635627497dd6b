"""Independent helpers for the ACA vector generators (vectors/tools/aca_vectors.py).

Standard library plus pyca/cryptography (Ed25519); citeproof is never imported or run. Every
helper is written from the spec text it cites:

- jcs(), jcs_text(): RFC 8785, from common_json (shared by the generators).
- aef_text_hash(): AEF SPEC.md section 5 steps 1-5 as profiled by CANON-003 (b).
- content_digest(): RFC 9530 section 2, `sha-256=:<base64>:`.
- signature_base(): RFC 9421 section 2.5, for the components these vectors cover.
- Ed25519 signatures: RFC 8032, by pyca/cryptography (deterministic).
"""

import base64
import hashlib
import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from common_json import jcs, jcs_text  # noqa: F401 (re-exported to the ACA generator)

NOW = 1777370400  # 2026-04-28T10:00:00Z
NOW_TEXT = "2026-04-28T10:00:00Z"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def sha256_hash(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def aef_text_hash(data: bytes) -> str:
    text = data.decode("utf-8")  # raises on invalid UTF-8
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    return sha256_hash(text.encode("utf-8"))


def content_digest(body: bytes) -> str:
    return "sha-256=:" + b64(hashlib.sha256(body).digest()) + ":"


def content_digest_512(body: bytes) -> str:
    return "sha-512=:" + b64(hashlib.sha512(body).digest()) + ":"


class Key:
    """An Ed25519 key from a 32-byte seed (RFC 8032 secret key)."""

    def __init__(self, label: str):
        self.seed = hashlib.sha256(("citeproof aca vectors: " + label).encode()).digest()
        self.private = Ed25519PrivateKey.from_private_bytes(self.seed)
        self.public = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.label = label

    def sign(self, message: bytes) -> bytes:
        return self.private.sign(message)

    def jwk(self, kid=None, private=False) -> dict:
        j = {"kty": "OKP", "crv": "Ed25519", "x": b64url(self.public)}
        if kid is not None:
            j["kid"] = kid
        if private:
            j["d"] = b64url(self.seed)
        return j


def inner_list(components, params) -> str:
    """RFC 9421 section 2.3 serialization: ("c1" "c2");p1=v1;... (params: list of (name, text))."""
    s = "(" + " ".join('"%s"' % c for c in components) + ")"
    for name, value in params:
        s += ";%s=%s" % (name, value)
    return s


def signature_base(component_values, sig_params: str) -> str:
    """RFC 9421 section 2.5: one `"<id>": <value>` line per covered component (each ending in
    LF), then `"@signature-params": <inner list>` without a final LF."""
    lines = ['"%s": %s' % (c, v) for c, v in component_values]
    lines.append('"@signature-params": ' + sig_params)
    return "\n".join(lines)


def sign_manifest_response(manifest_body: bytes, key: Key, keyid: str, created: int,
                           expires=None, label="sig1", content_type="application/json",
                           components=("@status", "content-type", "content-digest"),
                           params=None, status=200, digest=None):
    """The manifest response of ACA Level 3, built by hand. Returns (headers, base, signature)."""
    digest = digest if digest is not None else content_digest(manifest_body)
    values = {"@status": "%03d" % status, "content-type": content_type, "content-digest": digest}
    if params is None:
        params = [("created", str(created)), ("keyid", '"%s"' % keyid), ("alg", '"ed25519"')]
        if expires is not None:
            params.append(("expires", str(expires)))
    sp = inner_list(components, params)
    base = signature_base([(c, values[c]) for c in components], sp)
    sig = key.sign(base.encode("ascii"))
    headers = [
        ["content-type", content_type],
        ["content-digest", digest],
        ["signature-input", "%s=%s" % (label, sp)],
        ["signature", "%s=:%s:" % (label, b64(sig))],
    ]
    return headers, base, sig


def stored(status, headers, body: bytes) -> dict:
    return {"status": status, "headers": [list(h) for h in headers], "body_base64": b64(body)}


def offsets(body: bytes, quote: str):
    q = quote.encode("utf-8")
    assert body.count(q) == 1, quote
    s = body.index(q)
    return s, s + len(q)


# Ed25519 group order (RFC 8032 section 5.1).
L_ORDER = 2 ** 252 + 27742317777372353535851937790883648493


def non_canonical_s(sig: bytes) -> bytes:
    """The same signature with S replaced by S + L (still < 2^256 for these vectors): verifies
    with a non-strict equation but has a non-canonical S (RFC 8032 section 5.1.7)."""
    r, s = sig[:32], int.from_bytes(sig[32:], "little")
    s2 = s + L_ORDER
    assert s2 < 2 ** 256
    return r + s2.to_bytes(32, "little")


def dumps(v) -> str:
    """Pretty JSON text for `document` inputs (not canonical on purpose)."""
    return json.dumps(v, ensure_ascii=False, indent=1)
