//! The support rule (ACA-L2-018 to -020) against a second, plain implementation of the
//! profile's text: sets of owned strings built straight from the definitions in
//! docs/PROFILE.md ("ACA Level 2", support check), with none of the reference judge's
//! shortcuts (one analysis per text, sorted spans, the merged word table, the excerpt cap
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
use proptest::prelude::*;

/// The definitions, written as sets.
struct Plain {
    normalized: String,
    tokens: BTreeSet<String>,
    stems: BTreeSet<String>,
    content_stems: Vec<String>,
    negations: usize,
    numbers: BTreeSet<String>,
    quantifiers: BTreeSet<String>,
}

fn plain(text: &str) -> Plain {
    let normalized = citeproof_text::normalize(text);
    let toks = citeproof_text::split_tokens(&normalized);
    let mut p = Plain {
        negations: normalized.matches("n't").count() + normalized.matches("n’t").count(),
        tokens: toks.iter().cloned().collect(),
        stems: toks.iter().map(|t| stem(t).to_owned()).collect(),
        content_stems: Vec::new(),
        numbers: plain_digit_numbers(&normalized).into_iter().collect(),
        quantifiers: BTreeSet::new(),
        normalized,
    };
    for t in &toks {
        if NEGATIONS.contains(&t.as_str()) {
            p.negations += 1;
        } else if QUANTIFIERS.contains(&t.as_str()) {
            p.quantifiers.insert(t.clone());
        } else if let Some((_, v)) = NUMBER_WORDS.iter().find(|(w, _)| w == t) {
            p.numbers.insert(v.to_string());
        } else if t.chars().count() >= 3
            && !STOP_WORDS.contains(&t.as_str())
            && !t.chars().all(|c| c.is_ascii_digit())
            && !p.content_stems.contains(&stem(t).to_owned())
        {
            p.content_stems.push(stem(t).to_owned());
        }
    }
    p
}

/// Numbers as the definition reads: digits collected, separators dropped, zeros trimmed.
fn plain_digit_numbers(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b.get(i).is_some_and(u8::is_ascii_digit)
            || (i > 0 && b.get(i - 1).is_some_and(u8::is_ascii_alphanumeric))
        {
            i += 1;
            continue;
        }
        let mut int = String::new();
        let mut j = i;
        while let Some(c) = b.get(j).filter(|c| c.is_ascii_digit()) {
            int.push(char::from(*c));
            j += 1;
            if b.get(j) == Some(&b',')
                && (1..=3).all(|k| b.get(j + k).is_some_and(u8::is_ascii_digit))
                && !b.get(j + 4).is_some_and(u8::is_ascii_digit)
            {
                j += 1;
            }
        }
        let mut frac = String::new();
        if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
            j += 1;
            while let Some(c) = b.get(j).filter(|c| c.is_ascii_digit()) {
                frac.push(char::from(*c));
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

fn plain_supported_by(c: &Plain, e: &Plain) -> Result<(), String> {
    if c.negations % 2 != e.negations % 2 {
        return Err(format!(
            "negation differs ({} negation marker(s) in the claim, {} in the excerpt)",
            c.negations, e.negations
        ));
    }
    let missing: Vec<&str> = c
        .numbers
        .iter()
        .filter(|n| !e.numbers.contains(*n))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the number(s) {} of the claim are not in the excerpt",
            missing.join(", ")
        ));
    }
    let missing: Vec<&str> = c
        .quantifiers
        .iter()
        .filter(|q| !e.tokens.contains(*q))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the quantifier(s) {} of the claim are not in the excerpt",
            missing.join(", ")
        ));
    }
    if e.normalized.contains(&c.normalized) {
        return Ok(());
    }
    let k = c.content_stems.len();
    if k == 0 {
        return Err("the claim has no content word and is not a substring of the excerpt".into());
    }
    let absent: Vec<&str> = c
        .content_stems
        .iter()
        .filter(|s| !e.stems.contains(*s))
        .map(String::as_str)
        .collect();
    let need = (k * 4).div_ceil(5);
    if k - absent.len() >= need {
        Ok(())
    } else {
        Err(format!(
            "{} of {k} content words are in the excerpt, {need} needed (absent: {})",
            k - absent.len(),
            absent.join(", ")
        ))
    }
}

fn plain_judge(claim: &str, excerpts: &[&str]) -> Judgement {
    let c = plain(claim);
    let mut reasons = Vec::new();
    for e in excerpts {
        match plain_supported_by(&c, &plain(e)) {
            Ok(()) => return Judgement::Supported,
            Err(why) => reasons.push(why),
        }
    }
    Judgement::Unsupported {
        reason: if reasons.is_empty() {
            "no excerpt to check the claim against".into()
        } else {
            format!(
                "no single excerpt supports the claim: {}",
                reasons.join("; ")
            )
        },
    }
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
            ][..]
        )
        .prop_map(str::to_owned),
        "[0-9]{1,4}(,[0-9]{3})?(\\.[0-9]{1,3})?",
        "[a-z]{1,9}",
    ];
    let sep = prop::sample::select(&[" ", " ", ", ", ". ", "\u{a0}", "\t", "—", "-", "'"][..]);
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
    fn digit_numbers_agree_with_the_plain_reading(s in "([0-9]{1,5}|[,.]|[a-c ]|,[0-9]{3}){0,12}") {
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
            let relevant = (!p.content_stems.is_empty())
                .then(|| p.content_stems.iter().any(|s| plain(e).stems.contains(s)));
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
            let irrelevant = !c.content_stems.is_empty()
                && !c.content_stems.iter().any(|s| e.stems.contains(s));
            prop_assert_eq!(codes.contains(&IncidentCode::AcaSourceIrrelevant), irrelevant);
            let supported = plain_judge(&claim, &[&long]) == Judgement::Supported;
            prop_assert_eq!(got.supported, Some(supported));
        } else {
            prop_assert_eq!(got.supported, None);
        }
    }
}
