"""Attribution ledger (docs/PROFILE.md LEDGER-001 to LEDGER-020): `ledger-verify` and
`ledger-audit`, written from the profile with the standard library only.

The audit file is shared by many requests (LEDGER-008): every line that yields no record is
kept as "damage" with its owner (nobody, no known ledger, the records without an id, or the
ledger ids its bytes name), and each check decides whether it is its own (an error) or
elsewhere (the warning `ledger-audit-file-damaged`)."""

import base64
import re
from datetime import datetime

import strict_json
from findings import Findings

MAX_FILE = 64 * 1024 * 1024
MAX_LINE = 1024 * 1024
MAX_RECORDS = 200_000
SKEW = 300
_TS = re.compile(r"(000[1-9]|00[1-9]\d|0[1-9]\d{2}|[1-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:[0-5]\d(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})")
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_CLAIM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
# LEDGER-008: a member name "ledger_id", optional JSON whitespace, ':', a complete unescaped id.
_NAMED_ID = re.compile(rb'"ledger_id"[ \t\r\n]*:[ \t\r\n]*"([A-Za-z0-9][A-Za-z0-9._:-]{0,127})"')
_SOURCE_MEMBERS = {"identifier", "category", "tool_call_id", "fetched_at", "endpoint", "metadata"}


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


def objects(obj, key, allowed, required, f):
    """The items of the array member `key` (none when absent), each an object held to `members`;
    an array that is not one, or an item that is not an object, is a schema violation and left
    out (the caller stops at the first violation, before reading the items)."""
    items = obj.get(key, [])
    if not isinstance(items, list):
        f.error("schema-violation")
        return []
    for item in items:
        if not isinstance(item, dict):
            f.error("schema-violation")
        else:
            members(item, allowed, required, f)
    return [item for item in items if isinstance(item, dict)]


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
    """LEDGER-001 and -018: members beyond the profile's are allowed (and reported by the caller)."""
    if not isinstance(s, dict):
        f.error("schema-violation")
        return False
    ok = members(s, set(s), ["identifier", "category", "fetched_at"], f)
    ok &= string(s, "identifier", f, 1) & string(s, "category", f, 1) & string(s, "tool_call_id", f, 1)
    ok &= timestamp(s, "fetched_at", f) & nullable_string(s, "endpoint", f, 2048)
    if s.get("metadata") is not None and not isinstance(s["metadata"], dict):
        f.error("schema-violation")
        ok = False
    return ok


def undefined(s):
    """Members of a source neither defined by LEDGER-001 nor x- (LEDGER-018)."""
    if not isinstance(s, dict):
        return []
    return [k for k in s if k not in _SOURCE_MEMBERS and not k.startswith("x-")]


def canon(v):
    return strict_json.canonicalize(v)


def source_key(s):
    """The comparison form of a source: fetched_at as an instant (JSON-005), the rest as JSON."""
    if not isinstance(s, dict):
        return canon(s)
    t = dict(s)
    t["fetched_at"] = list(instant(s["fetched_at"]))
    return canon(t)


def same_instant(a, b):
    if a is None or b is None:
        return a is None and b is None
    return instant(a) == instant(b)


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

class Damage:
    def __init__(self, codes, owner, ids=()):
        self.codes, self.owner, self.ids = list(codes), owner, list(ids)

    def own(self, target, unknown_is_own):
        """Whether a check of ledger `target` (None: the records without an id) counts it."""
        if self.owner == "ids":
            return target is not None and target in self.ids
        if self.owner == "unidentified":
            return target is None
        return self.owner == "unknown" and unknown_is_own


def named(raw, codes):
    ids = list(dict.fromkeys(m.group(1).decode() for m in _NAMED_ID.finditer(raw)))
    return Damage(codes, "ids" if ids else "unknown", ids)


def read_file(data):
    """Returns (entries in file order: records and Damage, file-level error codes)."""
    if len(data) > MAX_FILE:
        return [], ["ledger-jsonl-too-large"]
    entries, file_errors, objects = [], [], 0
    if data.startswith(b"\xef\xbb\xbf"):
        entries.append(Damage(["ledger-jsonl-malformed"], "nobody"))
        data = data[3:]
    parts = data.split(b"\n")
    last = parts.pop()
    stopped = False
    for raw in parts:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw:
            entries.append(Damage(["ledger-jsonl-malformed"], "nobody"))
            continue
        if len(raw) > MAX_LINE:
            entries.append(named(raw, ["ledger-jsonl-too-large"]))
            continue
        if objects >= MAX_RECORDS:
            file_errors.append("ledger-jsonl-too-large")
            stopped = True
            break
        try:
            v = strict_json.parse(raw)
        except strict_json.JsonError as e:
            entries.append(named(raw, [e.code]))
            continue
        if not isinstance(v, dict):
            entries.append(Damage(["ledger-jsonl-malformed"], "nobody"))
            continue
        objects += 1
        g = Findings()
        r = read_record(v, g)
        if r is not None:
            entries.append(r)
        elif "ledger_id" not in v:
            entries.append(Damage(g.errors, "unidentified"))
        elif isinstance(v["ledger_id"], str):
            entries.append(Damage(g.errors, "ids", [v["ledger_id"]]))
        else:
            entries.append(Damage(g.errors, "unknown"))
    if last and not stopped:
        entries.append(named(last, ["ledger-jsonl-malformed"]))  # a torn last line
    return entries, file_errors


def read_record(v, f):
    g = Findings()
    template = "claim" not in v and "text" in v
    ident(v, "ledger_id", _RUN_ID, g)
    if "seq" in v and not (is_int(v["seq"]) and v["seq"] >= 0 and "ledger_id" in v):
        g.error("schema-violation")
    if template:
        members(v, {"ledger_id", "seq", "text", "source_id", "source_type", "requires_proof", "recorded_at"},
                ["text", "source_id", "source_type", "requires_proof", "recorded_at"], g)
        template_claim(v, g)
    else:
        members(v, {"ledger_id", "seq", "claim_id", "claim", "source", "requires_proof",
                    "requires_attribution", "logged_at"}, ["claim", "source", "logged_at"], g)
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
    common = {"ledger_id": v.get("ledger_id"), "seq": v.get("seq")}
    if template:
        key = (v["source_id"], v["source_type"]) if v["source_id"] is not None else None
        return dict(common, form="template", claim=v["text"], requires=v["requires_proof"],
                    cited=v["source_id"] is not None, key=key, source_id=v["source_id"],
                    source_type=v["source_type"], recorded_at=v["recorded_at"], undefined=[],
                    times=[v["recorded_at"]])
    req = v["requires_proof"] if "requires_proof" in v else v["requires_attribution"]
    src = v["source"]
    return dict(common, form="export", claim=v["claim"], requires=req, cited=src is not None,
                key=(src["identifier"], source_key(src)) if src is not None else None, source=src,
                claim_id=v.get("claim_id"), undefined=undefined(src),
                times=[v["logged_at"]] + ([src["fetched_at"]] if src is not None else []))


def coverage_members(obj, counts, g):
    """The coverage of a ledger, or the metadata of the seed template's: the counts are
    non-negative integers, coverage_score a number, is_compliant a boolean, validated_at a
    timestamp (each when present; `members` requires them)."""
    for k in counts:
        if k in obj and not (is_int(obj[k]) and obj[k] >= 0):
            g.error("schema-violation")
    if "coverage_score" in obj and not is_num(obj["coverage_score"]):
        g.error("schema-violation")
    if "is_compliant" in obj and not isinstance(obj["is_compliant"], bool):
        g.error("schema-violation")
    timestamp(obj, "validated_at", g)


def template_claim(c, g):
    """The members of a claim of the seed template (LEDGER-019): in its ledger and in its records."""
    string(c, "text", g)
    nullable_string(c, "source_id", g)
    nullable_string(c, "source_type", g)
    if "requires_proof" in c and not isinstance(c["requires_proof"], bool):
        g.error("schema-violation")
    timestamp(c, "recorded_at", g)


def records(entries):
    return [e for e in entries if isinstance(e, dict)]


def sequence_problem(recs):
    """LEDGER-011 for the records of one ledger id, in file order: the first problem, or None.
    `recs` are (index among all records, record)."""
    if any(r["seq"] is not None for _, r in recs):
        for position, (_, r) in enumerate(recs):
            if r["seq"] is None or r["seq"] > position:
                return "ledger-seq-broken"
            if r["seq"] < position:
                return "ledger-id-reused"
        return None
    for (k, _), (k2, _) in zip(recs, recs[1:]):
        if k2 != k + 1:
            return "ledger-id-reused"
    return None


def records_of(entries, ledger_id):
    return [(k, r) for k, r in enumerate(records(entries)) if r["ledger_id"] == ledger_id]


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
    entries, file_errors = read_file(file_bytes(input))
    for c in file_errors:
        f.error(c)
    target = input.get("ledger_id")
    groups, order = {}, []
    for r in records(entries):
        if target is not None and r["ledger_id"] != target:
            continue
        if r["ledger_id"] not in groups:
            groups[r["ledger_id"]] = []
            order.append(r["ledger_id"])
        groups[r["ledger_id"]].append(r)
    damaged_ledgers = set()
    for d in entries:
        if not isinstance(d, Damage):
            continue
        if target is None or d.own(target, True):
            for c in d.codes:
                f.error(c)
            damaged_ledgers.update(d.ids if d.owner == "ids" else [None] if d.owner == "unidentified" else [])
        else:
            f.warn("ledger-audit-file-damaged")
    out = []
    for key in order:
        recs = groups[key]
        if key is None:
            f.warn("ledger-record-unidentified")
        else:
            problem = sequence_problem(records_of(entries, key))
            # A damaged record of the ledger is reported instead of the hole it leaves in seq.
            if problem and not (problem == "ledger-seq-broken" and key in damaged_ledgers):
                f.error(problem)
        dedup([r["key"] for r in recs], f)
        if any(r["undefined"] for r in recs):
            f.warn("ledger-source-member-undefined")
        future([t for r in recs for t in r["times"]], input.get("now"), f)
        out.append(dict({"ledger_id": key}, **coverage([(r["claim"], r["requires"], r["cited"]) for r in recs],
                                                        threshold)))
    if not out and not file_errors:
        f.error("ledger-audit-empty")  # LEDGER-020
    return f, {"ledgers": out}


# ---- the ledger documents ----

def gate(computed, declared_compliant, mode, t, emitted, f):
    """LEDGER-005 to -007 and -014."""
    if not threshold_ok(mode, t):
        f.error("ledger-threshold-invalid")
    elif mode == "lenient" and t < 0.9:
        f.warn("ledger-threshold-low")
    if declared_compliant != computed["is_compliant"]:
        f.error("ledger-compliance-mismatch")
    if emitted and not computed["is_compliant"]:
        if mode == "strict":
            f.error("ledger-below-threshold")
        else:
            f.warn("ledger-coverage-low")


def check_ledger(doc, emitted, now, f):
    """citeproof's ledger (LEDGER-001). Returns {ledger_id, claims: [{text, requires, source,
    claim_id, identifier, category, recorded_at}]}, or None when its shape does not hold."""
    g = Findings()
    names = ["ledger_version", "ledger_id", "mode", "threshold", "claims", "coverage"]
    members(doc, set(names), names, g)
    if "ledger_version" in doc and doc["ledger_version"] != "1":
        g.error("schema-violation")
    ident(doc, "ledger_id", _RUN_ID, g)
    if "mode" in doc and doc["mode"] not in ("strict", "lenient"):
        g.error("schema-violation")
    if "threshold" in doc and not is_num(doc["threshold"]):
        g.error("schema-violation")
    claims = objects(doc, "claims", {"claim_id", "text", "requires_attribution", "recorded_at", "source"},
                     ["text", "requires_attribution", "recorded_at", "source"], g)
    for c in claims:
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
            if "uncited_claims" in cov and not (isinstance(cov["uncited_claims"], list) and
                                                all(isinstance(x, str) for x in cov["uncited_claims"])):
                g.error("schema-violation")
            coverage_members(cov, req[:3], g)
    for c in g.errors:
        f.error(c)
    if g.errors:
        return None
    mode, t = doc["mode"], doc["threshold"]
    computed = coverage([(c["text"], c["requires_attribution"], c["source"] is not None) for c in claims], t)
    sources = [c["source"] for c in claims if c["source"] is not None]
    traced = any("tool_call_id" in s for s in sources)
    seen = {}
    for c in claims:
        s = c["source"]
        if s is None:
            continue
        if traced and "tool_call_id" not in s:
            f.error("ledger-source-untraced")  # LEDGER-002: traced ledgers trace every source
        if instant(s["fetched_at"]) > instant(c["recorded_at"]):
            f.error("ledger-source-after-claim")
        if undefined(s):
            f.warn("ledger-source-member-undefined")
        k = source_key(s)
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
    gate(computed, cov["is_compliant"], mode, t, emitted, f)
    times = []
    for c in claims:
        times.append(c["recorded_at"])
        if c["source"] is not None:
            times.append(c["source"]["fetched_at"])
    future(times, now, f)
    return {"ledger_id": doc["ledger_id"], "template": False, "claims": [
        {"text": c["text"], "requires": c["requires_attribution"], "source": c["source"],
         "claim_id": c.get("claim_id"), "recorded_at": c["recorded_at"],
         "identifier": c["source"]["identifier"] if c["source"] else None,
         "category": c["source"]["category"] if c["source"] else None} for c in claims]}


def check_template(doc, mode, t, emitted, now, f):
    """The seed template's validate_and_finalize() ledger (LEDGER-019)."""
    g = Findings()
    members(doc, {"ledger_id", "claims", "metadata"}, ["claims", "metadata"], g)
    ident(doc, "ledger_id", _RUN_ID, g)
    names = ["text", "source_id", "source_type", "requires_proof", "recorded_at"]
    claims = objects(doc, "claims", set(names), names, g)
    for c in claims:
        template_claim(c, g)
    meta = doc.get("metadata")
    if not isinstance(meta, dict):
        g.error("schema-violation")
    else:
        mnames = ["coverage_score", "is_compliant", "total_claims", "validated_at"]
        members(meta, set(mnames), mnames, g)
        coverage_members(meta, ["total_claims"], g)
    for c in g.errors:
        f.error(c)
    if g.errors:
        return None
    computed = coverage([(c["text"], c["requires_proof"], c["source_id"] is not None) for c in claims], t)
    if meta["total_claims"] != len(claims):
        f.error("ledger-count-mismatch")
    if meta["coverage_score"] != computed["coverage_score"]:
        f.error("ledger-coverage-mismatch")
    gate(computed, meta["is_compliant"], mode, t, emitted, f)
    dedup([(c["source_id"], c["source_type"]) if c["source_id"] is not None else None for c in claims], f)
    future([c["recorded_at"] for c in claims], now, f)
    return {"ledger_id": doc.get("ledger_id"), "template": True, "claims": [
        {"text": c["text"], "requires": c["requires_proof"], "source": None, "claim_id": None,
         "recorded_at": c["recorded_at"], "identifier": c["source_id"], "category": c["source_type"]}
        for c in claims]}


def check_api(api, ledger, f):
    if not isinstance(api, dict):
        f.error("schema-violation")
        return
    g = Findings()
    members(api, {"ledger_id", "output_summary", "attribution_map"}, ["output_summary", "attribution_map"], g)
    ident(api, "ledger_id", _RUN_ID, g)
    string(api, "output_summary", g)
    names = ["claim", "source_id", "source_category", "timestamp"]
    entries = objects(api, "attribution_map", set(names), names, g)
    for e in entries:
        string(e, "claim", g)
        nullable_string(e, "source_id", g)
        nullable_string(e, "source_category", g)
        if e.get("timestamp") is not None:
            timestamp(e, "timestamp", g)
    for c in g.errors:
        f.error(c)
    if g.errors or ledger is None:
        return
    claims = ledger["claims"]
    if "ledger_id" in api and api["ledger_id"] != ledger["ledger_id"]:
        f.error("ledger-api-mismatch")
    if api["output_summary"] != " ".join(c["text"] for c in claims) or len(entries) != len(claims):
        f.error("ledger-api-mismatch")
        return
    for e, c in zip(entries, claims):
        s = c["source"]
        if [e["claim"], e["source_id"], e["source_category"]] != [c["text"], c["identifier"], c["category"]] \
                or not same_instant(e["timestamp"], s["fetched_at"] if s else None):
            f.error("ledger-api-mismatch")


def same_record(r, c, template):
    """LEDGER-009: a record against its claim."""
    same = r["claim"] == c["text"] and r["requires"] == c["requires"]
    if r["form"] == "export":
        if template:
            s = r["source"] or {}
            same = same and s.get("identifier") == c["identifier"] and s.get("category") == c["category"]
        else:
            same = same and (source_key(r["source"]) if r["source"] else None) == \
                (source_key(c["source"]) if c["source"] else None)
        if r.get("claim_id") is not None or c.get("claim_id") is not None:
            same = same and r.get("claim_id") == c.get("claim_id")
    else:
        same = same and r["source_id"] == c["identifier"] and r["source_type"] == c["category"] \
            and same_instant(r["recorded_at"], c["recorded_at"])
    return same


def compare(mine, ledger, f):
    claims = ledger["claims"]
    if len(mine) != len(claims):
        f.error("ledger-jsonl-count-mismatch")
        return
    for r, c in zip(mine, claims):
        if not same_record(r, c, ledger["template"]):
            f.error("ledger-jsonl-record-mismatch")


def template_block(entries, ledger, f):
    """LEDGER-019: the consecutive id-less template-form lines from the first claim's recorded_at."""
    claims = ledger["claims"]
    n = len(claims)
    if n == 0:
        return None
    is_t = [isinstance(e, dict) and e["ledger_id"] is None and e["form"] == "template" for e in entries]
    starts = [k for k, e in enumerate(entries) if is_t[k] and same_instant(e["recorded_at"], claims[0]["recorded_at"])]
    if not starts:
        f.error("ledger-jsonl-count-mismatch")
        return None

    def block(k):
        out = []
        for j in range(k, min(k + n, len(entries))):
            if not is_t[j]:
                break
            out.append(entries[j])
        return out
    whole = [b for b in map(block, starts) if len(b) == n and all(same_record(r, c, True) for r, c in zip(b, claims))]
    if len(whole) > 1:
        f.error("ledger-id-reused")
        return None
    return whole[0] if whole else block(starts[0])


def verify(input):
    f = Findings()
    emitted = input.get("emitted", True)
    ledger = None
    try:
        doc = strict_json.parse(input["ledger"])
        if not isinstance(doc, dict):
            f.error("schema-violation")
        elif "metadata" in doc and "ledger_version" not in doc:
            mode = input.get("mode", "strict")
            t = input.get("threshold", 1.0 if mode == "strict" else 0.90)
            ledger = check_template(doc, mode, t, emitted, input.get("now"), f)
        else:
            if "mode" in input or "threshold" in input:
                raise ValueError("`mode` and `threshold` are for a template ledger")
            ledger = check_ledger(doc, emitted, input.get("now"), f)
    except strict_json.JsonError as e:
        f.error(e.code)
    entries, file_errors = read_file(file_bytes(input))
    for c in file_errors:
        f.error(c)
    if ledger is not None:
        target = ledger["ledger_id"]
        mine = None
        if target is None:
            for d in entries:
                if isinstance(d, Damage):
                    f.warn("ledger-audit-file-damaged")
            mine = template_block(entries, ledger, f)
        else:
            own = False
            for d in entries:
                if isinstance(d, Damage):
                    if d.own(target, False):
                        own = True
                        for c in d.codes:
                            f.error(c)
                    else:
                        f.warn("ledger-audit-file-damaged")
            if not own and not file_errors:
                indexed = records_of(entries, target)
                problem = sequence_problem(indexed)
                if problem:
                    f.error(problem)
                else:
                    mine = [r for _, r in indexed]
        if mine is not None:
            compare(mine, ledger, f)
            future([t for r in mine for t in r["times"]], input.get("now"), f)
    if "api" in input:
        try:
            check_api(strict_json.parse(input["api"]), ledger, f)
        except strict_json.JsonError as e:
            f.error(e.code)
    return f
