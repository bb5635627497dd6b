"""`jcs-canonicalize`, `hash-bytes`, `hash-aef-text` (docs/PROFILE.md CANON-001, CANON-003)."""

import base64
import hashlib

import strict_json


def sha256(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def jcs(input):
    data = base64.b64decode(input["json_base64"], validate=True) if "json_base64" in input else input["json"]
    value = strict_json.parse(data)
    return strict_json.canonicalize(value)


def aef_text(data):
    """AEF §5 steps 1-3; raises UnicodeDecodeError for bytes that are not UTF-8."""
    text = data.decode("utf-8")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    return text.encode("utf-8")
