#!/usr/bin/env python3
"""Generates the archive vectors (seed 002, profile ARCHIVE-*):

  vectors/archive/level1/verify.json      archive-verify (bundle + display + archive + trust)
  vectors/archive/level1/log-verify.json  archive-log-verify (bundle log + archive + bundles)
  vectors/fixtures/archive/walkthrough.expected.json  the gate's output for request.json

Inputs come from the fixture archive (vectors/fixtures/archive/archive.json, written by
make_archive.py), cut down to the artifacts the cases cite. Every expected result is stated by
hand in the case (the reasoning is in `derivation.detail`), and the independent Python
implementation of the profile in archive_lib.py must agree with it, or no file is written.
citeproof is never imported or run. Needs pyca/cryptography (Ed25519).

Run: python3 vectors/tools/archive_vectors.py
"""

import copy
import json
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import archive_lib as L  # noqa: E402
from vectorlib import REPO, boundary, case, derivation, write  # noqa: E402

FIXTURES = os.path.join(REPO, "vectors", "fixtures", "archive")
FULL = json.load(open(os.path.join(FIXTURES, "archive.json"), encoding="utf-8"))
NAMES = json.load(open(os.path.join(FIXTURES, "names.json"), encoding="utf-8"))
WALK = json.load(open(os.path.join(FIXTURES, "request.json"), encoding="utf-8"))

NOW = 1778925900  # 2026-05-16T10:05:00Z
CREATED = "2026-05-16T10:00:00Z"
SIGNED = "2026-05-16T10:00:01Z"
SIGNER = "archive.example"
K_NEW, K_OLD, K_OTHER = L.EdKey("k2026"), L.EdKey("k2025"), L.EdKey("other signer")
SECRET = "correct horse battery staple, archive edition"
TRUST = {
    "keys": {SIGNER: {"keys": [K_NEW.jwk("archive-2026"), K_OLD.jwk("archive-2025")]},
             "other.example": {"keys": [K_OTHER.jwk("archive-2026")]}},
    "secrets": {SIGNER: {"hmac-1": SECRET}},
}
ED = ("Ed25519", SIGNER, "archive-2026", K_NEW)
HM = ("HMAC-SHA256", SIGNER, "hmac-1", SECRET)
WARNINGS = {"archive-excerpt-plaintext", "archive-log-unanchored"}

USED = ["letter-1949-harbour", "diary-1950-school", "letter-1978-retire", "diary-1951-teaching",
        "diary-1958-brother", "letter-1952-daughter", "interview-2003", "letter-1960-school-wrong",
        "notes-1985-museum", "medical-2019"]


def small_archive(names=USED):
    """The fixture archive cut down to `names` (open consent written as the default, absent)."""
    ids = {NAMES[n] for n in names}
    doc = copy.deepcopy(FULL)
    for s in doc["snapshots"]:
        s["artifacts"] = [a if a["consent"] != "open" else {"artifact_id": a["artifact_id"]}
                          for a in s["artifacts"] if a["artifact_id"] in ids]
    doc["artifacts"] = {k: v for k, v in doc["artifacts"].items() if k in ids}
    return doc


ARCHIVE = small_archive()
ARCHIVE_X = small_archive(USED + ["letter-1960-school", "letter-1959-marriage"])


def para(name, i):
    return FULL["artifacts"][NAMES[name]]["paragraphs"][i]


def span(name, i, phrase):
    p = para(name, i)
    s = p.index(phrase)
    return {"kind": "text", "paragraph_index": i, "char_start": s, "char_end": s + len(phrase)}


def cite(name, version, sp, relation):
    return {"artifact_id": NAMES[name], "archive_version": version, "span": sp, "relation": relation}


V1, V2, V3 = "2025-11-01", "2026-03-01", "2026-05-01"
QUOTE_1949 = "The harbour froze solid last week, and the boys walked out to the lighthouse on the ice."
# The quote the base response delivers to a researcher (cap 80): 76 scalar values of it.
QUOTE_76 = "The harbour froze solid last week, and the boys walked out to the lighthouse"
C_QUOTE = {"claim_id": "c1", "text": "In February 1949 she wrote: \"" + QUOTE_76 + ".\"",
           "citations": [cite("letter-1949-harbour", V1, span("letter-1949-harbour", 1, QUOTE_76), "direct_quote")]}
C_QUOTE_88 = {"claim_id": "c1", "text": "In February 1949 she wrote: \"" + QUOTE_1949 + "\"",
              "citations": [cite("letter-1949-harbour", V1, span("letter-1949-harbour", 1, QUOTE_1949), "direct_quote")]}
DESKS = "I moved the desks into a half circle"
C_PARA = {"claim_id": "c2", "text": "She had her desks in a half circle.",
          "citations": [cite("diary-1950-school", V1, span("diary-1950-school", 0, DESKS), "paraphrase"),
                        cite("letter-1978-retire", V1, span("letter-1978-retire", 2, "The half circle of desks stays."), "paraphrase")]}
C_INFER = {"claim_id": "c3", "text": "She probably valued practical sums over abstract exercises.",
           "label": "Interpretation: inferred from her diary, not stated by her.",
           "citations": [cite("diary-1951-teaching", V1, span("diary-1951-teaching", 0, "A sum means more when it tells you whether the boat gets home."), "inference_from")]}
# One diary sentence for the one sentence of the claim (the support rule matches sentence to
# sentence, ACA-L2-018), so the date line before it is not part of the span.
BROTHER = "Bjørn came home from sea after two years."
C_WITHDRAWN = {"claim_id": "c4", "text": "Her brother came home after two years at sea.",
               "citations": [cite("diary-1958-brother", V1, span("diary-1958-brother", 0, BROTHER), "paraphrase")]}
C_HIDDEN = {"claim_id": "c5", "text": "She had a daughter before she married.", "topic": "Whether she had children before her marriage",
            "citations": [cite("letter-1952-daughter", V1, span("letter-1952-daughter", 1, "I gave my daughter to the Haugland family in Bergen"), "paraphrase")]}
C_NONE = {"claim_id": "c6", "text": "She voted for the Labour Party all her life.", "topic": "How she voted"}
MUSEUM = ("Notes for the harbour museum: the 1949 ice, the 1956 storm, the 1963 winter. Ask the "
          "Lund family for photographs of the boat shed.")
C_AUDIO = {"claim_id": "c7", "text": "The 1949 ice is in her notes for the harbour museum.",
           "citations": [cite("interview-2003", V2, {"kind": "time_range", "start_ms": 840000, "end_ms": 905000}, "metadata_fact"),
                         cite("notes-1985-museum", V1, span("notes-1985-museum", 0, MUSEUM), "paraphrase")]}


def request(claims, tier="researcher", created=CREATED, **extra):
    r = {"response_id": "r-81", "requester": "req-7f3a", "tier": tier, "created_at": created,
         "claims": copy.deepcopy(claims)}
    r.update(extra)
    return r


BASE_REQ = request([C_QUOTE, C_PARA, C_INFER, C_WITHDRAWN, C_HIDDEN, C_NONE, C_AUDIO])


def built(req=BASE_REQ, signer=ED, signed=SIGNED, archive=ARCHIVE, plaintext=False):
    return L.gate(req, archive, signer, signed, plaintext)


def unsigned(bundle):
    b = copy.deepcopy(bundle)
    b.pop("signature", None)
    return b


def resign(bundle, signer=ED, signed=SIGNED):
    return L.sign_bundle(unsigned(bundle), signer[0], signer[1], signer[2], signed, signer[3])


def rebind(display, bundle):
    d = copy.deepcopy(display)
    d["bundle_hash"] = L.jcs_hash(bundle)
    return d


def redisplay(bundle, archive=ARCHIVE):
    facts, cap = L.facts_of(bundle, archive)
    return L.display_of(bundle, facts, cap)


def text(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def hand(detail):
    return derivation("hand", detail + " Checked by the independent implementation vectors/tools/archive_lib.py.")


VERIFY_CASES = []


def verify_case(cid, description, requirements, bundle, display, errors=(), warnings=(),
                archive=ARCHIVE, trust=TRUST, now=NOW, flags=(), detail="", bundle_text=None,
                display_text=None):
    bt = bundle_text if bundle_text is not None else text(bundle)
    dt = display_text if display_text is not None else text(display)
    got = L.check(bt, dt, archive, trust, now)
    want = set(errors) | set(warnings)
    assert got == want, f"{cid}: archive_lib says {sorted(got)}, hand says {sorted(want)}"
    inp = {"bundle": bt, "display": dt, "archive": archive, "now": now}
    if "keys" in trust:
        inp["keys"] = trust["keys"]
    if "secrets" in trust:
        inp["secrets"] = trust["secrets"]
    VERIFY_CASES.append(case(
        "archive-verify-" + cid, description, requirements, 1, inp,
        "invalid" if errors else "valid", errors=sorted(errors), warnings=sorted(warnings),
        derivation_=hand(detail or description), flags=list(flags)))


def mutated_case(cid, description, requirements, fn, **kw):
    """A verify case of the base bundle changed by fn, re-signed, with its derived display."""
    b, d = mutate(fn)
    verify_case(cid, description, requirements, b, d, **kw)


def display_case(cid, description, requirements, edit, **kw):
    """A verify case of the base bundle B with a copy of its display view D changed by edit."""
    d = copy.deepcopy(D)
    edit(d)
    verify_case(cid, description, requirements, B, d, **kw)


def mutate(fn, base=None, signer=ED, display_from="derive"):
    """Applies fn to a copy of the base bundle, re-signs it, and derives (or rebinds) the display."""
    b0, d0 = base or built()
    b = unsigned(b0)
    fn(b)
    b = resign(b, signer)
    d = redisplay(b) if display_from == "derive" else rebind(d0, b)
    return b, d


# =============================================================================================
# archive-verify

B, D = built()
ALL_BASE = ["ARCHIVE-001", "ARCHIVE-002", "ARCHIVE-003", "ARCHIVE-004", "ARCHIVE-005",
            "ARCHIVE-006", "ARCHIVE-007", "ARCHIVE-008", "ARCHIVE-009", "ARCHIVE-010",
            "ARCHIVE-011", "ARCHIVE-012", "ARCHIVE-013", "ARCHIVE-014", "ARCHIVE-015",
            "ARCHIVE-016", "ARCHIVE-017", "ARCHIVE-018", "ARCHIVE-019", "ARCHIVE-021",
            "ARCHIVE-022", "ARCHIVE-023", "ARCHIVE-024", "ARCHIVE-032", "ARCHIVE-033"]
verify_case("base", "A response built by the gate: a 76-character direct quote, paraphrases, a labeled inference, a claim whose consent was withdrawn after the cited snapshot (shown restricted), a claim backed only by a hidden artifact and one with no citation (both narrowed, no-coverage), and a claim citing the museum notes and an audio time range; Ed25519 signature.",
            ALL_BASE, B, D, flags=["baseline"],
            detail="Every rule holds by construction: rungs within what the counted citations allow, each paraphrase span supports its claim and the inference span is relevant to its claim (support rule), consent from the snapshot in force (2026-05-01), researcher excerpts and quotes at most 80 scalar values, no claim text repeating the auditor-only or hidden entries, handles A-G by first appearance.")

b, d = built(signer=HM)
verify_case("hmac", "The same response signed with HMAC-SHA256 under the key id `hmac-1` configured for the signer.",
            ["ARCHIVE-011", "ARCHIVE-022"], b, d, flags=["hmac"],
            detail="HMAC-SHA256 (RFC 2104) over the JCS payload with the secret configured for (archive.example, hmac-1).")

b, d = built(signer=("Ed25519", SIGNER, "archive-2025", K_OLD))
verify_case("key-rotation-old-key", "A bundle signed before a key rotation with the old key `archive-2025`; the signer's set holds both keys, so it still verifies.",
            ["ARCHIVE-022"], b, d, flags=["rotation"],
            detail="The key is looked up by kid among the keys configured for signedBy: archive-2025 is there.")

b, d = built(plaintext=True)
verify_case("plaintext-excerpt-warning", "Each text citation carries its unredacted excerpt in plaintext (equal to the span text): valid, with the ARCHIVE-023 warning.",
            ["ARCHIVE-007", "ARCHIVE-023"], b, d, warnings=["archive-excerpt-plaintext"], flags=["should"],
            detail="ARCHIVE-007 holds (excerpt = span text); ARCHIVE-023 is a SHOULD, so only a warning.")

# --- JSON and members (ARCHIVE-001, JSON-*) ---
verify_case("bundle-not-json", "The bundle text is cut off in the middle.", ["JSON-001", "ARCHIVE-001"], None, D,
            errors=["json-syntax"], bundle_text=text(B)[:200], flags=["json"])
verify_case("bundle-duplicate-member", "The bundle has `tier` twice (I-JSON forbids duplicate names).", ["JSON-002", "ARCHIVE-001"], None, D,
            errors=["json-duplicate-member"], bundle_text=text(B)[:-1] + ',"tier":"family"}', flags=["json"])
b, d = mutate(lambda b: b.pop("requester"), display_from="rebind")
verify_case("missing-requester", "The bundle has no `requester`.", ["ARCHIVE-001"], b, d, errors=["schema-violation"], flags=["members"])
b, d = mutate(lambda b: b.update(note="internal"), display_from="rebind")
verify_case("unknown-member", "The bundle has a member `note` that is not an `x-` extension.", ["ARCHIVE-001", "JSON-004"], b, d, errors=["unknown-member"], flags=["members"])
b, d = mutate(lambda b: b.update(created_at="2026-05-16 10:00:00Z"), display_from="rebind")
verify_case("created-at-not-rfc3339", "`created_at` has a space instead of `T`.", ["ARCHIVE-001", "JSON-005"], b, d, errors=["schema-timestamp-invalid"], flags=["members"])


def add_ext(b):
    b["x-pipeline"] = {"model": "persona-2"}
    b["claims"][0]["x-segment"] = 3
    b["claims"][0]["citations"][0]["x-retrieval-score"] = 7


b, d = mutate(add_ext)
verify_case("extension-members", "`x-` members on the bundle, a claim and a citation are allowed.", ["ARCHIVE-001", "JSON-004"], b, d, flags=["members"])

# --- artifacts (ARCHIVE-002) ---
mutated_case("artifact-unknown", "A citation names an artifact id the archive does not hold.", ["ARCHIVE-002"], lambda b: b["claims"][1]["citations"][0].update(artifact_id="sha256:" + "ab" * 32),
            errors=["archive-artifact-unknown"], flags=["resolution"],
            detail="The artifact is unknown, so the claim's rung is not checked (reporting rule 3); an unlisted artifact is hidden in force, so the display shows no citation for it.")
bad_archive = copy.deepcopy(ARCHIVE)
aid = NAMES["diary-1950-school"]
bad_archive["artifacts"][aid] = copy.deepcopy(bad_archive["artifacts"][aid])
bad_archive["artifacts"][aid]["paragraphs"][1] = bad_archive["artifacts"][aid]["paragraphs"][1].replace("learn more", "learn much more")
verify_case("artifact-payload-substituted", "The archive's payload stored under an id was changed (one sentence edited): its JCS hash no longer equals the id.",
            ["ARCHIVE-002"], B, D, errors=["archive-artifact-id-mismatch"], archive=bad_archive, flags=["archive"])
nfd_archive = copy.deepcopy(ARCHIVE)
nfd_payload = {"kind": "text", "media_type": "text/plain", "paragraphs": [unicodedata.normalize("NFD", "Café Måken, 1959.")]}
nfd_id = L.jcs_hash(nfd_payload)
nfd_archive["artifacts"][nfd_id] = nfd_payload
nfd_archive["snapshots"][2]["artifacts"].append({"artifact_id": nfd_id, "consent": "open"})
verify_case("artifact-not-nfc", "The archive holds a text artifact whose paragraph is in NFD (decomposed é and å), correctly content-addressed.",
            ["ARCHIVE-002"], B, D, errors=["archive-artifact-not-canonical"], archive=nfd_archive, flags=["archive", "unicode"])

# --- versions (ARCHIVE-003) ---
old_req = request([{"claim_id": "c1", "text": "The new school of 1960 had a library of four hundred books.",
                    "citations": [cite("letter-1960-school-wrong", V1, span("letter-1960-school-wrong", 1, "a library of four hundred books"), "paraphrase")]}],
                  created="2025-12-01T09:00:00Z")
b, d = built(old_req, signed="2025-12-01T09:00:01Z")
verify_case("old-bundle-still-resolves", "A bundle of December 2025 (archive version 2025-11-01) cites a letter that later snapshots replaced by a corrected transcription; verified today against the whole archive, it still resolves against the version it names.",
            ["ARCHIVE-003", "ARCHIVE-016"], b, d, flags=["versions"],
            detail="The snapshot in force at 2025-12-01 is 2025-11-01, which lists the artifact as open.")
mutated_case("citation-version-unknown", "A citation names archive version 2025-10-01, which the archive does not have.", ["ARCHIVE-003"], lambda b: b["claims"][1]["citations"][0].update(archive_version="2025-10-01"),
            errors=["archive-version-unknown"], flags=["versions"])
new_req = request([C_QUOTE, {"claim_id": "c2", "text": "The new school of 1960 had a library of fourteen hundred books.",
                             "citations": [cite("letter-1960-school", V2, span("letter-1960-school", 1, "a library of fourteen hundred books"), "paraphrase")]}])
b0, d0 = built(new_req, archive=ARCHIVE_X)
b = unsigned(b0)
b["claims"][1]["citations"][0]["archive_version"] = V1
b = resign(b)
d = redisplay(b, ARCHIVE_X)
verify_case("artifact-not-in-version", "A citation names version 2025-11-01 for the corrected letter, which only exists from 2026-03-01.", ["ARCHIVE-003"], b, d,
            errors=["archive-artifact-not-in-version"], archive=ARCHIVE_X, flags=["versions"])
b, d = mutate(lambda b: b.update(archive_version=V2), display_from="rebind")
verify_case("bundle-version-not-in-force", "The bundle names 2026-03-01 although 2026-05-01 was in force when it was created.", ["ARCHIVE-003"], b, d,
            errors=["archive-version-not-in-force"], flags=["versions"])


b = resign(unsigned(B) | {"archive_version": V1})
d = rebind(D, b)
for c in d["claims"]:
    if c["claim_id"] == "c4":
        c["citations"][0]["restricted"] = False
        c["citations"][0]["excerpt"] = "Bjørn came home from sea after two years."
verify_case("older-snapshot-consent", "Attack: the bundle claims the 2025-11-01 snapshot, where the brother's diary was still open, and the display shows its excerpt; consent was withdrawn (auditor-only) in the snapshot in force.",
            ["ARCHIVE-003", "ARCHIVE-016"], b, d, errors=["archive-version-not-in-force", "archive-consent-violated"], flags=["consent", "attack"],
            detail="The gates use the snapshot in force at created_at (2026-05-01), whatever the bundle names: the artifact is auditor-only, so restricted must be true and no excerpt shown.")
d = copy.deepcopy(D)
for c in d["claims"]:
    if c["claim_id"] == "c4":
        c["citations"][0]["restricted"] = False
        c["citations"][0]["excerpt"] = "Bjørn came home from sea after two years."
verify_case("withdrawn-consent-via-old-citation", "Attack: the citation names the 2025-11-01 snapshot where the diary was open; the display shows the excerpt although consent in force is auditor-only.",
            ["ARCHIVE-016"], B, d, errors=["archive-consent-violated"], flags=["consent", "attack"])
b0, d0 = built(request([C_QUOTE], created="2026-04-01T00:00:00Z"), signed="2026-04-01T00:00:01Z")
b, d = mutate(lambda b: b["claims"][0]["citations"][0].update(archive_version=V3), base=(b0, d0), signer=ED)
b = resign(unsigned(b), signed="2026-04-01T00:00:01Z")
d = redisplay(b)
verify_case("citation-version-after-bundle", "A bundle of 1 April 2026 (in force: 2026-03-01) cites the snapshot 2026-05-01, published after it.", ["ARCHIVE-003"], b, d,
            errors=["archive-version-not-in-force"], flags=["versions"])
pre = {"bundle_version": "1", "response_id": "r-0", "requester": "req-7f3a", "tier": "researcher",
       "archive_version": V1, "created_at": "2025-10-01T00:00:00Z",
       "claims": [{"claim_id": "c1", "text": "She voted for the Labour Party.", "rung": "refused", "citations": []}],
       "removed_topics": [], "refusal": {"reason": "coverage", "inventory_offered": True}}
b = resign(pre, signed="2025-10-01T00:00:01Z")
d = L.display_of(b, [[]], 80)
verify_case("created-before-archive", "A bundle dated before the archive's first snapshot: no snapshot was in force.", ["ARCHIVE-003"], b, d,
            errors=["archive-version-not-in-force"], flags=["versions"])

# --- spans (ARCHIVE-004) ---
def set_span(ci, j, **kw):
    def f(b):
        b["claims"][ci]["citations"][j]["span"].update(kw)
    return f


n = len(para("diary-1950-school", 0))
b, d = mutate(set_span(1, 0, char_end=n + 1))
verify_case("span-past-paragraph-end", f"A span ends at character {n + 1} of a {n}-character paragraph.", ["ARCHIVE-004"], b, d,
            errors=["archive-span-out-of-range"], flags=["spans"])
b, d = mutate(set_span(1, 0, paragraph_index=7))
verify_case("span-paragraph-missing", "A span names paragraph 7 of a two-paragraph diary entry.", ["ARCHIVE-004"], b, d,
            errors=["archive-span-out-of-range"], flags=["spans"])
b, d = mutate(set_span(1, 0, char_end=C_PARA["citations"][0]["span"]["char_start"]))
verify_case("span-empty", "A span with char_start equal to char_end.", ["ARCHIVE-004"], b, d, errors=["archive-span-invalid"], flags=["spans"])
mutated_case("time-range-past-end", "A time range ending 1 ms after the end of the 2 712 000 ms recording.", ["ARCHIVE-004"], lambda b: b["claims"][6]["citations"][0]["span"].update(end_ms=2_712_001),
            errors=["archive-span-out-of-range"], flags=["spans", "media"])
mutated_case("text-span-on-audio", "A text span cites the audio interview.", ["ARCHIVE-004"], lambda b: b["claims"][6]["citations"][0].update(span={"kind": "text", "paragraph_index": 0, "char_start": 0, "char_end": 5}, excerpt_hash=L.h(b"xxxxx")), errors=["archive-span-kind-mismatch"], flags=["spans", "media"])
mutated_case("region-on-text", "A region locator cites a text artifact.", ["ARCHIVE-004"], lambda b: b["claims"][1]["citations"][0].update(span={"kind": "region", "x": 0, "y": 0, "width": 10, "height": 10}), errors=["archive-span-kind-mismatch"], flags=["spans"])
p = para("diary-1958-brother", 0)
phrase = "Bjørn came home from sea after two years."
s_char = p.index(phrase)
s_byte = len(p[:s_char].encode())
e_byte = s_byte + len(phrase.encode())
def byte_offsets(b):
    c = b["claims"][3]["citations"][0]
    c["span"].update(char_start=s_byte, char_end=e_byte)
b, d = mutate(byte_offsets)
verify_case("span-in-utf8-bytes", f"A producer counted UTF-8 bytes instead of scalar values: the phrase with 'ø' ends at byte {e_byte}, character {s_char + len(phrase)}; the span text gains a character and no longer matches its excerpt hash.",
            ["ARCHIVE-004", "ARCHIVE-007"], b, d, errors=["archive-excerpt-hash-mismatch"], flags=["spans", "unicode"],
            detail=f"Offsets count Unicode scalar values: [{s_byte}, {e_byte}) is '{p[s_byte:e_byte]}', whose SHA-256 differs from that of the phrase.")

# --- relations and quotes (ARCHIVE-005, -006) ---
b = resign(unsigned(B))
b["claims"][1]["citations"][0]["relation"] = "quote"
b = resign(unsigned(b))
verify_case("relation-invalid", "A citation's relation is `quote`.", ["ARCHIVE-005"], b, rebind(D, b), errors=["archive-relation-invalid"], flags=["relations"],
            detail="The bundle does not have its form, so the checks that need its claims are skipped (reporting rule 3).")
mutated_case("quote-not-verbatim", "A direct quote whose claim text paraphrases instead of quoting.", ["ARCHIVE-006"], lambda b: b["claims"][0].update(text="In February 1949 she wrote that the harbour had frozen and the boys walked to the lighthouse."), errors=["archive-quote-mismatch"], flags=["relations"])
mutated_case("quote-of-media", "A direct quote cites a time range of the audio interview: there is no text to quote.", ["ARCHIVE-006"], lambda b: b["claims"][6]["citations"][0].update(relation="direct_quote"), errors=["archive-quote-mismatch"], flags=["relations", "media"])
cafe = "After the service we will have coffee and waffles at Café Måken by the quay."
nfd_req = request([{"claim_id": "c1", "text": unicodedata.normalize("NFD", "She wrote: \"" + cafe + "\""),
                    "citations": [cite("letter-1959-marriage", V1, span("letter-1959-marriage", 3, cafe), "direct_quote")]}])
b, d = built(nfd_req, archive=ARCHIVE_X)
verify_case("quote-nfd-claim", "A direct quote whose claim text is in NFD (é and å decomposed): the NFC form of the claim contains the span text verbatim.", ["ARCHIVE-006"], b, d, archive=ARCHIVE_X, flags=["relations", "unicode"])

# --- excerpt hashes (ARCHIVE-007, -023) ---
mutated_case("excerpt-hash-wrong", "An excerpt hash that is the hash of another text.", ["ARCHIVE-007"], lambda b: b["claims"][1]["citations"][0].update(excerpt_hash=L.h(b"I moved the desks.")), errors=["archive-excerpt-hash-mismatch"], flags=["excerpts"])
b, d = mutate(lambda b: (b["claims"][1]["citations"].pop(1), b["claims"][1]["citations"][0].update(excerpt_hash=L.h(b"I moved the desks."), relation="inference_from")))
assert len(b["claims"][1]["citations"]) == 1 and b["claims"][1]["rung"] == "supported"
verify_case("excerpt-hash-wrong-rung-not-judged", "A supported claim whose only citation is an inference_from with a wrong excerpt hash: the citation failed ARCHIVE-007, so the rung and the relations of its claim are not judged (an implementation that still counted the citation would find the supported rung without a direct citation).",
            ["ARCHIVE-007", "ARCHIVE-009"], b, d, errors=["archive-excerpt-hash-mismatch"], flags=["excerpts"],
            detail="ARCHIVE-007 fails (the hash is of another text); ARCHIVE-009 and ARCHIVE-032 skip a claim with a citation that failed ARCHIVE-002 to ARCHIVE-007 (reporting rule 3), so neither archive-rung-mismatch nor archive-claim-unsupported.")
mutated_case("excerpt-hash-missing", "A text citation without `excerpt_hash`.", ["ARCHIVE-007"], lambda b: b["claims"][1]["citations"][0].pop("excerpt_hash"), errors=["archive-excerpt-hash-mismatch"], flags=["excerpts"])
mutated_case("excerpt-hash-on-media", "An audio citation with an `excerpt_hash`.", ["ARCHIVE-007"], lambda b: b["claims"][6]["citations"][0].update(excerpt_hash=L.h(b"interview")), errors=["archive-excerpt-hash-mismatch"], flags=["excerpts", "media"])
mutated_case("plaintext-excerpt-differs", "A plaintext auditor excerpt that differs from the span text (and the SHOULD warning for carrying it).",
            ["ARCHIVE-007", "ARCHIVE-023"], lambda b: b["claims"][1]["citations"][0].update(excerpt="I moved the desks into a circle."), errors=["archive-excerpt-mismatch"], warnings=["archive-excerpt-plaintext"], flags=["excerpts", "should"])

# --- claims (ARCHIVE-008) ---
mutated_case("claim-id-duplicate", "Two claims have the id `c1`.", ["ARCHIVE-008"], lambda b: b["claims"][1].update(claim_id="c1"), errors=["archive-claim-id-duplicate"], flags=["claims"])
b, d = mutate(lambda b: b["claims"][1].update(claim_id="c 2"), display_from="rebind")
verify_case("claim-id-syntax", "A claim id with a space.", ["ARCHIVE-008"], b, d, errors=["schema-violation"], flags=["claims"])

# --- the ladder (ARCHIVE-009) ---
req = request([C_QUOTE, dict(C_PARA, withhold=True, topic="Her classroom arrangement")])
b, d = built(req)
verify_case("conservative-downgrade", "A claim with a counted paraphrase is withheld anyway (narrowed, thin-coverage): a gate may stop lower than the citations allow.",
            ["ARCHIVE-009", "ARCHIVE-010"], b, d, flags=["ladder"],
            detail="Seed 002: refused when 'coverage is so thin that even labeling would be misleading'; the rung is an upper bound.")
both = {"claim_id": "c2", "text": C_PARA["text"], "label": "Interpretation: inferred from her farewell letter.",
        "citations": [C_PARA["citations"][0], dict(C_PARA["citations"][1], relation="inference_from")]}
b, d = built(request([C_QUOTE, both]))
b2 = unsigned(b)
b2["claims"][1]["rung"] = "labeled"
b2["claims"][1]["label"] = both["label"]
b = resign(b2)
d = redisplay(b)
verify_case("labeled-despite-direct-support", "A claim with both a paraphrase and an inference citation is labeled rather than supported (a downgrade).", ["ARCHIVE-009"], b, d, flags=["ladder"])


def upgrade_labeled(b):
    b["claims"][2]["rung"] = "supported"
    b["claims"][2].pop("label")


b, d = mutate(upgrade_labeled)
verify_case("rung-upgraded-inference-to-supported", "Attack: a claim whose only citation is an inference is marked supported.", ["ARCHIVE-009"], b, d, errors=["archive-rung-mismatch"], flags=["ladder", "attack"])


def upgrade_none(b):
    b["claims"][5]["rung"] = "supported"
    b["removed_topics"] = b["removed_topics"][:1]


b, d = mutate(upgrade_none)
verify_case("rung-upgraded-no-citation", "Attack: a claim with no citation is marked supported (and dropped from the removed topics).", ["ARCHIVE-009"], b, d, errors=["archive-rung-mismatch"], flags=["ladder", "attack"])


def upgrade_hidden(b):
    b["claims"][4]["rung"] = "supported"
    b["removed_topics"] = b["removed_topics"][1:]


b, d = mutate(upgrade_hidden)
verify_case("rung-from-hidden-artifact", "Attack: a claim whose only citation is a hidden artifact is marked supported; hidden citations never count.", ["ARCHIVE-009", "ARCHIVE-016"], b, d, errors=["archive-rung-mismatch"], flags=["ladder", "consent", "attack"])
req = request([C_QUOTE, {"claim_id": "c2", "text": "The new school had a library of four hundred books.",
                         "citations": [cite("letter-1960-school-wrong", V1, span("letter-1960-school-wrong", 1, "a library of four hundred books"), "paraphrase")]}])
b, d = built(req)
assert b["claims"][1]["rung"] == "narrowed"
b2 = unsigned(b)
b2["claims"][1]["rung"] = "supported"
b2["removed_topics"] = []
b = resign(b2)
d = redisplay(b)
verify_case("rung-from-removed-artifact", "Attack: a claim cites, through the 2025-11-01 snapshot, a transcription the snapshot in force no longer lists, and is marked supported; an artifact the snapshot in force does not list is hidden.",
            ["ARCHIVE-009", "ARCHIVE-016", "ARCHIVE-033"], b, d, errors=["archive-rung-mismatch", "archive-restricted-text-shown"], flags=["ladder", "consent", "attack"],
            detail="Hidden citations never count, so the rung is above what the counted citations allow; and the delivered claim text repeats \"a library of four hundred books\" of the unlisted transcription (hidden), text the corrected letter open in force does not contain.")
b0, d0 = built(request([C_HIDDEN, C_NONE]))
assert b0["refusal"]["reason"] == "coverage"
def narrowed_without_delivery(b):
    for c in b["claims"]:
        c["rung"] = "narrowed"
    b["removed_topics"] = [{"topic": "Whether she had children before her marriage", "reason": "no-coverage"}, {"topic": "How she voted", "reason": "no-coverage"}]
b, d = mutate(narrowed_without_delivery, base=(b0, d0))
verify_case("narrowed-without-delivery", "Every claim is marked narrowed although none is delivered: they are refused.", ["ARCHIVE-009"], b, d, errors=["archive-rung-mismatch"], flags=["ladder"])
mutated_case("refused-in-answering-response", "A claim is refused in a response that delivers other claims: it is narrowed.", ["ARCHIVE-009"], lambda b: b["claims"][5].update(rung="refused") or b.update(removed_topics=b["removed_topics"][:1]), errors=["archive-rung-mismatch"], flags=["ladder"])
b0, d0 = built(request([C_HIDDEN, C_NONE]))
verify_case("coverage-refusal", "Nothing can be delivered: both claims refused, a coverage refusal offering the archive inventory.", ["ARCHIVE-009", "ARCHIVE-020"], b0, d0, flags=["ladder", "refusal"])

# --- removed topics (ARCHIVE-010) ---
mutated_case("removed-topic-missing", "One narrowed claim has no removed topic: the answer is silently truncated.", ["ARCHIVE-010"], lambda b: b.update(removed_topics=b["removed_topics"][1:]), errors=["archive-removed-topics-mismatch"], flags=["topics"])
b, d = mutate(lambda b: b["removed_topics"][0].update(reason="thin-coverage"))
verify_case("removed-reason-reveals-hidden", "Attack: the claim backed only by a hidden artifact is removed with reason thin-coverage, which tells the requestor the archive has something.", ["ARCHIVE-010"], b, d, errors=["archive-removed-topics-mismatch"], flags=["topics", "attack"])
display_case("display-topics-differ", "The display shows a removed topic the bundle does not record.", ["ARCHIVE-010"], lambda d: d["removed_topics"][1].update(topic="Politics"), errors=["archive-removed-topics-mismatch"], flags=["topics", "display"])

# --- signature (ARCHIVE-011, -022) ---
verify_case("unsigned", "The bundle has no signature.", ["ARCHIVE-011"], unsigned(B), rebind(D, unsigned(B)), errors=["archive-signature-missing"], flags=["signature"])
b = copy.deepcopy(B)
b["signature"]["signedAt"] = "2026-05-16T09:59:59Z"
verify_case("signed-at-changed", "Attack: `signedAt` is changed after signing (to look signed before creation would also fail); the metadata is part of the payload.", ["ARCHIVE-011"], b, rebind(D, b),
            errors=["archive-signature-invalid", "archive-time-invalid"], flags=["signature", "attack"],
            detail="The payload covers signedAt, so the Ed25519 signature fails; 09:59:59 is also before created_at 10:00:00.")
b = copy.deepcopy(B)
b["signature"]["signedAt"] = "2026-05-16T10:00:02Z"
verify_case("signed-at-moved", "Attack: `signedAt` moved by one second after signing.", ["ARCHIVE-011"], b, rebind(D, b), errors=["archive-signature-invalid"], flags=["signature", "attack"])
b = copy.deepcopy(B)
b["signature"]["kid"] = "archive-2025"
verify_case("kid-swapped", "Attack: the key id is changed to the signer's other configured key.", ["ARCHIVE-011", "ARCHIVE-022"], b, rebind(D, b), errors=["archive-signature-invalid"], flags=["signature", "attack", "rotation"])
b = copy.deepcopy(B)
b["signature"]["signedBy"] = "other.example"
verify_case("signer-swapped", "Attack: `signedBy` is changed to another configured signer that has a key with the same kid.", ["ARCHIVE-011", "ARCHIVE-022"], b, rebind(D, b), errors=["archive-signature-invalid"], flags=["signature", "attack"])
b = copy.deepcopy(B)
b["signature"]["algorithm"] = "HMAC-SHA256"
verify_case("algorithm-swapped", "The algorithm is changed to HMAC-SHA256 while the signature keeps 128 hex digits.", ["ARCHIVE-011"], b, rebind(D, b), errors=["archive-signature-invalid"], flags=["signature"])
b = copy.deepcopy(B)
b["signature"]["signature"] = b["signature"]["signature"].upper()
verify_case("signature-uppercase-hex", "The signature is written in uppercase hex.", ["ARCHIVE-011"], b, rebind(D, b), errors=["archive-signature-invalid"], flags=["signature"])
b = copy.deepcopy(B)
b["signature"]["x-note"] = "hi"
verify_case("signature-extra-member", "The signature object has an extra member.", ["ARCHIVE-011"], b, rebind(D, b), errors=["archive-signature-invalid"], flags=["signature"])
b = copy.deepcopy(B)
b["signature"].pop("kid")
verify_case("signature-without-kid", "A signature object without `kid` (the chain-envelope form).", ["ARCHIVE-011"], b, rebind(D, b), errors=["archive-signature-invalid"], flags=["signature"])
b = copy.deepcopy(B)
b["claims"][0]["text"] = b["claims"][0]["text"].replace("1949", "1950")
verify_case("tampered-bundle", "Attack: a claim text is edited after signing; the display still carries the hash of the signed bundle.", ["ARCHIVE-011", "ARCHIVE-012"], b, D,
            errors=["archive-signature-invalid", "archive-display-unbound"], flags=["signature", "attack"],
            detail="The signature fails over the edited payload, and the display's bundle_hash is that of the original bundle; checks that need the display bound are skipped.")
b, d = built(signed="2026-05-16T09:59:00Z")
verify_case("signed-before-created", "The bundle is signed (correctly) at 09:59, before its created_at 10:00.", ["ARCHIVE-011"], b, d, errors=["archive-time-invalid"], flags=["signature", "time"])
b, d = built(request([C_QUOTE], created="2026-05-16T11:00:00Z"), signed="2026-05-16T11:00:01Z")
verify_case("created-in-future", "A bundle created an hour after the verification time (more than 300 s of skew).", ["ARCHIVE-011"], b, d, errors=["archive-time-invalid"], flags=["time"])
b, d = built(request([C_QUOTE], created="2026-05-16T10:09:59Z"), signed="2026-05-16T10:09:59Z")
verify_case("created-within-skew", "A bundle created 299 s after the verification time: within the 300 s skew.", ["ARCHIVE-011"], b, d, flags=["time"])
# The two boundaries of ARCHIVE-011's times: the verification time is 10:05:00Z, so 10:10:00Z
# is 300 s after it (inside) and 10:10:01Z 301 s (outside); signedAt equal to created_at is not
# before it (inside), one second earlier is (outside).
b, d = built(request([C_QUOTE], created="2026-05-16T10:10:00Z"), signed="2026-05-16T10:10:00Z")
verify_case("signed-at-skew-limit", "Created and signed exactly 300 s after the verification time.", ["ARCHIVE-011"], b, d,
            flags=["time", boundary("archive-future-skew", "inside")])
b, d = built(request([C_QUOTE], created="2026-05-16T10:10:00Z"), signed="2026-05-16T10:10:01Z")
verify_case("signed-one-second-past-skew", "Created 300 s and signed 301 s after the verification time.", ["ARCHIVE-011"], b, d,
            errors=["archive-time-invalid"], flags=["time", boundary("archive-future-skew", "outside")])
b, d = built(signed=CREATED)
verify_case("signed-at-created", "Signed at the very second the bundle was created.", ["ARCHIVE-011"], b, d,
            flags=["signature", "time", boundary("signed-not-before-created", "inside")])
b, d = built(signed="2026-05-16T09:59:59Z")
verify_case("signed-one-second-before-created", "Signed (correctly) one second before the bundle's created_at.", ["ARCHIVE-011"], b, d,
            errors=["archive-time-invalid"], flags=["signature", "time", boundary("signed-not-before-created", "outside")])
b, d = built(signer=("Ed25519", SIGNER, "archive-2027", L.EdKey("k2027")))
verify_case("kid-not-configured", "Signed with a key id the signer's configured set does not have.", ["ARCHIVE-022"], b, d, errors=["archive-key-unresolved"], flags=["signature", "rotation"])
b, d = built(signer=("HMAC-SHA256", "other.example", "hmac-1", SECRET))
verify_case("hmac-secret-of-other-signer", "HMAC with a secret that is configured, but for another signer.", ["ARCHIVE-022"], b, d, errors=["archive-key-unresolved"], flags=["hmac"])
b, d = built(signer=("HMAC-SHA256", SIGNER, "hmac-1", "wrong secret"))
verify_case("hmac-wrong-secret", "HMAC made with another secret under the configured key id.", ["ARCHIVE-022"], b, d, errors=["archive-signature-invalid"], flags=["hmac"])
b, d = built(signer=("HMAC-SHA256", SIGNER, "archive-2026", K_NEW.jwk("archive-2026")["x"]))
verify_case("hmac-with-public-key", "Attack: HMAC-SHA256 keyed with the public Ed25519 key's `x` under that key's kid; a public key is never a secret.", ["ARCHIVE-022"], b, d,
            errors=["archive-key-unresolved"], flags=["hmac", "attack"])
trust_nokid = copy.deepcopy(TRUST)
del trust_nokid["keys"][SIGNER]["keys"][1]["kid"]
verify_case("jwk-without-kid", "The signer's configured JWK Set has a key without `kid`.", ["ARCHIVE-022"], B, D, errors=["jwk-kid-missing"], trust=trust_nokid, flags=["trust"])

# --- display binding and claims (ARCHIVE-012, -013) ---
other_b, _ = built(request([C_QUOTE]))
verify_case("display-of-other-bundle", "The display carries the hash of another signed bundle.", ["ARCHIVE-012"], B, rebind(D, other_b), errors=["archive-display-unbound"], flags=["display"])
display_case("display-extra-member", "The display view has a member `response_id`.", ["ARCHIVE-012"], lambda d: d.update(response_id="r-81"), errors=["unknown-member"], flags=["display"])
display_case("display-drops-claim", "The display omits a delivered claim.", ["ARCHIVE-013"], lambda d: d["claims"].pop(1), errors=["archive-display-claim-mismatch"], flags=["display"])
display_case("display-shows-narrowed", "The display shows a narrowed claim.", ["ARCHIVE-013"], lambda d: d["claims"].append({"claim_id": "c6", "text": C_NONE["text"], "rung": "narrowed", "citations": []}), errors=["archive-display-claim-mismatch"], flags=["display"])
display_case("display-text-differs", "The display shows a claim text other than the signed one.", ["ARCHIVE-013"], lambda d: d["claims"][0].update(text="In 1949 the harbour froze."), errors=["archive-display-claim-mismatch"], flags=["display"])
display_case("display-tier-differs", "The display says tier family for a researcher bundle.", ["ARCHIVE-013", "ARCHIVE-018"], lambda d: d.update(tier="family"), errors=["archive-display-claim-mismatch"], flags=["display", "tier"])
display_case("display-drops-citation", "The display drops one of a claim's two citations.", ["ARCHIVE-013"], lambda d: d["claims"][1]["citations"].pop(1), errors=["archive-display-claim-mismatch"], flags=["display"])
b, d = mutate(lambda b: b["claims"][2].pop("label"))
verify_case("labeled-without-label", "A labeled claim without a label.", ["ARCHIVE-013"], b, d, errors=["archive-display-label-missing"], flags=["display"])
display_case("display-drops-label", "The display drops the label of a labeled claim.", ["ARCHIVE-013"], lambda d: d["claims"][2].pop("label"), errors=["archive-display-claim-mismatch", "archive-display-label-missing"], flags=["display"])
display_case("display-refusal-differs", "The display shows a refusal the bundle does not have.", ["ARCHIVE-013", "ARCHIVE-020"], lambda d: d.update(refusal={"reason": "coverage", "inventory_offered": True}), errors=["archive-display-claim-mismatch"], flags=["display", "refusal"])

# --- leaks (ARCHIVE-014) ---
hexid = NAMES["letter-1949-harbour"][7:]
mutated_case("leak-artifact-id", "A removed topic carries an artifact id.", ["ARCHIVE-014"], lambda b: b["removed_topics"][1].update(topic="How she voted (see " + NAMES["letter-1949-harbour"] + ")"), errors=["archive-display-leak"], flags=["leak"])
mutated_case("leak-16-hex-digits", "A removed topic carries 16 hex digits (uppercase) from the middle of an artifact id.", ["ARCHIVE-014"], lambda b: b["removed_topics"][1].update(topic="How she voted, ref " + hexid[20:36].upper()), errors=["archive-display-leak"], flags=["leak"])
mutated_case("hex-15-digits-not-a-leak", "A removed topic carries 15 hex digits of an artifact id: below the 16-digit rule.", ["ARCHIVE-014"], lambda b: b["removed_topics"][1].update(topic="How she voted, ref " + hexid[20:35]), flags=["leak"])
b, d = mutate(lambda b: b["removed_topics"][1].update(topic="How she voted in 2026-05-01 and version 1 of her will"))
verify_case("archive-version-in-prose-not-a-leak", "A removed topic contains `2026-05-01` (the bundle's archive version) and `1`: ordinary prose, not a coordinate (F11).", ["ARCHIVE-014"], b, d, flags=["leak"])
display_case("display-citation-artifact-id", "A display citation carries `artifact_id`.", ["ARCHIVE-014"], lambda d: d["claims"][0]["citations"][0].update(artifact_id=NAMES["letter-1949-harbour"]), errors=["unknown-member", "archive-display-leak"], flags=["leak"])
display_case("display-citation-span", "A display citation carries the canonical `span`.", ["ARCHIVE-014"], lambda d: d["claims"][0]["citations"][0].update(span={"kind": "text", "paragraph_index": 1, "char_start": 0, "char_end": 88}), errors=["unknown-member"], flags=["leak"])
mutated_case("leak-span-in-topic", "A removed topic carries the whole 88-character passage of an open letter, more than the researcher tier's 80.", ["ARCHIVE-033"], lambda b: b["removed_topics"][1].update(topic="How she voted. " + QUOTE_1949), errors=["archive-quote-too-long"], flags=["leak", "tier"])
aud_req = request([C_QUOTE, C_WITHDRAWN])
b0, d0 = built(aud_req)
def label_leak(b):
    b["claims"].append({"claim_id": "c9", "text": C_INFER["text"], "rung": "labeled",
                        "label": "Interpreted from: Bjørn came home from sea after two years.",
                        "citations": [dict(C_INFER["citations"][0], excerpt_hash=L.h(b"A sum means more when it tells you whether the boat gets home."))]})
b, d = mutate(label_leak, base=(b0, d0))
verify_case("leak-restricted-span-in-label", "A label quotes a sentence of an auditor-only diary entry the bundle cites.", ["ARCHIVE-033"], b, d, errors=["archive-restricted-text-shown"], flags=["leak", "consent"])

# --- handles and labels (ARCHIVE-015) ---
d = copy.deepcopy(D)
d["claims"][0]["citations"][0]["handle"], d["claims"][1]["citations"][0]["handle"] = "Source B", "Source A"
verify_case("handles-swapped", "Handles A and B are swapped: not in order of first appearance.", ["ARCHIVE-015"], B, d, errors=["archive-handle-invalid"], flags=["handles"])
same = request([C_QUOTE, {"claim_id": "c2", "text": "The boys walked to the lighthouse on the ice.",
                          "citations": [cite("letter-1949-harbour", V1, span("letter-1949-harbour", 1, "the boys walked out to the lighthouse on the ice"), "paraphrase")]}])
b, d = built(same)
assert [c["rung"] for c in b["claims"]] == ["supported", "supported"]
verify_case("same-artifact-same-handle", "Two claims cite the same letter: both citations are `Source A`.", ["ARCHIVE-015"], b, d, flags=["handles"])
d2 = copy.deepcopy(d)
d2["claims"][1]["citations"][0]["handle"] = "Source B"
verify_case("same-artifact-two-handles", "Two citations of the same letter get different handles.", ["ARCHIVE-015"], b, d2, errors=["archive-handle-invalid"], flags=["handles"])
display_case("relation-label-wrong", "A paraphrase is labeled `their words`, as if the person had said it.", ["ARCHIVE-015"], lambda d: d["claims"][1]["citations"][0].update(relation_label="their words"), errors=["archive-relation-label-mismatch"], flags=["handles"])

# --- consent (ARCHIVE-016) ---
display_case("restricted-with-excerpt", "An auditor-only citation is marked restricted but still shows an excerpt.", ["ARCHIVE-016"], lambda d: d["claims"][3]["citations"][0].update(excerpt="Bjørn came home"), errors=["archive-consent-violated"], flags=["consent"])
display_case("open-marked-restricted", "An open citation is marked restricted.", ["ARCHIVE-016"], lambda d: d["claims"][1]["citations"][0].update(restricted=True), errors=["archive-consent-violated"], flags=["consent"])
hid_req = request([{"claim_id": "c1", "text": "She was in Vesterhavn on 12 February 1949.",
                    "citations": [cite("letter-1949-harbour", V1, span("letter-1949-harbour", 0, "Vesterhavn, 12 February 1949."), "metadata_fact"),
                                  cite("letter-1952-daughter", V1, span("letter-1952-daughter", 0, "Bergen, 30 April 1952."), "metadata_fact")]}])
b, d = built(hid_req)
assert b["claims"][0]["rung"] == "supported"
d2 = copy.deepcopy(d)
d2["claims"][0]["citations"].append({"handle": "Source B", "relation_label": "metadata", "restricted": True})
verify_case("hidden-citation-displayed", "Attack: a delivered claim also cites a hidden artifact and the display shows that citation (restricted): its existence is revealed.", ["ARCHIVE-016"], b, d2,
            errors=["archive-consent-violated"], flags=["consent", "attack"])
verify_case("hidden-citation-omitted", "The same claim displayed correctly: the hidden citation is left out, the claim is delivered on its other citation.", ["ARCHIVE-016", "ARCHIVE-013"], b, d, flags=["consent"])

# --- excerpts (ARCHIVE-017) ---
d = copy.deepcopy(D)
assert d["claims"][4]["citations"][1]["excerpt"] != MUSEUM
d["claims"][4]["citations"][1]["excerpt"] = MUSEUM
verify_case("excerpt-above-tier-cap", f"Attack: the researcher tier (cap 80) is shown the whole {len(MUSEUM)}-character passage of the museum notes.", ["ARCHIVE-017"], B, d, errors=["archive-excerpt-too-long"], flags=["tier", "attack"])
display_case("excerpt-not-in-span", "A display excerpt that is not part of the cited span.", ["ARCHIVE-017"], lambda d: d["claims"][0]["citations"][0].update(excerpt="The harbour froze solid last winter"), errors=["archive-excerpt-not-in-span"], flags=["excerpts"])
display_case("excerpt-from-elsewhere-in-artifact", "A display excerpt from another paragraph of the same letter: not the cited span.", ["ARCHIVE-017"], lambda d: d["claims"][0]["citations"][0].update(excerpt="Vesterhavn, 12 February 1949."), errors=["archive-excerpt-not-in-span"], flags=["excerpts"])
display_case("excerpt-on-media", "An audio citation shown with a text excerpt.", ["ARCHIVE-017"], lambda d: d["claims"][4]["citations"][0].update(excerpt="the 1949 ice"), errors=["archive-excerpt-not-in-span"], flags=["excerpts", "media"])
b, d = built(request([C_QUOTE_88, C_PARA, C_INFER], tier="family"))
assert b["claims"][0]["rung"] == "supported" and d["claims"][0]["citations"][0]["excerpt"] == QUOTE_1949
verify_case("family-tier-full-passage", "The family tier (cap 280) is shown the whole 88-character passage, in the quote and as its excerpt.", ["ARCHIVE-017", "ARCHIVE-018", "ARCHIVE-033"], b, d, flags=["tier"])
b, d = built(request([C_QUOTE, C_PARA], tier="public"))
assert [c["rung"] for c in b["claims"]] == ["narrowed", "supported"]
verify_case("public-tier-no-excerpts", "The public tier (cap 0) sees relation labels and handles, no excerpts; the direct quote, which would show the letter's own words, is withheld (narrowed, thin-coverage).", ["ARCHIVE-017", "ARCHIVE-018", "ARCHIVE-033"], b, d, flags=["tier"])
d2 = copy.deepcopy(d)
d2["claims"][0]["citations"][0]["excerpt"] = "I moved the desks"
verify_case("public-tier-with-excerpt", "The public tier (cap 0) is shown an excerpt.", ["ARCHIVE-017"], b, d2, errors=["archive-excerpt-too-long"], flags=["tier"])

# --- tier (ARCHIVE-018) ---
b = resign(unsigned(B) | {"tier": "vip"})
d = rebind(D, b) | {"tier": "vip"}
verify_case("tier-unknown", "The bundle's tier `vip` is not in the policy in force.", ["ARCHIVE-018"], b, d, errors=["archive-tier-unknown"], flags=["tier"])

# --- labeled with excerpt (ARCHIVE-019) ---
display_case("labeled-without-excerpt", "A labeled claim is displayed without the excerpt it is inferred from.", ["ARCHIVE-019"], lambda d: d["claims"][2]["citations"][0].pop("excerpt"), errors=["archive-labeled-excerpt-missing"], flags=["labeled"])
inf_aud = {"claim_id": "c2", "text": "Her brother was probably changed by his years at sea.", "label": "Interpretation: inferred from her diary.",
           "citations": [cite("diary-1958-brother", V1, span("diary-1958-brother", 0, "Bjørn came home from sea after two years. He is thinner and does not talk about the ship."), "inference_from")]}
b, d = built(request([C_QUOTE, inf_aud]))
assert b["claims"][1]["rung"] == "labeled"
assert d["claims"][1]["citations"] == [{"handle": "Source B", "relation_label": "interpreted from", "restricted": True}]
verify_case("labeled-from-restricted-source", "A claim inferred only from an auditor-only diary entry keeps the labeled rung it earned; its excerpt is withheld, so it is shown with its label and the restricted sentence instead of side by side (seed 002 l.122 over l.69).",
            ["ARCHIVE-019", "ARCHIVE-016", "ARCHIVE-009"], b, d, flags=["labeled", "consent"],
            detail="Consent in force of the diary is auditor-only: no excerpt may be shown, so ARCHIVE-019 asks for none; the inference is relevant (it shares 'sea' and 'year').")
d2 = copy.deepcopy(d)
d2["claims"][1]["citations"][0]["excerpt"] = "He is thinner and does not talk about the ship."
verify_case("labeled-from-restricted-source-excerpt-shown", "Attack: the same labeled claim shown side by side with the auditor-only excerpt.", ["ARCHIVE-016", "ARCHIVE-019"], b, d2,
            errors=["archive-consent-violated"], flags=["labeled", "consent", "attack"])
b0, d0 = built(request([C_QUOTE, dict(inf_aud, withhold=True)]))
assert b0["claims"][1]["rung"] == "narrowed"
verify_case("restricted-inference-withheld", "A gate may still withhold the same claim (narrowed, thin-coverage): the rung is an upper bound.", ["ARCHIVE-019", "ARCHIVE-009"], b0, d0, flags=["labeled"])
open_too = dict(inf_aud, citations=inf_aud["citations"] + [cite("diary-1951-teaching", V1, span("diary-1951-teaching", 0, "I teach the older ones to read the tide tables before I teach them fractions."), "inference_from")],
                text="She probably taught her brother to read the tide tables before he went to sea.")
b, d = built(request([C_QUOTE, open_too]))
assert b["claims"][1]["rung"] == "labeled" and "excerpt" in d["claims"][1]["citations"][1]
d2 = copy.deepcopy(d)
del d2["claims"][1]["citations"][1]["excerpt"]
verify_case("labeled-open-excerpt-withheld", "A labeled claim inferred from an auditor-only entry and from an open one is shown with neither excerpt: the open one may be shown, so it must be.", ["ARCHIVE-019"], b, d2,
            errors=["archive-labeled-excerpt-missing"], flags=["labeled"])
b, d = built(request([C_PARA, C_INFER], tier="public"))
assert b["claims"][1]["rung"] == "labeled" and "excerpt" not in d["claims"][1]["citations"][0]
verify_case("labeled-public-tier", "The public tier (cap 0) gets the labeled inference with its label and no excerpt: the tier withholds every excerpt.", ["ARCHIVE-019", "ARCHIVE-017"], b, d, flags=["labeled", "tier"])

# --- refusal (ARCHIVE-020) ---
b, d = built(request([], category_refusal="post-death-events"))
verify_case("category-refusal", "A question about events after her death, refused by category before retrieval: no claims.", ["ARCHIVE-020"], b, d, flags=["refusal"])
b2, d2 = mutate(lambda b: b.pop("refusal"), base=built(request([C_HIDDEN, C_NONE])))
verify_case("refusal-missing", "Nothing is delivered and the bundle has no refusal.", ["ARCHIVE-020"], b2, d2, errors=["archive-refusal-invalid"], flags=["refusal"])
b2, d2 = mutate(lambda b: b["refusal"].update(inventory_offered=False), base=built(request([C_HIDDEN, C_NONE])))
verify_case("coverage-refusal-without-inventory", "A coverage refusal that does not offer the archive inventory.", ["ARCHIVE-020"], b2, d2, errors=["archive-refusal-invalid"], flags=["refusal"])
b2, d2 = mutate(lambda b: b.update(refusal={"reason": "category", "category": "adversarial", "inventory_offered": False}), base=built(request([C_HIDDEN, C_NONE])))
verify_case("category-refusal-with-claims", "A category refusal whose bundle has claims (the archive was queried after all).", ["ARCHIVE-020"], b2, d2, errors=["archive-refusal-invalid"], flags=["refusal"])
b2, d2 = mutate(lambda b: b["refusal"].pop("category"), base=built(request([], category_refusal="adversarial")))
verify_case("category-refusal-without-category", "A category refusal that does not say which category.", ["ARCHIVE-020"], b2, d2, errors=["archive-refusal-invalid"], flags=["refusal"])
b2, d2 = mutate(lambda b: b.update(refusal={"reason": "coverage", "inventory_offered": True}))
verify_case("refusal-on-answer", "A bundle that delivers claims also says it refused.", ["ARCHIVE-020"], b2, d2, errors=["archive-refusal-invalid"], flags=["refusal"])
b2, d2 = mutate(lambda b: b["refusal"].update(category="politics"), base=built(request([], category_refusal="adversarial")), display_from="rebind")
verify_case("category-unknown", "A category refusal with category `politics`.", ["ARCHIVE-020", "ARCHIVE-001"], b2, d2, errors=["schema-violation"], flags=["refusal"])

# --- hidden artifacts revealed (ARCHIVE-021) ---
mutated_case("topic-reveals-hidden", "Attack: the removed topic of the hidden-backed claim is lifted from the hidden letter (\"to the Haugland family\").", ["ARCHIVE-021"], lambda b: b["removed_topics"][0].update(topic="Her daughter given to the Haugland family in Bergen"), errors=["archive-hidden-revealed"], flags=["hidden", "attack"])
mutated_case("label-reveals-hidden", "A label repeats four tokens of the hidden letter (\"i will not ask\").", ["ARCHIVE-021"], lambda b: b["claims"][2].update(label="Interpretation; compare: I will not ask for her back."), errors=["archive-hidden-revealed"], flags=["hidden", "attack"])
mutated_case("topic-three-tokens", "A removed topic shares only three consecutive tokens with the hidden letter (\"the haugland family\").", ["ARCHIVE-021"], lambda b: b["removed_topics"][0].update(topic="Her daughter and the Haugland family"), flags=["hidden"])
req = request([C_QUOTE, {"claim_id": "c2", "text": "The school library had four hundred books.", "topic": "A library of four hundred books",
                         "citations": [cite("letter-1960-school-wrong", V1, span("letter-1960-school-wrong", 1, "a library of four hundred books"), "paraphrase")]}])
b0, d0 = built(req)
assert b0["removed_topics"][0]["topic"] == L.TOPIC_NO
b, d = mutate(lambda b: b["removed_topics"][0].update(topic="A library of four hundred books"), base=(b0, d0))
verify_case("topic-reveals-removed-artifact", "A removed topic repeats a transcription the snapshot in force no longer lists (unlisted = hidden).", ["ARCHIVE-021"], b, d, errors=["archive-hidden-revealed"], flags=["hidden"])

# --- relations verified (ARCHIVE-032) ---
NEGATED = "She never arranged her desks in a half circle."
mutated_case("paraphrase-negated", "Attack (review 3, N2): the paraphrased claim is negated (\"She never arranged her desks in a half circle.\") and keeps its two paraphrase citations.",
            ["ARCHIVE-032"], lambda b: b["claims"][1].update(text=NEGATED), errors=["archive-claim-unsupported"], flags=["relations", "attack"],
            detail="Support rule: one negation marker in the claim, none in either span text (parity differs); 'arranged' is in neither span either.")
mutated_case("paraphrase-unrelated", "Attack (review 3, N2): an unrelated claim (\"She voted Labour all her life.\") cites the two paraphrase spans about her desks.",
            ["ARCHIVE-032"], lambda b: b["claims"][1].update(text="She voted Labour all her life."), errors=["archive-claim-unsupported"], flags=["relations", "attack"],
            detail="Support rule: the quantifier 'all' is not a token of either span, and none of the content words voted, labour, life is.")
mutated_case("paraphrase-number-changed", "Attack: the paraphrase of the diary says three years at sea where the diary says two (an auditor-only source: the requestor cannot check it).",
            ["ARCHIVE-032"], lambda b: b["claims"][3].update(text="Her brother came home after three years at sea."), errors=["archive-claim-unsupported"], flags=["relations", "attack"],
            detail="Support rule: the claim's number 3 is not among the span's numbers (2).")
mutated_case("paraphrase-number-other-script", "Attack: the changed number is written with an Arabic-Indic digit (U+0663, three) so that a list of ASCII digits does not see it.",
            ["ARCHIVE-032"], lambda b: b["claims"][3].update(text="Her brother came home after \u0663 years at sea."), errors=["archive-claim-unsupported"], flags=["relations", "attack"],
            detail="Support rule: digits of any script are read by value (U+0663 is 3), and 3 is not among the span's numbers (2).")
mutated_case("paraphrase-number-other-script-same-value", "The honest twin: an Arabic-Indic two (U+0662) is the span's two.",
            ["ARCHIVE-032"], lambda b: b["claims"][3].update(text="Her brother came home after \u0662 years at sea."), flags=["relations"],
            detail="Support rule: U+0662 has the value 2, which is among the span's numbers; the content words came, home, sea, years are the span's.")
mutated_case("quote-negated-frame", "Attack: a direct quote whose frame denies it (\"she never wrote: ...\"); the quote itself is verbatim.",
            ["ARCHIVE-032"], lambda b: b["claims"][0].update(text="In February 1949 she never wrote: \"" + QUOTE_76 + ".\""), errors=["archive-claim-unsupported"], flags=["relations", "attack"],
            detail="Without the quoted span text, the claim is 'In February 1949 she never wrote: \" .\"', with one negation marker (odd).")
NEG_QUOTE = "The headmaster did not like it."
req = request([{"claim_id": "c1", "text": "She wrote, not without pride: \"" + NEG_QUOTE + "\"",
                "citations": [cite("diary-1950-school", V1, span("diary-1950-school", 1, NEG_QUOTE), "direct_quote")]}])
b, d = built(req)
assert b["claims"][0]["rung"] == "supported"
verify_case("quote-with-negation-inside", "A direct quote that itself holds a negation (\"did not like it\"), framed by a double negation (\"not without pride\"): the quote is not denied.",
            ["ARCHIVE-032"], b, d, flags=["relations"],
            detail="The frame 'She wrote, not without pride: \" \"' holds two negation markers (even); the quote's own 'not' is not part of the frame.")
b0, d0 = built(hid_req)
b, d = mutate(lambda b: b["claims"][0].update(text="She wrote to her aunt Ragna from Bergen in February 1949."), base=(b0, d0))
verify_case("metadata-fact-unsupported", "Attack: a metadata fact says the letter was written in Bergen; its cited heading says Vesterhavn.",
            ["ARCHIVE-032"], b, d, errors=["archive-claim-unsupported"], flags=["relations", "attack"],
            detail="Support rule: 3 of the claim's 5 content stems (wrote, aunt, ragna, bergen, february) are in the heading, 4 needed. The hidden citation is not counted and not checked.")
verify_case("metadata-fact-supported", "A metadata fact supported by the letter's heading (\"Vesterhavn, 12 February 1949. Dear Aunt Ragna,\").", ["ARCHIVE-032"], b0, d0, flags=["relations"],
            detail="Support rule: numbers 1949 in {12, 1949}; 4 of 5 content stems (aunt, ragna, vesterhavn, february) are in the heading, 4 needed.")
def second_paraphrase_unrelated(b):
    b["claims"][1]["citations"][1] = dict(cite("letter-1978-retire", V1, span("letter-1978-retire", 1, "After twenty-nine years I am leaving the school on Kaigata."), "paraphrase"),
                                          excerpt_hash=L.h("After twenty-nine years I am leaving the school on Kaigata.".encode()))
b, d = mutate(second_paraphrase_unrelated)
verify_case("one-paraphrase-unrelated", "A claim has two paraphrase citations; the first supports it, the second (about her retirement) does not: every relation of a delivered claim is verified, not just one.",
            ["ARCHIVE-032"], b, d, errors=["archive-claim-unsupported"], flags=["relations"])
mutated_case("inference-irrelevant", "Attack: a labeled inference whose only excerpt has nothing to do with it (a sum and a boat, for how she voted).",
            ["ARCHIVE-032"], lambda b: b["claims"][2].update(text="She probably voted Labour."), errors=["archive-claim-unsupported"], flags=["relations", "attack"],
            detail="The span shares no content-word stem with the claim (probably, vot, labour).")
mutated_case("supported-by-media-only", "Attack: a claim is supported only by a time range of the recorded interview: there is no text to check it against.",
            ["ARCHIVE-032"], lambda b: b["claims"][6].update(citations=b["claims"][6]["citations"][:1]), errors=["archive-claim-unsupported"], flags=["relations", "media", "attack"])
mutated_case("media-paraphrase-anything", "Attack: any claim paraphrasing the audio interview (\"She voted Labour all her life.\") would be supported if media citations counted as support.",
            ["ARCHIVE-032"], lambda b: b["claims"][6].update(text="She voted Labour all her life.", citations=b["claims"][6]["citations"][:1]), errors=["archive-claim-unsupported"], flags=["relations", "media", "attack"])
LONG_PAGE = {"kind": "text", "media_type": "text/plain", "paragraphs": [
    "Notes for the harbour museum, second copy. " + " ".join(
        f"Item {n}: a photograph of the boat shed, the church hall, the school on Kaigata and the lighthouse." for n in range(1, 8))]}
long_archive = copy.deepcopy(ARCHIVE)
long_id = L.jcs_hash(LONG_PAGE)
long_archive["artifacts"][long_id] = LONG_PAGE
long_archive["snapshots"][2]["artifacts"].append({"artifact_id": long_id})
long_cite = {"artifact_id": long_id, "archive_version": V3, "relation": "paraphrase",
             "span": {"kind": "text", "paragraph_index": 0, "char_start": 0, "char_end": len(LONG_PAGE["paragraphs"][0])}}
b0, d0 = built(request([C_QUOTE, {"claim_id": "c2", "text": "The museum has photographs of the lighthouse.", "citations": [long_cite]}]), archive=long_archive)
assert b0["claims"][1]["rung"] == "narrowed"
verify_case("whole-page-paraphrase-withheld", f"A claim cites a whole {len(LONG_PAGE['paragraphs'][0])}-character page as its paraphrase: more than a passage (400 here), so the gate withholds it (narrowed, thin-coverage).",
            ["ARCHIVE-032", "ARCHIVE-009"], b0, d0, archive=long_archive, flags=["relations"])
def force_supported(b):
    b["claims"][1]["rung"] = "supported"
    b["removed_topics"] = []
b, d = mutate(force_supported, base=(b0, d0))
d = L.display_of(b, L.facts_of(b, long_archive)[0], 80)
verify_case("whole-page-paraphrase", f"Attack (\"cite the whole page\"): the same claim delivered as supported on the whole {len(LONG_PAGE['paragraphs'][0])}-character page.",
            ["ARCHIVE-032"], b, d, errors=["archive-claim-unsupported"], archive=long_archive, flags=["relations", "attack"],
            detail="The span text is longer than max(4 x 45, 400) = 400 scalar values: not a passage (the ACA-L2-020 cap).")
b, d = built(request([C_QUOTE, dict(C_PARA, text=NEGATED)]))
assert b["claims"][1]["rung"] == "narrowed" and b["removed_topics"][0]["reason"] == "thin-coverage"
verify_case("negated-paraphrase-withheld", "The gate's answer to the negated claim: withheld (narrowed, thin-coverage), the quote still delivered.", ["ARCHIVE-032", "ARCHIVE-010"], b, d, flags=["relations"])

# --- claim texts, labels and topics within the gates (ARCHIVE-033) ---
mutated_case("quote-above-tier-cap", "Attack (review 3, N1): the researcher tier (cap 80) reads the whole 88-character passage in the claim text of a direct quote; its display excerpt is trimmed to 80.",
            ["ARCHIVE-033"], lambda b: b["claims"][0].update(text=C_QUOTE_88["text"], citations=[dict(C_QUOTE_88["citations"][0], excerpt_hash=L.h(QUOTE_1949.encode()))]), errors=["archive-quote-too-long"], flags=["tier", "attack"],
            detail="N(claim) repeats 18 consecutive tokens of the open letter: from the start of 'the' to the end of 'ice' is 87 scalar values of N, above 80.")
b, d = built(request([C_QUOTE_88, C_PARA]))
assert b["claims"][0]["rung"] == "narrowed"
verify_case("quote-above-tier-cap-withheld", "The gate's answer: the 88-character quote is withheld from a researcher (narrowed, thin-coverage), the paraphrase delivered.", ["ARCHIVE-033", "ARCHIVE-009"], b, d, flags=["tier"])
DIARY_1958 = para("diary-1958-brother", 0)
def restricted_quote(b):
    b["claims"].insert(4, {"claim_id": "c8", "text": "She wrote: \"" + DIARY_1958 + "\"", "rung": "supported",
                           "citations": [dict(cite("diary-1958-brother", V1, {"kind": "text", "paragraph_index": 0, "char_start": 0, "char_end": len(DIARY_1958)}, "direct_quote"),
                                              excerpt_hash=L.h(DIARY_1958.encode()))]})
b, d = mutate(restricted_quote)
verify_case("restricted-quote-delivered", "Attack (review 3, N1): a direct quote of the whole auditor-only diary entry is delivered; the display marks its citation restricted while the claim text shows the passage.",
            ["ARCHIVE-033", "ARCHIVE-016"], b, d, errors=["archive-restricted-text-shown"], flags=["consent", "attack"])
b, d = built(request([C_QUOTE, {"claim_id": "c8", "text": "She wrote: \"" + DIARY_1958 + "\"",
                                "citations": [cite("diary-1958-brother", V1, {"kind": "text", "paragraph_index": 0, "char_start": 0, "char_end": len(DIARY_1958)}, "direct_quote")]}]))
assert b["claims"][1]["rung"] == "narrowed"
verify_case("restricted-quote-withheld", "The gate's answer: a direct quote of an auditor-only entry cannot be delivered (narrowed, thin-coverage): consent withholds the excerpt, and the quote is the excerpt.",
            ["ARCHIVE-033"], b, d, flags=["consent"])
mutated_case("paraphrase-repeats-restricted-words", "A paraphrase of the auditor-only diary repeats its words (\"came home from sea after two years\"): the excerpt is withheld, so is its wording.",
            ["ARCHIVE-033"], lambda b: b["claims"][3].update(text="Her brother came home from sea after two years."), errors=["archive-restricted-text-shown"], flags=["consent"],
            detail="'came home from sea' and the 4-token windows after it occur in the auditor-only entry and in no open artifact.")
def hidden_in_quote(b):
    b["claims"][1]["text"] = "She wrote: \"" + DESKS + "\" and \"I gave my daughter to the Haugland family\"."
    b["claims"][1]["citations"][0]["relation"] = "direct_quote"
    b["claims"][1]["citations"] = b["claims"][1]["citations"][:1]
b, d = mutate(hidden_in_quote)
verify_case("hidden-text-in-claim", "Attack: a delivered direct quote of an open diary entry also carries a sentence of the hidden 1952 letter, which no citation names.",
            ["ARCHIVE-033", "ARCHIVE-021"], b, d, errors=["archive-restricted-text-shown"], flags=["hidden", "attack"])
OTHER_PARA = para("letter-1978-retire", 1)
mutated_case("uncited-passage-in-quote", f"Attack: a direct quote claim also quotes {len(OTHER_PARA)} characters of another open letter it does not cite; the researcher tier allows 80.",
            ["ARCHIVE-033"], lambda b: b["claims"][0].update(text=b["claims"][0]["text"] + " She also wrote: \"" + OTHER_PARA + "\""), errors=["archive-quote-too-long"], flags=["tier", "attack"])
INVISIBLE = "9 Aug\u200bust 1958. Bjørn c\u200bame home fr\u200dom s\u00adea af\u2060ter two years."
def invisible_quote(b):
    c = b["claims"][3]
    c.update(text=INVISIBLE, rung="labeled", label="Interpretation: from her diary.")
    c["citations"][0]["relation"] = "inference_from"
b, d = mutate(invisible_quote)
verify_case("restricted-quote-invisible-characters", "Attack: the auditor-only diary sentence shown word for word as a labeled claim, with zero-width spaces, a zero-width joiner, a soft hyphen and a word joiner inside its words so that its tokens differ.",
            ["ARCHIVE-033"], b, d, errors=["archive-restricted-text-shown"], flags=["consent", "unicode", "attack"],
            detail="V(s) drops the format characters (General_Category Cf); N(V(s)) is the diary's sentence, whose windows are text of the auditor-only entry only.")
def broken_quote(b):
    c = b["claims"][0]
    c["text"] = "She wrote: \"The harbour froze solid last week\" (sic) \"and the boys walked out to the lighthouse on the ice.\""
    c["citations"][0]["span"] = span("letter-1949-harbour", 1, "The harbour froze solid last week")
    c["citations"][0]["excerpt_hash"] = L.h("The harbour froze solid last week".encode())
b, d = mutate(broken_quote)
verify_case("quote-above-tier-cap-broken-up", "Attack: the 88-character sentence quoted to a researcher (cap 80) in two pieces separated by \"(sic)\", each below the cap.",
            ["ARCHIVE-033"], b, d, errors=["archive-quote-too-long"], flags=["tier", "attack"],
            detail="Two repeated runs of the open letter, 33 and 52 scalar values of N: 85 in all, above 80.")
req = request([{"claim_id": "c1", "text": "She wrote: \"The new school opens in March with electric light in every classroom.\"",
                "citations": [cite("letter-1960-school", V2, span("letter-1960-school", 1, "The new school opens in March with electric light in every classroom"), "direct_quote")]}])
b, d = built(req, archive=ARCHIVE_X)
assert b["claims"][0]["rung"] == "supported"
verify_case("quote-shared-with-removed-transcription", "A quote of the corrected 1960 letter whose words also occur in the removed (hidden) transcription: text an open artifact contains is not restricted.",
            ["ARCHIVE-033"], b, d, archive=ARCHIVE_X, flags=["consent"])
mutated_case("topic-repeats-auditor-only", "A removed topic repeats the medical letter (auditor-only): \"moderate hearing loss both ears\".", ["ARCHIVE-033"], lambda b: b["removed_topics"][1].update(topic="Moderate hearing loss, both ears"),
            errors=["archive-restricted-text-shown"], flags=["consent", "topics"])
mutated_case("topic-three-tokens-of-auditor-only", "A removed topic shares three consecutive tokens (\"loss both ears\") with the medical letter: below the four-token rule.", ["ARCHIVE-033"], lambda b: b["removed_topics"][1].update(topic="Her loss, both ears"),
            flags=["consent", "topics"])

# --- general context (ARCHIVE-035) ---
LIGHTHOUSE = "A lighthouse is a tower with a lamp that guides ships at night."
C_GENERAL = {"claim_id": "c9", "text": LIGHTHOUSE, "general_context": True}
b, d = built(request([C_QUOTE, C_GENERAL]))
assert b["claims"][1] == {"claim_id": "c9", "text": LIGHTHOUSE, "rung": "labeled", "citations": [], "general_context": True, "label": L.GENERAL_LABEL}
GEN_B, GEN_D = b, d
verify_case("general-context", "A brief background definition that makes a cited quote legible, delivered as a labeled general-context claim beside it (seed 002 l.166).",
            ["ARCHIVE-035", "ARCHIVE-009", "ARCHIVE-013"], b, d, flags=["general"])
b, d = built(request([C_NONE, C_GENERAL]))
assert b["refusal"]["reason"] == "coverage" and b["claims"][1]["rung"] == "refused"
verify_case("general-context-alone-withheld", "The gate's answer when nothing from the archive can be delivered: the general context is withheld too (a coverage refusal); alone it would be general world knowledge.",
            ["ARCHIVE-035", "ARCHIVE-020"], b, d, flags=["general"])
def general_alone(b):
    b["claims"][1].update(rung="labeled", label=L.GENERAL_LABEL)
    b["claims"][0]["rung"] = "narrowed"
    b["removed_topics"] = [{"topic": "How she voted", "reason": "no-coverage"}]
    b.pop("refusal")
b, d = mutate(general_alone, base=(b, d))
verify_case("general-context-alone", "Attack: a response that delivers only general context: general world knowledge with no claim from the archive.",
            ["ARCHIVE-035"], b, d, errors=["archive-general-context-invalid"], flags=["general", "attack"])
def general_cited(b):
    b["claims"][1]["citations"] = [dict(b["claims"][0]["citations"][0], relation="metadata_fact")]
b, d = mutate(general_cited, base=(GEN_B, GEN_D))
verify_case("general-context-with-citation", "A general-context claim cites the archive: it is either archive content or general context, not both.",
            ["ARCHIVE-035"], b, d, errors=["archive-general-context-invalid"], flags=["general"])
long_general = "A lighthouse is a tower with a lamp that guides ships at night; " * 5
b, d = mutate(lambda b: b["claims"][1].update(text=long_general.strip()), base=(GEN_B, GEN_D))
verify_case("general-context-too-long", f"A general-context claim of {len(long_general.strip())} characters: more than the brief definition (280) the seed allows.",
            ["ARCHIVE-035"], b, d, errors=["archive-general-context-invalid"], flags=["general"])
b, d = mutate(lambda b: b["claims"][1].update(text="Moderate hearing loss, both ears, is common at her age."), base=(GEN_B, GEN_D))
verify_case("general-context-restricted-text", "Attack: \"general context\" that repeats the auditor-only medical letter.", ["ARCHIVE-035", "ARCHIVE-033"], b, d,
            errors=["archive-restricted-text-shown"], flags=["general", "consent", "attack"])
b, d = mutate(lambda b: b["claims"][1].update(label="From her 1958 diary."), base=(GEN_B, GEN_D))
verify_case("general-context-label-claims-archive", "Attack: a general-context claim labeled as if it came from her diary; its label is fixed: \"General context, not from the archive.\"",
            ["ARCHIVE-035"], b, d, errors=["archive-general-context-invalid"], flags=["general", "attack"])
def general_supported(b):
    b["claims"][1]["rung"] = "supported"
    b["claims"][1].pop("label")
b, d = mutate(general_supported, base=(GEN_B, GEN_D))
verify_case("general-context-supported", "A general-context claim marked supported: nothing from the archive supports it.", ["ARCHIVE-035", "ARCHIVE-009"], b, d,
            errors=["archive-rung-mismatch"], flags=["general"])
d = copy.deepcopy(GEN_D)
del d["claims"][1]["general_context"]
verify_case("display-drops-general-context", "The display drops the general-context mark, so the definition reads as if it came from the archive.", ["ARCHIVE-035", "ARCHIVE-013"], GEN_B, d,
            errors=["archive-display-claim-mismatch"], flags=["general", "display"])

# --- downgraded responses (ARCHIVE-036) ---
b, d = built(request([C_QUOTE, C_PARA, C_INFER], downgrade="private-mental-state"))
assert [c["rung"] for c in b["claims"]] == ["supported", "supported", "narrowed"] and b["downgrade"] == {"category": "private-mental-state"}
DG_B, DG_D = b, d
verify_case("downgraded", "A question about her private feelings, downgraded by the category filter: what she wrote is delivered, the inference is withheld (seed 002 l.165).",
            ["ARCHIVE-036", "ARCHIVE-013"], b, d, flags=["downgrade"])
def dg_labeled(b):
    b["claims"][2].update(rung="labeled", label=C_INFER["label"])
    b["removed_topics"] = []
b, d = mutate(dg_labeled, base=(DG_B, DG_D))
verify_case("downgraded-with-inference", "Attack: a downgraded response still delivers a conclusion beyond what she wrote (a labeled inference).", ["ARCHIVE-036"], b, d,
            errors=["archive-downgrade-violated"], flags=["downgrade", "attack"])
d = copy.deepcopy(DG_D)
del d["downgrade"]
verify_case("display-drops-downgrade", "The display does not say the answer was downgraded.", ["ARCHIVE-036", "ARCHIVE-013"], DG_B, d,
            errors=["archive-display-claim-mismatch"], flags=["downgrade", "display"])
b, d = mutate(lambda b: b.update(downgrade={"category": "third-party-privacy"}), base=(DG_B, DG_D), display_from="rebind")
verify_case("downgrade-unknown-category", "A downgrade for `third-party-privacy`, which the seed treats as a consent block, not a downgrade.", ["ARCHIVE-036", "ARCHIVE-001"], b, d,
            errors=["schema-violation"], flags=["downgrade"])

# --- the archive itself (ARCHIVE-024) ---
a = copy.deepcopy(ARCHIVE)
a["snapshots"][1], a["snapshots"][2] = a["snapshots"][2], a["snapshots"][1]
verify_case("snapshots-out-of-order", "The archive lists its snapshots out of publication order.", ["ARCHIVE-024"], B, D, errors=["archive-snapshot-invalid"], archive=a, flags=["archive"])
a = copy.deepcopy(ARCHIVE)
a["snapshots"][2]["archive_version"] = V2
verify_case("snapshot-version-twice", "Two snapshots have the version 2026-03-01.", ["ARCHIVE-024"], B, D, errors=["archive-snapshot-invalid"], archive=a, flags=["archive"])
a = copy.deepcopy(ARCHIVE)
a["snapshots"][2]["artifacts"].append({"artifact_id": "sha256:" + "cd" * 32, "consent": "open"})
verify_case("snapshot-lists-missing-payload", "A snapshot lists an artifact the archive holds no payload for.", ["ARCHIVE-024"], B, D, errors=["archive-snapshot-invalid"], archive=a, flags=["archive"])
a = copy.deepcopy(ARCHIVE)
a["snapshots"][2]["policy"]["tiers"].append({"tier": "family", "excerpt_cap": 20})
verify_case("tier-defined-twice", "The policy in force defines the tier `family` twice.", ["ARCHIVE-024"], B, D, errors=["archive-snapshot-invalid"], archive=a, flags=["archive"])

VERIFY_FLAGS = {
    "baseline": "The gate's complete output for a varied response.",
    "hmac": "HMAC-SHA256 bundle signatures.",
    "rotation": "Several keys per signer, chosen by kid.",
    "should": "A SHOULD: valid with a warning.",
    "json": "Strict I-JSON parsing of the bundle.",
    "members": "Required, unknown and extension members.",
    "resolution": "Citations resolved against the archive.",
    "archive": "The archive document itself.",
    "unicode": "Unicode normalization and scalar-value offsets.",
    "versions": "Archive versions and the snapshot in force.",
    "consent": "The consent gate and consent in force.",
    "attack": "An attempt to get more shown, or a higher rung, than the archive allows.",
    "spans": "Span locators.",
    "media": "Media artifacts and time-range locators.",
    "relations": "Relations and direct quotes.",
    "excerpts": "Excerpt hashes and excerpts.",
    "claims": "Claim ids.",
    "ladder": "The coverage ladder.",
    "topics": "Removed topics.",
    "signature": "The bundle signature.",
    "time": "Times against the verification time.",
    "trust": "The configured keys.",
    "display": "The display view against its bundle.",
    "leak": "Archive coordinates in the display.",
    "handles": "Opaque handles and relation labels.",
    "tier": "The tier gate.",
    "labeled": "Labeled claims shown side by side with their excerpt.",
    "refusal": "Refusal reason and inventory offer.",
    "hidden": "Hidden artifacts never revealed.",
    "general": "General-context claims.",
    "downgrade": "Responses downgraded by the category filter.",
}

# =============================================================================================
# archive-log-verify

LOG_CASES = []
T0 = 1778925600  # 2026-05-16T10:00:00Z


def at(seconds):
    import datetime
    return datetime.datetime.fromtimestamp(T0 + seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


REFUSED_B, _ = built(request([C_HIDDEN, C_NONE], created=at(600)) | {"response_id": "r-82"}, signed=at(601))


def bundle_event(b):
    return {"type": "bundle", "response_id": b["response_id"], "requester": b["requester"], "tier": b["tier"],
            "bundle_hash": L.jcs_hash(b), "outcome": L.outcome(b)}


def ctx(requested, delivered, requester="req-7f3a", handle="Source A", response="r-81"):
    return {"type": "context-request", "requester": requester, "response_id": response, "handle": handle,
            "requested_chars": requested, "delivered_chars": delivered}


def risk(refers_to, limits, requester="req-7f3a"):
    return {"type": "extraction-risk", "requester": requester, "refers_to": refers_to, "limits": limits}


# The base log: bundle r-81 logged 2 s after creation, two context requests, a request above the
# 400-character cap (400 delivered, risk logged), then bundle r-82 (a coverage refusal).
BASE_EVENTS = [
    (2, bundle_event(B)),
    (60, ctx(200, 200)),
    (120, ctx(300, 300, handle="Source B")),
    (180, ctx(500, 400, handle="Source C")),
    (180, risk(3, ["request-cap"])),
    (602, bundle_event(REFUSED_B)),
]


def records(events):
    return L.chain([dict(e, at=at(s)) for s, e in events])


BASE_LOG = records(BASE_EVENTS)


def head_of(recs, i=None):
    i = len(recs) - 1 if i is None else i
    return {"seq": i, "hash": L.jcs_hash(recs[i])}


LOG_NOW = T0 + 900  # 2026-05-16T10:15:00Z


BOTH = (B, REFUSED_B)


def log_case(cid, description, requirements, recs=None, log_text=None, bundles=(), head="last",
             errors=(), warnings=(), now=LOG_NOW, flags=(), detail=""):
    text_ = log_text if log_text is not None else L.log_text(recs)
    hd = head_of(recs) if head == "last" else head
    btexts = [text(b) for b in bundles]
    got = L.check_log(text_, ARCHIVE, btexts, hd, now)
    want = set(errors) | set(warnings)
    assert got == want, f"{cid}: archive_lib says {sorted(got)}, hand says {sorted(want)}"
    inp = {"log": text_, "archive": ARCHIVE, "now": now}
    if btexts:
        inp["bundles"] = btexts
    if hd is not None:
        inp["head"] = hd
    LOG_CASES.append(case("archive-log-verify-" + cid, description, requirements, 1, inp,
                          "invalid" if errors else "valid", errors=sorted(errors), warnings=sorted(warnings),
                          derivation_=hand(detail or description), flags=list(flags)))


LOG_ALL = ["ARCHIVE-025", "ARCHIVE-026", "ARCHIVE-028", "ARCHIVE-029", "ARCHIVE-030", "ARCHIVE-031", "ARCHIVE-034"]
log_case("base", "Two bundles logged at assembly, three context requests within the budget (one above the request cap delivers the cap and is logged as extraction risk), anchored at its last record.",
         LOG_ALL, BASE_LOG, bundles=BOTH, flags=["baseline"],
         detail="seq 0..5, each prev the JCS hash of the record before; 200+300+400 = 900 <= 1200 daily; 3 requests <= 6 per hour; 500 > 400 request_cap -> 400 delivered and risk [request-cap] right after.")
log_case("unanchored", "The same log verified without a head: valid, with the ARCHIVE-027 warning.", ["ARCHIVE-027"], BASE_LOG, head=None,
         warnings=["archive-log-unanchored"], flags=["should"])
log_case("head-earlier-record", "The head is record 2 (what the auditor saw last time); later records are appended after it.", ["ARCHIVE-026"], BASE_LOG, head=head_of(BASE_LOG, 2), flags=["head"])

# chain
edited = copy.deepcopy(BASE_LOG)
edited[1]["delivered_chars"] = 20
log_case("record-edited", "Attack: a context request's delivered_chars is lowered from 200 to 20 after the fact.", ["ARCHIVE-025"], edited, head=head_of(BASE_LOG),
         errors=["archive-log-broken"], flags=["chain", "attack"],
         detail="Record 2's prev is the hash of the original record 1; the head still matches record 5.")
deleted = copy.deepcopy(BASE_LOG)
del deleted[2]
log_case("record-deleted", "Attack: a context request is deleted from the middle.", ["ARCHIVE-025", "ARCHIVE-026"], deleted, head=head_of(BASE_LOG),
         errors=["archive-log-broken", "archive-log-head-mismatch"], flags=["chain", "attack"],
         detail="Records 3.. move up one position (seq and prev break), and the head record 5 no longer exists at seq 5.")
swapped = copy.deepcopy(BASE_LOG)
swapped[3], swapped[4] = swapped[4], swapped[3]
log_case("records-reordered", "Attack: the extraction-risk record is moved before the request it is about (same time).", ["ARCHIVE-025", "ARCHIVE-031"], swapped, head=head_of(BASE_LOG),
         errors=["archive-log-broken", "archive-extraction-risk-unlogged", "archive-log-record-invalid"], flags=["chain", "attack"],
         detail="seq 4 at position 3 and seq 3 at position 4 break the chain; read in the new order, the risk record follows no exceeding request and the exceeding request is not followed by its risk record.")
tail = copy.deepcopy(BASE_LOG)
tail[5]["outcome"] = "answered"
log_case("last-record-edited", "Attack: the last record is rewritten (a coverage refusal recorded as answered); only the head shows it.", ["ARCHIVE-026"], tail, head=head_of(BASE_LOG),
         errors=["archive-log-head-mismatch"], flags=["head", "attack"])
log_case("truncated", "Attack: the last record is removed.", ["ARCHIVE-026"], BASE_LOG[:5], head=head_of(BASE_LOG),
         errors=["archive-log-head-mismatch"], flags=["head", "attack"])
log_case("genesis-not-zero", "The first record's prev is not the zero hash.", ["ARCHIVE-025"],
         [dict(BASE_LOG[0], prev="sha256:" + "11" * 32)] + BASE_LOG[1:],
         head=head_of(BASE_LOG), errors=["archive-log-broken"], flags=["chain"],
         detail="Record 0's prev must be sha256:000...; record 1's prev no longer matches the changed record 0 either (one code).")

long_prev = copy.deepcopy(BASE_LOG)
long_prev[5]["prev"] = long_prev[5]["prev"] + "0"
log_case("prev-65-digits", "The last record's prev is the hash of the record before with one more hex digit (65).", ["ARCHIVE-025", "CANON-002"],
         long_prev, errors=["archive-log-broken", "archive-log-record-invalid"], flags=["chain", "form", boundary("hash-digits", "outside")],
         detail="prev must be a content hash (CANON-002: exactly 64 hex digits), so the record has no form and its prev "
                "is not the hash of record 4 (a reader that decoded only the first 64 digits would see the chain unbroken); "
                "the head is the hash of the record as it stands.")

# form
bad_type = records(BASE_EVENTS + [(700, {"type": "note", "requester": "req-7f3a"})])
log_case("unknown-record-type", "A record of type `note`.", ["ARCHIVE-025"], bad_type, errors=["archive-log-record-invalid"], flags=["form"])
over = records(BASE_EVENTS + [(700, ctx(10, 11))])
log_case("delivered-above-requested", "A context request delivers 11 characters of the 10 requested.", ["ARCHIVE-025"], over, errors=["archive-log-record-invalid"], flags=["form"])
lines = L.log_text(BASE_LOG).split("\n")
lines[2] = lines[2][:40]
log_case("line-not-json", "One line of the log is cut off.", ["ARCHIVE-025", "JSON-001"], BASE_LOG, log_text="\n".join(lines), head=head_of(BASE_LOG),
         errors=["json-syntax"], flags=["form"],
         detail="The cut line has no value, so its successor's prev cannot be checked (reporting rule 3); the head record is intact.")
lines = L.log_text(BASE_LOG).split("\n")
lines.insert(3, "")
log_case("empty-line", "An empty line between two records.", ["ARCHIVE-025"], BASE_LOG, log_text="\n".join(lines), head=None,
         errors=["archive-log-broken", "archive-log-record-invalid"], warnings=["archive-log-unanchored"], flags=["form"],
         detail="The empty line is a record without form at position 3, so every later record is one position off (seq breaks).")
log_case("no-final-newline", "The log's last line has no final LF.", ["ARCHIVE-025"], BASE_LOG, log_text=L.log_text(BASE_LOG)[:-1], flags=["form"])
unsorted = records(BASE_EVENTS[:4] + [(180, risk(3, ["request-cap", "daily-budget"]))] + BASE_EVENTS[5:])
log_case("limits-unordered", "An extraction-risk record lists its limits out of order.", ["ARCHIVE-025", "ARCHIVE-031"], unsorted,
         errors=["archive-log-record-invalid", "archive-extraction-risk-unlogged"], flags=["form"],
         detail="Without its form the risk record does not count, so the exceeding request is unlogged.")

# times
back = records(BASE_EVENTS[:2] + [(30, ctx(300, 300, handle="Source B"))] + BASE_EVENTS[3:])
log_case("time-goes-backwards", "A record is dated 30 s after the bundle, before the record before it (60 s).", ["ARCHIVE-028"], back,
         errors=["archive-log-time-invalid"], flags=["time"])
future = records(BASE_EVENTS + [(1201, ctx(10, 10))])
log_case("record-in-future", "A record dated 10:20, 5 min and 1 s after the verification time 10:15 (skew 300 s).", ["ARCHIVE-028"], future,
         errors=["archive-log-time-invalid"], flags=["time"])

# bundles logged
log_case("bundle-not-logged", "A bundle that was delivered does not appear in the log.", ["ARCHIVE-029"], BASE_LOG[:5], head=head_of(BASE_LOG, 4),
         bundles=BOTH, errors=["archive-log-bundle-missing"], flags=["bundles"])
twice = records(BASE_EVENTS + [(603, bundle_event(REFUSED_B))])
log_case("bundle-logged-twice", "A bundle is logged twice.", ["ARCHIVE-029"], twice, bundles=BOTH, errors=["archive-log-bundle-missing"], flags=["bundles"])
wrong = copy.deepcopy(BASE_EVENTS)
wrong[5] = (602, dict(bundle_event(REFUSED_B), outcome="answered"))
log_case("refusal-logged-as-answer", "Attack: a coverage refusal is logged as answered, so an auditor counting refusals from the log misses it.", ["ARCHIVE-029"], records(wrong),
         bundles=BOTH, errors=["archive-log-bundle-missing"], flags=["bundles", "attack"])
cat_b, _ = built(request([], created=at(700), category_refusal="general-world-knowledge") | {"response_id": "r-83"}, signed=at(700))
cat_events = BASE_EVENTS + [(701, bundle_event(cat_b))]
log_case("category-refusal-logged", "A category refusal is logged with outcome refused-category.", ["ARCHIVE-029"], records(cat_events), bundles=(B, REFUSED_B, cat_b), flags=["bundles"])
late = copy.deepcopy(BASE_EVENTS)
late[5] = (1000, late[5][1])
log_case("bundle-logged-late", "Attack: a bundle dated 10:10 is logged at 10:16:40: its created_at was backdated (to a time whose snapshot in force is more permissive), or it was logged long after delivery.",
         ["ARCHIVE-029"], records(late), now=T0 + 1100, bundles=BOTH, errors=["archive-log-time-invalid"], flags=["bundles", "time", "attack"],
         detail="The record's at is 400 s after created_at (10:10:00); the window is 0 to 300 s.")
early = copy.deepcopy(BASE_EVENTS)
early[0] = (-5, early[0][1])
log_case("bundle-logged-before-creation", "A bundle is logged 5 s before its created_at.", ["ARCHIVE-029"], records(early), bundles=BOTH, errors=["archive-log-time-invalid"], flags=["bundles", "time"])

# budget
cap_over = copy.deepcopy(BASE_EVENTS)
cap_over[3] = (180, ctx(500, 500, handle="Source C"))
log_case("request-cap-exceeded", "Attack: a request above the 400-character cap delivers all 500 characters (the risk is logged).", ["ARCHIVE-030"], records(cap_over),
         errors=["archive-budget-exceeded"], flags=["budget", "attack"])
daily = BASE_EVENTS[:5] + [(240, ctx(400, 300, handle="Source D")), (240, risk(5, ["daily-budget"])), (602, bundle_event(REFUSED_B))]
log_case("daily-budget-trimmed", "The fourth request of the day asks 400 with 300 left of 1200: 300 delivered, daily-budget logged.", ["ARCHIVE-030", "ARCHIVE-031"], records(daily), flags=["budget"],
         detail="200+300+400 = 900 delivered; 900+400 > 1200 -> daily-budget; 1200-900 = 300 may be delivered.")
daily_over = copy.deepcopy(daily)
daily_over[5] = (240, ctx(400, 400, handle="Source D"))
log_case("daily-budget-exceeded", "Attack: the same request delivers all 400 characters: 1300 in one UTC day.", ["ARCHIVE-030"], records(daily_over),
         errors=["archive-budget-exceeded"], flags=["budget", "attack"])
next_day = BASE_EVENTS + [(86400 - 36000 + 10, ctx(400, 400, handle="Source D"))]
log_case("budget-resets-next-utc-day", "A 400-character request just after midnight UTC: a new day's budget.", ["ARCHIVE-030"], records(next_day), now=T0 + 86400,
         flags=["budget"],
         detail="T0 is 10:00 UTC; +50410 s is 00:00:10 the next day, so the 900 characters of the previous day do not count.")
burst = BASE_EVENTS[:5] + [(190 + i, ctx(10, 10, handle="Source A")) for i in range(3)] + [(200, ctx(10, 0)), (200, risk(8, ["rate"])), (602, bundle_event(REFUSED_B))]
log_case("rate-limit-denied", "The seventh request within an hour delivers nothing and is logged as extraction risk (rate).", ["ARCHIVE-030", "ARCHIVE-031"], records(burst), flags=["budget"],
         detail="Requests at 60,120,180,190,191,192 are six; the one at 200 is the seventh in the hour (limit 6).")
burst_over = copy.deepcopy(burst)
burst_over[8] = (200, ctx(10, 10))
log_case("rate-limit-exceeded", "Attack: repeated probing: the seventh request within an hour still delivers.", ["ARCHIVE-030"], records(burst_over),
         errors=["archive-budget-exceeded"], flags=["budget", "attack"])
log_case("extraction-risk-unlogged", "Attack: the request above the cap is not followed by an extraction-risk record.", ["ARCHIVE-031"], records(BASE_EVENTS[:4] + BASE_EVENTS[5:]),
         errors=["archive-extraction-risk-unlogged"], flags=["budget", "attack"])
wrong_limits = BASE_EVENTS[:4] + [(180, risk(3, ["rate"]))] + BASE_EVENTS[5:]
log_case("extraction-risk-wrong-limit", "The extraction-risk record names `rate` for a request that exceeded the cap.", ["ARCHIVE-031"], records(wrong_limits),
         errors=["archive-extraction-risk-unlogged"], flags=["budget"])
spurious = BASE_EVENTS[:2] + [(61, risk(1, ["rate"]))] + BASE_EVENTS[2:]
fixed = []
for s, e in spurious:
    if e["type"] == "extraction-risk" and e["refers_to"] == 3:
        e = dict(e, refers_to=4)
    fixed.append((s, e))
log_case("extraction-risk-spurious", "An extraction-risk record about a request that exceeded nothing (a false accusation).", ["ARCHIVE-031"], records(fixed),
         errors=["archive-log-record-invalid"], flags=["budget"])
OTHER_B, _ = built(request([C_QUOTE_88], tier="family", created=at(185)) | {"response_id": "r-90", "requester": "req-9b21"}, signed=at(185))
other = BASE_EVENTS[:5] + [(186, bundle_event(OTHER_B)), (190, ctx(400, 400, requester="req-9b21", handle="Source A", response="r-90"))] + BASE_EVENTS[5:]
log_case("budget-per-requester", "Another requestor's 400-character request counts against their own budget.", ["ARCHIVE-030", "ARCHIVE-034"], records(other),
         bundles=BOTH + (OTHER_B,), flags=["budget"])

# relaxed extraction-risk placement (ARCHIVE-031)
OTHER_Q, _ = built(request([C_QUOTE], created=at(179)) | {"response_id": "r-91", "requester": "req-9b21"}, signed=at(179))
apart = BASE_EVENTS[:4] + [(180, bundle_event(OTHER_Q)), (181, risk(3, ["request-cap"]))] + BASE_EVENTS[5:]
log_case("extraction-risk-not-adjacent", "Another requestor's bundle is logged between a request above the cap and its extraction-risk record (a producer serving requests concurrently).",
         ["ARCHIVE-031"], records(apart), bundles=BOTH + (OTHER_Q,), flags=["budget"],
         detail="The risk record refers to seq 3, comes after it, names exactly [request-cap] and is 1 s later (at most 300 s).")
late_risk = BASE_EVENTS[:4] + [(481, risk(3, ["request-cap"])), (602, bundle_event(REFUSED_B))]
log_case("extraction-risk-too-late", "The extraction-risk record is logged 301 s after the request it is about.", ["ARCHIVE-031"], records(late_risk),
         errors=["archive-extraction-risk-unlogged"], flags=["budget"])
twice_risk = BASE_EVENTS[:5] + [(181, risk(3, ["request-cap"]))] + BASE_EVENTS[5:]
log_case("extraction-risk-twice", "Two extraction-risk records about the same request.", ["ARCHIVE-031"], records(twice_risk),
         errors=["archive-log-record-invalid"], flags=["budget"])
wrong_q = BASE_EVENTS[:4] + [(180, risk(3, ["request-cap"], requester="req-9b21"))] + BASE_EVENTS[5:]
log_case("extraction-risk-other-requester", "Attack: the extraction risk of one requestor's request is logged against another requestor.", ["ARCHIVE-031"], records(wrong_q),
         errors=["archive-log-record-invalid", "archive-extraction-risk-unlogged"], flags=["budget", "attack"])

# context requests bound to a response, a handle, consent and tier (ARCHIVE-034)
def ctx_case(cid, description, event, errors=(), bundles=BOTH, extra=(), flags=("context",), detail=""):
    events = BASE_EVENTS[:5] + list(extra) + [event] + BASE_EVENTS[5:]
    log_case(cid, description, ["ARCHIVE-034"], records(events), bundles=bundles, errors=errors, flags=list(flags), detail=detail)


ctx_case("context-unknown-response", "Attack (review 3, N9): a context request for response r-999, which the log never delivered.",
         (190, ctx(100, 100, response="r-999")), errors=["archive-context-unbound"], flags=("context", "attack"))
ctx_case("context-other-requesters-response", "Attack: a requestor asks for more context on another requestor's response.",
         (190, ctx(100, 100, requester="req-9b21")), errors=["archive-context-unbound"], flags=("context", "attack"))
log_case("context-refused-response", "A context request on r-82, a coverage refusal: it showed no source.", ["ARCHIVE-034"],
         records(BASE_EVENTS + [(700, ctx(100, 100, response="r-82"))]), bundles=BOTH, errors=["archive-context-unbound"], flags=["context"])
ctx_case("context-unknown-handle", "Attack (review 3, N9): a context request for `Source Q` of r-81, whose display shows Source A to Source G.",
         (190, ctx(100, 100, handle="Source Q")), errors=["archive-context-unbound"], flags=("context", "attack"),
         detail="The handles of r-81, derived from the bundle (ARCHIVE-015), are Source A to Source G.")
ctx_case("context-unknown-handle-unchecked", "The same request verified without r-81's bundle: the handle cannot be resolved and is not checked (reporting rule 3); the response is.",
         (190, ctx(100, 100, handle="Source Q")), bundles=())
ctx_case("context-restricted-source", "Attack (review 3, N9): more context delivered from `Source E`, the brother's diary, auditor-only in force.",
         (190, ctx(100, 100, handle="Source E")), errors=["archive-context-withheld"], flags=("context", "consent", "attack"))
ctx_case("context-restricted-source-refused", "The same request answered with nothing (0 characters delivered): consent withholds the source.",
         (190, ctx(100, 0, handle="Source E")), flags=("context", "consent"))
ctx_case("context-media-source", "More text \"context\" delivered for `Source F`, the audio interview, which has no text.",
         (190, ctx(100, 100, handle="Source F")), errors=["archive-context-withheld"])
PUB_B, _ = built(request([C_PARA], tier="public", created=at(185)) | {"response_id": "r-93"}, signed=at(185))
ctx_case("context-public-tier", "Attack: a requestor of the public tier (excerpt cap 0) is given 100 characters of context on a response delivered to that tier.",
         (190, ctx(100, 100, response="r-93")), bundles=BOTH + (PUB_B,), extra=[(186, bundle_event(PUB_B))], errors=["archive-context-withheld"],
         flags=("context", "tier", "attack"))

LOG_FLAGS = {
    "baseline": "A complete, well-formed log.",
    "should": "A SHOULD: valid with a warning.",
    "head": "The head the verifier was given.",
    "chain": "The hash chain (seq and prev).",
    "attack": "An attempt to hide, rewrite or reorder what happened.",
    "form": "The form of each record.",
    "time": "Record times.",
    "bundles": "Bundles logged at assembly.",
    "budget": "The evidence budget and extraction-risk records.",
    "context": "Context requests bound to a response, a handle, consent and tier.",
    "consent": "The consent gate.",
    "tier": "The tier gate.",
}

# =============================================================================================
# walkthrough expectation (used by the Rust builder test and the README)

def walkthrough():
    key = L.EdKey("walkthrough")
    signer = ("Ed25519", "archive.example", "archive-2026", key)
    bundle, display = L.gate(WALK, FULL, signer, "2026-05-16T10:00:01Z")
    doc = {
        "_comment": "Written by vectors/tools/archive_vectors.py (archive_lib.gate, independent of citeproof): the signed bundle and display view of request.json against archive.json, signed with the Ed25519 key whose RFC 8032 seed is `seed_hex`.",
        "seed_hex": key.seed.hex(),
        "public_jwk": key.jwk("archive-2026"),
        "signed_at": "2026-05-16T10:00:01Z",
        "bundle": bundle,
        "display": display,
        "bundle_hash": L.jcs_hash(bundle),
    }
    path = os.path.join(FIXTURES, "walkthrough.expected.json")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print("wrote vectors/fixtures/archive/walkthrough.expected.json")


if __name__ == "__main__":
    attribution = "Fixture archive: vectors/fixtures/archive (fictional papers written for citeproof; Apache-2.0 OR MIT)."
    write("archive/level1/verify.json", "archive", "archive-verify",
          "Response bundles and display views against the fixture archive (ARCHIVE-001 to ARCHIVE-024): citations, the coverage gate, the signature, the three display gates and coordinate leaks.",
          VERIFY_CASES, flags=VERIFY_FLAGS, attribution=attribution)
    write("archive/level1/log-verify.json", "archive", "archive-log-verify",
          "Bundle logs (ARCHIVE-025 to ARCHIVE-031): the hash chain and its head, record times, bundles logged at assembly, the evidence budget and extraction-risk records.",
          LOG_CASES, flags=LOG_FLAGS, attribution=attribution)
    walkthrough()
