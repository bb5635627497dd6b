#!/usr/bin/env python3
"""Generates vectors/aef/level1/validate.json (operation `aef-validate`).

Hand derivation: every expected result is read off AI Evidence Format v0.1 (SPEC.md §4,
evidence.schema.json, the landing page of seed 001) as made precise by docs/PROFILE.md
(AEF-4-*, AEF-VOC-*, JSON-*, CANON-002). Level 1 is schema validity: integers and timestamps
have the published schema's meaning (JSON-003 and JSON-005 exceptions for AEF), and selector
syntax (AEF-SEL-*) is checked only at Level 2. Each case changes one thing in a
spec-valid base document and says which requirement decides the answer. Content hashes of the
base documents are computed with Python hashlib (AEF §5) so that the same documents stay
consistent at Level 2. citeproof is never called.

Run: python3 vectors/tools/gen_aef_level1.py
"""

import copy
import hashlib
import json

from vectorlib import boundary, case, derivation, write


def aef_hash(text: str) -> str:
    t = text.replace("\r\n", "\n").replace("\r", "\n")
    if t.endswith("\n"):
        t = t[:-1]
    return "sha256:" + hashlib.sha256(t.encode("utf-8")).hexdigest()


QUOTE = "three pillars: Declare, Discover, and Audit"
BASE = {
    "evidence_version": "0.1",
    "evidence_id": "ev-2026-05-12-a4f9c1",
    "claim_text": "The AEO Protocol defines three pillars: Declare, Discover, and Audit.",
    "source": {
        "uri": "https://example.com/aeo/SPEC.md",
        "type": "document",
        "title": "AEO Protocol v0.1",
        "publisher": "example.com",
        "published_at": "2026-05-01T00:00:00Z",
        "fetched_at": "2026-05-12T03:45:00Z",
    },
    "span": {"selector_type": "text_quote", "selector_value": "three pillars", "exact_text": QUOTE},
    "retrieval": {"method": "hybrid", "confidence": 0.93, "rank": 1, "freshness_age_seconds": 90,
                  "retriever_id": "bm25+dense-v2"},
    "verification": {"content_hash": aef_hash(QUOTE)},
    "synthesis_role": "supporting",
}

MINIMAL = {
    "evidence_version": "0.1",
    "evidence_id": "e1",
    "claim_text": "c",
    "source": {"uri": "https://example.com/", "type": "webpage", "fetched_at": "2026-05-12T03:45:00Z"},
    "span": {"selector_type": "none"},
    "retrieval": {"method": "direct_fetch"},
    "verification": {"content_hash": aef_hash("")},
    "synthesis_role": "background",
}

# The canonical example of the AEF landing page (seed 001), verbatim. Its content_hash is a
# placeholder: well-formed (Level 1) but not the hash of its exact_text (fails Level 2).
LANDING_EXAMPLE = {
    "evidence_version": "0.1",
    "evidence_id": "ev-2026-05-12-a4f9c1",
    "claim_text": "The AEO Protocol defines three pillars: Declare, Discover, and Audit.",
    "source": {
        "uri": "https://github.com/mizcausevic-dev/aeo-protocol-spec/blob/main/SPEC.md",
        "type": "document",
        "title": "AEO Protocol v0.1 \u2014 Specification",
        "publisher": "mizcausevic-dev",
        "fetched_at": "2026-05-12T03:45:00Z",
    },
    "span": {
        "selector_type": "text_quote",
        "selector_value": "## 3. The three pillars",
        "exact_text": "## 3. The three pillars\n\n### 3.1 Declare\n\nThe entity publishes a single JSON document at a fixed path describing itself.",
    },
    "retrieval": {"method": "hybrid", "confidence": 0.93, "rank": 1, "freshness_age_seconds": 90},
    "verification": {"content_hash": "sha256:c7d1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1"},
    "synthesis_role": "supporting",
}

FLAGS = {
    "spec-example": "The document is (or is built on) an example published with the spec.",
    "spec-vocabulary": "Uses a value of the spec's own enumerations (SPEC.md §4).",
    "landing-page-vocabulary": "Uses a value only the landing page (seed 001) lists; accepted with a warning (AEF-VOC-002).",
    "vocabulary": "An enumerated member has a value neither the spec nor the landing page lists.",
    "missing-member": "A required member is absent.",
    "wrong-type": "A member has the wrong JSON type or is out of its range.",
    "integer-form": "An integer member written with a fraction or exponent, or beyond 2^53 (AEF: JSON Schema integers, JSON-003 exception).",
    "unknown-member": "An object has a member the spec does not define.",
    "timestamp": "An RFC 3339 timestamp edge case (profile JSON-005 and its AEF exception).",
    "content-hash": "The content hash string is malformed (profile CANON-002).",
    "uri": "A URI member edge case.",
    "json-input": "The document text is not acceptable I-JSON (profile JSON-001, JSON-002).",
    "selector-syntax": "A selector value whose syntax is checked only at Level 2 (profile AEF-SEL-*).",
    "should-warning": "A SHOULD rule is broken: still valid, a verifier may warn.",
}

SPEC = "AEF v0.1 SPEC.md"
cases = []


def doc_text(doc) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2)


def mutate(base, path, value=None, delete=False):
    d = copy.deepcopy(base)
    parts = path.split("/")
    target = d
    for p in parts[:-1]:
        target = target[p]
    if delete:
        del target[parts[-1]]
    else:
        target[parts[-1]] = value
    return d


def add(name, desc, doc, result, errors=(), reqs=(), flags=(), working="", raw=None, warnings=None):
    text = raw if raw is not None else doc_text(doc)
    cases.append(case(
        f"aef-validate-{name}", desc, list(reqs), 1, {"document": text}, result,
        errors=list(errors) if result != "valid" else None,
        derivation_=derivation("hand", working), flags=list(flags), warnings=warnings))


# ---- valid documents ------------------------------------------------------------------------
add("base", "A complete spec-valid evidence object.", BASE, "valid",
    reqs=["AEF-4-001", "AEF-4-002", "AEF-4-003", "AEF-VOC-001", "CANON-002", "JSON-004", "JSON-005"],
    flags=["spec-vocabulary"], working=f"{SPEC} §4: every member present with a spec value")
add("minimal", "Only the required members; selector `none` without a value.", MINIMAL, "valid",
    reqs=["AEF-4-002", "AEF-4-003", "JSON-004"], flags=["spec-vocabulary"],
    working=f"{SPEC} §4.4-§4.7: required members only; §4.5 selector_value not required for none")
full = copy.deepcopy(BASE)
full["notes"] = "Only authoritative source on the pillars."
full["verification"].update({"signature": "eyJhbGciOiJFZERTQSJ9..c2ln", "signing_key_uri": "https://example.com/keys.json",
                             "signed_by": "retriever.example"})
add("all-optional-members", "Every optional member present (signature members are only strings at Level 1).", full, "valid",
    reqs=["AEF-4-002", "AEF-4-003"], working=f"{SPEC} §4.7, §4.9: optional members; the signature is checked at Level 3 only")
add("landing-page-example", "The canonical example of the AEF landing page (placeholder content_hash is well-formed).",
    LANDING_EXAMPLE, "valid", reqs=["AEF-4-002", "AEF-SEL-002", "CANON-002"], flags=["spec-example"],
    working="seed 001 example; Level 1 is schema validity (§6); selector_value is a prefix of exact_text (AEF-SEL-002)")
add("pretty-and-reordered", "Members in another order with extra whitespace: the same document.", None, "valid",
    reqs=["JSON-001", "AEF-4-002"],
    raw="\n\n  " + json.dumps(dict(reversed(list(BASE.items()))), indent=8) + "\n\n",
    working="RFC 8259: member order and whitespace are insignificant")
add("unicode-text", "Non-ASCII claim text and title.", mutate(mutate(BASE, "claim_text", "Das AEO-Protokoll hat drei S\u00e4ulen \u2014 \u4e09\u3064\u306e\u67f1 \U0001F3DB."),
    "source/title", "\u00c9tude"), "valid", reqs=["AEF-4-002"], working="strings are any Unicode text")
add("urn-source", "A source URI with a non-web scheme (urn:).", mutate(BASE, "source/uri", "urn:isbn:0451450523"), "valid",
    reqs=["AEF-4-002"], flags=["uri"], working="AEF-4-002: source.uri is an RFC 3986 URI with a scheme; web URLs are needed only at Level 2")
add("empty-notes", "An empty notes string.", mutate(BASE, "notes", ""), "valid", reqs=["AEF-4-002"],
    working="notes is a string; no minimum length")
add("confidence-bounds-0", "Confidence 0.", mutate(BASE, "retrieval/confidence", 0), "valid", reqs=["AEF-4-002"],
    working="0 <= confidence <= 1")
add("confidence-bounds-1", "Confidence 1.0.", mutate(BASE, "retrieval/confidence", 1.0), "valid", reqs=["AEF-4-002"],
    working="0 <= confidence <= 1 (a number, not an integer member)")
add("rank-max-safe", "rank 2^53-1, the largest integer of profile JSON-003.", mutate(BASE, "retrieval/rank", 9007199254740991),
    "valid", reqs=["AEF-4-002", "JSON-003"], working="integers range 0..2^53-1; rank >= 1")
add("freshness-zero", "freshness_age_seconds 0.", mutate(BASE, "retrieval/freshness_age_seconds", 0), "valid",
    reqs=["AEF-4-002", "JSON-003"], working="integer >= 0")
for name, value in [("fraction", "2026-05-12T03:45:00.123456789Z"), ("offset", "2026-05-12T09:15:00+05:30"),
                    ("minus-zero-offset", "2026-05-12T03:45:00-00:00"), ("leap-day", "2028-02-29T00:00:00Z")]:
    add(f"timestamp-{name}", f"fetched_at {value} is a valid timestamp.", mutate(BASE, "source/fetched_at", value),
        "valid", reqs=["JSON-005", "AEF-4-002"], flags=["timestamp"], working=f"profile JSON-005 allows {value}")
for name, value in [("lowercase-t", "2026-05-12t03:45:00Z"), ("lowercase-z", "2026-05-12T03:45:00z"),
                    ("leap-second", "2016-12-31T23:59:60Z"), ("fraction-10-digits", "2026-05-12T03:45:00.1234567890Z")]:
    add(f"timestamp-rfc3339-{name}", f"fetched_at {value}: RFC 3339 allows it, so AEF does (published schema).",
        mutate(BASE, "source/fetched_at", value), "valid", reqs=["JSON-005", "AEF-4-002"], flags=["timestamp"],
        working="RFC 3339 §5.6 ABNF (T/Z case-insensitive, time-second up to 60, secfrac 1*DIGIT); profile JSON-005 "
                "exception: AEF accepts every date-time the published schema accepts")
add("exact-text-absent", "text_quote without exact_text: the quote is the selector value (SHOULD record exact_text).",
    mutate(BASE, "span/exact_text", delete=True), "valid", reqs=["AEF-4-002", "AEF-4-005", "AEF-SEL-002"],
    flags=["should-warning"], working="exact_text is optional (§4.5); AEF-4-005 is a SHOULD")
add("none-with-value", "Selector none with a selector_value: ignored (SHOULD be absent).",
    mutate(BASE, "span", {"selector_type": "none", "selector_value": "anything"}), "valid",
    reqs=["AEF-4-002", "AEF-4-006"], flags=["should-warning"], working="AEF-4-006 is a SHOULD; the value is ignored")
add("published-after-fetched", "published_at later than fetched_at (SHOULD NOT).",
    mutate(BASE, "source/published_at", "2026-06-01T00:00:00Z"), "valid", reqs=["AEF-4-002", "AEF-4-004"],
    flags=["should-warning"], working="AEF-4-004 is a SHOULD")

for value in ["document", "webpage", "api_response", "knowledge_graph", "aeo_declaration", "dataset", "database_row"]:
    add(f"source-type-{value.replace('_', '-')}", f"source.type `{value}` (spec value).", mutate(BASE, "source/type", value),
        "valid", reqs=["AEF-VOC-001"], flags=["spec-vocabulary"], working=f"{SPEC} §4.4 lists `{value}`")
for value in ["vector", "keyword", "graph", "hybrid", "direct_fetch", "model_recall"]:
    add(f"method-{value.replace('_', '-')}", f"retrieval.method `{value}` (spec value).", mutate(BASE, "retrieval/method", value),
        "valid", reqs=["AEF-VOC-001"], flags=["spec-vocabulary"], working=f"{SPEC} §4.6 lists `{value}`")
for value in ["supporting", "contradicting", "partial", "background"]:
    add(f"role-{value}", f"synthesis_role `{value}`.", mutate(BASE, "synthesis_role", value), "valid",
        reqs=["AEF-VOC-001"], flags=["spec-vocabulary"], working=f"{SPEC} §3.3, §4.8 list `{value}`")

# Each selector type with a well-formed value and, where Level 2 has a syntax rule to break, a
# malformed one: (selector_type, case name, value, malformed case name, malformed value).
SELECTORS = [
    ("byte_range", "byte-range", "1024-2048", "byte-range-reversed", "2048-1024"),
    ("line_range", "line-range", "3-5", None, None),
    ("paragraph_index", "paragraph-index", "0", "paragraph-fraction", "1.5"),
    ("css", "css", "article > p.lead", "css-pseudo-element", "p::before"),
    ("xpath", "xpath", "/html/body/p[2]", "xpath-variable", "//p[$n]"),
    ("text_quote", "text-quote-equal", QUOTE, "text-quote-empty", ""),
]
for stype, name, value, _, _ in SELECTORS:
    span = {"selector_type": stype, "selector_value": value}
    if stype == "text_quote":
        span["exact_text"] = QUOTE
    add(f"selector-{name}", f"{stype} selector `{value}`.", mutate(BASE, "span", span), "valid",
        reqs=["AEF-4-002", "AEF-VOC-001"], flags=["spec-vocabulary"], working=f"{SPEC} §4.5: {stype} with a string value")

# Selector syntax (AEF-SEL-001 to -003) is a Level 2 rule: at Level 1 any string is a selector_value.
for stype, _, _, name, value in SELECTORS:
    if name is None:
        continue
    add(f"level1-ignores-selector-{name}", f"{stype} value `{value}` is malformed, but selector syntax is checked at Level 2.",
        mutate(BASE, "span", {"selector_type": stype, "selector_value": value}), "valid",
        reqs=["AEF-4-002", "JSON-003"], flags=["selector-syntax"],
        working="profile AEF-SEL-001..003 are Level 2; evidence.schema.json accepts any string and JSON-003 forbids narrowing it")
add("level1-ignores-text-quote-not-prefix", "text_quote whose selector_value is not a prefix of exact_text: a Level 2 matter.",
    mutate(BASE, "span/selector_value", "pillars"), "valid", reqs=["AEF-4-002", "JSON-003"], flags=["selector-syntax"],
    working="profile AEF-SEL-002 is Level 2; both members are strings, which is all Level 1 checks")

# ---- landing-page vocabulary: not the published schema, so not Level 1 ---------------------
# AEF-VOC-001: Level 1 is the published schema, neither narrowed nor widened; the landing page's
# values are not in its enums. (A verifier may offer a lenient mode outside conformance levels.)
V = ["aef-vocabulary-invalid"]
for value in ["api", "book", "paper"]:
    add(f"landing-source-type-{value}", f"source.type `{value}`: landing page only, not in the schema enum.",
        mutate(BASE, "source/type", value), "invalid", V, reqs=["AEF-VOC-001"], flags=["landing-page-vocabulary"],
        working="evidence.schema.json source.type enum has no `%s`; PROFILE AEF-VOC-001: not Level 1" % value)
for value in ["semantic", "direct"]:
    add(f"landing-method-{value}", f"retrieval.method `{value}`: landing page only, not in the schema enum.",
        mutate(BASE, "retrieval/method", value), "invalid", V, reqs=["AEF-VOC-001"], flags=["landing-page-vocabulary"],
        working="evidence.schema.json retrieval.method enum has no `%s`; PROFILE AEF-VOC-001: not Level 1" % value)
for name, stype, value in [
    ("css-selector", "css_selector", "article > p.lead"),
    ("page-range", "page_range", "1-3"),
    ("fragment-char", "fragment_identifier", "char=5,10"),
    ("fragment-text", "fragment_identifier", ":~:text=three%20pillars"),
]:
    add(f"landing-selector-{name}", f"selector_type `{stype}` (landing page only) with value `{value}`: not in the schema enum.",
        mutate(BASE, "span", {"selector_type": stype, "selector_value": value, "exact_text": "three pillars"}), "invalid", V,
        reqs=["AEF-VOC-001"], flags=["landing-page-vocabulary"],
        working="evidence.schema.json span.selector_type enum has no `%s`; PROFILE AEF-VOC-001: not Level 1" % stype)

# ---- SHOULD rules: valid, with exactly their warning (warnings never lower a level) ------------
add("should-published-after-fetched", "published_at is a day after fetched_at.",
    mutate(BASE, "source/published_at", "2026-05-13T03:45:00Z"), "valid", warnings=["aef-published-after-fetched"],
    reqs=["AEF-4-004"], working="PROFILE AEF-4-004: 2026-05-13T03:45:00Z is later than fetched_at 2026-05-12T03:45:00Z: a warning, never an error")
add("should-published-equals-fetched", "published_at equal to fetched_at: no warning.",
    mutate(BASE, "source/published_at", "2026-05-12T03:45:00Z"), "valid", warnings=[],
    reqs=["AEF-4-004"], working="PROFILE AEF-4-004: equal instants are not later: no warning")
add("should-published-same-instant-other-offset", "published_at 05:45+02:00 is the instant of fetched_at 03:45Z: no warning.",
    mutate(BASE, "source/published_at", "2026-05-12T05:45:00+02:00"), "valid", warnings=[],
    reqs=["AEF-4-004"], working="RFC 3339 §5.6: 05:45:00+02:00 = 03:45:00Z, so not later than fetched_at")
# A leap second (AEF accepts what RFC 3339 accepts, JSON-005's exception) compares as an
# instant too: 23:59:60Z is later than 23:59:58Z of the same day in any reading of the leap.
leap = mutate(mutate(BASE, "source/published_at", "2016-12-31T23:59:60Z"), "source/fetched_at", "2016-12-31T23:59:58Z")
add("should-published-leap-second-after-fetched", "published_at is the leap second 2016-12-31T23:59:60Z, fetched_at two seconds earlier.",
    leap, "valid", warnings=["aef-published-after-fetched"], reqs=["AEF-4-004", "JSON-005"],
    working="RFC 3339 §5.6-5.7: 23:59:60Z is the leap second at the end of 2016-12-31 (UTC), after 23:59:58Z: a warning")
leap_offset = mutate(mutate(BASE, "source/published_at", "2017-01-01T00:59:60+01:00"), "source/fetched_at", "2016-12-31T23:59:58Z")
add("should-published-leap-second-offset-after-fetched", "published_at is the same leap second written at +01:00 (00:59:60+01:00).",
    leap_offset, "valid", warnings=["aef-published-after-fetched"], reqs=["AEF-4-004", "JSON-005"],
    working="RFC 3339 §5.7: a leap second is 23:59:60 in UTC; 00:59:60+01:00 is that second; later than 23:59:58Z: a warning")
add("should-exact-text-missing", "A css selector without exact_text.",
    mutate(BASE, "span", {"selector_type": "css", "selector_value": "article > p"}), "valid", warnings=["aef-exact-text-missing"],
    reqs=["AEF-4-005"], working="PROFILE AEF-4-005: selector_type is not none and exact_text is absent: a warning")
add("should-exact-text-missing-none", "selector_type none without exact_text: no warning.",
    MINIMAL, "valid", warnings=[],
    reqs=["AEF-4-005", "AEF-4-006"], working="PROFILE AEF-4-005 applies only when selector_type is not none")
add("should-selector-value-ignored", "selector_type none with a selector_value.",
    mutate(MINIMAL, "span", {"selector_type": "none", "selector_value": "whole document"}), "valid",
    warnings=["aef-selector-value-ignored"], reqs=["AEF-4-006"],
    working="PROFILE AEF-4-006: with none the selector_value SHOULD be absent; present, it is ignored with a warning")

# ---- invalid: version -----------------------------------------------------------------------
for name, value in [("0-2", "0.2"), ("0-1-0", "0.1.0"), ("1-0", "1.0"), ("number", 0.1), ("empty", "")]:
    add(f"version-{name}", f"evidence_version {json.dumps(value)} is not the string \"0.1\".",
        mutate(BASE, "evidence_version", value), "invalid", ["aef-version-unsupported"], reqs=["AEF-4-001"],
        working=f"{SPEC} §4.1: MUST be \"0.1\"; PROFILE reporting rule 2: the specific code")

# ---- invalid: missing members ---------------------------------------------------------------
for path in ["evidence_version", "evidence_id", "claim_text", "source", "span", "retrieval", "verification",
             "synthesis_role", "source/uri", "source/type", "source/fetched_at", "span/selector_type",
             "retrieval/method", "verification/content_hash"]:
    code = "schema-violation"
    add(f"missing-{path.replace('/', '-').replace('_', '-')}", f"`{path}` is absent.", mutate(BASE, path, delete=True),
        "invalid", [code], reqs=["AEF-4-002"], flags=["missing-member"], working=f"{SPEC} §4: `{path}` is required")
add("missing-selector-value", "text_quote without selector_value.", mutate(BASE, "span/selector_value", delete=True),
    "invalid", ["schema-violation"], reqs=["AEF-4-002"], flags=["missing-member"],
    working=f"{SPEC} §4.5: selector_value required when selector_type is not none")
add("missing-selector-value-byte-range", "byte_range without selector_value.",
    mutate(BASE, "span", {"selector_type": "byte_range"}), "invalid", ["schema-violation"], reqs=["AEF-4-002"],
    flags=["missing-member"], working=f"{SPEC} §4.5: selector_value required when selector_type is not none")

# ---- invalid: types and ranges --------------------------------------------------------------
TYPES = [
    ("evidence-id-empty", "evidence_id", "", "non-empty string"),
    ("evidence-id-number", "evidence_id", 5, "a string"),
    ("claim-text-empty", "claim_text", "", "non-empty string"),
    ("claim-text-null", "claim_text", None, "a string (null is never 'absent')"),
    ("source-array", "source", [], "an object"),
    ("span-string", "span", "1-2", "an object"),
    ("title-number", "source/title", 5, "a string"),
    ("title-null", "source/title", None, "a string; null is not allowed for optional members"),
    ("publisher-bool", "source/publisher", True, "a string"),
    ("exact-text-number", "span/exact_text", 1, "a string"),
    ("context-array", "span/surrounding_context", ["a"], "a string"),
    ("confidence-string", "retrieval/confidence", "high", "a number"),
    ("confidence-above-1", "retrieval/confidence", 1.5, "at most 1"),
    ("confidence-negative", "retrieval/confidence", -0.1, "at least 0"),
    ("rank-zero", "retrieval/rank", 0, "at least 1"),
    ("rank-negative", "retrieval/rank", -3, "at least 1"),
    ("rank-fraction", "retrieval/rank", 1.5, "an integer"),
    ("rank-string", "retrieval/rank", "1", "an integer"),
    ("freshness-negative", "retrieval/freshness_age_seconds", -1, "at least 0"),
    ("retriever-id-number", "retrieval/retriever_id", 7, "a string"),
    ("signature-number", "verification/signature", 1, "a string"),
    ("signed-by-object", "verification/signed_by", {}, "a string"),
    ("notes-number", "notes", 42, "a string"),
]
for name, path, value, working in TYPES:
    add(f"type-{name}", f"`{path}` = {json.dumps(value)}: must be {working}.", mutate(BASE, path, value), "invalid",
        ["schema-violation"], reqs=["AEF-4-002", "JSON-003"], flags=["wrong-type"],
        working=f"{SPEC} §4 / profile AEF-4-002: `{path}` must be {working}")
# integer members written with a fraction or an exponent (raw text: json.dumps would normalize)
for name, member, text in [("rank-1-0", "rank", "1.0"), ("rank-1e0", "rank", "1e0"), ("freshness-90-0", "freshness_age_seconds", "90.0"),
                           ("freshness-9e1", "freshness_age_seconds", "9E1")]:
    raw = doc_text(BASE).replace(f'"{member}": {BASE["retrieval"][member]}', f'"{member}": {text}')
    assert text in raw
    add(f"integer-form-{name}", f"`retrieval.{member}` written `{text}` is an integer for AEF (JSON Schema meaning).", None,
        "valid", reqs=["JSON-003", "AEF-4-002"], flags=["integer-form"], raw=raw,
        working="profile JSON-003 exception: AEF follows its published schema, where 1.0 and 1e0 are integers")
add("rank-2-pow-53", "rank 2^53: AEF integers have no upper bound.", mutate(BASE, "retrieval/rank", 9007199254740992), "valid",
    reqs=["JSON-003", "AEF-4-002"], flags=["integer-form"],
    working="profile JSON-003 exception: no upper bound for AEF integers (the value is exactly a double)")
add("top-level-array", "The document is an array, not an object.", None, "invalid", ["schema-violation"],
    reqs=["JSON-003", "AEF-4-002"], flags=["wrong-type"], raw="[" + doc_text(BASE) + "]",
    working="profile JSON-001/JSON-003: the top-level value is an object")
add("top-level-string", "The document is a JSON string.", None, "invalid", ["schema-violation"],
    reqs=["JSON-003", "AEF-4-002"], flags=["wrong-type"], raw='"evidence"', working="the top-level value is an object")

# ---- invalid: unknown members (x- included) ---------------------------------------------------
for name, path in [("top-level", "foo"), ("x-extension", "x-vendor"), ("json-ld-context", "@context"),
                   ("source", "source/language"), ("span", "span/start"), ("retrieval", "retrieval/score"),
                   ("verification", "verification/algorithm"), ("x-in-source", "source/x-note")]:
    add(f"unknown-member-{name}", f"Unknown member `{path}`.", mutate(BASE, path, "v"), "invalid", ["unknown-member"],
        reqs=["AEF-4-003", "JSON-004"], flags=["unknown-member"],
        working="evidence.schema.json additionalProperties false at every level; profile AEF-4-003: no x- members either")

# ---- invalid: vocabulary --------------------------------------------------------------------
for name, path, value in [("source-type", "source/type", "blog"), ("source-type-case", "source/type", "Document"),
                          ("source-type-empty", "source/type", ""), ("selector-type", "span/selector_type", "regex"),
                          ("method", "retrieval/method", "bm25"), ("method-case", "retrieval/method", "Hybrid"),
                          ("role", "synthesis_role", "neutral"), ("role-case", "synthesis_role", "Supporting"),
                          ("role-landing-like", "synthesis_role", "direct")]:
    add(f"vocabulary-{name}", f"`{path}` = `{value}` is in neither vocabulary.", mutate(BASE, path, value), "invalid",
        ["aef-vocabulary-invalid"], reqs=["AEF-VOC-001"], flags=["vocabulary"],
        working="profile AEF-VOC-001: spec or landing-page values only, case-sensitive; synthesis_role has no landing-page values")

# ---- invalid: timestamps --------------------------------------------------------------------
INVALID_TIMESTAMPS = {
    "source/fetched_at": [
        ("date-only", "2026-05-12"),
        ("no-offset", "2026-05-12T03:45:00"),
        ("space-separator", "2026-05-12 03:45:00Z"),
        ("no-seconds", "2026-05-12T03:45Z"),
        ("feb-30", "2026-02-30T00:00:00Z"),
        ("offset-no-colon", "2026-05-12T03:45:00+0530"),
        ("hour-24", "2026-05-12T24:00:00Z"),
    ],
    "source/published_at": [("published-words", "yesterday"), ("published-unix", "1778557500")],
}
for path, rows in INVALID_TIMESTAMPS.items():
    for name, value in rows:
        add(f"timestamp-{name}", f"`{path}` = `{value}` is not a profile timestamp.", mutate(BASE, path, value), "invalid",
            ["schema-timestamp-invalid"], reqs=["JSON-005", "AEF-4-002"], flags=["timestamp"],
            working="RFC 3339 §5.6 ABNF: full-date T full-time with seconds, HH:MM offset, a valid date and time")

# ---- a wrong JSON type where a string with a specific code is expected ----------------------
# Reporting rule 2 names the specific code for a string that is not a timestamp or not a value of
# the vocabulary; a number is not such a string, so the generic code stays (as for every spec's
# timestamps: profile JSON-005 and the members reader). A content hash is the exception:
# CANON-002's code whatever the type (`content-hash-number` below).
for name, path, value, why in [
    ("fetched-at-number", "source/fetched_at", 1778557500, "a number where an RFC 3339 string is required"),
    ("source-type-number", "source/type", 5, "a number where a vocabulary string is required"),
]:
    add(f"type-{name}", f"`{path}` = {value}: {why}.", mutate(BASE, path, value), "invalid", ["schema-violation"],
        reqs=["AEF-4-002", "AEF-VOC-001"] if "type" in path else ["AEF-4-002", "JSON-005"], flags=["wrong-type"],
        working="evidence.schema.json: the member's `type` is string; reporting rule 2 has no specific code for a "
                "wrong JSON type there, so the schema's generic code is reported")

# Faults with different codes in one document: each is reported with its own code (a specific
# code does not hide the others).
d = mutate(BASE, "source/x-note", "v")
del d["source"]["uri"]
add("source-unknown-and-missing-member", "source has an unknown member and lacks `uri`.", d, "invalid",
    ["unknown-member", "schema-violation"], reqs=["AEF-4-003", "AEF-4-002", "JSON-004"], flags=["unknown-member"],
    working="evidence.schema.json: Source has additionalProperties false (unknown-member, AEF-4-003) and requires uri "
            "(schema-violation): two violations at /source, two codes")
d = mutate(BASE, "verification/content_hash", "sha256:" + "A" * 64)
d["x-note"] = "v"
add("content-hash-and-unknown-member", "content_hash in capitals and an unknown top-level member.", d, "invalid",
    ["canon-hash-syntax", "unknown-member"], reqs=["CANON-002", "AEF-4-003", "JSON-004"], flags=["content-hash", "unknown-member"],
    working="pattern ^sha256:[a-f0-9]{64}$ fails (CANON-002's code) and the root has additionalProperties false "
            "(unknown-member): two violations at two places, two codes")

# ---- timestamps on both sides of the calendar and offset boundaries (JSON-005) ----------------
# A value just inside a boundary is valid; one just outside is invalid.
for name, value, edge, side, working in [
    ("feb-29-400-year", "2000-02-29T00:00:00Z", "leap-year", "inside",
     "2000 is divisible by 400: a Gregorian leap year (RFC 3339 Appendix C)"),
    ("feb-29-century", "2100-02-29T00:00:00Z", "leap-year", "outside",
     "2100 is divisible by 100 and not by 400: not a leap year, February has 28 days (RFC 3339 Appendix C)"),
    ("feb-29-common-year", "2026-02-29T00:00:00Z", "leap-year", "outside", "2026 is not divisible by 4: February has 28 days"),
    ("apr-30", "2026-04-30T00:00:00Z", "days-in-month", "inside", "April has 30 days"),
    ("apr-31", "2026-04-31T00:00:00Z", "days-in-month", "outside", "April has 30 days: day 31 does not exist"),
    ("dec-31", "2026-12-31T23:59:59Z", "days-in-month", "inside", "December has 31 days; 23:59:59 is the last second"),
    ("offset-23-59", "2026-05-12T03:45:00+23:59", "offset-range", "inside",
     "RFC 3339 time-numoffset = ('+' / '-') time-hour ':' time-minute; time-hour 00-23, time-minute 00-59"),
    ("offset-24-00", "2026-05-12T03:45:00+24:00", "offset-range", "outside", "time-hour is 00-23: an offset of 24 hours is not RFC 3339"),
    ("offset-minute-60", "2026-05-12T03:45:00-05:60", "offset-range", "outside", "time-minute is 00-59"),
]:
    result = "valid" if side == "inside" else "invalid"
    add(f"timestamp-{name}", f"fetched_at {value}.", mutate(BASE, "source/fetched_at", value), result,
        ["schema-timestamp-invalid"] if result == "invalid" else (), reqs=["JSON-005", "AEF-4-002"],
        flags=["timestamp", boundary(edge, side)], working=working)

# ---- invalid: content hash syntax -----------------------------------------------------------
H = BASE["verification"]["content_hash"][7:]
for name, value in [("uppercase-hex", "sha256:" + H.upper()), ("sha512", "sha512:" + H), ("prefix-uppercase", "SHA256:" + H),
                    ("prefix-dash", "sha-256:" + H), ("no-prefix", H), ("63-digits", "sha256:" + H[:63]),
                    ("65-digits", "sha256:" + H + "0"), ("non-hex", "sha256:" + "g" * 64), ("trailing-space", "sha256:" + H + " "),
                    ("empty", ""), ("number", 1)]:
    add(f"content-hash-{name}", f"content_hash `{str(value)[:24]}...` is not the string sha256:<64 lowercase hex>.",
        mutate(BASE, "verification/content_hash", value), "invalid", ["canon-hash-syntax"],
        reqs=["CANON-002", "AEF-4-002"], flags=["content-hash"],
        working="evidence.schema.json pattern ^sha256:[a-f0-9]{64}$; profile CANON-002 (a content hash is that string) "
                "and reporting rule 2 (the specific code, also for a value of the wrong type)")

# ---- invalid: URIs --------------------------------------------------------------------------
for name, path, value in [("source-no-scheme", "source/uri", "example.com/page"), ("source-relative", "source/uri", "/spec.md"),
                          ("source-empty", "source/uri", ""), ("source-space", "source/uri", "https://exa mple.com/"),
                          ("signing-key-relative", "verification/signing_key_uri", "keys.json")]:
    add(f"uri-{name}", f"`{path}` = `{value}` is not an RFC 3986 URI with a scheme.", mutate(BASE, path, value), "invalid",
        ["schema-violation"], reqs=["AEF-4-002"], flags=["uri"],
        working="evidence.schema.json format uri; profile AEF-4-002: RFC 3986 URI with a scheme")

# ---- invalid: JSON input --------------------------------------------------------------------
text = doc_text(BASE)
add("json-duplicate-member", "`claim_text` appears twice.", None, "invalid", ["json-duplicate-member"], reqs=["JSON-002"],
    flags=["json-input"], raw=text.replace('"claim_text":', '"claim_text": "first",\n  "claim_text":', 1),
    working="profile JSON-002: duplicate names are rejected")
add("json-duplicate-nested", "`source.type` appears twice with the same value.", None, "invalid", ["json-duplicate-member"],
    reqs=["JSON-002"], flags=["json-input"], raw=text.replace('"type": "document",', '"type": "document",\n    "type": "document",', 1),
    working="profile JSON-002: duplicate names are rejected even with equal values")
add("json-bom", "A byte order mark before the document.", None, "invalid", ["json-syntax"], reqs=["JSON-001"],
    flags=["json-input"], raw="\ufeff" + text, working="profile JSON-001: no BOM")
add("json-trailing-comma", "A trailing comma after the last member.", None, "invalid", ["json-syntax"], reqs=["JSON-001"],
    flags=["json-input"], raw=text[:text.rindex("}")].rstrip() + ",\n}", working="RFC 8259 grammar")
add("json-lone-surrogate", "claim_text holds a lone surrogate escape.", None, "invalid", ["json-lone-surrogate"],
    reqs=["JSON-002"], flags=["json-input"], raw=text.replace("three pillars: Declare", "three \\ud800pillars: Declare", 1),
    working="profile JSON-002: unpaired surrogate escapes are rejected")
add("json-noncharacter", "claim_text holds the noncharacter U+FDD0.", None, "invalid", ["json-noncharacter"],
    reqs=["JSON-002"], flags=["json-input"], raw=text.replace("three pillars: Declare", "three \\ufdd0pillars: Declare", 1),
    working="profile JSON-002: noncharacters are rejected")
add("json-number-overflow", "confidence 1e400 is not a finite double.", None, "invalid", ["json-number-out-of-range"],
    reqs=["JSON-002"], flags=["json-input"], raw=text.replace('"confidence": 0.93', '"confidence": 1e400', 1),
    working="profile JSON-002: overflow to infinity is rejected")

if __name__ == "__main__":
    write("aef/level1/validate.json", "aef", "aef-validate",
          "AI Evidence Format v0.1 Level 1 (Attach): schema validity and vocabulary of one evidence object "
          "given as raw JSON text.",
          cases, FLAGS,
          attribution="Case aef-validate-landing-page-example reproduces the example of the AI Evidence Format "
                      "landing page (seed 001, mizcausevic-dev, AGPL-3.0 for the document). Other cases: citeproof, "
                      "Apache-2.0 OR MIT.")
