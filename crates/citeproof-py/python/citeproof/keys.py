"""Ed25519 keys: load a private key from PKCS#8 PEM or a JWK, or make one."""

from __future__ import annotations

import json
from typing import Any, Mapping

from . import _native

__all__ = ["SigningKey", "load_key"]

#: An Ed25519 private key. ``SigningKey.generate()``, ``SigningKey.load(pem_or_jwk_bytes)``,
#: ``SigningKey.from_secret_bytes(32 bytes)``; ``.public_jwk_json(kid)``, ``.private_pem()``,
#: ``.thumbprint()``. Its ``repr`` never shows the secret.
SigningKey = _native.SigningKey


def load_key(key: "SigningKey | bytes | str | Mapping[str, Any]") -> "SigningKey":
    """A :data:`SigningKey` from a key, PEM text or bytes, or a private JWK as a dict.

    Raises :class:`~citeproof.errors.KeyFormatError` with a ``jwk-*`` code when the key is
    unusable."""
    if isinstance(key, _native.SigningKey):
        return key
    if isinstance(key, str):
        return _native.SigningKey.load(key.encode("utf-8"))
    if isinstance(key, (bytes, bytearray, memoryview)):
        return _native.SigningKey.load(bytes(key))
    return _native.SigningKey.load(json.dumps(dict(key)).encode("utf-8"))


def public_jwk(key: "SigningKey", kid: str | None = None) -> dict[str, Any]:
    """The public JWK (RFC 8037) of ``key``, with ``kid`` when given."""
    return json.loads(key.public_jwk_json(kid))


def jwk_set(keys: Mapping[str, "SigningKey"]) -> dict[str, Any]:
    """A JWK Set publishing the public halves of ``{kid: key}``."""
    return {"keys": [public_jwk(k, kid) for kid, k in keys.items()]}
