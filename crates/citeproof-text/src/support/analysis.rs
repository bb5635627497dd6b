//! The analysis of a text for the support rule (profile, "ACA Level 2", support check): `N(s)`
//! for the excerpt cap, and for each sentence of `s` (see [`super::sentences`]) its stems,
//! negation count, numbers, quantifiers, content words and strict words, kept as sorted sets of
//! hashed spans of the sentences' text.

use std::hash::Hasher as _;
use std::sync::LazyLock;

use rustc_hash::FxHashMap;

use super::sentences::{compat, decimal_value, fold, is_bidi_control, is_decimal_digit, pieces};
use super::{
    ASCII_CONFUSABLES, CONTENT_DENOMINATOR, CONTENT_NUMERATOR, MAX_CLAIM_SENTENCES, NEGATIONS,
    NUMBER_WORDS, QUANTIFIERS, STOP_WORDS, normalize,
};

/// A word of [`Analyzed::folded`]: its hash and its byte range. Sets of words are sorted by
/// (hash, text), so that sorting and lookups compare integers, and text only on a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Word {
    hash: u64,
    start: usize,
    end: usize,
}

// An unkeyed hash is safe here although the words are hostile: word sets are sorted vectors,
// where colliding hashes cost one text comparison each, never a longer probe sequence.
fn hash_of(word: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(word.as_bytes());
    h.finish()
}

/// One sentence: its range in [`Analyzed::folded`] and the classes of its words.
#[derive(Debug, Clone, Default)]
struct Sentence {
    start: usize,
    end: usize,
    /// Distinct stems of every token, sorted by (hash, text).
    stems: Vec<Word>,
    /// Distinct stems of the content words, in order of first occurrence.
    content: Vec<Word>,
    /// Distinct stems of the strict words (a character outside ASCII, not all digits).
    strict: Vec<Word>,
    negations: usize,
    /// Distinct number values, sorted.
    numbers: Vec<String>,
    /// Distinct quantifier words (as listed), sorted.
    quantifiers: Vec<&'static str>,
}

/// A text prepared once for the rules: `N(s)`, and its sentences with the classes of their
/// words.
///
/// Word sets are sorted vectors of [`Word`]s rather than sets of owned strings: a claim and its
/// excerpt are analyzed once per verification (ten thousand claims make twenty thousand
/// analyses), and the sets are small, so a binary search over one allocation, comparing
/// hashes, beats a tree of strings compared byte by byte.
#[derive(Debug, Clone)]
pub struct Analyzed<'t> {
    text: &'t str,
    pub normalized: String,
    /// Length of `normalized` in Unicode scalar values.
    chars: usize,
    /// `K` of every sentence, each followed by a line feed (which `K` never contains).
    folded: String,
    sentences: Vec<Sentence>,
    /// Distinct stems of every sentence (relevance, ACA-L2-019).
    stems: Vec<Word>,
    /// Distinct content stems of every sentence, in order of first occurrence.
    content_stems: Vec<Word>,
}

impl<'t> Analyzed<'t> {
    pub fn new(text: &'t str) -> Analyzed<'t> {
        Self::from_normalized(text, normalize(text))
    }

    /// `text` whose `N(text)` is already known (`normalized`), so that a caller can look at
    /// its length (the excerpt cap) or search for it before paying for the word analysis.
    pub fn from_normalized(text: &'t str, normalized: String) -> Analyzed<'t> {
        let d = compat(text);
        let mut folded = String::with_capacity(d.len() + 8);
        let mut sentences = Vec::new();
        for (a, b) in pieces(&d) {
            let k = fold(d.get(a..b).unwrap_or_default());
            if crate::token_spans(&k).next().is_none() {
                continue;
            }
            let start = folded.len();
            folded.push_str(&k);
            sentences.push(Sentence {
                start,
                end: folded.len(),
                ..Sentence::default()
            });
            folded.push('\n');
        }
        for s in &mut sentences {
            analyze(&folded, s);
        }
        let text_of = |w: &Word| folded.get(w.start..w.end).unwrap_or_default();
        let mut stems: Vec<Word> = sentences.iter().flat_map(|s| s.stems.clone()).collect();
        sort_set(&mut stems, text_of);
        let mut content_stems: Vec<Word> =
            sentences.iter().flat_map(|s| s.content.clone()).collect();
        distinct_in_order(&mut content_stems, text_of);
        Analyzed {
            text,
            chars: normalized.chars().count(),
            normalized,
            folded,
            sentences,
            stems,
            content_stems,
        }
    }

    /// Distinct content-word stems (for tests of the analysis's cost on long texts).
    #[cfg(test)]
    pub(super) fn content_stem_count(&self) -> usize {
        self.content_stems.len()
    }

    /// The number of sentences (pieces of `D(s)` with at least one token).
    pub fn sentence_count(&self) -> usize {
        self.sentences.len()
    }

    /// The text as given, before normalization.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// Length of `N(s)` in Unicode scalar values.
    pub fn len(&self) -> usize {
        self.chars
    }

    pub fn is_empty(&self) -> bool {
        self.normalized.is_empty()
    }

    fn word(&self, w: &Word) -> &str {
        self.folded.get(w.start..w.end).unwrap_or_default()
    }

    fn sentence_text(&self, s: &Sentence) -> &str {
        self.folded.get(s.start..s.end).unwrap_or_default()
    }

    /// Whether `sorted` (a set sorted by hash, then text) holds `word`.
    fn holds(&self, sorted: &[Word], word: &str) -> bool {
        let hash = hash_of(word);
        sorted
            .binary_search_by(|w| w.hash.cmp(&hash).then_with(|| self.word(w).cmp(word)))
            .is_ok()
    }

    /// The rule of ACA-L2-018 for one excerpt: the m sentences of the claim are supported, in
    /// order, by a run of m consecutive sentences of `e`. `Err` says which sentence failed, and
    /// why against the closest sentence (one-sentence claims) or in the run that came closest.
    pub fn supported_by(&self, e: &Analyzed<'_>) -> Result<(), String> {
        let (m, n) = (self.sentences.len(), e.sentences.len());
        if m == 0 {
            return Err("the claim has no word".into());
        }
        if m > MAX_CLAIM_SENTENCES {
            return Err(format!(
                "the claim has {m} sentences; a claim of more than {MAX_CLAIM_SENTENCES} is not checked"
            ));
        }
        if n < m {
            return Err(format!(
                "the claim has {m} sentence(s), the excerpt {n}: no run of {m} sentences supports it"
            ));
        }
        // For each start of a run, how many claim sentences its sentences support; O(m n)
        // comparisons, each O(|y| log |y|): at most 16 times the excerpt.
        let mut best = (0usize, 0usize);
        for j in 0..=n - m {
            let run = e.sentences.get(j..j + m).unwrap_or_default();
            let supported = self
                .sentences
                .iter()
                .zip(run)
                .filter(|(x, y)| self.sentence_check(x, e, y, false).is_ok())
                .count();
            if supported == m {
                return Ok(());
            }
            if supported > best.1 {
                best = (j, supported);
            }
        }
        let (x, j) = if m == 1 {
            let x = self.sentences.first();
            let j = x.and_then(|x| self.closest(x, e)).map(|(j, _)| j);
            (x, j.unwrap_or(0))
        } else {
            let failing = self
                .sentences
                .iter()
                .zip(e.sentences.iter().skip(best.0))
                .position(|(x, y)| self.sentence_check(x, e, y, false).is_err())
                .unwrap_or(0);
            (self.sentences.get(failing), best.0 + failing)
        };
        let (Some(x), Some(y)) = (x, e.sentences.get(j)) else {
            return Err("the excerpt has no word".into());
        };
        let why = self.sentence_check(x, e, y, true).err().unwrap_or_default();
        let which = if m == 1 {
            String::new()
        } else {
            format!("sentence {} of the claim: ", j - best.0 + 1)
        };
        Err(format!(
            "{which}{why} (sentence {} of {n} of the excerpt)",
            j + 1
        ))
    }

    /// The sentence of `e` holding the most content stems of `x`, the first of equals. Each
    /// count costs O(min(|x|, |y|) log) lookups, so the search is linear in the excerpt.
    fn closest<'e>(&self, x: &Sentence, e: &'e Analyzed<'_>) -> Option<(usize, &'e Sentence)> {
        let mut sorted = x.content.clone();
        sort_set(&mut sorted, |w| self.word(w));
        let mut best: Option<(usize, usize, &Sentence)> = None;
        for (j, y) in e.sentences.iter().enumerate() {
            let shared = if x.content.len() <= y.stems.len() {
                self.shared_content(x, e, y)
            } else {
                y.stems
                    .iter()
                    .filter(|w| self.holds(&sorted, e.word(w)))
                    .count()
            };
            if best.is_none_or(|(_, most, _)| shared > most) {
                best = Some((j, shared, y));
            }
        }
        best.map(|(j, _, y)| (j, y))
    }

    /// How many content stems of `x` are stems of `y` (|x| lookups in `y`).
    fn shared_content(&self, x: &Sentence, e: &Analyzed<'_>, y: &Sentence) -> usize {
        x.content
            .iter()
            .filter(|w| e.holds(&y.stems, self.word(w)))
            .count()
    }

    /// The words of `words` (of this text) that are not stems of `y`, a sentence of `e`.
    fn absent(&self, words: &[Word], e: &Analyzed<'_>, y: &Sentence) -> Vec<&str> {
        let absent = words.iter().map(|w| self.word(w));
        absent.filter(|w| !e.holds(&y.stems, w)).collect()
    }

    /// Conditions (1) to (4) of ACA-L2-018 for claim sentence `x` and excerpt sentence `y`.
    /// Unless `explain` (the one comparison whose failure is reported), each test that could
    /// cost more than `y`'s size is not made when `y` is too small to pass it, and fails with
    /// no message, so one comparison costs O(|y| log |y|) at most.
    fn sentence_check(
        &self,
        x: &Sentence,
        e: &Analyzed<'_>,
        y: &Sentence,
        explain: bool,
    ) -> Result<(), String> {
        let quick = !explain;
        if x.negations % 2 != y.negations % 2 {
            return Err(format!(
                "negation differs ({} negation marker(s) in the claim, {} in the sentence)",
                x.negations, y.negations
            ));
        }
        if quick {
            // Every test below costs O(|y| log |y|) at most, or is not made.
            let numbers = x.numbers.len() <= y.numbers.len()
                && x.numbers.iter().all(|v| y.numbers.binary_search(v).is_ok());
            let quantifiers = x
                .quantifiers
                .iter()
                .all(|q| y.quantifiers.binary_search(q).is_ok());
            if !numbers || !quantifiers {
                return Err(String::new());
            }
        }
        let missing: Vec<&str> = x
            .numbers
            .iter()
            .filter(|v| y.numbers.binary_search(v).is_err())
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the number(s) {} of the claim are not in the sentence",
                missing.join(", ")
            ));
        }
        let missing: Vec<&str> = x
            .quantifiers
            .iter()
            .filter(|q| y.quantifiers.binary_search(q).is_err())
            .copied()
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the quantifier(s) {} of the claim are not in the sentence",
                missing.join(", ")
            ));
        }
        let (xs, ys) = (self.sentence_text(x), e.sentence_text(y));
        if xs.len() <= ys.len() && ys.contains(xs) {
            return Ok(());
        }
        if xs.contains(is_bidi_control) {
            return Err(
                "the sentence holds bidirectional formatting characters and is not quoted verbatim"
                    .into(),
            );
        }
        if quick {
            let strict = x.strict.len() <= y.stems.len()
                && x.strict.iter().all(|w| e.holds(&y.stems, self.word(w)));
            let k = x.content.len();
            let need = (k * CONTENT_NUMERATOR).div_ceil(CONTENT_DENOMINATOR);
            // k ≤ 5/4 need + 1 ≤ 5/4 |y| + 1: counting costs O(|y| log |y|).
            let content = k > 0 && y.stems.len() >= need && self.shared_content(x, e, y) >= need;
            return if strict && content {
                Ok(())
            } else {
                Err(String::new())
            };
        }
        let absent = self.absent(&x.strict, e, y);
        if !absent.is_empty() {
            return Err(format!(
                "the word(s) {} of the claim, written outside ASCII, are not in the sentence",
                absent.join(", ")
            ));
        }
        let k = x.content.len();
        if k == 0 {
            return Err(
                "the claim has no content word and is not a substring of the sentence".into(),
            );
        }
        let need = (k * CONTENT_NUMERATOR).div_ceil(CONTENT_DENOMINATOR);
        let absent = self.absent(&x.content, e, y);
        if k - absent.len() >= need {
            return Ok(());
        }
        Err(format!(
            "{} of {k} content words are in the sentence, {need} needed (absent: {})",
            k - absent.len(),
            absent.join(", ")
        ))
    }

    /// ACA-L2-019: does this excerpt share a content-word stem with `claim`? `None` when the
    /// claim has no content word.
    pub fn shares_content_with(&self, claim: &Analyzed<'_>) -> Option<bool> {
        if claim.content_stems.is_empty() {
            return None;
        }
        Some(
            claim
                .content_stems
                .iter()
                .any(|s| self.holds(&self.stems, claim.word(s))),
        )
    }
}

/// Sorts a set of words by (hash, text) and removes repeats.
fn sort_set<'a>(set: &mut Vec<Word>, text_of: impl Fn(&Word) -> &'a str) {
    set.sort_unstable_by(|a, b| a.hash.cmp(&b.hash).then_with(|| text_of(a).cmp(text_of(b))));
    set.dedup_by(|a, b| a.hash == b.hash && text_of(a) == text_of(b));
}

/// Keeps the first occurrence of each word, in order: sort by (word, position), keep the first
/// of each word, then restore position order. O(k log k) for a text of any length (a linear
/// `contains` per word would be quadratic in a whole cited page).
fn distinct_in_order<'a>(set: &mut Vec<Word>, text_of: impl Fn(&Word) -> &'a str) {
    set.sort_unstable_by(|a, b| {
        a.hash
            .cmp(&b.hash)
            .then_with(|| text_of(a).cmp(text_of(b)))
            .then(a.start.cmp(&b.start))
    });
    set.dedup_by(|a, b| a.hash == b.hash && text_of(a) == text_of(b));
    set.sort_unstable_by_key(|w| w.start);
}

/// Fills the word classes of sentence `s` of `folded`.
fn analyze(folded: &str, s: &mut Sentence) {
    let text = folded.get(s.start..s.end).unwrap_or_default();
    s.negations = text.matches("n't").count() + text.matches("n’t").count();
    s.numbers = digit_numbers(text);
    for (at, token) in crate::token_spans(text) {
        let start = s.start + at;
        let stemmed = stem(token);
        let stem_word = Word {
            hash: hash_of(stemmed),
            start,
            end: start + stemmed.len(),
        };
        s.stems.push(stem_word);
        match word_class(token) {
            Some(WordClass::Negation) => s.negations += 1,
            Some(WordClass::Quantifier(q)) => s.quantifiers.push(q),
            Some(WordClass::Number(n)) => s.numbers.push(n.to_string()),
            Some(WordClass::Stop) => {}
            None => {
                let all_digits = token.chars().all(is_decimal_digit);
                if !token.is_ascii() && !all_digits {
                    s.strict.push(stem_word);
                }
                if token.chars().nth(2).is_some() && !all_digits {
                    s.content.push(stem_word);
                }
            }
        }
    }
    let text_of = |w: &Word| folded.get(w.start..w.end).unwrap_or_default();
    sort_set(&mut s.stems, text_of);
    distinct_in_order(&mut s.content, text_of);
    distinct_in_order(&mut s.strict, text_of);
    s.quantifiers.sort_unstable();
    s.quantifiers.dedup();
    s.numbers.sort_unstable();
    s.numbers.dedup();
}

/// The class of a word in the profile's lists; a token in none of them is a content word
/// when it is long enough and not all digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WordClass {
    Negation,
    Quantifier(&'static str),
    Number(u64),
    Stop,
}

/// The UTS #39 skeleton of an ASCII token after case folding: only `0`, `1` and `m` have a
/// prototype other than themselves ([`ASCII_CONFUSABLES`]).
pub fn ascii_skeleton(token: &str) -> std::borrow::Cow<'_, str> {
    if !token
        .bytes()
        .any(|b| ASCII_CONFUSABLES.iter().any(|(c, _)| *c == b))
    {
        return std::borrow::Cow::Borrowed(token);
    }
    let mut out = String::with_capacity(token.len() + 4);
    for c in token.chars() {
        match ASCII_CONFUSABLES
            .iter()
            .find(|(a, _)| u32::from(*a) == u32::from(c))
        {
            Some((_, prototype)) => out.push_str(prototype),
            None => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The four word lists in one table keyed by the skeleton of each word, so that a token is
/// classified by one hash lookup and a confusable spelling ("rnore", "on1y") finds its word.
/// The skeletons are distinct (a test says so); were they not, the order of the rule
/// (negation, quantifier, number, stop word) would decide, as the first insertion is kept.
static WORD_CLASSES: LazyLock<FxHashMap<String, WordClass>> = LazyLock::new(|| {
    let mut table = FxHashMap::default();
    let lists = NEGATIONS
        .iter()
        .map(|w| (*w, WordClass::Negation))
        .chain(QUANTIFIERS.iter().map(|w| (*w, WordClass::Quantifier(w))))
        .chain(
            NUMBER_WORDS
                .iter()
                .map(|(w, v)| (*w, WordClass::Number(*v))),
        )
        .chain(STOP_WORDS.iter().map(|w| (*w, WordClass::Stop)));
    for (word, class) in lists {
        table
            .entry(ascii_skeleton(word).into_owned())
            .or_insert(class);
    }
    table
});

/// The class of a token: an ASCII token by its skeleton; a token with a character outside
/// ASCII is in no list (it is a strict word).
fn word_class(t: &str) -> Option<WordClass> {
    if !t.is_ascii() {
        return None;
    }
    WORD_CLASSES.get(ascii_skeleton(t).as_ref()).copied()
}

/// Whether the lists' skeletons are distinct (for the tests).
#[cfg(test)]
pub(super) fn skeletons_are_distinct() -> bool {
    WORD_CLASSES.len()
        == NEGATIONS.len() + QUANTIFIERS.len() + NUMBER_WORDS.len() + STOP_WORDS.len()
}

/// The light suffix rule of the profile: `-ing` (stem ≥ 3 left), else `-ed` (≥ 3 left), else
/// `-s` not after `s` (≥ 3 left).
pub fn stem(t: &str) -> &str {
    let n = t.chars().count();
    if n >= 6
        && let Some(s) = t.strip_suffix("ing")
    {
        return s;
    }
    if n >= 5
        && let Some(s) = t.strip_suffix("ed")
    {
        return s;
    }
    if n >= 4
        && !t.ends_with("ss")
        && let Some(s) = t.strip_suffix('s')
    {
        return s;
    }
    t
}

/// Numbers written with decimal digits of any script (General_Category Nd, by value), as
/// canonical decimal strings: a run of digits not preceded by a token character, with `,`
/// followed by exactly three digits (thousands separators, removed) and at most one `.`
/// followed by digits (a decimal point); leading zeros and trailing fraction zeros dropped.
pub fn digit_numbers(s: &str) -> Vec<String> {
    // ASCII text (most claims and excerpts) is read byte by byte: no copy into characters.
    if s.is_ascii() {
        numbers_in(s.as_bytes(), |b| char::from(b).to_digit(10))
    } else {
        let chars: Vec<char> = s.chars().collect();
        numbers_in(&chars, decimal_value)
    }
}

/// [`digit_numbers`] over the characters of a text (bytes of an ASCII text, or `char`s).
fn numbers_in<C: Copy + Into<char>>(chars: &[C], value: impl Fn(C) -> Option<u32>) -> Vec<String> {
    let digit = |j: usize| chars.get(j).copied().and_then(&value);
    let at = |j: usize| chars.get(j).copied().map(Into::into);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let glued = i > 0 && at(i - 1).is_some_and(crate::is_token_char);
        if digit(i).is_none() || glued {
            i += 1;
            continue;
        }
        // One string per number, written as it is read: leading zeros of the integer part
        // skipped, trailing zeros of the fraction popped.
        let mut value = String::new();
        let mut j = i;
        while let Some(d) = digit(j) {
            if !(value.is_empty() && d == 0) {
                value.push(char::from_digit(d, 10).unwrap_or('0'));
            }
            j += 1;
            if at(j) == Some(',')
                && (1..=3).all(|k| digit(j + k).is_some())
                && digit(j + 4).is_none()
            {
                j += 1;
            }
        }
        if value.is_empty() {
            value.push('0');
        }
        if at(j) == Some('.') && digit(j + 1).is_some() {
            let point = value.len();
            value.push('.');
            j += 1;
            while let Some(d) = digit(j) {
                value.push(char::from_digit(d, 10).unwrap_or('0'));
                j += 1;
            }
            while value.len() > point + 1 && value.ends_with('0') {
                value.pop();
            }
            if value.len() == point + 1 {
                value.pop();
            }
        }
        out.push(value);
        i = j;
    }
    out
}
