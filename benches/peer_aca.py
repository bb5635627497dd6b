#!/usr/bin/env python3
"""A plain CPython verifier of an ACA web snapshot: the peer `cargo xtask bench` times the
citeproof CLI against (issue 23, item 4), whole process against whole process, on the same
snapshot file.

    python3 benches/peer_aca.py SNAPSHOT.json --now UNIX_SECONDS

Prints one JSON object (``level``, ``verified``, ``errors``) and exits 0 when the snapshot
reaches Level 3, 1 otherwise. It is written the way a competent Python developer would write
it from docs/PROFILE.md, with the standard library (``json``, ``hashlib``, ``base64``) and
``cryptography`` for Ed25519, and no citeproof code: it never imports or runs citeproof. The
support rule of ACA-L2-018 to -020 is the independent standard-library module the vector
generators use (``vectors/tools/aca_support.py``, written from the profile text).

The rules checked, in the verifier's order: the snapshot (strict JSON: a repeated member is an
error; canonical padded base64 bodies); the agent response (status 200) and its
``Citation-Source`` header (ACA-L1); every manifest once: status 200, JSON media type, strict
JSON, members, run, claims, claim ids, sources, offsets, times, header agreement (ACA-L2-001 to
-012, -022, -024); the chain (ACA-L3-001 to -006); the manifest response's RFC 9421 signature
with its Content-Digest, canonical body, time window and the discovery document's key
(ACA-L3-007 to -014); every distinct source once: status 200, SHA-256, excerpt offsets, UTF-8,
excerpt hash (ACA-L2-013 to -017); support (ACA-L2-018 to -020); the claims in the response
text (ACA-L2-021). What it leaves out (its verdict is checked against citeproof's on the bench
snapshots, not on the conformance suite): URL normalization beyond dropping a fragment,
HTML/markdown/JSON response text models (text/plain only), redirects, and numbers that are
not integers in the JCS check.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import datetime
import hashlib
import json
import os
import re
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors", "tools"))
import aca_support  # noqa: E402  (standard library only, independent of citeproof)

DISCOVERY_PATH = "/.well-known/agent-citation-attribution"
SKEW = 300
MAX_SIGNATURE_AGE = 7_776_000
RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z")
CLAIM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}\Z")
CONTENT_HASH = re.compile(r"sha256:[0-9a-f]{64}\Z")


class Invalid(Exception):
    """A snapshot that is not a snapshot: nothing else is checked."""


def strict_object(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError(f"repeated member {k!r}")
        obj[k] = v
    return obj


def strict_json(data: bytes):
    return json.loads(data.decode("utf-8"), object_pairs_hook=strict_object)


def b64_strict(text: str) -> bytes:
    raw = base64.b64decode(text, validate=True)
    if base64.b64encode(raw).decode("ascii") != text:
        raise ValueError("non-canonical base64")
    return raw


def jcs(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256_hash(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def aef_text_hash(data: bytes) -> str:
    text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    return sha256_hash(text.encode())


def timestamp(s) -> int:
    if not isinstance(s, str) or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", s):
        raise ValueError(f"not a timestamp: {s!r}")
    return int(datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp())


def strip_fragment(url: str) -> str:
    return url.split("#", 1)[0]


def origin(url: str) -> str:
    m = re.match(r"(https?://[^/?#]+)", url)
    return m.group(1).lower() if m else ""


class Snapshot:
    def __init__(self, data: bytes):
        try:
            doc = strict_json(data)
            if doc.get("snapshot_version") != 1:
                raise ValueError("snapshot_version")
            r = doc["response"]
            self.agent_url = strip_fragment(r["url"])
            self.responses = {self.agent_url: (r["status"], r["headers"], b64_strict(r["body_base64"]))}
            for url, s in doc.get("resources", {}).items():
                self.responses.setdefault(strip_fragment(url), (s["status"], s["headers"], b64_strict(s["body_base64"])))
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, binascii.Error) as e:
            raise Invalid(str(e)) from e

    def get(self, url: str):
        """(status, headers, body) of a 200 response, else None."""
        got = self.responses.get(strip_fragment(url))
        if got is None or got[0] != 200:
            return None
        codings = [c.strip(" \t").lower() for c in (header(got[1], "content-encoding") or "").split(",")]
        if any(c not in ("", "identity") for c in codings):
            return None
        return got


def header(headers, name):
    values = [v.strip(" \t") for n, v in headers if n.lower() == name]
    return ", ".join(values) if values else None


def split_outside_quotes(text: str, sep: str):
    parts, cur, quoted, angle = [], [], False, False
    for ch in text:
        if ch == '"' and not angle:
            quoted = not quoted
        elif ch == "<" and not quoted:
            angle = True
        elif ch == ">" and not quoted:
            angle = False
        if ch == sep and not quoted and not angle:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def citation_source(value: str):
    """ACA-L1-002: entries `<url>; manifest="..."; run="..."`."""
    entries = []
    for raw in split_outside_quotes(value, ","):
        fields = split_outside_quotes(raw.strip(" \t"), ";")
        m = re.fullmatch(r"<([^<>\s]+)>", fields[0].strip(" \t"))
        if not m:
            raise ValueError(f"bad entry {raw!r}")
        params = {}
        for f in fields[1:]:
            k, _, v = f.strip(" \t").partition("=")
            if k in params:
                raise ValueError(f"parameter {k} repeated")
            params[k] = v[1:-1] if v.startswith('"') and v.endswith('"') else v
        entries.append((m.group(1), params))
    return entries


def sf_dictionary(value: str):
    """The members of a structured-field Dictionary, as raw member texts (label -> text)."""
    out = {}
    for member in split_outside_quotes(value, ","):
        label, _, rest = member.strip(" \t").partition("=")
        if label in out:
            raise ValueError(f"label {label} repeated")
        out[label] = rest
    return out


def byte_sequence(text: str) -> bytes:
    if not (text.startswith(":") and text.endswith(":")):
        raise ValueError("not a byte sequence")
    return base64.b64decode(text[1:-1], validate=True)


class Verifier:
    def __init__(self, snapshot: Snapshot, now: int):
        self.s = snapshot
        self.now = now
        self.errors: list[tuple[int, str]] = []
        self.keys = None

    def error(self, level: int, code: str):
        self.errors.append((level, code))

    def discovery_keys(self):
        if self.keys is None:
            self.keys = {}
            got = self.s.get(origin(self.s.agent_url) + DISCOVERY_PATH)
            if got is None:
                return self.keys
            try:
                doc = strict_json(got[2])
                for jwk in doc["keys"]["keys"]:
                    if jwk.get("kty") == "OKP" and jwk.get("crv") == "Ed25519" and "d" not in jwk:
                        x = base64.urlsafe_b64decode(jwk["x"] + "=" * (-len(jwk["x"]) % 4))
                        self.keys.setdefault(jwk["kid"], []).append(Ed25519PublicKey.from_public_bytes(x))
            except (ValueError, KeyError, TypeError) as e:
                self.error(3, f"aca-discovery-invalid: {e}")
        return self.keys

    def verify(self) -> int:
        agent = self.s.get(self.s.agent_url)
        if agent is None:
            self.error(1, "aca-response-fetch-failed")
            return self.level()
        status, headers, body = agent
        value = header(headers, "citation-source")
        if value is None:
            self.error(1, "aca-header-missing")
            return self.level()
        try:
            entries = citation_source(value)
        except ValueError:
            self.error(1, "aca-header-invalid")
            return self.level()
        header_sources = {u for u, _ in entries}
        manifests = {}
        for url, params in entries:
            m = params.get("manifest")
            if m is None:
                self.error(2, "aca-manifest-missing")
                continue
            manifests.setdefault(m, set()).add(params.get("run"))
        text = body.decode("utf-8", errors="strict").replace("\r\n", "\n").replace("\r", "\n")
        response_n = aca_support.N(text)
        checked = [self.check_manifest(m, runs, header_sources, response_n) for m, runs in manifests.items()]
        self.check_sources([c for c in checked if c is not None])
        return self.level()

    def check_manifest(self, url, runs, header_sources, response_n):
        got = self.s.get(url)
        if got is None:
            self.error(2, "aca-manifest-fetch-failed")
            return None
        _, headers, body = got
        ctype = (header(headers, "content-type") or "").split(";")[0].strip().lower()
        if not (ctype == "application/json" or ctype.endswith("+json")):
            self.error(2, "aca-manifest-media-type")
        try:
            manifest = strict_json(body)
        except ValueError:
            self.error(2, "aca-manifest-invalid-json")
            return None
        if not isinstance(manifest, dict):
            self.error(2, "aca-manifest-invalid")
            return None
        run_id = manifest.get("run_id")
        if not isinstance(run_id, str) or not RUN_ID.match(run_id):
            self.error(2, "aca-manifest-invalid")
        if runs != {run_id}:
            self.error(2, "aca-manifest-reused")
        if not isinstance(manifest.get("agent_id"), str) or not manifest["agent_id"]:
            self.error(2, "aca-manifest-invalid")
        if "response_url" in manifest and strip_fragment(manifest["response_url"]) != self.s.agent_url:
            self.error(2, "aca-response-mismatch")
        try:
            emitted = timestamp(manifest.get("emitted_at"))
        except ValueError:
            self.error(2, "aca-manifest-invalid")
            emitted = None
        # ACA-L2-011 is a SHOULD: a warning, no error.
        claims = manifest.get("claims")
        if not isinstance(claims, list) or not claims:
            self.error(2, "aca-manifest-invalid")
            return None
        ids = set()
        cited = []
        for claim in claims:
            cid, text, sources = claim.get("claim_id"), claim.get("text"), claim.get("sources")
            if not isinstance(cid, str) or not CLAIM_ID.match(cid):
                self.error(2, "aca-claim-id-invalid")
            elif cid in ids:
                self.error(2, "aca-claim-id-duplicate")
            ids.add(cid)
            if claim.get("confidence", "high") not in ("high", "medium", "low"):
                self.error(2, "aca-claim-invalid")
            if not isinstance(text, str) or not text or not isinstance(sources, list) or not sources:
                self.error(2, "aca-claim-invalid")
                continue
            if aca_support.N(text) not in response_n:
                self.error(2, "aca-claim-not-in-response")
            for src in sources:
                u = src.get("url")
                if u not in header_sources:
                    self.error(2, "aca-source-not-in-header")
                off = src.get("excerpt_offset")
                if not (isinstance(off, list) and len(off) == 2 and all(type(o) is int for o in off) and 0 <= off[0] < off[1]):
                    self.error(2, "aca-offset-invalid")
                for h in ("hash", "excerpt_hash"):
                    if h in src and not (isinstance(src[h], str) and CONTENT_HASH.match(src[h])):
                        self.error(2, "aca-hash-invalid")
                try:
                    if emitted is not None and timestamp(src.get("retrieved_at")) > emitted:
                        self.error(2, "aca-retrieved-after-emission")
                except ValueError:
                    self.error(2, "aca-source-invalid")
            cited.append(claim)
        self.check_chain(manifest.get("chain"), cited)
        self.check_signature(headers, body, manifest, emitted)
        return cited

    def check_chain(self, chain, claims):
        if not isinstance(chain, list) or not chain:
            self.error(3, "aca-chain-missing")
            return
        outputs = {}
        chain_sources = set()
        for i, step in enumerate(chain, start=1):
            if not isinstance(step, dict) or step.get("step") != i:
                self.error(3, "aca-chain-step-order")
                continue
            tool, out = step.get("tool"), step.get("outputs_ref")
            if not (isinstance(tool, str) and 0 < len(tool) <= 256):
                self.error(3, "aca-chain-step-invalid")
            if not (isinstance(out, str) and 0 < len(out) <= 2048) or out in outputs:
                self.error(3, "aca-chain-step-invalid")
            if not any(k in step for k in ("inputs", "inputs_hash", "inputs_ref")):
                self.error(3, "aca-chain-inputs-missing")
            if "inputs" in step:
                if not isinstance(step["inputs"], dict):
                    self.error(3, "aca-chain-inputs-invalid")
                elif "inputs_hash" in step and step["inputs_hash"] != sha256_hash(jcs(step["inputs"])):
                    self.error(3, "aca-chain-inputs-hash-mismatch")
            refs = step.get("inputs_ref")
            if refs is not None:
                refs = [refs] if isinstance(refs, str) else refs
                if not isinstance(refs, list) or not refs or len(set(refs)) != len(refs):
                    self.error(3, "aca-chain-ref-invalid")
                else:
                    for r in refs:
                        if outputs.get(r) is None:
                            self.error(3, "aca-chain-ref-unknown")
            chain_sources.update(step.get("sources", []))
            outputs[out] = i
        for claim in claims:
            for src in claim["sources"]:
                if src.get("url") not in chain_sources:
                    self.error(3, "aca-chain-source-missing")

    def check_signature(self, headers, body, manifest, emitted):
        if jcs(manifest) != body:
            self.error(3, "aca-manifest-not-canonical")
        digest = header(headers, "content-digest")
        try:
            if digest is None or byte_sequence(sf_dictionary(digest)["sha-256"]) != hashlib.sha256(body).digest():
                self.error(3, "httpsig-digest-mismatch")
        except (ValueError, KeyError, binascii.Error):
            self.error(3, "httpsig-digest-mismatch")
        si, sig = header(headers, "signature-input"), header(headers, "signature")
        if si is None or sig is None:
            self.error(3, "aca-manifest-unsigned")
            return
        try:
            inputs, signatures = sf_dictionary(si), sf_dictionary(sig)
        except ValueError:
            self.error(3, "httpsig-malformed")
            return
        for label, params_text in inputs.items():
            if self.label_verifies(label, params_text, signatures, headers, emitted):
                return
        self.error(3, "httpsig-invalid")

    def label_verifies(self, label, params_text, signatures, headers, emitted) -> bool:
        m = re.fullmatch(r"\(([^()]*)\)((?:;[a-z*][a-z0-9_.*-]*=(?:\"[^\"]*\"|-?\d+))*)", params_text)
        if not m or label not in signatures:
            return False
        components = re.findall(r'"([^"]*)"', m.group(1))
        params = dict(re.findall(r';([a-z*][a-z0-9_.*-]*)=("[^"]*"|-?\d+)', m.group(2)))
        if not {"@status", "content-type", "content-digest"} <= set(components):
            return False
        created, keyid = params.get("created"), params.get("keyid")
        if created is None or keyid is None or not keyid.startswith('"'):
            return False
        created = int(created)
        if params.get("alg", '"ed25519"') != '"ed25519"':
            return False
        if created > self.now + SKEW or created < self.now - MAX_SIGNATURE_AGE:
            return False
        if emitted is not None and created < emitted - SKEW:
            return False
        if "expires" in params:
            expires = int(params["expires"])
            if expires <= created or self.now > expires + SKEW:
                return False
        lines = []
        for c in components:
            if c == "@status":
                lines.append('"@status": 200')
            else:
                v = header(headers, c)
                if v is None:
                    return False
                lines.append(f'"{c}": {v}')
        lines.append(f'"@signature-params": {params_text}')
        base = "\n".join(lines).encode()
        try:
            signature = byte_sequence(signatures[label])
        except (ValueError, binascii.Error):
            return False
        for key in self.discovery_keys().get(keyid[1:-1], []):
            try:
                key.verify(signature, base)
                return True
            except InvalidSignature:
                pass
        return False

    def check_sources(self, manifests):
        bodies = {}
        for claims in manifests:
            for claim in claims:
                excerpts = []
                for src in claim["sources"]:
                    u = src["url"]
                    if u not in bodies:
                        got = self.s.get(u)
                        if got is None:
                            self.error(2, "aca-source-fetch-failed")
                        bodies[u] = None if got is None else (got[2], sha256_hash(got[2]))
                    if bodies[u] is None:
                        continue
                    body, actual = bodies[u]
                    if src.get("hash") != actual:
                        self.error(2, "aca-source-hash-mismatch")
                        continue
                    a, b = src["excerpt_offset"]
                    if b > len(body):
                        self.error(2, "aca-offset-out-of-range")
                        continue
                    try:
                        text = body[a:b].decode("utf-8")
                    except UnicodeDecodeError:
                        self.error(2, "aca-excerpt-not-utf8")
                        continue
                    if "excerpt_hash" in src and aef_text_hash(body[a:b]) != src["excerpt_hash"]:
                        self.error(2, "aca-excerpt-hash-mismatch")
                    excerpts.append(text)
                if len(excerpts) == len(claim["sources"]):
                    errors, _warnings = aca_support.check(claim["text"], excerpts)
                    for code in errors:
                        self.error(2, code)

    def level(self) -> int:
        for n in (1, 2, 3):
            if any(level <= n for level, _ in self.errors):
                return n - 1
        return 3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("snapshot")
    ap.add_argument("--now", type=int, required=True)
    args = ap.parse_args()
    with open(args.snapshot, "rb") as f:
        data = f.read()
    try:
        snapshot = Snapshot(data)
    except Invalid as e:
        print(json.dumps({"level": 0, "verified": False, "errors": [f"fetch-snapshot-invalid: {e}"]}))
        return 1
    v = Verifier(snapshot, args.now)
    level = v.verify()
    print(json.dumps({"level": level, "verified": level == 3,
                      "errors": sorted({code for _, code in v.errors})}))
    return 0 if level == 3 else 1


if __name__ == "__main__":
    sys.exit(main())
