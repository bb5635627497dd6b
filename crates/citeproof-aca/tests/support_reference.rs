//! The support rule (ACA-L2-018 to -020) against a second, plain implementation of the
//! profile's text: sentences cut by a scan over a vector of characters, sets of owned strings
//! built straight from the definitions in docs/PROFILE.md ("ACA Level 2", support check), with
//! none of the reference judge's shortcuts (one analysis per text, hashed spans, the merged
//! word table keyed by skeletons, the size tests that skip a comparison, the excerpt cap
//! checked before the analysis). Random texts over the rule's vocabulary must get the same
//! verdict, the same reason and the same relevance answer from both.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use citeproof_aca::verify::support::{
    Analyzed, ExcerptRef, Judgement, LexicalJudge, SupportJudge, assess, digit_numbers,
    excerpt_cap, stem,
};
use citeproof_model::{IncidentCode, Location};
use citeproof_text::support::{NEGATIONS, NUMBER_WORDS, QUANTIFIERS, STOP_WORDS};
use icu_properties::CodePointSetData;
use icu_properties::props::{DefaultIgnorableCodePoint, WhiteSpace};
use proptest::prelude::*;
use unicode_normalization::UnicodeNormalization;

/// One sentence, as the definitions read.
struct PlainSentence {
    text: String,
    stems: BTreeSet<String>,
    content: Vec<String>,
    strict: Vec<String>,
    negations: usize,
    numbers: BTreeSet<String>,
    quantifiers: BTreeSet<String>,
}

struct Plain {
    normalized: String,
    sentences: Vec<PlainSentence>,
    stems: BTreeSet<String>,
    content: Vec<String>,
}

fn white(c: char) -> bool {
    CodePointSetData::new::<WhiteSpace>().contains(c)
}

fn lowercase_letter(c: char) -> bool {
    use icu_properties::CodePointMapData;
    use icu_properties::props::GeneralCategory;
    CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::LowercaseLetter
}

fn token_char(c: char) -> bool {
    citeproof_text::is_token_char(c)
}

/// K: NFKC of the full case folding, spaces collapsed.
fn plain_k(piece: &str) -> String {
    let folded = icu_casemap::CaseMapper::new()
        .fold_string(piece)
        .into_owned();
    let nfkc: String = folded.nfkc().collect();
    nfkc.split(white)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The pieces of D(s), scanning a vector of characters.
fn plain_sentences(s: &str) -> Vec<String> {
    let d: Vec<char> = s
        .nfkc()
        .filter(|c| {
            "\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}".contains(*c)
                || !CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(*c)
        })
        .collect();
    let terminal = |c: char| ".!?\u{3002}".contains(c);
    let closer = |c: char| "\"')]\u{2019}\u{201d}\u{bb}".contains(c);
    let mut pieces: Vec<String> = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < d.len() {
        if white(d[i]) {
            let mut j = i;
            while j < d.len() && white(d[j]) {
                j += 1;
            }
            let run = &d[i..j];
            if run.iter().filter(|c| **c == '\n').count() >= 2 || run.contains(&'\u{2029}') {
                pieces.push(d[start..i].iter().collect());
                start = j;
            }
            i = j;
        } else if terminal(d[i]) {
            let mut j = i;
            while j < d.len() && terminal(d[j]) {
                j += 1;
            }
            let ideographic = d[i..j].contains(&'\u{3002}');
            while j < d.len() && closer(d[j]) {
                j += 1;
            }
            let mut k = j;
            while k < d.len() && white(d[k]) {
                k += 1;
            }
            if ideographic || k == d.len() || (k > j && !lowercase_letter(d[k])) {
                pieces.push(d[start..j].iter().collect());
                start = j;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    pieces.push(d[start..].iter().collect());
    pieces
        .iter()
        .map(|p| plain_k(p))
        .filter(|k| !citeproof_text::split_tokens(k).is_empty())
        .collect()
}

/// The decimal digits the generated texts use: ASCII, ARABIC-INDIC, DEVANAGARI, FULLWIDTH
/// (the last never reaches the rule: NFKC makes it ASCII).
fn plain_digit(c: char) -> Option<u32> {
    for zero in ['0', '\u{660}', '\u{966}', '\u{ff10}'] {
        let v = u32::from(c).wrapping_sub(u32::from(zero));
        if v < 10 {
            return Some(v);
        }
    }
    None
}

/// Numbers as the definition reads: digits collected by value, separators dropped, zeros
/// trimmed.
fn plain_digit_numbers(s: &str) -> Vec<String> {
    let b: Vec<char> = s.chars().collect();
    let digit = |j: usize| b.get(j).copied().and_then(plain_digit);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if digit(i).is_none() || (i > 0 && token_char(b[i - 1])) {
            i += 1;
            continue;
        }
        let mut int = String::new();
        let mut j = i;
        while let Some(d) = digit(j) {
            int.push(char::from_digit(d, 10).unwrap());
            j += 1;
            if b.get(j) == Some(&',')
                && (1..=3).all(|k| digit(j + k).is_some())
                && digit(j + 4).is_none()
            {
                j += 1;
            }
        }
        let mut frac = String::new();
        if b.get(j) == Some(&'.') && digit(j + 1).is_some() {
            j += 1;
            while let Some(d) = digit(j) {
                frac.push(char::from_digit(d, 10).unwrap());
                j += 1;
            }
        }
        let int = int.trim_start_matches('0');
        let frac = frac.trim_end_matches('0');
        let int = if int.is_empty() { "0" } else { int };
        out.push(if frac.is_empty() {
            int.to_owned()
        } else {
            format!("{int}.{frac}")
        });
        i = j;
    }
    out
}

fn skeleton(t: &str) -> String {
    t.replace('0', "O").replace('1', "l").replace('m', "rn")
}

/// The listed word an ASCII token is, by skeleton.
fn listed<'a>(t: &str, list: &[&'a str]) -> Option<&'a str> {
    if !t.is_ascii() {
        return None;
    }
    list.iter().copied().find(|w| skeleton(w) == skeleton(t))
}

fn plain_sentence(text: String) -> PlainSentence {
    let toks = citeproof_text::split_tokens(&text);
    let mut p = PlainSentence {
        negations: text.matches("n't").count() + text.matches("n’t").count(),
        stems: toks.iter().map(|t| stem(t).to_owned()).collect(),
        content: Vec::new(),
        strict: Vec::new(),
        numbers: plain_digit_numbers(&text).into_iter().collect(),
        quantifiers: BTreeSet::new(),
        text,
    };
    let number_words: Vec<&str> = NUMBER_WORDS.iter().map(|(w, _)| *w).collect();
    for t in &toks {
        if listed(t, NEGATIONS).is_some() {
            p.negations += 1;
        } else if let Some(q) = listed(t, QUANTIFIERS) {
            p.quantifiers.insert(q.to_owned());
        } else if let Some(w) = listed(t, &number_words) {
            let (_, v) = NUMBER_WORDS.iter().find(|(n, _)| *n == w).unwrap();
            p.numbers.insert(v.to_string());
        } else if listed(t, STOP_WORDS).is_none() {
            let digits = t.chars().all(|c| plain_digit(c).is_some());
            let s = stem(t).to_owned();
            if !t.is_ascii() && !digits && !p.strict.contains(&s) {
                p.strict.push(s.clone());
            }
            if t.chars().count() >= 3 && !digits && !p.content.contains(&s) {
                p.content.push(s);
            }
        }
    }
    p
}

fn plain(text: &str) -> Plain {
    let sentences: Vec<PlainSentence> = plain_sentences(text)
        .into_iter()
        .map(plain_sentence)
        .collect();
    let mut content: Vec<String> = Vec::new();
    for s in &sentences {
        for c in &s.content {
            if !content.contains(c) {
                content.push(c.clone());
            }
        }
    }
    Plain {
        normalized: citeproof_text::normalize(text),
        stems: sentences
            .iter()
            .flat_map(|s| s.stems.iter().cloned())
            .collect(),
        sentences,
        content,
    }
}

fn plain_sentence_check(x: &PlainSentence, y: &PlainSentence) -> Result<(), String> {
    if x.negations % 2 != y.negations % 2 {
        return Err(format!(
            "negation differs ({} negation marker(s) in the claim, {} in the sentence)",
            x.negations, y.negations
        ));
    }
    all_present(&x.numbers, &y.numbers, |list| {
        format!("the number(s) {list} of the claim are not in the sentence")
    })?;
    all_present(&x.quantifiers, &y.quantifiers, |list| {
        format!("the quantifier(s) {list} of the claim are not in the sentence")
    })?;
    if y.text.contains(&x.text) {
        return Ok(());
    }
    if x.text
        .chars()
        .any(|c| ('\u{202a}'..='\u{202e}').contains(&c) || ('\u{2066}'..='\u{2069}').contains(&c))
    {
        return Err(
            "the sentence holds bidirectional formatting characters and is not quoted verbatim"
                .into(),
        );
    }
    all_present(&x.strict, &y.stems, |list| {
        format!("the word(s) {list} of the claim, written outside ASCII, are not in the sentence")
    })?;
    let k = x.content.len();
    if k == 0 {
        return Err("the claim has no content word and is not a substring of the sentence".into());
    }
    let absent = absent_from(&x.content, &y.stems);
    let need = (k * 4).div_ceil(5);
    if k - absent.len() >= need {
        Ok(())
    } else {
        Err(format!(
            "{} of {k} content words are in the sentence, {need} needed (absent: {})",
            k - absent.len(),
            absent.join(", ")
        ))
    }
}

/// The words of `claim` that `sentence` lacks, in the claim's order.
fn absent_from<'a>(
    claim: impl IntoIterator<Item = &'a String>,
    sentence: &BTreeSet<String>,
) -> Vec<&'a str> {
    claim
        .into_iter()
        .filter(|w| !sentence.contains(*w))
        .map(String::as_str)
        .collect()
}

/// `Err(message(list))` when `sentence` lacks words of `claim` (`list`: them, comma-separated).
fn all_present<'a>(
    claim: impl IntoIterator<Item = &'a String>,
    sentence: &BTreeSet<String>,
    message: impl Fn(String) -> String,
) -> Result<(), String> {
    let absent = absent_from(claim, sentence);
    if absent.is_empty() {
        Ok(())
    } else {
        Err(message(absent.join(", ")))
    }
}

fn plain_supported_by(c: &Plain, e: &Plain) -> Result<(), String> {
    let (m, n) = (c.sentences.len(), e.sentences.len());
    if m == 0 {
        return Err("the claim has no word".into());
    }
    if m > 16 {
        return Err(format!(
            "the claim has {m} sentences; a claim of more than 16 is not checked"
        ));
    }
    if n < m {
        return Err(format!(
            "the claim has {m} sentence(s), the excerpt {n}: no run of {m} sentences supports it"
        ));
    }
    // Every run of m consecutive sentences, each claim sentence against its own.
    let runs: Vec<Vec<Result<(), String>>> = (0..=n - m)
        .map(|j| {
            c.sentences
                .iter()
                .zip(&e.sentences[j..j + m])
                .map(|(x, y)| plain_sentence_check(x, y))
                .collect()
        })
        .collect();
    if runs.iter().any(|run| run.iter().all(Result::is_ok)) {
        return Ok(());
    }
    let (i, j) = if m == 1 {
        let x = &c.sentences[0];
        let shared = |y: &PlainSentence| x.content.iter().filter(|s| y.stems.contains(*s)).count();
        let mut best = 0;
        for (j, y) in e.sentences.iter().enumerate() {
            if shared(y) > shared(&e.sentences[best]) {
                best = j;
            }
        }
        (0, best)
    } else {
        let ok = |run: &Vec<Result<(), String>>| run.iter().filter(|r| r.is_ok()).count();
        let mut best = 0;
        for (j, run) in runs.iter().enumerate() {
            if ok(run) > ok(&runs[best]) {
                best = j;
            }
        }
        let i = runs[best].iter().position(Result::is_err).unwrap();
        (i, best + i)
    };
    let why = plain_sentence_check(&c.sentences[i], &e.sentences[j]).unwrap_err();
    let which = if m == 1 {
        String::new()
    } else {
        format!("sentence {} of the claim: ", i + 1)
    };
    Err(format!(
        "{which}{why} (sentence {} of {n} of the excerpt)",
        j + 1
    ))
}

// The any-excerpt combinator is shared (its wording is the verifier's); what this file checks
// independently is the per-excerpt rule it is given.
fn plain_judge(claim: &str, excerpts: &[&str]) -> Judgement {
    let c = plain(claim);
    Judgement::by_any_excerpt(excerpts, |e| plain_supported_by(&c, &plain(e)))
}

/// Words of every class, near-misses of the stem rule, numbers in every written form, and
/// non-ASCII text that exercises N (case folding, NFC, White_Space).
fn arb_text() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        prop::sample::select(STOP_WORDS).prop_map(str::to_owned),
        prop::sample::select(NEGATIONS).prop_map(str::to_owned),
        prop::sample::select(QUANTIFIERS).prop_map(str::to_owned),
        prop::sample::select(NUMBER_WORDS).prop_map(|(w, _)| w.to_owned()),
        prop::sample::select(
            &[
                "crawler",
                "crawlers",
                "crawled",
                "crawling",
                "revisit",
                "revisits",
                "pages",
                "page",
                "Template",
                "TEMPLATES",
                "process",
                "gas",
                "emits",
                "canonical",
                "don't",
                "isn’t",
                "Straße",
                "STRASSE",
                "Café",
                "cafe\u{301}",
                "ΣΑΣ",
                "σας",
                "c3po",
                "ab",
                "xyz",
                "rnore",
                "on1y",
                "a11",
                "n0",
                "tw\u{43e}",
                "n\u{1d0f}t",
                "no\u{ad}t",
                "n\u{200b}ot",
                "\u{202e}ton\u{202c}",
                "\u{2067}\u{5e9}\u{5dc}\u{5d5}\u{5dd}\u{2069}",
                "\u{ff54}\u{ff57}\u{ff4f}",
                "\u{1d427}\u{1d428}\u{1d42d}",
                "\u{662}",
                "\u{661},\u{660}\u{660}\u{660}",
                "\u{967}\u{968}",
                "\u{ff12}",
                "e.g.",
                "U.S.",
                "Dr.",
                "\u{3002}",
            ][..]
        )
        .prop_map(str::to_owned),
        "[0-9]{1,4}(,[0-9]{3})?(\\.[0-9]{1,3})?",
        "[a-z]{1,9}",
    ];
    let sep = prop::sample::select(
        &[
            " ", " ", " ", ", ", ". ", ". ", "! ", "? ", ".\" ", "\n", "\n\n", "\u{2029}",
            "\u{a0}", "\t", "—", "-", "'", "\u{3002}", "...",
        ][..],
    );
    prop::collection::vec((word, sep), 0..14).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(w, s)| format!("{w}{s}"))
            .collect::<String>()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn digit_numbers_agree_with_the_plain_reading(s in "([0-9\u{660}-\u{669}\u{966}-\u{96f}]{1,5}|[,.]|[a-c\u{3b1} ]|,[0-9]{3}){0,12}") {
        prop_assert_eq!(digit_numbers(&s), plain_digit_numbers(&s));
    }

    #[test]
    fn the_judge_agrees_with_the_plain_rule(
        claim in arb_text(),
        excerpts in prop::collection::vec(arb_text(), 0..3),
        own in any::<bool>(),
    ) {
        let mut excerpts: Vec<String> = excerpts;
        if own {
            // An excerpt that contains the claim, so the substring path is exercised.
            excerpts.push(format!("Before. {claim} After."));
        }
        let refs: Vec<&str> = excerpts.iter().map(String::as_str).collect();
        prop_assert_eq!(LexicalJudge.judge(&claim, &refs), plain_judge(&claim, &refs));
        let c = Analyzed::new(&claim);
        let p = plain(&claim);
        prop_assert_eq!(c.len(), p.normalized.chars().count());
        for e in &refs {
            let relevant = (!p.content.is_empty())
                .then(|| p.content.iter().any(|s| plain(e).stems.contains(s)));
            prop_assert_eq!(Analyzed::new(e).shares_content_with(&c), relevant);
        }
    }

    /// `assess` reports a long excerpt by its normalized length and relevance by shared
    /// stems, as the plain rule computes them.
    #[test]
    fn assess_agrees_with_the_plain_rule(claim in arb_text(), excerpt in arb_text(), repeat in 1..40usize) {
        let long = excerpt.repeat(repeat);
        let refs = [ExcerptRef { text: &long, source_url: "s", location: Location::default() }];
        let got = assess(&Analyzed::new(&claim), &refs, &Location::default(), &LexicalJudge, &[]);
        let c = plain(&claim);
        let e = plain(&long);
        let too_long = e.normalized.chars().count() > excerpt_cap(c.normalized.chars().count());
        let codes: Vec<IncidentCode> = got.incidents.iter().map(|i| i.code).collect();
        prop_assert_eq!(codes.contains(&IncidentCode::AcaExcerptTooLong), too_long);
        if !too_long {
            let irrelevant = !c.content.is_empty()
                && !c.content.iter().any(|s| e.stems.contains(s));
            prop_assert_eq!(codes.contains(&IncidentCode::AcaSourceIrrelevant), irrelevant);
            let supported = plain_judge(&claim, &[&long]) == Judgement::Supported;
            prop_assert_eq!(got.supported, Some(supported));
        } else {
            prop_assert_eq!(got.supported, None);
        }
    }
}
