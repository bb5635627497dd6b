"""The ACA support check (docs/PROFILE.md, "ACA Level 2": N, K, sentences, tokens, stems, word
classes; ACA-L2-018 to ACA-L2-020), written from the profile text with the Python standard
library only.

Independent of citeproof: it never imports or runs it. Python's `str.casefold` is Unicode full
case folding, `unicodedata` gives NFC, NFKC, General_Category and the decimal value of a digit;
White_Space (PropList.txt) and Default_Ignorable_Code_Point (DerivedCoreProperties.txt) are
spelled out below because Python has no accessor for them (`str.isspace` differs from
White_Space).

Entry points other generators use: `check(claim, excerpts)` -> (errors, warnings), `Text`,
`supported_by(Text(claim), Text(excerpt))`, `N`, `K`, `sentences`.
"""

import math
import unicodedata

WHITE_SPACE = set(
    [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680]
    + list(range(0x2000, 0x200B))
    + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)

# Default_Ignorable_Code_Point, DerivedCoreProperties.txt (Unicode 16.0), as ranges.
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]

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

# The lines of UTS #39 confusables.txt whose source is a lowercase ASCII letter or an ASCII
# digit (the only characters of an ASCII token after case folding):
#   0030 ; 004F ; MA  # ( 0 -> O ) DIGIT ZERO -> LATIN CAPITAL LETTER O
#   0031 ; 006C ; MA  # ( 1 -> l ) DIGIT ONE -> LATIN SMALL LETTER L
#   006D ; 0072 006E ; MA  # ( m -> rn ) LATIN SMALL LETTER M -> LATIN SMALL LETTER R, N
ASCII_CONFUSABLES = {"0": "O", "1": "l", "m": "rn"}

# Sentence terminators (after NFKC: U+FF0E, U+FF01, U+FF1F and U+FF61 become these) and the
# closing marks that may follow them.
TERMINALS = ".!?\u3002"
CLOSERS = "\"')]\u2019\u201d\u00bb"

# ACA-L2-018: a claim of more sentences is not an individual claim (and would make the
# sentence-by-sentence comparison quadratic).
MAX_CLAIM_SENTENCES = 16


def collapse(s):
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


def N(s):
    """The profile's N (binding of claims to the response, the excerpt cap)."""
    return collapse(unicodedata.normalize("NFC", unicodedata.normalize("NFC", s).casefold()))


def is_default_ignorable(ch):
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in DEFAULT_IGNORABLE)


# Bidirectional embeddings, overrides and isolates: default ignorable, but they change the order
# in which a reader sees the letters ("\u202eton" reads "not"), so they are kept.
BIDI_CONTROLS = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def is_bidi_control(ch):
    return ord(ch) in BIDI_CONTROLS


def D(s):
    """NFKC, then every Default_Ignorable_Code_Point that is no bidirectional control removed:
    the text sentences are cut from."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", s)
                   if is_bidi_control(ch) or not is_default_ignorable(ch))


def K(s):
    """The support check's form of a piece of D(s): NFKC of its case folding, spaces collapsed."""
    return collapse(unicodedata.normalize("NFKC", s.casefold()))


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


def pieces(d):
    """D(s) cut into sentences: after a run of terminators (and closing marks) that ends the
    text, contains U+3002, or is followed by White_Space and then a character that is not a
    lowercase letter (Ll); and at a White_Space run holding two line feeds or U+2029."""
    out, start, i, n = [], 0, 0, len(d)
    while i < n:
        ch = d[i]
        if ord(ch) in WHITE_SPACE:
            j = i
            while j < n and ord(d[j]) in WHITE_SPACE:
                j += 1
            run = d[i:j]
            if run.count("\n") >= 2 or "\u2029" in run:
                out.append(d[start:i])
                start = j
            i = j
            continue
        if ch in TERMINALS:
            j = i
            while j < n and d[j] in TERMINALS:
                j += 1
            ideographic = "\u3002" in d[i:j]
            while j < n and d[j] in CLOSERS:
                j += 1
            k = j
            while k < n and ord(d[k]) in WHITE_SPACE:
                k += 1
            if ideographic or k == n or (k > j and unicodedata.category(d[k]) != "Ll"):
                out.append(d[start:j])
                start = j
            i = j
            continue
        i += 1
    out.append(d[start:])
    return out


def sentences(s):
    """K of each piece of D(s) that holds at least one token, in order."""
    return [k for k in (K(p) for p in pieces(D(s))) if tokens(k)]


def skeleton(t):
    return "".join(ASCII_CONFUSABLES.get(ch, ch) for ch in t)


# Word classes by the skeleton of the listed word.
CLASSES = {}
for _w in NEGATIONS:
    CLASSES[skeleton(_w)] = ("negation", _w)
for _w in QUANTIFIERS:
    CLASSES[skeleton(_w)] = ("quantifier", _w)
for _w, _v in NUMBER_WORDS.items():
    CLASSES[skeleton(_w)] = ("number", _v)
for _w in STOP_WORDS:
    CLASSES[skeleton(_w)] = ("stop", _w)


def word_class(t):
    """The class of an ASCII token by its UTS #39 skeleton; a non-ASCII token is in no list."""
    if not t.isascii():
        return None
    return CLASSES.get(skeleton(t))


def is_nd(ch):
    return unicodedata.category(ch) == "Nd"


def stem(t):
    if len(t) >= 6 and t.endswith("ing"):
        return t[:-3]
    if len(t) >= 5 and t.endswith("ed"):
        return t[:-2]
    if len(t) >= 4 and t.endswith("s") and not t.endswith("ss"):
        return t[:-1]
    return t


def digit_numbers(n):
    """Runs of decimal digits (General_Category Nd, any script, by their decimal value) not
    preceded by a token character; ',' + exactly three digits continues a run; '.' + digits is
    a decimal point."""
    out = []
    i = 0
    while i < len(n):
        if not is_nd(n[i]) or (i > 0 and is_word_char(n[i - 1])):
            i += 1
            continue
        j = i
        digits = ""
        while j < len(n) and is_nd(n[j]):
            digits += str(unicodedata.decimal(n[j]))
            j += 1
            if (j < len(n) and n[j] == "," and len(n) >= j + 4
                    and all(is_nd(n[j + k]) for k in (1, 2, 3))
                    and not (j + 4 < len(n) and is_nd(n[j + 4]))):
                j += 1
        frac = ""
        if j + 1 < len(n) and n[j] == "." and is_nd(n[j + 1]):
            j += 1
            while j < len(n) and is_nd(n[j]):
                frac += str(unicodedata.decimal(n[j]))
                j += 1
        whole = digits.lstrip("0") or "0"
        frac = frac.rstrip("0")
        out.append(whole + ("." + frac if frac else ""))
        i = j
    return out


class Sentence:
    def __init__(self, k):
        self.k = k
        toks = tokens(k)
        self.tokens = set(toks)
        self.stems = {stem(t) for t in toks}
        self.neg = k.count("n't") + k.count("n\u2019t")
        self.quant = set()
        self.numbers = set(digit_numbers(k))
        self.content = []
        self.strict = []
        for t in toks:
            cls = word_class(t)
            if cls is not None:
                kind, value = cls
                if kind == "negation":
                    self.neg += 1
                elif kind == "quantifier":
                    self.quant.add(value)
                elif kind == "number":
                    self.numbers.add(str(value))
                continue
            all_digits = all(is_nd(ch) for ch in t)
            if not t.isascii() and not all_digits and stem(t) not in self.strict:
                self.strict.append(stem(t))
            if len(t) >= 3 and not all_digits and stem(t) not in self.content:
                self.content.append(stem(t))


class Text:
    def __init__(self, s):
        self.n = N(s)
        self.sentences = [Sentence(k) for k in sentences(s)]
        self.stems = set().union(*(x.stems for x in self.sentences)) if self.sentences else set()
        content = []
        for x in self.sentences:
            for st in x.content:
                if st not in content:
                    content.append(st)
        self.content = content
        # Whole-text aggregates, kept for callers of the earlier rule; the rule itself reads
        # sentences only.
        self.tokens = set().union(*(x.tokens for x in self.sentences)) if self.sentences else set()
        self.neg = sum(x.neg for x in self.sentences)
        self.quant = set().union(*(x.quant for x in self.sentences)) if self.sentences else set()
        self.numbers = set().union(*(x.numbers for x in self.sentences)) if self.sentences else set()

    def length(self):
        return len(self.n)


def sentence_supported_by(x, y):
    """ACA-L2-018 (1)-(4) for a claim sentence x and one sentence y of an excerpt: None when y
    supports x, else the failing condition."""
    if x.neg % 2 != y.neg % 2:
        return "negation"
    if not x.numbers <= y.numbers:
        return "numbers"
    if not x.quant <= y.quant:
        return "quantifiers"
    if x.k in y.k:
        return None
    if any(is_bidi_control(ch) for ch in x.k):
        return "bidi"
    if not all(st in y.stems for st in x.strict):
        return "strict"
    k = len(x.content)
    if k == 0:
        return "content"
    present = sum(1 for st in x.content if st in y.stems)
    return None if present >= math.ceil(4 * k / 5) else "content"


def supported_by(c, e):
    """Whether excerpt e (a Text) supports claim c (a Text): the m sentences of the claim are
    supported, in order, by a run of m consecutive sentences of e. None when supported, else
    the failing condition."""
    m, n = len(c.sentences), len(e.sentences)
    if m == 0:
        return "empty"
    if m > MAX_CLAIM_SENTENCES:
        return "sentences"
    if n < m:
        return "sentences"
    runs = [[sentence_supported_by(x, e.sentences[j + i]) for i, x in enumerate(c.sentences)]
            for j in range(n - m + 1)]
    if any(all(r is None for r in run) for run in runs):
        return None
    if m == 1:
        x = c.sentences[0]
        # The closest sentence: the most content stems of x, the first of equals.
        best = max(range(n), key=lambda j: (sum(1 for st in x.content if st in e.sentences[j].stems), -j))
        return runs[best][0]
    # The run with the most supported sentences, the first of equals; its first failure.
    best = max(range(len(runs)), key=lambda j: (sum(1 for r in runs[j] if r is None), -j))
    return next(r for r in runs[best] if r is not None)


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
    assert digit_numbers("\u0661\u0662 and \uff13 and x\u0663") == ["12", "3"]
    assert sentences("E.g. the U.S. list. Next one!  \"Quoted.\" Then\n\nno stop") == [
        "e.g. the u.s. list.", "next one!", "\"quoted.\"", "then", "no stop"]
    print("ok")
