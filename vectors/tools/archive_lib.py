"""An independent implementation of the ARCHIVE profile (docs/PROFILE.md, "Archive citations,
coverage gate and display") for the vector generator: a checker that returns the incident codes
a verifier must report, and a gate that builds bundles and display views.

Written from the profile text with the Python standard library (hashlib, hmac, unicodedata)
plus pyca/cryptography for Ed25519. citeproof is never imported or run. The generator states
every failing case's expected codes by hand and asserts that this checker agrees, so a vector
is only written when two derivations (the hand one and this code) give the same answer.
"""

import calendar
import copy
import hashlib
import hmac
import json
import re
import unicodedata

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from cryptography.exceptions import InvalidSignature
import base64

from common_json import jcs

GENESIS = "sha256:" + "0" * 64
SKEW = 300
RELATIONS = ["direct_quote", "paraphrase", "inference_from", "metadata_fact"]
LABELS = {"direct_quote": "their words", "paraphrase": "paraphrased",
          "inference_from": "interpreted from", "metadata_fact": "metadata"}
DEFAULT_LABEL = "Interpretation: inferred from the archive, not stated in it."
GENERAL_LABEL = "General context, not from the archive."
GENERAL_MAX = 280  # scalar values of a general-context claim ("brief", ARCHIVE-035)
DOWNGRADES = ["private-mental-state"]
TOPIC_NO = "A part of the question the archive does not cover"
TOPIC_THIN = "A part of the question the archive covers too thinly to answer"
CATEGORIES = ["post-death-events", "general-world-knowledge", "adversarial"]
LIMIT_ORDER = ["daily-budget", "request-cap", "rate"]
TS_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):([0-5]\d)(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$")
HASH_RE = re.compile(r"^sha256:[0-9a-f]{64}$")
TIER_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
CLAIM_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")
HANDLE_RE = re.compile(r"^Source [A-Z]{1,3}$")


# --- canonical forms ------------------------------------------------------------------------

# jcs_text(), jcs(): RFC 8785, from common_json (shared by the generators).


def h(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def jcs_hash(v) -> str:
    return h(jcs(v))


def ts(text):
    """Unix seconds of a profile timestamp (JSON-005), or None."""
    if not isinstance(text, str):
        return None
    m = TS_RE.match(text)
    if not m:
        return None
    y, mo, d, hh, mi, ss = (int(m.group(i)) for i in range(1, 7))
    if y == 0 or not (1 <= mo <= 12) or not (1 <= d <= calendar.monthrange(y, mo)[1]) or hh > 23 or mi > 59:
        return None
    off = 0 if m.group(8) == "Z" else (1 if m.group(8)[0] == "+" else -1) * (
        int(m.group(8)[1:3]) * 3600 + int(m.group(8)[4:6]) * 60)
    return calendar.timegm((y, mo, d, hh, mi, ss, 0, 0, 0)) - off


# --- text (profile: N(s), tokens, the support rule) ------------------------------------------
#
# N(s), tokens and the support rule (ACA-L2-018 to -020) are the ACA generator's independent
# implementation, imported rather than copied: the profile has one definition of them, so the
# archive vectors follow it wherever it changes.

import aca_support as S  # noqa: E402

WHITE_SPACE = {chr(c) for c in S.WHITE_SPACE}
REVEAL = 4  # tokens that make a run of text "text of" an artifact (ARCHIVE-021, ARCHIVE-033)


def normalize(s):
    return S.N(s)


VARIATION_SELECTORS = [(0xFE00, 0xFE0F), (0xE0100, 0xE01EF)]


def visible(s):
    """V(s): s without format characters (General_Category Cf: zero-width spaces and joiners,
    soft hyphens, bidi controls, ...) and variation selectors, which change the tokens without
    changing what a reader sees."""
    return "".join(ch for ch in s if unicodedata.category(ch) != "Cf"
                   and not any(a <= ord(ch) <= b for a, b in VARIATION_SELECTORS))


def token_spans(n):
    """(start, end) scalar offsets of the tokens of an already normalized string."""
    out, start = [], None
    for i, ch in enumerate(n):
        if S.is_word_char(ch):
            if start is None:
                start = i
        elif start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, len(n)))
    return out


def tokens(s):
    n = normalize(s)
    return [n[a:b] for a, b in token_spans(n)]


def windows(s):
    """Every 4 consecutive tokens of N(V(s)): (tokens, start, end), offsets in scalar values of
    N(V(s))."""
    n = normalize(visible(s))
    sp = token_spans(n)
    toks = [n[a:b] for a, b in sp]
    return [(tuple(toks[i:i + REVEAL]), sp[i][0], sp[i + REVEAL - 1][1])
            for i in range(len(toks) - REVEAL + 1)]


def window_set(texts):
    out = set()
    for t in texts:
        out |= {w for w, _, _ in windows(t)}
    return out


def repeated_runs(s, present):
    """Maximal runs of consecutive windows of N(s) that are in `present`: (start, end) in N(s)."""
    out, cur = [], None
    for w, a, b in windows(s):
        if w in present:
            cur = [a, b] if cur is None else [cur[0], b]
        elif cur is not None:
            out.append(tuple(cur))
            cur = None
    if cur is not None:
        out.append(tuple(cur))
    return out


def runs4(text):
    return {" ".join(w) for w, _, _ in windows(text)}


def relation_problem(relation, claim_text, span_text):
    """ARCHIVE-032 for one citation with a text span: None, or why its relation fails."""
    if relation == "direct_quote":
        return None  # ARCHIVE-006
    c, e = S.Text(claim_text), S.Text(span_text)
    if e.length() > S.cap(c.length()):
        return "the span is longer than a passage"
    if relation in ("paraphrase", "metadata_fact"):
        return S.supported_by(c, e)
    if relation == "inference_from":
        return None if any(st in e.stems for st in c.content) else "irrelevant"
    return None


def frame_negated(claim_text, quotes):
    """ARCHIVE-032 for direct quotes: the frame (the NFC claim without its quoted span texts)
    holds an odd number of negation markers of the support rule."""
    frame = unicodedata.normalize("NFC", claim_text)
    for q in quotes:
        frame = frame.replace(q, " ", 1)
    return S.Text(frame).neg % 2 == 1


def trim(span_text, cap):
    """The reference gate's display trim (a producer choice, not a requirement)."""
    if len(span_text) <= cap:
        return span_text
    k = None
    for i in range(cap, 0, -1):
        if i < len(span_text) and span_text[i] in WHITE_SPACE:
            k = i
            break
    if k is None:
        return span_text[:cap]
    while k > 0 and span_text[k - 1] in WHITE_SPACE:
        k -= 1
    return span_text[:k] if k > 0 else span_text[:cap]


def handle(n):
    letters = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return "Source " + letters


# --- keys -----------------------------------------------------------------------------------

def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


class EdKey:
    def __init__(self, label):
        self.seed = hashlib.sha256(("citeproof archive vectors: " + label).encode()).digest()
        self.private = Ed25519PrivateKey.from_private_bytes(self.seed)
        self.public = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def jwk(self, kid):
        return {"kty": "OKP", "crv": "Ed25519", "x": b64url(self.public), "kid": kid}

    def private_jwk(self, kid):
        j = self.jwk(kid)
        j["d"] = b64url(self.seed)
        return j


def sign_bundle(bundle, algorithm, signed_by, kid, signed_at, key):
    """Signs a bundle dict (ARCHIVE-011): key is a secret string (HMAC) or an EdKey."""
    b = copy.deepcopy(bundle)
    meta = {"algorithm": algorithm, "signedBy": signed_by, "kid": kid, "signedAt": signed_at}
    b["signature"] = meta
    payload = jcs(b)
    if algorithm == "HMAC-SHA256":
        sig = hmac.new(key.encode("utf-8"), payload, hashlib.sha256).hexdigest()
    else:
        sig = key.private.sign(payload).hex()
    b["signature"] = dict(meta, signature=sig)
    return b


# --- the archive ----------------------------------------------------------------------------

class Archive:
    def __init__(self, doc):
        self.doc = doc
        self.snaps = doc["snapshots"]
        self.payloads = doc["artifacts"]
        self.index = {s["archive_version"]: i for i, s in enumerate(self.snaps)}
        self.consent = [{a["artifact_id"]: a.get("consent", "open") for a in s["artifacts"]}
                        for s in self.snaps]

    def problems(self):
        codes = set()
        for aid, p in self.payloads.items():
            if jcs_hash(p) != aid:
                codes.add("archive-artifact-id-mismatch")
            if p.get("kind") == "text":
                for para in p["paragraphs"]:
                    if para == "" or unicodedata.normalize("NFC", para) != para:
                        codes.add("archive-artifact-not-canonical")
        seen, last = set(), None
        for s in self.snaps:
            if s["archive_version"] in seen:
                codes.add("archive-snapshot-invalid")
            seen.add(s["archive_version"])
            t = ts(s["published_at"])
            if last is not None and t <= last:
                codes.add("archive-snapshot-invalid")
            last = t
            ids = [a["artifact_id"] for a in s["artifacts"]]
            if len(ids) != len(set(ids)) or any(i not in self.payloads for i in ids):
                codes.add("archive-snapshot-invalid")
            tiers = [t["tier"] for t in s["policy"]["tiers"]]
            if len(tiers) != len(set(tiers)):
                codes.add("archive-snapshot-invalid")
        return codes

    def in_force(self, t):
        best = None
        for i, s in enumerate(self.snaps):
            if ts(s["published_at"]) <= t:
                best = i
        return best

    def consent_in(self, i, aid):
        return self.consent[i].get(aid, "hidden")

    def tier_cap(self, i, tier):
        for t in self.snaps[i]["policy"]["tiers"]:
            if t["tier"] == tier:
                return t["excerpt_cap"]
        return None

    def text_windows(self, i):
        """4-token windows of the paragraphs of every text artifact, by consent in force under
        snapshot i (an artifact the snapshot does not list is hidden): {consent: set}."""
        out = {"open": set(), "auditor-only": set(), "hidden": set()}
        for aid, p in self.payloads.items():
            if p.get("kind") == "text":
                out[self.consent_in(i, aid)] |= window_set(p["paragraphs"])
        return out

    def hidden_paragraphs(self, i, extra=()):
        ids = {a for a, c in self.consent[i].items() if c == "hidden"} | set(extra)
        out = []
        for aid in sorted(ids):
            p = self.payloads.get(aid)
            if p and p["kind"] == "text":
                out.extend(p["paragraphs"])
        return out


def resolve(span, payload):
    """(span_text | 'media', None) or (None, code)."""
    kind = span["kind"]
    pk = payload["kind"]
    if kind == "text":
        if pk != "text":
            return None, "archive-span-kind-mismatch"
        if span["char_start"] >= span["char_end"]:
            return None, "archive-span-invalid"
        paras = payload["paragraphs"]
        if span["paragraph_index"] >= len(paras) or span["char_end"] > len(paras[span["paragraph_index"]]):
            return None, "archive-span-out-of-range"
        return paras[span["paragraph_index"]][span["char_start"]:span["char_end"]], None
    if kind == "time_range":
        if pk not in ("audio", "video"):
            return None, "archive-span-kind-mismatch"
        if span["start_ms"] >= span["end_ms"]:
            return None, "archive-span-invalid"
        if span["end_ms"] > payload["duration_ms"]:
            return None, "archive-span-out-of-range"
        return "media", None
    if kind == "region":
        if pk != "image":
            return None, "archive-span-kind-mismatch"
        if span["width"] < 1 or span["height"] < 1:
            return None, "archive-span-invalid"
        if span["x"] + span["width"] > payload["width"] or span["y"] + span["height"] > payload["height"]:
            return None, "archive-span-out-of-range"
        return "media", None
    raise AssertionError(kind)


class Fact:
    def __init__(self):
        self.valid = False
        self.text = None
        self.media = False
        self.consent = None

    @property
    def hidden(self):
        return self.consent == "hidden"

    @property
    def counted(self):
        return self.valid and self.consent is not None and self.consent != "hidden"


def check_citation(c, claim_text, ar, in_force, codes):
    f = Fact()
    if in_force is not None:
        f.consent = ar.consent_in(in_force, c["artifact_id"])
    payload = ar.payloads.get(c["artifact_id"])
    vi = ar.index.get(c["archive_version"])
    if payload is None:
        codes.add("archive-artifact-unknown")
    if vi is None:
        codes.add("archive-version-unknown")
    if payload is None or vi is None:
        return f
    ok = True
    if c["artifact_id"] not in ar.consent[vi]:
        ok = False
        codes.add("archive-artifact-not-in-version")
    if in_force is not None and vi > in_force:
        ok = False
        codes.add("archive-version-not-in-force")
    text, err = resolve(c["span"], payload)
    if err:
        codes.add(err)
        return f
    if text == "media":
        f.media = True
    else:
        f.text = text
    if c["relation"] == "direct_quote":
        if f.text is None or f.text not in unicodedata.normalize("NFC", claim_text):
            ok = False
            codes.add("archive-quote-mismatch")
    if f.text is not None:
        if c.get("excerpt_hash") != h(f.text.encode("utf-8")):
            ok = False
            codes.add("archive-excerpt-hash-mismatch")
        if "excerpt" in c:
            if c["excerpt"] != f.text:
                ok = False
                codes.add("archive-excerpt-mismatch")
            codes.add("archive-excerpt-plaintext")
    elif "excerpt_hash" in c or "excerpt" in c:
        ok = False
        codes.add("archive-excerpt-hash-mismatch")
    f.valid = ok
    return f


def allowed(citations, facts):
    sup = any(f.counted and c["relation"] != "inference_from" for c, f in zip(citations, facts))
    lab = any(f.counted and c["relation"] == "inference_from" for c, f in zip(citations, facts))
    return sup, lab, any(f.counted for f in facts)


# --- the checker ----------------------------------------------------------------------------

BUNDLE_MEMBERS = {"bundle_version", "response_id", "requester", "tier", "archive_version",
                  "created_at", "claims", "removed_topics", "refusal", "downgrade", "signature"}


def form_problems(bundle):
    """The subset of the schema (ARCHIVE-001) the vectors exercise; relations are separate."""
    codes = set()
    for k in bundle:
        if k not in BUNDLE_MEMBERS and not k.startswith("x-"):
            codes.add("unknown-member")
    for k in ["bundle_version", "response_id", "requester", "tier", "archive_version", "created_at", "claims"]:
        if k not in bundle:
            codes.add("schema-violation")
    if "created_at" in bundle and ts(bundle["created_at"]) is None:
        codes.add("schema-timestamp-invalid")
    if "tier" in bundle and not TIER_RE.match(bundle["tier"]):
        codes.add("schema-violation")
    r = bundle.get("refusal")
    if r is not None:
        if set(r) - {"reason", "category", "inventory_offered"}:
            codes.add("unknown-member")
        if r.get("reason") not in ("category", "coverage") or not isinstance(r.get("inventory_offered"), bool) \
                or ("category" in r and r["category"] not in CATEGORIES):
            codes.add("schema-violation")
    dg = bundle.get("downgrade")
    if dg is not None and (not isinstance(dg, dict) or set(dg) != {"category"} or dg["category"] not in DOWNGRADES):
        codes.add("schema-violation")
    for t in bundle.get("removed_topics", []):
        if set(t) != {"topic", "reason"} or t["reason"] not in ("no-coverage", "thin-coverage") \
                or not 1 <= len(t["topic"]) <= 512:
            codes.add("schema-violation")
    for c in bundle.get("claims", []):
        if not CLAIM_RE.match(c.get("claim_id", "")):
            codes.add("schema-violation")
        if c.get("rung") not in ("supported", "narrowed", "labeled", "refused"):
            codes.add("schema-violation")
        if "general_context" in c and not isinstance(c["general_context"], bool):
            codes.add("schema-violation")
        for cit in c.get("citations", []):
            if not HASH_RE.match(cit.get("artifact_id", "")):
                codes.add("canon-hash-syntax")
            if "excerpt_hash" in cit and not HASH_RE.match(cit["excerpt_hash"]):
                codes.add("canon-hash-syntax")
    return codes


def read_signature(sig):
    if not isinstance(sig, dict) or set(sig) != {"algorithm", "signedBy", "kid", "signedAt", "signature"}:
        return None
    alg = sig["algorithm"]
    n = {"HMAC-SHA256": 64, "Ed25519": 128}.get(alg)
    if n is None or ts(sig["signedAt"]) is None:
        return None
    for k, mx in (("signedBy", 512), ("kid", 256)):
        if not isinstance(sig[k], str) or not 1 <= len(sig[k]) <= mx:
            return None
    if not re.fullmatch("[0-9a-f]{%d}" % n, sig["signature"]):
        return None
    return sig


def verify_signature(bundle, trust, codes):
    if "signature" not in bundle:
        codes.add("archive-signature-missing")
        return
    sig = read_signature(bundle["signature"])
    if sig is None:
        codes.add("archive-signature-invalid")
        return
    b = copy.deepcopy(bundle)
    b["signature"] = {k: v for k, v in sig.items() if k != "signature"}
    payload = jcs(b)
    if sig["algorithm"] == "HMAC-SHA256":
        secret = trust.get("secrets", {}).get(sig["signedBy"], {}).get(sig["kid"])
        if secret is None:
            codes.add("archive-key-unresolved")
            return
        good = hmac.compare_digest(hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest(),
                                   sig["signature"])
    else:
        keys = trust.get("keys", {}).get(sig["signedBy"], {"keys": []})["keys"]
        jwk = next((k for k in keys if k.get("kid") == sig["kid"]), None)
        if jwk is None:
            codes.add("archive-key-unresolved")
            return
        x = base64.urlsafe_b64decode(jwk["x"] + "=" * (-len(jwk["x"]) % 4))
        try:
            Ed25519PublicKey.from_public_bytes(x).verify(bytes.fromhex(sig["signature"]), payload)
            good = True
        except InvalidSignature:
            good = False
    if not good:
        codes.add("archive-signature-invalid")


def strict_loads(text_):
    """(value, None) or (None, code): duplicate names are an error (JSON-002)."""
    def pairs(items):
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            raise KeyError("duplicate")
        return dict(items)
    try:
        return json.loads(text_, object_pairs_hook=pairs), None
    except KeyError:
        return None, "json-duplicate-member"
    except ValueError:
        return None, "json-syntax"


def check(bundle_text, display_text, archive_doc, trust, now):
    """The set of (error and warning) codes ARCHIVE-001..024 give for this input."""
    ar = Archive(archive_doc)
    codes = ar.problems()
    if codes:
        return codes
    for signer, jwks in trust.get("keys", {}).items():
        if any("kid" not in k for k in jwks["keys"]):
            return {"jwk-kid-missing"}
    bundle, err = strict_loads(bundle_text)
    display, derr = strict_loads(display_text)
    codes |= {c for c in (err, derr) if c}
    if bundle is None:
        if display is not None:
            check_display(None, display, [], ar, None, False, codes)
        return codes
    verify_signature(bundle, trust, codes)
    bad_rel = False
    for c in bundle.get("claims", []):
        for cit in c.get("citations", []):
            if cit.get("relation") not in RELATIONS:
                codes.add("archive-relation-invalid")
                bad_rel = True
    form = form_problems(bundle)
    typed_ok = not form and not bad_rel
    codes |= form
    facts, in_force = [], None
    if typed_ok:
        t_created = ts(bundle["created_at"])
        sig = read_signature(bundle.get("signature"))
        if t_created > now + SKEW:
            codes.add("archive-time-invalid")
        if sig:
            t_signed = ts(sig["signedAt"])
            if t_signed > now + SKEW or t_signed < t_created:
                codes.add("archive-time-invalid")
        in_force = ar.in_force(t_created)
        if in_force is None or ar.snaps[in_force]["archive_version"] != bundle["archive_version"]:
            codes.add("archive-version-not-in-force")
        for c in bundle["claims"]:
            facts.append([check_citation(x, c["text"], ar, in_force, codes) for x in c.get("citations", [])])
        gate_checks(bundle, facts, ar, in_force, codes)
    check_display(bundle, display, facts, ar, in_force, typed_ok, codes)
    return codes


def is_delivered(c):
    return c["rung"] in ("supported", "labeled")


def gate_checks(bundle, facts, ar, in_force, codes):
    claims = bundle["claims"]
    ids = [c["claim_id"] for c in claims]
    if len(ids) != len(set(ids)):
        codes.add("archive-claim-id-duplicate")
    for c in claims:
        if (c["rung"] == "labeled") != ("label" in c):
            codes.add("archive-display-label-missing")
    delivered = any(is_delivered(c) for c in claims)
    r = bundle.get("refusal")
    if r is None and not delivered:
        codes.add("archive-refusal-invalid")
    if r is not None and delivered:
        codes.add("archive-refusal-invalid")
    if r is not None and not delivered:
        if r["reason"] == "category":
            if "category" not in r or claims or bundle.get("removed_topics"):
                codes.add("archive-refusal-invalid")
        else:
            if "category" in r or r["inventory_offered"] is not True:
                codes.add("archive-refusal-invalid")
    general_checks(bundle, codes)
    if "downgrade" in bundle and any(c["rung"] == "labeled" for c in claims):
        codes.add("archive-downgrade-violated")
    if in_force is None:
        return
    cap = ar.tier_cap(in_force, bundle["tier"])
    if cap is None:
        codes.add("archive-tier-unknown")
    narrowed = []
    for c, fs in zip(claims, facts):
        checkable = all(f.valid for f in fs)
        cits = c.get("citations", [])
        sup, lab, anyc = allowed(cits, fs)
        general = c.get("general_context") is True
        if c["rung"] == "narrowed":
            narrowed.append(("thin-coverage" if anyc else "no-coverage") if checkable else None)
        if not checkable:
            continue
        rung = c["rung"]
        if (rung == "supported" and not sup) or (rung == "labeled" and not lab and not general) or \
                (rung == "narrowed" and not delivered) or (rung == "refused" and delivered):
            codes.add("archive-rung-mismatch")
        if is_delivered(c) and not general:
            relation_checks(c, cits, fs, sup, lab, codes)
    topics = bundle.get("removed_topics", [])
    if len(topics) != len(narrowed):
        codes.add("archive-removed-topics-mismatch")
    else:
        for t, reason in zip(topics, narrowed):
            if reason is not None and t["reason"] != reason:
                codes.add("archive-removed-topics-mismatch")
    unlisted = [x["artifact_id"] for c in claims for x in c.get("citations", [])
                if x["artifact_id"] not in ar.consent[in_force] and x["artifact_id"] in ar.payloads]
    runs = set()
    for p in ar.hidden_paragraphs(in_force, unlisted):
        runs |= runs4(p)
    texts = [t["topic"] for t in topics] + [c["label"] for c in claims if "label" in c]
    if any(runs4(x) & runs for x in texts):
        codes.add("archive-hidden-revealed")
    shown_text_checks(bundle, ar, in_force, cap, codes)


def relation_checks(c, cits, facts, sup, lab, codes):
    """ARCHIVE-032 for a delivered claim whose citations all passed ARCHIVE-002 to -007."""
    text_cits = [(x, f) for x, f in zip(cits, facts) if f.counted and f.text is not None]
    for x, f in text_cits:
        if relation_problem(x["relation"], c["text"], f.text) is not None:
            codes.add("archive-claim-unsupported")
    if c["rung"] == "supported" and sup and not any(x["relation"] != "inference_from" for x, _ in text_cits):
        codes.add("archive-claim-unsupported")
    quotes = [f.text for x, f in text_cits if x["relation"] == "direct_quote"]
    if quotes and frame_negated(c["text"], quotes):
        codes.add("archive-claim-unsupported")
    if c["rung"] == "labeled" and lab and not any(x["relation"] == "inference_from" for x, _ in text_cits):
        codes.add("archive-claim-unsupported")


def general_checks(bundle, codes):
    """ARCHIVE-035: general-context claims."""
    claims = bundle["claims"]
    from_archive = any(is_delivered(c) and c.get("general_context") is not True for c in claims)
    for c in claims:
        if c.get("general_context") is not True:
            continue
        if c.get("citations") or len(c["text"]) > GENERAL_MAX or \
                ("label" in c and c["label"] != GENERAL_LABEL) or \
                (c["rung"] == "labeled" and not from_archive):
            codes.add("archive-general-context-invalid")


def shown_text_checks(bundle, ar, in_force, cap, codes):
    """ARCHIVE-033: what the requestor reads outside excerpts keeps to consent and tier."""
    w = ar.text_windows(in_force)
    delivered = [c for c in bundle["claims"] if is_delivered(c)]
    others = [c["label"] for c in delivered if "label" in c] + [t["topic"] for t in bundle.get("removed_topics", [])]
    for c in delivered:
        if any((x in w["auditor-only"] or x in w["hidden"]) and x not in w["open"] for x, _, _ in windows(c["text"])):
            codes.add("archive-restricted-text-shown")
    for t in others:
        if any(x in w["auditor-only"] and x not in w["open"] for x, _, _ in windows(t)):
            codes.add("archive-restricted-text-shown")
    if cap is None:
        return
    for t in [c["text"] for c in delivered] + others:
        if sum(b - a for a, b in repeated_runs(t, w["open"])) > cap:
            codes.add("archive-quote-too-long")


DISPLAY_MEMBERS = {"display_version", "bundle_hash", "tier", "claims", "removed_topics", "refusal", "downgrade"}
DCIT_MEMBERS = {"handle", "relation_label", "restricted", "excerpt"}


def id_leak(value, windows):
    if isinstance(value, str):
        for m in re.finditer(r"[0-9A-Fa-f]{16,}", value):
            run = m.group(0).lower()
            if any(run[i:i + 16] in windows for i in range(len(run) - 15)):
                return True
        return False
    if isinstance(value, list):
        return any(id_leak(v, windows) for v in value)
    if isinstance(value, dict):
        return any(id_leak(k, windows) or id_leak(v, windows) for k, v in value.items())
    return False


def display_form(display):
    codes = set()
    if set(display) - DISPLAY_MEMBERS:
        codes.add("unknown-member")
    for k in ["display_version", "bundle_hash", "tier", "claims", "removed_topics"]:
        if k not in display:
            codes.add("schema-violation")
    dg = display.get("downgrade")
    if dg is not None and (not isinstance(dg, dict) or set(dg) != {"category"} or dg["category"] not in DOWNGRADES):
        codes.add("schema-violation")
    for c in display.get("claims", []):
        if set(c) - {"claim_id", "text", "rung", "citations", "label", "general_context"}:
            codes.add("unknown-member")
        if "general_context" in c and not isinstance(c["general_context"], bool):
            codes.add("schema-violation")
        for d in c.get("citations", []):
            if set(d) - DCIT_MEMBERS:
                codes.add("unknown-member")
            if not HANDLE_RE.match(d.get("handle", "")):
                codes.add("schema-violation")
            if d.get("relation_label") not in LABELS.values():
                codes.add("schema-violation")
    return codes


def check_display(bundle, display, facts, ar, in_force, typed_ok, codes):
    id_windows = set()
    for aid in ar.payloads:
        hx = aid[7:]
        id_windows |= {hx[i:i + 16] for i in range(49)}
    if id_leak(display, id_windows):
        codes.add("archive-display-leak")
    form = display_form(display)
    if form:
        codes |= form
        return
    if bundle is None:
        return
    if display["bundle_hash"] != jcs_hash(bundle):
        codes.add("archive-display-unbound")
        return
    if not typed_ok:
        return
    if display["tier"] != bundle["tier"] or display.get("refusal") != bundle.get("refusal") \
            or display.get("downgrade") != bundle.get("downgrade"):
        codes.add("archive-display-claim-mismatch")
    if display["removed_topics"] != bundle.get("removed_topics", []):
        codes.add("archive-removed-topics-mismatch")
    delivered = [(c, fs) for c, fs in zip(bundle["claims"], facts) if c["rung"] in ("supported", "labeled")]
    if [c["claim_id"] for c, _ in delivered] != [d["claim_id"] for d in display["claims"]]:
        codes.add("archive-display-claim-mismatch")
        return
    cap = ar.tier_cap(in_force, bundle["tier"]) if in_force is not None else None
    handles, hcodes, hcheck = {}, set(), True
    for d, (c, fs) in zip(display["claims"], delivered):
        if d["text"] != c["text"] or d["rung"] != c["rung"] or d.get("label") != c.get("label") \
                or d.get("general_context", False) != c.get("general_context", False):
            codes.add("archive-display-claim-mismatch")
        if d["rung"] == "labeled" and "label" not in d:
            codes.add("archive-display-label-missing")
        shown = [(x, f) for x, f in zip(c.get("citations", []), fs) if not f.hidden]
        if len(d["citations"]) != len(shown):
            hcheck = False
            if any(f.hidden for f in fs) and len(d["citations"]) == len(c.get("citations", [])):
                codes.add("archive-consent-violated")
            else:
                codes.add("archive-display-claim-mismatch")
            continue
        for dc, (x, f) in zip(d["citations"], shown):
            n = handles.setdefault(x["artifact_id"], len(handles) + 1)
            if dc["handle"] != handle(n):
                hcodes.add("archive-handle-invalid")
            if dc["relation_label"] != LABELS[x["relation"]]:
                codes.add("archive-relation-label-mismatch")
            auditor = f.consent == "auditor-only"
            if f.consent is not None and dc.get("restricted", False) != auditor:
                codes.add("archive-consent-violated")
            if "excerpt" not in dc:
                continue
            e = dc["excerpt"]
            if auditor:
                codes.add("archive-consent-violated")
            elif f.media:
                codes.add("archive-excerpt-not-in-span")
            elif f.text is None:
                pass
            elif e == "" or e not in f.text:
                codes.add("archive-excerpt-not-in-span")
            elif cap is not None and len(e) > cap:
                codes.add("archive-excerpt-too-long")
        may_show = cap is not None and cap > 0 and any(
            x["relation"] == "inference_from" and f.consent == "open" and f.text is not None for x, f in shown)
        if d["rung"] == "labeled" and may_show and not any(
                dc["relation_label"] == "interpreted from" and "excerpt" in dc for dc in d["citations"]):
            codes.add("archive-labeled-excerpt-missing")
    if hcheck:
        codes |= hcodes


# --- the gate (producer side) ---------------------------------------------------------------

def gate(request, archive_doc, signer, signed_at, plaintext=False):
    """(bundle, display) for a gate request; signer = (algorithm, signedBy, kid, key)."""
    ar = Archive(archive_doc)
    created = request.get("created_at", signed_at)
    i = ar.in_force(ts(created))
    cap = ar.tier_cap(i, request["tier"])
    w = ar.text_windows(i)

    def shows_too_much(text, auditor_only_only=False):
        restricted = w["auditor-only"] if auditor_only_only else w["auditor-only"] | w["hidden"]
        return any(x in restricted and x not in w["open"] for x, _, _ in windows(text)) or \
            sum(b - a for a, b in repeated_runs(text, w["open"])) > cap

    prepared = []
    for c in request.get("claims", []):
        cits, facts = [], []
        for g in c.get("citations", []):
            x = dict(g)
            text, err = resolve(g["span"], ar.payloads[g["artifact_id"]])
            assert err is None, err
            if text != "media":
                x["excerpt_hash"] = h(text.encode("utf-8"))
                if plaintext:
                    x["excerpt"] = text
            codes = set()
            facts.append(check_citation(x, c["text"], ar, i, codes))
            assert not (codes - {"archive-excerpt-plaintext"}), codes
            cits.append(x)
        general = c.get("general_context", False)
        sup, lab, anyc = allowed(cits, facts)
        text_cits = [(x, f) for x, f in zip(cits, facts) if f.counted and f.text is not None]
        quotes = [f.text for x, f in text_cits if x["relation"] == "direct_quote"]
        relations_ok = all(relation_problem(x["relation"], c["text"], f.text) is None for x, f in text_cits) \
            and not (quotes and frame_negated(c["text"], quotes))
        sup = sup and relations_ok and any(x["relation"] != "inference_from" for x, _ in text_cits)
        lab = lab and relations_ok and any(x["relation"] == "inference_from" for x, _ in text_cits)
        if general:
            assert not cits
            rung = "labeled"
        else:
            rung = "supported" if sup else ("labeled" if lab else None)
        if c.get("withhold") or (rung == "labeled" and "downgrade" in request) or \
                (general and len(c["text"]) > GENERAL_MAX) or shows_too_much(c["text"]):
            rung = None
        prepared.append([c, cits, facts, rung, anyc])
    if not any(p[3] and not p[0].get("general_context") for p in prepared):
        for p in prepared:
            p[3] = None
    delivered = any(p[3] for p in prepared)
    unlisted = [x["artifact_id"] for p in prepared for x in p[1] if x["artifact_id"] not in ar.consent[i]]
    hidden = set()
    for para in ar.hidden_paragraphs(i, unlisted):
        hidden |= runs4(para)

    def choose(own, neutral):
        for text in (own, neutral):
            if text is not None and not (runs4(text) & hidden) and not shows_too_much(text, True):
                return text
        raise AssertionError(neutral)

    claims, topics = [], []
    for c, cits, facts, rung, anyc in prepared:
        r = rung or ("narrowed" if delivered else "refused")
        out = {"claim_id": c["claim_id"], "text": c["text"], "rung": r, "citations": cits}
        if c.get("general_context"):
            out["general_context"] = True
        if r == "labeled":
            out["label"] = GENERAL_LABEL if c.get("general_context") else choose(c.get("label"), DEFAULT_LABEL)
        if r == "narrowed":
            reason = "thin-coverage" if anyc else "no-coverage"
            topics.append({"topic": choose(c.get("topic"), TOPIC_THIN if anyc else TOPIC_NO),
                           "reason": reason})
        claims.append(out)
    bundle = {"bundle_version": "1", "response_id": request["response_id"],
              "requester": request["requester"], "tier": request["tier"],
              "archive_version": ar.snaps[i]["archive_version"], "created_at": created,
              "claims": claims, "removed_topics": topics}
    if "downgrade" in request:
        bundle["downgrade"] = {"category": request["downgrade"]}
    if request.get("category_refusal"):
        bundle["refusal"] = {"reason": "category", "category": request["category_refusal"],
                             "inventory_offered": False}
    elif not delivered:
        bundle["refusal"] = {"reason": "coverage", "inventory_offered": True}
    alg, by, kid, key = signer
    signed = sign_bundle(bundle, alg, by, kid, signed_at, key)
    facts_all = [p[2] for p in prepared]
    return signed, display_of(signed, facts_all, cap)


def display_of(bundle, facts, cap):
    handles, claims = {}, []
    for c, fs in zip(bundle["claims"], facts):
        if c["rung"] not in ("supported", "labeled"):
            continue
        cits = []
        for x, f in zip(c["citations"], fs):
            if f.hidden:
                continue
            n = handles.setdefault(x["artifact_id"], len(handles) + 1)
            d = {"handle": handle(n), "relation_label": LABELS[x["relation"]]}
            if f.text is not None and f.consent == "open" and cap > 0:
                d["excerpt"] = trim(f.text, cap)
            d["restricted"] = f.consent == "auditor-only"
            cits.append(d)
        d = {"claim_id": c["claim_id"], "text": c["text"], "rung": c["rung"], "citations": cits}
        if "label" in c:
            d["label"] = c["label"]
        if c.get("general_context"):
            d["general_context"] = True
        claims.append(d)
    view = {"display_version": "1", "bundle_hash": jcs_hash(bundle), "tier": bundle["tier"],
            "claims": claims, "removed_topics": bundle["removed_topics"]}
    if "refusal" in bundle:
        view["refusal"] = bundle["refusal"]
    if "downgrade" in bundle:
        view["downgrade"] = bundle["downgrade"]
    return view


def facts_of(bundle, archive_doc):
    """Citation facts of a bundle (for re-deriving a display after a mutation)."""
    ar = Archive(archive_doc)
    i = ar.in_force(ts(bundle["created_at"]))
    return [[check_citation(x, c["text"], ar, i, set()) for x in c.get("citations", [])]
            for c in bundle["claims"]], ar.tier_cap(i, bundle["tier"])


# --- the log --------------------------------------------------------------------------------

def log_line(seq, at, prev, **event):
    r = {"seq": seq, "at": at, "prev": prev}
    r.update(event)
    return r


def chain(records):
    """Sets seq and prev of each record dict in order (a well-formed log)."""
    prev = GENESIS
    out = []
    for n, r in enumerate(records):
        r = dict(r)
        r["seq"] = n
        r["prev"] = prev
        prev = jcs_hash(r)
        out.append(r)
    return out


def log_text(records):
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)


def record_form_ok(r):
    base = {"seq", "at", "prev", "type"}
    if not isinstance(r, dict) or not base <= set(r):
        return False
    if not isinstance(r["seq"], int) or ts(r["at"]) is None or not HASH_RE.match(str(r["prev"])):
        return False
    types = {
        "bundle": {"response_id", "requester", "tier", "bundle_hash", "outcome"},
        "context-request": {"requester", "response_id", "handle", "requested_chars", "delivered_chars"},
        "extraction-risk": {"requester", "refers_to", "limits"},
    }
    need = types.get(r["type"])
    if need is None:
        return False
    extra = set(r) - base - need
    if not need <= set(r) or any(not k.startswith("x-") for k in extra):
        return False
    if r["type"] == "bundle":
        return r["outcome"] in ("answered", "refused-category", "refused-coverage") and \
            HASH_RE.match(r["bundle_hash"]) is not None and TIER_RE.match(r["tier"]) is not None
    if r["type"] == "context-request":
        return isinstance(r["requested_chars"], int) and r["requested_chars"] >= 1 and \
            isinstance(r["delivered_chars"], int) and 0 <= r["delivered_chars"] <= r["requested_chars"] \
            and HANDLE_RE.match(r["handle"]) is not None
    lim = r["limits"]
    return isinstance(r["refers_to"], int) and r["refers_to"] >= 0 and isinstance(lim, list) and lim and \
        all(x in LIMIT_ORDER for x in lim) and \
        [LIMIT_ORDER.index(x) for x in lim] == sorted({LIMIT_ORDER.index(x) for x in lim})


def outcome(bundle):
    if any(c["rung"] in ("supported", "labeled") for c in bundle["claims"]):
        return "answered"
    return "refused-category" if bundle.get("refusal", {}).get("reason") == "category" else "refused-coverage"


def budget_at(ar, t):
    i = ar.in_force(t)
    if i is None:
        return {"daily_chars": 0, "request_cap": 0, "requests_per_hour": 0}
    return ar.snaps[i]["policy"]["evidence_budget"]


def decide(budget, earlier, t, requested):
    day = t // 86400
    used = sum(d for (a, d) in earlier if a // 86400 == day)
    window = sum(1 for (a, _) in earlier if t - 3600 < a <= t) + 1
    exceeded = []
    if used + requested > budget["daily_chars"]:
        exceeded.append("daily-budget")
    if requested > budget["request_cap"]:
        exceeded.append("request-cap")
    rate = window > budget["requests_per_hour"]
    if rate:
        exceeded.append("rate")
    allowed_ = 0 if rate else min(requested, budget["request_cap"], max(0, budget["daily_chars"] - used))
    return allowed_, exceeded


def handles_of(bundle, ar):
    """Handle -> artifact id of the display of a bundle (ARCHIVE-015), or None when the bundle
    has no snapshot in force."""
    i = ar.in_force(ts(bundle["created_at"]))
    if i is None:
        return None
    out = {}
    for c in bundle["claims"]:
        if c["rung"] not in ("supported", "labeled"):
            continue
        for x in c.get("citations", []):
            if ar.consent_in(i, x["artifact_id"]) != "hidden" and x["artifact_id"] not in out.values():
                out[handle(len(out) + 1)] = x["artifact_id"]
    return out


def context_checks(r, n, records, given, ar, t, codes):
    """ARCHIVE-034: a context request names an earlier answered response of its requester, a
    handle that response shows, and delivers nothing that consent or the tier withholds."""
    record = None
    for m in range(n):
        b = records[m]
        if b and b["type"] == "bundle" and b["response_id"] == r["response_id"] and \
                b["requester"] == r["requester"] and b["outcome"] == "answered":
            record = b
    if record is None:
        codes.add("archive-context-unbound")
        return
    i = ar.in_force(t)
    cap = ar.tier_cap(i, record["tier"]) if i is not None else None
    withheld = not cap
    bundle = given.get(record["bundle_hash"])
    if bundle is not None:
        handles = handles_of(bundle, ar)
        if handles is not None:
            aid = handles.get(r["handle"])
            if aid is None:
                codes.add("archive-context-unbound")
                return
            payload = ar.payloads.get(aid, {})
            withheld = withheld or i is None or ar.consent_in(i, aid) != "open" or payload.get("kind") != "text"
    if withheld and r["delivered_chars"] > 0:
        codes.add("archive-context-withheld")


def check_log(log, archive_doc, bundles, head, now):
    ar = Archive(archive_doc)
    codes = ar.problems()
    if codes:
        return codes
    body = log[:-1] if log.endswith("\n") else log
    lines = body.split("\n") if body else []
    values, records = [], []
    for line in lines:
        try:
            v = json.loads(line) if line else None
        except ValueError:
            v = None
            codes.add("json-syntax")
        if line == "":
            codes.add("archive-log-record-invalid")
        values.append(v)
        ok = v is not None and record_form_ok(v)
        if v is not None and not ok:
            codes.add("archive-log-record-invalid")
        records.append(v if ok else None)
    expected, last = GENESIS, None
    for n, v in enumerate(values):
        if v is not None:
            if v.get("seq") != n or (expected is not None and v.get("prev") != expected):
                codes.add("archive-log-broken")
        expected = jcs_hash(v) if v is not None else None
        r = records[n]
        if r is not None:
            t = ts(r["at"])
            if (last is not None and t < last) or t > now + SKEW:
                codes.add("archive-log-time-invalid")
            last = t
    if head is None:
        codes.add("archive-log-unanchored")
    elif not (head["seq"] < len(values) and values[head["seq"]] is not None
              and jcs_hash(values[head["seq"]]) == head["hash"]):
        codes.add("archive-log-head-mismatch")
    given = {}
    for text in bundles:
        b = json.loads(text)
        given[jcs_hash(b)] = b
    seen, exceeding, risk_of = {}, {}, {}
    for n, r in enumerate(records):
        if r is None:
            continue
        t = ts(r["at"])
        if r["type"] == "context-request":
            earlier = seen.setdefault(r["requester"], [])
            allowed_, exceeded = decide(budget_at(ar, t), earlier, t, r["requested_chars"])
            if r["delivered_chars"] > allowed_:
                codes.add("archive-budget-exceeded")
            earlier.append((t, r["delivered_chars"]))
            if exceeded:
                exceeding[r["seq"]] = (r["requester"], exceeded, t)
            context_checks(r, n, records, given, ar, t, codes)
        elif r["type"] == "extraction-risk":
            ref = r["refers_to"]
            if ref in exceeding and ref not in risk_of and exceeding[ref][0] == r["requester"]:
                risk_of[ref] = (r["limits"], t)
            else:
                codes.add("archive-log-record-invalid")
    for seq, (_, exceeded, t) in exceeding.items():
        risk = risk_of.get(seq)
        if risk is None or risk[0] != exceeded or risk[1] - t > 300:
            codes.add("archive-extraction-risk-unlogged")
    for text in bundles:
        b = json.loads(text)
        bh = jcs_hash(b)
        found = [(n, r) for n, r in enumerate(records) if r and r["type"] == "bundle" and r["bundle_hash"] == bh]
        if len(found) != 1:
            codes.add("archive-log-bundle-missing")
            continue
        n, r = found[0]
        if (r["response_id"], r["requester"], r["tier"], r["outcome"]) != \
                (b["response_id"], b["requester"], b["tier"], outcome(b)):
            codes.add("archive-log-bundle-missing")
        delay = ts(r["at"]) - ts(b["created_at"])
        if not 0 <= delay <= 300:
            codes.add("archive-log-time-invalid")
    return codes
