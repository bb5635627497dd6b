"""An independent implementation of the AEF span and hash rules of docs/PROFILE.md, written from
the profile text with the Python standard library only (hashlib, html.parser, xml.etree, json).
It never imports or runs citeproof. Used by:

- vectors/tools/aef_vectors.py (the AEF Level 2 and Level 3 vector files);
- vectors/fixtures/aef/expected.py (the fixture expectations).

Only what those generators need is here: the §5 text hash, normalized text and lines, text
paragraphs, T(n) and paragraphs of HTML, XPath string-values through ElementTree, RFC 8785 for
the simple JSON values of evidence objects, and base64url.
"""

import base64
import hashlib
import html.parser
import json
import xml.etree.ElementTree as ET

from common_json import jcs

# ---------------------------------------------------------------------------------------------
# AEF §5 (CANON-003 b)


def normalize_newlines(text: str) -> str:
    """Every CRLF and every lone CR becomes LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def section5(data) -> str:
    """AEF §5 steps 1-3: UTF-8 (strict), CRLF/CR -> LF, one trailing LF stripped."""
    text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    text = normalize_newlines(text)
    return text[:-1] if text.endswith("\n") else text


def aef_hash(data) -> str:
    return "sha256:" + hashlib.sha256(section5(data).encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------
# Normalized text (profile "AI Evidence Format": normalized text, lines, AEF-L2-004/005/008)


def lines(text: str):
    """Pieces between LFs; an empty piece after a final LF is not a line."""
    pieces = text.split("\n")
    if text.endswith("\n"):
        pieces.pop()
    return pieces


def text_paragraphs(text: str):
    """Maximal runs of non-blank lines (blank: only SP and HTAB), joined with LF."""
    out, cur = [], []
    for line in lines(text):
        if line.strip(" \t") == "":
            if cur:
                out.append("\n".join(cur))
                cur = []
        else:
            cur.append(line)
    if cur:
        out.append("\n".join(cur))
    return out


# ---------------------------------------------------------------------------------------------
# HTML text T(n) (profile "HTML text"), with html.parser building a small tree.

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
EXCLUDED = {"script", "style", "noscript", "template"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def ancestors(self):
        n = self.parent
        while n is not None:
            yield n
            n = n.parent

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()


class _Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [], None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse_html(text: str) -> Node:
    b = _Builder()
    b.feed(text)
    b.close()
    return b.root


def collapse(text: str) -> str:
    """Runs of ASCII whitespace -> one SP; one leading and one trailing SP removed."""
    out, space = [], False
    for ch in text:
        if ch in "\t\n\x0c\r ":
            if not space:
                out.append(" ")
                space = True
        else:
            out.append(ch)
            space = False
    s = "".join(out)
    if s.startswith(" "):
        s = s[1:]
    if s.endswith(" "):
        s = s[:-1]
    return s


def T(node: Node) -> str:
    if node.tag in EXCLUDED or any(a.tag in EXCLUDED for a in node.ancestors()):
        return ""
    parts = []

    def rec(n):
        for c in n.children:
            if isinstance(c, str):
                parts.append(c)
            elif c.tag not in EXCLUDED:
                rec(c)

    rec(node)
    return collapse("".join(parts))


def in_template_or_noscript(node: Node) -> bool:
    # With the scripting flag enabled, <noscript> content is raw text (no elements), and
    # template contents are not in the document tree.
    return any(a.tag in ("template", "noscript") for a in node.ancestors())


def html_paragraphs(root: Node):
    return [T(n) for n in root.walk() if n.tag == "p" and not in_template_or_noscript(n)]


def find(root: Node, tag, **attrs):
    """Elements (outside templates/noscript) with this tag and attribute values, in tree order."""
    out = []
    for n in root.walk():
        if n.tag == tag and not in_template_or_noscript(n) and all(
                n.attrs.get(k.rstrip("_")) == v for k, v in attrs.items()):
            out.append(n)
    return out


def element_children(node: Node, tag=None):
    return [c for c in node.children if isinstance(c, Node) and (tag is None or c.tag == tag)]


# ---------------------------------------------------------------------------------------------
# XML string-values (XPath §5) through ElementTree (comments and PIs are dropped by default).


def parse_xml(text: str):
    return ET.fromstring(text)


def string_value(elem) -> str:
    return "".join(elem.itertext())


# ---------------------------------------------------------------------------------------------
# RFC 8785 (jcs, from common_json) of an evidence object


def signing_payload(evidence: dict) -> bytes:
    """AEF-5-003: JCS of the object without verification.signature and .signing_key_uri."""
    doc = json.loads(json.dumps(evidence))
    doc.get("verification", {}).pop("signature", None)
    doc.get("verification", {}).pop("signing_key_uri", None)
    return jcs(doc)


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64u_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
