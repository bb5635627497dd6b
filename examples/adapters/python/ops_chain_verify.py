"""`chain-verify`: citation-chain envelopes and responses, Levels 1-2 (docs/PROFILE.md
CHAIN-001 to CHAIN-020), written from the profile with the standard library only.

HMAC-SHA256 is `hmac`; Ed25519 is the RFC 8032 §6 reference algorithm in pure Python with the
profile's strict rules (SIG-002: S below L, canonical point encodings, no small-order A or R).
The `seed-python` signing input is the seed's own `json.dumps` (ops_chain.py). Level 2 fetches
are answered from the case's stored `resources`.
"""

import base64
import calendar
import hashlib
import hmac
import json
import re
import unicodedata
import urllib.parse

import ops_chain
import strict_json

# ---------------------------------------------------------------------------------------------
# Ed25519 (RFC 8032 §5.1, §6), strict.

P = 2 ** 255 - 19
L = 2 ** 252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
IDENTITY = (0, 1, 1, 0)


def _add(a, b):
    x = (a[1] - a[0]) * (b[1] - b[0]) % P
    y = (a[1] + a[0]) * (b[1] + b[0]) % P
    c = 2 * a[3] * b[3] * D % P
    d = 2 * a[2] * b[2] % P
    e, f, g, h = y - x, d - c, d + c, y + x
    return (e * f, g * h, f * g, e * h)


def _mul(s, point):
    q = IDENTITY
    while s > 0:
        if s & 1:
            q = _add(q, point)
        point = _add(point, point)
        s >>= 1
    return q


def _equal(a, b):
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def _recover_x(y, sign):
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P)
    if x2 % P == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        return None
    if (x & 1) != sign:
        x = P - x
    return x


def _decode_point(data):
    """A canonical point of large order, or None."""
    if len(data) != 32:
        return None
    y = int.from_bytes(data, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    if x is None:
        return None
    point = (x, y, 1, x * y % P)
    if _equal(_mul(8, point), IDENTITY):
        return None
    return point


G = (lambda y: (_recover_x(y, 0), y, 1, _recover_x(y, 0) * y % P))(4 * pow(5, P - 2, P) % P)


def ed25519_verify(public, message, signature):
    if len(signature) != 64:
        return False
    a = _decode_point(public)
    r = _decode_point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    return _equal(_mul(s, G), _add(r, _mul(h, a)))


def load_keys(jwks):
    """(keys [(kid, public bytes)], error code or None) of a JWK Set of Ed25519 public keys."""
    if not isinstance(jwks, dict) or not isinstance(jwks.get("keys"), list) or not jwks["keys"]:
        return [], "jwk-malformed" if not (isinstance(jwks, dict) and jwks.get("keys") == []) else "jwk-set-empty"
    keys, kids = [], set()
    for jwk in jwks["keys"]:
        if not isinstance(jwk, dict) or jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
            return [], "jwk-malformed"
        if "d" in jwk:
            return [], "jwk-private-key-published"
        x = jwk.get("x")
        try:
            raw = base64.urlsafe_b64decode(x + "=" * (-len(x) % 4)) if isinstance(x, str) else None
        except ValueError:
            raw = None
        if raw is None or len(raw) != 32:
            return [], "jwk-malformed"
        y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
        x_coord = _recover_x(y, raw[31] >> 7)
        if x_coord is None:
            return [], "jwk-invalid-point"
        if _decode_point(raw) is None:
            return [], "jwk-weak-key"
        kid = jwk.get("kid")
        if kid is not None and kid in kids:
            return [], "jwk-duplicate-kid"
        kids.add(kid)
        keys.append((kid, raw))
    return keys, None


# ---------------------------------------------------------------------------------------------
# Document rules.

ENVELOPE = {"apiVersion", "methodology", "canonical", "claim", "signature", "citedAs"}
CLAIM = {"id", "vertical", "subject", "predicate", "object", "statement", "confidence", "sources",
         "tags", "publishedAt", "lastVerified", "methodologyVersion"}
SOURCE = {"url", "title", "publisher", "publishedDate", "accessedDate", "type", "excerpt"}
SIGNATURE = {"algorithm", "signedBy", "signedAt", "signature"}
CLAIM_ID = re.compile(r"[0-9a-f]{16}")
TIMESTAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})")
DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
WEB_URL = re.compile(r"(?i:https?)://([A-Za-z0-9\-._~!$&'()*+,;=%:\[\]@]+)([/?#][\x21-\x7e]*)?")


def _instant(text):
    """Unix seconds of a profile timestamp or date (start of the day), or None."""
    if not isinstance(text, str):
        return None
    m = TIMESTAMP.fullmatch(text) or DATE.fullmatch(text)
    if not m:
        return None
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    hour = minute = second = 0
    if m.re is TIMESTAMP:
        hour, minute, second = int(m.group(4)), int(m.group(5)), int(m.group(6))
    if year == 0 or not 1 <= month <= 12 or hour > 23 or minute > 59 or second > 59:
        return None
    days = [31, 29 if year % 4 == 0 and (year % 100 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not 1 <= day <= days[month - 1]:
        return None
    t = calendar.timegm((year, month, day, hour, minute, second))
    if m.re is TIMESTAMP and m.group(8) != "Z":
        sign = 1 if m.group(8)[0] == "+" else -1
        t -= sign * (int(m.group(8)[1:3]) * 3600 + int(m.group(8)[4:6]) * 60)
    return t


def _reduced_date(v):
    """CHAIN-017: YYYY or YYYY-MM (year 0001-9999, month 01-12)."""
    m = re.fullmatch(r"(\d{4})(-(\d{2}))?", v) if isinstance(v, str) else None
    return bool(m) and m.group(1) != "0000" and (m.group(3) is None or 1 <= int(m.group(3)) <= 12)


def _web_url(v):
    """The profile's web URL, approximately: http(s), a host without userinfo, visible ASCII."""
    if not isinstance(v, str) or len(v) > 2048:
        return False
    m = WEB_URL.fullmatch(v)
    return bool(m) and "@" not in m.group(1) and not m.group(1).startswith(":")


def _did_web_authority(signer):
    if not signer.startswith("did:web:"):
        return None
    domain = signer[len("did:web:"):].split(":")[0].replace("%3A", ":").replace("%3a", ":")
    ok = domain and re.fullmatch(r"[A-Za-z0-9.\-:]+", domain)
    return domain.lower() if ok else ""


class Run:
    def __init__(self, required_level):
        self.required_level = required_level
        self.found = []  # (code, severity, level, base)

    def error(self, code, base="", level=1):
        self.found.append((code, "error", level, base))

    def warn(self, code, base=""):
        self.found.append((code, "warning", 1, base))


def check_envelope(env, base, run):
    """Structure rules; returns the usable parts."""
    info = {"id": None, "canonical": None, "alg": None, "signer": None, "signed_at": None,
            "sig": None, "conflict": False, "fresh": None, "sources": [], "bad": False,
            "unrecognized": [], "dates": []}
    if not isinstance(env, dict):
        run.error("schema-violation", base)
        return info
    claim = env.get("claim")
    for k in env:
        if k not in ENVELOPE and not k.startswith("x-"):
            run.error("unknown-member", base)
    for k in ("apiVersion", "methodology", "canonical", "claim", "signature"):
        if k not in env:
            run.error("schema-violation", base)
    if "apiVersion" in env:
        if not isinstance(env["apiVersion"], str):
            run.error("schema-violation", base)
        elif env["apiVersion"] != "v1":
            run.error("chain-version-unsupported", base)
    for k in ("methodology", "canonical"):
        if k in env:
            if not isinstance(env[k], str):
                run.error("schema-violation", base)
            elif not _web_url(env[k]):
                run.error("chain-url-invalid", base)
            elif k == "canonical":
                info["canonical"] = env[k]
    if "citedAs" in env and not isinstance(env["citedAs"], str):
        run.error("schema-violation", base)
    if isinstance(claim, dict):
        _check_claim(claim, base, run, info)
    elif claim is not None:
        run.error("schema-violation", base)
    sig = env.get("signature")
    if isinstance(sig, dict):
        _check_signature(sig, base, run, info)
    elif sig is not None:
        run.error("schema-violation", base)
    _check_canonical(info, base, run)
    return info


def _check_claim(c, base, run, info):
    for name in ("signedAt", "signedBy"):
        if name in c:
            info["conflict"] = True
            run.error("chain-payload-conflict", base)
    for k in c:
        if k not in CLAIM and k not in ("signedAt", "signedBy") and not k.startswith("x-"):
            info["unrecognized"].append(k)
    cid = c.get("id")
    if "id" not in c:
        run.error("schema-violation", base)
    elif isinstance(cid, str) and CLAIM_ID.fullmatch(cid):
        info["id"] = cid
    else:
        run.error("chain-id-invalid", base)
    fields = [c.get(k) for k in ("vertical", "subject", "predicate", "object")]
    if all(isinstance(f, str) and f for f in fields):
        _, computed = ops_chain.claim_id(c)
        if info["id"] is not None and info["id"] != computed:
            run.error("chain-id-mismatch", base)
    else:
        run.error("schema-violation", base)
    for k in ("statement", "methodologyVersion"):
        if k in c and not isinstance(c[k], str):
            run.error("schema-violation", base)
    conf = c.get("confidence")
    if "confidence" in c and (isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0 <= conf <= 1):
        run.error("schema-violation", base)
    if "tags" in c and not (isinstance(c["tags"], list) and all(isinstance(t, str) for t in c["tags"])):
        run.error("schema-violation", base)
    if "publishedAt" in c and _timestamp(c["publishedAt"], base, run, date_ok=False):
        info["dates"].append(_instant(c["publishedAt"]))
    if "lastVerified" in c and _timestamp(c["lastVerified"], base, run, date_ok=True):
        info["fresh"] = _instant(c["lastVerified"])
        info["dates"].append(_earliest(c["lastVerified"]))
    sources = c.get("sources")
    if not isinstance(sources, list) or not 1 <= len(sources) <= 256:
        run.error("schema-violation", base)
        return
    for s in sources:
        if not isinstance(s, dict):
            run.error("schema-violation", base)
            continue
        for k in s:
            if k not in SOURCE and not k.startswith("x-"):
                info["unrecognized"].append(k)
        if "url" not in s or not isinstance(s["url"], str):
            run.error("schema-violation", base)
        elif not _web_url(s["url"]):
            run.error("chain-url-invalid", base)
        else:
            info["sources"].append(s["url"])
        for k in ("title", "publisher", "type", "excerpt"):
            if k in s and not isinstance(s[k], str):
                run.error("schema-violation", base)
        if "publishedDate" in s:
            if _reduced_date(s["publishedDate"]):
                run.warn("chain-date-reduced-precision", base)
            else:
                _timestamp(s["publishedDate"], base, run, date_ok=True)
        if "accessedDate" in s and _timestamp(s["accessedDate"], base, run, date_ok=True):
            info["dates"].append(_earliest(s["accessedDate"]))


def _earliest(text):
    """CHAIN-016: the earliest instant a date (its start at UTC+14:00) or timestamp denotes."""
    t = _instant(text)
    return t - 14 * 3600 if DATE.fullmatch(text) else t


def _timestamp(v, base, run, date_ok):
    if not isinstance(v, str):
        run.error("schema-violation", base)
        return False
    if (TIMESTAMP.fullmatch(v) or (date_ok and DATE.fullmatch(v))) and _instant(v) is not None:
        return True
    run.error("schema-timestamp-invalid", base)
    return False


def _check_signature(s, base, run, info):
    for k in s:
        if k not in SIGNATURE:
            run.error("unknown-member", base)
    for k in SIGNATURE:
        if k not in s:
            run.error("schema-violation", base)
    alg = s.get("algorithm")
    if "algorithm" in s:
        if not isinstance(alg, str):
            run.error("schema-violation", base)
        elif alg in ("HMAC-SHA256", "Ed25519"):
            info["alg"] = alg
        else:
            run.error("chain-algorithm-unsupported", base)
    by = s.get("signedBy")
    if "signedBy" in s:
        if isinstance(by, str) and 1 <= len(by) <= 512:
            info["signer"] = by
        else:
            run.error("schema-violation", base)
    if "signedAt" in s and _timestamp(s["signedAt"], base, run, date_ok=False):
        info["signed_at"] = _instant(s["signedAt"])
        info["dates"].append(info["signed_at"])
    value = s.get("signature")
    if "signature" in s:
        want = {"HMAC-SHA256": 64, "Ed25519": 128}.get(info["alg"])
        ok = isinstance(value, str) and re.fullmatch(r"[0-9a-f]*", value) and \
            (len(value) == want if want else len(value) in (64, 128))
        if not ok:
            run.error("chain-signature-malformed", base)
        elif info["alg"]:
            info["sig"] = bytes.fromhex(value)


def _check_canonical(info, base, run):
    url = info["canonical"]
    if url is None:
        return
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() != "https":
        run.error("chain-canonical-invalid", base)
    if info["id"] is not None and info["id"] not in parts.path.split("/"):
        run.error("chain-canonical-invalid", base)
    signer = info["signer"]
    authority = _did_web_authority(signer) if signer else None
    if authority is not None:
        host = (parts.hostname or "").lower()
        default = {"https": 443, "http": 80}.get(parts.scheme.lower())
        actual = host if parts.port in (None, default) else "%s:%d" % (host, parts.port)
        if authority != actual:
            run.error("chain-canonical-origin-mismatch", base)


# ---------------------------------------------------------------------------------------------
# Signatures, warnings, fetches.

def signing_inputs(env):
    claim, sig = env["claim"], env["signature"]
    out = [("seed-python", json.dumps({**claim, "signedAt": sig["signedAt"], "signedBy": sig["signedBy"]},
                                      sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())]
    if isinstance(claim.get("sources"), list) and all(isinstance(s, dict) for s in claim["sources"]):
        payload = {k: claim[k] for k in ops_chain.PAYLOAD_KEYS if k in claim}
        if "sources" in payload:
            payload["sources"] = [{} for _ in claim["sources"]]
        out.append(("deployed-js", ops_chain._stringify(payload, sorted(ops_chain.PAYLOAD_KEYS)).encode()))
    return out


def check_signature(env, info, trust, base, run):
    if not (info["alg"] and info["signer"] and info["signed_at"] is not None and info["sig"]) or info["conflict"]:
        return None
    if not isinstance(env.get("claim"), dict):
        return None  # nothing to sign: the missing claim is reported by check_envelope
    secrets, keysets = trust
    inputs = signing_inputs(env)
    if info["alg"] == "HMAC-SHA256":
        candidates = secrets.get(info["signer"])
        if not candidates:
            run.error("chain-key-unresolved", base)
            return None
        for name, data in inputs:
            for secret in candidates:
                tag = hmac.new(secret.encode(), data, hashlib.sha256).digest()
                if hmac.compare_digest(tag, info["sig"]):
                    return name
    else:
        if info["signer"] not in keysets:
            run.error("chain-key-unresolved", base)
            return None
        keys, problem = keysets[info["signer"]]
        if problem:
            run.error(problem, base)
            return None
        for name, data in inputs:
            for _, public in keys:
                if ed25519_verify(public, data, info["sig"]):
                    return name
    run.error("chain-signature-invalid", base)
    return None


class Resources:
    def __init__(self, resources):
        self.resources = resources or {}

    def get(self, url, head=False):
        """(status, headers, body) or an error code."""
        url = url.split("#")[0]
        for _ in range(6):
            stored = self.resources.get(url)
            if stored is None:
                return "fetch-not-in-snapshot"
            status = stored["status"]
            headers = [(n.lower(), v) for n, v in stored["headers"]]
            if status in (301, 302, 303, 307, 308):
                location = [v for n, v in headers if n == "location"]
                if len(location) != 1:
                    return "fetch-redirect-invalid"
                url = urllib.parse.urljoin(url, location[0])
                continue
            coded = any(c.strip() and c.strip().lower() != "identity"
                        for n, v in headers if n == "content-encoding" for c in v.split(","))
            body = b"" if head else base64.b64decode(stored["body_base64"])
            return (status, coded, body)
        return "fetch-too-many-redirects"


def level2(info, fetcher, base, run):
    if info["canonical"] and info["id"]:
        r = fetcher.get(info["canonical"])
        if isinstance(r, str):
            run.error("chain-canonical-fetch-failed", base, 2)
            run.error(r, base, 2)
        elif r[0] != 200 or r[1]:
            run.error("chain-canonical-fetch-failed", base, 2)
            run.error("fetch-http-status" if r[0] != 200 else "fetch-content-encoding", base, 2)
        elif info["id"].encode() not in r[2]:
            run.error("chain-canonical-id-absent", base, 2)
    if not info["sources"]:
        return
    causes = []
    for url in info["sources"]:
        r = fetcher.get(url, head=True)
        if not isinstance(r, str) and r[0] in (405, 501):
            r = fetcher.get(url)
        if isinstance(r, str):
            causes.append(r)
        elif not 200 <= r[0] < 300:
            causes.append("fetch-http-status")
        elif r[1]:
            causes.append("fetch-content-encoding")
        else:
            return
    run.error("chain-sources-unreachable", base, 2)
    for c in causes:
        run.error(c, base, 2)


PAYLOAD = set(ops_chain.PAYLOAD_KEYS)


def _token(name):
    return name.replace("~", "~0").replace("/", "~1")


def deployed_unsigned(claim, base):
    """CHAIN-014: pointers of what the deployed-js bytes do not depend on, in code point order."""
    out = []

    def nested(value, at):
        if isinstance(value, dict):
            for k, v in value.items():
                if k in PAYLOAD:
                    nested(v, at + "/" + _token(k))
                else:
                    out.append(at + "/" + _token(k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                nested(v, "%s/%d" % (at, i))

    for k, v in claim.items():
        at = base + "/claim/" + _token(k)
        if k not in PAYLOAD:
            out.append(at)
        elif k == "sources":
            out += ["%s/%d/%s" % (at, i, _token(m)) for i, src in enumerate(v) for m in src]
        else:
            nested(v, at)
    return sorted(out + [base + "/signature/signedAt", base + "/signature/signedBy"])


TAMPERED = {"chain-id-mismatch", "chain-signature-invalid", "chain-map-key-mismatch"}


def verdict(found, base, used):
    mine = [(code, sev) for code, sev, _, b in found if b == base]
    if any(code in TAMPERED for code, _ in mine):
        return "tampered"
    if any(sev == "error" and code != "chain-signature-partial" for code, sev in mine):
        return "unverified"
    if used == "deployed-js":
        return "partially-signed"
    if any(code == "chain-stale" for code, _ in mine):
        return "stale"
    return "verified"


def verify_envelope(env, base, key, trust, fetcher, now, run, accept_partial):
    """(signing input that verified or None, verdict, unsigned members)."""
    info = check_envelope(env, base, run)
    if key is not None and info["id"] != key:
        run.error("chain-map-key-mismatch", base)
    used = check_signature(env, info, trust, base, run)
    unsigned = []
    if used == "deployed-js":
        unsigned = deployed_unsigned(env["claim"], base)
        if accept_partial:
            run.warn("chain-signature-partial-accepted", base)
        else:
            run.error("chain-signature-partial", base)
    for _ in info["unrecognized"]:
        if used == "seed-python":
            run.warn("chain-member-unrecognized", base)
        else:
            run.error("unknown-member", base)
    if isinstance(env, dict) and isinstance(env.get("claim"), dict):
        sources = env["claim"].get("sources")
        if isinstance(sources, list) and sources and not any(
                isinstance(s, dict) and isinstance(s.get("excerpt"), str) and s["excerpt"] for s in sources):
            run.warn("chain-excerpt-missing", base)
        cited = env.get("citedAs")
        if isinstance(cited, str) and info["id"] and info["canonical"] and not (
                info["id"] in cited and info["canonical"] in cited):
            run.warn("chain-cited-as-mismatch", base)
    if any(t > now + 300 for t in info["dates"]):
        run.error("chain-date-in-future", base)
    # Freshness only from dates the signature covers: seed-python signs both, deployed-js neither.
    if used == "seed-python":
        fresh = info["fresh"] if info["fresh"] is not None else info["signed_at"]
        if fresh is not None and now - fresh > 180 * 86400:
            run.warn("chain-stale", base)
    if run.required_level >= 2:
        level2(info, fetcher, base, run)
        did_web = bool(info["signer"] and _did_web_authority(info["signer"]))
        if used and info["canonical"] and info["id"] and not did_web:
            # The operation's keys are always configured per signer, so a did:web signer is
            # fixed by the configuration even under deployed-js (CHAIN-020).
            run.found.append(("chain-canonical-unbound", "warning", 2, base))
    return used, verdict(run.found, base, used), unsigned


BRACKET_OPEN = {"[", "\ufe47", "\uff3b"}


def _nfkc_is(ch, targets):
    return unicodedata.normalize("NFKC", ch) in targets


def _skeleton(item):
    """CHAIN-011: NFKC, Cc and Cf removed, Zs/Zl/Zp trimmed."""
    kept = "".join(c for c in unicodedata.normalize("NFKC", item) if unicodedata.category(c) not in ("Cc", "Cf"))
    ends = [i for i, c in enumerate(kept) if unicodedata.category(c) not in ("Zs", "Zl", "Zp")]
    return kept[ends[0]:ends[-1] + 1] if ends else ""


def looks_like_claim_id(item):
    hexpart = item.rstrip(".")
    dots = len(item) - len(hexpart)
    if dots == 1:
        return False
    ellipsis = dots >= 2
    if not hexpart or not re.fullmatch(r"[0-9A-Fa-f]+", hexpart):
        return False
    mixed = any(c.isdigit() for c in hexpart) and any(c.isalpha() for c in hexpart)
    return len(hexpart) >= 16 or (ellipsis and len(hexpart) >= 4) or (len(hexpart) >= 6 and mixed)


def bracket_items(answer):
    """(item as written, trimmed of spaces and tabs; is a claim reference) of every bracket."""
    items, i = [], 0
    while i < len(answer):
        if not _nfkc_is(answer[i], "["):
            i += 1
            continue
        j = i + 1
        while j < len(answer) and not _nfkc_is(answer[j], ("[", "]")):
            j += 1
        if j == len(answer) or _nfkc_is(answer[j], "["):
            i += 1
            continue
        item = ""
        for ch in answer[i + 1:j] + ",":
            if _nfkc_is(ch, (",", ";")):
                shape = _skeleton(item)
                if shape:
                    items.append((item.strip(" \t"), looks_like_claim_id(shape)))
                item = ""
            else:
                item += ch
        i = j + 1
    return items


MAX_ANSWER_FINDINGS = 1024


def check_answer(answer, envelopes, run):
    """CHAIN-011, CHAIN-018, CHAIN-019; [(text, verdict)] of the claim references."""
    refs = []
    texts = unresolved = 0
    for text, is_reference in bracket_items(answer):
        if not is_reference:
            texts += 1
            run.warn("chain-bracket-not-reference")
            continue
        if CLAIM_ID.fullmatch(text) and text in envelopes:
            refs.append((text, envelopes[text]))
        else:
            unresolved += 1
            run.error("chain-ref-unresolved")
            refs.append((text, "unverified"))
    if not refs:
        run.error("chain-answer-unreferenced")
    # CHAIN-011: a report lists at most 1024 findings of each kind and says when it left any out.
    if max(len(refs), unresolved, texts) > MAX_ANSWER_FINDINGS:
        run.warn("chain-answer-findings-elided")
    return refs[:MAX_ANSWER_FINDINGS]


def verify(input):
    """(errors, warnings, output, accepted) of the `chain-verify` operation."""
    required = input["required_level"]
    run = Run(required)
    try:
        doc = strict_json.parse(input["document"])
    except strict_json.JsonError as e:
        return [e.code], [], None, False
    secrets = input.get("secrets", {})
    keysets = {signer: load_keys(jwks) for signer, jwks in input.get("keys", {}).items()}
    fetcher = Resources(input.get("resources"))
    now = input["now"]
    accept_partial = input.get("accept_partial_signature", False)
    used, verdicts, unsigned, refs = {}, {}, {}, None

    def record(name, result):
        if name is None:
            return
        if result[0]:
            used[name] = result[0]
        verdicts[name] = result[1]
        if result[2]:
            unsigned[name] = result[2]

    if isinstance(doc, dict) and ("answer" in doc or "chains" in doc):
        for k in doc:
            if k not in ("answer", "chains") and not k.startswith("x-"):
                run.error("unknown-member")
        answer, chains = doc.get("answer"), doc.get("chains")
        if not isinstance(answer, str):
            run.error("schema-violation")
        if not isinstance(chains, dict) or len(chains) > 1024:
            run.error("schema-violation")
            chains = {}
        for key, env in chains.items():
            record(key, verify_envelope(env, "/chains/" + key, key, (secrets, keysets), fetcher, now, run,
                                        accept_partial))
        refs = check_answer(answer, verdicts, run) if isinstance(answer, str) else []
    else:
        result = verify_envelope(doc, "", None, (secrets, keysets), fetcher, now, run, accept_partial)
        claim = doc.get("claim") if isinstance(doc, dict) else None
        cid = claim.get("id") if isinstance(claim, dict) else None
        record(cid if isinstance(cid, str) and CLAIM_ID.fullmatch(cid) else None, result)
    errors = [c for c, sev, _, _ in run.found if sev == "error"]
    warnings = [c for c, sev, _, _ in run.found if sev == "warning"]
    level = 0 if any(sev == "error" and lv == 1 for _, sev, lv, _ in run.found) else (
        2 if required >= 2 and not any(sev == "error" and lv == 2 for _, sev, lv, _ in run.found) else 1)
    output = {"level": level, "signing_inputs": used, "verdicts": verdicts, "unsigned": unsigned}
    if refs is not None:
        output["references"] = [{"text": t, "verdict": v} for t, v in refs]
    return sorted(set(errors)), sorted(set(warnings)), output, level >= required
