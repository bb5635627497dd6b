"""`aef-validate`: AI Evidence Format v0.1 Level 1 (docs/PROFILE.md AEF-4-*, AEF-VOC-*,
JSON-*, CANON-002). Level 1 is schema validity: as in the published schema, integers have the
JSON Schema meaning (1.0 is one), timestamps are any RFC 3339 date-time, and selector values are
any string (their syntax is a Level 2 rule)."""

import calendar
import re

import strict_json
from findings import Findings
from strict_json import JsonError

# Smallest accepted `retrieval.rank` (the published schema's `minimum`).
MIN_RANK = 1

SPEC = {
    "source.type": {"document", "webpage", "api_response", "knowledge_graph", "aeo_declaration", "dataset", "database_row"},
    "span.selector_type": {"byte_range", "line_range", "xpath", "css", "text_quote", "paragraph_index", "none"},
    "retrieval.method": {"vector", "keyword", "graph", "hybrid", "direct_fetch", "model_recall"},
    "synthesis_role": {"supporting", "contradicting", "partial", "background"},
}
MEMBERS = {
    "": {"evidence_version", "evidence_id", "claim_text", "source", "span", "retrieval", "verification",
         "synthesis_role", "notes"},
    "source": {"uri", "type", "title", "publisher", "published_at", "fetched_at"},
    "span": {"selector_type", "selector_value", "exact_text", "surrounding_context"},
    "retrieval": {"method", "confidence", "rank", "freshness_age_seconds", "retriever_id"},
    "verification": {"content_hash", "signature", "signing_key_uri", "signed_by"},
}
REQUIRED = {
    "": ["evidence_id", "claim_text", "source", "span", "retrieval", "verification", "synthesis_role"],
    "source": ["uri", "type", "fetched_at"],
    "span": ["selector_type"],
    "retrieval": ["method"],
    "verification": ["content_hash"],
}
# RFC 3339 §5.6 date-time: `T` and `Z` case-insensitive, any fraction, leap second 60.
_TIMESTAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
_HASH = re.compile(r"sha256:[0-9a-f]{64}")


def _days_in_month(year, month):
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def timestamp_ok(text):
    """RFC 3339 date-time, as the published AEF schema accepts (profile JSON-005 exception)."""
    m = _TIMESTAMP.fullmatch(text)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    if not (1 <= month <= 12 and hour <= 23 and minute <= 59 and second <= 60):
        return False
    if not 1 <= day <= _days_in_month(year, month):
        return False
    if m.group(9) and (int(m.group(10)) > 23 or int(m.group(11)) > 59):
        return False
    return True


def _instant(text):
    m = _TIMESTAMP.fullmatch(text)
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    frac = float("0" + (m.group(7) or ".0"))
    offset = 0 if m.group(8) in "Zz" else (int(m.group(10)) * 60 + int(m.group(11))) * (1 if m.group(9) == "+" else -1)
    try:
        return calendar.timegm((y, mo, d, h, mi, s)) + frac - offset * 60
    except ValueError:  # year 0 is outside Python's calendar
        return None


def _is_int(v):
    """JSON Schema `integer`: a number with a zero fractional part (1.0 included)."""
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def validate(document_text):
    """Returns (errors, warnings) for one evidence document given as raw text."""
    f = Findings()
    try:
        doc = strict_json.parse(document_text)
    except JsonError as e:
        f.error(e.code)
        return f.errors, f.warnings
    if not isinstance(doc, dict):
        f.error("schema-violation")
        return f.errors, f.warnings
    _check_object(doc, "", f)
    if "evidence_version" not in doc:
        f.error("schema-violation")
    elif doc["evidence_version"] != "0.1" or not isinstance(doc["evidence_version"], str):
        f.error("aef-version-unsupported")
    for name in ("evidence_id", "claim_text"):
        if name in doc and not (isinstance(doc[name], str) and doc[name]):
            f.error("schema-violation")
    if "notes" in doc and not isinstance(doc["notes"], str):
        f.error("schema-violation")
    _enum(doc, "synthesis_role", "synthesis_role", f)

    for name, check in (("source", _check_source), ("retrieval", _check_retrieval),
                        ("verification", _check_verification), ("span", _check_span)):
        section = doc.get(name)
        if isinstance(section, dict):
            _check_object(section, name, f)
            check(section, f)
        elif section is not None:
            f.error("schema-violation")
    return f.errors, f.warnings


def _check_source(source, f):
    uri = source.get("uri")
    if uri is not None and not (isinstance(uri, str) and _URI.fullmatch(uri)):
        f.error("schema-violation")
    _enum(source, "type", "source.type", f)
    for name in ("title", "publisher"):
        if name in source and not isinstance(source[name], str):
            f.error("schema-violation")
    times = {}
    for name in ("published_at", "fetched_at"):
        if name in source:
            v = source[name]
            if not isinstance(v, str):
                f.error("schema-violation")
            elif not timestamp_ok(v):
                f.error("schema-timestamp-invalid")
            else:
                times[name] = _instant(v)
    if len(times) == 2 and None not in times.values() and times["published_at"] > times["fetched_at"]:
        f.warn("aef-published-after-fetched")


def _check_retrieval(retrieval, f):
    _enum(retrieval, "method", "retrieval.method", f)
    if "confidence" in retrieval:
        c = retrieval["confidence"]
        if not (_is_number(c) and 0 <= c <= 1):
            f.error("schema-violation")
    if "rank" in retrieval:
        r = retrieval["rank"]
        if not (_is_int(r) and r >= MIN_RANK):
            f.error("schema-violation")
    if "freshness_age_seconds" in retrieval:
        a = retrieval["freshness_age_seconds"]
        if not (_is_int(a) and a >= 0):
            f.error("schema-violation")
    if "retriever_id" in retrieval and not isinstance(retrieval["retriever_id"], str):
        f.error("schema-violation")


def _check_verification(verification, f):
    if "content_hash" in verification:
        h = verification["content_hash"]
        if not (isinstance(h, str) and _HASH.fullmatch(h)):
            f.error("canon-hash-syntax")
    for name in ("signature", "signed_by"):
        if name in verification and not isinstance(verification[name], str):
            f.error("schema-violation")
    if "signing_key_uri" in verification:
        u = verification["signing_key_uri"]
        if not (isinstance(u, str) and _URI.fullmatch(u)):
            f.error("schema-violation")


def _check_object(obj, where, f):
    for name in obj:
        if name not in MEMBERS[where]:
            f.error("unknown-member")
    for name in REQUIRED[where]:
        if name not in obj:
            f.error("schema-violation")


def _enum(obj, name, key, f):
    if name not in obj:
        return
    v = obj[name]
    if not isinstance(v, str):
        f.error("schema-violation")
    elif v not in SPEC[key]:
        # Landing-page values too: the published schema is Level 1 (profile AEF-VOC-001).
        f.error("aef-vocabulary-invalid")


def _check_span(span, f):
    for name in ("selector_value", "exact_text", "surrounding_context"):
        if name in span and not isinstance(span[name], str):
            f.error("schema-violation")
            return
    _enum(span, "selector_type", "span.selector_type", f)
    stype = span.get("selector_type")
    if stype == "none":
        if "selector_value" in span:
            f.warn("aef-selector-value-ignored")
        return
    if isinstance(stype, str) and "selector_value" not in span:
        f.error("schema-violation")
    elif "exact_text" not in span:
        f.warn("aef-exact-text-missing")
