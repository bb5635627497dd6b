"""Attribution ledger (docs/PROFILE.md LEDGER-001 to LEDGER-017): `ledger-verify` and
`ledger-audit`, written from the profile with the standard library only."""

import base64
import re
from datetime import datetime

import strict_json

MAX_FILE = 64 * 1024 * 1024
MAX_LINE = 1024 * 1024
MAX_RECORDS = 200_000
SKEW = 300
_TS = re.compile(r"(000[1-9]|00[1-9]\d|0[1-9]\d{2}|[1-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:[0-5]\d(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})")
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_CLAIM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")


class Findings:
    def __init__(self):
        self.errors, self.warnings = [], []

    def error(self, code):
        if code not in self.errors:
            self.errors.append(code)

    def warn(self, code):
        if code not in self.warnings:
            self.warnings.append(code)


def instant(text):
    """(seconds, nanoseconds) of a JSON-005 timestamp, or None when it is not one."""
    if not isinstance(text, str) or not _TS.fullmatch(text):
        return None
    frac = ""
    base = text
    m = re.match(r"(.{19})\.(\d+)(.*)", text)
    if m:
        base, frac = m.group(1) + m.group(3), m.group(2)
    try:
        dt = datetime.fromisoformat(base.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (int(dt.timestamp()), int((frac + "000000000")[:9]))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool) and not isinstance(v, strict_json.LexFloat)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def members(obj, allowed, required, f):
    ok = True
    for k in obj:
        if k not in allowed and not k.startswith("x-"):
            f.error("unknown-member")
            ok = False
    for k in required:
        if k not in obj:
            f.error("schema-violation")
            ok = False
    return ok


def string(obj, k, f, min_len=0):
    if k not in obj:
        return True
    v = obj[k]
    if not isinstance(v, str) or len(v) < min_len:
        f.error("schema-violation")
        return False
    return True


def timestamp(obj, k, f):
    if k not in obj:
        return True
    if not isinstance(obj[k], str):
        f.error("schema-violation")
        return False
    if instant(obj[k]) is None:
        f.error("schema-timestamp-invalid")
        return False
    return True


def ident(obj, k, pattern, f):
    if k not in obj:
        return True
    if not isinstance(obj[k], str) or not pattern.fullmatch(obj[k]):
        f.error("schema-violation")
        return False
    return True


def nullable_string(obj, k, f, max_bytes=None):
    v = obj.get(k)
    if v is None:
        return True
    if not isinstance(v, str) or v == "" or (max_bytes and len(v.encode("utf-8")) > max_bytes):
        f.error("schema-violation")
        return False
    return True


def source_ok(s, f):
    if not isinstance(s, dict):
        f.error("schema-violation")
        return False
    ok = members(s, {"identifier", "category", "tool_call_id", "fetched_at", "endpoint", "metadata"},
                 ["identifier", "category", "fetched_at"], f)
    ok &= string(s, "identifier", f, 1) & string(s, "category", f, 1) & string(s, "tool_call_id", f, 1)
    ok &= timestamp(s, "fetched_at", f) & nullable_string(s, "endpoint", f, 2048)
    if s.get("metadata") is not None and not isinstance(s["metadata"], dict):
        f.error("schema-violation")
        ok = False
    return ok


def canon(v):
    return strict_json.canonicalize(v)


def coverage(claims, threshold):
    """claims: [(text, requires, cited)]. The seed's validate_and_finalize arithmetic."""
    required = [c for c in claims if c[1]]
    cited = [c for c in required if c[2]]
    score = len(cited) / len(required) if required else 1.0
    return {"total_claims": len(claims), "required_claims": len(required), "cited_claims": len(cited),
            "coverage_score": score, "is_compliant": score >= threshold,
            "uncited_claims": [c[0] for c in required if not c[2]]}


def threshold_ok(mode, t):
    return t == 1 if mode == "strict" else 0 < t <= 1


# ---- the audit file ----

def read_file(data, f):
    """Returns (records, lines read, set of ids of unreadable records, reused ids)."""
    if len(data) > MAX_FILE:
        f.error("ledger-jsonl-too-large")
        return [], 0, set(), set()
    if data.startswith(b"\xef\xbb\xbf"):
        f.error("ledger-jsonl-malformed")
        data = data[3:]
    parts = data.split(b"\n")
    last = parts.pop()
    if last:
        f.error("ledger-jsonl-malformed")  # torn last line
    values = []
    for raw in parts:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw:
            f.error("ledger-jsonl-malformed")
            continue
        if len(raw) > MAX_LINE:
            f.error("ledger-jsonl-too-large")
            continue
        if len(values) >= MAX_RECORDS:
            f.error("ledger-jsonl-too-large")
            break
        try:
            v = strict_json.parse(raw)
        except strict_json.JsonError as e:
            f.error(e.code)
            continue
        if not isinstance(v, dict):
            f.error("ledger-jsonl-malformed")
            continue
        values.append(v)
    records, unreadable = [], set()
    for v in values:
        r = read_record(v, f)
        if r is None:
            if isinstance(v.get("ledger_id"), str):
                unreadable.add(v["ledger_id"])
        else:
            records.append(r)
    reused, closed, current = set(), set(), None
    for r in records:
        if r["ledger_id"] != current:
            if current is not None:
                closed.add(current)
            if r["ledger_id"] is not None and r["ledger_id"] in closed:
                reused.add(r["ledger_id"])
            current = r["ledger_id"]
    return records, len(values), unreadable, reused


def read_record(v, f):
    g = Findings()
    template = "claim" not in v and "text" in v
    ident(v, "ledger_id", _RUN_ID, g)
    if template:
        members(v, {"ledger_id", "text", "source_id", "source_type", "requires_proof", "recorded_at"},
                ["text", "source_id", "source_type", "requires_proof", "recorded_at"], g)
        string(v, "text", g)
        nullable_string(v, "source_id", g)
        nullable_string(v, "source_type", g)
        if "requires_proof" in v and not isinstance(v["requires_proof"], bool):
            g.error("schema-violation")
        timestamp(v, "recorded_at", g)
    else:
        members(v, {"ledger_id", "claim_id", "claim", "source", "requires_proof", "requires_attribution",
                    "logged_at"}, ["claim", "source", "logged_at"], g)
        ident(v, "claim_id", _CLAIM_ID, g)
        string(v, "claim", g)
        names = [k for k in ("requires_proof", "requires_attribution") if k in v]
        if len(names) != 1 or not isinstance(v[names[0]], bool):
            g.error("schema-violation")
        timestamp(v, "logged_at", g)
        if v.get("source") is not None:
            source_ok(v["source"], g)
    for c in g.errors:
        f.error(c)
    if g.errors:
        return None
    if template:
        key = (v["source_id"], v["source_type"]) if v["source_id"] is not None else None
        return {"ledger_id": v.get("ledger_id"), "form": "template", "claim": v["text"],
                "requires": v["requires_proof"], "cited": v["source_id"] is not None, "key": key,
                "source_id": v["source_id"], "source_type": v["source_type"], "times": [v["recorded_at"]]}
    req = v["requires_proof"] if "requires_proof" in v else v["requires_attribution"]
    src = v["source"]
    return {"ledger_id": v.get("ledger_id"), "form": "export", "claim": v["claim"], "requires": req,
            "cited": src is not None, "key": (src["identifier"], canon(src)) if src is not None else None,
            "source": src, "claim_id": v.get("claim_id"),
            "times": [v["logged_at"]] + ([src["fetched_at"]] if src is not None else [])}


def dedup(keys, f):
    seen = {}
    for k in keys:
        if k is None:
            continue
        if k[0] in seen and seen[k[0]] != k[1]:
            f.error("ledger-source-deduplicated")
        seen.setdefault(k[0], k[1])


def future(times, now, f):
    if now is None:
        return
    for t in times:
        i = instant(t)
        if i and i[0] > now + SKEW:
            f.warn("ledger-timestamp-future")
            return


def file_bytes(input):
    if "export_base64" in input:
        return base64.b64decode(input["export_base64"])
    return input["export"].encode("utf-8")


def audit(input):
    f = Findings()
    mode = input.get("mode", "strict")
    threshold = input.get("threshold", 1.0 if mode == "strict" else 0.90)
    if not threshold_ok(mode, threshold):
        f.error("ledger-threshold-invalid")
    records, _, _, reused = read_file(file_bytes(input), f)
    groups, order = {}, []
    for r in records:
        if "ledger_id" in input and r["ledger_id"] != input["ledger_id"]:
            continue
        if r["ledger_id"] not in groups:
            groups[r["ledger_id"]] = []
            order.append(r["ledger_id"])
        groups[r["ledger_id"]].append(r)
    out = []
    for key in order:
        recs = groups[key]
        if key is None:
            f.warn("ledger-record-unidentified")
        elif key in reused:
            f.error("ledger-id-reused")
        dedup([r["key"] for r in recs], f)
        future([t for r in recs for t in r["times"]], input.get("now"), f)
        out.append(dict({"ledger_id": key}, **coverage([(r["claim"], r["requires"], r["cited"]) for r in recs],
                                                        threshold)))
    return f, {"ledgers": out}


# ---- the ledger document ----

def check_ledger(doc, emitted, now, f):
    """Returns the claims [(text, requires, source, claim_id)] and ledger id, or None."""
    g = Findings()
    if not isinstance(doc, dict):
        f.error("schema-violation")
        return None
    names = ["ledger_version", "ledger_id", "mode", "threshold", "claims", "coverage"]
    members(doc, set(names), names, g)
    if "ledger_version" in doc and doc["ledger_version"] != "1":
        g.error("schema-violation")
    ident(doc, "ledger_id", _RUN_ID, g)
    if "mode" in doc and doc["mode"] not in ("strict", "lenient"):
        g.error("schema-violation")
    if "threshold" in doc and not is_num(doc["threshold"]):
        g.error("schema-violation")
    claims = doc.get("claims", [])
    if not isinstance(claims, list):
        g.error("schema-violation")
        claims = []
    for c in claims:
        if not isinstance(c, dict):
            g.error("schema-violation")
            continue
        members(c, {"claim_id", "text", "requires_attribution", "recorded_at", "source"},
                ["text", "requires_attribution", "recorded_at", "source"], g)
        ident(c, "claim_id", _CLAIM_ID, g)
        string(c, "text", g, 1)
        if "requires_attribution" in c and not isinstance(c["requires_attribution"], bool):
            g.error("schema-violation")
        timestamp(c, "recorded_at", g)
        if c.get("source") is not None:
            source_ok(c["source"], g)
    cov = doc.get("coverage")
    if cov is not None:
        if not isinstance(cov, dict):
            g.error("schema-violation")
        else:
            req = ["total_claims", "required_claims", "cited_claims", "coverage_score", "is_compliant",
                   "uncited_claims"]
            members(cov, set(req) | {"validated_at"}, req, g)
            for k in req[:3]:
                if k in cov and not (is_int(cov[k]) and cov[k] >= 0):
                    g.error("schema-violation")
            if "coverage_score" in cov and not is_num(cov["coverage_score"]):
                g.error("schema-violation")
            if "is_compliant" in cov and not isinstance(cov["is_compliant"], bool):
                g.error("schema-violation")
            if "uncited_claims" in cov and not (isinstance(cov["uncited_claims"], list) and
                                                all(isinstance(x, str) for x in cov["uncited_claims"])):
                g.error("schema-violation")
            timestamp(cov, "validated_at", g)
    for c in g.errors:
        f.error(c)
    if g.errors:
        return None
    mode, t = doc["mode"], doc["threshold"]
    computed = coverage([(c["text"], c["requires_attribution"], c["source"] is not None) for c in claims], t)
    seen = {}
    for c in claims:
        s = c["source"]
        if s is None:
            continue
        if "tool_call_id" not in s:
            f.error("ledger-source-untraced")
        if instant(s["fetched_at"]) > instant(c["recorded_at"]):
            f.error("ledger-source-after-claim")
        k = canon(s)
        if s["identifier"] in seen and seen[s["identifier"]] != k:
            f.error("ledger-source-deduplicated")
        seen.setdefault(s["identifier"], k)
    for k in ("total_claims", "required_claims", "cited_claims"):
        if cov[k] != computed[k]:
            f.error("ledger-count-mismatch")
    if cov["uncited_claims"] != computed["uncited_claims"]:
        f.error("ledger-uncited-mismatch")
    if cov["coverage_score"] != computed["coverage_score"]:
        f.error("ledger-coverage-mismatch")
    if not threshold_ok(mode, t):
        f.error("ledger-threshold-invalid")
    elif mode == "lenient" and t < 0.9:
        f.warn("ledger-threshold-low")
    if cov["is_compliant"] != computed["is_compliant"]:
        f.error("ledger-compliance-mismatch")
    if emitted and not computed["is_compliant"]:
        if mode == "strict":
            f.error("ledger-below-threshold")
        else:
            f.warn("ledger-coverage-low")
    times = []
    for c in claims:
        times.append(c["recorded_at"])
        if c["source"] is not None:
            times.append(c["source"]["fetched_at"])
    future(times, now, f)
    return doc["ledger_id"], claims


def check_api(api, ledger, f):
    if not isinstance(api, dict):
        f.error("schema-violation")
        return
    g = Findings()
    members(api, {"ledger_id", "output_summary", "attribution_map"}, ["output_summary", "attribution_map"], g)
    ident(api, "ledger_id", _RUN_ID, g)
    string(api, "output_summary", g)
    entries = api.get("attribution_map", [])
    if not isinstance(entries, list):
        g.error("schema-violation")
        entries = []
    names = ["claim", "source_id", "source_category", "timestamp"]
    for e in entries:
        if not isinstance(e, dict):
            g.error("schema-violation")
            continue
        members(e, set(names), names, g)
        string(e, "claim", g)
        nullable_string(e, "source_id", g)
        nullable_string(e, "source_category", g)
        if e.get("timestamp") is not None:
            timestamp(e, "timestamp", g)
    for c in g.errors:
        f.error(c)
    if g.errors or ledger is None:
        return
    ledger_id, claims = ledger
    if "ledger_id" in api and api["ledger_id"] != ledger_id:
        f.error("ledger-api-mismatch")
    if api["output_summary"] != " ".join(c["text"] for c in claims) or len(entries) != len(claims):
        f.error("ledger-api-mismatch")
        return
    for e, c in zip(entries, claims):
        s = c["source"]
        want = [c["text"], s["identifier"] if s else None, s["category"] if s else None,
                s["fetched_at"] if s else None]
        if [e[n] for n in names] != want:
            f.error("ledger-api-mismatch")


def verify(input):
    f = Findings()
    try:
        doc = strict_json.parse(input["ledger"])
        ledger = check_ledger(doc, input.get("emitted", True), input.get("now"), f)
    except strict_json.JsonError as e:
        f.error(e.code)
        ledger = None
    records, lines, unreadable, reused = read_file(file_bytes(input), f)
    if ledger is not None:
        ledger_id, claims = ledger
        mine = [r for r in records if r["ledger_id"] == ledger_id]
        if ledger_id in unreadable:
            pass
        elif ledger_id in reused:
            f.error("ledger-id-reused")
        elif len(mine) != len(claims):
            f.error("ledger-jsonl-count-mismatch")
        else:
            for r, c in zip(mine, claims):
                same = r["claim"] == c["text"] and r["requires"] == c["requires_attribution"]
                if r["form"] == "export":
                    same = same and canon(r["source"]) == canon(c["source"])
                    if r.get("claim_id") is not None or c.get("claim_id") is not None:
                        same = same and r.get("claim_id") == c.get("claim_id")
                else:
                    s = c["source"]
                    same = same and r["source_id"] == (s["identifier"] if s else None) \
                        and r["source_type"] == (s["category"] if s else None)
                if not same:
                    f.error("ledger-jsonl-record-mismatch")
        future([t for r in mine for t in r["times"]], input.get("now"), f)
    if "api" in input:
        try:
            check_api(strict_json.parse(input["api"]), ledger, f)
        except strict_json.JsonError as e:
            f.error(e.code)
    return f
