"""Writes vectors/aca/level2/support-check.json: the ACA support check (ACA-L2-018 to -020) on
claims and excerpts, without fetching (operation `aca-support-check`).

Every expected result is computed by `aca_support.py`, an implementation of the profile's rule
written with the Python standard library (str.casefold, unicodedata); the headline cases also
carry the hand derivation the generator asserts against. Never imports or runs citeproof.
"""

import aca_support as rule
from vectorlib import case, derivation, write

GEO = "Programmatic GEO templates emit at most one canonical question per page."
CRAWL = "AI crawlers revisit pages with stable canonical URLs more often."
FLAGS = {
    "attack": "A claim built to pass a weak support check; it must be unsupported.",
    "paraphrase": "An honest rewording the rule tolerates.",
    "negation": "Negation parity (ACA-L2-018 condition 1).",
    "numbers": "Numbers by value, digits and words (condition 2).",
    "quantifier": "Quantifier and comparison words (condition 3).",
    "content": "Content-word stems, substring, the 4/5 share (condition 4).",
    "cap": "The excerpt cap (ACA-L2-020).",
    "relevance": "The relevance warning (ACA-L2-019).",
    "unicode": "Case folding, NFC, White_Space, General_Category.",
    "pooling": "Words of several excerpts are never pooled.",
    "sentence": "Negation, numbers and quantifiers are judged on one sentence of the excerpt, sentence by sentence of the claim (ACA-L2-018; review 3, N4).",
    "confusable": "Compatibility forms, invisible characters, digits of other scripts and confusable spellings cannot hide a listed word (ACA-L2-018; issue 19).",
}
CRAWL_CTX = CRAWL + " That is not surprising."
GEO_NEVER = GEO + " They never emit FAQ blocks."
GEO_NOT = GEO + " They do not emit FAQ blocks."
SEVENTEEN = "".join("Sentence number%d holds words. " % i for i in range(17)).strip()
SIXTEEN = "".join("Sentence number%d holds words. " % i for i in range(16)).strip()

# (id, description, claim, excerpts, flags, hand expectation or None)
#  hand expectation: (errors, warnings) as the profile's working gives them.
SUPPORTED = ([], [])
UNSUPPORTED = (["aca-claim-unsupported"], [])
CASES = [
    ("verbatim", "The claim is the excerpt.", GEO, [GEO], ["content"], SUPPORTED),
    ("substring", "The claim is a substring of a longer excerpt.",
     "emit at most one canonical question per page",
     ["Programmatic GEO templates emit at most one canonical question per page. It holds for every template."],
     ["content"], SUPPORTED),
    ("negation-elsewhere-in-excerpt", "A negation in another sentence of the excerpt does not count: 'Nothing else.' is a sentence of its own, and the claim is judged on the sentence that holds it (review 3, N4: this case used to be unsupported).",
     "emit at most one canonical question per page",
     ["Programmatic GEO templates emit at most one canonical question per page. Nothing else."], ["negation", "sentence"], SUPPORTED),
    ("negation-in-context-sentence", "Review 3, N4: the honest verbatim claim, cited with its next sentence 'They do not emit FAQ blocks.': the negation is in the other sentence.",
     GEO, [GEO_NOT], ["negation", "sentence"], SUPPORTED),
    ("attack-negation-neighbour-sentence", "Review 3, N4: the excerpt takes in the next sentence 'That is not surprising.' to make 'do not revisit' supported. Sentence 1 has no negation (parity 1 vs 0); sentence 2 has no 'more' and no content word of the claim.",
     "AI crawlers do not revisit stable canonical URLs more often.", [CRAWL_CTX], ["attack", "negation", "sentence"], UNSUPPORTED),
    ("attack-must-not-neighbour-never", "Review 3, N4: 'must not emit one' against an excerpt whose next sentence says 'They never emit FAQ blocks.': sentence 1 fails the parity, sentence 2 lacks the number 1.",
     "Programmatic GEO templates must not emit one canonical question per page.", [GEO_NEVER], ["attack", "negation", "sentence"], UNSUPPORTED),
    ("attack-negation-dragged-in", "One word of the negated neighbour ('surprising') added to the claim does not pull that sentence's 'not' in: each claim sentence needs one supporting sentence (sentence 2 lacks 'more' and 5 of 6 content stems).",
     "AI crawlers do not revisit stable canonical URLs more often, surprising.", [CRAWL_CTX], ["attack", "negation", "sentence"], UNSUPPORTED),
    ("attack-negation-moved-between-sentences", "A two-sentence claim moves the 'not' from the second sentence to the first: claim sentence 1 has parity 1, and no excerpt sentence with parity 1 holds 'more' and its content words.",
     "AI crawlers do not revisit stable canonical URLs more often. That is surprising.", [CRAWL_CTX], ["attack", "negation", "sentence"], UNSUPPORTED),
    ("attack-negation-split-off", "'AI crawlers do not.' split off as a sentence of its own, which 'Crawlers are not slow.' alone would support: the claim's two sentences need two consecutive sentences in order, and the run (1, 2) fails on the first.",
     "AI crawlers do not. Revisit pages more often.", ["AI crawlers revisit pages more often. Crawlers are not slow."],
     ["attack", "negation", "sentence"], UNSUPPORTED),
    ("two-sentences-reordered", "The two sentences of the excerpt quoted in the other order: a run of consecutive sentences supports a claim only in order (the rule's stated cost).",
     "That is not surprising. " + CRAWL, [CRAWL_CTX], ["sentence"], UNSUPPORTED),
    ("two-sentences-verbatim", "A two-sentence claim quoting both sentences: each is a substring of its own sentence with the same parity.",
     CRAWL_CTX, [CRAWL_CTX], ["sentence"], SUPPORTED),
    ("attack-negation-earlier-in-sentence", "A verbatim fragment of a negated sentence: 'No' earlier in the same sentence counts (parity 0 vs 1).",
     "AI crawlers revisit pages with stable canonical URLs more often.", ["No AI crawlers revisit pages with stable canonical URLs more often."],
     ["attack", "negation", "sentence"], UNSUPPORTED),
    ("sentence-abbreviations-not-cut", "'e.g. the' and 'U.S. market' are followed by a lowercase letter: no cut, so the first sentence holds the whole claim; 'None emit two.' is a sentence of its own.",
     GEO, ["Programmatic GEO templates, e.g. the ones for the U.S. market, emit at most one canonical question per page. None emit two."],
     ["sentence"], SUPPORTED),
    ("sentence-paragraph-break", "Two line feeds end a paragraph (a list item without a full stop): 'Never two' is another sentence.",
     GEO, [GEO[:-1] + "\n\nNever two"], ["sentence"], SUPPORTED),
    ("sentence-line-wrap", "One line feed is a wrapped line, not a cut: the claim's sentence spans it; 'Not always.' is the next sentence.",
     CRAWL, ["AI crawlers revisit pages with stable\ncanonical URLs more often. Not always."], ["sentence"], SUPPORTED),
    ("claim-of-sixteen-sentences", "A claim of 16 sentences, each in the excerpt.",
     SIXTEEN, [SIXTEEN], ["sentence"], SUPPORTED),
    ("claim-of-seventeen-sentences", "A claim of 17 sentences is not an individual claim: unsupported even against itself.",
     SEVENTEEN, [SEVENTEEN], ["sentence"], UNSUPPORTED),
    ("attack-fullwidth-digit", "'at most \uff12' (FULLWIDTH DIGIT TWO): NFKC makes it 2, which the excerpt does not have.",
     "Programmatic GEO templates emit at most \uff12 canonical questions per page.", [GEO], ["attack", "numbers", "confusable"], UNSUPPORTED),
    ("attack-arabic-indic-digit", "'at most \u0662' (ARABIC-INDIC DIGIT TWO, Nd, value 2): not in the excerpt.",
     "Programmatic GEO templates emit at most \u0662 canonical questions per page.", [GEO], ["attack", "numbers", "confusable"], UNSUPPORTED),
    ("arabic-indic-digit-same-value", "'at most \u0661' (ARABIC-INDIC DIGIT ONE) = 'one': numbers by value in every script.",
     "Programmatic GEO templates emit at most \u0661 canonical question per page.", [GEO], ["numbers", "confusable"], SUPPORTED),
    ("attack-cyrillic-o-in-two", "'tw\u043e' with CYRILLIC SMALL LETTER O: a strict word (outside ASCII), not in the excerpt; it used to pass as one absent content word in seven.",
     "Programmatic GEO templates emit at most tw\u043e canonical questions per page.", [GEO], ["attack", "numbers", "confusable"], UNSUPPORTED),
    ("attack-cyrillic-each", "'\u0435\u0430\u0441\u04bb' (all Cyrillic, looks like 'each'): a strict word, not in the excerpt.",
     "A programmatic GEO template emits one canonical question on \u0435\u0430\u0441\u04bb page.", [GEO], ["attack", "quantifier", "confusable"], UNSUPPORTED),
    ("attack-small-capital-o-not", "'n\u1d0ft' with LATIN LETTER SMALL CAPITAL O (no compatibility decomposition): a strict word, not in the excerpt.",
     "Programmatic GEO templates must n\u1d0ft emit one canonical question per page.", [GEO], ["attack", "negation", "confusable"], UNSUPPORTED),
    ("attack-soft-hyphen-not", "'no\u00adt': the soft hyphen is default ignorable and removed, so the claim has 'not' (parity 1 vs 0).",
     "Programmatic GEO templates must no\u00adt emit one canonical question per page.", [GEO], ["attack", "negation", "confusable"], UNSUPPORTED),
    ("attack-zero-width-space-not", "'n\u200bot': U+200B is default ignorable and removed: 'not'.",
     "AI crawlers do n\u200bot revisit stable canonical URLs more often.", [CRAWL], ["attack", "negation", "confusable"], UNSUPPORTED),
    ("attack-math-bold-not", "'\U0001d427\U0001d428\U0001d42d' (MATHEMATICAL BOLD SMALL N, O, T): NFKC gives 'not'.",
     "AI crawlers do \U0001d427\U0001d428\U0001d42d revisit stable canonical URLs more often.", [CRAWL], ["attack", "negation", "confusable"], UNSUPPORTED),
    ("attack-bidi-override-not", "'\u202eton\u202c' (RIGHT-TO-LEFT OVERRIDE, 'ton', POP DIRECTIONAL FORMATTING) reads 'not': a claim sentence with a bidirectional control is supported only as a substring of its sentence.",
     "AI crawlers do \u202eton\u202c revisit stable canonical URLs more often.", [CRAWL], ["attack", "negation", "confusable"], UNSUPPORTED),
    ("bidi-isolate-quoted-verbatim", "A sentence with an isolated right-to-left name (U+2067 ... U+2069), quoted verbatim: supported.",
     "The \u2067\u05e9\u05dc\u05d5\u05dd\u2069 template emits one canonical question per page.",
     ["Note: the \u2067\u05e9\u05dc\u05d5\u05dd\u2069 template emits one canonical question per page."], ["confusable"], SUPPORTED),
    ("confusable-rn-for-m", "'rnore' has the skeleton of 'more' (confusables.txt: m -> rn): it is the quantifier 'more', which the excerpt has.",
     "AI crawlers revisit pages with stable canonical URLs rnore often.", [CRAWL], ["quantifier", "confusable"], SUPPORTED),
    ("attack-rn-for-m", "'rnore often' against an excerpt that says 'less often': the quantifier 'more' is not in the sentence.",
     "AI crawlers revisit pages with stable canonical URLs rnore often.", [CRAWL.replace("more", "less")], ["attack", "quantifier", "confusable"], UNSUPPORTED),
    ("attack-digit-one-for-l", "'on1y' has the skeleton of 'only' (1 -> l): a quantifier the excerpt lacks.",
     "Programmatic GEO templates emit on1y one canonical question per page.", [GEO], ["attack", "quantifier", "confusable"], UNSUPPORTED),
    ("attack-non-ascii-word-swapped", "'fr\u00fch' (early) for 'sp\u00e4t' (late): a word outside ASCII has no paraphrase allowance (it used to pass as one absent content word in six).",
     "\u00dcber die Stra\u00dfe: Caf\u00e9s \u00f6ffnen fr\u00fch",
     ["\u00dcber die Stra\u00dfe: Caf\u00e9s \u00f6ffnen sp\u00e4t."], ["attack", "unicode"], UNSUPPORTED),
    ("paraphrase-single", "'a single' for 'at most one' ... 'one': numbers by value (single = 1).",
     "Programmatic GEO templates emit a single canonical question per page.", [GEO], ["paraphrase", "numbers"], SUPPORTED),
    ("paraphrase-verb", "'produce' for 'emit': 6 of 7 content stems present, 6 >= ceil(28/5) = 6.",
     "Programmatic GEO templates produce at most one canonical question per page.", [GEO], ["paraphrase", "content"], SUPPORTED),
    ("paraphrase-inflection", "Singular and third person: stems agree (templates = template, emits = emit).",
     "A programmatic GEO template emits at most one canonical question per page.", [GEO], ["paraphrase", "content"], SUPPORTED),
    ("attack-added-quantifier-each", "'on each page' adds the quantifier 'each', which the excerpt does not have.",
     "A programmatic GEO template emits one canonical question on each page.", [GEO], ["attack", "quantifier"], UNSUPPORTED),
    ("paraphrase-two-words-missing", "Two of seven content stems absent: 5 < 6 needed.",
     "Programmatic GEO generators produce at most one canonical question per page.", [GEO], ["paraphrase", "content"], UNSUPPORTED),
    ("attack-negation-not", "'do not revisit': one negation marker in the claim, none in the excerpt.",
     "AI crawlers do not revisit stable canonical URLs more often.", [CRAWL], ["attack", "negation"], UNSUPPORTED),
    ("attack-negation-contraction", "'don't' counts as a negation (n't).",
     "AI crawlers don't revisit pages with stable canonical URLs more often.", [CRAWL], ["attack", "negation"], UNSUPPORTED),
    ("attack-negation-curly", "'don\u2019t' with U+2019 counts as a negation.",
     "AI crawlers don\u2019t revisit pages with stable canonical URLs more often.", [CRAWL], ["attack", "negation"], UNSUPPORTED),
    ("attack-must-not", "'must not emit one': negation parity 1 vs 0.",
     "Programmatic GEO templates must not emit one canonical question per page.", [GEO], ["attack", "negation"], UNSUPPORTED),
    ("double-negation", "Two negations in the claim, none in the excerpt: the parities agree (both even).",
     "It is not true that crawlers never revisit pages with stable canonical URLs more often.", [CRAWL], ["negation"], None),
    ("negation-both", "The excerpt and the claim are both negative.",
     "Crawlers do not index fragment URLs.", ["Search crawlers do not index fragment URLs separately."], ["negation"], SUPPORTED),
    ("negation-in-excerpt-only", "The excerpt negates what the claim asserts.",
     "Crawlers index fragment URLs.", ["Search crawlers do not index fragment URLs separately."], ["attack", "negation"], UNSUPPORTED),
    ("attack-number-digit", "'at most 9' for 'at most one': 9 is not in the excerpt.",
     "Programmatic GEO templates emit at most 9 canonical question per page.", [GEO], ["attack", "numbers"], UNSUPPORTED),
    ("number-digit-for-word", "'1' for 'one': the same value.",
     "Programmatic GEO templates emit at most 1 canonical question per page.", [GEO], ["numbers"], SUPPORTED),
    ("number-thousands", "'1,000' and '1000' are the same number.",
     "The index holds 1000 pages.", ["The index holds 1,000 pages today."], ["numbers"], SUPPORTED),
    ("attack-number-decimal", "'3.5' is not '3.05'.",
     "Latency rose by 3.5 seconds.", ["Latency rose by 3.05 seconds."], ["attack", "numbers"], UNSUPPORTED),
    ("number-trailing-zero", "'3.50' = '3.5'.",
     "Latency rose by 3.5 seconds.", ["Latency rose by 3.50 seconds."], ["numbers"], SUPPORTED),
    ("attack-year", "A changed year.",
     "The Transformer architecture was introduced in 2018.", ["The Transformer architecture was introduced in 2017."],
     ["attack", "numbers"], UNSUPPORTED),
    ("number-glued-to-word", "'c3po' is a token, not the number 3.",
     "The c3po protocol ships three layers.", ["The c3po protocol ships three layers."], ["numbers"], None),
    ("attack-quantifier", "'less often' for 'more often'.",
     "AI crawlers revisit pages with stable canonical URLs less often.", [CRAWL], ["attack", "quantifier"], UNSUPPORTED),
    ("attack-quantifier-only", "'only' added to the claim.",
     "Only AI crawlers revisit pages with stable canonical URLs more often.", [CRAWL], ["attack", "quantifier"], UNSUPPORTED),
    ("quantifier-dropped", "A quantifier of the excerpt the claim omits is allowed (the claim says less).",
     "AI crawlers revisit pages with stable canonical URLs often.", [CRAWL], ["quantifier"], None),
    ("attack-unrelated", "A claim made of other words.",
     "Vaccines cause autism.", [CRAWL], ["attack", "content", "relevance"],
     (["aca-claim-unsupported"], ["aca-source-irrelevant"])),
    ("attack-moon", "The issue's swapped body text against the demo excerpt.",
     "The moon is made of cheese.", [GEO], ["attack", "content", "relevance"],
     (["aca-claim-unsupported"], ["aca-source-irrelevant"])),
    ("attack-whole-page", "A whole page as the excerpt: over the cap of max(4 x 26, 400) = 400.",
     "Crawlers revisit canonical URLs.",
     [" ".join([CRAWL] * 8)], ["attack", "cap"], (["aca-excerpt-too-long"], [])),
    ("cap-boundary-floor", "An excerpt of exactly 400 characters after N is within the cap of a short claim.",
     "Crawlers revisit canonical URLs.", [("Crawlers revisit canonical URLs. " + "x" * 400)[:400]], ["cap"], None),
    ("cap-boundary-over", "401 characters after N: one over the floor.",
     "Crawlers revisit canonical URLs.", [("Crawlers revisit canonical URLs. " + "x" * 401)[:401]], ["cap"],
     (["aca-excerpt-too-long"], [])),
    ("cap-relative", "A 120-character claim may cite up to 480 characters.",
     ("Programmatic GEO templates emit at most one canonical question per page, and crawlers "
      "revisit the canonical URL of each page."),
     [("Programmatic GEO templates emit at most one canonical question per page, and crawlers "
       "revisit the canonical URL of each page. ") + "y" * 300], ["cap"], None),
    ("cap-one-of-two", "One excerpt over the cap is reported; the other supports the claim.",
     GEO, [GEO + " " + "z" * 500, GEO], ["cap"], (["aca-excerpt-too-long"], [])),
    ("attack-pooling", "Content words from two excerpts are not pooled.",
     "Programmatic templates revisit stable canonical crawlers.",
     ["Programmatic templates are generated.", "Crawlers revisit stable canonical URLs."], ["attack", "pooling"], UNSUPPORTED),
    ("two-excerpts-one-supports", "The second excerpt supports the claim; the first shares a word.",
     CRAWL, ["Canonical URLs matter.", CRAWL], ["pooling"], SUPPORTED),
    ("irrelevant-second-excerpt", "A second excerpt shares no content word: a warning, the claim stays supported.",
     GEO, [GEO, "Sitemaps list URLs."], ["relevance"], ([], ["aca-source-irrelevant"])),
    ("unicode-casefold-nfc", "Full case folding (STRASSE = stra\u00dfe) and NFC (e + U+0301 = \u00e9).",
     "\u00fcber die STRASSE: cafe\u0301s \u00f6ffnen FR\u00dcH",
     ["\u00dcber die Stra\u00dfe: Caf\u00e9s \u00f6ffnen fr\u00fch."], ["unicode"], SUPPORTED),
    ("unicode-white-space", "U+2003 and U+3000 are White_Space and collapse to one space.",
     "Programmatic\u2003GEO templates\u3000emit at most one canonical question per page.", [GEO], ["unicode"], SUPPORTED),
    ("unicode-info-separator", "U+001F is not White_Space: it separates tokens but is not collapsed, so the claim is no substring; the content rule still holds.",
     "Programmatic\u001fGEO templates emit at most one canonical question per page.", [GEO], ["unicode"], None),
    ("unicode-greek", "Greek final sigma folds to sigma.",
     "\u039f \u03a3\u039f\u03a6\u039f\u03a3 \u03c4\u03bf \u03b5\u03af\u03c0\u03b5.",
     ["\u03bf \u03c3\u03bf\u03c6\u03bf\u03c2 \u03c4\u03bf \u03b5\u03af\u03c0\u03b5."], ["unicode"], None),
    ("no-content-word-substring", "A claim with no content word is supported only as a substring.",
     "It is all of them", ["It is all of them, and more."], ["content"], SUPPORTED),
    ("no-content-word-not-substring", "A claim with no content word that is not a substring.",
     "It is all of them.", ["They are all there."], ["content"], UNSUPPORTED),
    ("empty-excerpt-list", "No excerpt at all: nothing supports the claim.",
     GEO, [], ["content"], UNSUPPORTED),
]


def main():
    cases = []
    for cid, desc, claim, excerpts, flags, hand in CASES:
        errors, warnings = rule.check(claim, excerpts)
        if hand is not None:
            assert (errors, warnings) == (sorted(hand[0]), sorted(hand[1])), (cid, errors, warnings, hand)
        reqs = ["ACA-L2-018"]
        if "aca-excerpt-too-long" in errors or "cap" in flags:
            reqs.append("ACA-L2-020")
        if warnings or "relevance" in flags:
            reqs.append("ACA-L2-019")
        detail = ("vectors/tools/aca_support.py (Python str.casefold, unicodedata NFC and General_Category, "
                  "White_Space from PropList.txt): errors %s, warnings %s." % (errors or "none", warnings or "none"))
        if hand is not None:
            detail += " Also worked by hand from the profile's rule, as the description says."
        cases.append(case(
            "aca-l2-support-" + cid, desc, reqs, 2,
            {"claim": claim, "excerpts": excerpts},
            "invalid" if errors else "valid",
            errors=errors or None,
            warnings=warnings,
            derivation_=derivation("independent-tool", detail),
            flags=flags,
        ))
    write("aca/level2/support-check.json", "aca", "aca-support-check",
          "The ACA support check (ACA-L2-018 negation, numbers, quantifiers, content; ACA-L2-019 relevance; "
          "ACA-L2-020 excerpt cap) on claims and excerpts given directly.", cases, flags=FLAGS)


if __name__ == "__main__":
    main()
