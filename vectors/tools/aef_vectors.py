#!/usr/bin/env python3
"""Generates the AEF Level 2 and Level 3 conformance vectors:

    vectors/aef/level2/verify-span.json   aef-verify-span  (AEF-SEL-*, AEF-L2-002..009, AEF-5-001/002)
    vectors/aef/level2/verify.json        aef-verify       (AEF-L2-001, fetching, levels 1-2)
    vectors/aef/level3/jws-sign.json      aef-jws-sign     (AEF-5-003, detached EdDSA JWS)
    vectors/aef/level3/jws-verify.json    aef-jws-verify   (AEF-L3-001..005, SIG-*)
    vectors/aef/level3/verify.json        aef-verify       (AEF-L3-004 with fetched keys, levels)

Run: python3 vectors/tools/aef_vectors.py   (standard library + `cryptography`)

Nothing here imports or runs citeproof. Span texts and AEF §5 hashes come from the independent
implementation in aef_independent.py (html.parser, xml.etree, hashlib) over the fixtures in
vectors/fixtures/aef/ (the case list is shared with their expected.py);
signatures are made with pyca/cryptography's Ed25519 (deterministic, RFC 8032) over a payload
canonicalized by aef_independent.jcs; error codes are read off docs/PROFILE.md, the rule named
in each case's derivation.
"""

import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(REPO, "vectors", "fixtures", "aef")
sys.path.insert(0, FIXTURES)

import aef_independent as ind  # noqa: E402
import expected as fixture_cases  # noqa: E402
from vectorlib import b64, boundary, case, derivation, write  # noqa: E402

from cryptography.hazmat.primitives import serialization as ser  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

EMPTY_HASH = ind.aef_hash(b"")

FLAGS = {
    "fixture": "The source is a document committed under vectors/fixtures/aef/.",
    "selector-syntax": "The selector value's syntax (AEF-SEL-*), checked when the span is resolved (Level 2).",
    "landing-page-vocabulary": "Uses a selector type only the landing page (seed 001) has.",
    "hash": "The declared content_hash or exact_text does not match the resolved span.",
    "media-type": "The selector/media-type table of AEF-L2-002, or how the media type is read.",
    "fetch": "How the source or key is fetched (AEF-L2-001, AEF-L3-004, FETCH-*).",
    "jws-structure": "The compact detached JWS and its protected header (AEF-L3-002, AEF-L3-003).",
    "jwk": "The key document: JWK / JWK Set checks (SIG-004, SIG-005).",
    "key-selection": "Which key of the key document verifies the JWS (AEF-L3-004).",
    "canonical-form": "What the signature covers: the JCS form without signature and signing_key_uri (AEF-5-003, SIG-001).",
    "spec-example": "The canonical example of the AEF landing page, verbatim.",
    "levels": "Which conformance level is achieved when a higher level fails.",
    "trust": "Whether the key that verifies is one the verifier was configured to trust (AEF-L3-006).",
    "bounds": "A resource bound of the verifier that decides the verdict (AEF-L2-007).",
    "redaction": "A redacted exact_text (AEF §7 PII redaction), checked as a pattern (AEF-5-002, AEF-L2-006).",
}

LANDING = {"css_selector", "fragment_identifier", "page_range"}

RULE_OF = {
    "none": "AEF-L2-003", "byte_range": "AEF-L2-003", "line_range": "AEF-L2-004",
    "paragraph_index": "AEF-L2-005", "text_quote": "AEF-L2-006", "css": "AEF-L2-007",
    "css_selector": "AEF-L2-007", "xpath": "AEF-L2-007", "fragment_identifier": "AEF-L2-008",
    "page_range": "AEF-L2-009",
}
SYNTAX_RULE = {
    "byte_range": "AEF-SEL-001", "line_range": "AEF-SEL-001", "page_range": "AEF-SEL-001",
    "paragraph_index": "AEF-SEL-001", "text_quote": "AEF-SEL-002", "css": "AEF-SEL-002",
    "css_selector": "AEF-SEL-002", "xpath": "AEF-SEL-002", "fragment_identifier": "AEF-SEL-003",
}


def read_fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def evidence(span, content_hash, uri="https://example.com/source", claim="A claim the span supports."):
    return {
        "evidence_version": "0.1",
        "evidence_id": "ev-vector",
        "claim_text": claim,
        "source": {"uri": uri, "type": "webpage", "fetched_at": "2026-05-12T03:45:00Z"},
        "span": span,
        "retrieval": {"method": "direct_fetch"},
        "verification": {"content_hash": content_hash},
        "synthesis_role": "supporting",
    }


def slug(name):
    return "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-").replace("--", "-")


# ---------------------------------------------------------------------------------------------
# level2/verify-span.json


def span_cases():
    out = []
    for c in fixture_cases.cases():
        sp = copy.deepcopy(c["span"])
        st = sp["selector_type"]
        if st in LANDING:
            # Landing-page selector types are not AEF v0.1 selectors (AEF-VOC-001); their
            # resolution in citeproof's lenient mode is tested against the same fixtures by
            # crates/citeproof-span/tests/fixtures.rs, not by the conformance suite.
            continue
        exp = c["expect"]
        flags = ["fixture"]
        reqs = []
        if st in LANDING:
            reqs.append("AEF-VOC-003")
            flags.append("landing-page-vocabulary")
        source = {"media_type": c["media_type"], "body_base64": b64(read_fixture(c["file"]))}
        if "error" in exp:
            code = exp["error"]
            if code == "aef-selector-invalid":
                rule = "AEF-L2-007" if c["name"] == "xml-xpath-number" else SYNTAX_RULE[st]
                if rule != "AEF-L2-007":
                    flags.append("selector-syntax")
            elif code == "aef-selector-unsupported-media":
                rule = "AEF-L2-002"
                flags.append("media-type")
            elif code == "canon-text-not-utf8":
                rule = RULE_OF[st]
                reqs.append("CANON-003")
            else:
                rule = RULE_OF[st]
            reqs.insert(0, rule)
            out.append(case(
                f"aef-span-{slug(c['name'])}",
                f"{c['file']} as {c['media_type']}, {st} {json.dumps(sp.get('selector_value', ''))}: {code}.",
                reqs, 2, {"evidence": evidence(sp, EMPTY_HASH), "source": source}, "invalid", [code],
                derivation_=derivation("hand", f"docs/PROFILE.md {rule}: {exp['why']}"), flags=flags))
        else:
            if st != "text_quote" and "exact_text" not in sp:
                sp["exact_text"] = exp["exact_text"]
            reqs = [RULE_OF[st], "AEF-5-001", "AEF-5-002"] + reqs
            if st in SYNTAX_RULE:
                reqs.append(SYNTAX_RULE[st])
            out.append(case(
                f"aef-span-{slug(c['name'])}",
                f"{c['file']} as {c['media_type']}, {st} {json.dumps(sp.get('selector_value', ''))}: resolves, hash reproduced.",
                reqs, 2, {"evidence": evidence(sp, exp["content_hash"]), "source": source}, "valid",
                output={"exact_text": exp["exact_text"], "content_hash": exp["content_hash"]},
                derivation_=derivation("independent-tool",
                                       "vectors/tools/aef_independent.py (Python html.parser / xml.etree / str, "
                                       f"hashlib) via the fixtures' expected.py: {exp['why']}"),
                flags=flags))
    return out


def syntax_cases():
    """AEF-SEL-001..003 failures (and edge cases that are valid syntax), over small sources."""
    text = b"line one\nline two\nline three\n"
    html = b"<!doctype html><title>t</title><p class=x>alpha beta</p><p>gamma</p>"
    xml = b"<a><b>x</b></a>"
    srcs = {"text": ("text/plain", text), "html": ("text/html", html), "xml": ("application/xml", xml),
            "pdf": ("application/pdf", read_fixture("report.pdf"))}
    bad = [
        ("byte-range-reversed", "byte_range", "20-10", "text", "start < end"),
        ("byte-range-empty", "byte_range", "10-10", "text", "start < end: a byte range is half-open"),
        ("byte-range-leading-zero", "byte_range", "01-5", "text", "no leading zeros"),
        ("byte-range-sign", "byte_range", "+1-5", "text", "no sign"),
        ("byte-range-negative", "byte_range", "-5-10", "text", "no sign"),
        ("byte-range-one-number", "byte_range", "10", "text", "start-end"),
        ("byte-range-open", "byte_range", "10-", "text", "start-end"),
        ("byte-range-spaces", "byte_range", "1 - 5", "text", "no spaces"),
        ("byte-range-hex", "byte_range", "0x1-0x5", "text", "decimal numbers"),
        ("byte-range-too-large", "byte_range", "9007199254740992-9007199254740993", "text", "numbers are at most 2^53-1"),
        ("line-range-zero", "line_range", "0-2", "text", "lines are 1-based"),
        ("line-range-reversed", "line_range", "3-2", "text", "start <= end"),
        ("page-range-zero", "page_range", "0-1", "pdf", "pages are 1-based"),
        ("page-range-reversed", "page_range", "3-2", "pdf", "start <= end"),
        ("page-range-one-number", "page_range", "2", "pdf", "start-end"),
        ("paragraph-negative", "paragraph_index", "-1", "text", "no sign"),
        ("paragraph-leading-zero", "paragraph_index", "01", "text", "no leading zeros"),
        ("paragraph-fraction", "paragraph_index", "1.5", "text", "one decimal integer"),
        ("paragraph-empty", "paragraph_index", "", "text", "one decimal integer"),
        ("text-quote-empty", "text_quote", "", "text", "selector_value is not empty"),
        ("css-unclosed", "css", "p[class", "html", "a Selectors Level 3 selector list"),
        ("css-empty", "css", "", "html", "a Selectors Level 3 selector list"),
        ("css-dangling-combinator", "css", "p >", "html", "a Selectors Level 3 selector list"),
        ("css-pseudo-element", "css", "p::before", "html", "no pseudo-elements"),
        ("css-css2-pseudo-element", "css", "p:first-letter", "html", "CSS2 pseudo-elements are pseudo-elements"),
        ("css-level4-is", "css", "p:is(.x)", "html", ":is() is Selectors Level 4"),
        ("css-complex-not", "css", "p:not(div p)", "html", ":not() takes one simple selector in Level 3"),
        ("css-dynamic", "css", "a:visited", "html", "only structural pseudo-classes"),
        ("css-lang", "css", "p:lang(en)", "html", "only structural pseudo-classes"),
        ("css-namespace-prefix", "css", "svg|rect", "html", "no declared namespace prefixes"),
        ("css-attribute-flag", "css", "[class=x i]", "html", "attribute flags are Selectors Level 4"),
        ("css-selector-unclosed", "css_selector", "p[", "html", "css_selector has css syntax"),
        ("xpath-unclosed", "xpath", "//b[", "xml", "an XPath 1.0 expression"),
        ("xpath-variable", "xpath", "//b[. = $v]", "xml", "no variables"),
        ("xpath-unknown-function", "xpath", "//b[matches(., 'x')]", "xml", "only core-library functions"),
        ("xpath-arity", "xpath", "//b[contains(.)]", "xml", "core functions with their numbers of arguments"),
        ("xpath-prefix", "xpath", "//x:b", "xml", "no namespace prefix other than xml"),
        ("xpath-xpath2", "xpath", "//b/string()", "xml", "XPath 2.0 steps are not XPath 1.0"),
        ("fragment-position", "fragment_identifier", "char=5", "text", "a range a,b: a position selects nothing"),
        ("fragment-empty-range", "fragment_identifier", "char=5,5", "text", "a < b"),
        ("fragment-reversed", "fragment_identifier", "line=3,1", "text", "a < b"),
        ("fragment-open-range", "fragment_identifier", "char=,5", "text", "both a and b"),
        ("fragment-integrity", "fragment_identifier", "line=0,1;length=9", "text", "no integrity check part"),
        ("fragment-leading-zero", "fragment_identifier", "char=01,5", "text", "decimal numbers as in AEF-SEL-001"),
        ("fragment-scheme", "fragment_identifier", "page=1", "text", "char=, line= or a text directive"),
        ("fragment-text-without-directive", "fragment_identifier", "text=alpha", "html", "a text directive starts with :~:"),
        ("fragment-text-empty", "fragment_identifier", ":~:text=", "html", "parts are non-empty"),
        ("fragment-text-raw-space", "fragment_identifier", ":~:text=alpha beta", "html", "parts are percent-encoded"),
        ("fragment-text-raw-dash", "fragment_identifier", ":~:text=al-pha", "html", "a dash inside a part is percent-encoded"),
        ("fragment-text-two", "fragment_identifier", ":~:text=alpha&text=gamma", "html", "one text directive only"),
        ("fragment-text-bad-escape", "fragment_identifier", ":~:text=%ZZ", "html", "percent-encoding is %XX"),
        ("fragment-text-not-utf8", "fragment_identifier", ":~:text=%FF", "html", "parts decode to UTF-8"),
        ("fragment-text-too-many", "fragment_identifier", ":~:text=a,b,c", "html", "[prefix-,]start[,end][,-suffix]"),
    ]
    out = []
    bad = [b for b in bad if b[1] not in LANDING]
    for name, st, value, src, why in bad:
        media, body = srcs[src]
        rule = SYNTAX_RULE[st]
        flags = ["selector-syntax"] + (["landing-page-vocabulary"] if st in LANDING else [])
        reqs = [rule] + (["AEF-VOC-003"] if st in LANDING else [])
        out.append(case(
            f"aef-span-syntax-{name}", f"{st} `{value}` is not valid syntax ({why}).", reqs, 2,
            {"evidence": evidence({"selector_type": st, "selector_value": value}, EMPTY_HASH),
             "source": {"media_type": media, "body_base64": b64(body)}},
            "invalid", ["aef-selector-invalid"],
            derivation_=derivation("hand", f"docs/PROFILE.md {rule}: {why}"), flags=flags))
    # text_quote whose selector_value does not occur in exact_text.
    out.append(case(
        "aef-span-syntax-text-quote-anchor-not-prefix",
        "text_quote whose selector_value (the anchor) does not occur in exact_text.", ["AEF-SEL-002"], 2,
        {"evidence": evidence({"selector_type": "text_quote", "selector_value": "line two",
                               "exact_text": "line one"}, ind.aef_hash("line one")),
         "source": {"media_type": "text/plain", "body_base64": b64(text)}},
        "invalid", ["aef-selector-invalid"],
        derivation_=derivation("hand", "docs/PROFILE.md AEF-SEL-002: selector_value occurs in exact_text; 'line two' is not in 'line one'"),
        flags=["selector-syntax"]))
    # The anchor inside the quote, not at its start (the upstream example background-citation.json
    # has selector_value `authored-spec` inside its exact_text).
    quote = 'line one\nline two'
    out.append(case(
        "aef-span-syntax-text-quote-anchor-inside",
        "text_quote whose selector_value occurs inside exact_text but not at its start: the quote is exact_text.",
        ["AEF-SEL-002", "AEF-L2-006", "AEF-5-001"], 2,
        {"evidence": evidence({"selector_type": "text_quote", "selector_value": "two",
                               "exact_text": quote}, ind.aef_hash(quote)),
         "source": {"media_type": "text/plain", "body_base64": b64(text)}},
        "valid", output={"exact_text": quote, "content_hash": ind.aef_hash(quote)},
        derivation_=derivation("independent-tool", "AEF-SEL-002 containment; the quote occurs once in the text; hashlib §5 hash"),
        flags=["selector-syntax"]))
    # Valid syntax at the edges: the largest number, then out of range.
    out.append(case(
        "aef-span-syntax-byte-range-largest-number",
        "byte_range with end 2^53-1 is valid syntax; the body is shorter, so it is out of range.",
        ["AEF-SEL-001", "AEF-L2-003"], 2,
        {"evidence": evidence({"selector_type": "byte_range", "selector_value": "0-9007199254740991"}, EMPTY_HASH),
         "source": {"media_type": "text/plain", "body_base64": b64(text)}},
        "invalid", ["aef-span-out-of-range"],
        derivation_=derivation("hand", "AEF-SEL-001 allows numbers up to 2^53-1; AEF-L2-003: end beyond the body"),
        flags=["selector-syntax"]))
    # Valid syntax that resolves (passing cases of each AEF-SEL rule).
    good = [
        ("byte-range-zero", "byte_range", "0-4", "text/plain", text, text[0:4], "0 has no leading zero"),
        ("line-range-single", "line_range", "2-2", "text/plain", text, "line two", "start = end is one line"),
        ("css-list", "css", "p.x, title ~ p.x", "text/html", html, "alpha beta", "a selector list"),
        ("css-nth", "css", "p:nth-of-type(2n)", "text/html", html, "gamma", "an+b"),
        ("xpath-functions", "xpath", "//b[normalize-space(.) = 'x'][1]", "application/xml", xml, "x", "core functions"),
        ("fragment-hash-line", "fragment_identifier", "#line=1,2", "text/plain", text, "line two", "one leading # allowed"),
        ("fragment-text-encoded", "fragment_identifier", ":~:text=alpha%20beta", "text/html", html, "alpha beta", "%20 is a space"),
    ]
    good = [g for g in good if g[1] not in LANDING]
    for name, st, value, media, body, want, why in good:
        reqs = [SYNTAX_RULE[st], RULE_OF[st], "AEF-5-001"] + (["AEF-VOC-003"] if st in LANDING else [])
        flags = ["selector-syntax"] + (["landing-page-vocabulary"] if st in LANDING else [])
        want_text = ind.section5(want)
        out.append(case(
            f"aef-span-syntax-valid-{name}", f"{st} `{value}` is valid syntax ({why}) and resolves.", reqs, 2,
            {"evidence": evidence({"selector_type": st, "selector_value": value}, ind.aef_hash(want)),
             "source": {"media_type": media, "body_base64": b64(body)}},
            "valid", output={"exact_text": want_text, "content_hash": ind.aef_hash(want)},
            derivation_=derivation("independent-tool", f"hand-chosen span {want!r}; hashlib §5 hash"),
            flags=flags))
    return out


def hash_cases():
    html = read_fixture("article.html")
    q = "three pillars: Declare, Discover, and Audit"
    out = []
    src = {"media_type": "text/html", "body_base64": b64(html)}
    out.append(case(
        "aef-span-hash-mismatch", "The span resolves but content_hash is the hash of other text.",
        ["AEF-5-001"], 2,
        {"evidence": evidence({"selector_type": "text_quote", "selector_value": q}, ind.aef_hash(q + ".")),
         "source": src}, "invalid", ["aef-content-hash-mismatch"],
        derivation_=derivation("independent-tool", f"hashlib: hash of {q + '.'!r} differs from the hash of the span {q!r}"),
        flags=["hash", "fixture"]))
    out.append(case(
        "aef-span-hash-uppercase-source",
        "The same quote in a source where its case differs: matching is case-sensitive.",
        ["AEF-L2-006"], 2,
        {"evidence": evidence({"selector_type": "text_quote", "selector_value": q.upper()}, ind.aef_hash(q.upper())),
         "source": src}, "invalid", ["aef-span-not-found"],
        derivation_=derivation("hand", "AEF-L2-006: matching is exact and case-sensitive"), flags=["fixture"]))
    out.append(case(
        "aef-span-exact-text-mismatch",
        "exact_text differs from the span; content_hash is right for the span (AEF-5-002).",
        ["AEF-5-002"], 2,
        {"evidence": evidence({"selector_type": "css", "selector_value": "#audit > h2", "exact_text": "3.3 Audits"},
                              ind.aef_hash("3.3 Audit")), "source": src},
        "invalid", ["aef-exact-text-mismatch"],
        derivation_=derivation("independent-tool", "hashlib: §5 hash of '3.3 Audits' differs from that of '3.3 Audit'"),
        flags=["hash", "fixture"]))
    out.append(case(
        "aef-span-exact-text-crlf",
        "exact_text with CRLF and a trailing CRLF hashes like the span (§5 normalizes both).",
        ["AEF-5-002", "AEF-5-001", "AEF-L2-004"], 2,
        {"evidence": evidence({"selector_type": "line_range", "selector_value": "1-2",
                               "exact_text": "line one\r\nline two\r\n"}, ind.aef_hash("line one\nline two")),
         "source": {"media_type": "text/plain", "body_base64": b64(b"line one\r\nline two\r\nline three")}},
        "valid", output={"exact_text": "line one\nline two", "content_hash": ind.aef_hash("line one\nline two")},
        derivation_=derivation("independent-tool", "hashlib over the §5-normalized text"), flags=["hash"]))
    out.append(case(
        "aef-span-media-type-parameters",
        "The media type is read from Content-Type lowercased without parameters: `TEXT/HTML; charset=UTF-8` is HTML.",
        ["AEF-L2-002", "AEF-L2-007", "AEF-5-001"], 2,
        {"evidence": evidence({"selector_type": "css", "selector_value": "#audit > h2"}, ind.aef_hash("3.3 Audit")),
         "source": {"media_type": "TEXT/HTML; charset=UTF-8", "body_base64": b64(html)}},
        "valid", output={"exact_text": "3.3 Audit", "content_hash": ind.aef_hash("3.3 Audit")},
        derivation_=derivation("independent-tool", "profile Definitions (media type of a response); html.parser T(h2)"),
        flags=["media-type", "fixture"]))
    out.append(case(
        "aef-span-media-type-unparseable",
        "An unparseable Content-Type is application/octet-stream: CSS does not apply.",
        ["AEF-L2-002"], 2,
        {"evidence": evidence({"selector_type": "css", "selector_value": "h2"}, EMPTY_HASH),
         "source": {"media_type": "html", "body_base64": b64(html)}},
        "invalid", ["aef-selector-unsupported-media"],
        derivation_=derivation("hand", "profile Definitions: unparseable -> application/octet-stream; AEF-L2-002"),
        flags=["media-type", "fixture"]))
    # A Content-Type is a media type only when both its type and its subtype are RFC 9110 tokens;
    # these would be textual if either half alone were enough.
    for name, media_type, why in [
        ("empty-subtype", "text/", "the subtype is empty: `text/` is not token/token"),
        ("type-not-token", "app lication/ld+json", "the type holds a space: not token/token, though `+json` is textual"),
    ]:
        out.append(case(
            f"aef-span-media-type-{name}",
            f"Content-Type `{media_type}`: {why}, so the body is application/octet-stream and text_quote does not apply.",
            ["AEF-L2-002"], 2,
            {"evidence": evidence({"selector_type": "text_quote", "selector_value": "line one"}, EMPTY_HASH),
             "source": {"media_type": media_type, "body_base64": b64(b"line one\nline two\n")}},
            "invalid", ["aef-selector-unsupported-media"],
            derivation_=derivation("hand", "RFC 9110 8.3.1 media-type = type \"/\" subtype, each a token (5.6.2); profile "
                                           "Definitions: unparseable -> application/octet-stream; AEF-L2-002"),
            flags=["media-type"]))
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><title>Chart</title><text>42</text></svg>'
    out.append(case(
        "aef-span-xpath-plus-xml", "XPath applies to +xml types; names in the SVG namespace need local-name().",
        ["AEF-L2-002", "AEF-L2-007", "AEF-5-001"], 2,
        {"evidence": evidence({"selector_type": "xpath", "selector_value": "//*[local-name()='text']"}, ind.aef_hash("42")),
         "source": {"media_type": "image/svg+xml", "body_base64": b64(svg)}},
        "valid", output={"exact_text": "42", "content_hash": ind.aef_hash("42")},
        derivation_=derivation("independent-tool", "xml.etree: the svg text element's text is '42'"),
        flags=["media-type"]))
    return out


def bound_cases():
    """Resource bounds that decide a verdict (PROFILE AEF-L2-007)."""
    out = []
    for depth, result in [(509, "valid"), (510, "invalid")]:
        # The document is level 0, html 1, body 2, the divs 3 to depth + 2, the p depth + 3.
        body = ("<!doctype html><html><body>" + "<div>" * depth + "<p>deep</p>").encode()
        level = depth + 2
        out.append(case(
            f"aef-span-html-nesting-{level + 1}",
            f"An HTML body whose innermost element, a p, is nested {level + 1} levels deep (at most 512 are read).",
            ["AEF-L2-007"], 2,
            {"evidence": evidence({"selector_type": "css", "selector_value": "p"}, ind.aef_hash("deep")),
             "source": {"media_type": "text/html", "body_base64": b64(body)}},
            result, errors=["aef-source-unparseable"] if result == "invalid" else None,
            output={"exact_text": "deep", "content_hash": ind.aef_hash("deep")} if result == "valid" else None,
            derivation_=derivation("hand", f"document 0, html 1, body 2, {depth} divs (3..{level}), p at {level + 1}; "
                                           "PROFILE AEF-L2-007: deeper than 512 is unparseable"),
            flags=["bounds"]))
    return out


def vocabulary_cases():
    """Landing-page selector types are not AEF selectors at Level 2 either (AEF-VOC-001)."""
    html = read_fixture("article.html")
    out = []
    for st, value, media in [("css_selector", "#audit > h2", "text/html"),
                             ("fragment_identifier", ":~:text=three%20pillars", "text/html"),
                             ("page_range", "1-1", "application/pdf")]:
        out.append(case(
            f"aef-span-landing-{slug(st)}",
            f"selector_type `{st}` (landing page only) is not an AEF v0.1 selector type, at Level 2 as at Level 1.",
            ["AEF-VOC-001"], 2,
            {"evidence": evidence({"selector_type": st, "selector_value": value}, EMPTY_HASH),
             "source": {"media_type": media, "body_base64": b64(html)}},
            "invalid", ["aef-vocabulary-invalid"],
            derivation_=derivation("hand", f"evidence.schema.json span.selector_type enum has no `{st}`; PROFILE AEF-VOC-001"),
            flags=["landing-page-vocabulary"]))
    return out


MARK = "[REDACTED]"


def redaction_pattern(pattern):
    """The redaction rule of PROFILE AEF-5-002 as a Python regular expression: each marker
    stands for one or more characters; lazy gaps give the earliest embedding (AEF-L2-006)."""
    import re
    pieces = pattern.split(MARK)
    rx = ".+?".join(re.escape(p) for p in pieces)
    return re.compile(rx, re.S)


def redacted_quote_spans(search, pattern):
    """Start positions of the first part at which the whole redacted quote matches, with the
    matched text (independent of citeproof: Python `re`)."""
    first = pattern.split(MARK)[0]
    rx = redaction_pattern(pattern)
    hits, start = [], search.find(first)
    while start != -1:
        m = rx.match(search, start)
        if m:
            hits.append(m.group(0))
        start = search.find(first, start + 1)
    return hits


def redaction_cases():
    """AEF §7 asks pipelines to redact personal data in exact_text (PROFILE AEF-5-002)."""
    line = "Contact: Jane Roe <jane@example.org>, phone 555-0100."
    body = (line + "\nOffice hours are 9 to 5.\nContact: Joe Bloggs <joe@example.net>, phone 555-0199.\n").encode()
    src = {"media_type": "text/plain", "body_base64": b64(body)}
    h = ind.aef_hash(line)
    redacted = f"Contact: {MARK} <{MARK}>, phone {MARK}."
    assert redaction_pattern(redacted).fullmatch(line)
    out = []

    def add(name, desc, span, result, errors=(), reqs=(), why="", content_hash=h):
        out.append(case(
            f"aef-span-redacted-{name}", desc, list(reqs), 2,
            {"evidence": evidence(span, content_hash), "source": src}, result,
            errors=list(errors) if result == "invalid" else None,
            output={"exact_text": line, "content_hash": h} if result == "valid" else None,
            derivation_=derivation("independent-tool", "Python re: " + why), flags=["redaction"]))

    add("line-range", "line_range 1-1 with personal data redacted in exact_text; the hash is the unredacted line's.",
        {"selector_type": "line_range", "selector_value": "1-1", "exact_text": redacted}, "valid",
        reqs=["AEF-5-002", "AEF-5-001", "AEF-L2-004"],
        why=f"{redacted!r} with each marker as .+ fully matches line 1; hashlib §5 hash of line 1")
    wrong = f"Contact: {MARK}, fax {MARK}."
    assert not redaction_pattern(wrong).fullmatch(line)
    add("line-range-not-a-redaction", "A redacted exact_text whose unredacted parts do not read as the span does.",
        {"selector_type": "line_range", "selector_value": "1-1", "exact_text": wrong}, "invalid",
        ["aef-exact-text-mismatch"], reqs=["AEF-5-002"], why=f"{wrong!r} does not fully match line 1 (no ', fax ')")
    empty_gap = f"Contact: Jane Roe {MARK}<jane@example.org>, phone 555-0100."
    assert not redaction_pattern(empty_gap).fullmatch(line)
    add("marker-covers-nothing", "A marker stands for one or more characters, never for none.",
        {"selector_type": "line_range", "selector_value": "1-1", "exact_text": empty_gap}, "invalid",
        ["aef-exact-text-mismatch"], reqs=["AEF-5-002"], why="the marker sits between ' ' and '<', which are adjacent in the line")
    hits = redacted_quote_spans(body.decode(), redacted)
    assert hits == [line, "Contact: Joe Bloggs <joe@example.net>, phone 555-0199."], hits
    add("text-quote-ambiguous", "A redacted quote that two passages of the source fit is ambiguous.",
        {"selector_type": "text_quote", "selector_value": "Contact:", "exact_text": redacted}, "invalid",
        ["aef-span-ambiguous"], reqs=["AEF-L2-006"], why="the pattern matches from both 'Contact:' occurrences")
    precise = f"Contact: {MARK} <{MARK}>, phone 555-0100."
    assert redacted_quote_spans(body.decode(), precise) == [line]
    add("text-quote", "A redacted text_quote is found by its unredacted parts; the span is the unredacted passage.",
        {"selector_type": "text_quote", "selector_value": "phone 555-0100", "exact_text": precise}, "valid",
        reqs=["AEF-L2-006", "AEF-5-002", "AEF-5-001", "AEF-SEL-002"],
        why="the pattern matches once, from offset 0 to the end of line 1; hashlib §5 hash of that line")
    missing = f"Contact: {MARK} <{MARK}>, phone 555-0123."
    assert redacted_quote_spans(body.decode(), missing) == []
    add("text-quote-not-found", "A redacted quote whose unredacted parts do not occur in order.",
        {"selector_type": "text_quote", "selector_value": "Contact:", "exact_text": missing}, "invalid",
        ["aef-span-not-found"], reqs=["AEF-L2-006"], why="'phone 555-0123.' occurs nowhere")
    add("text-quote-leading-marker", "A redacted quote must begin and end with unredacted text.",
        {"selector_type": "text_quote", "selector_value": "phone", "exact_text": f"{MARK} <{MARK}>, phone 555-0100."},
        "invalid", ["aef-selector-invalid"], reqs=["AEF-SEL-002"],
        why="the start of a quote that begins with a marker is not determined (PROFILE AEF-SEL-002)")
    return out


# ---------------------------------------------------------------------------------------------
# Ed25519 keys and JWS (pyca/cryptography)

# RFC 8037 Appendix A.1 (published test key).
RFC_D = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"
RFC_X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"


def key_from_seed(seed: bytes):
    k = Ed25519PrivateKey.from_private_bytes(seed)
    x = k.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    return k, ind.b64u(x)


RFC_KEY, _rfc_x = key_from_seed(ind.b64u_decode(RFC_D))
assert _rfc_x == RFC_X, "RFC 8037 A.1 key does not reproduce its x"
OTHER_KEY, OTHER_X = key_from_seed(bytes(range(32)))


def header_b64(header_obj) -> str:
    return ind.b64u(ind.jcs(header_obj))


def jws(evidence_obj, key=RFC_KEY, header=None, kid="k1"):
    if header is None:
        header = {"alg": "EdDSA"} if kid is None else {"alg": "EdDSA", "kid": kid}
    h = header_b64(header) if isinstance(header, dict) else ind.b64u(header.encode("utf-8"))
    signing_input = (h + "." + ind.b64u(ind.signing_payload(evidence_obj))).encode("ascii")
    return h + ".." + ind.b64u(key.sign(signing_input))


def public_jwk(x=RFC_X, kid="k1", **extra):
    j = {"kty": "OKP", "crv": "Ed25519", "x": x}
    if kid is not None:
        j["kid"] = kid
    j.update(extra)
    return j


QUOTE = "three pillars: Declare, Discover, and Audit"


def base_evidence():
    return {
        "evidence_version": "0.1",
        "evidence_id": "ev-2026-05-12-a4f9c1",
        "claim_text": "The AEO Protocol defines three pillars: Declare, Discover, and Audit.",
        "source": {"uri": "https://example.com/aeo", "type": "webpage", "title": "AEO Protocol v0.1 \u2014 Overview",
                   "fetched_at": "2026-05-12T03:45:00Z"},
        "span": {"selector_type": "text_quote", "selector_value": "three pillars", "exact_text": QUOTE},
        "retrieval": {"method": "hybrid", "confidence": 0.93, "rank": 1, "freshness_age_seconds": 90},
        "verification": {"content_hash": ind.aef_hash(QUOTE), "signed_by": "pipeline-1",
                         "signing_key_uri": "https://keys.example.com/aef.json"},
        "synthesis_role": "supporting",
    }


def signed(e=None, **kw):
    e = copy.deepcopy(e or base_evidence())
    e["verification"].pop("signature", None)
    e["verification"]["signature"] = jws(e, **kw)
    return e


SIGN_DERIV = ("pyca/cryptography Ed25519 (RFC 8032, deterministic) over "
              "BASE64URL(JCS header) '.' BASE64URL(JCS evidence without signature and signing_key_uri), "
              "JCS by vectors/tools/aef_independent.py")


def jws_sign_cases():
    out = []
    rfc_private = {"kty": "OKP", "crv": "Ed25519", "d": RFC_D, "x": RFC_X}
    other_private = {"kty": "OKP", "crv": "Ed25519", "d": ind.b64u(bytes(range(32))), "x": OTHER_X}
    variants = [
        ("kid", "With kid `k1`: header {\"alg\":\"EdDSA\",\"kid\":\"k1\"}.", base_evidence(), rfc_private, "k1"),
        ("no-kid", "Without kid: header {\"alg\":\"EdDSA\"}.", base_evidence(), rfc_private, None),
        ("other-key", "Another key (seed 00 01 .. 1f).", base_evidence(), other_private, "seed-key"),
    ]
    e = base_evidence()
    e["verification"]["signature"] = "eyJhbGciOiJub25lIn0..AAAA"
    variants.append(("replaces-signature", "An existing signature is not part of the payload and is replaced.",
                     e, rfc_private, "k1"))
    e = base_evidence()
    del e["verification"]["signing_key_uri"]
    variants.append(("no-key-uri", "Without signing_key_uri: the same payload as with one (AEF-5-003).",
                     e, rfc_private, "k1"))
    e = base_evidence()
    e["claim_text"] = "R\u00e9sum\u00e9 \u201ccaf\u00e9\u201d \u2713 \U0001d11e <tab>\t \"quoted\" \\ end"
    e["notes"] = "\u0001\u001f\u007f"
    variants.append(("unicode", "Non-ASCII, supplementary and control characters: JCS escapes only what it must.",
                     e, rfc_private, "k1"))
    e = base_evidence()
    e["retrieval"] = {"method": "vector", "confidence": 0.5, "rank": 3, "freshness_age_seconds": 0}
    e["span"] = {"selector_type": "none"}
    e["verification"]["content_hash"] = EMPTY_HASH
    variants.append(("members-sorted", "Members in JCS order whatever the input order; integers and 0.5.",
                     e, rfc_private, "k1"))
    variants.append(("kid-escaped", "A kid with a quote and a non-ASCII character is JCS-escaped in the header.",
                     base_evidence(), rfc_private, "k\"\u00e9"))
    for name, desc, ev, key_jwk, kid in variants:
        key = RFC_KEY if key_jwk is rfc_private else OTHER_KEY
        inp = {"evidence": ev, "private_jwk": key_jwk}
        if kid is not None:
            inp["kid"] = kid
        sig = jws(ev, key=key, kid=kid)
        out.append(case(f"aef-jws-sign-{name}", desc, ["AEF-5-003", "SIG-001"], 3, inp, "valid",
                        output={"signature": sig}, derivation_=derivation("independent-tool", SIGN_DERIV),
                        flags=["canonical-form"]))
    return out


def jws_verify_cases():
    out = []
    good = signed()
    keyset = {"keys": [public_jwk()]}

    def add(name, desc, ev, key_doc, result, errors=(), reqs=(), flags=(), why=""):
        out.append(case(f"aef-jws-verify-{name}", desc, list(reqs), 3,
                        {"evidence": ev, "key_document": key_doc if isinstance(key_doc, str) else json.dumps(key_doc)},
                        result, list(errors),
                        derivation_=derivation("independent-tool" if result == "valid" else "hand",
                                               why or (SIGN_DERIV if result == "valid" else "docs/PROFILE.md")),
                        flags=list(flags)))

    add("valid-set", "A valid signature, key from a JWK Set by kid.", good, keyset, "valid",
        reqs=["AEF-L3-001", "AEF-L3-002", "AEF-L3-003", "AEF-L3-004", "AEF-L3-005", "AEF-5-003", "SIG-001", "SIG-003",
              "SIG-004"],
        flags=["key-selection"])
    add("valid-single-jwk", "A single JWK with the same kid.", good, public_jwk(), "valid",
        reqs=["AEF-L3-004", "AEF-L3-005", "SIG-005"], flags=["key-selection"])
    add("valid-single-jwk-without-kid", "A single JWK without kid is used for a JWS with a kid.", good,
        public_jwk(kid=None), "valid", reqs=["AEF-L3-004"], flags=["key-selection"])
    add("valid-no-kid-one-key", "A JWS without kid and a set of one key.", signed(kid=None), keyset, "valid",
        reqs=["AEF-L3-004"], flags=["key-selection"])
    add("valid-jwk-extra-members", "Unknown JWK members (`key_ops`, `ext`) are ignored; alg EdDSA and use sig allowed.",
        good, {"keys": [public_jwk(alg="EdDSA", use="sig", key_ops=["verify"], ext=True)]}, "valid",
        reqs=["SIG-005"], flags=["jwk"])
    add("valid-jwk-alg-ed25519", "A JWK with alg Ed25519 (RFC 9864) and a JWS with alg Ed25519.",
        signed(header={"alg": "Ed25519", "kid": "k1"}), {"keys": [public_jwk(alg="Ed25519")]}, "valid",
        reqs=["SIG-005", "AEF-L3-003"], flags=["jwk"])
    e = copy.deepcopy(good)
    e["verification"]["signing_key_uri"] = "https://mirror.example.com/keys.json"
    add("valid-key-uri-changed", "signing_key_uri is not signed: changing it keeps the signature valid.", e, keyset,
        "valid", reqs=["AEF-5-003"], flags=["canonical-form"])
    e = copy.deepcopy(good)
    e["retrieval"]["confidence"] = 0.930
    add("valid-number-form", "0.930 and 0.93 have the same canonical form.", e, keyset, "valid",
        reqs=["SIG-001", "CANON-001"], flags=["canonical-form"])
    e = copy.deepcopy(good)
    e["verification"]["signature"] = jws(good, header={"alg": "EdDSA", "kid": "k1", "typ": "JOSE", "jwk": public_jwk(OTHER_X)})
    add("valid-ignored-header-members", "typ and jwk header members are ignored (keys never come from the JWS).",
        e, keyset, "valid", reqs=["AEF-L3-003"], flags=["jws-structure"])

    e = copy.deepcopy(good)
    del e["verification"]["signature"]
    add("missing", "No verification.signature.", e, keyset, "invalid", ["aef-signature-missing"],
        reqs=["AEF-L3-001"], why="AEF-L3-001")
    for name, ptr, val in [("claim", ("claim_text",), "The AEO Protocol defines four pillars."),
                           ("signed-by", ("verification", "signed_by"), "someone-else"),
                           ("content-hash", ("verification", "content_hash"), EMPTY_HASH)]:
        e = copy.deepcopy(good)
        tgt = e
        for p in ptr[:-1]:
            tgt = tgt[p]
        tgt[ptr[-1]] = val
        add(f"tampered-{name}", f"`{'.'.join(ptr)}` changed after signing.", e, keyset, "invalid",
            ["aef-signature-invalid"], reqs=["AEF-L3-005", "AEF-5-003"], flags=["canonical-form"],
            why="AEF-5-003: every member but signature and signing_key_uri is signed")
    # A signature over Python json.dumps(sort_keys=True) instead of JCS.
    e = copy.deepcopy(good)
    doc = copy.deepcopy(good)
    del doc["verification"]["signature"]
    del doc["verification"]["signing_key_uri"]
    payload = json.dumps(doc, sort_keys=True).encode()  # ", " and ": " separators, \\u escapes
    h = header_b64({"alg": "EdDSA", "kid": "k1"})
    e["verification"]["signature"] = h + ".." + ind.b64u(RFC_KEY.sign((h + "." + ind.b64u(payload)).encode()))
    add("not-jcs", "Signed over json.dumps(sort_keys=True) text, not JCS.", e, keyset, "invalid",
        ["aef-signature-invalid"], reqs=["SIG-001", "AEF-5-003"], flags=["canonical-form"],
        why="SIG-001: only the JCS bytes are signed")
    e = copy.deepcopy(good)
    e["verification"]["signature"] = jws(good, key=OTHER_KEY)
    add("wrong-key", "Signed with another key than the one published under kid k1.", e, keyset, "invalid",
        ["aef-signature-invalid"], reqs=["AEF-L3-005", "SIG-002"], why="AEF-L3-005")

    def with_sig(s):
        x = copy.deepcopy(good)
        x["verification"]["signature"] = s
        return x

    g = good["verification"]["signature"]
    h, _, s = g.split(".")
    # The header is 26 bytes: 35 characters whose last carries 2 unused bits, which must be zero;
    # the next character of the alphabet sets one of them.
    assert len(h) % 4 == 3 and h[-1] in "AEIMQUYcgkosw048", h
    payload_b64 = ind.b64u(ind.signing_payload(good))
    jws_bad = [
        ("attached", "The payload is attached instead of detached.", h + "." + payload_b64 + "." + s,
         "jws-payload-attached", "AEF-L3-002"),
        ("two-parts", "Two segments.", h + "." + s, "jws-malformed", "AEF-L3-002"),
        ("five-parts", "Five segments (a JWE shape).", h + "...." + s, "jws-malformed", "AEF-L3-002"),
        ("empty-header", "Empty header segment.", ".." + s, "jws-malformed", "AEF-L3-002"),
        ("empty-signature", "Empty signature segment.", h + "..", "jws-malformed", "AEF-L3-002"),
        ("padded-header", "Header with `=` padding.", h + "=.." + s, "jws-base64-invalid", "SIG-003"),
        ("standard-alphabet", "Signature in the standard base64 alphabet (+ and /).",
         h + ".." + s.replace("-", "+").replace("_", "/") if ("-" in s or "_" in s) else h + "..+" + s[1:],
         "jws-base64-invalid", "SIG-003"),
        ("non-canonical-base64", "Header segment with non-zero trailing bits.",
         h[:-1] + chr(ord(h[-1]) + 1) + ".." + s, "jws-base64-invalid", "SIG-003"),
        ("too-large", "More than 65536 bytes.", h + ".." + "A" * 65536, "jws-too-large", "AEF-L3-002"),
        ("header-not-json", "The header is not JSON.", ind.b64u(b"alg:EdDSA") + ".." + s, "jws-header-invalid", "AEF-L3-002"),
        ("header-array", "The header is a JSON array.", ind.b64u(b"[\"EdDSA\"]") + ".." + s, "jws-header-invalid", "AEF-L3-002"),
        ("header-duplicate", "The header has alg twice.", ind.b64u(b'{"alg":"EdDSA","alg":"EdDSA"}') + ".." + s,
         "jws-header-invalid", "AEF-L3-002"),
        ("alg-missing", "No alg.", ind.b64u(b'{"kid":"k1"}') + ".." + s, "jws-alg-missing", "AEF-L3-003"),
        ("alg-none", "alg none.", ind.b64u(b'{"alg":"none","kid":"k1"}') + ".." + s, "jws-alg-forbidden", "AEF-L3-003"),
        ("alg-hs256", "alg HS256 (algorithm confusion with the public key as HMAC secret).",
         ind.b64u(b'{"alg":"HS256","kid":"k1"}') + ".." + s, "jws-alg-forbidden", "AEF-L3-003"),
        ("alg-ed25519-lowercase", "alg ed25519: RFC 9864's name is Ed25519, and algorithm names are case-sensitive.",
         ind.b64u(b'{"alg":"ed25519","kid":"k1"}') + ".." + s, "jws-alg-forbidden", "AEF-L3-003"),
        ("alg-lowercase", "alg eddsa: algorithm names are case-sensitive.",
         ind.b64u(b'{"alg":"eddsa","kid":"k1"}') + ".." + s, "jws-alg-forbidden", "AEF-L3-003"),
        ("alg-number", "alg is a number.", ind.b64u(b'{"alg":1}') + ".." + s, "jws-header-invalid", "AEF-L3-003"),
        ("kid-number", "kid is a number.", ind.b64u(b'{"alg":"EdDSA","kid":1}') + ".." + s, "jws-header-invalid", "AEF-L3-003"),
        ("crit", "A crit header.", ind.b64u(b'{"alg":"EdDSA","crit":["exp"],"exp":1}') + ".." + s,
         "jws-crit-unsupported", "AEF-L3-003"),
        ("b64-false", "b64 false (RFC 7797).", ind.b64u(b'{"alg":"EdDSA","b64":false,"crit":["b64"]}') + ".." + s,
         "jws-b64-unsupported", "AEF-L3-003"),
        ("signature-63-bytes", "The signature decodes to 63 bytes: an invalid signature (AEF-L3-002 defers to -005).",
         h + ".." + ind.b64u(ind.b64u_decode(s)[:63]), "aef-signature-invalid", "AEF-L3-005"),
        ("signature-s-not-reduced", "S is not below the group order L (S + L): rejected by strict verification.",
         h + ".." + ind.b64u(ind.b64u_decode(s)[:32] + (int.from_bytes(ind.b64u_decode(s)[32:], "little")
                                                       + 2**252 + 27742317777372353535851937790883648493).to_bytes(32, "little")),
         "aef-signature-invalid", "SIG-002"),
    ]
    for name, desc, sig, code, rule in jws_bad:
        add(name, desc, with_sig(sig), keyset, "invalid", [code], reqs=[rule], flags=["jws-structure"], why=rule)
    # Keys.
    small_order = ind.b64u(bytes([1] + [0] * 31))  # the identity point (0, 1)
    non_canonical = ind.b64u(bytes([0xFF] * 31 + [0x7F]))  # y = 2^255 - 1 >= p
    key_bad = [
        ("kid-unknown", "No key with the JWS's kid in the set.", good, {"keys": [public_jwk(kid="k2")]},
         ["aef-key-unresolved"], "AEF-L3-004", "key-selection"),
        ("set-kid-required", "A set of one key without kid does not match a JWS kid (sets select by kid only).", good,
         {"keys": [public_jwk(kid=None)]}, ["aef-key-unresolved"], "AEF-L3-004", "key-selection"),
        ("single-kid-differs", "A single JWK whose kid differs from the JWS's.", good, public_jwk(kid="k2"),
         ["aef-key-unresolved"], "AEF-L3-004", "key-selection"),
        ("no-kid-two-keys", "A JWS without kid and a set of two keys.", signed(kid=None),
         {"keys": [public_jwk(kid="a"), public_jwk(OTHER_X, kid="b")]}, ["aef-key-unresolved"], "AEF-L3-004", "key-selection"),
        ("kid-case", "kid selection is case-sensitive.", good, {"keys": [public_jwk(kid="K1")]}, ["aef-key-unresolved"],
         "SIG-004", "key-selection"),
        ("set-empty", "An empty JWK Set.", good, {"keys": []}, ["aef-key-unresolved", "jwk-set-empty"], "SIG-004", "jwk"),
        ("set-duplicate-kid", "Two keys with kid k1.", good, {"keys": [public_jwk(), public_jwk(OTHER_X)]},
         ["aef-key-unresolved", "jwk-duplicate-kid"], "SIG-004", "jwk"),
        ("not-an-object", "The key document is an array.", good, [public_jwk()], ["aef-key-unresolved", "jwk-malformed"],
         "SIG-004", "jwk"),
        ("keys-not-array", "`keys` is an object.", good, {"keys": public_jwk()}, ["aef-key-unresolved", "jwk-malformed"],
         "SIG-004", "jwk"),
        ("not-json", "The key document is not JSON.", good, "kty=OKP", ["aef-key-unresolved", "jwk-malformed"], "SIG-004", "jwk"),
        ("kty-rsa", "kty RSA.", good, {"keys": [{"kty": "RSA", "kid": "k1", "n": "AQAB", "e": "AQAB"}]},
         ["aef-key-unresolved", "jwk-unsupported-key-type"], "SIG-005", "jwk"),
        ("crv-x25519", "crv X25519 (a key-agreement curve).", good, {"keys": [dict(public_jwk(), crv="X25519")]},
         ["aef-key-unresolved", "jwk-unsupported-curve"], "SIG-005", "jwk"),
        ("x-short", "x decodes to 31 bytes.", good, {"keys": [public_jwk(x=ind.b64u(ind.b64u_decode(RFC_X)[:31]))]},
         ["aef-key-unresolved", "jwk-invalid-key-length"], "SIG-005", "jwk"),
        ("x-padded", "x with base64 padding.", good, {"keys": [public_jwk(x=RFC_X + "=")]},
         ["aef-key-unresolved", "jwk-malformed"], "SIG-003", "jwk"),
        ("x-small-order", "x is the identity point (small order).", good, {"keys": [public_jwk(x=small_order)]},
         ["aef-key-unresolved", "jwk-weak-key"], "SIG-002", "jwk"),
        ("x-non-canonical", "x encodes y >= p.", good, {"keys": [public_jwk(x=non_canonical)]},
         ["aef-key-unresolved", "jwk-invalid-point"], "SIG-005", "jwk"),
        ("private-key", "The published key has d.", good, {"keys": [public_jwk(d=RFC_D)]},
         ["aef-key-unresolved", "jwk-private-key-published"], "SIG-005", "jwk"),
        ("use-enc", "use enc.", good, {"keys": [public_jwk(use="enc")]}, ["aef-key-unresolved", "jwk-use-mismatch"], "SIG-005", "jwk"),
        ("alg-es256", "alg ES256 on the JWK.", good, {"keys": [public_jwk(alg="ES256")]},
         ["aef-key-unresolved", "jwk-alg-mismatch"], "SIG-005", "jwk"),
        ("x-number", "x is a number.", good, {"keys": [public_jwk(x=5)]}, ["aef-key-unresolved", "jwk-malformed"], "SIG-005", "jwk"),
    ]
    for name, desc, ev, doc, codes, rule, flag in key_bad:
        add(f"key-{name}", desc, ev, doc, "invalid", codes, reqs=[rule, "AEF-L3-004"] if rule != "AEF-L3-004" else [rule],
            flags=[flag], why=rule)
    return out


# ---------------------------------------------------------------------------------------------
# aef-verify (resources)

NOW = 1778557500  # 2026-05-12T03:45:00Z


def stored(body: bytes, status=200, headers=None):
    return {"status": status, "headers": headers if headers is not None else [["Content-Type", "text/html; charset=utf-8"]],
            "body_base64": b64(body)}


def verify_input(ev, resources, level, trusted=None):
    text = ev if isinstance(ev, str) else json.dumps(ev, ensure_ascii=False)
    inp = {"document": text, "resources": resources, "now": NOW, "required_level": level}
    if trusted is not None:
        inp["trusted_key_uris"] = trusted
    return inp


def verify_level2_cases():
    html = read_fixture("article.html")
    page = "https://example.com/aeo"
    e = base_evidence()
    del e["verification"]["signing_key_uri"]
    del e["verification"]["signed_by"]
    ok_res = {page: stored(html)}
    out = []

    def add(name, desc, ev, res, result, errors=(), level_out=None, reqs=(), flags=(), why="", required=2):
        out.append(case(f"aef-verify-l2-{name}", desc, list(reqs), 2, verify_input(ev, res, required), result,
                        list(errors), output=None if level_out is None else {"level": level_out},
                        derivation_=derivation("independent-tool" if result == "valid" else "hand",
                                               why or "html.parser T(document) contains the quote once; hashlib §5 hash"),
                        flags=list(flags)))

    add("reached", "The source is fetched, the quote found once, the hash reproduced: Level 2.", e, ok_res, "valid",
        level_out=2, reqs=["AEF-L2-001", "AEF-L2-006", "AEF-5-001", "AEF-5-002", "FETCH-002", "FETCH-007", "FETCH-008"],
        flags=["fetch"])
    # AEF-4-007: NOW is 2026-05-12T03:45:00Z; 300 s later is 03:50:00Z (the skew limit, no
    # warning), one second more is a retrieval in the future (a warning; Level 2 still reached).
    for name, fetched, warnings, why, side in [
        ("fetched-at-skew-limit", "2026-05-12T03:50:00Z", [], "03:45:00Z + 300 s = 03:50:00Z: not after the skew", "inside"),
        ("fetched-in-future", "2026-05-12T03:50:01Z", ["aef-fetched-in-future"], "03:50:01Z is 301 s after 03:45:00Z", "outside"),
    ]:
        x = copy.deepcopy(e)
        x["source"]["fetched_at"] = fetched
        out.append(case(f"aef-verify-l2-{name}",
                        f"source.fetched_at {fetched} against the verification time 2026-05-12T03:45:00Z (300 s skew).",
                        ["AEF-4-007"], 2, verify_input(x, ok_res, 2), "valid", [], output={"level": 2},
                        derivation_=derivation("hand", why), flags=["fetch", boundary("fetched-at-skew", side)],
                        warnings=warnings))
    x = copy.deepcopy(e)
    x["source"]["uri"] = page + "#pillars"
    add("fragment-removed", "The fragment of source.uri is not sent (FETCH-001): the resource without it answers.", x, ok_res,
        "valid", level_out=2, reqs=["AEF-L2-001", "FETCH-001"], flags=["fetch"])
    add("redirect", "A 301 to the page is followed.", e,
        {page: stored(b"", 301, [["Location", "https://example.com/aeo/v2"]]), page + "/v2": stored(html)}, "valid",
        level_out=2, reqs=["AEF-L2-001", "FETCH-005"], flags=["fetch"])
    add("identity-encoding", "Content-Encoding identity is no content coding.", e,
        {page: stored(html, headers=[["Content-Type", "text/html"], ["Content-Encoding", "identity"]])}, "valid",
        level_out=2, reqs=["AEF-L2-001", "FETCH-006"], flags=["fetch"])
    add("not-found", "The source is not among the resources.", e, {}, "invalid",
        ["aef-source-fetch-failed", "fetch-not-in-snapshot"], reqs=["AEF-L2-001", "FETCH-008"], flags=["fetch"],
        why="AEF-L2-001 and reporting rule 4: consumer code plus cause code")
    add("status-404", "The source answers 404.", e, {page: stored(b"gone", 404)}, "invalid",
        ["aef-source-fetch-failed", "fetch-http-status"], reqs=["AEF-L2-001", "FETCH-007"], flags=["fetch"], why="FETCH-007")
    add("status-204", "The source answers 204: only 200 is accepted for a GET.", e, {page: stored(b"", 204)}, "invalid",
        ["aef-source-fetch-failed", "fetch-http-status"], reqs=["AEF-L2-001", "FETCH-007"], flags=["fetch"], why="FETCH-007")
    add("gzip", "The source is served with Content-Encoding gzip.", e,
        {page: stored(b"\x1f\x8b\x08\x00", headers=[["Content-Type", "text/html"], ["Content-Encoding", "gzip"]])},
        "invalid", ["aef-source-fetch-failed", "fetch-content-encoding"], reqs=["AEF-L2-001", "FETCH-006"], flags=["fetch"],
        why="FETCH-006")
    add("redirect-loop", "Six redirects.", e,
        {f"https://example.com/r{i}" if i else page: stored(b"", 302, [["Location", f"https://example.com/r{i + 1}"]])
         for i in range(7)}, "invalid", ["aef-source-fetch-failed", "fetch-too-many-redirects"],
        reqs=["AEF-L2-001", "FETCH-005"], flags=["fetch"], why="FETCH-005: at most 5 redirects")
    add("redirect-downgrade", "A redirect from https to http.", e,
        {page: stored(b"", 302, [["Location", "http://example.com/aeo"]])}, "invalid",
        ["aef-source-fetch-failed", "fetch-redirect-invalid"], reqs=["AEF-L2-001", "FETCH-005"], flags=["fetch"], why="FETCH-005")
    for name, uri, codes, rule in [
        ("urn", "urn:isbn:0451450523", ["aef-source-fetch-failed"], "AEF-L2-001"),
        ("mailto", "mailto:editor@example.com", ["aef-source-fetch-failed"], "AEF-L2-001"),
        ("userinfo", "https://user@example.com/aeo", ["aef-source-fetch-failed"], "AEF-L2-001"),
        ("loopback", "https://127.0.0.1/aeo", ["aef-source-fetch-failed", "fetch-address-forbidden"], "FETCH-002"),
        ("metadata", "http://169.254.169.254/latest/meta-data/", ["aef-source-fetch-failed", "fetch-address-forbidden"], "FETCH-002"),
        ("bad-port", "https://example.com:25/aeo", ["aef-source-fetch-failed", "fetch-port-forbidden"], "FETCH-001"),
    ]:
        x = copy.deepcopy(e)
        x["source"]["uri"] = uri
        add(f"uri-{name}", f"source.uri `{uri}` cannot be fetched.", x, {uri: stored(html)}, "invalid", codes,
            reqs=["AEF-L2-001", rule] if rule != "AEF-L2-001" else [rule], flags=["fetch"],
            why=f"{rule}: not a fetchable web URL (profile Definitions, FETCH-001/002)")
    add("no-content-type", "No Content-Type: application/octet-stream, which text_quote does not apply to.", e,
        {page: stored(html, headers=[])}, "invalid", ["aef-selector-unsupported-media"],
        reqs=["AEF-L2-002"], flags=["media-type"], why="profile Definitions: no Content-Type -> application/octet-stream")
    x = copy.deepcopy(e)
    changed = html.replace(b"three pillars", b"four pillars")
    add("source-changed", "The source changed after retrieval: the quote is gone.", x, {page: stored(changed)}, "invalid",
        ["aef-span-not-found"], reqs=["AEF-L2-006", "AEF-5-001"], flags=["hash"], why="AEF-L2-006")
    x = copy.deepcopy(e)
    x["span"] = {"selector_type": "css", "selector_value": "p.lead",
                 "exact_text": "The AEO Protocol defines three pillars: Declare, Discover, and Audit."}
    x["verification"]["content_hash"] = ind.aef_hash(x["span"]["exact_text"])
    edited = html.replace(b"and Audit.</p>", b"and Audit!</p>")
    add("source-edited", "The source was edited inside the span: the hash is not reproduced.", x, {page: stored(edited)},
        "invalid", ["aef-content-hash-mismatch"], reqs=["AEF-5-001"], flags=["hash"],
        why="AEF-5-001: hashlib hash of the edited paragraph differs")
    add("level-1-only", "Required level 1: the source is not fetched, so a missing source does not matter.", e, {},
        "valid", level_out=1, reqs=["AEF-4-002"], flags=["levels"], required=1,
        why="profile Conformance levels: checks up to the required level")
    # The landing page example: placeholder hash.
    landing = {
        "evidence_version": "0.1",
        "evidence_id": "ev-2026-05-12-a4f9c1",
        "claim_text": "The AEO Protocol defines three pillars: Declare, Discover, and Audit.",
        "source": {"uri": "https://github.com/mizcausevic-dev/aeo-protocol-spec/blob/main/SPEC.md", "type": "document",
                   "title": "AEO Protocol v0.1 \u2014 Specification", "publisher": "mizcausevic-dev",
                   "fetched_at": "2026-05-12T03:45:00Z"},
        "span": {"selector_type": "text_quote", "selector_value": "## 3. The three pillars",
                 "exact_text": "## 3. The three pillars\n\n### 3.1 Declare\n\nThe entity publishes a single JSON document at a fixed path describing itself."},
        "retrieval": {"method": "hybrid", "confidence": 0.93, "rank": 1, "freshness_age_seconds": 90},
        "verification": {"content_hash": "sha256:c7d1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1"},
        "synthesis_role": "supporting",
    }
    spec_md = ("# AEO Protocol\n\n" + landing["span"]["exact_text"] + "\n\n### 3.2 Discover\n").encode()
    add("landing-page-example",
        "The landing page's canonical example, source served: its content_hash is a placeholder.", landing,
        {landing["source"]["uri"]: stored(spec_md, headers=[["Content-Type", "text/plain; charset=utf-8"]])}, "invalid",
        ["aef-exact-text-mismatch", "aef-content-hash-mismatch"], reqs=["AEF-5-001", "AEF-5-002"],
        flags=["spec-example", "hash"],
        why="hashlib: the §5 hash of exact_text is " + ind.aef_hash(landing["span"]["exact_text"]) + ", not the placeholder")
    return out


def verify_level3_cases():
    html = read_fixture("article.html")
    page = "https://example.com/aeo"
    keys_url = "https://keys.example.com/aef.json"
    good = signed()
    res = {page: stored(html), keys_url: stored(json.dumps({"keys": [public_jwk()]}).encode(),
                                                headers=[["Content-Type", "application/jwk-set+json"]])}
    out = []

    # The user trusts the key location of the base evidence (AEF-L3-006); cases that test trust
    # itself pass their own list.
    def add(name, desc, ev, resources, result, errors=(), level_out=None, reqs=(), flags=(), why="", required=3,
            trusted=(keys_url,)):
        out.append(case(f"aef-verify-l3-{name}", desc, list(reqs), 3,
                        verify_input(ev, resources, required, list(trusted)), result,
                        list(errors), output=None if level_out is None else {"level": level_out},
                        derivation_=derivation("independent-tool" if result == "valid" else "hand", why or SIGN_DERIV),
                        flags=list(flags)))

    add("reached", "Source verified and JWS verified with the key fetched from signing_key_uri: Level 3.", good, res,
        "valid", level_out=3, reqs=["AEF-L3-001", "AEF-L3-004", "AEF-L3-005", "AEF-5-001"], flags=["fetch"])
    single = dict(res)
    single[keys_url] = stored(json.dumps(public_jwk()).encode(), headers=[["Content-Type", "application/jwk+json"]])
    add("single-jwk", "signing_key_uri serves a single JWK.", good, single, "valid", level_out=3,
        reqs=["AEF-L3-004"], flags=["fetch", "key-selection"])
    add("required-2", "Required level 2: the signature is not checked.", signed(e=None, key=OTHER_KEY), res, "valid",
        level_out=2, reqs=["AEF-5-001"], flags=["levels"], required=2,
        why="profile Conformance levels: checks up to the required level")
    unsigned = copy.deepcopy(good)
    del unsigned["verification"]["signature"]
    add("unsigned", "Required level 3 without a signature: Level 2.", unsigned, res, "invalid", ["aef-signature-missing"],
        reqs=["AEF-L3-001"], flags=["levels"], why="AEF-L3-001; signatures are advisory (§3.2) but Level 3 needs one")
    add("wrong-key", "Signed with another key than the published one.", signed(key=OTHER_KEY), res, "invalid",
        ["aef-signature-invalid"], reqs=["AEF-L3-005"], why="AEF-L3-005")
    no_uri = copy.deepcopy(good)
    del no_uri["verification"]["signing_key_uri"]
    add("no-key-uri", "No signing_key_uri: no key can be obtained.", no_uri, res, "invalid", ["aef-key-unresolved"],
        reqs=["AEF-L3-004"], flags=["fetch"], why="AEF-L3-004: signing_key_uri is present")
    http_uri = copy.deepcopy(good)
    http_uri["verification"]["signing_key_uri"] = "http://keys.example.com/aef.json"
    add("http-key-uri", "signing_key_uri uses http.", http_uri,
        dict(res, **{"http://keys.example.com/aef.json": res[keys_url]}), "invalid", ["aef-key-unresolved"],
        reqs=["AEF-L3-004"], flags=["fetch"], why="AEF-L3-004: a web URL with scheme https")
    add("key-404", "The key document answers 404.", good, {page: res[page], keys_url: stored(b"", 404)}, "invalid",
        ["aef-key-unresolved", "fetch-http-status"], reqs=["AEF-L3-004", "FETCH-007"], flags=["fetch"], why="AEF-L3-004, FETCH-007")
    add("key-missing", "The key document is not among the resources.", good, {page: res[page]}, "invalid",
        ["aef-key-unresolved", "fetch-not-in-snapshot"], reqs=["AEF-L3-004", "FETCH-008"], flags=["fetch"], why="AEF-L3-004")
    add("key-kid-unknown", "The key set has no key with the JWS's kid.", signed(kid="k9"), res, "invalid",
        ["aef-key-unresolved"], reqs=["AEF-L3-004"], flags=["key-selection"], why="AEF-L3-004")
    broken = copy.deepcopy(good)
    broken_res = dict(res)
    broken_res[page] = stored(html.replace(b"three pillars", b"four pillars"))
    add("source-changed-signature-valid",
        "A valid signature does not help when the source changed: Level 1 (Level 3 needs Level 2).", broken, broken_res,
        "invalid", ["aef-span-not-found"], reqs=["AEF-L2-006"], flags=["levels"],
        why="profile Conformance levels: level n needs every level below it")
    # AEF-L3-006: trust comes from the verifier's configuration, never from the document.
    add("key-location-untrusted", "The JWS verifies under the key at signing_key_uri, but the verifier trusts no key location.",
        good, res, "invalid", ["aef-key-untrusted"], level_out=None, reqs=["AEF-L3-006"], flags=["trust"], trusted=(),
        why="AEF-L3-006: no trusted key location is configured, so a key the document names is not trusted")
    attacker_url = "https://keys.attacker.example/aef.json"
    self_signed = copy.deepcopy(good)
    self_signed["verification"]["signing_key_uri"] = attacker_url
    self_signed = signed(self_signed, key=OTHER_KEY)
    attacker_res = dict(res)
    attacker_res[attacker_url] = stored(json.dumps({"keys": [public_jwk(x=OTHER_X)]}).encode(),
                                        headers=[["Content-Type", "application/jwk-set+json"]])
    add("self-signed", "The document names its own key at another host and is signed with it: the JWS verifies, "
        "but the key is not one the verifier trusts.", self_signed, attacker_res, "invalid", ["aef-key-untrusted"],
        reqs=["AEF-L3-006", "AEF-L3-004", "AEF-L3-005"], flags=["trust"],
        why="AEF-L3-006: https://keys.attacker.example/aef.json is not in trusted_key_uris; "
            "pyca/cryptography signature with the attacker's key verifies under the attacker's JWK")
    add("trusted-location-equal-url", "A trusted location written with another case and a default port is the same URL.",
        good, res, "valid", level_out=3, reqs=["AEF-L3-006"], flags=["trust"],
        trusted=("HTTPS://KEYS.example.com:443/aef.json",),
        why="profile Definitions, URL equality: the WHATWG serializations of both are https://keys.example.com/aef.json")
    add("trusted-other-location", "The verifier trusts a different key location (another path on the same host).",
        good, res, "invalid", ["aef-key-untrusted"], reqs=["AEF-L3-006"], flags=["trust"],
        trusted=("https://keys.example.com/other.json",), why="AEF-L3-006: trust is per exact key location, not per host")
    rfc9864 = signed(header={"alg": "Ed25519", "kid": "k1"})
    add("alg-ed25519", "A JWS whose header says alg Ed25519 (RFC 9864), the fully-specified name of EdDSA with Ed25519.",
        rfc9864, res, "valid", level_out=3, reqs=["AEF-L3-003", "AEF-L3-005"], flags=["jws-structure"])
    return out


def main():
    span = span_cases() + syntax_cases() + hash_cases() + vocabulary_cases() + redaction_cases() + bound_cases()
    write("aef/level2/verify-span.json", "aef", "aef-verify-span",
          "AEF span resolution and content hash (AEF-SEL-*, AEF-L2-002..007, AEF-5-001/002): every selector type of "
          "the published schema against real documents (HTML, XML, text with CRLF, Markdown); landing-page types refused.",
          span, FLAGS)
    write("aef/level2/verify.json", "aef", "aef-verify",
          "AEF Levels 1-2 end to end with every fetch answered from `resources` (AEF-L2-001, FETCH-*).",
          verify_level2_cases(), FLAGS)
    write("aef/level3/jws-sign.json", "aef", "aef-jws-sign",
          "AEF detached JWS (EdDSA) over the JCS form without signature and signing_key_uri (AEF-5-003).",
          jws_sign_cases(), FLAGS,
          attribution="Cases with the key `k1` use the Ed25519 test key of RFC 8037 Appendix A.1 "
                      "(Copyright (c) 2017 IETF Trust and the persons identified as the document authors).")
    write("aef/level3/jws-verify.json", "aef", "aef-jws-verify",
          "AEF Level 3 with the key document given (AEF-L3-001..005, SIG-001..005).",
          jws_verify_cases(), FLAGS,
          attribution="The key `k1` is the Ed25519 test key of RFC 8037 Appendix A.1 (Copyright (c) 2017 IETF Trust "
                      "and the persons identified as the document authors).")
    write("aef/level3/verify.json", "aef", "aef-verify",
          "AEF Levels 1-3 end to end, the key fetched from signing_key_uri among `resources`.",
          verify_level3_cases(), FLAGS,
          attribution="The key `k1` is the Ed25519 test key of RFC 8037 Appendix A.1.")


if __name__ == "__main__":
    main()
