#!/usr/bin/env python3
"""Generates the Agent Citation Attribution vectors:

  vectors/aca/level1/header-parse.json   aca-header-parse
  vectors/aca/level1/header-emit.json    aca-header-emit
  vectors/aca/level1/verify.json         aca-verify-snapshot (required_level 1)
  vectors/aca/level2/manifest-validate.json  aca-manifest-validate
  vectors/aca/level2/verify.json         aca-verify-snapshot (required_level 2)
  vectors/aca/level3/chain-validate.json aca-manifest-validate (chain rules)
  vectors/aca/level3/discovery-validate.json aca-discovery-validate
  vectors/aca/level3/manifest-sign.json  aca-manifest-sign
  vectors/aca/level3/httpsig-verify.json httpsig-verify
  vectors/aca/level3/verify.json         aca-verify-snapshot (required_level 3)

Independent derivation: citeproof is never imported or run. Expected results are worked out by
hand from docs/PROFILE.md (the reasoning is in each case's `derivation.detail`); hashes, JCS
bytes, Content-Digest values, RFC 9421 signature bases and Ed25519 signatures are computed by
vectors/tools/aca_lib.py (Python hashlib/base64 and pyca/cryptography, written from the RFCs);
the RFC 9421 Appendix B.2.6 example is published data.

Run: python3 vectors/tools/aca_vectors.py
"""

import base64
import hashlib
import copy
import json
import os

from aca_lib import (
    NOW, Key, aef_text_hash, b64, b64url, content_digest, content_digest_512, dumps, inner_list,
    jcs, jcs_text, non_canonical_s, offsets, sha256_hash, sign_manifest_response,
    signature_base, stored,
)
from vectorlib import REPO, boundary, case, derivation, write
from aca_support import N as rule_n
from rfc3986_validator import validate_rfc3986


def hand(detail):
    return derivation("hand", detail)


def tool(detail):
    return derivation("independent-tool", "python3 hashlib/base64 + pyca/cryptography "
                      "(vectors/tools/aca_lib.py, written from RFC 8785/9421/9530/8032): " + detail)


# =============================================================================================
# Fixtures

AGENT = "https://agent.example/runs/r1"
M1 = "https://agent.example/runs/r1/manifest"
M2 = "https://agent.example/runs/r1/manifest-b"
DISC = "https://agent.example/.well-known/agent-citation-attribution"
JWKS = "https://agent.example/.well-known/jwks.json"
SRC_A = "https://example.com/geo"
SRC_B = "https://example.org/crawl.txt"

BODY_A = (b"<!doctype html>\n<html><body>\n<h1>Programmatic GEO</h1>\n"
          b"<p>Programmatic GEO templates emit at most one canonical question per page.</p>\n"
          b"</body></html>\n")
QUOTE_A = "Programmatic GEO templates emit at most one canonical question per page."
BODY_B = (b"Crawl notes\nAI crawlers revisit pages with stable canonical URLs more often.\n"
          b"Sitemaps list canonical URLs.\n")
QUOTE_B = "AI crawlers revisit pages with stable canonical URLs more often."
TEXT_B = "AI crawlers revisit stable canonical URLs more often."

K1 = Key("k1")
K2 = Key("k2 (not published)")


def csource(url, body, quote, retrieved="2026-04-28T09:55:00Z", excerpt_hash=True):
    s, e = offsets(body, quote)
    d = {"url": url, "retrieved_at": retrieved, "hash": sha256_hash(body), "excerpt_offset": [s, e]}
    if excerpt_hash:
        d["excerpt_hash"] = aef_text_hash(body[s:e])
    return d


def claim(cid, text, sources, confidence=None):
    c = {"claim_id": cid, "text": text, "sources": sources}
    if confidence:
        c["confidence"] = confidence
    return c


def chain():
    return [
        {"step": 1, "tool": "web_search", "inputs": {"q": "programmatic geo canonical"},
         "outputs_ref": "runs/r1/step/1", "sources": [SRC_A, SRC_B]},
        {"step": 2, "tool": "fetch_pages", "inputs_ref": "runs/r1/step/1",
         "inputs_hash": sha256_hash(jcs({"api_key_id": "internal-7"})),
         "outputs_ref": "runs/r1/step/2", "sources": [SRC_A, SRC_B]},
        {"step": 3, "tool": "compose_answer", "inputs_ref": ["runs/r1/step/1", "runs/r1/step/2"],
         "outputs_ref": "runs/r1/step/3"},
    ]


def manifest(with_chain=True, run_id="r1", response_url=AGENT):
    """The run's manifest. `response_url`: the URL of the response it was emitted for
    (ACA-L2-024), AGENT unless given; None for the seed's shape, which names no response."""
    m = {
        "run_id": run_id,
        "agent_id": "agent.example/v1",
        "emitted_at": "2026-04-28T10:00:00Z",
        "claims": [
            claim("c1", QUOTE_A, [csource(SRC_A, BODY_A, QUOTE_A)], "high"),
            claim("c2", TEXT_B, [csource(SRC_B, BODY_B, QUOTE_B)]),
        ],
    }
    if response_url is not None:
        m["response_url"] = response_url
    if with_chain:
        m["chain"] = chain()
    return m


def unbound(m):
    """The manifest without `response_url` (the seed's shape, ACA-L2-025)."""
    m = copy.deepcopy(m)
    m.pop("response_url", None)
    return m


def emitted_manifest(at, with_chain=True):
    """A manifest of a run emitted at Unix time `at`, its sources retrieved 300 s before."""
    import datetime
    iso = lambda t: datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    m = manifest(with_chain)
    m["emitted_at"] = iso(at)
    for c in m["claims"]:
        for src in c["sources"]:
            src["retrieved_at"] = iso(at - 300)
    return m


def header(entries):
    """entries: list of (source, manifest, run or None)."""
    parts = []
    for s, m, r in entries:
        p = "<%s>; manifest=\"%s\"" % (s, m)
        if r is not None:
            p += "; run=\"%s\"" % r
        parts.append(p)
    return ", ".join(parts)


BASE_HEADER = header([(SRC_A, M1, "r1"), (SRC_B, M1, "r1")])


def discovery(keys=True, jwks_uri=None):
    d = {
        "version": "1.0",
        "manifest_schema": "https://agent.example/schema/manifest-v1.json",
        "supported_signing": ["http-message-signatures"],
        "contact": "attribution@agent.example",
    }
    if keys:
        d["keys"] = {"keys": [K1.jwk("k1")]}
    if jwks_uri:
        d["jwks_uri"] = jwks_uri
    return d


class Scenario:
    """A web snapshot under construction (the shape of schemas/web-snapshot.schema.json)."""

    def __init__(self, level):
        self.agent_headers = [["content-type", "text/plain; charset=utf-8"], ["citation-source", BASE_HEADER]]
        # The agent's answer. None: it states every claim of every manifest served (ACA-L2-021
        # holds by construction); cases about that binding set their own body.
        self.body = None
        self.agent_url = AGENT
        # The agent response's own status (ACA-L1-009) and any extra header fields of it.
        self.agent_status = 200
        self.resources = {}
        self.resources[SRC_A] = stored(200, [["content-type", "text/html; charset=utf-8"]], BODY_A)
        self.resources[SRC_B] = stored(200, [["content-type", "text/plain"]], BODY_B)
        if level >= 2:
            self.serve_manifest(M1, manifest(with_chain=(level == 3)), signed=(level == 3))
        if level == 3:
            self.serve_json(DISC, discovery())

    def header(self, *values):
        self.agent_headers = [h for h in self.agent_headers if h[0] != "citation-source"]
        for v in values:
            self.agent_headers.append(["citation-source", v])

    def serve_json(self, url, value, content_type="application/json"):
        self.resources[url] = stored(200, [["content-type", content_type]], jcs(value))

    def serve_manifest(self, url, value, signed=False, key=K1, keyid="k1", created=NOW - 60,
                       expires=None, body=None, **kw):
        body = jcs(value) if body is None else body
        if signed:
            headers, _, _ = sign_manifest_response(body, key, keyid, created, expires, **kw)
        else:
            headers = [["content-type", "application/json"]]
        self.resources[url] = stored(200, headers, body)

    def manifest_headers(self, url=M1):
        return self.resources[url]["headers"]

    def set_manifest_header(self, name, value, url=M1):
        hs = [h for h in self.resources[url]["headers"] if h[0].lower() != name.lower()]
        if value is not None:
            hs.append([name, value])
        self.resources[url]["headers"] = hs

    def answer(self):
        """Every claim text of every manifest-shaped JSON resource, one per line."""
        texts = []
        for url in sorted(self.resources):
            try:
                doc = json.loads(base64.b64decode(self.resources[url]["body_base64"]))
            except ValueError:
                continue
            if isinstance(doc, dict) and isinstance(doc.get("claims"), list):
                for c in doc["claims"]:
                    if isinstance(c, dict) and isinstance(c.get("text"), str) and c["text"] not in texts:
                        texts.append(c["text"])
        return ("\n".join(texts) + "\n").encode("utf-8")

    def snapshot(self):
        body = self.answer() if self.body is None else self.body
        return {
            "snapshot_version": 1,
            "response": {"url": self.agent_url, "status": self.agent_status, "headers": copy.deepcopy(self.agent_headers),
                         "body_base64": b64(body)},
            "resources": copy.deepcopy(self.resources),
        }


def verify_case(cid, desc, reqs, level, scenario, required, result, errors=None, out_level=None, detail="", history=None,
                warnings=None, flags=None):
    inp = {"snapshot": scenario.snapshot(), "now": NOW, "required_level": required}
    if history is not None:
        inp["history"] = history
    output = {"level": out_level} if out_level is not None else None
    return case(cid, desc, reqs, level, inp, result, errors=errors, output=output, warnings=warnings,
                derivation_=tool("hashes, offsets, JCS bodies and signatures of the snapshot. " + detail), flags=flags)


# =============================================================================================
# Level 1: Citation-Source

L1_ALL = ["ACA-L1-001", "ACA-L1-002", "ACA-L1-003", "ACA-L1-004", "ACA-L1-005", "ACA-L1-006",
          "ACA-L1-007", "ACA-L1-008"]


def ent(source, manifest=None, run=None, params=None):
    e = {"source": source}
    if manifest is not None:
        e["manifest"] = manifest
    if run is not None:
        e["run"] = run
    if params:
        e["params"] = params
    return e


def parse_ok(cid, desc, reqs, values, entries, detail, flags=None):
    return case("aca-l1-parse-" + cid, desc, reqs, 1, {"values": values}, "valid",
                output={"entries": entries}, derivation_=hand(detail), flags=flags)


def parse_bad(cid, desc, reqs, values, errors, detail, flags=None):
    return case("aca-l1-parse-" + cid, desc, reqs, 1, {"values": values}, "invalid",
                errors=errors, derivation_=hand(detail), flags=flags)


URI_CHARS_URL = "https://example.com/a-._~!$&'()*+;=:@%41/b?q=/?&r=1#frag-._~!$&'()*+;=:@/?"


def url_grammar_cases(ma):
    """The web URL grammar (Definitions: RFC 3986 absolute-URI) on both sides of each of its
    productions the other cases leave on one side: IP literals (IPv6address, IPvFuture),
    pct-encoded, the characters of a query and of a fragment, the port and the host. Each was
    the only thing between a cargo-mutants mutant of citeproof-model's weburl.rs and the suite
    (mutants/RUNS.md); the expected verdicts come from RFC 3986 3.2.2, 3.2.3, 2.1, 3.4 and 3.5."""
    ok = [
        ("source-ipv6-literal", "A source URL whose host is an IPv6 literal, no port.", "https://[::1]/a",
         "RFC 3986 3.2.2: '[' IPv6address ']' and nothing after it but the path."),
        ("source-ipvfuture", "A source URL whose host is an IPvFuture literal.", "http://[v1.x:y]/a",
         "RFC 3986 3.2.2: IPvFuture = 'v' 1*HEXDIG '.' 1*( unreserved / sub-delims / ':' ): hex '1', tail 'x:y'."),
        ("source-port-empty", "A source URL with an empty port after the colon.", "https://example.com:/a",
         "RFC 3986 3.2.3: port = *DIGIT, so an empty port is allowed (and means the default)."),
        ("source-pct-first", "A path segment that starts with a pct-encoding.", "https://example.com/%41b",
         "RFC 3986 3.3: segment = *pchar and pchar includes pct-encoded, at any position."),
    ]
    bad = [
        ("source-ip-literal-unclosed", "An IPv6 literal without its closing bracket.", "http://[::1/a",
         "RFC 3986 3.2.2: IP-literal ends with ']'."),
        ("source-ip-literal-trailing", "Text between an IPv6 literal and the path.", "http://[::1]x/a",
         "RFC 3986 3.2: authority = host [ ':' port ]; after ']' only ':' port may follow."),
        ("source-ipv6-invalid", "An IPv6 literal with a digit that is not hex.", "http://[::g]/a",
         "RFC 3986 3.2.2: IPv6address is made of h16 = 1*4HEXDIG; 'g' is not HEXDIG."),
        ("source-ipv6-zone", "An IPv6 literal with a zone identifier (RFC 6874).", "http://[fe80::1%25eth0]/a",
         "RFC 3986 3.2.2 has no zone identifier (RFC 6874 adds one; the profile's web URL is RFC 3986 absolute-URI)."),
        ("source-ipvfuture-no-version", "An IPvFuture literal without its hex version.", "http://[v.x]/a",
         "RFC 3986 3.2.2: 'v' 1*HEXDIG: at least one hex digit before the '.'."),
        ("source-ipvfuture-version-not-hex", "An IPvFuture literal whose version is not hex.", "http://[vg.x]/a",
         "RFC 3986 3.2.2: 'g' is not HEXDIG."),
        ("source-ipvfuture-empty", "An IPvFuture literal with nothing after the '.'.", "http://[v1.]/a",
         "RFC 3986 3.2.2: '.' 1*( unreserved / sub-delims / ':' ): at least one character after the '.'."),
        ("source-ipvfuture-pipe", "An IPvFuture literal with '|' after the '.'.", "http://[v1.a|b]/a",
         "RFC 3986 3.2.2: '|' is neither unreserved, a sub-delim nor ':'."),
        ("source-pipe-after-pct", "'|' two characters after a pct-encoding in a path segment.", "https://example.com/ab%41|c",
         "RFC 3986 3.3: every character of a segment is a pchar; a pct-encoding is three characters and the one after it "
         "('|') is checked like any other."),
        ("source-pct-not-hex", "'%4g': a '%' followed by one hex digit and one that is not.", "https://example.com/a%4g",
         "RFC 3986 2.1: pct-encoded = '%' HEXDIG HEXDIG: both digits hex."),
        ("source-query-pipe", "A source URL with '|' in its query.", "https://example.com/a?b|c",
         "RFC 3986 3.4: query = *( pchar / '/' / '?' ); '|' is not a pchar."),
        ("source-fragment-brace", "A source URL with '{' in its fragment.", "https://example.com/a#{x}",
         "RFC 3986 3.5: fragment = *( pchar / '/' / '?' ); '{' is not a pchar."),
        ("source-port-letters", "A source URL whose port has a letter.", "https://example.com:8a/a",
         "RFC 3986 3.2.3: port = *DIGIT."),
        ("source-host-empty", "A source URL with a port and no host.", "https://:443/a",
         "Definitions: a web URL has an authority with a non-empty host."),
    ]
    # A second reading of RFC 3986: rfc3986-validator (requirements-dev.txt) agrees on every
    # case but the empty host, which RFC 3986's reg-name allows and the profile refuses.
    for _, _, url, _ in ok:
        assert validate_rfc3986(url, rule="URI"), url
    for cid, _, url, _ in bad:
        assert bool(validate_rfc3986(url, rule="URI")) == (cid == "source-host-empty"), url
    out = [parse_ok(cid, desc, ["ACA-L1-004"], ['<%s>; manifest="%s"' % (url, ma)], [ent(url, ma)], why)
           for cid, desc, url, why in ok]
    out += [parse_bad(cid, desc, ["ACA-L1-004"], ['<%s>; manifest="%s"' % (url, ma)], ["aca-url-invalid"], why)
            for cid, desc, url, why in bad]
    return out


def level1_parse():
    A, B = "https://example.com/article-a", "https://example.com/article-b"
    MA, MB = "https://agent.example/runs/123/cite/a", "https://agent.example/runs/123/cite/b"
    two_hosts = ["http://%s%s" % (a, b) for a in "abcdefghijklmnop" for b in "abcdefghijklmnop"]
    assert len(two_hosts) == 256
    big = ",".join('<%s>;manifest="http://m"' % h for h in two_hosts)
    assert len(big.encode()) == 8191, len(big.encode())
    many = ",".join("<%s>" % h for h in two_hosts + ["http://qa"])
    def sized(n):
        """Four entries with long (<= 2048-byte) source URLs, exactly n bytes in all."""
        fixed = '<https://example.com/%d/>; manifest="https://m.example/"'
        base = sum(len(fixed % i) for i in range(4)) + 3 * len(", ")
        extra = n - base
        per, rest = divmod(extra, 4)
        parts = []
        for i in range(4):
            pad = "a" * (per + (1 if i < rest else 0))
            parts.append('<https://example.com/%d/%s>; manifest="https://m.example/"' % (i, pad))
        v = ", ".join(parts)
        assert len(v) == n and all(len(p.split(">")[0]) - 1 <= 2048 for p in parts)
        return v, ["https://example.com/%d/%s" % (i, p.split("/%d/" % i)[1].split(">")[0]) for i, p in enumerate(parts)]
    exact, exact_sources = sized(8192)
    over, _ = sized(8193)
    cases = [
        parse_ok("seed-example", "The seed's example with its lost <...> URLs restored, as two field lines (the first ends with a comma).",
                 ["ACA-L1-001", "ACA-L1-002", "ACA-L1-005"],
                 ['<%s>; manifest="%s",' % (A, MA), '<%s>; manifest="%s"' % (B, MB)],
                 [ent(A, MA), ent(B, MB)],
                 "Lines are joined with ', ' (ACA-L1-002), which leaves an empty list element between the entries; empty elements are ignored (RFC 9110 5.6.1)."),
        parse_ok("comma-in-url", "A comma inside <url> does not split the list.", ["ACA-L1-002"],
                 ['<https://example.com/a,b>; manifest="%s", <%s>; manifest="%s"' % (MA, B, MB)],
                 [ent("https://example.com/a,b", MA), ent(B, MB)],
                 "url = 1*(%x21-3B / %x3D / %x3F-7E) includes ',' (0x2C): the list is split only outside <...> and quoted-strings."),
        parse_ok("comma-in-quoted-string", "A comma inside a quoted-string parameter does not split the list.", ["ACA-L1-002", "ACA-L1-006"],
                 ['<%s>; manifest="%s"; title="geo, templates", <%s>; manifest="https://agent.example/m?a=1,2"' % (A, MA, B)],
                 [{"source": A, "manifest": MA, "params": [["title", "geo, templates"]]}, ent(B, "https://agent.example/m?a=1,2")],
                 "RFC 9110 5.6.1: list elements are separated by commas outside quoted-strings; the second manifest URL keeps its comma."),
        parse_bad("comma-splits-unquoted-token", "An unquoted parameter value cannot hold a comma: what follows is a new element.", ["ACA-L1-002"],
                  ['<%s>; manifest="%s"; title=geo,templates' % (A, MA)], ["aca-header-syntax"],
                  "The element after the comma is 'templates', which is not '<' url '>': a syntax error."),
        parse_bad("duplicate-dot-segments", "Two entries whose URLs differ only by a dot segment.", ["ACA-L1-008"],
                  ['<https://example.com/x/../b>; manifest="%s", <https://example.com/b>; manifest="%s"' % (MA, MB)], ["aca-header-duplicate-source"],
                  "URL equality (Definitions): the WHATWG parser removes dot segments, so both are https://example.com/b."),
        parse_bad("duplicate-empty-path", "Two entries whose URLs differ only by an empty path.", ["ACA-L1-008"],
                  ['<https://example.com>; manifest="%s", <https://EXAMPLE.com:443/>; manifest="%s"' % (MA, MB)], ["aca-header-duplicate-source"],
                  "WHATWG: an empty path serializes as '/', the host is lowercased and the default port dropped."),
        parse_ok("distinct-paths-not-equal", "Paths that differ in case are different URLs.", ["ACA-L1-008"],
                 ['<https://example.com/B>; manifest="%s", <https://example.com/b>; manifest="%s"' % (MA, MB)],
                 [ent("https://example.com/B", MA), ent("https://example.com/b", MB)],
                 "WHATWG keeps the path's case: two sources."),
        parse_ok("single-with-run", "One entry with manifest and run parameters.", ["ACA-L1-005", "ACA-L1-007"],
                 ['<%s>; manifest="%s"; run="123"' % (A, MA)], [ent(A, MA, "123")],
                 "Grammar: entry = <url> *(OWS ; OWS param); run content matches the run id pattern."),
        parse_ok("ows-bws", "Optional whitespace before ';', around '=' and around ','.", ["ACA-L1-002"],
                 ['  <%s> ;manifest = "%s" ,  <%s>\t;\tmanifest=\t"%s"  ' % (A, MA, B, MB)], [ent(A, MA), ent(B, MB)],
                 "OWS = *(SP / HTAB) is allowed before ';' and ',' and BWS around '='; leading and trailing OWS is removed."),
        parse_ok("param-name-case", "Parameter names are case-insensitive: MANIFEST and Run.", ["ACA-L1-005", "ACA-L1-007"],
                 ['<%s>; MANIFEST="%s"; Run="123"' % (A, MA)], [ent(A, MA, "123")],
                 "ACA-L1-005: 'name is manifest (case-insensitive)'; names are lowercased."),
        parse_ok("other-params", "Other parameters are kept (names lowercased) and otherwise ignored; quoted-pairs are unescaped.", ["ACA-L1-006"],
                 ['<%s>; manifest="%s"; Rel=cite; title="a \\"b\\" \\\\ c"' % (A, MA)],
                 [ent(A, MA, params=[["rel", "cite"], ["title", 'a "b" \\ c']])],
                 "ACA-L1-006: other parameters are allowed; quoted-string content with quoted-pairs \\\" and \\\\ unescaped."),
        parse_ok("quoted-string-htab", "A horizontal tab inside a quoted-string and after a backslash (a quoted-pair).", ["ACA-L1-002", "ACA-L1-006"],
                 ['<%s>; manifest="%s"; t="a\tb"; u="c\\\td"' % (A, MA)],
                 [ent(A, MA, params=[["t", "a\tb"], ["u", "c\td"]])],
                 "RFC 9110 5.6.4: qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text and quoted-pair = '\\' ( HTAB / SP / "
                 "VCHAR / obs-text ): HTAB is allowed in both (obs-text is not, ACA-L1-002)."),
        parse_bad("quoted-pair-del", "A backslash followed by DEL (0x7F) inside a quoted-string.", ["ACA-L1-002"],
                  ['<%s>; manifest="%s"; t="a\\\x7fb"' % (A, MA)], ["aca-header-syntax"],
                  "RFC 9110 5.6.4: quoted-pair = '\\' ( HTAB / SP / VCHAR / obs-text ); 0x7F is none of them."),
        parse_bad("quoted-pair-obs-text", "A backslash followed by a non-ASCII character (U+00E9) inside a quoted-string.", ["ACA-L1-002"],
                  ['<%s>; manifest="%s"; t="caf\\\u00e9"' % (A, MA)], ["aca-header-syntax"],
                  "obs-text (bytes 0x80-0xFF) is not allowed anywhere in the value, a quoted-pair included (ACA-L1-002)."),
        parse_ok("empty-elements", "Empty list elements around and between entries.", ["ACA-L1-002"],
                 [' , <%s>; manifest="%s" ,, ' % (A, MA)], [ent(A, MA)],
                 "RFC 9110 5.6.1: empty list elements are ignored."),
        parse_ok("shared-manifest", "Two sources pointing to the same manifest.", ["ACA-L1-005", "ACA-L1-008"],
                 ['<%s>; manifest="%s", <%s>; manifest="%s"' % (A, MA, B, MA)], [ent(A, MA), ent(B, MA)],
                 "ACA-L1-005: several entries may name the same manifest URL."),
        parse_ok("query-fragment", "Source URLs with query and fragment; different fragments are different sources.", ["ACA-L1-004", "ACA-L1-008"],
                 ['<https://example.com/a?x=1&y=%%2F#s1>; manifest="%s", <https://example.com/a?x=1&y=%%2F#s2>; manifest="%s"' % (MA, MA)],
                 [ent("https://example.com/a?x=1&y=%2F#s1", MA), ent("https://example.com/a?x=1&y=%2F#s2", MA)],
                 "Web URLs may carry a fragment; URL equality keeps and compares fragments, so #s1 and #s2 differ."),
        parse_ok("http-scheme-uppercase", "Scheme HTTP in capitals and an IPv6 literal host are web URLs.", ["ACA-L1-004"],
                 ['<HTTP://[2001:db8::1]:8080/p>; manifest="%s"' % MA], [ent("HTTP://[2001:db8::1]:8080/p", MA)],
                 "Definitions: scheme http/https case-insensitive; RFC 3986 IP-literal host."),
        parse_ok("max-entries", "256 entries in 8191 bytes: both limits hold.", ["ACA-L1-003"],
                 [big], [ent(h, "http://m") for h in two_hosts],
                 "256 entries of 31 bytes joined by ',' = 256*32-1 = 8191 bytes <= 8192, entries <= 256.",
                 ["boundary", boundary("header-entries", "inside")]),
        parse_ok("max-bytes", "A value of exactly 8192 bytes.", ["ACA-L1-003"],
                 [exact], [ent(u, "https://m.example/") for u in exact_sources],
                 "Length 8192 <= 8192.", ["boundary", boundary("header-bytes", "inside")]),
        parse_ok("run-consistent", "Every entry carries the same run.", ["ACA-L1-007"],
                 ['<%s>; manifest="%s"; run="r-1.a:b_c", <%s>; manifest="%s"; run="r-1.a:b_c"' % (A, MA, B, MB)],
                 [ent(A, MA, "r-1.a:b_c"), ent(B, MB, "r-1.a:b_c")],
                 "Run ids may use . _ : - after the first character; all run parameters are equal."),

        parse_bad("absent", "No Citation-Source field line at all.", ["ACA-L1-001"], [], ["aca-header-missing"],
                  "ACA-L1-001: at least one field line is required."),
        parse_bad("empty-value", "A field line with an empty value.", ["ACA-L1-001"], [""], ["aca-header-missing"],
                  "The combined value lists no entry."),
        parse_bad("only-commas", "Only empty list elements.", ["ACA-L1-001"], [" , ,"], ["aca-header-missing"],
                  "Empty elements are ignored, leaving no entry."),
        parse_bad("seed-lost-brackets", "The seed's text as published: the <...> URLs were lost.", ["ACA-L1-002"],
                  ['; manifest="%s",' % MA], ["aca-header-syntax"], "An entry must start with '<'."),
        parse_bad("no-brackets", "A bare URL without angle brackets.", ["ACA-L1-002"],
                  ['%s; manifest="%s"' % (A, MA)], ["aca-header-syntax"], "entry = '<' url '>' ..."),
        parse_bad("unterminated-url", "'<' without '>'.", ["ACA-L1-002"], ['<%s; manifest="%s"' % (A, MA)], ["aca-header-syntax"],
                  "';' is a url character but the space after it is not, so the url ends there and '>' is missing."),
        parse_bad("empty-url", "'<>' holds no URL.", ["ACA-L1-002"], ['<>; manifest="%s"' % MA], ["aca-header-syntax"],
                  "url = 1*(...): at least one character."),
        parse_bad("space-in-url", "A space inside the angle brackets.", ["ACA-L1-002"], ['<https://example.com/a b>; manifest="%s"' % MA],
                  ["aca-header-syntax"], "SP (0x20) is not in %x21-3B / %x3D / %x3F-7E."),
        parse_bad("param-without-value", "A parameter without '='.", ["ACA-L1-002"], ['<%s>; manifest' % A], ["aca-header-syntax"],
                  "param = token BWS '=' BWS (token / quoted-string)."),
        parse_bad("param-without-name", "'=' without a name.", ["ACA-L1-002"], ['<%s>; ="%s"' % (A, MA)], ["aca-header-syntax"],
                  "A parameter starts with a token."),
        parse_bad("trailing-semicolon", "A ';' with nothing after it.", ["ACA-L1-002"], ['<%s>; manifest="%s";' % (A, MA)], ["aca-header-syntax"],
                  "After OWS ';' OWS a param is required."),
        parse_bad("missing-comma", "Two entries without a comma between them.", ["ACA-L1-002"],
                  ['<%s>; manifest="%s" <%s>; manifest="%s"' % (A, MA, B, MB)], ["aca-header-syntax"],
                  "After an entry only OWS then ',' or the end may follow."),
        parse_bad("unterminated-quote", "A quoted-string without its closing quote.", ["ACA-L1-002"], ['<%s>; manifest="%s' % (A, MA)], ["aca-header-syntax"],
                  "quoted-string = DQUOTE *(qdtext / quoted-pair) DQUOTE."),
        parse_bad("obs-fold", "obs-fold: CRLF followed by a space inside the value.", ["ACA-L1-002"], ['<%s>;\r\n manifest="%s"' % (A, MA)], ["aca-header-syntax"],
                  "ACA-L1-002: obs-fold is rejected."),
        parse_bad("control-char", "A control character (0x01).", ["ACA-L1-002"], ['<%s>;\u0001manifest="%s"' % (A, MA)], ["aca-header-syntax"],
                  "Controls other than HTAB are rejected."),
        parse_bad("del-char", "DEL (0x7F) in a quoted-string.", ["ACA-L1-002"], ['<%s>; manifest="%s"; t="a\u007fb"' % (A, MA)], ["aca-header-syntax"],
                  "0x7F is above 0x7E."),
        parse_bad("obs-text", "A non-ASCII character (U+00E9) in a quoted-string.", ["ACA-L1-002"], ['<%s>; manifest="%s"; t="caf\u00e9"' % (A, MA)], ["aca-header-syntax"],
                  "obs-text (bytes 0x80-0xFF) is not allowed anywhere in the value."),
        parse_bad("too-many-bytes", "8193 bytes.", ["ACA-L1-003"], [over], ["aca-header-too-long"], "8193 > 8192.", ["boundary", boundary("header-bytes", "outside")]),
        parse_bad("too-many-entries", "257 entries (without manifest parameters, 3 084 bytes).", ["ACA-L1-003"], [many], ["aca-header-too-long"],
                  "257 > 256 non-empty entries.", ["boundary", boundary("header-entries", "outside")]),
        parse_bad("source-ftp", "An ftp source URL.", ["ACA-L1-004"], ['<ftp://example.com/a>; manifest="%s"' % MA], ["aca-url-invalid"],
                  "Definitions: scheme must be http or https."),
        parse_bad("source-relative", "A relative source URL.", ["ACA-L1-004"], ['</articles/a>; manifest="%s"' % MA], ["aca-url-invalid"],
                  "A web URL is an absolute URI with an authority."),
        parse_bad("source-userinfo", "A source URL with userinfo.", ["ACA-L1-004"], ['<https://user@example.com/a>; manifest="%s"' % MA], ["aca-url-invalid"],
                  "Definitions: no userinfo."),
        parse_bad("source-bad-percent", "'%zz' is not a pct-encoding.", ["ACA-L1-004"], ['<https://example.com/%%zz>; manifest="%s"' % MA], ["aca-url-invalid"],
                  "RFC 3986 pct-encoded = '%' HEXDIG HEXDIG."),
        parse_bad("source-too-long", "A 2049-byte source URL.", ["ACA-L1-004"],
                  ['<https://example.com/%s>; manifest="%s"' % ("a" * (2049 - 20), MA)], ["aca-url-invalid"],
                  "Definitions: at most 2048 bytes; 'https://example.com/' is 20 bytes.",
                  ["boundary", boundary("url-length", "outside")]),
        parse_ok("source-2048-bytes", "A 2048-byte source URL, the longest web URL.", ["ACA-L1-004"],
                 ['<https://example.com/%s>; manifest="%s"' % ("a" * (2048 - 20), MA)],
                 [ent("https://example.com/" + "a" * (2048 - 20), MA)],
                 "Definitions: at most 2048 bytes; 20 + 2028 = 2048.", ["boundary", boundary("url-length", "inside")]),
        parse_ok("manifest-missing", "A header-only entry (seed Level 1: 'no per-claim manifest. Useful for legacy agents').", ["ACA-L1-005"],
                 ['<%s>; run="123"' % A], [ent(A, None, "123")],
                 "ACA-L1-005: the manifest parameter is optional at Level 1; Level 2 needs it (a verification case checks that)."),
        parse_ok("header-only-list", "Two header-only entries: the legacy form that lists consulted sources only.", ["ACA-L1-001", "ACA-L1-005"],
                 ['<%s>, <%s>' % (A, B)], [ent(A), ent(B)], "ACA-L1-005: no manifest, no run: a Level 1 header."),
        parse_bad("manifest-token", "manifest as a token.", ["ACA-L1-005"], ['<%s>; manifest=m1' % A], ["aca-header-param-form"],
                  "ACA-L1-005: the token form is rejected."),
        parse_bad("manifest-backslash", "A quoted-pair inside the manifest value.", ["ACA-L1-005"], ['<%s>; manifest="https://agent.example/r\\un"' % A], ["aca-header-param-form"],
                  "ACA-L1-005: no backslash in the quoted-string."),
        parse_bad("manifest-relative", "A relative manifest URL.", ["ACA-L1-005"], ['<%s>; manifest="/runs/123/cite"' % A], ["aca-url-invalid"],
                  "The characters between the quotes must form a web URL."),
        parse_bad("manifest-twice", "manifest given twice.", ["ACA-L1-005", "ACA-L1-006"], ['<%s>; manifest="%s"; Manifest="%s"' % (A, MA, MA)], ["aca-header-param-duplicate"],
                  "Parameter names are compared case-insensitively; a name occurs at most once."),
        parse_bad("param-twice", "An extension parameter given twice.", ["ACA-L1-006"], ['<%s>; manifest="%s"; rel=a; REL=b' % (A, MA)], ["aca-header-param-duplicate"],
                  "ACA-L1-006: no parameter name twice in one entry."),
        parse_bad("duplicate-source", "The same source twice.", ["ACA-L1-008"], ['<%s>; manifest="%s", <%s>; manifest="%s"' % (A, MA, A, MB)], ["aca-header-duplicate-source"],
                  "ACA-L1-008."),
        parse_bad("duplicate-source-whatwg", "Two spellings of one URL: HTTPS://EXAMPLE.COM:443/article-a and https://example.com/article-a.", ["ACA-L1-008"],
                  ['<HTTPS://EXAMPLE.COM:443/article-a>; manifest="%s", <%s>; manifest="%s"' % (MA, A, MB)], ["aca-header-duplicate-source"],
                  "WHATWG serialization lowercases scheme and host and drops the default port 443: both are https://example.com/article-a."),
        parse_bad("run-token", "run as a token.", ["ACA-L1-007"], ['<%s>; manifest="%s"; run=r1' % (A, MA)], ["aca-header-param-form"],
                  "ACA-L1-007: run is a quoted-string without backslash."),
        parse_bad("run-space", "A run id with a space.", ["ACA-L1-007"], ['<%s>; manifest="%s"; run="r 1"' % (A, MA)], ["aca-run-id-invalid"],
                  "Space is not in [A-Za-z0-9._:-]."),
        parse_bad("run-leading-dash", "A run id starting with '-'.", ["ACA-L1-007"], ['<%s>; manifest="%s"; run="-r1"' % (A, MA)], ["aca-run-id-invalid"],
                  "The first character must be [A-Za-z0-9]."),
        parse_ok("run-id-128", "A run id of 128 characters, the longest the pattern allows.", ["ACA-L1-007"],
                 ['<%s>; manifest="%s"; run="%s"' % (A, MA, "r" * 128)], [ent(A, MA, "r" * 128)],
                 "^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$: 1 + 127 = 128 characters.", [boundary("run-id-length", "inside")]),
        parse_bad("run-id-129", "A run id of 129 characters, one past the pattern.", ["ACA-L1-007"],
                  ['<%s>; manifest="%s"; run="%s"' % (A, MA, "r" * 129)], ["aca-run-id-invalid"],
                  "^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$: at most 1 + 127 = 128 characters; 129 > 128.",
                  [boundary("run-id-length", "outside")]),
        parse_ok("source-uri-characters", "A source URL using every RFC 3986 character class outside letters and digits "
                 "(unreserved, sub-delims, ':', '@', '/', '?', a pct-encoding and a fragment).", ["ACA-L1-004"],
                 ['<%s>; manifest="%s"' % (URI_CHARS_URL, MA)], [ent(URI_CHARS_URL, MA)],
                 "RFC 3986: pchar = unreserved / pct-encoded / sub-delims / ':' / '@'; query and fragment add '/' and '?'.",
                 [boundary("url-characters", "inside")]),
        parse_bad("source-pipe", "A source URL with '|', a visible ASCII character RFC 3986 does not allow.", ["ACA-L1-004"],
                  ['<https://example.com/a|b>; manifest="%s"' % MA], ["aca-url-invalid"],
                  "'|' (0x7C) is neither unreserved, a sub-delim, a gen-delim nor '%'; the profile's web URL matches absolute-URI.",
                  [boundary("url-characters", "outside")]),
        parse_bad("source-brace", "A source URL with '{' and '}' (a template left unexpanded).", ["ACA-L1-004"],
                  ['<https://example.com/items/{id}>; manifest="%s"' % MA], ["aca-url-invalid"],
                  "'{' and '}' are not RFC 3986 characters.", [boundary("url-characters", "outside")]),
    ]
    cases += url_grammar_cases(MA)
    cases += [
        parse_bad("run-mismatch", "Two entries with different runs.", ["ACA-L1-007"],
                  ['<%s>; manifest="%s"; run="1"' % (A, MA), '<%s>; manifest="%s"; run="2"' % (B, MB)], ["aca-run-mismatch"],
                  "ACA-L1-007: all run parameters of one field value are equal."),
    ]
    return cases


def level1_emit():
    A, B = "https://example.com/a", "https://example.com/b"
    M = "https://agent.example/runs/7/cite"

    def ok(cid, desc, reqs, entries, value, detail):
        return case("aca-l1-emit-" + cid, desc, reqs, 1, {"entries": entries}, "valid", output={"value": value}, derivation_=hand(detail))

    def bad(cid, desc, reqs, entries, errors, detail):
        return case("aca-l1-emit-" + cid, desc, reqs, 1, {"entries": entries}, "invalid", errors=errors, derivation_=hand(detail))

    return [
        ok("single", "One entry.", ["ACA-L1-001", "ACA-L1-005"], [ent(A, M)], '<%s>; manifest="%s"' % (A, M),
           "docs/ADAPTER.md aca-header-emit: '<S>; manifest=\"M\"'."),
        ok("run-and-params", "Run and two parameters: a token value and a value that needs quoting.", ["ACA-L1-006", "ACA-L1-007"],
           [ent(A, M, "7", [["rel", "cite"], ["title", 'say "hi" \\ bye']])],
           '<%s>; manifest="%s"; run="7"; rel=cite; title="say \\"hi\\" \\\\ bye"' % (A, M),
           "A token value is written as is; otherwise a quoted-string with \" and \\ escaped."),
        ok("two-entries", "Two entries joined with ', '.", ["ACA-L1-002", "ACA-L1-008"], [ent(A, M, "7"), ent(B, M, "7")],
           '<%s>; manifest="%s"; run="7", <%s>; manifest="%s"; run="7"' % (A, M, B, M), "Entries are joined with ', '."),
        ok("empty-param-value", "An empty parameter value is written as a quoted-string.", ["ACA-L1-006"], [ent(A, M, params=[["note", ""]])],
           '<%s>; manifest="%s"; note=""' % (A, M), "An empty string is not a token (token = 1*tchar)."),
        bad("no-entries", "Nothing to emit.", ["ACA-L1-001"], [], ["aca-header-missing"], "ACA-L1-001: the value must list at least one entry."),
        bad("ftp-source", "An ftp source.", ["ACA-L1-004"], [ent("ftp://example.com/a", M)], ["aca-url-invalid"], "Definitions: http or https only."),
        bad("source-with-gt", "A source containing '>' would end the URL early.", ["ACA-L1-002"], [ent("https://example.com/a>b", M)], ["aca-header-syntax"],
            "The emitted '<https://example.com/a>b>' does not match the grammar."),
        ok("no-manifest", "A header-only entry is written without parameters.", ["ACA-L1-005"], [ent(A)], "<%s>" % A,
           "ACA-L1-005: a Level 1 entry may have no manifest; the emitter writes '<S>'."),
        bad("manifest-in-params", "manifest repeated through params.", ["ACA-L1-006"], [ent(A, M, params=[["manifest", M]])], ["aca-header-param-duplicate"],
            "The emitted entry has manifest twice."),
        bad("duplicate-source", "One source twice.", ["ACA-L1-008"], [ent(A, M), ent(A, M)], ["aca-header-duplicate-source"], "ACA-L1-008."),
        bad("bad-run", "A run id with '/'.", ["ACA-L1-007"], [ent(A, M, "r/1")], ["aca-run-id-invalid"], "'/' is not in [A-Za-z0-9._:-]."),
        bad("run-mismatch", "Entries with different runs.", ["ACA-L1-007"], [ent(A, M, "1"), ent(B, M, "2")], ["aca-run-mismatch"], "ACA-L1-007."),
        bad("param-name-space", "A parameter name with a space.", ["ACA-L1-002"], [ent(A, M, params=[["my note", "x"]])], ["aca-header-syntax"],
            "A parameter name is a token."),
    ]


def level1_verify():
    L1 = ["ACA-L1-001", "ACA-L1-002"]
    out = []

    def sc(values):
        s = Scenario(1)
        s.header(*values)
        return s

    ok_detail = ("Level 1 holds; required_level 1. The snapshot has no manifest, so a verifier that "
                 "also checks Level 2 fails it (aca-manifest-fetch-failed): the level achieved is 1 either way.")
    out.append(verify_case("aca-l1-verify-header-only", "A well-formed header; manifests not in the snapshot.", L1 + ["ACA-L1-005"],
                           1, sc([BASE_HEADER]), 1, "valid", out_level=1, detail=ok_detail))
    out.append(verify_case("aca-l1-verify-two-lines", "The header split over two field lines.", ["ACA-L1-002"],
                           1, sc(['<%s>; manifest="%s"; run="r1"' % (SRC_A, M1), '<%s>; manifest="%s"; run="r1"' % (SRC_B, M1)]), 1, "valid",
                           out_level=1, detail=ok_detail))
    s = sc([])
    s.agent_headers.append(["Citation-SOURCE", BASE_HEADER])
    out.append(verify_case("aca-l1-verify-name-case", "Field name in mixed case.", ["ACA-L1-001"], 1, s, 1, "valid", out_level=1,
                           detail="Field names are matched case-insensitively. " + ok_detail))
    legacy = '<%s>, <%s>' % (SRC_A, SRC_B)
    out.append(verify_case("aca-l1-verify-header-only-legacy", "A legacy header of bare <url> entries, no manifest (seed Level 1).", ["ACA-L1-001", "ACA-L1-005"],
                           1, sc([legacy]), 1, "valid", out_level=1,
                           detail="Seed: 'Level 1 (header only). Citation-Source header present; no per-claim manifest.' ACA-L1-005: manifest is optional at Level 1."))
    out.append(verify_case("aca-l1-verify-header-only-asked-level-2", "The legacy header verified for Level 2: no manifest, no run.", ["ACA-L1-005", "ACA-L2-004"],
                           1, sc([legacy]), 2, "invalid", ["aca-header-manifest-missing", "aca-run-missing"],
                           detail="ACA-L1-005: a header-only entry fails Level 2; ACA-L2-004: Level 2 needs run. Level 1."))
    out.append(verify_case("aca-l1-verify-no-header", "No Citation-Source: the seed's 'MUST include a Citation-Source header'.", ["ACA-L1-001"],
                           1, sc([]), 1, "invalid", ["aca-header-missing"], detail="Level 0."))
    out.append(verify_case("aca-l1-verify-syntax", "The header without angle brackets.", ["ACA-L1-002"],
                           1, sc(['%s; manifest="%s"' % (SRC_A, M1)]), 1, "invalid", ["aca-header-syntax"], detail="Level 0."))
    out.append(verify_case("aca-l1-verify-duplicate-source", "One source listed twice.", ["ACA-L1-008"],
                           1, sc([header([(SRC_A, M1, None), (SRC_A, M1, None)])]), 1, "invalid", ["aca-header-duplicate-source"], detail="Level 0."))
    # ---- ACA-L1-009: the agent response's own status (issue 19, item 5)
    for status, why in [(500, "a server error page"), (404, "a not-found page"), (206, "a partial response (2xx but not 200)"),
                        (304, "a 304 Not Modified"), (302, "a redirect stored as the agent response")]:
        s = sc([BASE_HEADER])
        s.agent_status = status
        out.append(verify_case("aca-l1-verify-response-status-%d" % status,
                               "The agent response answers %d (%s) with a well-formed Citation-Source header." % (status, why),
                               ["ACA-L1-009", "FETCH-007"], 1, s, 1, "invalid", ["aca-response-fetch-failed", "fetch-http-status"],
                               detail="ACA-L1-009: the agent response is the final response of a GET; FETCH-007 accepts only 200, so the fetch "
                                      "failed and nothing else is checked (reporting rule 3). The header alone would be Level 1. Level 0."))
    s = sc([BASE_HEADER])
    s.agent_headers.append(["content-encoding", "gzip"])
    out.append(verify_case("aca-l1-verify-response-gzip", "The agent response is served with Content-Encoding: gzip.", ["ACA-L1-009", "FETCH-006"],
                           1, s, 1, "invalid", ["aca-response-fetch-failed", "fetch-content-encoding"],
                           detail="FETCH-006: a content coding fails the fetch and its body is not used. Level 0."))
    s = sc([BASE_HEADER])
    s.agent_headers.append(["content-encoding", "identity"])
    out.append(verify_case("aca-l1-verify-response-identity", "The agent response says Content-Encoding: identity.", ["ACA-L1-009", "FETCH-006"],
                           1, s, 1, "valid", out_level=1, detail="FETCH-006: only a coding other than identity fails the fetch. " + ok_detail))
    return out


# =============================================================================================
# Level 2: manifests

def mv_case(prefix, level, cid, desc, reqs, document, result, errors=None, detail="", flags=None):
    if not isinstance(document, str):
        document = dumps(document)
    return case(prefix + cid, desc, reqs, level, {"document": document}, result, errors=errors,
                derivation_=hand(detail), flags=flags)


def level2_manifest_validate():
    P = "aca-l2-manifest-"
    base = manifest(with_chain=False, response_url=None)

    def m(f):
        d = copy.deepcopy(base)
        f(d)
        return d

    def src(d):
        return d["claims"][0]["sources"][0]

    def ok(cid, desc, reqs, doc, detail, flags=None):
        return mv_case(P, 2, cid, desc, reqs, doc, "valid", detail=detail, flags=flags)

    def bad(cid, desc, reqs, doc, errors, detail, flags=None):
        return mv_case(P, 2, cid, desc, reqs, doc, "invalid", errors, detail, flags)

    long_id = "c" + "x" * 63
    long_run = "r" + "1" * 127
    return [
        ok("seed-shape", "The seed's manifest shape with real hashes and an excerpt_hash.",
           ["ACA-L2-003", "ACA-L2-005", "ACA-L2-006", "ACA-L2-008", "ACA-L2-009", "ACA-L2-010", "JSON-001", "JSON-002", "JSON-003", "CANON-002"],
           base, "Every member present with the profile's types; retrieved_at 09:55 <= emitted_at 10:00."),
        ok("confidence-medium-low", "confidence medium and low.", ["ACA-L2-005"],
           m(lambda d: (d["claims"][0].__setitem__("confidence", "medium"), d["claims"][1].__setitem__("confidence", "low"))),
           "ACA-L2-005: high, medium, low."),
        ok("extensions", "x- members on the manifest, a claim and a claim source.", ["ACA-L2-003", "ACA-L2-005", "ACA-L2-008", "JSON-004"],
           m(lambda d: (d.__setitem__("x-trace", {"id": 7}), d["claims"][0].__setitem__("x-ui", True), src(d).__setitem__("x-note", "n"))),
           "JSON-004: x- members are allowed in manifests, claims and claim sources."),
        ok("no-excerpt-hash", "excerpt_hash is optional.", ["ACA-L2-008"], m(lambda d: src(d).pop("excerpt_hash")), "ACA-L2-008: optionally excerpt_hash."),
        ok("response-url", "The manifest names the response it was emitted for.", ["ACA-L2-003", "ACA-L2-024"],
           m(lambda d: d.__setitem__("response_url", AGENT)), "ACA-L2-003: optionally response_url, a web URL."),
        ok("response-url-query", "response_url with a query string.", ["ACA-L2-003", "ACA-L2-024"],
           m(lambda d: d.__setitem__("response_url", AGENT + "?session=7&lang=en")), "A web URL may carry a query."),
        ok("id-lengths", "A 64-character claim id and a 128-character run id.", ["ACA-L2-003", "ACA-L2-006"],
           m(lambda d: (d.__setitem__("run_id", long_run), d["claims"][0].__setitem__("claim_id", long_id))),
           "{0,63} and {0,127} after the first character.",
           [boundary("manifest-run-id-length", "inside"), boundary("aca-claim-id-length", "inside")]),
        ok("id-punctuation", "Claim ids with . _ : -.", ["ACA-L2-006"], m(lambda d: d["claims"][0].__setitem__("claim_id", "c1.a_b:c-d")),
           "[A-Za-z0-9._:-] after the first character."),
        ok("offset-timestamps", "emitted_at with a fraction and an offset; retrieved_at equal to it as an instant.", ["ACA-L2-010", "JSON-005"],
           m(lambda d: (d.__setitem__("emitted_at", "2026-04-28T12:00:00.5+02:00"), src(d).__setitem__("retrieved_at", "2026-04-28T10:00:00.500Z"))),
           "JSON-005 allows 1-9 fraction digits and +HH:MM; 12:00:00.5+02:00 = 10:00:00.5Z, not later than itself."),
        ok("same-instant-other-offset", "retrieved_at 12:00+02:00 equals emitted_at 10:00Z as an instant.", ["ACA-L2-010", "JSON-005"],
           m(lambda d: src(d).__setitem__("retrieved_at", "2026-04-28T12:00:00+02:00")),
           "Compared as instants the two are equal, so retrieval is not later than emission (a text comparison would say '12' > '10')."),
        ok("long-agent-id", "agent_id of 300 characters.", ["ACA-L2-003"], m(lambda d: d.__setitem__("agent_id", "a" * 300)),
           "ACA-L2-003 only requires a non-empty string."),
        ok("offset-zero-start", "excerpt_offset starting at 0.", ["ACA-L2-009"], m(lambda d: src(d).__setitem__("excerpt_offset", [0, 1])),
           "0 <= start < end."),
        ok("big-offset", "excerpt_offset end 2^53-1 is still an integer (range is checked against the body later).", ["ACA-L2-009", "JSON-003"],
           m(lambda d: src(d).__setitem__("excerpt_offset", [0, 9007199254740991])), "JSON-003: integers up to 2^53-1.", ),

        bad("syntax", "Trailing comma.", ["JSON-001"], '{"run_id":"r1",}', ["json-syntax"], "RFC 8259."),
        bad("bom", "A leading byte order mark.", ["JSON-001"], "\ufeff" + jcs_text(base), ["json-syntax"], "JSON-001 rejects a BOM."),
        bad("duplicate-member", "run_id twice.", ["JSON-002"], '{"run_id":"r1","run_id":"r2","agent_id":"a","emitted_at":"2026-04-28T10:00:00Z","claims":[]}',
            ["json-duplicate-member"], "JSON-002."),
        bad("lone-surrogate", "A lone surrogate escape in a claim text.", ["JSON-002"],
            jcs_text(base).replace(QUOTE_A, "x\\ud800", 1), ["json-lone-surrogate"], "JSON-002."),
        bad("number-overflow", "An offset of 1e400.", ["JSON-002"], jcs_text(base).replace('"excerpt_offset":[', '"excerpt_offset":[1e400,', 1).replace(",%d," % offsets(BODY_A, QUOTE_A)[0], ",", 1),
            ["json-number-out-of-range"], "1e400 overflows a double."),
        bad("not-object", "A top-level array.", ["JSON-001", "ACA-L2-003"], "[]", ["schema-violation"], "The top-level value is an object."),
        bad("run-id-missing", "No run_id.", ["ACA-L2-003"], m(lambda d: d.pop("run_id")), ["schema-violation"], "run_id is required."),
        bad("run-id-space", "run_id with a space.", ["ACA-L2-003"], m(lambda d: d.__setitem__("run_id", "run 1")), ["aca-run-id-invalid"], "Pattern ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$."),
        bad("run-id-129", "run_id of 129 characters.", ["ACA-L2-003"], m(lambda d: d.__setitem__("run_id", long_run + "1")), ["aca-run-id-invalid"], "At most 128 characters.",
            [boundary("manifest-run-id-length", "outside")]),
        bad("agent-id-empty", "agent_id empty.", ["ACA-L2-003"], m(lambda d: d.__setitem__("agent_id", "")), ["schema-violation"], "Non-empty string."),
        bad("emitted-at-missing", "No emitted_at.", ["ACA-L2-003"], m(lambda d: d.pop("emitted_at")), ["schema-violation"], "Required."),
        bad("emitted-at-space", "A space instead of T.", ["JSON-005"], m(lambda d: d.__setitem__("emitted_at", "2026-04-28 10:00:00Z")), ["schema-timestamp-invalid"], "JSON-005: uppercase T."),
        bad("emitted-at-lowercase", "Lowercase t and z.", ["JSON-005"], m(lambda d: d.__setitem__("emitted_at", "2026-04-28t10:00:00z")), ["schema-timestamp-invalid"], "JSON-005: uppercase T and Z."),
        bad("emitted-at-leap", "A leap second.", ["JSON-005"], m(lambda d: d.__setitem__("emitted_at", "2026-12-31T23:59:60Z")), ["schema-timestamp-invalid"], "JSON-005: seconds 00-59."),
        bad("emitted-at-lowercase-t", "Only the separator in lowercase (2026-04-28t10:00:00Z).", ["JSON-005"],
            m(lambda d: d.__setitem__("emitted_at", "2026-04-28t10:00:00Z")), ["schema-timestamp-invalid"],
            "JSON-005: the separator is an uppercase T (RFC 3339 allows t; the profile does not)."),
        bad("emitted-at-lowercase-z", "Only the UTC designator in lowercase (2026-04-28T10:00:00z).", ["JSON-005"],
            m(lambda d: d.__setitem__("emitted_at", "2026-04-28T10:00:00z")), ["schema-timestamp-invalid"],
            "JSON-005: the offset is an uppercase Z or +HH:MM/-HH:MM."),
        ok("emitted-at-fraction-9-digits", "emitted_at with a fraction of 9 digits (nanoseconds).", ["JSON-005"],
           m(lambda d: d.__setitem__("emitted_at", "2026-04-28T10:00:00.123456789Z")),
           "JSON-005: a fraction of 1 to 9 digits; 10:00:00.123456789 is after every retrieved_at of the manifest.",
           [boundary("fraction-digits", "inside")]),
        bad("emitted-at-fraction-10-digits", "emitted_at with a fraction of 10 digits.", ["JSON-005"],
            m(lambda d: d.__setitem__("emitted_at", "2026-04-28T10:00:00.1234567890Z")), ["schema-timestamp-invalid"],
            "JSON-005: at most 9 fraction digits; 10 > 9.", [boundary("fraction-digits", "outside")]),
        ok("retrieved-at-year-0001", "A source retrieved at the first instant of year 0001.", ["JSON-005"],
           m(lambda d: src(d).__setitem__("retrieved_at", "0001-01-01T00:00:00Z")),
           "JSON-005: years 0001-9999; 0001-01-01 is before emitted_at.", [boundary("year-range", "inside")]),
        bad("retrieved-at-year-0000", "A source retrieved in year 0000.", ["JSON-005"],
            m(lambda d: src(d).__setitem__("retrieved_at", "0000-12-31T23:59:59Z")), ["schema-timestamp-invalid"],
            "JSON-005: years 0001-9999; 0000 is outside.", [boundary("year-range", "outside")]),
        bad("emitted-at-no-offset", "No offset.", ["JSON-005"], m(lambda d: d.__setitem__("emitted_at", "2026-04-28T10:00:00")), ["schema-timestamp-invalid"], "An offset is required."),
        bad("claims-empty", "claims is empty.", ["ACA-L2-003"], m(lambda d: d.__setitem__("claims", [])), ["schema-violation"], "Non-empty array."),
        bad("response-url-relative", "response_url is a relative reference.", ["ACA-L2-003", "ACA-L2-024"],
            m(lambda d: d.__setitem__("response_url", "/runs/r1")), ["aca-url-invalid"], "ACA-L2-024: a web URL (absolute, http or https)."),
        bad("response-url-ftp", "response_url with the ftp scheme.", ["ACA-L2-003", "ACA-L2-024"],
            m(lambda d: d.__setitem__("response_url", "ftp://agent.example/runs/r1")), ["aca-url-invalid"], "Definitions: scheme http or https."),
        bad("response-url-not-string", "response_url is an array of URLs.", ["ACA-L2-003"],
            m(lambda d: d.__setitem__("response_url", [AGENT])), ["schema-violation"], "ACA-L2-003: a string."),
        bad("response-url-snake-case-typo", "responseUrl instead of response_url.", ["ACA-L2-003", "JSON-004"],
            m(lambda d: d.__setitem__("responseUrl", AGENT)), ["unknown-member"], "JSON-004: not a member of the profile, not x-."),
        bad("unknown-member", "A manifest member 'signature' that is not x-.", ["ACA-L2-003", "JSON-004"], m(lambda d: d.__setitem__("signature", "abc")), ["unknown-member"], "JSON-004."),
        bad("claim-text-empty", "Empty claim text.", ["ACA-L2-005"], m(lambda d: d["claims"][0].__setitem__("text", "")), ["schema-violation"], "Non-empty string."),
        bad("claim-sources-empty", "A claim with no sources.", ["ACA-L2-005"], m(lambda d: d["claims"][0].__setitem__("sources", [])), ["schema-violation"], "Non-empty array."),
        bad("claim-unknown-member", "A claim member 'url'.", ["ACA-L2-005", "JSON-004"], m(lambda d: d["claims"][0].__setitem__("url", SRC_A)), ["unknown-member"], "JSON-004."),
        bad("confidence-certain", "confidence 'certain'.", ["ACA-L2-005"], m(lambda d: d["claims"][0].__setitem__("confidence", "certain")), ["aca-confidence-invalid"], "Only high, medium, low."),
        bad("confidence-case", "confidence 'High'.", ["ACA-L2-005"], m(lambda d: d["claims"][0].__setitem__("confidence", "High")), ["aca-confidence-invalid"], "Values are case-sensitive."),
        bad("claim-id-free-text", "A free-text claim id (seed pitfall).", ["ACA-L2-006"], m(lambda d: d["claims"][0].__setitem__("claim_id", "Programmatic GEO claim")), ["aca-claim-id-invalid"],
            "Seed 000: 'Free-text claim ids. Use stable claim_ids'; spaces are not allowed."),
        bad("claim-id-65", "A 65-character claim id.", ["ACA-L2-006"], m(lambda d: d["claims"][0].__setitem__("claim_id", long_id + "x")), ["aca-claim-id-invalid"], "At most 64 characters.",
            [boundary("aca-claim-id-length", "outside")]),
        bad("claim-id-leading-dot", "A claim id starting with '.'.", ["ACA-L2-006"], m(lambda d: d["claims"][0].__setitem__("claim_id", ".c1")), ["aca-claim-id-invalid"], "First character [A-Za-z0-9]."),
        bad("claim-id-non-ascii", "A claim id with U+00E9.", ["ACA-L2-006"], m(lambda d: d["claims"][0].__setitem__("claim_id", "caf\u00e9")), ["aca-claim-id-invalid"], "ASCII only."),
        bad("claim-id-duplicate", "Two claims with id c1.", ["ACA-L2-007"], m(lambda d: d["claims"][1].__setitem__("claim_id", "c1")), ["aca-claim-id-duplicate"], "ACA-L2-007: unique within a manifest."),
        bad("source-url-missing", "A claim source without url.", ["ACA-L2-008"], m(lambda d: src(d).pop("url")), ["schema-violation"], "url is required."),
        bad("source-url-ftp", "An ftp source URL.", ["ACA-L2-008"], m(lambda d: src(d).__setitem__("url", "ftp://example.com/geo")), ["aca-url-invalid"], "Web URL required."),
        bad("source-url-space", "A source URL with a space.", ["ACA-L2-008"], m(lambda d: src(d).__setitem__("url", "https://example.com/a b")), ["aca-url-invalid"], "Only visible ASCII."),
        bad("retrieved-at-date-only", "retrieved_at is a date.", ["ACA-L2-008", "JSON-005"], m(lambda d: src(d).__setitem__("retrieved_at", "2026-04-28")), ["schema-timestamp-invalid"], "A timestamp is required."),
        bad("hash-missing", "No hash (seed pitfall 'Skipping the hash').", ["ACA-L2-008"], m(lambda d: src(d).pop("hash")), ["aca-hash-missing"], "ACA-L2-008: reported as aca-hash-missing."),
        bad("hash-uppercase", "Uppercase hex digits.", ["ACA-L2-008", "CANON-002"], m(lambda d: src(d).__setitem__("hash", "sha256:" + sha256_hash(BODY_A)[7:].upper())), ["canon-hash-syntax"], "Lowercase hex only."),
        bad("hash-sha512", "A sha512: prefix.", ["CANON-002"], m(lambda d: src(d).__setitem__("hash", "sha512:" + "0" * 128)), ["canon-hash-syntax"], "Only sha256:."),
        bad("hash-short", "63 hex digits.", ["CANON-002"], m(lambda d: src(d).__setitem__("hash", sha256_hash(BODY_A)[:-1])), ["canon-hash-syntax"], "Exactly 64 digits."),
        bad("excerpt-hash-bad", "excerpt_hash without prefix.", ["ACA-L2-008", "CANON-002"], m(lambda d: src(d).__setitem__("excerpt_hash", sha256_hash(BODY_A)[7:])), ["canon-hash-syntax"], "sha256: prefix required."),
        bad("source-unknown-member", "A claim source member 'excerpt'.", ["ACA-L2-008", "JSON-004"], m(lambda d: src(d).__setitem__("excerpt", "x")), ["unknown-member"], "JSON-004."),
        bad("offset-missing", "No excerpt_offset.", ["ACA-L2-009"], m(lambda d: src(d).pop("excerpt_offset")), ["aca-offset-missing"], "ACA-L2-009."),
        bad("offset-empty-range", "[5, 5].", ["ACA-L2-009"], m(lambda d: src(d).__setitem__("excerpt_offset", [5, 5])), ["aca-offset-invalid"], "start < end."),
        bad("offset-inverted", "[9, 3].", ["ACA-L2-009"], m(lambda d: src(d).__setitem__("excerpt_offset", [9, 3])), ["aca-offset-invalid"], "start < end."),
        bad("offset-negative", "[-1, 3].", ["ACA-L2-009"], m(lambda d: src(d).__setitem__("excerpt_offset", [-1, 3])), ["aca-offset-invalid"], "0 <= start."),
        bad("offset-one-number", "[3].", ["ACA-L2-009"], m(lambda d: src(d).__setitem__("excerpt_offset", [3])), ["aca-offset-invalid"], "Exactly two integers."),
        bad("offset-three-numbers", "[1, 2, 3].", ["ACA-L2-009"], m(lambda d: src(d).__setitem__("excerpt_offset", [1, 2, 3])), ["aca-offset-invalid"], "Exactly two integers."),
        bad("offset-string", "\"1-5\".", ["ACA-L2-009"], m(lambda d: src(d).__setitem__("excerpt_offset", "1-5")), ["aca-offset-invalid"], "An array of two integers."),
        bad("offset-fraction", "[1.0, 5] written with a fraction.", ["ACA-L2-009", "JSON-003"],
            jcs_text(base).replace('"excerpt_offset":[%d,' % offsets(BODY_A, QUOTE_A)[0], '"excerpt_offset":[1.0,', 1), ["aca-offset-invalid"],
            "JSON-003: integers are written without fraction or exponent."),
        bad("offset-exponent", "[0, 1e2] written with an exponent.", ["ACA-L2-009", "JSON-003"],
            jcs_text(base).replace('"excerpt_offset":[%d,%d]' % offsets(BODY_A, QUOTE_A), '"excerpt_offset":[0,1e2]', 1), ["aca-offset-invalid"],
            "JSON-003: no exponent part."),
        bad("offset-2-53", "end 2^53.", ["ACA-L2-009", "JSON-003"], m(lambda d: src(d).__setitem__("excerpt_offset", [0, 9007199254740992])), ["aca-offset-invalid"],
            "JSON-003: integers are at most 2^53-1."),
        bad("retrieved-after-emitted", "A source retrieved one second after emission.", ["ACA-L2-010"], m(lambda d: src(d).__setitem__("retrieved_at", "2026-04-28T10:00:01Z")),
            ["aca-retrieved-after-emitted"], "10:00:01 > 10:00:00."),
        bad("retrieved-after-emitted-offset", "Later as an instant although earlier as text.", ["ACA-L2-010", "JSON-005"],
            m(lambda d: src(d).__setitem__("retrieved_at", "2026-04-28T09:30:00-01:00")), ["aca-retrieved-after-emitted"],
            "09:30-01:00 = 10:30Z > 10:00Z: timestamps are compared as instants."),
    ]


def l2_manifest_only(s, value, url=M1):
    s.serve_manifest(url, value, signed=False)


def level2_verify():
    P = "aca-l2-verify-"
    out = []
    L2 = ["ACA-L2-001", "ACA-L2-002", "ACA-L2-004", "ACA-L2-012", "ACA-L2-013", "ACA-L2-014", "ACA-L2-016", "ACA-L2-017", "ACA-L2-018"]
    lvl2 = ("required_level 2; the manifest has no chain and no signature, so Level 3 fails for a "
            "verifier that checks it: the level achieved is 2 either way.")

    def ok(cid, desc, reqs, s, detail, warnings=None, flags=None):
        return verify_case(P + cid, desc, reqs, 2, s, 2, "valid", out_level=2, detail=detail + " " + lvl2, warnings=warnings,
                           flags=flags)

    def bad(cid, desc, reqs, s, errors, detail, level=1):
        return verify_case(P + cid, desc, reqs, 2, s, 2, "invalid", errors, detail=detail + " Level %d." % level)

    def mod(f, s=None):
        s = s or Scenario(2)
        m = manifest(with_chain=False)
        f(m)
        l2_manifest_only(s, m)
        return s

    def source_b(body):
        """The Level 2 scenario with SRC_B serving `body` (text/plain) instead of BODY_B."""
        s = Scenario(2)
        s.resources[SRC_B] = stored(200, [["content-type", "text/plain"]], body)
        return s

    def two_manifests(edit=None, m2_run="r1"):
        """One manifest per source, both named for run r1 in the header: M1 keeps claim c1 (citing
        SRC_A), M2 claim c2 (citing SRC_B); `edit(m1, m2)` changes them before they are served."""
        s = Scenario(2)
        s.header(header([(SRC_A, M1, "r1"), (SRC_B, M2, "r1")]))
        m1 = manifest(with_chain=False)
        m1["claims"] = m1["claims"][:1]
        m2 = manifest(with_chain=False, run_id=m2_run)
        m2["claims"] = m2["claims"][1:]
        if edit:
            edit(m1, m2)
        l2_manifest_only(s, m1, M1)
        l2_manifest_only(s, m2, M2)
        return s

    out.append(ok("baseline", "Two sources, two claims, one manifest: hashes, offsets, excerpt hashes and support all hold.",
                  L2 + ["ACA-L2-003", "ACA-L2-005", "ACA-L2-008", "ACA-L2-009", "ACA-L2-015", "ACA-L2-020", "ACA-L2-021", "FETCH-009"], Scenario(2),
                  "hash = SHA-256 of each body; excerpt_offset from the byte index of the quote; excerpt_hash = AEF text hash; "
                  "c1 is a substring of its excerpt; every content word of c2 (crawlers revisit stable canonical urls often) is a token of its excerpt. "
                  "ACA-L2-015 does not apply: no source changed."))
    # one manifest per source
    out.append(ok("two-manifests", "One manifest per source, both of run r1.", ["ACA-L2-001", "ACA-L2-004", "ACA-L2-012"], two_manifests(),
                  "Each header entry's manifest cites its source; both manifests carry run_id r1 = the header's run."))
    # shared claim across manifests
    s = two_manifests(lambda m1, m2: m2["claims"].append(copy.deepcopy(m1["claims"][0])))
    out.append(ok("shared-claim", "Claim c1 appears in two manifests with the same text.", ["ACA-L2-007", "ACA-L2-012"], s,
                  "ACA-L2-007: the same claim_id with byte-identical text in two manifests is one claim."))
    s = Scenario(2)
    s.resources[M1]["headers"] = [["content-type", "application/vnd.agent.manifest+json; charset=utf-8"]]
    out.append(ok("json-suffix-media-type", "Manifest served as application/vnd.agent.manifest+json with a charset.", ["ACA-L2-002"], s,
                  "Media type = type/subtype lowercased without parameters; a +json suffix is accepted."))
    s = Scenario(2)
    s.resources["https://example.com/old-geo"] = stored(301, [["location", SRC_A]], b"")
    s.header(header([("https://example.com/old-geo", M1, "r1"), (SRC_B, M1, "r1")]))
    mm = manifest(with_chain=False)
    mm["claims"][0]["sources"][0]["url"] = "https://example.com/old-geo"
    l2_manifest_only(s, mm)
    out.append(ok("source-redirect", "The source URL redirects (301) to where the bytes are.", ["ACA-L2-013", "FETCH-005"], s,
                  "FETCH-005: one redirect is followed; checks use the final response."))
    s = Scenario(2)
    s.header(header([(SRC_A + "#main", M1, "r1"), (SRC_B, M1, "r1")]))
    mm = manifest(with_chain=False)
    mm["claims"][0]["sources"][0]["url"] = SRC_A + "#main"
    l2_manifest_only(s, mm)
    out.append(ok("source-fragment", "A source URL with a fragment.", ["ACA-L2-013", "FETCH-001"], s,
                  "FETCH-001: the fragment is removed before the request; the header and the claim use the same URL."))
    # Support check variants
    body = "\u00dcber die Stra\u00dfe: Caf\u00e9s \u00f6ffnen fr\u00fch.\nZweite Zeile.\r\nDritte.\n".encode("utf-8")
    quote = "\u00dcber die Stra\u00dfe: Caf\u00e9s \u00f6ffnen fr\u00fch."
    s = Scenario(2)
    s.resources[SRC_A] = stored(200, [["content-type", "text/plain; charset=utf-8"]], body)
    mm = manifest(with_chain=False)
    mm["claims"][0] = claim("c1", "\u00fcber die STRASSE: cafe\u0301s \u00f6ffnen FR\u00dcH", [csource(SRC_A, body, quote)])
    l2_manifest_only(s, mm)
    out.append(ok("support-casefold-nfc", "The claim differs from the excerpt only by case (full folding: \u00df = ss), NFC and punctuation at the end.", ["ACA-L2-018"], s,
                  "N(text) = 'über die strasse: cafés öffnen früh' is a substring of N(excerpt) = 'über die strasse: cafés öffnen früh.' "
                  "(full case folding maps Ü to ü, ß to ss and STRASSE to strasse; NFC composes e+U+0301 to é)."))
    s = Scenario(2)
    mm = manifest(with_chain=False)
    mm["claims"][1] = claim("c2", "Programmatic templates and AI crawlers favour stable canonical URLs.",
                            [csource(SRC_A, BODY_A, QUOTE_A), csource(SRC_B, BODY_B, QUOTE_B)])
    mm["claims"][1]["text"] = "Programmatic templates: AI crawlers revisit stable canonical pages."
    l2_manifest_only(s, mm)
    out.append(bad("support-no-pooling", "Content words of one claim come from two excerpts: never pooled.", ["ACA-L2-018", "ACA-L2-019"], s,
                   ["aca-claim-unsupported"],
                   "Content stems: programmatic, template (excerpt A), crawler, revisit, stable, canonical, page. Excerpt A holds "
                   "programmatic, template, canonical, page (4 of 7 < ceil(28/5) = 6); excerpt B holds crawler, revisit, stable, canonical, "
                   "page (5 < 6). ACA-L2-018 checks each excerpt on its own (vectors/tools/aca_support.py agrees).", level=1))
    s = Scenario(2)
    mm = manifest(with_chain=False)
    mm["claims"][1]["text"] = "AI crawlers do not revisit pages with stable canonical URLs more often."
    l2_manifest_only(s, mm)
    out.append(bad("claim-negated", "The claim negates its excerpt (the review's F1 attack).", ["ACA-L2-018"], s,
                   ["aca-claim-unsupported"], "'not' makes the claim's negation count 1 and the excerpt's 0 (ACA-L2-018 (1)).", level=1))
    s = Scenario(2)
    page = BODY_B + b"".join(b"Note %d: crawl budgets depend on server speed and on the number of duplicate URLs.\n" % i for i in range(8))
    s.resources[SRC_B] = stored(200, [["content-type", "text/plain"]], page)
    mm = manifest(with_chain=False)
    mm["claims"][1]["sources"] = [csource(SRC_B, page, page.decode("utf-8"))]
    mm["claims"][1]["text"] = "AI crawlers revisit canonical URLs."
    l2_manifest_only(s, mm)
    out.append(bad("excerpt-whole-page", "excerpt_offset spans the whole source body (the review's whole-page attack).", ["ACA-L2-020"], s,
                   ["aca-excerpt-too-long"],
                   "N(page) has %d characters > max(4 x 35, 400) = 400 (ACA-L2-020); the claim is then not support-checked "
                   "(every excerpt broke the cap)." % len(" ".join(page.decode("utf-8").split())), level=1))
    crlf = b"Line one\r\nAI crawlers revisit pages with stable\r\ncanonical URLs more often.\r\n"
    q = "AI crawlers revisit pages with stable\r\ncanonical URLs more often.\r\n"
    s = source_b(crlf)
    mm = manifest(with_chain=False)
    mm["claims"][1]["sources"] = [csource(SRC_B, crlf, q)]
    l2_manifest_only(s, mm)
    out.append(ok("excerpt-hash-crlf", "An excerpt with CRLF line ends and a trailing CRLF: excerpt_hash is the AEF text hash.", ["ACA-L2-017", "CANON-003"], s,
                  "CANON-003 (b): CRLF -> LF, one trailing LF removed, then SHA-256; the support check collapses the line break."))
    s = Scenario(2)
    mm = manifest(with_chain=False)
    mm["emitted_at"] = "2026-04-28T10:05:01Z"
    l2_manifest_only(s, mm)
    out.append(ok("emitted-in-future", "emitted_at 301 s after the verification time (a SHOULD).", ["ACA-L2-011"], s,
                  "10:05:01 - 10:00:00 = 301 s > 300 s: a warning; warnings never lower a level.", warnings=["aca-emitted-in-future"],
                  flags=[boundary("emitted-at-skew", "outside")]))
    s = Scenario(2)
    mm = manifest(with_chain=False)
    mm["emitted_at"] = "2026-04-28T10:05:00Z"
    l2_manifest_only(s, mm)
    out.append(ok("emitted-within-skew", "emitted_at exactly 300 s after the verification time.", ["ACA-L2-011"], s,
                  "300 s is not more than 300 s: no warning.", warnings=[], flags=[boundary("emitted-at-skew", "inside")]))
    s = Scenario(2)
    mm = manifest(with_chain=False)
    mm["claims"][0]["sources"].append(csource(SRC_B, BODY_B, "Sitemaps list canonical URLs."))
    mm["claims"][0]["text"] = "Programmatic GEO templates emit at most one question per page."
    l2_manifest_only(s, mm)
    out.append(ok("irrelevant-excerpt", "A second excerpt shares no content word with the claim (a SHOULD).", ["ACA-L2-019", "ACA-L2-018"], s,
                  "Claim content words: programmatic, geo, templates, emit, question, page; excerpt 'Sitemaps list canonical URLs.' has tokens "
                  "sitemaps list canonical urls: none shared, a warning. The claim is supported by the first excerpt (all its content words are tokens there).",
                  warnings=["aca-source-irrelevant"]))

    # ---- failures
    s = Scenario(2)
    del s.resources[M1]
    out.append(bad("manifest-unreachable", "The manifest URL is not in the snapshot.", ["ACA-L2-001", "FETCH-008"], s,
                   ["aca-manifest-fetch-failed", "fetch-not-in-snapshot"], "Reporting rule 4: consumer code and cause code."))
    # ACA-L2-001: the manifest URL of each tuple is fetched; an entry whose source is not a web
    # URL or whose manifest parameter is repeated is no tuple and names no manifest, whatever
    # else is wrong with an entry that is one. M3 and M4 are not in the snapshot, so a verifier
    # that fetches them adds aca-manifest-fetch-failed and fetch-not-in-snapshot.
    M3, M4 = AGENT + "/manifest-c", AGENT + "/manifest-d"
    NOTES = "https://example.net/notes"
    for cid, desc, extra, reqs, codes, why in [
        ("manifest-of-invalid-source", "A third entry whose source (https:example.net/notes, no authority) is not a web URL names a manifest that is not in the snapshot.",
         '<https:example.net/notes>; manifest="%s"; run="r1"' % M3, ["ACA-L1-004"], ["aca-url-invalid"],
         "ACA-L1-004 fails; the entry is no tuple, so its manifest is not fetched."),
        ("manifest-parameter-repeated", "A third entry with two manifest parameters, neither in the snapshot.",
         '<%s>; manifest="%s"; manifest="%s"; run="r1"' % (NOTES, M3, M4), ["ACA-L1-005", "ACA-L1-006"], ["aca-header-param-duplicate"],
         "ACA-L1-005 fails (at most one manifest); which one the entry names is ambiguous, so neither is fetched."),
        ("manifest-with-quoted-pair", "A third entry whose manifest value holds a quoted-pair (manifest-\\c: the value unescapes to a URL not in the snapshot).",
         '<%s>; manifest="%s"; run="r1"' % (NOTES, M3.replace("-c", "-\\c")), ["ACA-L1-005", "ACA-L2-001"], ["aca-header-param-form"],
         "ACA-L1-005 fails (no backslash in the manifest value); the entry is no tuple, so its manifest is not fetched (ACA-L2-001)."),
        ("manifest-of-entry-with-repeated-parameter", "A third entry whose other parameter rel is repeated names a manifest that is not in the snapshot.",
         '<%s>; manifest="%s"; run="r1"; rel="a"; rel="b"' % (NOTES, M3), ["ACA-L1-006", "FETCH-008"],
         ["aca-header-param-duplicate", "aca-manifest-fetch-failed", "fetch-not-in-snapshot"],
         "ACA-L1-006 fails, but the entry is a tuple (a web URL and one well-formed manifest), so its manifest is fetched, and fails (reporting rule 4)."),
        ("manifest-of-entry-with-run-token", "A third entry whose run parameter is a token (run=r1) names a manifest that is not in the snapshot.",
         '<%s>; manifest="%s"; run=r1' % (NOTES, M3), ["ACA-L1-007", "ACA-L2-004", "FETCH-008"],
         ["aca-header-param-form", "aca-run-missing", "aca-manifest-fetch-failed", "fetch-not-in-snapshot"],
         "ACA-L1-007 fails and the entry has no run (ACA-L2-004), but it is a tuple, so its manifest is fetched, and fails (reporting rule 4)."),
        ("manifest-of-duplicate-source", "A third entry lists the first source again with a manifest that is not in the snapshot.",
         '<%s>; manifest="%s"; run="r1"' % (SRC_A, M3), ["ACA-L1-008", "FETCH-008"],
         ["aca-header-duplicate-source", "aca-manifest-fetch-failed", "fetch-not-in-snapshot"],
         "ACA-L1-008 fails, but the entry is a tuple, so its manifest is fetched, and fails (reporting rule 4)."),
    ]:
        s = Scenario(2)
        s.header(BASE_HEADER + ", " + extra)
        out.append(bad(cid, desc, ["ACA-L2-001"] + reqs, s, codes,
                       "Citation-Source: %s, %s. %s M1 (both other entries) is fetched and holds." % (BASE_HEADER, extra, why), level=0))
    s = Scenario(2)
    s.resources[M1] = stored(404, [["content-type", "text/plain"]], b"not found")
    out.append(bad("manifest-404", "The manifest answers 404.", ["ACA-L2-001", "FETCH-007"], s, ["aca-manifest-fetch-failed", "fetch-http-status"], "Only 200 is accepted."))
    s = Scenario(2)
    s.set_manifest_header("content-encoding", "gzip")
    out.append(bad("manifest-gzip", "The manifest is served with Content-Encoding: gzip.", ["ACA-L2-001", "FETCH-006"], s,
                   ["aca-manifest-fetch-failed", "fetch-content-encoding"], "FETCH-006: a content coding fails the fetch."))
    s = Scenario(2)
    s.set_manifest_header("content-type", "text/plain")
    out.append(bad("manifest-text-plain", "The manifest is served as text/plain.", ["ACA-L2-002"], s, ["aca-manifest-content-type"], "ACA-L2-002."))
    s = Scenario(2)
    s.set_manifest_header("content-type", None)
    out.append(bad("manifest-no-content-type", "The manifest has no Content-Type.", ["ACA-L2-002"], s, ["aca-manifest-content-type"],
                   "Absent Content-Type means application/octet-stream; verifiers never sniff."))
    s = Scenario(2)
    body = jcs(manifest(with_chain=False))
    s.resources[M1] = stored(200, [["content-type", "application/json"]], body[:-1] + b',"run_id":"r1"}')
    out.append(bad("manifest-duplicate-member", "The manifest body repeats run_id.", ["JSON-002", "ACA-L2-003"], s, ["json-duplicate-member"],
                   "Reporting rule 5: a manifest that is not I-JSON fails Level 2."))
    out.append(bad("hash-missing", "A claim source without hash (seed pitfall).", ["ACA-L2-008"], mod(lambda m: m["claims"][0]["sources"][0].pop("hash")),
                   ["aca-hash-missing"], "ACA-L2-008."))
    out.append(bad("free-text-claim-id", "A free-text claim id (seed pitfall).", ["ACA-L2-006"], mod(lambda m: m["claims"][0].__setitem__("claim_id", "claim about GEO templates")),
                   ["aca-claim-id-invalid"], "ACA-L2-006."))
    # The verify flow reads the manifest with the profile's rules, no JSON Schema behind them:
    # these two stand where only `validate-manifest` had a case (its schema would catch them).
    out.append(bad("claim-text-empty", "A claim whose text is the empty string, in a verified response.", ["ACA-L2-005"],
                   mod(lambda m: m["claims"][0].__setitem__("text", "")), ["schema-violation"],
                   "ACA-L2-005: text is a non-empty string; the claim has no text to check, the rest of the manifest holds."))
    out.append(bad("claim-sources-empty", "A claim with an empty sources array, in a verified response.", ["ACA-L2-005", "ACA-L2-012"],
                   mod(lambda m: m["claims"][0].__setitem__("sources", [])), ["schema-violation", "aca-source-not-in-manifest"],
                   "ACA-L2-005: sources is a non-empty array; the claim cites nothing, so the header's first source is cited "
                   "by no claim of the manifest (ACA-L2-012)."))
    out.append(bad("agent-id-empty", "A manifest whose agent_id is the empty string, in a verified response.", ["ACA-L2-003"],
                   mod(lambda m: m.__setitem__("agent_id", "")), ["schema-violation"],
                   "ACA-L2-003: agent_id is a non-empty string; the rest of the manifest holds."))
    out.append(bad("claims-empty", "A manifest whose claims array is empty, in a verified response.", ["ACA-L2-003", "ACA-L2-012"],
                   mod(lambda m: m.__setitem__("claims", [])), ["schema-violation", "aca-source-not-in-manifest"],
                   "ACA-L2-003: claims is a non-empty array; with no claim, no source of the header is cited by the manifest (ACA-L2-012)."))
    # Unknown members in a verified response (JSON-004): the verify flow's own rules, no schema behind them.
    for where, desc, reqs, f in [
        ("manifest", "A manifest member 'signature' that is not x-", ["ACA-L2-003", "JSON-004"], lambda m: m.__setitem__("signature", "abc")),
        ("claim", "A claim member 'url'", ["ACA-L2-005", "JSON-004"], lambda m: m["claims"][0].__setitem__("url", SRC_A)),
        ("source", "A claim source member 'excerpt'", ["ACA-L2-008", "JSON-004"], lambda m: m["claims"][0]["sources"][0].__setitem__("excerpt", "x")),
    ]:
        out.append(bad(where + "-unknown-member", desc + ", in a verified response.", reqs, mod(f), ["unknown-member"],
                       "JSON-004: not a member of the profile and not an x- extension; the rest of the manifest holds."))
    out.append(ok("x-members", "x- extension members on the manifest, a claim and a claim source.", ["JSON-004", "ACA-L2-003"],
                  mod(lambda m: (m.__setitem__("x-trace", {"id": 7}), m["claims"][0].__setitem__("x-ui", True),
                                 m["claims"][0]["sources"][0].__setitem__("x-note", "n"))),
                  "JSON-004: members whose name starts with x- are extensions, ignored by the verifier."))
    out.append(bad("manifest-reused", "The manifest of run r0 served for run r1 (seed pitfall).", ["ACA-L2-004"], mod(lambda m: m.__setitem__("run_id", "r0")),
                   ["aca-run-mismatch"], "The header's run is r1; the manifest's run_id r0 differs: reused across runs."))
    out.append(bad("manifests-two-runs", "Two manifests of one response carry runs r1 and r2; the header says r1.", ["ACA-L2-004"],
                   two_manifests(m2_run="r2"), ["aca-run-mismatch"],
                   "All manifests of one response carry the same run_id."))
    s = two_manifests(lambda m1, m2: m2["claims"][0].__setitem__("claim_id", "c1"))
    out.append(bad("claim-id-conflict", "Claim id c1 names different texts in two manifests.", ["ACA-L2-007"], s, ["aca-claim-id-conflict"], "ACA-L2-007."))
    s = Scenario(2)
    s.header(header([(SRC_A, M1, "r1"), (SRC_B, M1, "r1"), ("https://example.net/unused", M1, "r1")]))
    out.append(ok("header-source-uncited", "The header lists a consulted source no claim cites (seed: 'every source URL consulted').", ["ACA-L2-012"], s,
                  "ACA-L2-012: header sources are a superset of cited sources; Level 2 does not need the chain that accounts for it."))
    # ---- FETCH-009: a hostile manifest cannot make the verifier fetch without bound
    s = Scenario(2)
    mm = manifest(with_chain=False)
    extra = [dict(mm["claims"][1]["sources"][0], url="https://sources.example/%04d" % i) for i in range(1100)]
    mm["claims"][1]["sources"] = mm["claims"][1]["sources"] + extra
    l2_manifest_only(s, mm)
    out.append(bad("fetch-budget", "One claim lists 1100 more sources (not in the header, not in the snapshot).", ["FETCH-009", "ACA-L2-012", "ACA-L2-013", "FETCH-008"], s,
                   ["aca-source-not-in-header", "aca-source-fetch-failed", "fetch-not-in-snapshot", "fetch-budget-exhausted"],
                   "FETCH-009: 1024 fetches at most: the manifest, the two real sources and 1021 of the extra ones are fetched (absent: "
                   "fetch-not-in-snapshot), the other 79 fail with fetch-budget-exhausted; none of the extra URLs is in Citation-Source.", level=1))
    # ---- binding of the manifest to this response (issue 8: each row of its table)
    s = Scenario(2)
    s.header(header([(SRC_A, M1, None), (SRC_B, M1, None)]))
    out.append(bad("run-removed", "The run parameter removed from every entry (issue 8, third attack).", ["ACA-L2-004", "ACA-L1-007"], s,
                   ["aca-run-missing"], "ACA-L2-004: every entry carries run at Level 2.", level=1))
    s = Scenario(2)
    s.body = b"The moon is made of cheese. Vaccines cause autism.\n"
    out.append(bad("body-swapped", "The response body replaced, header and manifests untouched (issue 8, first attack).", ["ACA-L2-021"], s,
                   ["aca-claim-not-in-response"], "Neither claim text occurs in N(body) (ACA-L2-021).", level=1))
    s = Scenario(2)
    s.agent_headers[0] = ["content-type", "application/json"]
    s.body = json.dumps({"answer": QUOTE_A.upper() + " Also: " + TEXT_B, "sources": 2}).encode("utf-8")
    out.append(ok("body-json", "A JSON answer: the claims occur in one of its string values (case differs).", ["ACA-L2-021"], s,
                  "ACA-L2-021: the text units of a JSON body are its string values; N folds the case."))
    s = Scenario(2)
    s.agent_headers[0] = ["content-type", "text/html; charset=utf-8"]
    s.body = ("<html><body><p>%s</p>\n<p>AI crawlers <em>revisit</em>\n  stable canonical URLs more often.</p><script>var x;</script></body></html>"
              % QUOTE_A).encode("utf-8")
    out.append(ok("body-html", "An HTML answer: claims found in the document text T(d).", ["ACA-L2-021"], s,
                  "ACA-L2-021: T(d) of AEF-L2-006 joins the text of <em> and collapses the line break; N collapses spaces."))
    # Markdown answers (ACA-L2-021, markdown text model; review 3, N12). M is derived by hand
    # from the profile's definition (CommonMark text nodes and code spans, a line feed per
    # block end); the generator checks that each claim is in N(M) and not in N(raw body).
    md = ("## Answer\n\n**Programmatic GEO templates** emit at most _one_ canonical question per "
          "[page](https://example.com/geo \"GEO\").\n\n- AI crawlers `revisit` stable canonical URLs *more often*.\n")
    md_text = ("Answer\nProgrammatic GEO templates emit at most one canonical question per page.\n"
               "AI crawlers revisit stable canonical URLs more often.\n\n")
    for text in (QUOTE_A, TEXT_B):
        assert rule_n(text) in rule_n(md_text) and rule_n(text) not in rule_n(md), text
    s = Scenario(2)
    s.agent_headers[0] = ["content-type", "text/markdown; charset=utf-8"]
    s.body = md.encode("utf-8")
    out.append(ok("body-markdown", "A markdown answer: its sentences carry a heading, strong emphasis, emphasis, a link, a list marker and inline code.", ["ACA-L2-021"], s,
                  "Markdown text model M(body) = %r (hand derivation); N of each claim is a substring of N(M), and of no raw reading of the body." % md_text))
    s = Scenario(2)
    s.agent_headers[0] = ["content-type", "text/markdown"]
    s.body = md.replace("stable canonical URLs *more often*", "pages *rarely*").encode("utf-8")
    out.append(bad("body-markdown-claim-missing", "A markdown answer that states c1 (with emphasis and a link) but not c2.", ["ACA-L2-021"], s,
                   ["aca-claim-not-in-response"], "M(body) has 'AI crawlers revisit pages rarely.', not c2's text: c2 is not in the response.", level=1))
    s = Scenario(2)
    s.agent_headers[0] = ["content-type", "text/markdown"]
    s.body = (md.split("\n\n- ")[0] + "\n\n[Sources](https://example.org/crawl.txt \"%s\") ![%s](dot.png)\n<!-- %s -->\n"
              % (TEXT_B, TEXT_B, TEXT_B)).encode("utf-8")
    out.append(bad("body-markdown-claim-in-markup", "c2's text is only in a link title, an image description and an HTML comment, which a reader of the rendered answer never sees.", ["ACA-L2-021"], s,
                   ["aca-claim-not-in-response"], "Link titles, image descriptions and raw HTML contribute nothing to M(body): c2 is not in the response.", level=1))
    s = Scenario(2)
    s.agent_headers[0] = ["content-type", "application/octet-stream"]
    out.append(bad("body-not-textual", "The answer is served as application/octet-stream.", ["ACA-L2-021"], s,
                   ["aca-claim-not-in-response"], "A non-textual body has no text units (ACA-L2-021).", level=1))
    s = Scenario(2)
    s.body = b"Programmatic GEO templates emit at most one canonical question per page.\n"
    out.append(bad("body-one-claim-missing", "The answer states one of the two claims.", ["ACA-L2-021"], s,
                   ["aca-claim-not-in-response"], "c2's text does not occur in the body.", level=1))
    # ---- ACA-L2-022, -024, -025: which sighting of a manifest is the original (issue 19, item 8)
    COPY = "https://agent.example/runs/r1-copy"
    seed_shaped = unbound(manifest(with_chain=False))
    u_digest = sha256_hash(jcs(seed_shaped))
    b_digest = sha256_hash(jcs(manifest(with_chain=False)))

    def seed_scenario(agent_url=AGENT):
        s = Scenario(2)
        l2_manifest_only(s, seed_shaped)
        s.agent_url = agent_url
        return s

    out.append(verify_case(P + "manifest-unbound", "The seed's manifest shape: no response_url.", ["ACA-L2-025", "ACA-L2-003"], 2,
                           seed_scenario(), 2, "valid", out_level=2, warnings=["aca-response-unbound"],
                           detail="ACA-L2-025 is a SHOULD: a warning, which never lowers a level. " + lvl2))
    out.append(verify_case(P + "manifest-bound", "The manifest names this response (response_url = the response URL).", ["ACA-L2-024", "ACA-L2-025"], 2,
                           Scenario(2), 2, "valid", out_level=2, warnings=[],
                           detail="ACA-L2-024: response_url equals the snapshot response's url. " + lvl2))
    s = Scenario(2)
    s.agent_url = COPY
    out.append(verify_case(P + "replayed-at-other-url", "The response copied verbatim to another URL of the same origin; its manifest names the original URL.",
                           ["ACA-L2-024"], 2, s, 2, "invalid", ["aca-response-url-mismatch"],
                           detail="Header, body, run and manifest are the original's; ACA-L2-024: response_url %s is not the URL verified %s. Level 1." % (AGENT, COPY)))
    out.append(verify_case(P + "replayed-unbound-no-history", "The same copy with a seed-shaped manifest and a verifier without history.",
                           ["ACA-L2-022", "ACA-L2-025"], 2, seed_scenario(COPY), 2, "valid", out_level=2, warnings=["aca-response-unbound"],
                           detail="Nothing in an unbound manifest tells the copy from the original, and without history ACA-L2-022 has nothing "
                                  "to compare (the residual ACA-L2-025 warns about). " + lvl2))
    s = Scenario(2)
    mm = manifest(with_chain=False, response_url="HTTPS://AGENT.example:443/runs/./r1")
    l2_manifest_only(s, mm)
    out.append(verify_case(P + "response-url-other-spelling", "response_url spelled with capitals, the default port and a dot segment.",
                           ["ACA-L2-024"], 2, s, 2, "valid", out_level=2,
                           detail="URL equality (Definitions): the WHATWG serialization of both is https://agent.example/runs/r1. " + lvl2))
    s = Scenario(2)
    s.agent_url = AGENT + "?user=2"
    out.append(verify_case(P + "response-url-query-differs", "The response is verified at the same path with a query; the manifest names the URL without it.",
                           ["ACA-L2-024"], 2, s, 2, "invalid", ["aca-response-url-mismatch"],
                           detail="URL equality compares the query: %s?user=2 is another URL. Level 1." % AGENT))
    s = Scenario(2)
    l2_manifest_only(s, manifest(with_chain=False, response_url=AGENT + "#answer"))
    out.append(verify_case(P + "response-url-fragment", "response_url carries a fragment.", ["ACA-L2-024"], 2, s, 2, "invalid",
                           ["aca-response-url-mismatch"],
                           detail="URL equality keeps and compares fragments; the URL of a fetched response has none, so a response_url with "
                                  "one never names it. Level 1."))
    s = Scenario(2)
    l2_manifest_only(s, manifest(with_chain=False, response_url="/runs/r1"))
    out.append(verify_case(P + "response-url-relative", "response_url is a relative reference.", ["ACA-L2-024", "ACA-L2-003"], 2, s, 2, "invalid",
                           ["aca-url-invalid"], warnings=[],
                           detail="ACA-L2-024: not a web URL, reported by ACA-L2-003 and not compared; the member is present, so no "
                                  "aca-response-unbound. Level 1."))
    # History: the original keeps its verdict, whatever was recorded before it.
    out.append(verify_case(P + "original-after-replay-recorded", "The genuine response, verified after the verifier recorded a copy of it at another URL.",
                           ["ACA-L2-022", "ACA-L2-024"], 2, Scenario(2), 2, "valid", out_level=2,
                           detail="history: the same manifest digest, run r1, response %s. ACA-L2-022: a manifest with response_url is judged "
                                  "by ACA-L2-024 alone, which it passes; the history is not consulted. " % COPY + lvl2,
                           history=[{"digest": b_digest, "response_url": COPY, "run_id": "r1"}]))
    s = Scenario(2)
    s.agent_url = COPY
    out.append(verify_case(P + "replay-after-original-recorded", "The copy, verified after the verifier recorded the genuine response.",
                           ["ACA-L2-022", "ACA-L2-024"], 2, s, 2, "invalid", ["aca-response-url-mismatch"],
                           detail="It fails by ACA-L2-024, exactly as without history; ACA-L2-022 is not consulted for a bound manifest, "
                                  "so aca-manifest-reused is not raised. Level 1.",
                           history=[{"digest": b_digest, "response_url": AGENT, "run_id": "r1"}]))
    out.append(verify_case(P + "manifest-reused-history", "The verifier saw this seed-shaped manifest before, under run r0 for another response.",
                           ["ACA-L2-022"], 2, seed_scenario(), 2, "invalid", ["aca-manifest-reused"],
                           detail="history has the manifest's digest (SHA-256 of its JCS body) with run r0 and response .../runs/r0 (ACA-L2-022). Level 1.",
                           history=[{"digest": u_digest, "response_url": "https://agent.example/runs/r0", "run_id": "r0"}]))
    out.append(verify_case(P + "manifest-seen-same-response", "The verifier verified this same response (seed-shaped manifest) before.", ["ACA-L2-022"], 2,
                           seed_scenario(), 2, "valid", out_level=2,
                           detail="Same digest, same run r1, same response URL: a re-verification, not reuse (ACA-L2-022). " + lvl2,
                           history=[{"digest": u_digest, "response_url": AGENT, "run_id": "r1"}]))
    out.append(verify_case(P + "manifest-seen-other-response-same-run", "The same seed-shaped manifest and run were seen for another response URL.", ["ACA-L2-022"], 2,
                           seed_scenario(), 2, "invalid", ["aca-manifest-reused"],
                           detail="Same run r1 but response .../runs/r9: the manifest was served with two responses (ACA-L2-022). Level 1.",
                           history=[{"digest": u_digest, "response_url": "https://agent.example/runs/r9", "run_id": "r1"}]))
    out.append(verify_case(P + "unbound-original-after-replay-recorded", "The genuine response with a seed-shaped manifest, after a copy of it at another URL was recorded.",
                           ["ACA-L2-022", "ACA-L2-025"], 2, seed_scenario(), 2, "invalid", ["aca-manifest-reused"], warnings=["aca-response-unbound"],
                           detail="ACA-L2-022: nothing in an unbound manifest says which sighting is the original, so every sighting with "
                                  "another response fails, the original included (first-recorded-wins would hand the verdict to whoever "
                                  "is recorded first). Level 1.",
                           history=[{"digest": u_digest, "response_url": COPY, "run_id": "r1"}]))
    s = Scenario(2)
    s.header(header([(SRC_A, M1, "r1")]))
    out.append(bad("claim-source-not-in-header", "A claim cites a source the header does not list.", ["ACA-L2-012"], s, ["aca-source-not-in-header"], "ACA-L2-012."))
    # The header lists the cited source only in a spelling that is not a web URL (no `//`): a
    # WHATWG parser reads https:example.org/crawl.txt as https://example.org/crawl.txt, so a
    # verifier that compares every header source by its WHATWG serialization, web URL or not,
    # would find the claim's source listed.
    s = Scenario(2)
    s.header(header([(SRC_A, M1, "r1"), ("https:example.org/crawl.txt", M1, "r1")]))
    out.append(bad("claim-source-in-header-not-web-url", "The header lists the claim's source as https:example.org/crawl.txt (no authority), which is not a web URL.",
                   ["ACA-L2-012", "ACA-L1-004"], s, ["aca-url-invalid", "aca-source-not-in-header"],
                   "ACA-L1-004: a source without `//host` is not a web URL (Definitions), so the entry lists no source; ACA-L2-012 then finds "
                   "%s, which the second claim cites, in no header entry. URL equality is defined between web URLs: the WHATWG "
                   "serialization of the invalid spelling (https://example.org/crawl.txt, as node's new URL() gives) does not make it one." % SRC_B))
    s = Scenario(2)
    del s.resources[SRC_B]
    out.append(bad("source-unreachable", "A source is not in the snapshot.", ["ACA-L2-013", "FETCH-008"], s, ["aca-source-fetch-failed", "fetch-not-in-snapshot"], "ACA-L2-013."))
    s = Scenario(2)
    s.resources[SRC_B] = stored(404, [], b"gone")
    out.append(bad("source-404", "A source answers 404.", ["ACA-L2-013", "FETCH-007"], s, ["aca-source-fetch-failed", "fetch-http-status"], "Only 200."))
    s = Scenario(2)
    s.resources[SRC_B]["headers"].append(["content-encoding", "br"])
    out.append(bad("source-brotli", "A source with Content-Encoding: br.", ["ACA-L2-013", "FETCH-006"], s, ["aca-source-fetch-failed", "fetch-content-encoding"], "FETCH-006."))
    s = Scenario(2)
    s.resources[SRC_B] = stored(302, [["location", SRC_B]], b"")
    out.append(bad("source-redirect-loop", "A source that redirects to itself.", ["ACA-L2-013", "FETCH-005"], s, ["aca-source-fetch-failed", "fetch-too-many-redirects"],
                   "The sixth redirect fails the fetch."))
    # FETCH rules on the ACA path (every earlier case of this kind was an AEF one)
    for cid, url, codes, why in [
        ("source-loopback", "http://127.0.0.1/crawl.txt", ["aca-source-fetch-failed", "fetch-address-forbidden"], "FETCH-002: loopback is refused (no allow_private in a conformance run)."),
        ("source-private", "http://10.1.2.3/crawl.txt", ["aca-source-fetch-failed", "fetch-address-forbidden"], "FETCH-002: private 10/8 is refused."),
        ("source-metadata", "http://169.254.169.254/latest/meta-data", ["aca-source-fetch-failed", "fetch-address-forbidden"], "FETCH-002: link-local (cloud metadata) is always refused."),
        ("source-bad-port", "https://example.org:25/crawl.txt", ["aca-source-fetch-failed", "fetch-port-forbidden"], "FETCH-001: 25 is a Fetch-standard bad port."),
    ]:
        s = Scenario(2)
        s.resources[url] = stored(200, [["content-type", "text/plain"]], BODY_B)
        s.header(header([(SRC_A, M1, "r1"), (url, M1, "r1")]))
        mm = manifest(with_chain=False)
        mm["claims"][1]["sources"][0]["url"] = url
        l2_manifest_only(s, mm)
        out.append(bad(cid, "A source at %s (the bytes are in the snapshot)." % url, ["FETCH-001", "FETCH-002", "ACA-L2-013"], s, codes,
                       why + " The snapshot holds the bytes, so a verifier that skips the check would pass.", level=1))
    s = Scenario(2)
    s.resources["https://example.org/moved"] = stored(301, [["location", "http://example.org/crawl.txt"]], b"")
    s.resources["http://example.org/crawl.txt"] = stored(200, [["content-type", "text/plain"]], BODY_B)
    s.header(header([(SRC_A, M1, "r1"), ("https://example.org/moved", M1, "r1")]))
    mm = manifest(with_chain=False)
    mm["claims"][1]["sources"][0]["url"] = "https://example.org/moved"
    l2_manifest_only(s, mm)
    out.append(bad("source-redirect-downgrade", "A source redirects from https to http.", ["FETCH-005", "ACA-L2-013"], s,
                   ["aca-source-fetch-failed", "fetch-redirect-invalid"], "FETCH-005: a redirect from https to http is refused.", level=1))
    s = Scenario(2)
    s.set_manifest_header("content-type", "text/json")
    out.append(bad("manifest-text-json", "The manifest is served as text/json.", ["ACA-L2-002"], s, ["aca-manifest-content-type"],
                   "ACA-L2-002: application/json or a +json type, exactly; text/json is neither."))
    s = Scenario(2)
    s.set_manifest_header("content-type", "Application/JSON; Charset=UTF-8")
    out.append(ok("manifest-media-type-case", "The manifest media type in mixed case with a parameter.", ["ACA-L2-002"], s,
                  "Definitions: the media type is lowercased and parameters ignored."))
    intact = BODY_B + b"Update: sitemaps are refreshed daily.\n"
    s = source_b(intact)
    out.append(verify_case(P + "changed-source-excerpt-intact", "The source changed after the run, but the excerpt is intact at its offsets.",
                           ["ACA-L2-014", "ACA-L2-015"], 2, s, 2, "invalid", ["aca-source-hash-mismatch"],
                           detail="ACA-L2-014: the body hash differs, an error; ACA-L2-015: the excerpt_hash window at the recorded offsets "
                                  "still matches, reported as the warning aca-excerpt-intact. Level 1."))
    out[-1]["expected"]["warnings"] = ["aca-excerpt-intact"]
    changed = BODY_B.replace(b"Sitemaps list", b"Sitemaps now list")
    s = mod(lambda m: m["claims"][1]["sources"][0].pop("excerpt_hash"), source_b(changed))
    out.append(bad("source-changed", "The source changed after the run; no excerpt_hash.", ["ACA-L2-014"], s, ["aca-source-hash-mismatch"],
                   "SHA-256 of the new body differs from hash."))
    # intact at a new place + unsupported claim proves the intact window is used
    moved = b"Update: new intro line.\n" + BODY_B
    s = mod(lambda m: m["claims"][1].__setitem__("text", "AI crawlers ignore canonical URLs."), source_b(moved))
    out.append(bad("changed-excerpt-moved", "The source changed; the excerpt moved 24 bytes but is intact; the claim is not supported by it.",
                   ["ACA-L2-014", "ACA-L2-015", "ACA-L2-018"], s, ["aca-source-hash-mismatch", "aca-claim-unsupported"],
                   "ACA-L2-015 (2): the %d-byte window at the new place is the only one with excerpt_hash, so the excerpt is intact (warning) and the support "
                   "check runs on it: 'ignore' is a content word that is not a token of the excerpt." % len(QUOTE_B)))
    appended = BODY_B + b"Appendix.\n"
    s = mod(lambda m: m["claims"][1].__setitem__("text", "AI crawlers ignore canonical URLs."), source_b(appended))
    out.append(bad("changed-excerpt-in-place", "The source grew at the end; the excerpt is intact at its offsets; the claim is not supported.",
                   ["ACA-L2-014", "ACA-L2-015", "ACA-L2-018"], s, ["aca-source-hash-mismatch", "aca-claim-unsupported"],
                   "ACA-L2-015 (1): the bytes at the recorded offsets still have excerpt_hash."))
    s = source_b(BODY_B.replace(b"more often", b"less often"))
    out.append(bad("changed-excerpt-edited", "The excerpt itself was edited.", ["ACA-L2-014", "ACA-L2-015"], s, ["aca-source-hash-mismatch", "aca-excerpt-changed"],
                   "No window of %d bytes has excerpt_hash any more." % len(QUOTE_B)))
    twice = BODY_B + QUOTE_B.encode() + b"\n"
    twice = b"Intro.\n" + twice
    s = source_b(twice)
    out.append(bad("changed-excerpt-twice", "The excerpt now occurs twice, neither at its offsets.", ["ACA-L2-014", "ACA-L2-015"], s, ["aca-source-hash-mismatch", "aca-excerpt-changed"],
                   "Two windows match: 'an excerpt found twice is reported as changed'."))
    out.append(bad("offset-beyond-body", "excerpt_offset end beyond the body.", ["ACA-L2-016"],
                   mod(lambda m: (m["claims"][0]["sources"][0].__setitem__("excerpt_offset", [0, len(BODY_A) + 1]), m["claims"][0]["sources"][0].pop("excerpt_hash"))),
                   ["aca-offset-out-of-range"], "end = body length + 1."))
    utf = "Caf\u00e9 cr\u00e8me.\n".encode("utf-8")
    s = Scenario(2)
    s.resources[SRC_A] = stored(200, [["content-type", "text/plain"]], utf)
    mm = manifest(with_chain=False)
    mm["claims"][0] = claim("c1", "Caf", [{"url": SRC_A, "retrieved_at": "2026-04-28T09:55:00Z", "hash": sha256_hash(utf), "excerpt_offset": [0, 4]}])
    l2_manifest_only(s, mm)
    out.append(bad("offset-splits-character", "[0, 4) ends inside the two bytes of U+00E9.", ["ACA-L2-016"], s, ["aca-excerpt-not-utf8"],
                   "Bytes 43 61 66 C3 are not well-formed UTF-8."))
    png = bytes.fromhex("89504e470d0a1a0a0000000d49484452")
    s = Scenario(2)
    s.resources[SRC_A] = stored(200, [["content-type", "image/png"]], png)
    mm = manifest(with_chain=False)
    mm["claims"][0] = claim("c1", "An image.", [{"url": SRC_A, "retrieved_at": "2026-04-28T09:55:00Z", "hash": sha256_hash(png), "excerpt_offset": [0, 8]}])
    l2_manifest_only(s, mm)
    out.append(bad("binary-source", "The excerpt of a PNG source.", ["ACA-L2-016"], s, ["aca-excerpt-not-utf8"], "0x89 is not UTF-8: binary excerpts fail Level 2."))
    out.append(bad("excerpt-hash-mismatch", "excerpt_hash of other text.", ["ACA-L2-017"], mod(lambda m: m["claims"][0]["sources"][0].__setitem__("excerpt_hash", aef_text_hash(b"other text"))),
                   ["aca-excerpt-hash-mismatch"], "The AEF hash of the excerpt differs."))
    out.append(bad("claim-unsupported", "The claim says five questions; the excerpt says at most one.", ["ACA-L2-018"],
                   mod(lambda m: m["claims"][0].__setitem__("text", "Programmatic GEO templates emit five canonical questions per page.")),
                   ["aca-claim-unsupported"], "'five' and 'questions' are content words that are not tokens of the excerpt (no stemming: question != questions)."))
    out.append(bad("claim-unsupported-stop-words", "Only a content word differs.", ["ACA-L2-018"],
                   mod(lambda m: m["claims"][1].__setitem__("text", "AI crawlers revisit stable canonical URLs rarely.")),
                   ["aca-claim-unsupported"], "'rarely' is not a token of the excerpt."))
    return out


# =============================================================================================
# Level 3: chain, discovery, signatures

def level3_chain_validate():
    P = "aca-l3-chain-"
    base = manifest(with_chain=True)

    def m(f):
        d = copy.deepcopy(base)
        f(d)
        return d

    def ok(cid, desc, reqs, doc, detail, flags=None):
        return mv_case(P, 3, cid, desc, reqs, doc, "valid", detail=detail, flags=flags)

    def bad(cid, desc, reqs, doc, errors, detail, flags=None):
        return mv_case(P, 3, cid, desc, reqs, doc, "invalid", errors, detail, flags=flags)

    ch = lambda d, i: d["chain"][i]
    return [
        ok("baseline", "Three steps: public inputs, a private step with inputs_hash, a join of two earlier outputs.",
           ["ACA-L3-001", "ACA-L3-002", "ACA-L3-003", "ACA-L3-004", "ACA-L3-005", "ACA-L3-006"], base,
           "Steps 1..3 in order; inputs_ref name earlier outputs_ref; every cited source is in step 1's sources."),
        ok("inputs-and-hash", "inputs with the matching inputs_hash (JCS hash).", ["ACA-L3-005", "CANON-002", "CANON-003"],
           m(lambda d: ch(d, 0).__setitem__("inputs_hash", sha256_hash(jcs(ch(d, 0)["inputs"])))),
           "inputs_hash = sha256 of the JCS bytes {\"q\":\"programmatic geo canonical\"}: 64 lowercase hex digits.",
           [boundary("hash-digits", "inside")]),
        ok("nested-inputs-hash", "Nested inputs whose JCS form sorts members and drops whitespace.", ["ACA-L3-005", "CANON-001"],
           m(lambda d: (ch(d, 0).__setitem__("inputs", {"z": [1, {"b": True, "a": None}], "a": "\u00e9\n"}),
                        ch(d, 0).__setitem__("inputs_hash", sha256_hash(jcs({"z": [1, {"b": True, "a": None}], "a": "\u00e9\n"}))))),
           "JCS: {\"a\":\"\u00e9\\n\",\"z\":[1,{\"a\":null,\"b\":true}]} (UTF-8 é, escaped newline)."),
        ok("step-extension", "An x- member in a step.", ["ACA-L3-001", "JSON-004"], m(lambda d: ch(d, 2).__setitem__("x-latency-ms", 12)), "JSON-004."),
        ok("sources-url-equality", "The chain lists the source as HTTPS://EXAMPLE.COM/geo.", ["ACA-L3-006"],
           m(lambda d: (ch(d, 0).__setitem__("sources", ["HTTPS://EXAMPLE.COM/geo", SRC_B]), ch(d, 1).__setitem__("sources", []))),
           "URL equality: WHATWG lowercases scheme and host, so it equals https://example.com/geo."),
        bad("chain-empty", "chain is an empty array.", ["ACA-L3-001"], m(lambda d: d.__setitem__("chain", [])), ["aca-chain-missing"],
            "A chain member must be a non-empty array."),
        bad("chain-object", "chain is an object.", ["ACA-L3-001"], m(lambda d: d.__setitem__("chain", {"steps": []})), ["schema-violation"], "An array of step objects."),
        bad("step-not-object", "A step that is a string.", ["ACA-L3-001"], m(lambda d: d["chain"].append("step 4")), ["schema-violation"], "Steps are objects."),
        bad("step-unknown-member", "A step member 'output'.", ["ACA-L3-001", "JSON-004"], m(lambda d: ch(d, 0).__setitem__("output", "x")), ["unknown-member"], "JSON-004."),
        bad("steps-swapped", "Steps numbered 2, 1, 3.", ["ACA-L3-002"], m(lambda d: (ch(d, 0).__setitem__("step", 2), ch(d, 1).__setitem__("step", 1))),
            ["aca-chain-step-order"], "The i-th step has step i."),
        bad("steps-from-zero", "Steps numbered 0, 1, 2.", ["ACA-L3-002"], m(lambda d: [ch(d, i).__setitem__("step", i) for i in range(3)]),
            ["aca-chain-step-order"], "Counting starts at 1."),
        bad("tool-missing", "A step without tool.", ["ACA-L3-003"], m(lambda d: ch(d, 1).pop("tool")), ["aca-chain-tool-missing"], "ACA-L3-003."),
        bad("tool-empty", "tool is empty.", ["ACA-L3-003"], m(lambda d: ch(d, 1).__setitem__("tool", "")), ["aca-chain-tool-missing"], "Non-empty."),
        bad("tool-257", "tool of 257 characters.", ["ACA-L3-003"], m(lambda d: ch(d, 1).__setitem__("tool", "t" * 257)), ["schema-violation"], "At most 256 characters."),
        bad("outputs-ref-missing", "A step without outputs_ref.", ["ACA-L3-003"], m(lambda d: ch(d, 2).pop("outputs_ref")), ["aca-chain-outputs-ref-missing"], "ACA-L3-003."),
        bad("outputs-ref-duplicate", "Two steps with one outputs_ref.", ["ACA-L3-003"], m(lambda d: ch(d, 2).__setitem__("outputs_ref", "runs/r1/step/2")),
            ["aca-chain-outputs-ref-duplicate"], "outputs_ref are unique in a chain."),
        bad("chain-source-not-url", "A chain source that is not a web URL.", ["ACA-L3-003"], m(lambda d: ch(d, 0)["sources"].append("search results")), ["aca-url-invalid"],
            "sources is an array of web URLs."),
        bad("ref-empty-array", "inputs_ref is [].", ["ACA-L3-004"], m(lambda d: ch(d, 2).__setitem__("inputs_ref", [])), ["aca-chain-ref-invalid"], "Non-empty array."),
        bad("ref-repeated", "inputs_ref repeats a reference.", ["ACA-L3-004"], m(lambda d: ch(d, 2).__setitem__("inputs_ref", ["runs/r1/step/1", "runs/r1/step/1"])),
            ["aca-chain-ref-invalid"], "Distinct strings."),
        bad("ref-number", "inputs_ref is a number.", ["ACA-L3-004"], m(lambda d: ch(d, 1).__setitem__("inputs_ref", 1)), ["aca-chain-ref-invalid"], "A string or an array of strings."),
        bad("ref-empty-string", "inputs_ref is \"\".", ["ACA-L3-004"], m(lambda d: ch(d, 1).__setitem__("inputs_ref", "")), ["aca-chain-ref-invalid"], "Non-empty string."),
        bad("ref-unknown", "inputs_ref names no step.", ["ACA-L3-004"], m(lambda d: ch(d, 1).__setitem__("inputs_ref", "runs/r1/step/9")), ["aca-chain-ref-unknown"], "No outputs_ref equals it."),
        bad("ref-self", "A step consumes its own output.", ["ACA-L3-004"], m(lambda d: ch(d, 1).__setitem__("inputs_ref", "runs/r1/step/2")), ["aca-chain-ref-forward"],
            "The same step: a forward reference (the graph would have a cycle)."),
        bad("ref-later", "A step consumes a later step's output.", ["ACA-L3-004"], m(lambda d: ch(d, 0).__setitem__("inputs_ref", "runs/r1/step/3")), ["aca-chain-ref-forward"],
            "A later step."),
        bad("inputs-missing", "A step with none of inputs, inputs_hash, inputs_ref.", ["ACA-L3-005"], m(lambda d: ch(d, 0).pop("inputs")), ["aca-chain-inputs-missing"], "ACA-L3-005."),
        bad("inputs-not-object", "inputs is a string.", ["ACA-L3-005"], m(lambda d: ch(d, 0).__setitem__("inputs", "programmatic geo")), ["schema-violation"], "inputs is a JSON object."),
        # The manifest's JSON Schema only backs up the profile's checks (it adds its findings
        # when they found no error), so a hash the parser wrongly accepted still ends with the
        # schema's canon-hash-syntax, unless the step also has `inputs` to compare it with: then
        # the wrongly accepted hash reports aca-chain-inputs-hash-mismatch instead. So these
        # are on step 1, which has inputs (mutants/RUNS.md, hash.rs 66:25 and 87:28).
        bad("inputs-hash-63-digits", "inputs with an inputs_hash of 63 lowercase hex digits (their JCS hash, the last digit dropped).", ["ACA-L3-005", "CANON-002"],
            m(lambda d: ch(d, 0).__setitem__("inputs_hash", sha256_hash(jcs(ch(d, 0)["inputs"]))[:-1])), ["canon-hash-syntax"],
            "CANON-002: exactly 64 hex digits; 63 < 64. Not a content hash, so it is compared with nothing "
            "(read as 31 bytes and a zero byte it would be a mismatch: the JCS hash ends in a9).", [boundary("hash-digits", "outside")]),
        bad("inputs-hash-65-digits", "inputs with an inputs_hash of 65 lowercase hex digits (a 0 put before their JCS hash).", ["ACA-L3-005", "CANON-002"],
            m(lambda d: ch(d, 0).__setitem__("inputs_hash", "sha256:0" + sha256_hash(jcs(ch(d, 0)["inputs"]))[7:])), ["canon-hash-syntax"],
            "CANON-002: exactly 64 hex digits; 65 > 64. Not a content hash, so it is compared with nothing "
            "(its first 64 digits, 0867cc...08a, are not the JCS hash 867cc9...08a9: a mismatch if it were read).", [boundary("hash-digits", "outside")]),
        bad("inputs-hash-syntax", "inputs with an inputs_hash in uppercase hex of letters only (sha256:ABAB...).", ["ACA-L3-005", "CANON-002"],
            m(lambda d: ch(d, 0).__setitem__("inputs_hash", "sha256:" + "AB" * 32)), ["canon-hash-syntax"],
            "CANON-002: lowercase hex only. Not a content hash, so it is compared with nothing (read case-blind it would be a mismatch)."),
        bad("inputs-hash-mismatch", "inputs and an inputs_hash of other inputs.", ["ACA-L3-005"],
            m(lambda d: ch(d, 0).__setitem__("inputs_hash", sha256_hash(jcs({"q": "something else"})))), ["aca-chain-inputs-hash-mismatch"],
            "The JCS hash of inputs differs."),
        bad("inputs-hash-not-jcs", "inputs_hash computed over Python json.dumps with spaces, not JCS.", ["ACA-L3-005", "SIG-001"],
            m(lambda d: ch(d, 0).__setitem__("inputs_hash", sha256_hash(b'{"q": "programmatic geo canonical"}'))), ["aca-chain-inputs-hash-mismatch"],
            "CANON-003 (c): the hash input is the JCS form {\"q\":\"programmatic geo canonical\"} without the space after the colon."),
        bad("source-not-in-chain", "A cited source no step lists (seed pitfall: the chain cannot defend the claim).", ["ACA-L3-006"],
            m(lambda d: [ch(d, i).__setitem__("sources", [SRC_A]) for i in range(2)]), ["aca-source-not-in-chain"], "https://example.org/crawl.txt is cited by c2 only."),
    ]


def level3_discovery_validate():
    P = "aca-l3-discovery-"
    base = discovery()

    def d(f, b=None):
        x = copy.deepcopy(b or base)
        f(x)
        return x

    def key0(x):
        return x["keys"]["keys"][0]

    def ok(cid, desc, reqs, doc, detail):
        return mv_case(P, 3, cid, desc, reqs, doc, "valid", detail=detail)

    def bad(cid, desc, reqs, doc, errors, detail):
        return mv_case(P, 3, cid, desc, reqs, doc, "invalid", errors, detail)

    x_bytes = K1.public
    padded = b64url(x_bytes) + "="
    std = base64_std_no_pad(x_bytes)
    trailing = b64url(x_bytes)
    last = trailing[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    bumped = trailing[:-1] + alphabet[alphabet.index(last) + 1]
    assert (alphabet.index(last) & 3) == 0 and (alphabet.index(bumped[-1]) & 3) != 0
    p = 2 ** 255 - 19
    non_canonical = b64url((p + 1).to_bytes(32, "little"))
    identity = b64url((1).to_bytes(32, "little"))
    return [
        ok("minimal", "The seed's minimum document plus inline keys.", ["ACA-DISC-002", "ACA-DISC-003", "ACA-DISC-004", "SIG-004", "SIG-005"], base,
           "version 1.0, web URL manifest_schema, supported_signing with http-message-signatures, email contact, one OKP Ed25519 key with kid."),
        ok("jwks-uri-only", "Keys only through an https jwks_uri.", ["ACA-DISC-003"], d(lambda x: (x.pop("keys"), x.__setitem__("jwks_uri", JWKS))), "keys or jwks_uri (https)."),
        ok("contact-url", "contact as a web URL.", ["ACA-DISC-002"], d(lambda x: x.__setitem__("contact", "https://agent.example/disputes")), "Email, web URL or mailto:."),
        ok("contact-mailto", "contact as a mailto: URI.", ["ACA-DISC-002"], d(lambda x: x.__setitem__("contact", "mailto:attribution@agent.example")), "Email, web URL or mailto:."),
        ok("extra-signing-values", "Unknown supported_signing values are ignored.", ["ACA-DISC-002"],
           d(lambda x: x.__setitem__("supported_signing", ["jws-detached", "http-message-signatures"])), "Unknown values are ignored."),
        ok("extensions", "An x- member.", ["ACA-DISC-002", "JSON-004"], d(lambda x: x.__setitem__("x-operator", "Example Inc.")), "JSON-004."),
        ok("key-alg-use", "A key with alg EdDSA, use sig and unknown members (key_ops).", ["SIG-005"],
           d(lambda x: key0(x).update({"alg": "EdDSA", "use": "sig", "key_ops": ["verify"]})), "SIG-005: alg EdDSA and use sig allowed; other members ignored."),
        ok("two-keys", "Two keys with different kids (rotation).", ["SIG-004", "ACA-DISC-004"],
           d(lambda x: x["keys"]["keys"].append(K2.jwk("k2"))), "Distinct kids."),
        bad("not-object", "A top-level array.", ["ACA-DISC-002"], [], ["aca-discovery-invalid"], "An object is required."),
        bad("version-2", "version 2.0.", ["ACA-DISC-002"], d(lambda x: x.__setitem__("version", "2.0")), ["aca-discovery-version-unsupported"], "Only 1.0."),
        bad("version-number", "version as the number 1.0.", ["ACA-DISC-002"], '{"version":1.0,"manifest_schema":"https://agent.example/s.json","supported_signing":["http-message-signatures"],"contact":"a@b.example","jwks_uri":"%s"}' % JWKS,
            ["aca-discovery-invalid"], "version is the string 1.0."),
        bad("version-missing", "No version.", ["ACA-DISC-002"], d(lambda x: x.pop("version")), ["aca-discovery-invalid"], "Required."),
        bad("schema-not-url", "manifest_schema is a relative path.", ["ACA-DISC-002"], d(lambda x: x.__setitem__("manifest_schema", "/schema.json")), ["aca-discovery-invalid"], "A web URL."),
        bad("signing-string", "supported_signing is a string.", ["ACA-DISC-002"], d(lambda x: x.__setitem__("supported_signing", "http-message-signatures")), ["aca-discovery-invalid"], "An array of strings."),
        bad("signing-without-hms", "supported_signing lacks http-message-signatures.", ["ACA-DISC-002"], d(lambda x: x.__setitem__("supported_signing", ["jws"])),
            ["aca-discovery-signing-unsupported"], "At Level 3 it includes http-message-signatures."),
        bad("contact-missing", "No contact.", ["ACA-DISC-002"], d(lambda x: x.pop("contact")), ["aca-discovery-invalid"], "Required."),
        bad("contact-not-address", "contact 'the legal team'.", ["ACA-DISC-002"], d(lambda x: x.__setitem__("contact", "the legal team")), ["aca-discovery-invalid"],
            "Neither local@domain, a web URL nor mailto:."),
        bad("unknown-member", "A member 'signing_alg'.", ["ACA-DISC-002", "JSON-004"], d(lambda x: x.__setitem__("signing_alg", "ed25519")), ["unknown-member"], "JSON-004."),
        bad("keys-missing", "Neither keys nor jwks_uri.", ["ACA-DISC-003"], d(lambda x: x.pop("keys")), ["aca-discovery-keys-missing"], "ACA-DISC-003."),
        bad("jwks-uri-http", "jwks_uri over http.", ["ACA-DISC-003"], d(lambda x: (x.pop("keys"), x.__setitem__("jwks_uri", "http://agent.example/jwks.json"))),
            ["aca-discovery-invalid"], "jwks_uri must use https."),
        bad("key-set-empty", "keys is an empty JWK Set.", ["ACA-DISC-003", "SIG-004"], d(lambda x: x.__setitem__("keys", {"keys": []})), ["jwk-set-empty"], "SIG-004: non-empty."),
        bad("keys-array", "keys is an array instead of a JWK Set.", ["ACA-DISC-003", "SIG-004"], d(lambda x: x.__setitem__("keys", [K1.jwk("k1")])), ["jwk-malformed"],
            "A JWK Set is an object with a keys array."),
        bad("kid-missing", "A key without kid.", ["ACA-DISC-004", "SIG-004"], d(lambda x: key0(x).pop("kid")), ["jwk-kid-missing"], "ACA discovery requires kids."),
        bad("kid-duplicate", "Two keys with kid k1.", ["ACA-DISC-004", "SIG-004"], d(lambda x: x["keys"]["keys"].append(K2.jwk("k1"))), ["jwk-duplicate-kid"], "Unique kids."),
        bad("private-key", "A key with d (private key published).", ["ACA-DISC-004", "SIG-005"], d(lambda x: key0(x).__setitem__("d", b64url(K1.seed))),
            ["jwk-private-key-published"], "ACA-DISC-004."),
        bad("private-key-unused", "A second, unused key with d.", ["ACA-DISC-004"], d(lambda x: x["keys"]["keys"].append(K2.jwk("k2", private=True))),
            ["jwk-private-key-published"], "Reported even when the key is not used."),
        bad("kty-rsa", "kty RSA.", ["SIG-005"], d(lambda x: key0(x).__setitem__("kty", "RSA")), ["jwk-unsupported-key-type"], "OKP only."),
        bad("crv-x25519", "crv X25519.", ["SIG-005"], d(lambda x: key0(x).__setitem__("crv", "X25519")), ["jwk-unsupported-curve"], "Ed25519 only."),
        bad("x-31-bytes", "x decodes to 31 bytes.", ["SIG-005"], d(lambda x: key0(x).__setitem__("x", b64url(x_bytes[:31]))), ["jwk-invalid-key-length"], "32 bytes."),
        bad("x-non-canonical", "x encodes y = p + 1 (not below 2^255 - 19).", ["SIG-005", "SIG-002"], d(lambda x: key0(x).__setitem__("x", non_canonical)),
            ["jwk-invalid-point"], "RFC 8032 5.1.3: y >= p is not a canonical encoding."),
        bad("x-small-order", "x is the identity point (order 1).", ["SIG-005", "SIG-002"], d(lambda x: key0(x).__setitem__("x", identity)), ["jwk-weak-key"],
            "(0, 1) has order 1: a small-order key."),
        bad("use-enc", "use enc.", ["SIG-005"], d(lambda x: key0(x).__setitem__("use", "enc")), ["jwk-use-mismatch"], "use must be sig."),
        bad("alg-es256", "alg ES256.", ["SIG-005"], d(lambda x: key0(x).__setitem__("alg", "ES256")), ["jwk-alg-mismatch"], "alg must be EdDSA."),
        bad("x-padded", "x with '=' padding.", ["SIG-003"], d(lambda x: key0(x).__setitem__("x", padded)), ["jwk-malformed"], "SIG-003: no padding."),
        bad("x-standard-alphabet", "x in the standard base64 alphabet.", ["SIG-003"], d(lambda x: key0(x).__setitem__("x", std)), ["jwk-malformed"],
            "SIG-003: + and / are errors; this key's encoding contains one of them."),
        bad("x-trailing-bits", "x with non-zero trailing bits.", ["SIG-003"], d(lambda x: key0(x).__setitem__("x", bumped)), ["jwk-malformed"],
            "The 43rd character carries 4 bits of data and 2 bits that must be zero; they are not."),
    ]


def base64_std_no_pad(data):
    import base64 as _b
    s = _b.b64encode(data).decode().rstrip("=")
    assert "+" in s or "/" in s, "pick another key: the standard alphabet must differ here"
    return s


def level3_manifest_sign():
    P = "aca-l3-sign-"
    out = []
    base = manifest(with_chain=True)

    def ok(cid, desc, reqs, m, keyid, created, expires=None, detail=""):
        body = jcs(m)
        headers, sig_base, _ = sign_manifest_response(body, K1, keyid, created, expires)
        inp = {"manifest": m, "private_jwk": K1.jwk(None, private=True), "keyid": keyid, "created": created}
        if expires is not None:
            inp["expires"] = expires
        output = {"status": 200, "headers": headers, "body_base64": b64(body)}
        return case(P + cid, desc, reqs, 3, inp, "valid", output=output,
                    derivation_=tool("body = JCS of the manifest; content-digest = base64(SHA-256(body)); signature base (RFC 9421 2.5):\n" + sig_base +
                                     "\nsigned with Ed25519 (RFC 8032, deterministic). " + detail))

    def bad(cid, desc, reqs, m, jwk, errors, detail):
        inp = {"manifest": m, "private_jwk": jwk, "keyid": "k1", "created": NOW}
        return case(P + cid, desc, reqs, 3, inp, "invalid", errors=errors, derivation_=hand(detail))

    out.append(ok("baseline", "The Level 3 manifest signed with key k1.", ["ACA-L3-007", "ACA-L3-008", "ACA-L3-009", "ACA-L3-011", "ACA-L3-012", "SIG-001"],
                  base, "k1", NOW - 60))
    out.append(ok("expires", "With expires one hour later.", ["ACA-L3-009", "ACA-L3-010"], base, "k1", NOW - 60, NOW + 3540,
                  "Parameters in the order created, keyid, alg, expires (docs/ADAPTER.md)."))
    uni = copy.deepcopy(base)
    uni["claims"][0]["x-note"] = "caf\u00e9 \U0001f600 \"quoted\" \\ tab\t"
    out.append(ok("unicode-body", "A manifest with non-ASCII text, an emoji and escapes.", ["ACA-L3-012", "CANON-001"], uni, "agent-2026-04", NOW,
                  detail="JCS writes é and the emoji as UTF-8 and escapes only \", \\ and the tab (\\t)."))
    minimal = {"run_id": "1", "agent_id": "a", "emitted_at": "2026-04-28T10:00:00Z",
               "claims": [claim("c", "x", [{"url": "https://example.com/", "retrieved_at": "2026-04-28T09:00:00Z",
                                            "hash": sha256_hash(b""), "excerpt_offset": [0, 1]}])]}
    out.append(ok("level2-manifest", "A manifest without chain can be signed too.", ["ACA-L3-007"], minimal, "k1", 1700000000))
    out.append(bad("invalid-manifest", "A manifest with a free-text claim id is not signed.", ["ACA-L2-006"],
                   {**base, "claims": [{**base["claims"][0], "claim_id": "my claim"}]}, K1.jwk(None, private=True), ["aca-claim-id-invalid"],
                   "docs/ADAPTER.md: invalid when the manifest is not a valid manifest."))
    out.append(bad("manifest-hash-missing", "A manifest source without hash is not signed.", ["ACA-L2-008"],
                   {**base, "claims": [{**base["claims"][0], "sources": [{k: v for k, v in base["claims"][0]["sources"][0].items() if k != "hash"}]}]},
                   K1.jwk(None, private=True), ["aca-hash-missing"], "ACA-L2-008."))
    out.append(bad("key-rsa", "An RSA JWK.", ["SIG-005"], base, {**K1.jwk(None, private=True), "kty": "RSA"}, ["jwk-unsupported-key-type"], "OKP only."))
    out.append(bad("key-x448", "An Ed448 JWK.", ["SIG-005"], base, {**K1.jwk(None, private=True), "crv": "Ed448"}, ["jwk-unsupported-curve"], "Ed25519 only."))
    return out


B26_DIR = os.path.join(REPO, "crates/citeproof-httpsig/tests/data/rfc9421")


def read_b26():
    msg = open(os.path.join(B26_DIR, "test-request.http"), "rb").read().decode()
    base = open(os.path.join(B26_DIR, "b2_6-signature-base.txt")).read()
    sig_input = open(os.path.join(B26_DIR, "b2_6-signature-input.txt")).read()
    sig = open(os.path.join(B26_DIR, "b2_6-signature.txt")).read()
    pem = open(os.path.join(B26_DIR, "test-key-ed25519-public.pem")).read()
    from cryptography.hazmat.primitives.serialization import load_pem_public_key
    pub = load_pem_public_key(pem.encode()).public_bytes(
        __import__("cryptography.hazmat.primitives.serialization", fromlist=["Encoding"]).Encoding.Raw,
        __import__("cryptography.hazmat.primitives.serialization", fromlist=["PublicFormat"]).PublicFormat.Raw)
    head, body = msg.split("\n\n", 1)
    text = "\r\n".join(head.split("\n")) + "\r\nSignature-Input: " + sig_input + "\r\nSignature: " + sig + "\r\n\r\n" + body
    return text, base, pub


def http_response(headers, body: bytes, status=200):
    lines = ["HTTP/1.1 %d OK" % status] + ["%s: %s" % (n, v) for n, v in headers] + ["Content-Length: %d" % len(body), "", ""]
    return "\r\n".join(lines) + body.decode("utf-8")


def level3_httpsig():
    P = "aca-l3-httpsig-"
    out = []
    keys = {"keys": [K1.jwk("k1")]}
    body = jcs(manifest(with_chain=True))
    created = NOW - 60
    headers, base, sig = sign_manifest_response(body, K1, "k1", created)

    def tcase(cid, desc, reqs, message, result, errors=None, base_out=None, ks=None, now=NOW, required=None, detail="", flags=None):
        inp = {"message": message, "keys": ks if ks is not None else keys, "now": now}
        if required is not None:
            inp["required_components"] = required
        output = {"signature_base": base_out} if base_out is not None else None
        der = tool(detail) if result == "valid" else hand(detail)
        return case(P + cid, desc, reqs, 3, inp, result, errors=errors, output=output, derivation_=der, flags=flags)

    msg = http_response(headers, body)
    out.append(tcase("aca-response", "A signed manifest response.", ["ACA-L3-008", "ACA-L3-009", "ACA-L3-011", "ACA-L3-014", "SIG-002"], msg, "valid", base_out=base,
                     detail="Signature base built by hand per RFC 9421 2.5; Ed25519 by pyca/cryptography; now - created = 60 s."))
    b26, b26_base, b26_pub = read_b26()
    b26_keys = {"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "test-key-ed25519", "x": b64url(b26_pub)}]}
    out.append(case(P + "rfc9421-b26", "RFC 9421 Appendix B.2.6: the Ed25519 example over the test request.", ["ACA-L3-014", "SIG-002"], 3,
                    {"message": b26, "keys": b26_keys, "now": 1618884473 + 60,
                     "required_components": ["@method", "@path", "@authority"]},
                    "valid", output={"signature_base": b26_base},
                    derivation_=derivation("published", "RFC 9421 Appendix B.2.6 (signature input, signature and base) with the B.1.4 test key, "
                                                        "copied from crates/citeproof-httpsig/tests/data/rfc9421/ (see its README); the request is B.2's test-request.")))
    b26_other = {"keys": [K1.jwk("test-key-ed25519")]}
    out.append(case(P + "rfc9421-b26-wrong-key", "RFC 9421 B.2.6 verified with another key under the same kid.", ["ACA-L3-014"], 3,
                    {"message": b26, "keys": b26_other, "now": 1618884473 + 60, "required_components": ["@method", "@path", "@authority"]},
                    "invalid", errors=["aca-signature-invalid"], derivation_=hand("The signature was made with the B.1.4 key, not with k1.")))
    # sha-512 digest
    h512, base512, _ = sign_manifest_response(body, K1, "k1", created, digest=content_digest_512(body))
    out.append(tcase("sha512-digest", "Content-Digest with sha-512.", ["ACA-L3-011"], http_response(h512, body), "valid", base_out=base512,
                     detail="RFC 9530 sha-512 member, 64 bytes."))
    # two labels, first bad
    bad_first = [h for h in headers]
    bad_first = [["content-type", "application/json"], ["content-digest", content_digest(body)],
                 ["signature-input", 'old=("@status");created=%d;keyid="k1", %s' % (created, headers[2][1])],
                 ["signature", "old=:%s:, %s" % (b64(bytes(64)), headers[3][1])]]
    out.append(tcase("second-label-valid", "Two labels: the first covers too little, the second is valid.", ["ACA-L3-007"], http_response(bad_first, body), "valid",
                     base_out=base, detail="ACA-L3-007: validly signed when at least one label passes."))
    # tag and unregistered parameter
    params = [("created", str(created)), ("keyid", '"k1"'), ("tag", '"aca"'), ("x-vendor", '"v"'), ("nonce", '"n-1"')]
    ht, baset, _ = sign_manifest_response(body, K1, "k1", created, params=params)
    out.append(tcase("extra-params", "tag, nonce and an unregistered parameter, kept in @signature-params.", ["ACA-L3-009"], http_response(ht, body), "valid",
                     base_out=baset, detail="ACA-L3-009: nonce, tag and unregistered parameters are ignored; the signature base keeps them; alg is optional."))

    def variant(cid, desc, reqs, errors, hdrs=None, body_=None, ks=None, now=NOW, required=None, detail="", flags=None):
        return tcase(cid, desc, reqs, http_response(hdrs if hdrs is not None else headers, body_ if body_ is not None else body),
                     "invalid", errors, ks=ks, now=now, required=required, detail=detail, flags=flags)

    def with_header(name, value):
        return [[n, value if n == name else v] for n, v in headers]

    out.append(variant("body-tampered", "The body changed after signing.", ["ACA-L3-011"], ["aca-content-digest-mismatch"],
                       body_=body.replace(b"agent.example/v1", b"agent.example/v2"), detail="The signature still holds over the Content-Digest field, which no longer matches the body."))
    flipped = bytearray(sig)
    flipped[0] ^= 1
    out.append(variant("signature-flipped", "One bit of the signature flipped.", ["ACA-L3-014"], ["aca-signature-invalid"],
                       hdrs=with_header("signature", "sig1=:%s:" % b64(bytes(flipped))), detail="Ed25519 verification fails."))
    out.append(variant("signature-s-plus-l", "S replaced by S + L: verifies only with a lax equation.", ["ACA-L3-014", "SIG-002"], ["aca-signature-invalid"],
                       hdrs=with_header("signature", "sig1=:%s:" % b64(non_canonical_s(sig))), detail="SIG-002: S must be below the group order L."))
    out.append(variant("keyid-unknown", "keyid k9 is not in the JWK Set.", ["ACA-L3-013", "SIG-004"], ["aca-key-unresolved"],
                       ks={"keys": [K1.jwk("k2")]}, detail="SIG-004: keys are selected by exact kid equality."))
    out.append(variant("kid-case", "kid K1 does not match keyid k1.", ["SIG-004"], ["aca-key-unresolved"], ks={"keys": [K1.jwk("K1")]}, detail="Case-sensitive equality."))
    out.append(variant("weak-key-in-set", "The JWK Set holds a small-order key.", ["SIG-005", "SIG-002"], ["jwk-weak-key"],
                       ks={"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "k1", "x": b64url((1).to_bytes(32, "little"))}]},
                       detail="SIG-002: small-order keys are rejected when loaded."))
    out.append(variant("created-missing", "No created parameter.", ["ACA-L3-009"], ["httpsig-required-param-missing"],
                       hdrs=sign_manifest_response(body, K1, "k1", created, params=[("keyid", '"k1"'), ("alg", '"ed25519"')])[0], detail="created is required."))
    out.append(variant("alg-hmac", "alg hmac-sha256.", ["ACA-L3-009"], ["httpsig-alg-mismatch"],
                       hdrs=sign_manifest_response(body, K1, "k1", created, params=[("created", str(created)), ("keyid", '"k1"'), ("alg", '"hmac-sha256"')])[0],
                       detail="alg, if present, is ed25519."))
    out.append(variant("created-string", "created as a string.", ["ACA-L3-009"], ["httpsig-invalid-parameter"],
                       hdrs=sign_manifest_response(body, K1, "k1", created, params=[("created", '"%d"' % created), ("keyid", '"k1"')])[0], detail="created is an integer."))
    out.append(variant("content-type-not-covered", "The signature covers @status and content-digest only.", ["ACA-L3-009"], ["httpsig-required-component-not-covered"],
                       hdrs=sign_manifest_response(body, K1, "k1", created, components=("@status", "content-digest"))[0], detail="content-type is required."))
    missing = [h for h in headers if h[0] != "content-type"]
    out.append(variant("covered-field-absent", "content-type is covered but absent from the response.", ["ACA-L3-009"], ["httpsig-missing-component"],
                       hdrs=missing, detail="Each covered component is present."))
    out.append(variant("input-not-dictionary", "Signature-Input is not a dictionary.", ["ACA-L3-008"], ["httpsig-invalid-structured-field"],
                       hdrs=with_header("signature-input", 'sig1=("@status"'), detail="RFC 8941 parse failure."))
    out.append(variant("signature-label-missing", "Signature holds another label.", ["ACA-L3-008"], ["httpsig-signature-missing"],
                       hdrs=with_header("signature", "sig2=:%s:" % b64(sig)), detail="sig1 has no value in Signature."))
    out.append(variant("signature-63-bytes", "A 63-byte signature.", ["ACA-L3-008"], ["httpsig-malformed-signature"],
                       hdrs=with_header("signature", "sig1=:%s:" % b64(sig[:63])), detail="64 bytes required."))
    out.append(variant("unknown-derived-component", "A covered component \"@origin\" that RFC 9421 does not define.", ["ACA-L3-008"], ["httpsig-invalid-component"],
                       hdrs=with_header("signature-input", 'sig1=("@status" "content-type" "content-digest" "@origin");created=%d;keyid="k1"' % created),
                       detail="RFC 9421 2.2 derived components do not include @origin."))
    out.append(variant("component-twice", "@status covered twice.", ["ACA-L3-008"], ["httpsig-duplicate-component"],
                       hdrs=with_header("signature-input", 'sig1=("@status" "content-type" "content-digest" "@status");created=%d;keyid="k1"' % created),
                       detail="No repeats."))
    out.append(variant("created-future", "created 301 s after now.", ["ACA-L3-010"], ["httpsig-created-in-future"],
                       hdrs=sign_manifest_response(body, K1, "k1", NOW + 301)[0], detail="More than 300 s of skew.",
                       flags=[boundary("created-future-skew", "outside")]))
    out.append(variant("expired", "expires 301 s before now.", ["ACA-L3-010"], ["httpsig-expired"],
                       hdrs=sign_manifest_response(body, K1, "k1", NOW - 1000, NOW - 301)[0], detail="now > expires + 300.",
                       flags=[boundary("expires-skew", "outside")]))
    out.append(variant("expires-before-created", "expires equal to created.", ["ACA-L3-010"], ["httpsig-expired"],
                       hdrs=sign_manifest_response(body, K1, "k1", NOW - 10, NOW - 10)[0], detail="expires must be greater than created."))
    ok_future = sign_manifest_response(body, K1, "k1", NOW + 300)
    out.append(tcase("created-300s-ahead", "created exactly 300 s after now.", ["ACA-L3-010"], http_response(ok_future[0], body), "valid", base_out=ok_future[1],
                     detail="300 s is within the skew.", flags=[boundary("created-future-skew", "inside")]))
    ok_expiring = sign_manifest_response(body, K1, "k1", NOW - 1000, NOW - 300)
    out.append(tcase("expired-300s-ago", "expires exactly 300 s before now.", ["ACA-L3-010"], http_response(ok_expiring[0], body), "valid",
                     base_out=ok_expiring[1], detail="now = expires + 300 is not more than 300 s after expires.",
                     flags=[boundary("expires-skew", "inside")]))
    out.append(variant("digest-wrong-length", "sha-256 member of 4 bytes.", ["ACA-L3-011"], ["aca-content-digest-invalid"],
                       hdrs=sign_manifest_response(body, K1, "k1", created, digest="sha-256=:AAAAAA==:")[0], detail="A sha-256 digest has 32 bytes."))
    return out


def level3_verify():
    P = "aca-l3-verify-"
    out = []
    L3 = ["ACA-L3-001", "ACA-L3-002", "ACA-L3-003", "ACA-L3-004", "ACA-L3-005", "ACA-L3-006", "ACA-L3-007", "ACA-L3-008", "ACA-L3-009",
          "ACA-L3-010", "ACA-L3-011", "ACA-L3-012", "ACA-L3-013", "ACA-L3-014", "ACA-DISC-001", "ACA-DISC-002", "ACA-DISC-003", "ACA-DISC-004"]

    def ok(cid, desc, reqs, s, detail, flags=None):
        return verify_case(P + cid, desc, reqs, 3, s, 3, "valid", out_level=3, detail=detail + " Level 3.", flags=flags)

    def bad(cid, desc, reqs, s, errors, detail, level=2, flags=None):
        return verify_case(P + cid, desc, reqs, 3, s, 3, "invalid", errors, detail=detail + " Level %d." % level, flags=flags)

    def discovery_served(doc):
        """The Level 3 scenario with `doc` as the agent origin's discovery document."""
        s = Scenario(3)
        s.serve_json(DISC, doc)
        return s

    def signed_body(m, canonical, altered=None):
        """Serves `m` signed over its JCS body, in which the bytes `canonical` occur once; with
        `altered`, over that body with `canonical` replaced by `altered`."""
        body = jcs(m)
        assert body.count(canonical) == 1, body
        s = Scenario(3)
        s.serve_manifest(M1, m, signed=True, body=body if altered is None else body.replace(canonical, altered))
        return s

    for status in (500, 404):
        s = Scenario(3)
        s.agent_status = status
        out.append(bad("response-status-%d" % status,
                       "A complete Level 3 response (chain, signed manifest, discovery, claims in the body) whose own status is %d." % status,
                       ["ACA-L1-009", "FETCH-007"], s, ["aca-response-fetch-failed", "fetch-http-status"],
                       "Everything the response points to verifies; ACA-L1-009: its status is not 200, so the agent response failed its "
                       "fetch (FETCH-007) and nothing else is checked (reporting rule 3).", level=0))
    out.append(ok("baseline", "A complete Level 3 response: chain, signed manifest, discovery with the key.", L3 + ["ACA-L2-001", "ACA-L2-014", "ACA-L2-018", "SIG-001", "SIG-002", "SIG-004", "SIG-005"],
                  Scenario(3), "The signature covers @status, content-type, content-digest with created (now - 60), keyid k1 and alg ed25519; the body is JCS."))
    s = discovery_served(discovery(keys=False, jwks_uri=JWKS))
    s.serve_json(JWKS, {"keys": [K1.jwk("k1")]}, "application/jwk-set+json")
    out.append(ok("jwks-uri", "The key is published at jwks_uri only.", ["ACA-DISC-003"], s, "The verifier fetches jwks_uri from the snapshot."))
    s = discovery_served(discovery(keys=True, jwks_uri=JWKS))
    s.serve_json(JWKS, {"keys": [K1.jwk("k1"), K2.jwk("k2")]})
    out.append(ok("same-key-twice", "The same key inline and at jwks_uri.", ["ACA-DISC-004"], s, "ACA-DISC-004: the same key (same x) may appear both inline and at jwks_uri."))
    # Unknown and x- members of a chain step in a verified response (JSON-004).
    for name, member, result in [("step-unknown-member", "output", "invalid"), ("step-x-member", "x-cost", "valid")]:
        m = manifest()
        m["chain"][0][member] = "x"
        s = Scenario(3)
        s.serve_manifest(M1, m, signed=True)
        if result == "valid":
            out.append(ok(name, "A chain step with the extension member '%s', signed." % member, ["ACA-L3-001", "JSON-004"], s,
                          "JSON-004: an x- member is an extension, ignored."))
        else:
            out.append(bad(name, "A chain step with the member '%s', which is not x-, signed." % member, ["ACA-L3-001", "JSON-004"], s,
                           ["unknown-member"], "JSON-004: not a member of a step and not an x- extension; the signature holds."))
    # ACA-L3-003's lengths and the empty outputs_ref in a verified response: the verify flow has no
    # JSON Schema behind its own checks. Step 3's outputs_ref is referenced by no later step.
    for name, member, value, codes, flag, why in [
        ("step-tool-256", "tool", "t" * 256, [], boundary("tool-length", "inside"), "256 characters: at most 256."),
        ("step-tool-257", "tool", "t" * 257, ["schema-violation"], boundary("tool-length", "outside"), "257 > 256 characters."),
        ("step-outputs-ref-2048", "outputs_ref", "runs/r1/" + "o" * 2040, [], boundary("outputs-ref-length", "inside"), "8 + 2040 = 2048 characters: at most 2048."),
        ("step-outputs-ref-2049", "outputs_ref", "runs/r1/" + "o" * 2041, ["schema-violation"], boundary("outputs-ref-length", "outside"), "8 + 2041 = 2049 > 2048 characters."),
        ("step-outputs-ref-empty", "outputs_ref", "", ["aca-chain-outputs-ref-missing"], None, "ACA-L3-003: a non-empty string."),
    ]:
        m = manifest()
        m["chain"][2][member] = value
        s = Scenario(3)
        s.serve_manifest(M1, m, signed=True)
        desc = "The third chain step's %s is %s, signed." % (member, "empty" if not value else "%d characters long" % len(value))
        flags = [flag] if flag else None
        if codes:
            out.append(bad(name, desc, ["ACA-L3-003"], s, codes, "ACA-L3-003: " + why, flags=flags))
        else:
            out.append(ok(name, desc, ["ACA-L3-003"], s, "ACA-L3-003: " + why, flags=flags))
    # The same boundary when the manifest has another fault to report (a verifier may check a
    # faultless manifest on a faster path than one it must report on).
    m = manifest()
    m["chain"][2]["tool"] = "t" * 256
    m["chain"][2]["outputs_ref"] = "runs/r1/" + "o" * 2040
    m["chain"][0]["output"] = "x"
    s = Scenario(3)
    s.serve_manifest(M1, m, signed=True)
    out.append(bad("step-lengths-at-limit-next-to-a-fault",
                   "The third step's tool is 256 characters and its outputs_ref 2048 characters long, and the first step has the unknown member 'output', signed.",
                   ["ACA-L3-003", "JSON-004"], s, ["unknown-member"],
                   "JSON-004 fails for 'output'; a tool of 256 and an outputs_ref of 2048 characters are within ACA-L3-003, so they add no incident.",
                   flags=[boundary("tool-length", "inside"), boundary("outputs-ref-length", "inside")]))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, expires=NOW + 3600)
    out.append(ok("expires", "A signature with expires in the future.", ["ACA-L3-010"], s, "created < now <= expires + 300."))
    # ACA-L3-010 freshness: created no earlier than emitted_at - 300, and no more than 90 days
    # (7776000 s) before the verification time.
    day = 86400
    s = Scenario(3)
    s.serve_manifest(M1, emitted_manifest(NOW - 89 * day), signed=True, created=NOW - 89 * day + 5)
    out.append(ok("old-signature", "A run emitted 89 days ago and signed then: within the 90-day maximum age.", ["ACA-L3-010"], s,
                  "now - created = 89 days - 5 s < 7776000 s; created is 5 s after emitted_at."))
    s = Scenario(3)
    s.serve_manifest(M1, emitted_manifest(NOW - 90 * day), signed=True, created=NOW - 90 * day)
    out.append(ok("signature-max-age-boundary", "A signature exactly 90 days old.", ["ACA-L3-010"], s,
                  "created = now - 7776000 is not older than the maximum age."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, created=NOW - 300)
    out.append(ok("signature-skew-before-run", "A signature created 300 s before emitted_at.", ["ACA-L3-010"], s,
                  "created = emitted_at - 300: within the clock skew."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, expires=NOW + 3600, created=NOW - 60)
    out.append(ok("signature-expires-later", "created 60 s before now with expires an hour later.", ["ACA-L3-010"], s,
                  "created < now <= expires + 300."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, content_type="application/json; charset=utf-8")
    out.append(ok("content-type-param", "Content-Type with a charset parameter, covered by the signature.", ["ACA-L2-002", "ACA-L3-014"], s,
                  "The signed content-type value is 'application/json; charset=utf-8'; the media type is application/json."))

    # ---- the agent's identity is the response's origin (issue 8, review F2). The manifests of
    # these cases are seed-shaped (no response_url), so that each case tests the origin rules
    # alone; their bound twins follow.
    MIRROR = "https://mirror.example/runs/r1"
    s = Scenario(3)
    s.agent_url = MIRROR
    s.serve_manifest(M1, unbound(manifest()), signed=True)
    out.append(bad("served-from-other-origin", "The same response served from another origin, citing the first origin's signed manifests (issue 8, second attack).",
                   ["ACA-DISC-001", "FETCH-008"], s, ["aca-discovery-fetch-failed", "fetch-not-in-snapshot"],
                   "ACA-DISC-001: keys come from https://mirror.example's discovery document, which the snapshot does not have; "
                   "the signature is not checked further (reporting rule 3)."))
    s = Scenario(3)
    s.agent_url = MIRROR
    s.serve_manifest(M1, unbound(manifest()), signed=True)
    s.serve_json("https://mirror.example/.well-known/agent-citation-attribution", discovery())
    out.append(bad("served-from-other-origin-copied-discovery",
                   "Served from another origin that copies the first origin's discovery document (and so its key).",
                   ["ACA-DISC-001", "ACA-DISC-006"], s, ["aca-manifest-origin-unauthorized"],
                   "ACA-DISC-006: the manifests are on https://agent.example, which mirror.example's discovery document does not "
                   "list in manifest_origins. (Listing it would be the republisher vouching for the response: see ACA-DISC-001.)"))
    s = Scenario(3)
    s.agent_url = MIRROR
    s.serve_json("https://mirror.example/.well-known/agent-citation-attribution",
                 {**discovery(), "manifest_origins": ["https://agent.example"]})
    out.append(bad("served-from-other-origin-vouching-bound",
                   "Served from another origin whose discovery document copies the key and authorizes the original origin; the signed manifest names the original URL.",
                   ["ACA-L2-024", "ACA-DISC-001", "ACA-DISC-006"], s, ["aca-response-url-mismatch"],
                   "The residual risk of ACA-DISC-001 (an origin vouching for another agent's response) is closed for bound manifests: "
                   "ACA-L2-024, response_url %s is not %s. Every Level 3 check passes. Level 1." % (AGENT, MIRROR), level=1))
    s = Scenario(3)
    s.agent_url = MIRROR
    s.serve_json("https://mirror.example/.well-known/agent-citation-attribution",
                 {**discovery(), "manifest_origins": ["https://agent.example"]})
    s.serve_manifest(M1, unbound(manifest()), signed=True)
    out.append(verify_case(P + "served-from-other-origin-vouching-unbound",
                           "The same vouching mirror with a seed-shaped manifest: the residual risk ACA-DISC-001 declares.",
                           ["ACA-DISC-001", "ACA-DISC-006", "ACA-L2-025"], 3, s, 3, "valid", out_level=3, warnings=["aca-response-unbound"],
                           detail="The mirror's own discovery document publishes the key and authorizes agent.example; nothing in an "
                                  "unbound manifest names the response. Level 3, with the warning of ACA-L2-025."))
    s = Scenario(3)
    s.agent_url = "https://agent.example/runs/r1-copy"
    out.append(bad("replayed-at-other-url", "The complete response copied verbatim to another URL of its own origin (issue 19, item 8).",
                   ["ACA-L2-024"], s, ["aca-response-url-mismatch"],
                   "Same origin, so the discovery document, keys and signatures all verify; the signed manifest names %s. Level 1." % AGENT, level=1))
    s = Scenario(3)
    s.agent_url = "https://agent.example/runs/r1-copy"
    m = manifest(response_url="https://agent.example/runs/r1-copy")
    signed_headers, _, _ = sign_manifest_response(jcs(manifest()), K1, "k1", NOW - 60)
    s.resources[M1] = stored(200, signed_headers, jcs(m))
    out.append(bad("response-url-rewritten", "The copy's manifest rewritten in transit to name the copy's URL; the original signature kept.",
                   ["ACA-L2-024", "ACA-L3-011"], s, ["aca-content-digest-mismatch"],
                   "response_url now equals the URL verified (ACA-L2-024 holds), but it is part of the signed body: the signed "
                   "Content-Digest no longer matches (ACA-L3-011)."))
    s = Scenario(3)
    s.serve_manifest(M1, unbound(manifest()), signed=True)
    out.append(verify_case(P + "baseline-unbound", "A complete Level 3 response whose manifest has the seed's shape (no response_url).",
                           ["ACA-L2-025", "ACA-L3-007"], 3, s, 3, "valid", out_level=3, warnings=["aca-response-unbound"],
                           detail="ACA-L2-025 is a SHOULD: a warning. Level 3."))
    STRANGER = "https://attacker.example/m/1"
    s = Scenario(3)
    s.header(header([(SRC_A, STRANGER, "r1"), (SRC_B, STRANGER, "r1")]))
    s.serve_manifest(STRANGER, manifest(response_url="https://attacker.example/r/1"), signed=True, key=K2, keyid="k2")
    s.serve_json("https://attacker.example/.well-known/agent-citation-attribution",
                 {**discovery(keys=False), "keys": {"keys": [K2.jwk("k2")]}})
    out.append(bad("header-points-at-stranger-bound", "Citation-Source rewritten to a stranger's signed manifest that names the stranger's own response.",
                   ["ACA-L2-024", "ACA-DISC-001", "ACA-DISC-006", "ACA-L3-013"], s,
                   ["aca-response-url-mismatch", "aca-key-unresolved", "aca-manifest-origin-unauthorized"],
                   "ACA-L2-024: the stranger's manifest was emitted for https://attacker.example/r/1 (Level 2); its key and origin "
                   "fail as in the unbound case. Level 1.", level=1))
    s = Scenario(3)
    s.header(header([(SRC_A, STRANGER, "r1"), (SRC_B, STRANGER, "r1")]))
    s.serve_manifest(STRANGER, unbound(manifest()), signed=True, key=K2, keyid="k2")
    s.serve_json("https://attacker.example/.well-known/agent-citation-attribution",
                 {**discovery(keys=False), "keys": {"keys": [K2.jwk("k2")]}})
    out.append(bad("header-points-at-stranger", "Citation-Source rewritten to a stranger's manifest, signed with the stranger's own published key.",
                   ["ACA-DISC-001", "ACA-DISC-006", "ACA-L3-013"], s, ["aca-key-unresolved", "aca-manifest-origin-unauthorized"],
                   "Keys come from agent.example's discovery document, which has only k1: k2 is unresolved (ACA-L3-013); attacker.example is not in its "
                   "manifest_origins (ACA-DISC-006)."))
    CDN = "https://cdn.agent.example/r1/manifest"
    s = Scenario(3)
    s.header(header([(SRC_A, CDN, "r1"), (SRC_B, CDN, "r1")]))
    s.serve_manifest(CDN, manifest(), signed=True)
    s.serve_json(DISC, {**discovery(), "manifest_origins": ["https://cdn.agent.example"]})
    out.append(ok("manifest-on-authorized-cdn", "The manifest is hosted on a CDN origin the discovery document lists.", ["ACA-DISC-006"], s,
                  "ACA-DISC-006: https://cdn.agent.example is in manifest_origins; the key k1 comes from agent.example's discovery document."))
    s = Scenario(3)
    s.header(header([(SRC_A, CDN, "r1"), (SRC_B, CDN, "r1")]))
    s.serve_manifest(CDN, manifest(), signed=True, key=K2, keyid="k2")
    s.serve_json(DISC, {**discovery(), "manifest_origins": ["https://cdn.agent.example"]})
    s.serve_json("https://cdn.agent.example/.well-known/agent-citation-attribution",
                 {**discovery(keys=False), "keys": {"keys": [K2.jwk("k2")]}})
    out.append(bad("cdn-signs-with-its-own-key",
                   "The manifest is on an authorized CDN origin, signed with a key (k2) that only the CDN origin's own discovery document publishes.",
                   ["ACA-L3-013", "ACA-DISC-001", "ACA-DISC-006"], s, ["aca-key-unresolved"],
                   "ACA-L3-013 (review 3, N11): the key comes from the discovery document of the agent response's origin "
                   "(https://agent.example), which publishes only k1; the CDN's discovery document is never consulted, so k2 is "
                   "unresolved. A verifier that took keys from the manifest URL's origin would find k2 and pass. "
                   "The passing twin is aca-l3-verify-manifest-on-authorized-cdn."))
    s = Scenario(3)
    s.header(header([(SRC_A, CDN, "r1"), (SRC_B, CDN, "r1")]))
    s.serve_manifest(CDN, manifest(), signed=True)
    out.append(bad("manifest-on-unlisted-cdn", "The manifest is hosted on a CDN origin the discovery document does not list.", ["ACA-DISC-006"], s,
                   ["aca-manifest-origin-unauthorized"], "ACA-DISC-006: no manifest_origins member."))
    s = discovery_served({**discovery(), "manifest_origins": ["https://cdn.agent.example/"]})
    out.append(bad("manifest-origins-with-path", "manifest_origins lists a URL with a path instead of an origin.", ["ACA-DISC-006", "ACA-DISC-002"], s,
                   ["aca-discovery-invalid"], "ACA-DISC-006: 'https://cdn.agent.example/' is not the serialization of an origin (it has a path)."))
    UNCITED = "https://example.net/also-read"
    s = Scenario(3)
    s.header(header([(SRC_A, M1, "r1"), (SRC_B, M1, "r1"), (UNCITED, M1, "r1")]))
    out.append(bad("consulted-source-not-in-chain", "A consulted header source that no claim cites is missing from the chain.", ["ACA-L2-012"], s,
                   ["aca-source-not-in-manifest"], "ACA-L2-012: at Level 3 the chain lists every consulted source; this one appears nowhere in the manifest."))
    s = Scenario(3)
    s.header(header([(SRC_A, M1, "r1"), (SRC_B, M1, "r1"), (UNCITED, M1, "r1")]))
    mm = manifest()
    mm["chain"][0]["sources"] = mm["chain"][0]["sources"] + [UNCITED]
    s.serve_manifest(M1, mm, signed=True)
    out.append(ok("consulted-source-in-chain", "A consulted header source that no claim cites, recorded by a chain step.", ["ACA-L2-012", "ACA-L3-006"], s,
                  "ACA-L2-012: the search step lists it in its sources."))

    def tampered(f):
        s = Scenario(3)
        f(s)
        return s

    m = manifest()
    m.pop("chain")
    s = Scenario(3)
    s.serve_manifest(M1, m, signed=True)
    out.append(bad("chain-missing", "A signed manifest without chain (seed pitfall: logging only the final claim list).", ["ACA-L3-001"], s, ["aca-chain-missing"], "ACA-L3-001."))
    m = manifest()
    for st in m["chain"][:2]:
        st["sources"] = [SRC_A]
    s = Scenario(3)
    s.serve_manifest(M1, m, signed=True)
    out.append(bad("source-not-in-chain", "A claim's source never appears in the chain (seed pitfall).", ["ACA-L3-006"], s, ["aca-source-not-in-chain"], "ACA-L3-006."))
    m = manifest()
    m["chain"][2]["inputs_ref"] = "runs/r1/step/3"
    s = Scenario(3)
    s.serve_manifest(M1, m, signed=True)
    out.append(bad("chain-cycle", "A step consuming its own output.", ["ACA-L3-004"], s, ["aca-chain-ref-forward"], "ACA-L3-004."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=False)
    out.append(bad("unsigned", "The manifest response is not signed (seed pitfall: unsigned manifests at Level 3).", ["ACA-L3-007", "ACA-L3-011"], s,
                   ["aca-signature-missing", "aca-content-digest-missing"], "No Signature-Input, no Signature, no Content-Digest."))
    s = Scenario(3)
    s.set_manifest_header("signature-input", None)
    out.append(bad("signature-without-input", "Signature without Signature-Input.", ["ACA-L3-007"], s, ["aca-signature-missing"], "Both fields are required."))
    s = Scenario(3)
    s.set_manifest_header("signature", "sig1=:AAAA:")
    out.append(bad("short-signature", "A 3-byte signature.", ["ACA-L3-008"], s, ["httpsig-malformed-signature"], "64 bytes."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, components=("@status", "content-type"))
    out.append(bad("digest-not-covered", "The signature does not cover content-digest.", ["ACA-L3-009"], s, ["httpsig-required-component-not-covered"],
                   "The body would be unprotected."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, created=NOW + 400)
    out.append(bad("created-in-future", "created 400 s after now.", ["ACA-L3-010"], s, ["httpsig-created-in-future"], "ACA-L3-010."))
    s = Scenario(3)
    s.serve_manifest(M1, emitted_manifest(NOW - 7200), signed=True, created=NOW - 7200, expires=NOW - 3600)
    out.append(bad("expired", "The signature expired an hour ago.", ["ACA-L3-010"], s, ["httpsig-expired"], "now > expires + 300."))
    s = Scenario(3)
    s.serve_manifest(M1, emitted_manifest(NOW - 91 * day), signed=True, created=NOW - 91 * day)
    out.append(bad("signature-too-old", "A run emitted and signed 91 days ago: a signature does not vouch indefinitely.",
                   ["ACA-L3-010"], s, ["httpsig-too-old"], "now - created = 91 days > 7776000 s (90 days), the default maximum age."))
    s = Scenario(3)
    s.serve_manifest(M1, emitted_manifest(NOW - 90 * day - 1), signed=True, created=NOW - 90 * day - 1)
    out.append(bad("signature-max-age-plus-one", "A signature 90 days and one second old.", ["ACA-L3-010"], s, ["httpsig-too-old"],
                   "created = now - 7776001 < now - 7776000.", flags=[boundary("signature-max-age", "outside")]))
    s = Scenario(3)
    s.serve_manifest(M1, emitted_manifest(NOW - 90 * day), signed=True, created=NOW - 90 * day)
    out.append(ok("signature-max-age", "A run emitted and signed exactly 90 days ago.", ["ACA-L3-010"], s,
                  "created = now - 7776000 is not older than now minus the maximum age.", flags=[boundary("signature-max-age", "inside")]))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, created=NOW - 301)
    out.append(bad("signature-predates-run", "A signature created 301 s before the run's emitted_at (a manifest signed ahead of the run).",
                   ["ACA-L3-010"], s, ["aca-signature-predates-run"], "created = emitted_at - 301 < emitted_at - 300.",
                   flags=[boundary("signature-before-run-skew", "outside")]))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, created=NOW - 300)
    out.append(ok("signature-300s-before-run", "A signature created 300 s before the run's emitted_at (clock skew between signer and agent).",
                  ["ACA-L3-010"], s, "created = emitted_at - 300 is not more than 300 s before emitted_at.",
                  flags=[boundary("signature-before-run-skew", "inside")]))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, created=NOW - 86400 * 365)
    out.append(bad("signature-replayed-from-last-year", "A signature made a year before the run it is served with.",
                   ["ACA-L3-010"], s, ["aca-signature-predates-run"], "created is a year before emitted_at: it predates the run."))
    s = Scenario(3)
    s.set_manifest_header("content-digest", None)
    out.append(bad("digest-missing", "The Content-Digest field was removed.", ["ACA-L3-011", "ACA-L3-009"], s, ["aca-content-digest-missing", "httpsig-missing-component"],
                   "ACA-L3-011, and the covered content-digest component is absent (ACA-L3-009)."))
    s = Scenario(3)
    body = jcs(manifest()).replace(b"agent.example/v1", b"agent.example/v9")
    s.resources[M1]["body_base64"] = b64(body)
    out.append(bad("body-rewritten", "The manifest body was rewritten in transit (seed: 'can be rewritten in transit').", ["ACA-L3-011"], s,
                   ["aca-content-digest-mismatch"], "The signed Content-Digest no longer matches."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, digest="sha-256=:AAAA:")
    out.append(bad("digest-short", "A sha-256 member of 3 bytes.", ["ACA-L3-011"], s, ["aca-content-digest-invalid"], "32 bytes required."))
    mbody = jcs(manifest())
    wrong512 = b64(hashlib.sha512(mbody + b"x").digest())
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, digest="%s, sha-512=:%s:" % (content_digest(mbody), wrong512))
    out.append(bad("digest-second-algorithm-wrong", "A correct sha-256 member next to a wrong sha-512 member (both signed).", ["ACA-L3-011"], s,
                   ["aca-content-digest-mismatch"], "ACA-L3-011: every member present must match; a matching sha-256 does not excuse a wrong sha-512."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, digest="%s, sha-512=:%s:" % (content_digest(mbody), b64(hashlib.sha512(mbody).digest())))
    out.append(ok("digest-both-algorithms", "Correct sha-256 and sha-512 members.", ["ACA-L3-011"], s, "Both members equal the digests of the body."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, digest="%s, md5=:AAAA:" % content_digest(mbody))
    out.append(ok("digest-unknown-algorithm", "A correct sha-256 member next to an md5 member.", ["ACA-L3-011"], s, "Other algorithms are ignored."))
    pretty = dumps(manifest()).encode("utf-8")
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, body=pretty)
    out.append(bad("body-not-jcs", "The body is pretty-printed JSON (digest and signature made over it).", ["ACA-L3-012", "SIG-001"], s, ["aca-manifest-not-jcs"],
                   "Same JSON value, but not byte-identical to its JCS form."))
    # ACA-L3-012 on string escapes: RFC 8785 §3.2.2.2 writes a character escaped only when it must,
    # with the short form where one exists and lowercase hex otherwise.
    for name, value, canonical, other, why in [
        ("escape-not-needed", "A", "A", "\\u0041", "`A` written as \\u0041 (JCS writes it raw)"),
        ("escape-long-form", "\n", "\\n", "\\u000a", "a newline written as \\u000a (JCS writes \\n)"),
        ("escape-uppercase-hex", "\x1f", "\\u001f", "\\u001F", "U+001F written as \\u001F (JCS writes lowercase hex)"),
    ]:
        m = manifest()
        m["x-note"] = "<" + value + ">"
        s = signed_body(m, ('"x-note":"<' + canonical + '>"').encode(), ('"x-note":"<' + other + '>"').encode())
        out.append(bad("body-" + name, "The body holds " + why + ", signed over those bytes.", ["ACA-L3-012", "CANON-001"], s,
                       ["aca-manifest-not-jcs"], "The same JSON value as its JCS form, but not the same bytes (RFC 8785 §3.2.2.2)."))
    # ACA-L3-012 on member order: RFC 8785 §3.2.3 sorts names by their UTF-16 code units, which
    # differs from code point (and UTF-8 byte) order between U+E000..U+FFFF and supplementary
    # characters: U+10000 is D800 DC00 in UTF-16, so it sorts before U+E000.
    m = manifest()
    m["x-a"], m["x-b"] = "1", "2"
    s = signed_body(m, b'"x-a":"1","x-b":"2"', b'"x-b":"2","x-a":"1"')
    out.append(bad("body-members-unsorted", "Two members (x-b before x-a) out of order, signed over those bytes.", ["ACA-L3-012", "CANON-001"], s,
                   ["aca-manifest-not-jcs"], "RFC 8785 §3.2.3: members are written in ascending order of their names."))
    m = manifest()
    m["x-\ue000"], m["x-\U00010000"] = "bmp", "astral"
    utf16 = '"x-\U00010000":"astral","x-\ue000":"bmp"'.encode()
    s = signed_body(m, utf16)
    out.append(ok("body-members-utf16-order", "Members x-U+10000 and x-U+E000 in UTF-16 code unit order (U+10000 first), as JCS writes them.",
                  ["ACA-L3-012", "CANON-001"], s, "U+10000 is D800 DC00 in UTF-16, below E000: this is the JCS order (RFC 8785 §3.2.3).",
                  flags=[boundary("jcs-member-order", "inside")]))
    s = signed_body(m, utf16, '"x-\ue000":"bmp","x-\U00010000":"astral"'.encode())
    out.append(bad("body-members-code-point-order", "Members x-U+E000 and x-U+10000 in code point order (what sorting by UTF-8 bytes or by Python str gives), signed over those bytes.",
                   ["ACA-L3-012", "CANON-001"], s, ["aca-manifest-not-jcs"],
                   "RFC 8785 §3.2.3 sorts by UTF-16 code units: U+10000 (D800 DC00) comes before U+E000.",
                   flags=[boundary("jcs-member-order", "outside")]))
    # ACA-L3-012 on numbers: RFC 8785 §3.2.2.3 writes a number as ECMAScript's shortest form, and
    # a document is canonical only if every token is (one canonical number after a fault does not
    # make the whole canonical).
    m = manifest()
    m["x-n"] = 1.5
    s = signed_body(m, b'"x-n":1.5}')
    out.append(ok("body-number-fraction", "An x-n member holding 1.5, written as JCS writes it.", ["ACA-L3-012", "CANON-001"], s,
                  "1.5 is the ECMAScript form of the double 1.5 (RFC 8785 §3.2.2.3)."))
    s = signed_body(m, b'"x-n":1.5}', b'"x-n":1.50}')
    out.append(bad("body-number-long-form", "The number 1.5 written 1.50, signed over those bytes.", ["ACA-L3-012", "CANON-001"], s,
                   ["aca-manifest-not-jcs"], "JCS writes 1.5 (RFC 8785 §3.2.2.3): the same value, not the same bytes."))
    m = manifest()
    m["x-n"] = 0
    s = signed_body(m, b'"x-n":0}', b'"x-n":-0}')
    out.append(bad("body-number-negative-zero", "The number 0 written -0, signed over those bytes.", ["ACA-L3-012", "CANON-001"], s,
                   ["aca-manifest-not-jcs"], "JCS writes negative zero as 0 (RFC 8785 §3.2.2.3, ECMAScript Number::toString)."))
    m = manifest()
    m["x-a"], m["x-n"] = "A", 1.5
    assert jcs(m).count(b'"x-a":"A","x-n":1.5}') == 1
    s = signed_body(m, b'"x-a":"A"', b'"x-a":"\\u0041"')
    out.append(bad("body-escape-before-number", "`A` written as \\u0041, followed by the canonical number 1.5, signed over those bytes.",
                   ["ACA-L3-012", "CANON-001"], s, ["aca-manifest-not-jcs"],
                   "The escape is not what JCS writes (RFC 8785 §3.2.2.2); the canonical number after it does not undo that."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, keyid="k9")
    out.append(bad("keyid-unpublished", "keyid k9 is not published.", ["ACA-L3-013"], s, ["aca-key-unresolved"], "ACA-L3-013."))
    s = Scenario(3)
    s.serve_manifest(M1, manifest(), signed=True, key=K2)
    out.append(bad("other-key", "Signed with another key under kid k1.", ["ACA-L3-014"], s, ["aca-signature-invalid"], "Ed25519 verification fails with k1's key."))
    s = Scenario(3)
    hdrs, _, sig = sign_manifest_response(jcs(manifest()), K1, "k1", NOW - 60)
    s.set_manifest_header("signature", "sig1=:%s:" % b64(non_canonical_s(sig)))
    out.append(bad("non-canonical-s", "S + L instead of S.", ["ACA-L3-014", "SIG-002"], s, ["aca-signature-invalid"], "SIG-002: S must be below L."))
    s = Scenario(3)
    dd = discovery()
    dd["keys"]["keys"][0]["d"] = b64url(K1.seed)
    s.serve_json(DISC, dd)
    out.append(bad("private-key-published", "The discovery document publishes the private key.", ["ACA-DISC-004", "ACA-L3-013"], s,
                   ["jwk-private-key-published"], "The key is not usable (SIG-005); reporting rule 3: the unusable key is reported once, not again as aca-key-unresolved."))
    s = Scenario(3)
    del s.resources[DISC]
    out.append(bad("discovery-absent", "No discovery document.", ["ACA-DISC-001", "ACA-L3-013", "FETCH-008"], s, ["aca-discovery-fetch-failed", "fetch-not-in-snapshot"],
                   "ACA-DISC-001: the discovery document of the agent response's origin https://agent.example."))
    s = Scenario(3)
    s.resources[DISC] = stored(404, [], b"")
    out.append(bad("discovery-404", "The discovery document answers 404.", ["ACA-DISC-001", "FETCH-007"], s, ["aca-discovery-fetch-failed", "fetch-http-status"], "Status 200 required."))
    s = Scenario(3)
    s.resources[DISC]["headers"] = [["content-type", "text/html"]]
    out.append(bad("discovery-html", "The discovery document is served as text/html.", ["ACA-DISC-001"], s, ["aca-discovery-fetch-failed"], "A JSON media type is required."))
    s = discovery_served({**discovery(), "version": "1.1"})
    out.append(bad("discovery-version", "Discovery version 1.1.", ["ACA-DISC-002"], s, ["aca-discovery-version-unsupported"], "Only 1.0."))
    s = discovery_served({**discovery(), "supported_signing": []})
    out.append(bad("discovery-no-signing", "supported_signing is empty.", ["ACA-DISC-002"], s, ["aca-discovery-signing-unsupported"],
                   "At Level 3 it includes http-message-signatures."))
    s = discovery_served(discovery(keys=False, jwks_uri=JWKS))
    out.append(bad("jwks-unreachable", "jwks_uri is not in the snapshot.", ["ACA-DISC-003", "ACA-L3-013", "FETCH-008"], s, ["aca-jwks-fetch-failed", "fetch-not-in-snapshot"],
                   "ACA-DISC-003."))
    s = discovery_served(discovery(keys=False))
    out.append(bad("keys-missing", "The discovery document publishes no key.", ["ACA-DISC-003", "ACA-L3-013"], s, ["aca-discovery-keys-missing"], "ACA-DISC-003; reporting rule 3: no key to resolve, so no aca-key-unresolved."))
    s = discovery_served(discovery(keys=True, jwks_uri=JWKS))
    s.serve_json(JWKS, {"keys": [K2.jwk("k1")]})
    out.append(bad("kid-conflict", "kid k1 names different keys inline and at jwks_uri.", ["ACA-DISC-004"], s, ["jwk-duplicate-kid"], "ACA-DISC-004."))
    return out


def main():
    write("aca/level1/header-parse.json", "aca", "aca-header-parse",
          "ACA Level 1: parsing the Citation-Source field (ACA-L1-001 to ACA-L1-008).", level1_parse(),
          flags={"boundary": "The input sits exactly at or just past a limit of the profile."})
    write("aca/level1/header-emit.json", "aca", "aca-header-emit",
          "ACA Level 1: emitting the Citation-Source field; the emitter never writes what the parser rejects.", level1_emit())
    write("aca/level1/verify.json", "aca", "aca-verify-snapshot",
          "ACA Level 1 verification of an agent response from a web snapshot (required_level 1).", level1_verify())
    write("aca/level2/manifest-validate.json", "aca", "aca-manifest-validate",
          "ACA Level 2: one manifest on its own (JSON rules, members, ids, hashes, offsets, retrieval time).", level2_manifest_validate())
    write("aca/level2/verify.json", "aca", "aca-verify-snapshot",
          "ACA Level 2 verification from web snapshots: manifests, run binding, header agreement, source hashes, excerpts, support (required_level 2).",
          level2_verify())
    write("aca/level3/chain-validate.json", "aca", "aca-manifest-validate",
          "ACA Level 3: the chain-of-citation envelope of a manifest (ACA-L3-001 to ACA-L3-006).", level3_chain_validate())
    write("aca/level3/discovery-validate.json", "aca", "aca-discovery-validate",
          "ACA Level 3: the discovery document and its published keys (ACA-DISC-002 to -004, SIG-003 to SIG-005).", level3_discovery_validate())
    write("aca/level3/manifest-sign.json", "aca", "aca-manifest-sign",
          "ACA Level 3: the signed manifest response, byte for byte (Ed25519 is deterministic).", level3_manifest_sign())
    write("aca/level3/httpsig-verify.json", "aca", "httpsig-verify",
          "RFC 9421 verification of HTTP messages with Ed25519 (ACA-L3-008 to -011, -014; SIG-002, SIG-004, SIG-005).", level3_httpsig(),
          attribution="Case aca-l3-httpsig-rfc9421-b26 uses RFC 9421 Appendix B.2.6 and B.1.4 (c) 2024 IETF Trust and the authors, reproduced as test data.")
    write("aca/level3/verify.json", "aca", "aca-verify-snapshot",
          "ACA Level 3 verification from web snapshots: chain, signatures, keys from discovery (required_level 3).", level3_verify())


if __name__ == "__main__":
    main()
