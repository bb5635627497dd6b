#!/usr/bin/env python3
"""Generates vectors/canon/jcs.json, vectors/canon/hash-bytes.json and
vectors/canon/hash-aef-text.json.

Independent derivation, standard library only; citeproof is never called:
- jcs.json: RFC 8785 test data (published: the RFC text and the reference implementation's
  test files, read from crates/citeproof-model/tests/data/rfc8785/, see its README for origin
  and license) and hand-derived cases whose expected canonical text is typed below. The hand
  number cases are cross-checked against an ECMA-262 Number::toString (common_json.py) on top of
  Python's shortest round-trip repr (the check guards against typing mistakes; the value in
  the file is the hand-typed one).
- hash-*.json: expected digests computed with Python hashlib. AEF §5 text normalization
  (UTF-8 decode, CRLF/CR -> LF, strip one trailing LF) is implemented below from the spec text.

Run: python3 vectors/tools/gen_canon.py
"""

import hashlib
import os
import struct

from common_json import es_number
from vectorlib import REPO, b64, boundary, case, derivation, write

RFC = os.path.join(REPO, "crates/citeproof-model/tests/data/rfc8785")

# ---------------------------------------------------------------------------------------------
# Independent helpers (checks only; es_number is ECMA-262 Number::toString from common_json)


def hex_double(h: str) -> float:
    return struct.unpack(">d", bytes.fromhex(h))[0]


# ---------------------------------------------------------------------------------------------
# jcs.json

JCS_FLAGS = {
    "rfc8785-testdata": "Input and expected output are published RFC 8785 test data.",
    "whitespace": "Insignificant whitespace is removed.",
    "member-sorting": "Members are sorted by the UTF-16 code units of their names (RFC 8785 §3.2.3).",
    "utf16-order": "UTF-16 code-unit order differs from code-point order for these names.",
    "string-escaping": "Strings use the minimal JCS escapes (RFC 8785 §3.2.2.2).",
    "no-normalization": "No Unicode normalization is applied (RFC 8785 §3.1).",
    "number-formatting": "Numbers use ECMAScript Number::toString (RFC 8785 §3.2.2.3).",
    "number-precision": "The number has more precision than a double; it is rounded to the nearest double.",
    "number-underflow": "The number underflows to zero, which profile JSON-002 accepts.",
    "top-level-scalar": "The JSON text is a single scalar value (RFC 8785 canonicalizes any JSON value).",
    "depth-limit": "Nesting at or just beyond the 128-level limit of profile JSON-001.",
    "duplicate-member": "An object has two members with equal names after unescaping (I-JSON, RFC 7493 §2.3).",
    "lone-surrogate": "A string holds an unpaired surrogate escape (I-JSON, RFC 7493 §2.1).",
    "noncharacter": "A string holds a Unicode noncharacter, rejected by profile JSON-002.",
    "number-range": "A number overflows IEEE 754 double (I-JSON, RFC 7493 §2.2).",
    "invalid-utf8": "The input bytes are not well-formed UTF-8 (input given as base64).",
    "syntax": "The input is not RFC 8259 JSON.",
    "bom": "The input starts with a byte order mark, rejected by profile JSON-001.",
}

PUBLISHED_RFC = "RFC 8785 (JCS)"
CYBERPHONE = ("cyberphone/json-canonicalization testdata (RFC 8785 reference implementation, "
              "Apache-2.0), commit 19d51d7fe467d4706a3ff08adf8a748f29fc21e0")


def read(rel: str) -> bytes:
    with open(os.path.join(RFC, rel), "rb") as f:
        return f.read()


def jcs_cases():
    cases = []
    R_VALID = ["CANON-001"]

    # -- published: the reference implementation's input/output files
    for name in ["arrays", "french", "structures", "unicode", "values", "weird"]:
        inp = read(f"cyberphone/input/{name}.json").decode("utf-8")
        out = read(f"cyberphone/output/{name}.json").decode("utf-8")
        cases.append(case(
            f"canon-jcs-rfc8785-testdata-{name}",
            f"RFC 8785 reference test file `{name}.json`: canonical form of the input file.",
            R_VALID + ["JSON-002"] if name in ("values", "weird") else R_VALID, 0,
            {"json": inp}, "valid", output={"canonical": out},
            derivation_=derivation("published", f"{CYBERPHONE}: testdata/input/{name}.json -> testdata/output/{name}.json"),
            flags=["rfc8785-testdata"]))

    # -- published: RFC 8785 §3.2.2 sample and §3.2.4 bytes
    inp = read("rfc/section-3.2.2-input.json").decode("utf-8")
    out = bytes.fromhex(read("rfc/section-3.2.4-output.hex").decode("ascii").replace(" ", "").replace("\n", "")).decode("utf-8")
    cases.append(case(
        "canon-jcs-rfc8785-section-3-2-4",
        "The sample object of RFC 8785 §3.2.2 and its canonical UTF-8 bytes of §3.2.4.",
        R_VALID, 0, {"json": inp}, "valid", output={"canonical": out},
        derivation_=derivation("published", f"{PUBLISHED_RFC} §3.2.2 (input) and §3.2.4 (hex of the output)"),
        flags=["rfc8785-testdata", "number-formatting", "string-escaping"]))

    # -- published order, hand-written text: RFC 8785 §3.2.3 sorting example
    inp = read("rfc/section-3.2.3-sorting-input.json").decode("utf-8")
    order = read("rfc/section-3.2.3-sorting-order.txt").decode("utf-8").splitlines()
    keys = {"Carriage Return": "\\r", "One": "1", "Control": "\u0080", "Latin Small Letter O With Diaeresis": "\u00f6",
            "Euro Sign": "\u20ac", "Emoji: Grinning Face": "\U0001F600", "Hebrew Letter Dalet With Dagesh": "\ufb33"}
    out = "{" + ",".join(f'"{keys[v]}":"{v}"' for v in order) + "}"
    cases.append(case(
        "canon-jcs-rfc8785-section-3-2-3-sorting",
        "RFC 8785 §3.2.3 sorting example: members in UTF-16 code-unit order of their names.",
        R_VALID, 0, {"json": inp}, "valid", output={"canonical": out},
        derivation_=derivation("published", f"{PUBLISHED_RFC} §3.2.3: input and expected member order are published; "
                               "the canonical text follows from that order and the §3.2.2.2 escaping (\\r short form, others raw)"),
        flags=["rfc8785-testdata", "member-sorting", "utf16-order"]))

    # -- published: RFC 8785 Appendix B number table (the NaN and Infinity rows have no JSON form)
    def published_number(cid, desc, h, rep, detail):
        """The double with IEEE 754 bits `h`, as an array of one number written with 17 significant
        digits (parses back to exactly this double), canonicalizes to [rep]."""
        x = hex_double(h)
        text = "%.17e" % x
        assert float(text) == x or (x == 0 and float(text) == 0)
        assert es_number(x) == rep, (h, rep, es_number(x))
        cases.append(case(
            cid, desc, R_VALID, 0, {"json": f"[{text}]"}, "valid", output={"canonical": f"[{rep}]"},
            derivation_=derivation("published", detail), flags=["rfc8785-testdata", "number-formatting"]))

    for line in read("rfc/appendix-b.csv").decode("ascii").splitlines()[1:]:
        h, rep, comment = line.split(",", 2)
        if not rep:
            continue
        published_number(
            f"canon-jcs-rfc8785-appendix-b-{h}",
            f"RFC 8785 Appendix B number {h} ({comment or rep}), written with 17 significant digits in an array.",
            h, rep, f"{PUBLISHED_RFC} Appendix B: IEEE 754 {h} -> {rep}; "
                    "the input is that double printed with %.17e (exact round trip)")

    # -- published: sample lines of the reference number test file
    for h, rep in [("4340000000000001", "9007199254740994"), ("4340000000000002", "9007199254740996")]:
        published_number(
            f"canon-jcs-es6-sample-{h}",
            f"Sample line of the RFC 8785 reference number test file: IEEE 754 {h} serializes as {rep}.",
            h, rep, f"{CYBERPHONE}: testdata/README.md sample lines of es6testfile100m")

    # -- hand-derived valid cases: (id, description, input, canonical, requirements, flags, working)
    # The requirements and flags shared by a class of valid cases.
    ESCAPING = [], ["string-escaping"]
    NUMBER_FORMAT = [], ["number-formatting"]
    SORTING = [], ["member-sorting"]
    hand_valid = [
        ("empty-object", "Empty object.", "{}", "{}", [], [], "nothing to change"),
        ("empty-array", "Empty array.", "[]", "[]", [], [], "nothing to change"),
        ("whitespace-removed", "All four RFC 8259 whitespace characters between tokens are removed.",
         " \t\r\n{ \"a\" :\t[ 1 ,\r\n2 ] }\n ", "{\"a\":[1,2]}", ["JSON-001"], ["whitespace"],
         "RFC 8785 §3.2.1: no whitespace between tokens"),
        ("whitespace-in-strings-kept", "Whitespace inside strings is data and is kept.",
         "[\" a  b \"]", "[\" a  b \"]", [], ["whitespace"], "only insignificant whitespace is removed"),
        ("nested", "Members are sorted at every depth; array order is kept.",
         "{\"b\":{\"d\":1,\"c\":[{\"f\":true,\"e\":null}]},\"a\":false}",
         "{\"a\":false,\"b\":{\"c\":[{\"e\":null,\"f\":true}],\"d\":1}}", *SORTING,
         "sort a<b, c<d, e<f; arrays untouched"),
        ("array-order-kept", "Array elements are never reordered.", "[3,1,2,\"b\",\"a\"]",
         "[3,1,2,\"b\",\"a\"]", [], [], "RFC 8785 §3.2.3 sorts object members only"),
        ("literals", "The literals true, false and null.", "[ true , false , null ]", "[true,false,null]",
         [], ["whitespace"], "literals are written as is"),
        ("scalar-string", "A top-level string.", "\"abc\"", "\"abc\"", [], ["top-level-scalar"], "unchanged"),
        ("scalar-number", "A top-level number with surrounding whitespace.", " 42 ", "42", [],
         ["top-level-scalar", "whitespace"], "whitespace removed"),
        ("scalar-null", "A top-level null.", "null", "null", [], ["top-level-scalar"], "unchanged"),
        ("depth-128", "128 nested arrays: exactly the nesting limit of profile JSON-001.",
         "[" * 128 + "]" * 128, "[" * 128 + "]" * 128, ["JSON-001"], ["depth-limit", boundary("nesting-depth", "inside")],
         "a top-level [] is depth 1, so 128 levels are accepted"),
        ("sort-ascii", "Names sorted by code unit: digits < uppercase < underscore < lowercase.",
         "{\"b\":1,\"a\":2,\"A\":3,\"_\":4,\"1\":5}", "{\"1\":5,\"A\":3,\"_\":4,\"a\":2,\"b\":1}", [],
         ["member-sorting"], "0x31 < 0x41 < 0x5F < 0x61 < 0x62"),
        ("sort-prefix", "A name sorts before every longer name it is a prefix of; the empty name first.",
         "{\"aa\":1,\"a\":2,\"ab\":3,\"\":4}", "{\"\":4,\"a\":2,\"aa\":1,\"ab\":3}", *SORTING,
         "lexicographic order of code-unit sequences"),
        ("sort-latin1", "A non-ASCII name sorts after ASCII names.", "{\"\u00e9\":1,\"e\":2,\"z\":3}",
         "{\"e\":2,\"z\":3,\"\u00e9\":1}", *SORTING, "0x65 < 0x7A < 0xE9"),
        ("sort-utf16-supplementary", "U+10000 (UTF-16 D800 DC00) sorts before U+E000, unlike code-point order.",
         "{\"\\ue000\":1,\"\\ud800\\udc00\":2}", "{\"\U00010000\":2,\"\ue000\":1}", [],
         ["member-sorting", "utf16-order"], "UTF-16: 0xD800 < 0xE000, though U+10000 > U+E000"),
        ("sort-utf16-emoji", "U+1F600 (UTF-16 D83D DE00) sorts before U+FFEE.",
         "{\"\uffee\":1,\"\U0001F600\":2}", "{\"\U0001F600\":2,\"\uffee\":1}", [],
         ["member-sorting", "utf16-order"], "UTF-16: 0xD83D < 0xFFEE"),
        ("sort-unescaped-names", "Names are sorted after unescaping: \\u0062 is b.",
         "{\"\\u0062\":1,\"a\":2}", "{\"a\":2,\"b\":1}", [], ["member-sorting", "string-escaping"],
         "\\u0062 = 'b' > 'a'; written unescaped"),
        ("case-distinct-names", "Names differing only in case are distinct members.",
         "{\"a\":1,\"A\":2}", "{\"A\":2,\"a\":1}", ["JSON-002"], ["member-sorting"], "0x41 < 0x61; no duplicate"),
        ("nfc-nfd-distinct-names", "A precomposed and a decomposed name are distinct (no normalization).",
         "{\"\\u00c5\":1,\"A\\u030a\":2}", "{\"A\u030a\":2,\"\u00c5\":1}", ["JSON-002"],
         ["member-sorting", "no-normalization"], "names compared by code units: 0x41 < 0xC5; not duplicates"),
        ("escape-controls-hex", "Control characters without a short escape use lowercase \\u00xx.",
         "[\"\\u0000\\u0001\\u001F\\u000B\"]", "[\"\\u0000\\u0001\\u001f\\u000b\"]", *ESCAPING,
         "RFC 8785 §3.2.2.2: \\u00 + two lowercase hex digits"),
        ("escape-controls-short", "Backspace, tab, newline, form feed and carriage return use their short escapes.",
         "[\"\\u0008\\u0009\\u000a\\u000c\\u000d\"]", "[\"\\b\\t\\n\\f\\r\"]", *ESCAPING,
         "RFC 8785 §3.2.2.2 short forms"),
        ("escape-short-forms-read", "Every short escape of the input is read, and written back in the same short form.",
         "[\"\\b\\f\\n\\r\\t\\\"\\\\\"]", "[\"\\b\\f\\n\\r\\t\\\"\\\\\"]", *ESCAPING,
         "RFC 8259 §7 escapes \\b \\f \\n \\r \\t \\\" \\\\ denote U+0008, U+000C, U+000A, U+000D, U+0009, quote and backslash; "
         "RFC 8785 §3.2.2.2 writes them in these same short forms"),
        ("escape-quote-backslash-solidus", "Quote and backslash stay escaped; an escaped solidus is written raw.",
         "[\"\\\"\\\\\\/\"]", "[\"\\\"\\\\/\"]", *ESCAPING, "only \" and \\ are escaped among printable ASCII"),
        ("escape-nonascii-raw", "Escaped non-ASCII characters are written as raw UTF-8.",
         "[\"\\u0041\\u00e9\\u20ac\\uD83D\\uDE00\"]", "[\"A\u00e9\u20ac\U0001F600\"]", *ESCAPING,
         "characters >= U+0020 other than \" and \\ are not escaped"),
        ("escape-del-c1-separators", "DEL, U+0080 and the line/paragraph separators are not escaped.",
         "[\"\\u007f\\u0080\\u2028\\u2029\"]", "[\"\u007f\u0080\u2028\u2029\"]", *ESCAPING,
         "only U+0000-U+001F are control escapes in JCS"),
        ("raw-nonascii-kept", "Raw non-ASCII input is kept as is.", "[\"\u00fc\u4e2d\"]", "[\"\u00fc\u4e2d\"]",
         *ESCAPING, "unchanged"),
        ("no-normalization-values", "Decomposed and precomposed strings are both kept as given.",
         "[\"A\\u030a\",\"\\u00c5\"]", "[\"A\u030a\",\"\u00c5\"]", [], ["no-normalization"],
         "RFC 8785 §3.1: no Unicode normalization"),
        ("escaped-name", "A name that needs escaping is escaped like any string.", "{\"\\n\":1}",
         "{\"\\n\":1}", *ESCAPING, "newline -> \\n"),
        ("noncharacter-boundaries", "U+FDCF, U+FDF0 and U+FFFD are not noncharacters.",
         "[\"\\ufdcf\\ufdf0\\ufffd\"]", "[\"\ufdcf\ufdf0\ufffd\"]", ["JSON-002"], ["noncharacter", "string-escaping"],
         "noncharacters are U+FDD0-U+FDEF and U+xFFFE/U+xFFFF only"),
        ("num-fraction-zero", "Trailing fraction zeros and negative zero.", "[1.0,1.50,-0.0,0e10,-0]",
         "[1,1.5,0,0,0]", *NUMBER_FORMAT, "shortest form; -0 is written 0"),
        ("num-exponents", "Exponent forms become plain decimals where ECMAScript writes them so.",
         "[1e2,1E+2,100e-2,1e-2,5E0]", "[100,100,1,0.01,5]", *NUMBER_FORMAT,
         "values 100, 100, 1, 0.01, 5 have n <= 21"),
        ("num-21-digits", "1e20 has 21 digits and is written in full; 1e21 switches to exponent form.",
         "[1e20,1e21,123e20]", "[100000000000000000000,1e+21,1.23e+22]", *NUMBER_FORMAT,
         "Number::toString: k<=n<=21 fixed, otherwise d.ddde+n"),
        ("num-small", "Numbers down to 1e-6 are fixed, smaller ones use exponent form.",
         "[0.000001,0.0000001,1.5e-7,12.5e-7]", "[0.000001,1e-7,1.5e-7,0.00000125]", *NUMBER_FORMAT,
         "Number::toString: -6 < n <= 0 fixed (0.000001: n=-5), 1e-7: n=-6 -> exponent"),
        ("num-shortest-roundtrip", "Shortest round-trip digits.", "[0.1,0.2,0.30000000000000004,4.35]",
         "[0.1,0.2,0.30000000000000004,4.35]", *NUMBER_FORMAT,
         "each is the shortest decimal that reads back as the same double"),
        ("num-extremes", "Smallest subnormal and largest finite double.", "[5e-324,1.7976931348623157e308]",
         "[5e-324,1.7976931348623157e+308]", *NUMBER_FORMAT, "k=1 -> 5e-324; exponent sign always written"),
        ("num-large-negative", "A large negative number in exponent form.", "[-1.5e300,-1e7,12345678.9]",
         "[-1.5e+300,-10000000,12345678.9]", *NUMBER_FORMAT, "sign then Number::toString of the magnitude"),
        ("num-beyond-2-53", "2^53+1 is not a double: it rounds to 2^53 (ties to even).",
         "[9007199254740993,-9007199254740993]", "[9007199254740992,-9007199254740992]", ["JSON-002"],
         ["number-formatting", "number-precision"], "2^53+1 is halfway between 2^53 and 2^53+2; ties-to-even picks 2^53"),
        ("num-u64-max", "2^64-1 reads as the double 2^64 and prints with trailing zeros.",
         "[18446744073709551615]", "[18446744073709552000]", ["JSON-002"], ["number-formatting", "number-precision"],
         "nearest double 18446744073709551616; shortest digits 18446744073709552, n=20 <= 21"),
        ("num-i64-min", "-2^63 prints with its 16 shortest digits and trailing zeros.",
         "[-9223372036854775808]", "[-9223372036854776000]", ["JSON-002"], ["number-formatting", "number-precision"],
         "-2^63 is a double; shortest digits 9223372036854776, n=19"),
        ("num-long-mantissa", "More than 17 significant digits are rounded to the nearest double.",
         "[0.1000000000000000055511151231257827]", "[0.1]", ["JSON-002"], ["number-formatting", "number-precision"],
         "the input is the exact value of the double nearest 0.1"),
        ("num-underflow", "A number below the smallest subnormal underflows to zero.", "[1e-400,-1e-400]",
         "[0,0]", ["JSON-002"], ["number-formatting", "number-underflow"], "profile JSON-002: underflow reads as zero"),
    ]
    for name, desc, inp, out, reqs, flags, working in hand_valid:
        cases.append(case(
            f"canon-jcs-{name}", desc, R_VALID + reqs, 0, {"json": inp}, "valid",
            output={"canonical": out},
            derivation_=derivation("hand", f"RFC 8785: {working}"), flags=flags))

    # check the hand-typed number outputs with the independent ECMA-262 formatter
    for name, _, inp, out, _, flags, _ in hand_valid:
        if "number-formatting" in flags:
            values = [float(v) for v in inp.strip("[]").split(",")]
            assert "[" + ",".join(es_number(v) for v in values) + "]" == out, name

    # -- hand-derived invalid cases: (id, description, input, codes, requirements, flags)
    J1, J2 = "JSON-001", "JSON-002"
    # The error codes, requirements and flags of each class of invalid input.
    DUPLICATE = ["json-duplicate-member"], [J2], ["duplicate-member"]
    SURROGATE = ["json-lone-surrogate"], [J2], ["lone-surrogate"]
    NONCHARACTER = ["json-noncharacter"], [J2], ["noncharacter"]
    OVERFLOW = ["json-number-out-of-range"], [J2], ["number-range"]
    SYNTAX = ["json-syntax"], [J1], ["syntax"]
    INVALID_UTF8 = ["json-invalid-utf8"], [J1], ["invalid-utf8"]
    hand_invalid = [
        ("dup-member", "Two members named a.", "{\"a\":1,\"a\":2}", *DUPLICATE),
        ("dup-member-same-value", "Duplicate names are rejected even with equal values.", "{\"a\":1,\"a\":1}", *DUPLICATE),
        ("dup-member-escaped", "a and \\u0061 are the same name after unescaping.", "{\"a\":1,\"\\u0061\":2}", *DUPLICATE),
        ("dup-member-nonascii-escaped", "\u00e9 raw and \\u00e9 escaped are the same name.", "{\"\u00e9\":1,\"\\u00e9\":2}", *DUPLICATE),
        ("dup-member-nested", "A duplicate inside an array inside an object.", "{\"x\":[{\"k\":1,\"j\":2,\"k\":3}]}", *DUPLICATE),
        ("dup-member-empty-name", "Two members with the empty name.", "{\"\":1,\"\":2}", *DUPLICATE),
        # Large objects: a reader that indexes names once an object is big, or skips the search
        # while names arrive sorted, must still see a duplicate after the order breaks.
        ("dup-member-after-17-sorted", "17 members in ascending order, then a member out of order (a00), then a00 again.",
         "{" + ",".join('"a%02d":%d' % (i, i) for i in range(1, 18)) + ",\"a00\":0,\"a00\":1}", *DUPLICATE),
        ("dup-member-late-in-unsorted-object", "b and a (out of order), 16 more members, then x twice.",
         "{\"b\":0,\"a\":0," + ",".join('"c%02d":%d' % (i, i) for i in range(16)) + ",\"x\":1,\"x\":2}", *DUPLICATE),
        ("lone-high-surrogate", "A high surrogate escape without a low one.", "[\"\\ud800\"]", *SURROGATE),
        ("lone-low-surrogate", "A low surrogate escape without a high one.", "[\"\\udc00\"]", *SURROGATE),
        ("surrogates-reversed", "Low then high surrogate.", "[\"\\udc00\\ud800\"]", *SURROGATE),
        ("high-surrogate-then-bmp", "High surrogate followed by a non-surrogate escape.", "[\"\\ud800\\u0041\"]", *SURROGATE),
        ("high-surrogate-then-raw", "High surrogate followed by a raw character.", "[\"\\ud83dx\"]", *SURROGATE),
        ("high-surrogate-at-end", "High surrogate as the last character of a string.", "[\"a\\ud83d\"]", *SURROGATE),
        ("lone-surrogate-in-name", "A lone surrogate in a member name.", "{\"\\udfff\":1}", *SURROGATE),
        ("noncharacter-fdd0", "Escaped U+FDD0.", "[\"\\ufdd0\"]", *NONCHARACTER),
        ("noncharacter-fdef", "Escaped U+FDEF.", "[\"\\ufdef\"]", *NONCHARACTER),
        ("noncharacter-fffe", "Escaped U+FFFE.", "[\"\\ufffe\"]", *NONCHARACTER),
        ("noncharacter-ffff", "Escaped U+FFFF.", "[\"\\uffff\"]", *NONCHARACTER),
        ("noncharacter-1fffe", "Escaped U+1FFFE as a surrogate pair.", "[\"\\ud83f\\udffe\"]", *NONCHARACTER),
        ("noncharacter-10ffff", "Escaped U+10FFFF as a surrogate pair.", "[\"\\udbff\\udfff\"]", *NONCHARACTER),
        ("noncharacter-in-name", "A noncharacter in a member name.", "{\"\\ufdd5\":1}", *NONCHARACTER),
        ("num-overflow", "1e400 overflows a double.", "[1e400]", *OVERFLOW),
        ("num-overflow-negative", "-1e400 overflows a double.", "[-1e400]", *OVERFLOW),
        ("num-overflow-1-8e308", "1.8e308 is above the largest double.", "{\"a\":1.8e308}", *OVERFLOW),
        ("num-overflow-long-integer", "An integer of 310 digits overflows a double.", "[1" + "0" * 309 + "]", *OVERFLOW),
        ("nan-literal", "NaN is not JSON.", "[NaN]", ["json-syntax"], [J1], ["syntax", "number-range"]),
        ("infinity-literal", "Infinity is not JSON.", "[Infinity]", ["json-syntax"], [J1], ["syntax", "number-range"]),
        ("negative-infinity-literal", "-Infinity is not JSON.", "[-Infinity]", ["json-syntax"], [J1], ["syntax", "number-range"]),
        ("trailing-comma-object", "Trailing comma in an object.", "{\"a\":1,}", *SYNTAX),
        ("trailing-comma-array", "Trailing comma in an array.", "[1,]", *SYNTAX),
        ("single-quotes", "Single-quoted strings.", "{'a':1}", *SYNTAX),
        ("missing-colon", "Member without a colon.", "{\"a\" 1}", *SYNTAX),
        ("missing-comma", "Array elements without a comma.", "[1 2]", *SYNTAX),
        ("leading-zero", "A number with a leading zero.", "[01]", *SYNTAX),
        ("leading-plus", "A number with a leading plus.", "[+1]", *SYNTAX),
        ("leading-dot", "A number starting with a dot.", "[.5]", *SYNTAX),
        ("trailing-dot", "A number ending with a dot.", "[1.]", *SYNTAX),
        ("empty-exponent", "An exponent without digits.", "[1e]", *SYNTAX),
        ("hex-number", "A hexadecimal number.", "[0x10]", *SYNTAX),
        ("invalid-escape", "\\x is not a JSON escape.", "[\"a\\xb\"]", *SYNTAX),
        ("short-unicode-escape", "\\u with three hex digits.", "[\"\\u12\"]", *SYNTAX),
        ("raw-tab-in-string", "An unescaped tab inside a string.", "[\"a\tb\"]", *SYNTAX),
        ("raw-newline-in-string", "An unescaped newline inside a string.", "[\"a\nb\"]", *SYNTAX),
        ("raw-tab-only-string", "A string holding nothing but an unescaped tab.", "[\"\t\"]", *SYNTAX),
        ("raw-control-only-string", "A string holding nothing but an unescaped U+0001.", "[\"\x01\"]", *SYNTAX),
        ("unterminated-string", "A string without its closing quote.", "[\"abc]", *SYNTAX),
        ("unclosed-array", "An array without its closing bracket.", "[1,2", *SYNTAX),
        ("unclosed-object", "An object without its closing brace.", "{\"a\":1", *SYNTAX),
        ("extra-bracket", "An extra closing bracket.", "[1]]", *SYNTAX),
        ("array-closed-by-brace", "An array closed by a brace.", "[1}", *SYNTAX),
        ("object-closed-by-bracket", "An object closed by a bracket.", "{\"a\":1]", *SYNTAX),
        ("trailing-garbage", "Text after the value.", "{\"a\":1}x", *SYNTAX),
        ("two-values", "Two top-level values.", "{\"a\":1}{\"b\":2}", *SYNTAX),
        ("empty-input", "Empty input.", "", *SYNTAX),
        ("whitespace-only", "Only whitespace.", " \n\t ", ["json-syntax"], [J1], ["syntax", "whitespace"]),
        ("comment", "A JavaScript comment.", "// c\n{}", *SYNTAX),
        ("uppercase-literal", "TRUE is not a literal.", "[TRUE]", *SYNTAX),
        ("truncated-literal", "tru is not a literal.", "[tru]", *SYNTAX),
        ("bom", "A UTF-8 byte order mark before the value.", "\ufeff{}", ["json-syntax"], [J1], ["bom"]),
        ("depth-129", "129 nested arrays: one level beyond the limit of profile JSON-001.",
         "[" * 129 + "]" * 129, ["json-too-large"], [J1], ["depth-limit", boundary("nesting-depth", "outside")]),
        ("depth-129-objects", "Objects and arrays nested 129 deep.", "{\"a\":" * 64 + "[" * 65 + "]" * 65 + "}" * 64,
         ["json-too-large"], [J1], ["depth-limit"]),
    ]
    for name, desc, inp, codes, reqs, flags in hand_invalid:
        cases.append(case(
            f"canon-jcs-{name}", desc, reqs + ["CANON-001"], 0, {"json": inp}, "invalid", errors=codes,
            derivation_=derivation("hand", "RFC 8259 grammar / RFC 7493 I-JSON / docs/PROFILE.md "
                                   f"{' and '.join(reqs)}: input without a canonical form"),
            flags=flags))

    # -- byte-level inputs (not valid UTF-8, or a raw noncharacter) as base64
    raw_invalid = [
        ("utf8-ff", "The byte 0xFF inside a string.", b"[\"\xff\"]", *INVALID_UTF8),
        ("utf8-truncated", "A two-byte sequence cut after its first byte.", b"[\"\xc3\"]", *INVALID_UTF8),
        ("utf8-overlong", "An overlong encoding of '/'.", b"[\"\xc0\xaf\"]", *INVALID_UTF8),
        ("utf8-encoded-surrogate", "A UTF-8-encoded surrogate (CESU-8 style).", b"[\"\xed\xa0\x80\"]", *INVALID_UTF8),
        ("utf8-above-10ffff", "A four-byte sequence above U+10FFFF.", b"[\"\xf4\x90\x80\x80\"]", *INVALID_UTF8),
        ("utf8-lone-continuation", "A continuation byte without a lead byte.", b"[\"a\x80\"]", *INVALID_UTF8),
        ("utf8-in-name", "Invalid UTF-8 in a member name.", b"{\"\xfe\":1}", *INVALID_UTF8),
        ("utf8-latin1", "Latin-1 text (0xE9 for e-acute) is not UTF-8.", b"[\"caf\xe9\"]", *INVALID_UTF8),
        ("utf16-input", "UTF-16LE encoded JSON is not UTF-8 JSON.", "[1]".encode("utf-16-le"), *SYNTAX),
        ("raw-noncharacter", "A raw (UTF-8 encoded) U+FDD0 in a string.", b"[\"\xef\xb7\x90\"]", *NONCHARACTER),
        ("raw-noncharacter-ffff", "A raw (UTF-8 encoded) U+FFFF in a string.", b"[\"\xef\xbf\xbf\"]", *NONCHARACTER),
        ("raw-noncharacter-after-text", "A raw U+FDD0 after eight ASCII characters of the same string.", b"[\"abcdefgh\xef\xb7\x90\"]",
         *NONCHARACTER),
    ]
    for name, desc, data, codes, reqs, flags in raw_invalid:
        cases.append(case(
            f"canon-jcs-{name}", desc, reqs + ["CANON-001"], 0, {"json_base64": b64(data)}, "invalid",
            errors=codes,
            derivation_=derivation("hand", f"RFC 3629 UTF-8 / docs/PROFILE.md {' and '.join(reqs)}: bytes without a canonical form"),
            flags=flags))

    # valid input given as base64: bytes are UTF-8, so the result is the same as the text form
    cases.append(case(
        "canon-jcs-base64-input-utf8", "The base64 input form with valid UTF-8 behaves like the text form.",
        ["CANON-001", "JSON-001"], 0, {"json_base64": b64("{\"b\":\"\u00e9\",\"a\":1}".encode("utf-8"))}, "valid",
        output={"canonical": "{\"a\":1,\"b\":\"\u00e9\"}"},
        derivation_=derivation("hand", "RFC 8785: members sorted a<b, e-acute written as raw UTF-8"),
        flags=["member-sorting"]))
    return cases


# ---------------------------------------------------------------------------------------------
# hash-bytes.json and hash-aef-text.json

def aef_normalize(data: bytes) -> bytes:
    """AEF v0.1 §5 steps 1-3, written from the spec text (and profile CANON-003 b)."""
    text = data.decode("utf-8")  # strict: raises on ill-formed UTF-8, including surrogates
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    return text.encode("utf-8")


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


HASH_FLAGS = {
    "fips-180": "The digest is also published in FIPS 180-2 / NIST examples.",
    "padding-boundary": "Length near a SHA-256 block or padding boundary (55, 56, 63, 64, 65 bytes).",
    "binary": "Bytes that are not text.",
    "line-endings": "CRLF or lone CR line endings.",
    "trailing-newline": "Trailing line feeds (exactly one is stripped by AEF §5).",
    "no-normalization": "No Unicode normalization and no BOM removal.",
    "invalid-utf8": "The bytes are not well-formed UTF-8.",
}

# Published digests (FIPS 180-2 Appendix B / NIST CSRC examples); checked against hashlib.
ABC = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
ABC448 = "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
EMPTY = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
MSG448 = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"


def hash_bytes_cases():
    assert sha(b"abc") == ABC and sha(MSG448) == ABC448 and sha(b"") == EMPTY
    tool = derivation("independent-tool", "python3 hashlib.sha256 over the decoded input bytes (vectors/tools/gen_canon.py)")
    items = [
        ("empty", "Empty input.", b"", ["fips-180"]),
        ("abc", "The FIPS 180-2 one-block message \"abc\".", b"abc", ["fips-180"]),
        ("fips-448-bit", "The FIPS 180-2 two-block 448-bit message.", MSG448, ["fips-180", "padding-boundary"]),
        ("crlf-not-normalized", "Raw hashing keeps CRLF: it differs from the hash of \"abc\".", b"abc\r\n", ["line-endings"]),
        ("trailing-newline-kept", "Raw hashing keeps a trailing LF.", b"abc\n", ["trailing-newline"]),
        ("bom-kept", "Raw hashing keeps a UTF-8 BOM.", b"\xef\xbb\xbfabc", ["no-normalization"]),
        ("invalid-utf8-ok", "Raw hashing accepts bytes that are not UTF-8.", b"\xff\xfe\x00abc\x80", ["binary", "invalid-utf8"]),
        ("all-bytes", "Every byte value 0x00-0xFF once, in order.", bytes(range(256)), ["binary"]),
        ("nul-bytes", "Eight NUL bytes.", b"\x00" * 8, ["binary"]),
        ("len-55", "55 bytes: the longest message with one-block padding.", b"a" * 55, ["padding-boundary"]),
        ("len-56", "56 bytes: the length field no longer fits, two blocks.", b"a" * 56, ["padding-boundary"]),
        ("len-63", "63 bytes.", b"a" * 63, ["padding-boundary"]),
        ("len-64", "64 bytes: exactly one block of data.", b"a" * 64, ["padding-boundary"]),
        ("len-65", "65 bytes.", b"a" * 65, ["padding-boundary"]),
        ("utf8-text", "UTF-8 text with multi-byte characters.", "caf\u00e9 \u20ac \U0001F600".encode("utf-8"), []),
        ("html-page", "A small HTML page as served.", b"<!doctype html>\n<html><body><p>Hello, world.</p></body></html>\n", []),
        ("json-body", "A JSON body: hashed as bytes, not canonicalized.", b"{ \"b\": 1, \"a\": 2 }", []),
        ("large", "4096 bytes of a repeating pattern.", bytes(i % 251 for i in range(4096)), ["binary"]),
    ]
    cases = []
    for name, desc, data, flags in items:
        cases.append(case(
            f"canon-hash-bytes-{name}", desc, ["CANON-003"], 0, {"data_base64": b64(data)}, "valid",
            output={"hash": sha(data)}, derivation_=tool, flags=flags))
    return cases


def hash_aef_text_cases():
    tool = derivation("independent-tool", "AEF §5 normalization implemented in vectors/tools/gen_canon.py from the spec text, then python3 hashlib.sha256")
    items = [
        ("abc", "Plain text without a newline.", b"abc", [], None),
        ("abc-lf", "One trailing LF is stripped: same hash as \"abc\".", b"abc\n", ["trailing-newline"], ABC),
        ("abc-crlf", "A trailing CRLF becomes LF and is stripped.", b"abc\r\n", ["trailing-newline", "line-endings"], ABC),
        ("abc-cr", "A trailing lone CR becomes LF and is stripped.", b"abc\r", ["trailing-newline", "line-endings"], ABC),
        ("two-trailing-lf", "Only one of two trailing LFs is stripped.", b"abc\n\n", ["trailing-newline"], None),
        ("mixed-endings", "CRLF, lone CR and LF all become LF.", b"a\r\nb\rc\nd", ["line-endings"], None),
        ("mixed-endings-trailing", "Mixed endings and a trailing CRLF.", b"a\r\nb\rc\n\r\n", ["line-endings", "trailing-newline"], None),
        ("lf-cr", "LF then CR is two line endings.", b"a\n\rb", ["line-endings"], None),
        ("cr-cr-lf", "CR then CRLF is two line endings.", b"a\r\r\nb", ["line-endings"], None),
        ("crlf-crlf-only", "Two CRLFs become two LFs; one is stripped.", b"\r\n\r\n", ["line-endings", "trailing-newline"], None),
        ("empty", "Empty text.", b"", [], EMPTY),
        ("lf-only", "A lone LF normalizes to the empty text.", b"\n", ["trailing-newline"], EMPTY),
        ("cr-only", "A lone CR normalizes to the empty text.", b"\r", ["trailing-newline", "line-endings"], EMPTY),
        ("leading-newline-kept", "Leading newlines are kept.", b"\n\nabc", [], None),
        ("inner-whitespace-kept", "Spaces and tabs are not touched.", b" a\tb  \n", [], None),
        ("bom-kept", "A leading BOM is kept (no BOM removal).", b"\xef\xbb\xbfabc", ["no-normalization"], None),
        ("nfd-kept", "Decomposed text is not normalized: differs from the precomposed form.", "A\u030a".encode("utf-8"), ["no-normalization"], None),
        ("nfc", "Precomposed form, for comparison with the decomposed case.", "\u00c5".encode("utf-8"), ["no-normalization"], None),
        ("multibyte", "Multi-byte UTF-8 characters.", "caf\u00e9 \u20ac \U0001F600\n".encode("utf-8"), [], None),
        ("u2028-not-newline", "U+2028 is not a line ending for AEF §5.", "a\u2028".encode("utf-8"), [], None),
        ("nel-not-newline", "U+0085 (NEL) is not a line ending for AEF §5.", "a\u0085".encode("utf-8"), [], None),
        ("multiline-paragraph", "A multi-line paragraph as served with CRLF.", b"## 3. The three pillars\r\n\r\n### 3.1 Declare\r\n", ["line-endings", "trailing-newline"], None),
    ]
    cases = []
    for name, desc, data, flags, published in items:
        h = sha(aef_normalize(data))
        if published:
            assert h == published, name
        cases.append(case(
            f"canon-hash-aef-text-{name}", desc, ["CANON-003"], 0, {"data_base64": b64(data)}, "valid",
            output={"hash": h}, derivation_=tool, flags=flags))
    bad = [
        ("invalid-ff", "The byte 0xFF is not UTF-8.", b"ab\xffc"),
        ("invalid-truncated", "A multi-byte sequence cut at the end.", b"caf\xc3"),
        ("invalid-overlong", "An overlong encoding of NUL.", b"a\xc0\x80b"),
        ("invalid-surrogate", "A UTF-8-encoded surrogate.", b"\xed\xb0\x80"),
        ("invalid-latin1", "Latin-1 text.", b"caf\xe9\n"),
        ("invalid-utf16", "UTF-16LE text with a BOM.", "abc".encode("utf-16")),
    ]
    for name, desc, data in bad:
        try:
            aef_normalize(data)
            raise AssertionError(f"{name} decoded")
        except UnicodeDecodeError:
            pass
        cases.append(case(
            f"canon-hash-aef-text-{name}", desc + " AEF §5 step 1 fails: no hash.", ["CANON-003"], 0,
            {"data_base64": b64(data)}, "invalid", errors=["canon-text-not-utf8"],
            derivation_=derivation("independent-tool", "python3 bytes.decode('utf-8') (strict) rejects the input"),
            flags=["invalid-utf8"]))
    return cases


if __name__ == "__main__":
    write("canon/jcs.json", "canon", "jcs-canonicalize",
          "RFC 8785 JSON Canonicalization Scheme over strict I-JSON input (profile JSON-001, JSON-002, CANON-001).",
          jcs_cases(), JCS_FLAGS,
          attribution="Cases canon-jcs-rfc8785-* and canon-jcs-es6-* use RFC 8785 (Copyright (c) 2020 IETF Trust and the "
                      "authors, IETF Trust Legal Provisions) and the test files of cyberphone/json-canonicalization "
                      "(Apache-2.0); see crates/citeproof-model/tests/data/rfc8785/README.md. Other cases: citeproof, "
                      "Apache-2.0 OR MIT.")
    hash_files = [
        ("hash-bytes", "SHA-256 of raw bytes written as sha256:<64 lowercase hex> (profile CANON-003 a).",
         hash_bytes_cases),
        ("hash-aef-text", "AEF v0.1 §5 text hash: UTF-8, CRLF/CR to LF, one trailing LF stripped, SHA-256 (profile CANON-003 b).",
         hash_aef_text_cases),
    ]
    for operation, description, cases in hash_files:
        write(f"canon/{operation}.json", "canon", operation, description, cases(), HASH_FLAGS)
