"""The ACA support check (docs/PROFILE.md, "ACA Level 2": N, tokens, stems, word classes;
ACA-L2-018 to ACA-L2-020), written from the profile text with the Python standard library only.

Independent of citeproof: it never imports or runs it. Python's `str.casefold` is Unicode full
case folding, `unicodedata` gives NFC and General_Category; White_Space is the Unicode property
list (PropList.txt), spelled out below because `str.isspace` differs from it.
"""

import math
import unicodedata

WHITE_SPACE = set(
    [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680]
    + list(range(0x2000, 0x200B))
    + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)

STOP_WORDS = set("""
about after also and are because been before being between both but can could did does
during for from get had has have her here him his how into its itself just let may might
must new now old other our ours out over own per same say see shall she should such than
that the their theirs them then there these they this those through too under upon use
very via was were what when where which while who whom whose why will with would yet you
your yours""".split())

NEGATIONS = set("cannot neither never no nobody none nor not nothing nowhere without".split())

QUANTIFIERS = set("""all always any each every few fewer fewest greater higher least less lower
many more most often only rarely seldom several some sometimes usually""".split())

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "million": 10**6, "billion": 10**9, "trillion": 10**12, "dozen": 12, "single": 1,
    "once": 1, "twice": 2,
}


def N(s):
    s = unicodedata.normalize("NFC", s)
    s = s.casefold()
    s = unicodedata.normalize("NFC", s)
    out = []
    pending_space = False
    for ch in s:
        if ord(ch) in WHITE_SPACE:
            pending_space = True
            continue
        if pending_space and out:
            out.append(" ")
        pending_space = False
        out.append(ch)
    return "".join(out)


def is_word_char(ch):
    return unicodedata.category(ch)[0] in "LMN"


def tokens(n):
    toks, cur = [], []
    for ch in n:
        if is_word_char(ch):
            cur.append(ch)
        elif cur:
            toks.append("".join(cur))
            cur = []
    if cur:
        toks.append("".join(cur))
    return toks


def stem(t):
    if len(t) >= 6 and t.endswith("ing"):
        return t[:-3]
    if len(t) >= 5 and t.endswith("ed"):
        return t[:-2]
    if len(t) >= 4 and t.endswith("s") and not t.endswith("ss"):
        return t[:-1]
    return t


def digit_numbers(n):
    """Runs of ASCII digits not preceded by an ASCII letter or digit; ',' + exactly three
    digits continues a run; '.' + digits is a decimal point."""
    out = []
    i = 0
    asc_alnum = lambda c: c.isascii() and c.isalnum()
    while i < len(n):
        c = n[i]
        if not (c.isascii() and c.isdigit()) or (i > 0 and asc_alnum(n[i - 1])):
            i += 1
            continue
        j = i
        digits = ""
        while j < len(n) and n[j].isascii() and n[j].isdigit():
            digits += n[j]
            j += 1
            if (j < len(n) and n[j] == "," and len(n) >= j + 4
                    and all(n[j + k].isascii() and n[j + k].isdigit() for k in (1, 2, 3))
                    and not (j + 4 < len(n) and n[j + 4].isascii() and n[j + 4].isdigit())):
                j += 1
        frac = ""
        if j + 1 < len(n) and n[j] == "." and n[j + 1].isascii() and n[j + 1].isdigit():
            j += 1
            while j < len(n) and n[j].isascii() and n[j].isdigit():
                frac += n[j]
                j += 1
        whole = digits.lstrip("0") or "0"
        frac = frac.rstrip("0")
        out.append(whole + ("." + frac if frac else ""))
        i = j
    return out


class Text:
    def __init__(self, s):
        self.n = N(s)
        toks = tokens(self.n)
        self.tokens = set(toks)
        self.stems = {stem(t) for t in toks}
        self.neg = sum(1 for t in toks if t in NEGATIONS) + self.n.count("n't") + self.n.count("n\u2019t")
        self.quant = {t for t in toks if t in QUANTIFIERS}
        self.numbers = {str(NUMBER_WORDS[t]) for t in toks if t in NUMBER_WORDS} | set(digit_numbers(self.n))
        content = []
        for t in toks:
            if (len(t) >= 3 and t not in STOP_WORDS and t not in NEGATIONS and t not in QUANTIFIERS
                    and t not in NUMBER_WORDS and not (t.isascii() and t.isdigit())):
                st = stem(t)
                if st not in content:
                    content.append(st)
        self.content = content

    def length(self):
        return len(self.n)


def supported_by(c, e):
    """ACA-L2-018 (1)-(4) for one excerpt: None when supported, else the failing condition."""
    if c.neg % 2 != e.neg % 2:
        return "negation"
    if not c.numbers <= e.numbers:
        return "numbers"
    if not c.quant <= e.tokens:
        return "quantifiers"
    if c.n in e.n:
        return None
    k = len(c.content)
    if k == 0:
        return "content"
    present = sum(1 for s in c.content if s in e.stems)
    return None if present >= math.ceil(4 * k / 5) else "content"


def cap(claim_len):
    return max(4 * claim_len, 400)


def check(claim, excerpts):
    """The findings of ACA-L2-018 to -020 for one claim: (errors, warnings), sorted code lists."""
    c = Text(claim)
    errors, warnings = set(), set()
    usable = []
    for raw in excerpts:
        e = Text(raw)
        if e.length() > cap(c.length()):
            errors.add("aca-excerpt-too-long")
            continue
        if c.content and not any(s in e.stems for s in c.content):
            warnings.add("aca-source-irrelevant")
        usable.append(e)
    if not excerpts or (usable and all(supported_by(c, e) is not None for e in usable)):
        errors.add("aca-claim-unsupported")
    return sorted(errors), sorted(warnings)


if __name__ == "__main__":
    geo = "Programmatic GEO templates emit at most one canonical question per page."
    assert check(geo, [geo]) == ([], [])
    assert check("AI crawlers do not revisit stable canonical URLs more often.",
                 ["AI crawlers revisit pages with stable canonical URLs more often."])[0] == ["aca-claim-unsupported"]
    assert digit_numbers("1,000 and 3.50, 007, c3po, 1,00") == ["1000", "3.5", "7", "1", "0"]
    print("ok")
