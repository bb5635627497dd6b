//! ARCHIVE-033: the text a requestor reads besides the excerpts (delivered claim texts, their
//! labels, removed topics) repeats no text of a restricted artifact and no more open text than
//! the tier's excerpt cap. Windows (4 tokens of `N(V(s))`) of the shown strings are collected
//! first; the archive's paragraphs are then scanned once, so the work is linear in the archive
//! and the memory in the shown strings.

use std::collections::HashMap;

use citeproof_model::archive::Consent;
use citeproof_text::{normalize, token_spans};

use crate::store::Store;
use crate::text::{REVEAL_TOKENS, visible};

/// Which kinds of artifact a window is text of.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Presence {
    open: bool,
    auditor_only: bool,
    hidden: bool,
}

/// A window of a shown string: its tokens joined by a space, and its byte range in `N(s)`.
#[derive(Debug, Clone)]
struct Window {
    key: String,
    start: usize,
    end: usize,
}

#[derive(Debug, Clone)]
struct Scanned {
    normalized: String,
    windows: Vec<Window>,
}

fn scan_one(text: &str) -> Scanned {
    let normalized = normalize(&visible(text));
    let spans: Vec<(usize, &str)> = token_spans(&normalized).collect();
    let windows = spans
        .windows(REVEAL_TOKENS)
        .filter_map(|w| {
            let (start, _) = *w.first()?;
            let (last, tok) = *w.last()?;
            let key = w.iter().map(|(_, t)| *t).collect::<Vec<_>>().join(" ");
            Some(Window {
                key,
                start,
                end: last + tok.len(),
            })
        })
        .collect();
    Scanned {
        normalized,
        windows,
    }
}

/// The shown strings of one response, each checked against the text artifacts of the archive
/// under the consent in force (an artifact the snapshot in force does not list is hidden).
#[derive(Debug, Clone)]
pub struct ShownText {
    texts: Vec<Scanned>,
    presence: HashMap<String, Presence>,
}

impl ShownText {
    /// Scans `texts` against the archive with the consent of snapshot `in_force`.
    pub fn scan<'a>(
        texts: impl IntoIterator<Item = &'a str>,
        store: &Store,
        in_force: usize,
    ) -> ShownText {
        let texts: Vec<Scanned> = texts.into_iter().map(scan_one).collect();
        let mut presence: HashMap<String, Presence> = texts
            .iter()
            .flat_map(|t| t.windows.iter())
            .map(|w| (w.key.clone(), Presence::default()))
            .collect();
        if !presence.is_empty() {
            let mut key = String::new();
            for (id, paragraphs) in store.text_artifacts() {
                let consent = store.consent_in(in_force, id);
                for p in paragraphs {
                    let n = normalize(&visible(p));
                    let toks: Vec<&str> = token_spans(&n).map(|(_, t)| t).collect();
                    for w in toks.windows(REVEAL_TOKENS) {
                        key.clear();
                        for (k, t) in w.iter().enumerate() {
                            if k > 0 {
                                key.push(' ');
                            }
                            key.push_str(t);
                        }
                        if let Some(found) = presence.get_mut(key.as_str()) {
                            match consent {
                                Consent::Open => found.open = true,
                                Consent::AuditorOnly => found.auditor_only = true,
                                Consent::Hidden => found.hidden = true,
                            }
                        }
                    }
                }
            }
        }
        ShownText { texts, presence }
    }

    fn presence(&self, key: &str) -> Presence {
        self.presence.get(key).copied().unwrap_or_default()
    }

    /// The first window of text `i` that is text of an auditor-only artifact (or, with
    /// `hidden_too`, of a hidden one) and of no open artifact.
    pub fn restricted(&self, i: usize, hidden_too: bool) -> Option<&str> {
        self.texts.get(i)?.windows.iter().find_map(|w| {
            let p = self.presence(&w.key);
            ((p.auditor_only || (hidden_too && p.hidden)) && !p.open).then_some(w.key.as_str())
        })
    }

    /// The total length, in scalar values of `N(V(s))`, of the repeated runs of open text in
    /// text `i`, when it is above `cap`: a quote broken up by an inserted word counts whole.
    pub fn runs_over(&self, i: usize, cap: usize) -> Option<usize> {
        let t = self.texts.get(i)?;
        let mut total = 0usize;
        let mut run: Option<(usize, usize)> = None;
        let length = |run: Option<(usize, usize)>| {
            run.and_then(|(a, b)| t.normalized.get(a..b))
                .map_or(0, |s| s.chars().count())
        };
        for w in &t.windows {
            if self.presence(&w.key).open {
                run = Some(run.map_or((w.start, w.end), |(a, _)| (a, w.end)));
            } else {
                total = total.saturating_add(length(run.take()));
            }
        }
        total = total.saturating_add(length(run));
        (total > cap).then_some(total)
    }
}
