#!/usr/bin/env python3
"""Writes the seed inputs of every fuzz target from the repository's own inputs: the vector
files' inputs, `vectors/fixtures/`, and the RFC and test data under `crates/*/tests/data`.

    python3 fuzz/seed.py [OUT]      # default: fuzz/seeds/<target>/<name>

Each seed is laid out the way its target reads bytes (see crates/citeproof-fuzz-bodies): a
leading mode byte, NUL-separated halves, and so on. The seeds are the starting point of a run;
what is committed is the corpus minimized after the runs (`fuzz/corpus/<target>/`), so this
script only needs to be rerun to start a target's corpus afresh. Standard library only; it never
runs citeproof.
"""

import base64
import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fuzz", "seeds")

# Orders that the bodies index into (keep in step with crates/citeproof-fuzz-bodies/src).
DOCUMENT_KINDS = [
    "aca-citation-source-entry", "aca-manifest", "aca-discovery", "jwk-set", "aef-evidence",
    "archive-citation", "archive-response-bundle", "archive-display-citation",
    "archive-artifact", "archive-snapshot", "archive-display-view", "archive",
    "archive-log-record", "archive-gate-request", "chain-envelope", "chain-response", "ledger",
    "ledger-audit-record", "ledger-template-record", "ledger-api-export", "web-snapshot",
    "vector-file", "incident",
]
SPAN_SELECTORS = [
    "byte_range", "line_range", "xpath", "css", "text_quote", "paragraph_index", "none",
    "css_selector", "fragment_identifier", "page_range",
]
SPAN_MEDIA = [
    "text/html", "application/xml", "application/pdf", "text/plain", "application/json",
    "text/markdown", "application/xhtml+xml", "text/plain; charset=utf-8",
]
AEF_MEDIA = [
    "text/html; charset=utf-8", "text/plain", "application/xml", "text/markdown",
    "application/xhtml+xml", "application/pdf", "application/json", "text/html",
]

seeds = {}


def add(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    seeds.setdefault(target, {})[hashlib.sha1(data).hexdigest()] = data
    if target == "json_strict":
        # The token reader under the strict parser reads the same inputs.
        seeds.setdefault("json_tokens", {})[hashlib.sha1(data).hexdigest()] = data


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def vector_cases():
    for path in sorted(glob.glob(os.path.join(ROOT, "vectors", "**", "*.json"), recursive=True)):
        if "/fixtures/" in path or "/meta/" in path:
            continue
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if isinstance(doc, dict) and "cases" in doc:
            for case in doc["cases"]:
                yield doc.get("operation"), case


def b64(text):
    return base64.b64decode(text)


def media_index(media, table):
    essence = media.split(";")[0].strip().lower()
    for i, m in enumerate(table):
        if m == media or m.split(";")[0] == essence:
            return i
    return 0


def span_seed(span, media, body):
    sel = SPAN_SELECTORS.index(span["selector_type"]) if span.get("selector_type") in SPAN_SELECTORS else 6
    value = (span.get("selector_value") or "").encode("utf-8")[:255]
    flags = sel
    exact = span.get("exact_text")
    if exact is not None and exact.encode("utf-8") == value:
        flags |= 0x80
    if span.get("surrounding_context"):
        flags |= 0x40
    return bytes([flags, media_index(media, SPAN_MEDIA), len(value)]) + value + body


def warc_record(fields, block):
    head = "WARC/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields)
    head += f"Content-Length: {len(block)}\r\n\r\n"
    return head.encode("utf-8") + block + b"\r\n\r\n"


def http_response(status, headers, body, chunked=False):
    lines = [f"HTTP/1.1 {status} X"]
    for name, value in headers:
        if name.lower() in ("content-length", "transfer-encoding"):
            continue
        lines.append(f"{name}: {value}")
    if chunked:
        lines.append("Transfer-Encoding: chunked")
        payload = b""
        for i in range(0, len(body), 7):
            chunk = body[i:i + 7]
            payload += f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        payload += b"0\r\n\r\n"
    else:
        lines.append(f"Content-Length: {len(body)}")
        payload = body
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + payload


def warc_of(snapshot, chunked=False):
    """A WARC file of a JSON snapshot, written by hand (independently of citeproof's writer)."""
    date = [("WARC-Date", "2026-04-28T10:00:00Z")]
    agent = snapshot["response"]
    out = warc_record(
        [("WARC-Type", "warcinfo"), ("WARC-Record-ID", "<urn:uuid:0>")] + date
        + [("Content-Type", "application/warc-fields")],
        f"citeproof-agent-response: {agent['url']}\r\n".encode())
    items = [(agent["url"], agent)] + list(snapshot.get("resources", {}).items())
    for n, (url, stored) in enumerate(items):
        block = http_response(stored["status"], stored["headers"], b64(stored["body_base64"]),
                              chunked and n % 2 == 1)
        out += warc_record(
            [("WARC-Type", "response"), ("WARC-Record-ID", f"<urn:uuid:{n + 1}>")] + date
            + [("WARC-Target-URI", url), ("Content-Type", "application/http;msgtype=response")],
            block)
    return out


URL_RE = re.compile(r"https?://[^\s\"'<>\\]+")
TIME_RE = re.compile(r"\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)")


def strings_of(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_of(v)


def strings_and_objects(value):
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from strings_and_objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_and_objects(v)


def main():
    seq = 0
    for op, case in vector_cases():
        inp = case.get("input", {})
        seq += 1
        # The implementation side of the protocol sees every case as a run line.
        run = {"cmd": "run", "seq": seq,
               "case": {"id": case["id"], "operation": op, "input": inp}}
        add("adapter_serve", '{"cmd":"start","protocol":1}\n' + json.dumps(run) + '\n{"cmd":"stop"}\n')
        expected = case.get("expected", {})
        reply = {"seq": 7, "result": expected.get("result", "valid"),
                 "errors": expected.get("errors", [])}
        if "warnings" in expected:
            reply["warnings"] = expected["warnings"]
        if "output" in expected:
            reply["output"] = expected["output"]
        add("adapter_protocol", json.dumps(reply))
        for s in strings_of(inp):
            for url in URL_RE.findall(s):
                add("fetch_url_policy", url)
                add("grammars", url)
            for t in TIME_RE.findall(s):
                add("grammars", t)
        if op == "jcs-canonicalize":
            data = inp["json"].encode("utf-8") if "json" in inp else b64(inp["json_base64"])
            add("json_strict", data)
        elif op in ("hash-aef-text", "hash-bytes"):
            add("grammars", b64(inp["data_base64"]))
        elif op == "aca-header-parse":
            add("citation_source", "\n".join(inp["values"]))
        elif op == "aca-manifest-validate":
            add("aca_documents", b"\x00" + inp["document"].encode("utf-8"))
            add("documents", bytes([DOCUMENT_KINDS.index("aca-manifest")]) + inp["document"].encode("utf-8"))
            add("json_strict", inp["document"])
        elif op == "aca-discovery-validate":
            add("aca_documents", b"\x01" + inp["document"].encode("utf-8"))
            add("documents", bytes([DOCUMENT_KINDS.index("aca-discovery")]) + inp["document"].encode("utf-8"))
            doc = inp["document"]
            add("jws_detached", doc)
        elif op == "aca-support-check":
            excerpt = " ".join(e.get("text", "") if isinstance(e, dict) else str(e) for e in inp["excerpts"])
            add("aca_documents", b"\x02" + inp["claim"].encode("utf-8") + excerpt.encode("utf-8"))
        elif op == "aca-verify-snapshot":
            snap = json.dumps(inp["snapshot"]).encode("utf-8")
            add("aca_verify", bytes([inp.get("required_level", 0) % 4]) + snap)
            add("snapshots", snap)
            add("documents", bytes([DOCUMENT_KINDS.index("web-snapshot")]) + snap)
            add("snapshots", warc_of(inp["snapshot"], chunked=len(seeds.get("snapshots", {})) % 3 == 0))
            for stored in [inp["snapshot"]["response"]] + list(inp["snapshot"].get("resources", {}).values()):
                for name, value in stored["headers"]:
                    if name.lower() == "citation-source":
                        add("citation_source", value)
                    if name.lower() in ("signature-input", "signature"):
                        add("http_message", value)
                    if name.lower() == "content-digest":
                        add("http_message", value.encode("utf-8") + b"\x00" + b64(stored["body_base64"]))
        elif op == "httpsig-verify":
            add("http_message", inp["message"])
        elif op == "aca-manifest-sign":
            add("documents", bytes([DOCUMENT_KINDS.index("aca-manifest")]) + json.dumps(inp["manifest"]).encode())
            add("jws_detached", json.dumps(inp["private_jwk"]))
        elif op == "aef-validate":
            add("documents", bytes([DOCUMENT_KINDS.index("aef-evidence")]) + inp["document"].encode("utf-8"))
            add("aef_evidence", b"\x01" + inp["document"].encode("utf-8") + b"\x00")
        elif op == "aef-verify-span":
            ev, src = inp["evidence"], inp["source"]
            body = b64(src.get("body_base64", ""))
            media = src.get("media_type", "text/plain")
            add("aef_evidence", bytes([2 | media_index(media, AEF_MEDIA) << 2]) + json.dumps(ev).encode() + b"\x00" + body)
            add("aef_span", span_seed(ev["span"], media, body))
            span = ev["span"]
            if span.get("selector_type") == "xpath":
                add("xpath", span.get("selector_value", "").encode() + b"\x00" + body)
            if span.get("selector_type") in ("css", "css_selector"):
                add("css_selector", span.get("selector_value", "").encode() + b"\x00" + body)
            exact = span.get("exact_text") or ""
            if "[REDACTED]" in exact:
                add("redacted_quote", exact.encode() + b"\x00" + body)
        elif op == "aef-verify":
            doc = json.loads(inp["document"])
            uri = doc.get("source", {}).get("uri") if isinstance(doc, dict) else None
            res = inp.get("resources", {}).get(uri) if uri else None
            level = inp.get("required_level", 0) % 4
            if res:
                ctype = next((v for n, v in res["headers"] if n.lower() == "content-type"), "text/plain")
                add("aef_evidence", bytes([level | media_index(ctype, AEF_MEDIA) << 2]) + inp["document"].encode() + b"\x00" + b64(res["body_base64"]))
            else:
                add("aef_evidence", bytes([level]) + inp["document"].encode() + b"\x00")
        elif op == "aef-jws-verify":
            add("jws_detached", inp["key_document"])
            sig = inp["evidence"].get("verification", {}).get("signature")
            if isinstance(sig, str):
                add("jws_detached", sig)
        elif op == "aef-jws-sign":
            add("jws_detached", json.dumps(inp["private_jwk"]))
        elif op == "archive-verify":
            add("archive_documents", b"\x00" + inp["bundle"].encode() + b"\x00" + inp["display"].encode())
            add("documents", bytes([DOCUMENT_KINDS.index("archive-response-bundle")]) + inp["bundle"].encode())
            add("documents", bytes([DOCUMENT_KINDS.index("archive-display-view")]) + inp["display"].encode())
        elif op == "archive-log-verify":
            bundles = inp.get("bundles") or [""]
            add("archive_documents", b"\x01" + inp["log"].encode() + b"\x00" + bundles[0].encode())
        elif op in ("chain-verify", "chain-signing-input"):
            add("chain_documents", inp["document"])
            doc = json.loads(inp["document"]) if inp["document"].strip().startswith("{") else None
            kind = "chain-response" if isinstance(doc, dict) and "answer" in doc else "chain-envelope"
            add("documents", bytes([DOCUMENT_KINDS.index(kind)]) + inp["document"].encode())
        elif op == "chain-claim-id":
            add("chain_documents", json.dumps({"claim": inp["claim"]}))
        elif op == "ledger-audit":
            data = inp["export"].encode() if "export" in inp else b64(inp["export_base64"])
            add("ledger_jsonl", b"\x00" + data)
            add("ledger_jsonl", b"\x01" + data)
        elif op == "ledger-verify":
            data = inp["export"].encode() if "export" in inp else b64(inp["export_base64"])
            add("ledger_jsonl", b"\x02" + data)
            add("ledger_jsonl", b"\x03" + inp["ledger"].encode())
            add("documents", bytes([DOCUMENT_KINDS.index("ledger")]) + inp["ledger"].encode())
            if "api" in inp:
                add("documents", bytes([DOCUMENT_KINDS.index("ledger-api-export")]) + inp["api"].encode())

    # Test data of the crates: RFC 8785, RFC 9421 / 9530, RFC 8037, PEM keys.
    for path in glob.glob(os.path.join(ROOT, "crates/citeproof-model/tests/data/rfc8785/**/*.json"), recursive=True):
        add("json_strict", read(path))
    for path in sorted(glob.glob(os.path.join(ROOT, "crates/citeproof-httpsig/tests/data/rfc9421/*"))):
        name = os.path.basename(path)
        if name.endswith(".http") or "signature-input" in name or name.endswith("-signature.txt"):
            add("http_message", read(path))
        if name.endswith(".pem"):
            add("jws_detached", read(path))
    for case in json.loads(read("crates/citeproof-httpsig/tests/data/rfc9530/digests.json")):
        add("http_message", case["content_digest"].encode() + b"\x00" + case["content"].encode())
    appendix = json.loads(read("crates/citeproof-jose/tests/data/rfc8037/appendix_a.json"))
    for v in strings_and_objects(appendix):
        if isinstance(v, dict) and "kty" in v:
            add("jws_detached", json.dumps(v))
            add("jws_detached", json.dumps({"keys": [v]}))
        elif isinstance(v, str) and v.count(".") == 2:
            add("jws_detached", v)
    for path in glob.glob(os.path.join(ROOT, "crates/citeproof-jose/tests/data/python-cryptography/*.pem")):
        add("jws_detached", read(path))

    # Fixtures: AEF source documents and their cases; the archive; the ledger files.
    fixtures = json.loads(read("vectors/fixtures/aef/expected.json"))
    for case in fixtures["cases"]:
        body = read(os.path.join("vectors/fixtures/aef", case["file"]))
        span, media = case["span"], case["media_type"]
        add("aef_span", span_seed(span, media, body))
        value = (span.get("selector_value") or "").encode()
        if span.get("selector_type") == "xpath":
            add("xpath", value + b"\x00" + body)
        if span.get("selector_type") in ("css", "css_selector"):
            add("css_selector", value + b"\x00" + body)
        if span.get("selector_type") == "text_quote" and span.get("selector_value"):
            add("redacted_quote", value + b"\x00" + body[:2000])
    catalog = read("vectors/fixtures/aef/catalog.xml")
    crosscheck = read("crates/citeproof-span/src/xpath/crosscheck.rs").decode()
    block = crosscheck.split("const EXPRESSIONS")[1].split("];")[0]
    for expr in re.findall(r'"((?:[^"\\]|\\.)*)"', block):
        add("xpath", expr.replace('\\"', '"').encode() + b"\x00" + catalog)
    for expr in ["string(//title)", "count(//*)", "sum(//@n) div 2", "concat('a', //b[1])",
                 "substring('12345', 1.5, 2.6)", "translate('bar','abc','ABC')", "-(-(1))",
                 "//*[lang('en')]", "id('x')", "1 = 1.0", "'a' != //nothing", "local-name(/*)",
                 "normalize-space('  a  b ')", "round(-0.5)", "floor(1 div 0)", "//x:e/@x:b",
                 "//@xml:lang", "namespace::*", "//namespace::x"]:
        add("xpath", expr.encode() + b"\x00")
    article = read("vectors/fixtures/aef/article.html")
    for sel in ["p", "*", "#main .lead", "article > p:nth-child(2n+1)", "p:not(.lead)",
                "h1 + p ~ section", "[id|=dec]", "section:first-of-type p:last-child",
                "a[href^='/'][href$='c']", "*|p", "p:empty", ":root", "li:only-child"]:
        add("css_selector", sel.encode() + b"\x00" + article)
    add("redacted_quote", b"Contact [REDACTED] at [REDACTED] today.\x00intro. Contact Jane Roe at jane@x.org today. outro.")
    add("redacted_quote", "é[REDACTED]ü\x00é [x] ü é ü".encode())
    archive = read("vectors/fixtures/archive/archive.json")
    add("archive_documents", b"\x02" + archive)
    add("documents", bytes([DOCUMENT_KINDS.index("archive")]) + archive)
    add("documents", bytes([DOCUMENT_KINDS.index("archive-gate-request")]) + read("vectors/fixtures/archive/request.json"))
    add("archive_documents", b"\x03" + bytes([0, 10, ord("x"), 1, 0, ord("1")]))
    for name in ["audit-two-runs.jsonl", "seed-export.jsonl", "seed-template.jsonl"]:
        data = read(os.path.join("vectors/fixtures/ledger", name))
        add("ledger_jsonl", b"\x00" + data)
        add("ledger_jsonl", b"\x01" + data)
        add("ledger_jsonl", b"\x02" + data)
    for name in ["ledger-run-a.json", "ledger-run-b.json", "api-run-a.json"]:
        add("ledger_jsonl", b"\x03" + read(os.path.join("vectors/fixtures/ledger", name)))
    add("documents", bytes([DOCUMENT_KINDS.index("ledger-api-export")]) + read("vectors/fixtures/ledger/api-run-a.json"))
    for kind in DOCUMENT_KINDS:
        add("documents", bytes([DOCUMENT_KINDS.index(kind)]) + b"{}")
    # Hand-made grammar seeds: URL corner cases, timestamps, CR/LF texts.
    for text in ["http://[::1]:80/", "HTTP://Example.COM:8080/a/b?c=d#e", "http://[v1.x:y]/",
                 "https://example.com/%E2%82%AC?q=%20#f", "https://0x7f.1/", "http://2130706433/",
                 "https://user@example.com/", "https://[fe80::1%25eth0]/", "http://a.example/./b/../c",
                 "2026-04-28T10:00:00Z", "1990-12-31T23:59:60Z", "2026-04-28t10:00:00.123456789+05:30",
                 "9999-12-31T23:59:59-23:59", "0000-01-01T00:00:00Z", "run-1.a_b:c", "a\r\nb\rc\n"]:
        add("grammars", text)
        add("fetch_url_policy", text)
    add("adapter_protocol", '{"protocol":1,"implementation":{"name":"x","version":"1","language":"py"},"operations":["*"]}')
    add("adapter_protocol", '{"seq":7,"skipped":true,"message":"no"}')
    add("adapter_protocol", '{"seq":7,"errored":true,"message":"\\ud800"}')

    for target, items in sorted(seeds.items()):
        d = os.path.join(OUT, target)
        os.makedirs(d, exist_ok=True)
        for name, data in items.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        print(f"{target}: {len(items)} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
