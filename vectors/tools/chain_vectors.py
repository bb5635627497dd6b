#!/usr/bin/env python3
"""Generates the citation-chain envelope vectors (profile CHAIN-*, seed 004):

  vectors/chain/level1/claim-id.json       chain-claim-id
  vectors/chain/level1/signing-input.json  chain-signing-input
  vectors/chain/level1/verify.json         chain-verify, Level 1 (offline)
  vectors/chain/level2/verify.json         chain-verify, Level 2 (canonical URL, sources)

Run: python3 vectors/tools/chain_vectors.py [--check-node]
(standard library + pyca/cryptography for the Ed25519 cases).

Nothing here imports or runs citeproof. Every signature is computed over the bytes of
`chain_lib.py`: `seed-python` with the seed's own verifier code on the document as Python's
`json.loads` reads it, `deployed-js` with a Python re-implementation of the producer's
`JSON.stringify(payload, Object.keys(payload).sort())`. `--check-node` recomputes every
deployed-js payload and every claim id with node.js (the producer's own code path, typed from
the facts in docs/PROFILE.md CHAIN-002/CHAIN-006) and fails on any difference.
"""

import base64
import calendar
import copy
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chain_lib as cl  # noqa: E402
from vectorlib import b64, boundary, case, derivation, write  # noqa: E402

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402
from cryptography.hazmat.primitives import serialization as ser  # noqa: E402


def unix(text):
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


NOW = unix("2026-05-20T00:00:00Z")
SIGNER = "did:web:sourcescore.org"
SIGNED_AT = "2026-05-16T00:00:00.000Z"
SECRET = "seed-004-example-secret-0001"
SECRET_OLD = "seed-004-rotated-out-secret-0000"
OTHER_SIGNER = "did:web:other.example"
OTHER_SECRET = "other-signer-secret-0002"
SEED_ID = "ad17e76a8baad7a1"
CANONICAL = "https://sourcescore.org/claims/%s/" % SEED_ID
SEED_CITED_AS = ("Transformer architecture introduced in paper: ... \u2014 SourceScore Claim "
                 "ad17e76a8baad7a1 (verified 2026-05-16). "
                 "https://sourcescore.org/claims/ad17e76a8baad7a1/")

SEED = "seeds/004_53919f9e1e95c9ad.txt"
NODE_CHECKS = []  # (kind, input, expected) checked by --check-node


# ---- documents with numbers written exactly ----

class Raw:
    """A number written exactly as `text` in the document (`1E16`, `-0`, `1.0`)."""

    def __init__(self, text):
        self.text = text


def render(doc, indent=2):
    raws = []

    def walk(v):
        if isinstance(v, Raw):
            raws.append(v.text)
            return "\u0000RAW%d\u0000" % (len(raws) - 1)
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    text = json.dumps(walk(doc), indent=indent, ensure_ascii=False)
    for i, raw in enumerate(raws):
        text = text.replace('"\\u0000RAW%d\\u0000"' % i, raw)
    return text


# ---- keys ----

def ed_key(seed_byte):
    return Ed25519PrivateKey.from_private_bytes(bytes([seed_byte]) * 32)


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_jwk(key, kid=None):
    raw = key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    j = {"kty": "OKP", "crv": "Ed25519", "x": b64u(raw)}
    if kid is not None:
        j["kid"] = kid
    return j


ED_OLD = ed_key(1)
ED_NEW = ed_key(2)
ED_OTHER = ed_key(3)
# The identity point (y = 1): an Ed25519 public key of small order.
WEAK_JWK = {"kty": "OKP", "crv": "Ed25519", "x": b64u(b"\x01" + b"\x00" * 31), "kid": "weak"}


# ---- envelopes ----

def seed_claim():
    """The seed's example claim ("Anatomy of a SourceScore chain"), `confidence: 1.0`."""
    return {
        "id": SEED_ID,
        "vertical": "ai-ml",
        "subject": "Transformer architecture",
        "predicate": "introduced_in_paper",
        "object": "Attention Is All You Need (Vaswani et al., 2017)",
        "statement": "...",
        "confidence": Raw("1.0"),
        "sources": [
            {"url": "https://arxiv.org/abs/1706.03762",
             "title": "Attention Is All You Need",
             "publisher": "arXiv (Vaswani, Shazeer, ...)",
             "publishedDate": "2017-06-12",
             "excerpt": "We propose a new simple network architecture, ..."},
            {"url": "https://papers.nips.cc/paper/2017/hash/...",
             "title": "Attention Is All You Need (NeurIPS 2017)",
             "publisher": "NeurIPS Foundation",
             "publishedDate": "2017-12-04"},
        ],
        "tags": ["transformer", "attention", "foundational"],
    }


def envelope(claim, algorithm="HMAC-SHA256", signer=SIGNER, signed_at=SIGNED_AT,
             canonical=None, cited_as=SEED_CITED_AS):
    env = {
        "apiVersion": "v1",
        "methodology": "https://sourcescore.org/methodology/",
        "canonical": canonical or ("https://sourcescore.org/claims/%s/" % claim.get("id")),
        "claim": claim,
        "signature": {"algorithm": algorithm, "signedBy": signer, "signedAt": signed_at,
                      "signature": ""},
    }
    if cited_as is not None:
        env["citedAs"] = cited_as
    return env


def payload_of(env, form):
    text = render(env)
    parsed = json.loads(text)
    if form == "seed-python":
        return cl.seed_python_payload(parsed)
    if form == "deployed-js":
        payload = cl.deployed_js_payload(parsed)
        NODE_CHECKS.append(("deployed", text, payload.decode()))
        return payload
    if form == "jcs":
        return cl.jcs_payload(parsed)
    raise ValueError(form)


def sign(env, form="seed-python", secret=SECRET, key=None):
    """Signs `env` in place (HMAC with `secret`, or Ed25519 with `key`) and returns it."""
    payload = payload_of(env, form)
    if key is not None:
        env["signature"]["signature"] = key.sign(payload).hex()
    else:
        env["signature"]["signature"] = cl.hmac_hex(secret, payload)
    return env


def seed_envelope(form="seed-python"):
    return sign(envelope(seed_claim()), form)


def signed_claim(members):
    """The seed envelope, re-signed (seed-python) after setting or adding the claim's top-level `members`."""
    c = seed_claim()
    c.update(members)
    return sign(envelope(c))


def seed_envelope_with(members=(), signature=()):
    """The signed seed envelope, then envelope `members` and `signature` members set or added after
    signing."""
    env = seed_envelope()
    env.update(members)
    env["signature"].update(signature)
    return env


def producer_claim():
    """A claim as the producer's data file and build write it (JSON.stringify writes 1.0 as 1)."""
    claim = {
        "vertical": "ai-ml",
        "subject": "Transformer architecture",
        "predicate": "introduced_in_paper",
        "object": "Attention Is All You Need (Vaswani et al., 2017)",
        "confidence": 1,
        "sources": [
            {"url": "https://arxiv.org/abs/1706.03762",
             "title": "Attention Is All You Need",
             "publisher": "arXiv (Vaswani, Shazeer, Parmar, Uszkoreit, Jones, Gomez, Kaiser, Polosukhin)",
             "publishedDate": "2017-06-12", "accessedDate": "2026-05-16", "type": "preprint",
             "excerpt": "We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely."},
            {"url": "https://research.google/pubs/attention-is-all-you-need/",
             "title": "Attention Is All You Need (Google Research publication index)",
             "publisher": "Google Research", "publishedDate": "2017-06-12",
             "accessedDate": "2026-05-16", "type": "official-blog"},
        ],
        "publishedAt": "2026-05-16T00:00:00Z",
        "lastVerified": "2026-05-16",
        "methodologyVersion": "veritas-v0.1",
        "tags": ["transformer", "attention", "foundational", "vaswani", "2017", "nips"],
        "id": SEED_ID,
        "statement": "Transformer architecture introduced in paper: Attention Is All You Need (Vaswani et al., 2017).",
    }
    return claim


def producer_envelope():
    """An envelope as the producer's build emits it, signed with its deployed signer."""
    claim = producer_claim()
    env = envelope(claim, cited_as=None)
    sign(env, "deployed-js")
    sig = env["signature"]["signature"]
    env["citedAs"] = ("%s \u2014 SourceScore Claim %s (verified %s, signed %s\u2026). "
                      "https://sourcescore.org/claims/%s/" % (
                          claim["statement"], SEED_ID, claim["lastVerified"], sig[:8], SEED_ID))
    return env


def second_claim():
    c = {"vertical": "ai-ml", "subject": "GPT-4", "predicate": "released_on",
         "object": "2023-03-14", "statement": "GPT-4 released on: 2023-03-14.",
         "confidence": Raw("1.0"),
         "sources": [{"url": "https://openai.com/index/gpt-4-research/", "title": "GPT-4",
                      "excerpt": "We've created GPT-4, the latest milestone in OpenAI's effort in scaling up deep learning."}]}
    c = {"id": cl.claim_id(c["vertical"], c["subject"], c["predicate"], c["object"]), **c}
    NODE_CHECKS.append(("id", [c["vertical"], c["subject"], c["predicate"], c["object"]], c["id"]))
    return c


def second_envelope():
    c = second_claim()
    canonical = "https://sourcescore.org/claims/%s/" % c["id"]
    return sign(envelope(c, canonical=canonical,
                         cited_as="GPT-4 released on: 2023-03-14. \u2014 SourceScore Claim %s. %s" % (c["id"], canonical)))


# ---- derivations ----

D_SEED = derivation("independent-tool", "signature: Python hmac over the seed's own verifier "
                    "payload (json.dumps of the claim plus signedAt/signedBy, run by "
                    "vectors/tools/chain_lib.py on the document as json.loads reads it)")
D_DEPLOYED = derivation("independent-tool", "signature: Python hmac over chain_lib.py's "
                        "re-implementation of the producer's JSON.stringify(payload, "
                        "Object.keys(payload).sort()), checked equal to node v20.20.2 "
                        "(chain_vectors.py --check-node)")
D_ED = derivation("independent-tool", "signature: pyca/cryptography Ed25519 (RFC 8032, "
                  "deterministic) over the seed's own json.dumps payload")


def hand(detail):
    return derivation("hand", detail)


def verify_input(doc, secrets=None, keys=None, level=1, resources=None, now=NOW,
                 accept_partial=False):
    text = doc if isinstance(doc, str) else render(doc)
    i = {"document": text, "now": now, "required_level": level}
    if accept_partial:
        i["accept_partial_signature"] = True
    if secrets is None:
        secrets = {SIGNER: [SECRET]}
    if secrets:
        i["secrets"] = secrets
    if keys:
        i["keys"] = keys
    if resources is not None:
        i["resources"] = resources
    return i


FLAGS = {
    "seed-example": "The seed's own example envelope or answer.",
    "producer": "An envelope as the producer's published code emits it.",
    "seed-python": "Signed over the seed's json.dumps signing input.",
    "deployed-js": "Signed over the producer's deployed JSON.stringify signing input.",
    "ed25519": "Ed25519 signature.",
    "rotation": "Several keys or secrets configured for one signer.",
    "tampered": "The envelope was changed after signing.",
    "numbers": "Number forms that differ between JSON serializers.",
    "unicode": "Strings or member names outside ASCII, or white space and case folding.",
    "structure": "Envelope structure (members, types, forms).",
    "trust": "Which configured key may verify which envelope.",
    "warning": "A SHOULD is broken: valid with a warning.",
    "response": "A chain response (answer + chains).",
    "reference": "Claim references in the answer.",
    "fetch": "Level 2 fetches (canonical URL, sources).",
    "json": "The document is not I-JSON.",
    "partial": "The signature covers only part of the envelope (deployed-js): partially signed, never verified.",
    "dates": "Dates checked against the verification time.",
    "forward-compatible": "Members and date forms beyond the profile's, as a newer producer may write them.",
    "invisible": "Invisible, compatibility or line-break characters in a bracketed item.",
}


def unsigned_of(env, key=SEED_ID):
    """The `unsigned` output for an envelope that verifies only under deployed-js."""
    return {key: cl.deployed_unsigned(json.loads(render(env)))}


# ---- chain-claim-id ----

def claim_id_cases():
    out = []

    def add(cid, desc, claim, expect=None, errors=None, d=None, flags=()):
        if expect is None and errors is None:
            expect = cl.claim_id(claim["vertical"], claim["subject"], claim["predicate"], claim["object"])
            NODE_CHECKS.append(("id", [claim["vertical"], claim["subject"], claim["predicate"], claim["object"]], expect))
        out.append(case("chain-id-" + cid, desc, ["CHAIN-002"] if not errors else ["CHAIN-002", "CHAIN-003"],
                        1, {"claim": claim}, "invalid" if errors else "valid", errors=errors,
                        output=None if errors else {"id": expect},
                        derivation_=d or derivation("independent-tool", "Python hashlib SHA-256 of the ECMAScript-trimmed, lowercased fields joined with | (chain_lib.claim_id), equal to node's .trim().toLowerCase()"),
                        flags=flags))
    base = {"vertical": "ai-ml", "subject": "Transformer architecture",
            "predicate": "introduced_in_paper", "object": "Attention Is All You Need (Vaswani et al., 2017)"}
    add("seed-example", "The seed's example claim gives the seed's id ad17e76a8baad7a1.", dict(base),
        expect=SEED_ID, d=derivation("published", SEED + " example envelope: \"id\": \"ad17e76a8baad7a1\" for this claim"),
        flags=["seed-example"])
    add("case-and-whitespace", "Case and ECMAScript white space around the fields (BOM, ideographic space, LS, NBSP) do not change the id.",
        {"vertical": "\ufeff AI-ML", "subject": "\u3000transformer ARCHITECTURE\n", "predicate": "Introduced_In_Paper\u00a0",
         "object": "attention is all you need (vaswani et al., 2017)\u2028"}, expect=SEED_ID,
        d=hand("trim removes U+FEFF, U+0020, U+3000, U+000A, U+00A0, U+2028 (ECMAScript WhiteSpace/LineTerminator); lowercasing gives the seed's fields, so the seed's id"),
        flags=["unicode"])
    add("nel-not-trimmed", "U+0085 (NEL) is not ECMAScript white space: it stays and changes the id.",
        dict(base, subject="\u0085Transformer architecture"), flags=["unicode"])
    add("inner-space-kept", "Only leading and trailing white space is trimmed; a doubled inner space changes the id.",
        dict(base, subject="Transformer  architecture"), flags=["unicode"])
    add("vertical-counts", "The vertical is part of the id: another vertical gives another id.",
        dict(base, vertical="cs"), flags=[])
    add("final-sigma", "Lowercasing is full and context-sensitive: a final capital sigma becomes \u03c2, dotted capital I becomes i + U+0307.",
        dict(base, subject="\u039f\u0394\u039f\u03a3 \u0130"), flags=["unicode"])
    add("missing-vertical", "A claim without vertical has no id.", {k: v for k, v in base.items() if k != "vertical"},
        errors=["schema-violation"], d=hand("CHAIN-002/CHAIN-003: vertical is required"))
    add("empty-subject", "An empty subject is not a non-empty string.", dict(base, subject=""),
        errors=["schema-violation"], d=hand("CHAIN-003: subject is a non-empty string"))
    add("object-not-string", "A numeric object is not a string.", dict(base, object=2017),
        errors=["schema-violation"], d=hand("CHAIN-003: object is a non-empty string"))
    return out


# ---- chain-signing-input ----

def signing_input_cases():
    out = []

    def add(cid, desc, env, flags, d=None, errors=None, reqs=("CHAIN-006",)):
        text = env if isinstance(env, str) else render(env)
        if errors:
            out.append(case("chain-input-" + cid, desc, list(reqs), 1, {"document": text}, "invalid",
                            errors=errors, derivation_=d, flags=flags))
            return
        parsed = json.loads(text)
        seed = cl.seed_python_payload(parsed).decode()
        dep = cl.deployed_js_payload(parsed).decode()
        NODE_CHECKS.append(("deployed", text, dep))
        out.append(case("chain-input-" + cid, desc, list(reqs), 1, {"document": text}, "valid",
                        output={"seed_python": seed, "deployed_js": dep},
                        derivation_=d or derivation("independent-tool", "seed_python: the seed's own json.dumps code (CPython 3.11) on json.loads of the document; deployed_js: chain_lib.py re-implementation, checked equal to node v20.20.2"),
                        flags=flags))
    add("seed-example", "The seed's example: Python keeps confidence 1.0; the deployed form writes 1 and every source as {}.",
        seed_envelope(), ["seed-example", "numbers"])
    add("producer", "An envelope as the producer emits it: the deployed form leaves out tags, lastVerified and every source member.",
        producer_envelope(), ["producer", "deployed-js"])
    c = seed_claim()
    c["confidence"] = Raw("1E-7")
    c["x-numbers"] = [Raw("1E16"), Raw("1e15"), Raw("-0"), Raw("-0.0"), Raw("0.1"), Raw("1e-400"),
                      Raw("123456789012345678901234567890"), Raw("1.7976931348623157e308"), Raw("5e-324"),
                      Raw("0.00001"), Raw("0.0001"), Raw("100"), Raw("1e2"), Raw("1832106217648639.25")]
    add("number-forms", "Python writes 1e-07, 1e+16, 1000000000000000.0, 0 for -0, -0.0, exact big integers, 100.0 for 1e2; ECMAScript writes 1e-7 for the covered confidence.",
        envelope(c), ["numbers"])
    c = seed_claim()
    c["confidence"] = Raw("1832106217648639.25")
    add("tie-to-even", "1832106217648639.25 lies exactly between two shortest 17-digit strings: both languages write the even one, ...639.2 (this signing-input operation does not check confidence's range).",
        envelope(c), ["numbers"])
    c = seed_claim()
    c["x-\ue000"] = 1
    c["x-\U00010000"] = 2
    c["statement"] = "tab\there, \"quoted\" \\ back, \u0001 control, \u007f del, \u2028 ls, \u00e9\u20ac\U0001F600 / slash"
    add("strings-and-order", "Member names sorted by code point (U+E000 before U+10000, unlike RFC 8785's UTF-16 order); control characters escaped as \\u00xx, DEL and U+2028 written as themselves.",
        envelope(c), ["unicode"])
    c = seed_claim()
    del c["statement"]
    del c["confidence"]
    c["sources"][0]["x-note"] = {"confidence": 2, "id": "nested"}
    add("absent-members", "Members the claim lacks are left out of the deployed payload; nested objects are filtered by the same key list.",
        envelope(c), ["deployed-js"])
    c = seed_claim()
    c["signedBy"] = "did:web:attacker.example"
    add("payload-conflict", "A claim with its own signedBy would be overwritten by the seed's merge.", envelope(c),
        ["structure"], errors=["chain-payload-conflict"], d=hand("CHAIN-006: {**claim, ...} overwrites claim.signedBy"))
    add("duplicate-member", "A duplicate member name: not I-JSON, no signing input.",
        '{"claim":{"id":"a","id":"b"},"signature":{"signedAt":"2026-05-16T00:00:00Z","signedBy":"x"}}',
        ["json"], errors=["json-duplicate-member"], d=hand("JSON-002"), reqs=("CHAIN-006", "JSON-002"))
    return out


# ---- chain-verify, Level 1 ----

def verify_l1_cases():
    out = []

    def add(cid, desc, reqs, doc, result, errors=None, warnings=None, output=None, d=None,
            flags=(), **inputs):
        out.append(case("chain-verify-" + cid, desc, list(reqs), 1, verify_input(doc, **inputs),
                        result, errors=errors, warnings=warnings, output=output, derivation_=d,
                        flags=list(flags)))

    def ok(cid, desc, reqs, doc, form="seed-python", warnings=(), d=None, flags=(), key_name=SEED_ID,
           verdict="verified", **inputs):
        output = {"level": 1, "signing_inputs": {key_name: form}, "verdicts": {key_name: verdict}}
        if form == "deployed-js":
            output["unsigned"] = unsigned_of(doc, key_name)
        add(cid, desc, reqs, doc, "valid", warnings=list(warnings), output=output,
            d=d or (D_DEPLOYED if form == "deployed-js" else D_SEED), flags=flags, **inputs)

    def bad(cid, desc, reqs, doc, errors, d, warnings=None, flags=(), output=None, **inputs):
        add(cid, desc, reqs, doc, "invalid", errors=errors, warnings=warnings, output=output, d=d, flags=flags,
            **inputs)

    def accepted_partial(cid, desc, reqs, doc, flags, d=None):
        """A deployed-js envelope verified with accept_partial_signature (CHAIN-015): Level 1 with a
        warning, the verdict partially-signed."""
        ok(cid, desc, reqs, doc, form="deployed-js", verdict="partially-signed",
           warnings=["chain-signature-partial-accepted"], d=d, flags=flags, accept_partial=True)

    def partial_output(env, level=0, key_name=SEED_ID):
        return {"level": level, "signing_inputs": {key_name: "deployed-js"},
                "verdicts": {key_name: "partially-signed"}, "unsigned": unsigned_of(env, key_name)}

    # --- the two signing inputs ---
    ok("seed-example", "The seed's example envelope (confidence 1.0), signed over the seed's json.dumps input, verifies offline.",
       ["CHAIN-001", "CHAIN-002", "CHAIN-003", "CHAIN-004", "CHAIN-005", "CHAIN-006", "CHAIN-007", "CHAIN-014"],
       seed_envelope(), flags=["seed-example", "seed-python"])
    env = producer_envelope()
    bad("producer-deployed-js", "An envelope as the producer's deployed signer makes it: the signature matches only over the deployed-js input, which leaves the sources, tags, lastVerified, signedAt and signedBy unsigned. Partially signed, not verified, unless the user accepts partial signatures.",
        ["CHAIN-006", "CHAIN-007", "CHAIN-014", "CHAIN-003"], env, ["chain-signature-partial"], D_DEPLOYED,
        warnings=[], output=partial_output(env), flags=["producer", "deployed-js", "partial"])
    accepted_partial("producer-deployed-js-accepted", "The same envelope with accept_partial_signature: it reaches Level 1 with a warning, its verdict stays partially-signed and the unsigned members are listed.",
                     ["CHAIN-015", "CHAIN-014", "CHAIN-006"], env, ["producer", "deployed-js", "partial", "warning"])
    env = producer_envelope()
    env["claim"]["sources"][0]["url"] = "https://attacker.example/fake-paper"
    env["claim"]["sources"][0]["excerpt"] = "Anything at all."
    bad("deployed-js-source-tampered", "Under the deployed input a changed source URL and excerpt leave the signature matching: the envelope is partially signed, not verified, and /claim/sources/0/url is listed as unsigned.",
        ["CHAIN-014", "CHAIN-007"], env, ["chain-signature-partial"],
        hand("the deployed payload writes each source as {} (CHAIN-006), so its bytes, and the HMAC, are unchanged; CHAIN-014 makes that partially signed"),
        warnings=[], output=partial_output(env), flags=["deployed-js", "tampered", "partial"])
    accepted_partial("deployed-js-source-tampered-accepted", "Accepted on request, the swapped source still matches the partial signature: the verdict is partially-signed (never verified) and the swapped URL is in the unsigned list.",
                     ["CHAIN-015", "CHAIN-014"], env, ["deployed-js", "tampered", "partial", "warning"],
                     d=hand("as deployed-js-source-tampered; CHAIN-015 turns the error into a warning and keeps the verdict"))
    env = producer_envelope()
    env["claim"]["lastVerified"] = "2024-01-01"
    env["signature"]["signedAt"] = "2024-01-01T00:00:00.000Z"
    accepted_partial("deployed-js-freshness-not-judged", "Under the deployed input lastVerified and signedAt are unsigned, so anyone can set them: freshness is not judged from them (no chain-stale from dates 870 days old), the verdict is partially-signed.",
                     ["CHAIN-010", "CHAIN-015"], env, ["deployed-js", "partial", "dates", "warning"],
                     d=hand("CHAIN-010: only signed dates are judged; deployed-js signs neither date, and the HMAC is unchanged"))
    env = producer_envelope()
    env["claim"]["confidence"] = 0.95
    bad("deployed-js-confidence-tampered", "Under the deployed input confidence is covered: changing it breaks the signature.",
        ["CHAIN-007"], env, ["chain-signature-invalid"], hand("confidence is in the deployed payload; neither input's bytes match the HMAC"),
        flags=["deployed-js", "tampered"])
    env = producer_envelope()
    env["claim"]["sources"].pop()
    bad("deployed-js-source-removed", "Under the deployed input the number of sources is covered: removing one breaks the signature.",
        ["CHAIN-007"], env, ["chain-signature-invalid"], hand("the deployed payload has one {} per source"),
        flags=["deployed-js", "tampered"])
    env = seed_envelope()
    env["claim"]["sources"][0]["url"] = "https://attacker.example/fake-paper"
    bad("seed-python-source-tampered", "Under the seed's input every claim member is covered: a changed source URL is tampering.",
        ["CHAIN-007"], env, ["chain-signature-invalid"], hand("the seed's payload contains the source URL"),
        flags=["seed-python", "tampered"])
    env = seed_envelope()
    env["claim"]["confidence"] = Raw("1")
    bad("seed-python-float-became-int", "Signed with confidence 1.0 (a Python float); the document now says 1 (an int): the seed's bytes differ, so the signature fails.",
        ["CHAIN-006", "CHAIN-007"], env, ["chain-signature-invalid"],
        hand("json.dumps writes 1 instead of 1.0; the deployed bytes were never signed"), flags=["numbers", "tampered"])
    env = sign(envelope(seed_claim()), "jcs")
    bad("jcs-signed", "A signature over RFC 8785 JCS (an earlier draft of this profile) is neither signing input: JCS writes confidence 1.0 as 1.",
        ["CHAIN-006", "CHAIN-007"], env, ["chain-signature-invalid"],
        derivation("independent-tool", "HMAC over a JCS payload written by chain_lib.jcs_payload; neither the seed's nor the deployed bytes equal it"),
        flags=["numbers"])
    bad("seed-python-signed-at-changed", "signedAt is part of the seed's input: changing it breaks the signature.",
        ["CHAIN-006", "CHAIN-007"],
        seed_envelope_with(signature={"signedAt": "2026-05-19T00:00:00.000Z"}),
        ["chain-signature-invalid"], hand("signedAt is merged into the seed's payload"),
        flags=["seed-python", "tampered"])
    # --- numbers and strings only Python's serializer gets right ---
    ok("python-number-forms", "Exact big integers, 1E16, 1e-7, -0 and -0.0 in an extension member are signed as Python writes them.",
       ["CHAIN-006", "CHAIN-007"],
       signed_claim({"x-figures": [Raw("123456789012345678901234567890"), Raw("1E16"), Raw("1e-7"), Raw("-0"), Raw("-0.0"), Raw("1e2")]}),
       flags=["numbers", "seed-python"])
    ok("python-key-order-and-escapes", "Member names above U+FFFF sort by code point, and control characters are escaped as Python escapes them.",
       ["CHAIN-006", "CHAIN-007"],
       signed_claim({"x-\ue000": "private use", "x-\U00010000": "linear b",
                     "statement": "ctrl \u0001, del \u007f, ls \u2028, \"q\", \\, \u00e9\U0001F600"}),
       flags=["unicode", "seed-python"])
    # --- Ed25519 and keys ---
    keys_new = {SIGNER: {"keys": [public_jwk(ED_OLD, "2025-01"), public_jwk(ED_NEW, "2026-05")]}}
    env = sign(envelope(seed_claim(), algorithm="Ed25519"), key=ED_NEW)
    ok("ed25519-rotated-key", "Ed25519 over the same seed input; the signer has two keys (rotation), kids differ from signedBy; the newer one verifies.",
       ["CHAIN-005", "CHAIN-007"], env, d=D_ED, flags=["ed25519", "rotation"], secrets={}, keys=keys_new)
    env = sign(envelope(seed_claim(), algorithm="Ed25519"), key=ED_OLD)
    ok("ed25519-old-key-still-configured", "An envelope signed with the signer's older key still verifies while that key is configured.",
       ["CHAIN-007"], env, d=D_ED, flags=["ed25519", "rotation"], secrets={}, keys=keys_new)
    env = sign(envelope(seed_claim(), algorithm="Ed25519"), key=ED_OTHER)
    bad("ed25519-other-signers-key", "Signed with the key of another configured signer: only the envelope's signer's keys are tried.",
        ["CHAIN-007"], env, ["chain-signature-invalid"], hand("ED_OTHER is configured for did:web:other.example only"),
        flags=["ed25519", "trust"], secrets={},
        keys={SIGNER: {"keys": [public_jwk(ED_NEW, "2026-05")]}, OTHER_SIGNER: {"keys": [public_jwk(ED_OTHER, "o1")]}})
    env = sign(envelope(seed_claim(), algorithm="Ed25519"), key=ED_NEW)
    bad("ed25519-weak-key", "The signer's key set holds a small-order key: the set is unusable (SIG-002).",
        ["CHAIN-007", "SIG-002"], env, ["jwk-weak-key"], hand("x decodes to the identity point (y = 1), of small order"),
        flags=["ed25519", "trust"], secrets={}, keys={SIGNER: {"keys": [public_jwk(ED_NEW, "2026-05"), WEAK_JWK]}})
    bad("ed25519-no-key", "An Ed25519 envelope with only HMAC secrets configured: no key for the signer.",
        ["CHAIN-007"], sign(envelope(seed_claim(), algorithm="Ed25519"), key=ED_NEW), ["chain-key-unresolved"],
        hand("no Ed25519 key is configured for did:web:sourcescore.org"), flags=["ed25519", "trust"])
    env = sign(envelope(seed_claim()), secret=SECRET_OLD)
    ok("hmac-rotated-secret", "The signer has two secrets; the envelope was signed with the first.",
       ["CHAIN-007"], env, flags=["rotation"], secrets={SIGNER: [SECRET_OLD, SECRET]})
    bad("hmac-no-secret", "No secret is configured for the envelope's signer.", ["CHAIN-007"], seed_envelope(),
        ["chain-key-unresolved"], hand("secrets name only another signer"), flags=["trust"],
        secrets={OTHER_SIGNER: [OTHER_SECRET]})
    bad("hmac-wrong-secret", "The configured secret is not the one that signed.", ["CHAIN-007"], seed_envelope(),
        ["chain-signature-invalid"], hand("HMAC under another key"), flags=["trust"], secrets={SIGNER: [OTHER_SECRET]})
    env = producer_envelope()
    env["signature"]["signedBy"] = OTHER_SIGNER
    env["canonical"] = "https://other.example/claims/%s/" % SEED_ID
    env["citedAs"] = env["citedAs"].replace("https://sourcescore.org/", "https://other.example/")
    bad("deployed-js-signer-relabeled", "signedBy is not in the deployed input, but relabeling it changes which keys are tried: the other signer's secret does not verify.",
        ["CHAIN-007"], env, ["chain-signature-invalid"], warnings=[],
        d=hand("the HMAC was made with SECRET; OTHER_SIGNER is configured with OTHER_SECRET only"),
        flags=["deployed-js", "trust", "tampered"], secrets={SIGNER: [SECRET], OTHER_SIGNER: [OTHER_SECRET]})
    # --- id ---
    bad("id-mismatch", "The object changed and the envelope was re-signed, but the id was kept: the id no longer matches the fields.",
        ["CHAIN-002"], signed_claim({"object": "Attention Is All You Need (Vaswani et al., 2018)"}), ["chain-id-mismatch"],
        hand("sha256('ai-ml|transformer architecture|introduced_in_paper|attention is all you need (vaswani et al., 2018)')[:16] != ad17e76a8baad7a1"),
        flags=["structure"])
    c = seed_claim()
    c["id"] = SEED_ID.upper()
    bad("id-uppercase", "An id in uppercase hex is not a claim id.", ["CHAIN-002"],
        sign(envelope(c, canonical=CANONICAL)), ["chain-id-invalid"], hand("CHAIN-002: 16 lowercase hex digits"),
        flags=["structure"])
    c = seed_claim()
    del c["vertical"]
    bad("vertical-missing", "Without vertical the id cannot be recomputed: the claim is invalid and the id is not compared.",
        ["CHAIN-002", "CHAIN-003"], sign(envelope(c)), ["schema-violation"], hand("CHAIN-003: vertical is required"),
        flags=["structure"])
    # --- structure ---
    bad("api-version", "apiVersion v2 is not supported (apiVersion is not signed, so the signature still verifies).",
        ["CHAIN-001"], seed_envelope_with({"apiVersion": "v2"}), ["chain-version-unsupported"], hand("CHAIN-001"), flags=["structure"])
    bad("methodology-not-url", "methodology is not a web URL.", ["CHAIN-001"],
        seed_envelope_with({"methodology": "sourcescore.org/methodology/"}),
        ["chain-url-invalid"],
        hand("no scheme"), flags=["structure"])
    bad("envelope-last-verified", "lastVerified belongs in the claim; at envelope level it is an unknown member.",
        ["CHAIN-001"],
        seed_envelope_with({"lastVerified": "2026-05-16"}),
        ["unknown-member"], hand("CHAIN-001 Decision"), flags=["structure"])
    ok("extension-member", "An x- member of the envelope is allowed.", ["CHAIN-001"],
       seed_envelope_with({"x-served-by": "edge-7"}),
       flags=["structure"])
    c = seed_claim()
    c["sources"][1]["url"] = "papers.nips.cc/paper/2017"
    bad("source-url-invalid", "A source URL that is not a web URL (re-signed, so only the URL is wrong).",
        ["CHAIN-003"], sign(envelope(c)), ["chain-url-invalid"], hand("no scheme"), flags=["structure"])
    bad("confidence-range", "confidence above 1.", ["CHAIN-003"], signed_claim({"confidence": Raw("1.5")}), ["schema-violation"],
        hand("CHAIN-003: 0 to 1"), flags=["structure"])
    bad("sources-empty", "A claim without sources.", ["CHAIN-003"], signed_claim({"sources": []}), ["schema-violation"],
        hand("CHAIN-003: 1 to 256 sources"), flags=["structure"])
    bad("last-verified-invalid", "lastVerified is neither a date nor a timestamp.", ["CHAIN-003"],
        signed_claim({"lastVerified": "16/05/2026"}), ["schema-timestamp-invalid"], hand("not RFC 3339"), flags=["structure"])
    # JSON-005 in an envelope (no schema stands in front of the envelope's own date rules): a
    # fraction of 9 digits is a profile timestamp, 10 digits and a leap second are not.
    ok("last-verified-fraction-9-digits", "lastVerified with a fraction of 9 digits.", ["CHAIN-003", "JSON-005"],
       signed_claim({"lastVerified": "2026-05-16T00:00:00.123456789Z"}), flags=["structure"])
    bad("last-verified-fraction-10-digits", "lastVerified with a fraction of 10 digits (RFC 3339 allows it, the profile does not).",
        ["CHAIN-003", "JSON-005"], signed_claim({"lastVerified": "2026-05-16T00:00:00.1234567890Z"}),
        ["schema-timestamp-invalid"], hand("JSON-005: 1 to 9 fraction digits"), flags=["structure"])
    bad("last-verified-offset-truncated", "lastVerified ends in an offset without its minutes (+05).",
        ["CHAIN-003", "JSON-005"], signed_claim({"lastVerified": "2026-05-16T00:00:00+05"}), ["schema-timestamp-invalid"],
        hand("RFC 3339 time-numoffset is (+|-)time-hour:time-minute"), flags=["structure"])
    bad("last-verified-leap-second", "lastVerified is a real leap second (RFC 3339 allows it, the profile does not).",
        ["CHAIN-003", "JSON-005"], signed_claim({"lastVerified": "2016-12-31T23:59:60Z"}), ["schema-timestamp-invalid"],
        hand("JSON-005: seconds 00-59"), flags=["structure"])
    bad("last-verified-date-year-0000", "lastVerified is the date 0000-01-01 (RFC 3339's full-date allows year 0000, the profile does not).",
        ["CHAIN-003", "JSON-005"], signed_claim({"lastVerified": "0000-01-01"}), ["schema-timestamp-invalid"],
        hand("JSON-005: years 0001-9999, for a date as for a timestamp"), flags=["structure", boundary("year-range", "outside")])
    c = seed_claim()
    c["x-internal"] = {"reviewer": "a"}
    c["lastVerified"] = "2026-05-16"
    c["publishedAt"] = "2026-05-16T00:00:00Z"
    c["methodologyVersion"] = "veritas-v0.1"
    c["sources"][0]["accessedDate"] = "2026-05-16"
    c["sources"][0]["type"] = "preprint"
    ok("producer-members", "The producer's members (publishedAt, lastVerified, methodologyVersion, accessedDate, type) and an x- member are valid claim members.",
       ["CHAIN-003"], sign(envelope(c)), flags=["structure"])
    ok("claim-unknown-member", "A claim member the profile does not define (no x- prefix), covered by the seed-python signature: kept with a warning (the envelope shape is forward-compatible).",
       ["CHAIN-017", "CHAIN-003"], signed_claim({"reviewer": "a"}), warnings=["chain-member-unrecognized"],
       flags=["structure", "forward-compatible", "warning"])
    env = seed_envelope()
    env["claim"]["reviewer"] = "a"
    bad("claim-unknown-member-unsigned", "A member outside the profile added after signing: the signature fails, and the member, covered by no verified signature, is an unknown member.",
        ["CHAIN-003", "CHAIN-017", "CHAIN-007"], env, ["chain-signature-invalid", "unknown-member"],
        hand("the seed's payload now holds `reviewer`, so the HMAC fails; CHAIN-003: not covered, so unknown-member"),
        flags=["structure", "forward-compatible", "tampered"],
        output={"level": 0, "verdicts": {SEED_ID: "tampered"}})
    c = seed_claim()
    c["sources"][0]["doi"] = "10.48550/arXiv.1706.03762"
    c["category"] = {"field": "machine learning"}
    ok("source-unknown-member", "Members outside the profile in a source and in the claim (an object value), both covered by the seed-python signature: kept with warnings.",
       ["CHAIN-017", "CHAIN-003"], sign(envelope(c)), warnings=["chain-member-unrecognized"],
       flags=["structure", "forward-compatible", "warning"])
    c = producer_claim()
    c["category"] = "architecture"
    env = envelope(c, cited_as=None)
    sign(env, "deployed-js")
    bad("deployed-js-unknown-member", "A member outside the profile under a deployed-js signature, which does not cover it: an unknown member, even with partial signatures accepted.",
        ["CHAIN-003", "CHAIN-017", "CHAIN-015"], env, ["unknown-member"], D_DEPLOYED,
        warnings=["chain-signature-partial-accepted"],
        output={"level": 0, "signing_inputs": {SEED_ID: "deployed-js"}, "verdicts": {SEED_ID: "unverified"},
                "unsigned": unsigned_of(env)},
        flags=["deployed-js", "forward-compatible", "partial"], accept_partial=True)
    for did, date, more in [("year", "2017", []), ("year-month", "2017-06", []),
                            ("year-0001", "0001", [boundary("reduced-precision-range", "inside")]),
                            ("month-12", "2017-12", [boundary("reduced-precision-range", "inside")])]:
        c = seed_claim()
        c["sources"][0]["publishedDate"] = date
        ok("published-date-" + did, "A source publishedDate of %s (reduced precision, as papers are often dated): accepted with a warning." % date,
           ["CHAIN-017", "CHAIN-003"], sign(envelope(c)), warnings=["chain-date-reduced-precision"],
           flags=["structure", "forward-compatible", "warning"] + more)
    for did, date, why in [("month-13", "2017-13", "months are 01-12"), ("month-00", "2017-00", "months are 01-12"),
                           ("year-0000", "0000", "years are 0001-9999")]:
        c = seed_claim()
        c["sources"][0]["publishedDate"] = date
        bad("published-date-" + did, "A reduced-precision publishedDate %s is not a date." % date, ["CHAIN-003", "CHAIN-017"],
            sign(envelope(c)), ["schema-timestamp-invalid"], hand(why + " (CHAIN-017), and %s is no RFC 3339 date or timestamp" % date),
            flags=["structure", boundary("reduced-precision-range", "outside")])
    # --- dates in the future (CHAIN-016) ---
    bad("last-verified-future", "lastVerified in 2099 (signed): a date in the future is an incident, never fresh.",
        ["CHAIN-016"],
        signed_claim({"lastVerified": "2099-01-01"}),
        ["chain-date-in-future"], hand("2099-01-01 is after 2026-05-20 + 300 s"),
        flags=["dates"], output={"level": 0, "verdicts": {SEED_ID: "unverified"}})
    bad("last-verified-tomorrow", "lastVerified is tomorrow's date: no time zone has reached it yet.", ["CHAIN-016"],
        signed_claim({"lastVerified": "2026-05-21"}), ["chain-date-in-future"],
        hand("2026-05-21 begins at the earliest at 2026-05-20T10:00:00Z (UTC+14:00), 36000 s after the verification time"),
        flags=["dates"])
    ok("last-verified-date-ahead-in-utc-plus-14", "At 12:00Z on 2026-05-20 it is already 2026-05-21 at UTC+14:00: that date is not in the future.",
       ["CHAIN-016"], signed_claim({"lastVerified": "2026-05-21"}), d=hand("earliest instant 2026-05-20T10:00:00Z <= 2026-05-20T12:00:00Z"),
       flags=["dates"], now=NOW + 12 * 3600)
    ok("last-verified-date-earliest-instant-at-skew", "At 09:55:00Z on 2026-05-20, the date 2026-05-21 (earliest instant 10:00:00Z) is just within the clock skew tolerance.",
       ["CHAIN-016"],
       signed_claim({"lastVerified": "2026-05-21"}),
       d=hand("2026-05-21T00:00:00+14:00 = 2026-05-20T10:00:00Z = 09:55:00Z + 300 s: not later than now + 300 s"),
       flags=["dates", boundary("chain-date-earliest-offset", "inside")], now=NOW + 9 * 3600 + 55 * 60)
    bad("last-verified-date-earliest-instant-past-skew", "At 09:54:59Z on 2026-05-20, the date 2026-05-21 (earliest instant 10:00:00Z) is one second too far ahead.",
        ["CHAIN-016"], signed_claim({"lastVerified": "2026-05-21"}), ["chain-date-in-future"],
        hand("2026-05-20T10:00:00Z - 09:54:59Z = 301 s > 300 s: read at UTC+14:00, the earliest offset in use"),
        flags=["dates", boundary("chain-date-earliest-offset", "outside")], now=NOW + 9 * 3600 + 54 * 60 + 59)
    env = sign(envelope(seed_claim(), signed_at="2026-05-21T00:00:00Z"))
    bad("signed-at-future", "signedAt a day after the verification time.", ["CHAIN-016"], env, ["chain-date-in-future"],
        hand("86400 s > 300 s"), flags=["dates"])
    env = sign(envelope(seed_claim(), signed_at="2026-05-20T00:04:59Z"))
    ok("signed-at-within-skew", "signedAt 299 seconds after the verification time: within the clock skew tolerance.",
       ["CHAIN-016"], env, d=hand("299 s <= 300 s"), flags=["dates"])
    env = sign(envelope(seed_claim(), signed_at="2026-05-20T00:05:00Z"))
    ok("signed-at-skew-limit", "signedAt exactly 300 seconds after the verification time: the last instant the clock skew "
       "tolerance allows.", ["CHAIN-016"], env, d=hand("00:05:00 - 00:00:00 = 300 s <= 300 s: not later than now + 300 s"),
       flags=["dates", boundary("chain-future-skew", "inside")])
    env = sign(envelope(seed_claim(), signed_at="2026-05-20T00:05:01Z"))
    bad("signed-at-skew-limit-plus-one", "signedAt 301 seconds after the verification time: one second past the tolerance.",
        ["CHAIN-016"], env, ["chain-date-in-future"], hand("301 s > 300 s: later than now + 300 s"),
        flags=["dates", boundary("chain-future-skew", "outside")])
    ok("last-verified-offset-in-past", "lastVerified 00:05 at UTC+05:00 is 19:05Z the day before: compared as an instant, "
       "not as text.", ["CHAIN-016", "JSON-005"], signed_claim({"lastVerified": "2026-05-20T00:05:00+05:00"}),
       d=hand("2026-05-20T00:05:00+05:00 = 2026-05-19T19:05:00Z, before now"), flags=["dates"])
    c = seed_claim()
    c["sources"][1]["accessedDate"] = "2027-01-01"
    bad("accessed-date-future", "A source accessed in 2027.", ["CHAIN-016"], sign(envelope(c)), ["chain-date-in-future"],
        hand("2027-01-01 at UTC+14:00 is after 2026-05-20"), flags=["dates"])
    env = producer_envelope()
    env["claim"]["lastVerified"] = "2099-01-01"
    bad("deployed-js-last-verified-future", "An unsigned lastVerified in the future is an incident too, even with partial signatures accepted.",
        ["CHAIN-016", "CHAIN-015"], env, ["chain-date-in-future"], hand("CHAIN-016 applies to every date, signed or not"),
        warnings=["chain-signature-partial-accepted"], flags=["dates", "deployed-js", "partial"], accept_partial=True)
    bad("canonical-http", "canonical is http, not https.", ["CHAIN-004"],
        seed_envelope_with({"canonical": "http://sourcescore.org/claims/%s/" % SEED_ID}),
        ["chain-canonical-invalid"],
        hand("CHAIN-004"), flags=["structure"])
    bad("canonical-without-id", "canonical has no path segment equal to the claim id.", ["CHAIN-004"],
        seed_envelope_with({"canonical": "https://sourcescore.org/claims/",
                            "citedAs": "SourceScore Claim %s https://sourcescore.org/claims/" % SEED_ID}),
        ["chain-canonical-invalid"], hand("no segment ad17e76a8baad7a1"), flags=["structure"])
    bad("canonical-other-origin", "canonical moved to a host that is not the did:web signer's (canonical is not signed).",
        ["CHAIN-004"],
        seed_envelope_with({"canonical": "https://sourcescore.example/claims/%s/" % SEED_ID,
                            "citedAs": SEED_CITED_AS.replace("sourcescore.org/", "sourcescore.example/")}),
        ["chain-canonical-origin-mismatch"], hand("did:web:sourcescore.org names sourcescore.org"),
        flags=["structure", "trust"])
    c = seed_claim()
    env = sign(envelope(c, signer="sourcescore-hmac-v0", canonical="https://cdn.example.net/claims/%s/" % SEED_ID,
                        cited_as="SourceScore Claim %s https://cdn.example.net/claims/%s/" % (SEED_ID, SEED_ID)))
    ok("canonical-any-host-non-did", "A signer id that is not a did:web puts no constraint on the canonical host.",
       ["CHAIN-004"], env, flags=["structure"], secrets={"sourcescore-hmac-v0": [SECRET]})
    bad("canonical-other-port", "A did:web without a port names the default port: another port is another origin.",
        ["CHAIN-004"],
        seed_envelope_with({"canonical": "https://sourcescore.org:8443/claims/%s/" % SEED_ID,
                            "citedAs": "SourceScore Claim %s https://sourcescore.org:8443/claims/%s/" % (SEED_ID, SEED_ID)}),
        ["chain-canonical-origin-mismatch"], hand("sourcescore.org:8443 != sourcescore.org"),
        flags=["structure", "trust"])
    bad("algorithm-unsupported", "algorithm HS256 is not HMAC-SHA256 or Ed25519.", ["CHAIN-005"],
        seed_envelope_with(signature={"algorithm": "HS256"}),
        ["chain-algorithm-unsupported"], hand("CHAIN-005"), flags=["structure"])
    env = seed_envelope()
    env["signature"]["signature"] = env["signature"]["signature"].upper()
    bad("signature-uppercase", "The signature in uppercase hex.", ["CHAIN-005"], env, ["chain-signature-malformed"],
        hand("CHAIN-005: lowercase hex"), flags=["structure"])
    env = seed_envelope()
    env["signature"]["signature"] = env["signature"]["signature"] * 2
    bad("signature-length", "128 hex digits for HMAC-SHA256.", ["CHAIN-005"], env, ["chain-signature-malformed"],
        hand("HMAC-SHA256 tags are 64 hex digits"), flags=["structure"])
    bad("signature-extension", "The signature object allows no other member.", ["CHAIN-005"],
        seed_envelope_with(signature={"kid": "2026-05"}),
        ["unknown-member"],
        hand("CHAIN-005: exactly four members"), flags=["structure"])
    bad("signed-at-invalid", "signedAt is not an RFC 3339 timestamp.", ["CHAIN-005"],
        seed_envelope_with(signature={"signedAt": "2026-05-16 00:00:00"}),
        ["schema-timestamp-invalid"],
        hand("space instead of T"), flags=["structure"])
    c = seed_claim()
    c["signedBy"] = SIGNER
    env = envelope(c)
    env["signature"]["signature"] = "00" * 32
    bad("payload-conflict", "A claim with its own signedBy: the seed's merge would overwrite it, so the signature is not checked at all (a well-formed all-zero tag would otherwise be reported invalid).",
        ["CHAIN-006"], env, ["chain-payload-conflict"], hand("CHAIN-006: such a claim cannot be verified"), flags=["structure"])
    bad("duplicate-member", "A duplicate member name in the envelope.", ["CHAIN-001", "JSON-002"],
        render(seed_envelope()).replace('"apiVersion": "v1",', '"apiVersion": "v1", "apiVersion": "v1",', 1),
        ["json-duplicate-member"], hand("JSON-002"), flags=["json"])
    # The producer's verify endpoint (functions/api/v1/verify.js, signResponse) signs
    # JSON.stringify({apiVersion, query, bestMatchId, notVerified}): ASCII strings here, so
    # Python's compact json.dumps writes the same bytes as JSON.stringify.
    query = "The Transformer architecture was introduced in 2017"
    projection = json.dumps({"apiVersion": "v1", "query": query, "bestMatchId": SEED_ID, "notVerified": False},
                            separators=(",", ":"), ensure_ascii=False).encode()
    summary = {"id": SEED_ID, "vertical": "ai-ml", "subject": "Transformer architecture",
               "predicate": "introduced_in_paper", "object": "Attention Is All You Need (Vaswani et al., 2017)",
               "statement": "Transformer architecture introduced in paper: Attention Is All You Need (Vaswani et al., 2017).",
               "confidence": 1, "signatureShort": "0f3c9a1e",
               "detailUrl": "https://sourcescore.org/api/v1/claims/%s.json" % SEED_ID}
    verify_response = {
        "apiVersion": "v1", "methodology": "https://sourcescore.org/methodology/", "query": query,
        "minConfidence": 0.85, "method": "keyword",
        "matches": [{"claim": summary, "matchScore": 0.8, "rationale": "Keyword overlap on: transformer, architecture."}],
        "bestMatch": summary,
        "signature": {"algorithm": "HMAC-SHA256", "signedBy": SIGNER, "signedAt": "2026-05-16T12:00:00.000Z",
                      "signature": cl.hmac_hex(SECRET, projection)},
    }
    bad("producer-verify-response", "A response of the producer's verify endpoint, whose genuine signature covers only {apiVersion, query, bestMatchId, notVerified}: it is not a chain envelope (no claim, no canonical URL), and no signing input of this profile is defined for it.",
        ["CHAIN-001", "CHAIN-006"], verify_response, ["schema-violation", "unknown-member"],
        hand("CHAIN-001: claim and canonical missing; query, minConfidence, method, matches, bestMatch are not envelope members; CHAIN-006 Decision"),
        flags=["producer", "structure"], output={"level": 0, "verdicts": {}})
    # --- SHOULD warnings ---
    c = seed_claim()
    del c["sources"][0]["excerpt"]
    ok("excerpt-missing", "No source keeps a verbatim excerpt.", ["CHAIN-008"], sign(envelope(c)),
       warnings=["chain-excerpt-missing"], flags=["warning"])
    ok("cited-as-mismatch", "citedAs names neither the id nor the canonical URL.", ["CHAIN-009"],
       seed_envelope_with({"citedAs": "Transformer architecture introduced in paper."}),
       warnings=["chain-cited-as-mismatch"], flags=["warning"])
    env = seed_envelope()
    env["citedAs"] = SEED_CITED_AS.replace(" " + CANONICAL, "")
    assert SEED_ID in env["citedAs"] and CANONICAL not in env["citedAs"]
    ok("cited-as-id-without-canonical", "citedAs names the claim id but not the canonical URL: both are needed.",
       ["CHAIN-009"], env, warnings=["chain-cited-as-mismatch"],
       d=hand("the seed's citation string without its trailing URL: contains ad17e76a8baad7a1, not the canonical"),
       flags=["warning"])
    ok("stale", "lastVerified 181 days before the verification time, signed over seed-python: stale.", ["CHAIN-010"],
       signed_claim({"lastVerified": "2025-11-20"}),
       warnings=["chain-stale"], d=hand("2025-11-20 to 2026-05-20 is 181 days > 180"), flags=["warning"], verdict="stale")
    ok("not-stale-180-days", "lastVerified exactly 180 days before: not stale.", ["CHAIN-010"],
       signed_claim({"lastVerified": "2025-11-21"}),
       d=hand("2025-11-21 to 2026-05-20 is 180 days, not more"), flags=["warning"])
    env = sign(envelope(seed_claim(), signed_at="2025-09-01T00:00:00Z"))
    ok("stale-from-signed-at", "Without lastVerified, an envelope signed 261 days ago is stale.", ["CHAIN-010"], env,
       warnings=["chain-stale"], d=hand("signedAt 2025-09-01 stands in; 261 days > 180"), flags=["warning"], verdict="stale")
    # --- responses ---
    first = seed_envelope()
    second = second_envelope()
    sid = second["claim"]["id"]
    seed_answer = ("The Transformer architecture was introduced in 2017 [ad17e76a8baad7a1]. "
                   "It uses self-attention [ad17e76a8baad7a1] and is the substrate of GPT-4 [ce8a...].")

    def resp(answer, chains):
        return {"answer": answer, "chains": chains}

    def refs(*pairs):
        return [{"text": t, "verdict": v} for t, v in pairs]

    bad("response-seed-answer", "The seed's own answer: [ce8a...] is a truncated id that resolves to nothing: the seed's \"\u26a0 unverified\" (its envelope is verified).",
        ["CHAIN-011"], resp(seed_answer, {SEED_ID: first}), ["chain-ref-unresolved"],
        derivation("published", SEED + " \"Chains and LLM agents\" answer; [ce8a...] matches CHAIN-011 rule (b); Failure modes l.116 \"unverified\""),
        flags=["seed-example", "response", "reference"],
        output={"level": 0, "verdicts": {SEED_ID: "verified"},
                "references": refs((SEED_ID, "verified"), (SEED_ID, "verified"), ("ce8a...", "unverified"))})
    good_answer = ("The Transformer architecture was introduced in 2017 [ad17e76a8baad7a1]. "
                   "It is the substrate of GPT-4 [%s]." % sid)
    both = {SEED_ID: "seed-python", sid: "seed-python"}
    add("response-resolved", "Every reference is a full id with its envelope in chains.", ["CHAIN-011", "CHAIN-018", "CHAIN-007"],
        resp(good_answer, {SEED_ID: first, sid: second}), "valid", warnings=[],
        output={"level": 1, "signing_inputs": both, "verdicts": {SEED_ID: "verified", sid: "verified"},
                "references": refs((SEED_ID, "verified"), (sid, "verified"))}, d=D_SEED,
        flags=["response", "reference"])
    add("response-ordinary-brackets", "Footnotes, years, author-year citations, editorial brackets, a conference name and a markdown link are not claim references: each is reported as text with a warning, and the answer verifies.",
        ["CHAIN-011", "CHAIN-019"],
        resp("Shown in [1] and [12], first in [2017] and [2017a] [Smith et al., 2024] at [ACE 2020]; it [sic] was [added], "
             "see [the paper](https://arxiv.org/abs/1706.03762) [ad17e76a8baad7a1].", {SEED_ID: first}),
        "valid", warnings=["chain-bracket-not-reference"],
        output={"level": 1, "signing_inputs": {SEED_ID: "seed-python"}, "verdicts": {SEED_ID: "verified"},
                "references": refs((SEED_ID, "verified"))},
        d=hand("none of these items' skeletons satisfies CHAIN-011 (a), (b) or (c): 'ACE 2020' keeps its inner space; each is a CHAIN-019 text item"),
        flags=["response", "reference", "warning"])
    for rid, ref, why in [
        ("short", "abc123", "(c): 6 digits, a decimal digit and a letter"),
        ("unicode-ellipsis", "ce8a\u2026", "(b): 4 digits and U+2026 (NFKC '...')"),
        ("uppercase", SEED_ID.upper(), "(a): 16 digits, but not lowercase"),
        ("fabricated-full", "0123456789abcdef", "(a): a full id that is not a key of chains"),
        ("in-list", "ad17e76a8baad7a1, ce8a4b2c...", "two items; the second is (b)"),
        ("newline", "0123456789abcdef\n", "the skeleton drops the line feed (Cc): (a), not written exactly"),
        ("newline-inside", "abc\n123", "the skeleton drops the line feed (Cc): 'abc123', (c)"),
        ("nbsp", "\u00a0abc123", "NFKC turns U+00A0 into a space (Zs), trimmed: (c)"),
        ("zero-width-space", "0123456789abcdef\u200b", "U+200B is Cf, dropped: (a)"),
        ("zero-width-inside", "abc\u200b123", "U+200B is Cf, dropped: 'abc123', (c)"),
        ("word-joiner-on-real-id", SEED_ID + "\u2060", "U+2060 (Cf) dropped: the skeleton is the real id, but the item is not written exactly as it"),
        ("nbsp-on-real-id", "\u00a0" + SEED_ID, "the skeleton is the real id, but the item is not written exactly as it"),
        ("fullwidth", "\uff41\uff42\uff43\uff11\uff12\uff13", "NFKC maps fullwidth letters and digits to ASCII: 'abc123', (c)"),
        ("long", "ab12" * 80, "320 characters: no length bound; (a)"),
    ]:
        text = "The Transformer [%s] is the substrate of GPT-4 [%s]." % (SEED_ID, ref)
        flags = ["response", "reference"] + (["invisible"] if any(ord(ch) > 0x7e or ch == "\n" for ch in ref) else [])
        bad("response-ref-" + rid, "The reference [%s] does not resolve." % ref.encode("unicode_escape").decode(),
            ["CHAIN-011"], resp(text, {SEED_ID: first}),
            ["chain-ref-unresolved"], hand("CHAIN-011 " + why), flags=flags)
    text = "The Transformer [%s] is the substrate of GPT-4 \uff3babc123\uff3d." % SEED_ID
    bad("response-ref-fullwidth-brackets", "Fullwidth square brackets (NFKC '[' and ']') delimit a bracket too: [abc123] does not resolve.",
        ["CHAIN-011"], resp(text, {SEED_ID: first}), ["chain-ref-unresolved"],
        hand("U+FF3B and U+FF3D have NFKC forms '[' and ']'"), flags=["response", "reference", "invisible"])
    bad("response-no-reference-no-envelope", "An answer with no envelope and no claim reference: nothing was verified, so it is not verified.",
        ["CHAIN-018"], resp("The Transformer architecture was introduced in 2017.", {}), ["chain-answer-unreferenced"],
        hand("CHAIN-018: at least one claim reference"), flags=["response", "reference"],
        output={"level": 0, "verdicts": {}, "references": []})
    bad("response-envelope-not-referenced", "A verified envelope, but the answer cites no claim: nothing in the answer was verified.",
        ["CHAIN-018"], resp("The Transformer architecture was introduced in 2017 [1].", {SEED_ID: first}),
        ["chain-answer-unreferenced"], hand("CHAIN-018; [1] is text (CHAIN-019)"), warnings=["chain-bracket-not-reference"],
        flags=["response", "reference"], output={"level": 0, "verdicts": {SEED_ID: "verified"}, "references": []})
    bad("response-map-key-mismatch", "The seed's chains key ce8a4b2c... is not the id of its envelope.", ["CHAIN-011"],
        resp("GPT-4 is the substrate [%s]." % sid, {SEED_ID: first, "ce8a4b2c...": second}),
        ["chain-map-key-mismatch", "chain-ref-unresolved"],
        hand("the key differs from claim.id; the reference names an id that is not a key"), flags=["response", "seed-example"],
        output={"verdicts": {SEED_ID: "verified", "ce8a4b2c...": "tampered"}, "references": refs((sid, "unverified"))})
    tampered = seed_envelope()
    tampered["claim"]["statement"] = "The Transformer was introduced in 2015."
    bad("response-tampered-envelope", "A referenced envelope was edited in transit: the seed's \"\u26a0 tampered\", and the reference to it is tampered too.", ["CHAIN-007", "CHAIN-011"],
        resp(good_answer, {SEED_ID: tampered, sid: second}), ["chain-signature-invalid"],
        hand("the statement is covered by the seed's input; Failure modes l.117"), flags=["response", "tampered"],
        output={"level": 0, "verdicts": {SEED_ID: "tampered", sid: "verified"},
                "references": refs((SEED_ID, "tampered"), (sid, "verified"))})
    stale_claim = seed_claim()
    stale_claim["lastVerified"] = "2025-01-01"
    add("response-stale-envelope", "A referenced envelope last verified long ago (a signed date): valid, stale, as the seed's l.118 describes.", ["CHAIN-010", "CHAIN-011"],
        resp(good_answer, {SEED_ID: sign(envelope(stale_claim)), sid: second}), "valid", warnings=["chain-stale"],
        output={"level": 1, "signing_inputs": both, "verdicts": {SEED_ID: "stale", sid: "verified"},
                "references": refs((SEED_ID, "stale"), (sid, "verified"))}, d=D_SEED,
        flags=["response", "warning"])
    deployed = producer_envelope()
    bad("response-partially-signed-envelope", "A referenced envelope signed only in part (deployed-js): the reference is partially-signed, not verified.",
        ["CHAIN-014", "CHAIN-011"], resp("The Transformer [%s] was introduced in 2017." % SEED_ID, {SEED_ID: deployed}),
        ["chain-signature-partial"], D_DEPLOYED, flags=["response", "deployed-js", "partial"],
        output={"level": 0, "verdicts": {SEED_ID: "partially-signed"}, "references": refs((SEED_ID, "partially-signed")),
                "unsigned": {SEED_ID: cl.deployed_unsigned(json.loads(render(deployed)), "/chains/" + SEED_ID)}})
    bad("response-too-many-chains", "A response with 1025 envelopes is over the bound.", ["CHAIN-001", "CHAIN-018"],
        json.dumps({"answer": "", "chains": {"%016x" % i: {} for i in range(1025)}}),
        ["schema-violation", "chain-answer-unreferenced"],
        hand("CHAIN-001: at most 1024; the empty answer cites nothing (CHAIN-018)"), flags=["response", "structure"])
    at_bound = "".join("GPT-4 [ce8a...]. " for _ in range(1023))
    over_bound = at_bound + "GPT-4 [ce8a...]. "
    bad("response-findings-at-bound", "1024 claim references, 1023 of them unresolved: every one is listed, nothing is elided.",
        ["CHAIN-011"], resp("The Transformer [%s]. %s" % (SEED_ID, at_bound), {SEED_ID: first}),
        ["chain-ref-unresolved"], hand("CHAIN-011: at most 1024 claim references are listed; 1 + 1023 = 1024"),
        warnings=[], flags=["response", "reference", boundary("answer-findings", "inside")],
        output={"level": 0, "verdicts": {SEED_ID: "verified"},
                "references": refs((SEED_ID, "verified"), *[("ce8a...", "unverified")] * 1023)})
    bad("response-findings-over-bound", "1025 claim references: every one is judged (1024 unresolved), the first 1024 are listed and the report says one was left out.",
        ["CHAIN-011"], resp("The Transformer [%s]. %s" % (SEED_ID, over_bound), {SEED_ID: first}),
        ["chain-ref-unresolved"], hand("CHAIN-011: 1 + 1024 = 1025 claim references, one more than the 1024 listed"),
        warnings=["chain-answer-findings-elided"], flags=["response", "reference", boundary("answer-findings", "outside")],
        output={"level": 0, "verdicts": {SEED_ID: "verified"},
                "references": refs((SEED_ID, "verified"), *[("ce8a...", "unverified")] * 1023)})
    add("response-findings-elided-verifies", "1025 footnotes and one verified reference: the text items past the 1024 listed are counted, and the answer still verifies.",
        ["CHAIN-011", "CHAIN-019"], resp("The Transformer [%s]. %s" % (SEED_ID, "Note [1]. " * 1025), {SEED_ID: first}),
        "valid", warnings=["chain-bracket-not-reference", "chain-answer-findings-elided"],
        output={"level": 1, "signing_inputs": {SEED_ID: "seed-python"}, "verdicts": {SEED_ID: "verified"},
                "references": refs((SEED_ID, "verified"))},
        d=hand("CHAIN-011: 1025 text items, one more than the 1024 listed; CHAIN-019 warnings only"),
        flags=["response", "reference", "warning"])
    bad("response-unknown-member", "A response member without x- prefix.", ["CHAIN-001"],
        {"answer": good_answer, "chains": {SEED_ID: first, sid: second}, "model": "x"}, ["unknown-member"],
        hand("CHAIN-001"), flags=["response", "structure"])
    bad("response-chains-array", "chains must be an object.", ["CHAIN-001", "CHAIN-018"], {"answer": "no references", "chains": [first]},
        ["schema-violation", "chain-answer-unreferenced"], hand("CHAIN-001; the answer cites nothing (CHAIN-018)"),
        flags=["response", "structure"])
    return out


# ---- chain-verify, Level 2 ----

def stored(status, body=b"", headers=None):
    h = [["content-type", "text/html; charset=utf-8"]] if headers is None else headers
    return {"status": status, "headers": h, "body_base64": b64(body)}


def page(claim_id):
    return stored(200, ("<html><body><h1>SourceScore Claim %s</h1></body></html>" % claim_id).encode())


def verify_l2_cases():
    out = []
    src0 = "https://arxiv.org/abs/1706.03762"
    src1 = "https://papers.nips.cc/paper/2017/hash/..."

    def res(**over):
        r = {CANONICAL: page(SEED_ID), src0: stored(200, b"arxiv"), src1: stored(200, b"nips")}
        for k, v in over.items():
            url = {"canonical": CANONICAL, "src0": src0, "src1": src1}[k]
            if v is None:
                r.pop(url)
            else:
                r[url] = v
        return r

    def add(cid, desc, reqs, doc, resources, result, errors=None, warnings=None, output=None, d=None, flags=(),
            **inputs):
        out.append(case("chain-l2-verify-" + cid, desc, list(reqs), 2,
                        verify_input(doc, level=2, resources=resources, **inputs), result, errors=errors,
                        warnings=warnings, output=output, derivation_=d, flags=list(flags)))

    full = {"level": 2, "signing_inputs": {SEED_ID: "seed-python"}, "verdicts": {SEED_ID: "verified"}}
    add("seed-example", "The seed's example at Level 2: the canonical page shows the id and the first source answers.",
        ["CHAIN-012", "CHAIN-013"], seed_envelope(), res(), "valid", warnings=[], output=full, d=D_SEED,
        flags=["seed-example", "fetch"])
    add("first-source-down", "The first source answers 404, the second 200: a source is reachable.", ["CHAIN-013"],
        seed_envelope(), res(src0=stored(404)), "valid", warnings=[], output=full, d=hand("any() over the sources"),
        flags=["fetch"])
    add("source-204", "A source answering 204 No Content is reachable (any 2xx).", ["CHAIN-013"], seed_envelope(),
        res(src0=stored(204)), "valid", warnings=[], output=full, d=hand("FETCH-007: any 2xx"), flags=["fetch"])
    add("source-redirect", "A source redirecting to a page that answers 200 is reachable.", ["CHAIN-013"], seed_envelope(),
        dict(res(src0=stored(301, headers=[["location", "https://arxiv.org/abs/1706.03762v7"]])),
             **{"https://arxiv.org/abs/1706.03762v7": stored(200, b"v7")}), "valid", warnings=[], output=full,
        d=hand("FETCH-005: redirects are followed"), flags=["fetch"])
    add("no-source-reachable", "Every source fails: one 404, one not recorded.", ["CHAIN-013"], seed_envelope(),
        res(src0=stored(404), src1=None), "invalid",
        errors=["chain-sources-unreachable", "fetch-http-status", "fetch-not-in-snapshot"],
        output={"level": 1, "verdicts": {SEED_ID: "unverified"}},
        d=hand("CHAIN-013 and reporting rule 4; Level 1 holds"), flags=["fetch"])
    add("source-gzip", "The only reachable source is served with a content coding: it fails the fetch.", ["CHAIN-013"],
        seed_envelope(), res(src0=stored(200, b"x", [["content-encoding", "gzip"]]), src1=stored(500)), "invalid",
        errors=["chain-sources-unreachable", "fetch-content-encoding", "fetch-http-status"],
        d=hand("FETCH-006"), flags=["fetch"])
    add("canonical-404", "The canonical page answers 404.", ["CHAIN-012"], seed_envelope(),
        res(canonical=stored(404)), "invalid", errors=["chain-canonical-fetch-failed", "fetch-http-status"],
        d=hand("CHAIN-012: status 200"), flags=["fetch"])
    add("canonical-missing", "The canonical page is not recorded: the fetch fails.", ["CHAIN-012"], seed_envelope(),
        res(canonical=None), "invalid", errors=["chain-canonical-fetch-failed", "fetch-not-in-snapshot"],
        d=hand("FETCH-008"), flags=["fetch"])
    add("canonical-without-id", "The canonical page loads but does not show the claim id.", ["CHAIN-012"],
        seed_envelope(), res(canonical=page("ad17e76a8baad7a2")), "invalid", errors=["chain-canonical-id-absent"],
        d=hand("the page shows ad17e76a8baad7a2, not ad17e76a8baad7a1"), flags=["fetch"])
    add("canonical-201", "The canonical page answers 201: a GET needs 200.", ["CHAIN-012"], seed_envelope(),
        res(canonical=stored(201, b"ad17e76a8baad7a1")), "invalid",
        errors=["chain-canonical-fetch-failed", "fetch-http-status"], d=hand("FETCH-007"), flags=["fetch"])
    tampered = seed_envelope()
    tampered["claim"]["statement"] = "edited"
    add("tampered-online-ok", "Level 2 checks pass but the envelope was edited: Level 0.", ["CHAIN-007", "CHAIN-012"],
        tampered, res(), "invalid", errors=["chain-signature-invalid"], d=hand("Level 1 fails, so Level 0"),
        output={"level": 0, "verdicts": {SEED_ID: "tampered"}}, flags=["fetch", "tampered"])
    env = producer_envelope()
    env["claim"]["sources"][0]["url"] = "https://attacker.example/paper"
    swapped = {CANONICAL: page(SEED_ID), "https://attacker.example/paper": stored(200, b"fake")}
    add("deployed-js-source-swapped", "Under the deployed input a swapped source URL pointing at a reachable page leaves the signature matching: partially signed, Level 0, whatever the online checks find.",
        ["CHAIN-013", "CHAIN-014"], env, swapped, "invalid", errors=["chain-signature-partial"], warnings=[],
        output={"level": 0, "signing_inputs": {SEED_ID: "deployed-js"}, "verdicts": {SEED_ID: "partially-signed"},
                "unsigned": unsigned_of(env)},
        d=D_DEPLOYED, flags=["deployed-js", "fetch", "tampered", "partial"])
    add("deployed-js-source-swapped-accepted", "Accepted on request, the swapped source reaches Level 2 but the verdict is partially-signed and its URL is listed as unsigned: never verified.",
        ["CHAIN-013", "CHAIN-015"], env, swapped, "valid", warnings=["chain-signature-partial-accepted"],
        output={"level": 2, "signing_inputs": {SEED_ID: "deployed-js"}, "verdicts": {SEED_ID: "partially-signed"},
                "unsigned": unsigned_of(env)},
        d=D_DEPLOYED, flags=["deployed-js", "fetch", "tampered", "partial", "warning"], accept_partial=True)
    c = seed_claim()
    other = "https://cdn.example.net/claims/%s/" % SEED_ID
    env = sign(envelope(c, signer="sourcescore-hmac-v0", canonical=other,
                        cited_as="SourceScore Claim %s %s" % (SEED_ID, other)))
    add("canonical-unbound-non-did", "A signer id that is not a did:web names no host: the canonical page shows the id, but the check is reported as not bound to the signer.",
        ["CHAIN-020", "CHAIN-012"], env, dict(res(canonical=None), **{other: page(SEED_ID)}), "valid",
        warnings=["chain-canonical-unbound"], output={"level": 2, "verdicts": {SEED_ID: "verified"}},
        d=hand("CHAIN-020: sourcescore-hmac-v0 is not a did:web DID"), flags=["fetch", "trust", "warning"],
        secrets={"sourcescore-hmac-v0": [SECRET]})
    env = sign(envelope(seed_claim(), signer="did:web:"))
    add("canonical-unbound-did-web-empty-domain", "signedBy is `did:web:` with an empty domain: it names no host, so the canonical URL cannot be on it (CHAIN-004) and the canonical check is not bound to the signer (CHAIN-020), although the seed-python signature covers signedBy.",
        ["CHAIN-020", "CHAIN-004"], env, res(), "invalid", errors=["chain-canonical-origin-mismatch"],
        warnings=["chain-canonical-unbound"],
        d=hand("the domain of did:web: is empty: no host name; sourcescore.org != ''"), flags=["fetch", "trust", "warning"],
        secrets={"did:web:": [SECRET]})
    return out


def check_node():
    """Recomputes every deployed-js payload and claim id with node.js."""
    program = r"""
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
const crypto = require('crypto');
for (const line of lines) {
  const [kind, input] = JSON.parse(line);
  if (kind === 'id') {
    const text = input.map(p => p.trim().toLowerCase()).join('|');
    console.log(JSON.stringify(crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)));
  } else {
    const claim = JSON.parse(input).claim;
    const payload = {
      id: claim.id, vertical: claim.vertical, subject: claim.subject, predicate: claim.predicate,
      object: claim.object, statement: claim.statement, confidence: claim.confidence,
      sources: claim.sources.map((s) => ({ url: s.url, title: s.title, publisher: s.publisher,
        publishedDate: s.publishedDate ?? null, type: s.type })),
      publishedAt: claim.publishedAt, methodologyVersion: claim.methodologyVersion,
    };
    console.log(JSON.stringify(JSON.stringify(payload, Object.keys(payload).sort())));
  }
}
"""
    feed = "".join(json.dumps([k, i]) + "\n" for k, i, _ in NODE_CHECKS)
    res = subprocess.run(["node", "-e", program], input=feed, capture_output=True, text=True, check=True)
    got = [json.loads(x) for x in res.stdout.split("\n") if x]
    assert len(got) == len(NODE_CHECKS), (len(got), len(NODE_CHECKS))
    for (kind, _, want), have in zip(NODE_CHECKS, got):
        assert want == have, (kind, want, have)
    print("node check: %d deployed-js payloads and claim ids equal" % len(got), file=sys.stderr)


def main():
    write("chain/level1/claim-id.json", "chain", "chain-claim-id",
          "The content-addressed claim id of CHAIN-002.", claim_id_cases(), FLAGS,
          attribution="The example claim is seed 004's (SourceScore, 'Citation chains').")
    write("chain/level1/signing-input.json", "chain", "chain-signing-input",
          "The seed-python and deployed-js signing inputs of CHAIN-006.", signing_input_cases(), FLAGS)
    write("chain/level1/verify.json", "chain", "chain-verify",
          "Chain envelopes and responses, Level 1 (offline): CHAIN-001 to CHAIN-011, CHAIN-014 to CHAIN-019.",
          verify_l1_cases(), FLAGS)
    write("chain/level2/verify.json", "chain", "chain-verify",
          "Chain envelopes, Level 2 (canonical URL and sources from stored responses): CHAIN-012, CHAIN-013, CHAIN-020.",
          verify_l2_cases(), FLAGS)
    if "--check-node" in sys.argv[1:]:
        check_node()


if __name__ == "__main__":
    main()
