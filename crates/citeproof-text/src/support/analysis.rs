//! The analysis of a text for the support rule (profile, "ACA Level 2", support check): `N(s)`
//! once, its tokens, stems, negation count, numbers, quantifiers and content words, kept as
//! sorted sets of hashed spans of the normalized text.

use std::hash::Hasher as _;
use std::sync::LazyLock;

use rustc_hash::FxHashMap;

use super::{
    CONTENT_DENOMINATOR, CONTENT_NUMERATOR, NEGATIONS, NUMBER_WORDS, QUANTIFIERS, STOP_WORDS,
    normalize,
};

/// A word of [`Analyzed::normalized`]: its hash and its byte range. Sets of words are sorted
/// by (hash, text), so that sorting and lookups compare integers, and text only on a tie.
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

/// A text prepared once for the rules: `N(s)`, its tokens and the classes derived from them.
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
    /// Distinct tokens.
    tokens: Vec<Word>,
    /// Distinct stems of every token.
    stems: Vec<Word>,
    /// Distinct stems of the content words, in order of first occurrence (messages list them
    /// in that order).
    content_stems: Vec<Word>,
    negations: usize,
    /// Distinct number values, sorted.
    numbers: Vec<String>,
    /// Distinct quantifier tokens, sorted by text (messages list them in that order).
    quantifiers: Vec<Word>,
}

impl<'t> Analyzed<'t> {
    pub fn new(text: &'t str) -> Analyzed<'t> {
        Self::from_normalized(text, normalize(text))
    }

    /// `text` whose `N(text)` is already known (`normalized`), so that a caller can look at
    /// its length (the excerpt cap) or search for it before paying for the word analysis.
    pub fn from_normalized(text: &'t str, normalized: String) -> Analyzed<'t> {
        let s = normalized.as_str();
        let mut negations = s.matches("n't").count() + s.matches("n’t").count();
        // About one token per six bytes of English text; the vectors rarely grow.
        let guess = s.len() / 6 + 4;
        let mut tokens = Vec::with_capacity(guess);
        let mut stems = Vec::with_capacity(guess);
        let mut content = Vec::with_capacity(guess);
        let mut numbers = digit_numbers(s);
        let mut quantifiers = Vec::new();
        for (start, token) in crate::token_spans(s) {
            let stemmed = stem(token);
            let whole = Word {
                hash: hash_of(token),
                start,
                end: start + token.len(),
            };
            let stemmed = Word {
                hash: hash_of(stemmed),
                start,
                end: start + stemmed.len(),
            };
            tokens.push(whole);
            stems.push(stemmed);
            match word_class(token) {
                Some(WordClass::Negation) => negations += 1,
                Some(WordClass::Quantifier) => quantifiers.push(whole),
                Some(WordClass::Number(n)) => numbers.push(n.to_string()),
                Some(WordClass::Stop) => {}
                None if is_content_word(token) => content.push(stemmed),
                None => {}
            }
        }
        let text_of = |w: &Word| s.get(w.start..w.end).unwrap_or_default();
        let order =
            |a: &Word, b: &Word| a.hash.cmp(&b.hash).then_with(|| text_of(a).cmp(text_of(b)));
        let same = |a: &mut Word, b: &mut Word| a.hash == b.hash && text_of(a) == text_of(b);
        for set in [&mut tokens, &mut stems] {
            set.sort_unstable_by(order);
            set.dedup_by(same);
        }
        // Distinct content stems in first-occurrence order: sort by (word, position), keep the
        // first of each word, then restore position order. O(k log k) for an excerpt of any
        // length (a linear `contains` per word would be quadratic in a whole cited page).
        content.sort_unstable_by(|a, b| order(a, b).then(a.start.cmp(&b.start)));
        content.dedup_by(same);
        content.sort_unstable_by_key(|w| w.start);
        quantifiers.sort_unstable_by(|a, b| text_of(a).cmp(text_of(b)));
        quantifiers.dedup_by(same);
        numbers.sort_unstable();
        numbers.dedup();
        Analyzed {
            text,
            chars: s.chars().count(),
            tokens,
            stems,
            content_stems: content,
            negations,
            numbers,
            quantifiers,
            normalized,
        }
    }

    /// Distinct content-word stems (for tests of the analysis's cost on long texts).
    #[cfg(test)]
    pub(super) fn content_stem_count(&self) -> usize {
        self.content_stems.len()
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
        self.normalized.get(w.start..w.end).unwrap_or_default()
    }

    /// Whether `sorted` (a set sorted by hash, then text) holds `word`.
    fn holds(&self, sorted: &[Word], word: &str) -> bool {
        let hash = hash_of(word);
        sorted
            .binary_search_by(|w| w.hash.cmp(&hash).then_with(|| self.word(w).cmp(word)))
            .is_ok()
    }

    fn has_token(&self, word: &str) -> bool {
        self.holds(&self.tokens, word)
    }

    fn has_stem(&self, word: &str) -> bool {
        self.holds(&self.stems, word)
    }

    /// The rule of ACA-L2-018 for one excerpt; `Err` says which part failed.
    pub fn supported_by(&self, e: &Analyzed<'_>) -> Result<(), String> {
        if self.negations % 2 != e.negations % 2 {
            return Err(format!(
                "negation differs ({} negation marker(s) in the claim, {} in the excerpt)",
                self.negations, e.negations
            ));
        }
        let missing: Vec<&str> = self
            .numbers
            .iter()
            .filter(|n| e.numbers.binary_search(n).is_err())
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the number(s) {} of the claim are not in the excerpt",
                missing.join(", ")
            ));
        }
        let missing: Vec<&str> = self
            .quantifiers
            .iter()
            .map(|q| self.word(q))
            .filter(|q| !e.has_token(q))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the quantifier(s) {} of the claim are not in the excerpt",
                missing.join(", ")
            ));
        }
        if e.normalized.contains(&self.normalized) {
            return Ok(());
        }
        let k = self.content_stems.len();
        let need = (k * CONTENT_NUMERATOR).div_ceil(CONTENT_DENOMINATOR);
        let absent: Vec<&str> = self
            .content_stems
            .iter()
            .map(|s| self.word(s))
            .filter(|s| !e.has_stem(s))
            .collect();
        if k == 0 {
            return Err(
                "the claim has no content word and is not a substring of the excerpt".into(),
            );
        }
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
                .any(|s| self.has_stem(claim.word(s))),
        )
    }
}

/// The class of a word in the profile's lists; a token in none of them is a content word
/// when it is long enough and not all digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WordClass {
    Negation,
    Quantifier,
    Number(u64),
    Stop,
}

/// The four word lists in one table, so that a token is classified by one hash lookup. The
/// lists are disjoint (a test says so); were they not, the order of the rule (negation,
/// quantifier, number, stop word) would decide, as the first insertion is kept.
static WORD_CLASSES: LazyLock<FxHashMap<&'static str, WordClass>> = LazyLock::new(|| {
    let mut table = FxHashMap::default();
    let lists = NEGATIONS
        .iter()
        .map(|w| (*w, WordClass::Negation))
        .chain(QUANTIFIERS.iter().map(|w| (*w, WordClass::Quantifier)))
        .chain(
            NUMBER_WORDS
                .iter()
                .map(|(w, v)| (*w, WordClass::Number(*v))),
        )
        .chain(STOP_WORDS.iter().map(|w| (*w, WordClass::Stop)));
    for (word, class) in lists {
        table.entry(word).or_insert(class);
    }
    table
});

fn word_class(t: &str) -> Option<WordClass> {
    WORD_CLASSES.get(t).copied()
}

/// A token in none of the word lists is a content word when it has at least 3 scalar values
/// and is not all digits.
fn is_content_word(t: &str) -> bool {
    t.chars().nth(2).is_some() && !t.bytes().all(|c| c.is_ascii_digit())
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

/// Numbers written with ASCII digits, as canonical decimal strings: a run of digits with `,`
/// followed by exactly three digits (thousands separators, removed) and at most one `.`
/// followed by digits (a decimal point); leading zeros and trailing fraction zeros dropped.
pub fn digit_numbers(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let digit = |j: usize| b.get(j).is_some_and(u8::is_ascii_digit);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !digit(i) || (i > 0 && is_digit_or_word(b, i - 1)) {
            i += 1;
            continue;
        }
        // One string per number, written as it is read: leading zeros of the integer part
        // skipped, trailing zeros of the fraction popped.
        let mut value = String::new();
        let mut j = i;
        while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
            if !(value.is_empty() && c == b'0') {
                value.push(char::from(c));
            }
            j += 1;
            if b.get(j) == Some(&b',') && (1..=3).all(|k| digit(j + k)) && !digit(j + 4) {
                j += 1;
            }
        }
        if value.is_empty() {
            value.push('0');
        }
        if b.get(j) == Some(&b'.') && digit(j + 1) {
            let point = value.len();
            value.push('.');
            j += 1;
            while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
                value.push(char::from(c));
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

/// Whether the byte at `i` is an ASCII letter or digit (a digit run glued to a word, such as
/// `c3po`, is part of that token, not a number).
fn is_digit_or_word(b: &[u8], i: usize) -> bool {
    b.get(i).is_some_and(u8::is_ascii_alphanumeric)
}
