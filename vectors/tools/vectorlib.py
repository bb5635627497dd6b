"""Helpers shared by the vector generators: build cases and write vector files.

Standard library only. The generators never call citeproof: every expected value is either
copied from published data, typed in by hand (with the working in `derivation.detail`), or
computed here by an independent implementation written from the spec text (Python hashlib).
"""

import base64
import json
import re
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # vectors/
REPO = os.path.dirname(ROOT)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def derivation(kind: str, detail: str) -> dict:
    assert kind in ("published", "hand", "independent-tool"), kind
    return {"kind": kind, "detail": detail}


def case(id, description, requirements, level, input, result, errors=None, output=None,
         derivation_=None, flags=None, warnings=None, errors_match=None):
    """`warnings`: None leaves warnings unchecked; a list (possibly empty) is asserted exactly.
    `errors_match`: None (exact, the default) or "superset"."""
    expected = {"result": result}
    if errors:
        expected["errors"] = list(errors)
    if errors_match is not None:
        assert errors_match == "superset", errors_match
        expected["errors_match"] = errors_match
    if warnings is not None:
        expected["warnings"] = sorted(warnings)
    if output is not None:
        expected["output"] = output
    c = {
        "id": id,
        "description": description,
        "requirements": list(requirements),
        "level": level,
    }
    if flags:
        c["flags"] = list(flags)
    c["input"] = input
    c["expected"] = expected
    c["derivation"] = derivation_
    return c


def given(**members) -> dict:
    """The members whose value is given (not None), in the order named: the optional members
    of an input or an object."""
    return {k: v for k, v in members.items() if v is not None}


BOUNDARY_SIDES = {
    "inside": "just inside the boundary (the rule holds at its limit)",
    "outside": "just outside the boundary (one step past the limit: the rule fails)",
}


def boundary(name, side):
    """The flag of a case standing on one side of a boundary the profile states in a
    requirement's `Boundaries:` bullet (`cargo xtask conformance` requires both sides)."""
    assert side in BOUNDARY_SIDES, side
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name), name
    return f"boundary:{name}:{side}"


def _declared_flags(used, declared):
    declared = dict(declared or {})
    for f in used:
        m = re.fullmatch(r"boundary:([a-z0-9-]+):(inside|outside)", f)
        if m and f not in declared:
            declared[f] = f"The case stands {BOUNDARY_SIDES[m.group(2)]} `{m.group(1)}` of docs/PROFILE.md."
    return declared


def write(rel_path, spec, operation, description, cases, flags=None, attribution=None):
    doc = {"$schema": "../" * rel_path.count("/") + "../schemas/vector-file.schema.json",
           "spec": spec, "operation": operation, "description": description}
    if attribution:
        doc["attribution"] = attribution
    used = sorted({f for c in cases for f in c.get("flags", [])})
    declared = _declared_flags(used, flags)
    missing = [f for f in used if f not in declared]
    assert not missing, f"undeclared flags {missing}"
    doc["flags"] = {k: declared[k] for k in sorted(declared) if k in used}
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate ids"
    doc["cases"] = cases
    check_strings(doc)
    path = os.path.join(ROOT, rel_path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # ensure_ascii keeps the files plain ASCII: no editor or tool can change their meaning.
    text = json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)
    print(f"wrote vectors/{rel_path}: {len(cases)} cases")


def is_noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def check_strings(value, where="$"):
    """A vector file is itself strict I-JSON (profile JSON-002): no string in it may hold a
    noncharacter or a lone surrogate. Inputs that need them carry them as escapes inside a JSON
    text (`"\\ufdd0"` in the file) or as base64."""
    if isinstance(value, str):
        for ch in value:
            cp = ord(ch)
            assert not (0xD800 <= cp <= 0xDFFF), f"lone surrogate in {where}"
            assert not is_noncharacter(cp), f"noncharacter U+{cp:04X} in {where}"
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_strings(v, f"{where}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_strings(k, f"{where} key")
            check_strings(v, f"{where}.{k}")
