"""`aca-header-parse`: the `Citation-Source` field (docs/PROFILE.md ACA-L1-001 to ACA-L1-008)."""

import ipaddress
import re
import urllib.parse

MAX_VALUE_BYTES = 8192
MAX_ENTRIES = 256
TCHAR = set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
URI_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
IPVFUTURE = re.compile(r"v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+")


class Syntax(Exception):
    pass


def web_url_ok(url):
    """The profile's "Web URL" definition."""
    if len(url.encode("utf-8")) > 2048 or not url or any(not 0x21 <= ord(c) <= 0x7E for c in url):
        return False
    if not URI_CHARS.fullmatch(url) or url.count("#") > 1:
        return False
    scheme, sep, rest = url.partition("://")
    if not sep or not _authority_ok(re.split(r"[/?#]", rest, maxsplit=1)[0]):
        return False
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return False
    if scheme.lower() not in ("http", "https") or parts.scheme != scheme.lower():
        return False
    if "@" in parts.netloc or not parts.hostname:
        return False
    try:
        parts.port
    except ValueError:
        return False
    return True


def _authority_ok(authority):
    """RFC 3986 3.2.2: an IP literal in brackets (IPv6address or IPvFuture, no zone id), then
    nothing or `:port`; any other host has no brackets."""
    if not authority.startswith("["):
        return "[" not in authority and "]" not in authority
    end = authority.find("]")
    if end < 0:
        return False
    literal, after = authority[1:end], authority[end + 1:]
    if after and not re.fullmatch(r":[0-9]*", after):
        return False
    if IPVFUTURE.fullmatch(literal):
        return True
    if "%" in literal:  # a zone id (RFC 6874) is not RFC 3986
        return False
    try:
        ipaddress.IPv6Address(literal)
    except ValueError:
        return False
    return True


def url_key(url):
    """Approximation of the WHATWG URL serialization used for URL equality."""
    p = urllib.parse.urlsplit(url)
    scheme = p.scheme.lower()
    host = (p.hostname or "").lower()
    port = p.port
    if port is not None and port != {"http": 80, "https": 443}[scheme]:
        host = f"{host}:{port}"
    segments = []
    for seg in (p.path or "/").split("/")[1:]:
        if seg in (".", "%2e", "%2E"):
            continue
        if seg in ("..", ".%2e", "%2e.", "%2e%2e", ".%2E", "%2E.", "%2E%2E"):
            if segments:
                segments.pop()
            continue
        segments.append(seg)
    path = "/" + "/".join(segments)
    return scheme, host, path, p.query, p.fragment, "?" in url.split("#")[0], "#" in url


def _ows(s, i):
    while i < len(s) and s[i] in " \t":
        i += 1
    return i


def _token(s, i):
    j = i
    while j < len(s) and s[j] in TCHAR:
        j += 1
    if j == i:
        raise Syntax("token expected")
    return s[i:j], j


def _quoted(s, i):
    i += 1
    out, backslash = [], False
    while i < len(s):
        c = s[i]
        if c == '"':
            return "".join(out), backslash, i + 1
        if c == "\\":
            if i + 1 >= len(s) or not (s[i + 1] in " \t" or 0x21 <= ord(s[i + 1]) <= 0x7E):
                raise Syntax("bad quoted-pair")
            backslash = True
            out.append(s[i + 1])
            i += 2
            continue
        if not (c in " \t" or c == "\x21" or 0x23 <= ord(c) <= 0x5B or 0x5D <= ord(c) <= 0x7E):
            raise Syntax("bad character in quoted-string")
        out.append(c)
        i += 1
    raise Syntax("unterminated quoted-string")


def _entries(s):
    entries, i = [], 0
    while True:
        i = _ows(s, i)
        if i >= len(s):
            return entries
        if s[i] == ",":
            i += 1
            continue
        if s[i] != "<":
            raise Syntax("< expected")
        end = s.find(">", i + 1)
        if end <= i + 1:
            raise Syntax("URL expected")
        url = s[i + 1:end]
        if any(not (0x21 <= ord(c) <= 0x7E) or c in "<>" for c in url):
            raise Syntax("bad character in URL")
        i = end + 1
        params = []
        while True:
            j = _ows(s, i)
            if j < len(s) and s[j] == ";":
                j = _ows(s, j + 1)
                name, j = _token(s, j)
                j = _ows(s, j)
                if j >= len(s) or s[j] != "=":
                    raise Syntax("= expected")
                j = _ows(s, j + 1)
                if j < len(s) and s[j] == '"':
                    value, backslash, j = _quoted(s, j)
                    params.append((name.lower(), value, True, backslash))
                else:
                    value, j = _token(s, j)
                    params.append((name.lower(), value, False, False))
                i = j
            else:
                break
        entries.append((url, params))
        i = _ows(s, i)
        if i < len(s):
            if s[i] != ",":
                raise Syntax(", expected")
            i += 1


def header_parse(values):
    """Returns (errors, entries) for a list of field line values."""
    errors = []

    def err(code):
        if code not in errors:
            errors.append(code)

    for v in values:
        if re.search(r"\r\n[ \t]", v) or any((ord(c) < 0x20 and c != "\t") or ord(c) > 0x7E for c in v):
            return ["aca-header-syntax"], None
    combined = ", ".join(values).strip(" \t")
    if len(combined.encode("utf-8")) > MAX_VALUE_BYTES:
        return ["aca-header-too-long"], None
    try:
        parsed = _entries(combined)
    except Syntax:
        return ["aca-header-syntax"], None
    if not parsed:
        return ["aca-header-missing"], None
    if len(parsed) > MAX_ENTRIES:
        return ["aca-header-too-long"], None
    out, runs, seen = [], set(), set()
    for url, params in parsed:
        if not web_url_ok(url):
            err("aca-url-invalid")
        names = [p[0] for p in params]
        if len(set(names)) != len(names):
            err("aca-header-param-duplicate")
        entry = {"source": url}
        # A header-only entry (no manifest) is Level 1 (profile ACA-L1-005); Level 2 needs one.
        for name, value, quoted, backslash in params:
            if name in ("manifest", "run") and (not quoted or backslash):
                err("aca-header-param-form")
            elif name == "manifest":
                if not web_url_ok(value):
                    err("aca-url-invalid")
                entry.setdefault("manifest", value)
            elif name == "run":
                if not RUN_ID.fullmatch(value):
                    err("aca-run-id-invalid")
                runs.add(value)
                entry.setdefault("run", value)
        others = [[n, v] for n, v, _, _ in params if n not in ("manifest", "run")]
        if others:
            entry["params"] = others
        if web_url_ok(url):
            key = url_key(url)
            if key in seen:
                err("aca-header-duplicate-source")
            seen.add(key)
        out.append(entry)
    if len(runs) > 1:
        err("aca-run-mismatch")
    return errors, (None if errors else out)
