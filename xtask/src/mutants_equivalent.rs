//! Equivalent mutants: survivors a person judged to change nothing a conformance vector can
//! observe. The judgement is kept on the mutant's entry of `mutants/outcomes.json`
//! (`"equivalent": {"kind": ..., "reason": ...}`), the one machine-readable place: `--survivors`
//! skips the marked mutants, the score leaves them out of its denominator, and the list of
//! equivalent mutants and the summary of `mutants/RUNS.md` are generated from the marks
//! (`--record`, `--render`; a test keeps the committed file equal to what the marks generate).

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};

use crate::mutants_record::{Entry, Store};
use crate::mutants_reference::{REFERENCE_FILES, Verdict};

/// Why a surviving mutant changes nothing observable. Listed apart so that each can be judged:
/// the issue's score counts all four out; the stricter one counts the last two as survivors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The verdict and the incident codes are the same for every input (only a message's
    /// wording, an incident's count or the speed changes).
    SameVerdict,
    /// The mutated code computes the same values.
    Exact,
    /// Reached by no operation of the adapter protocol (producer-side code, tested by the
    /// crates' own tests, which the mutation run does not use).
    Unreachable,
    /// Only shapes the published JSON Schemas (`cargo xtask schemas --check` fails on it).
    SchemaOnly,
}

const KINDS: [Kind; 4] = [
    Kind::SameVerdict,
    Kind::Exact,
    Kind::Unreachable,
    Kind::SchemaOnly,
];

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SameVerdict => "same-verdict-and-codes",
            Kind::Exact => "exactly-equivalent",
            Kind::Unreachable => "unreachable",
            Kind::SchemaOnly => "schema-only",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        KINDS.into_iter().find(|k| k.as_str() == s)
    }

    fn label(self) -> &'static str {
        match self {
            Kind::SameVerdict => "Same verdict and codes",
            Kind::Exact => "Exactly equivalent",
            Kind::Unreachable => "Unreachable from the suite",
            Kind::SchemaOnly => "Published schemas only",
        }
    }

    /// Counted out by the stricter score too: nothing changes for any input of any operation.
    fn strict(self) -> bool {
        matches!(self, Kind::SameVerdict | Kind::Exact)
    }
}

/// A person's judgement that a surviving mutant is equivalent, with the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Equivalent {
    pub kind: Kind,
    pub reason: String,
}

/// The five validators of issue 24; with the model's grammars (the files of
/// `REFERENCE_FILES` in `citeproof-model`) they are the scope of its 90 % criterion.
pub const VALIDATORS: &[&str] = &[
    "crates/citeproof-archive/src/citation.rs",
    "crates/citeproof-chain/src/checks.rs",
    "crates/citeproof-ledger/src/document.rs",
    "crates/citeproof-aca/src/verify/manifest/mod.rs",
    "crates/citeproof-aef/src/validate.rs",
];

fn in_issue_scope(file: &str) -> bool {
    VALIDATORS.contains(&file)
        || (file.starts_with("crates/citeproof-model/") && REFERENCE_FILES.contains(&file))
}

/// Marks that contradict their verdict: a mutant marked equivalent that a run killed.
pub fn problems(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    for mutants in store.values() {
        for (name, e) in mutants {
            if e.equivalent.is_some() && e.verdict != Verdict::Missed {
                out.push(format!(
                    "{name}: marked equivalent, but recorded {}",
                    e.verdict.as_str()
                ));
            }
            if e.equivalent
                .as_ref()
                .is_some_and(|q| q.reason.trim().is_empty())
            {
                out.push(format!("{name}: marked equivalent without a reason"));
            }
        }
    }
    out
}

/// Whether the entry counts as an equivalent survivor.
pub fn is_equivalent(e: &Entry) -> bool {
    e.verdict == Verdict::Missed && e.equivalent.is_some()
}

/// The list of equivalent mutants, by file, kind and reason (the mutants of one reason
/// together), in the order of the store.
pub fn list(store: &Store) -> String {
    let mut s = String::new();
    for (file, mutants) in store {
        let mut groups: BTreeMap<(Kind, &str), Vec<&str>> = BTreeMap::new();
        for (name, e) in mutants {
            if let (true, Some(q)) = (is_equivalent(e), &e.equivalent) {
                let short = name
                    .strip_prefix(file.as_str())
                    .and_then(|n| n.strip_prefix(':'))
                    .unwrap_or(name);
                groups.entry((q.kind, &q.reason)).or_default().push(short);
            }
        }
        if groups.is_empty() {
            continue;
        }
        s.push_str(&format!("`{file}`:\n\n"));
        for ((kind, reason), names) in groups {
            s.push_str(&format!("- {}: {reason}\n", kind.label()));
            for n in names {
                s.push_str(&format!("  - `{n}`\n"));
            }
        }
        s.push('\n');
    }
    if s.is_empty() {
        s.push_str("None marked.\n");
    }
    s.trim_end().to_owned() + "\n"
}

#[derive(Default)]
struct Totals {
    files: usize,
    tried: usize,
    unviable: usize,
    killed: usize,
    survived: usize,
    strict_equivalent: usize,
    other_equivalent: usize,
}

impl Totals {
    fn of(store: &Store, files: impl Fn(&str) -> bool) -> Totals {
        let mut t = Totals::default();
        for (_, mutants) in store.iter().filter(|(f, _)| files(f)) {
            t.files += 1;
            for e in mutants.values() {
                t.tried += 1;
                match (&e.verdict, &e.equivalent) {
                    (Verdict::Unviable, _) => t.unviable += 1,
                    (Verdict::Missed, Some(q)) if q.kind.strict() => t.strict_equivalent += 1,
                    (Verdict::Missed, Some(_)) => t.other_equivalent += 1,
                    (Verdict::Missed, None) => t.survived += 1,
                    _ => t.killed += 1,
                }
            }
        }
        t
    }

    fn sentence(&self, what: &str) -> String {
        let pct = |k: usize, n: usize| {
            if n == 0 {
                "-".to_owned()
            } else {
                // Rounded down: a score never reads higher than it is (199 of 200 is not 100%).
                format!("{:.1}%", (1000.0 * k as f64 / n as f64).floor() / 10.0)
            }
        };
        let killable = self.killed + self.survived;
        let strict = killable + self.other_equivalent;
        format!(
            "{what} ({} files, {} mutants): {} unviable, {} killed, {} survived of which {} \
             equivalent ({} same verdict and codes or exactly equivalent, {} unreachable or \
             schema-only) and {} open: **{} of {killable} killable mutants killed ({})**; \
             counting the unreachable and schema-only ones as survivors, {} of {strict} ({}).",
            self.files,
            self.tried,
            self.unviable,
            self.killed,
            self.survived + self.strict_equivalent + self.other_equivalent,
            self.strict_equivalent + self.other_equivalent,
            self.strict_equivalent,
            self.other_equivalent,
            self.survived,
            self.killed,
            pct(self.killed, killable),
            self.killed,
            pct(self.killed, strict),
        )
    }
}

/// The summary: the score over everything run and over the issue's scope.
pub fn summary(store: &Store) -> String {
    let all = Totals::of(store, |_| true);
    let scope = Totals::of(store, in_issue_scope);
    format!(
        "{}\n\n{}\n",
        all.sentence("Over everything run"),
        scope.sentence("Over the model's grammars and the five validators, issue 24's scope")
    )
}

/// The lines that open and close a generated block of `mutants/RUNS.md`.
fn fences(name: &str) -> (String, String) {
    (
        format!("<!-- begin {name}: generated from mutants/outcomes.json, do not edit -->"),
        format!("<!-- end {name} -->"),
    )
}

/// Replaces the text between the fences of block `name` with `content`.
pub fn replace_block(text: &str, name: &str, content: &str) -> Result<String> {
    let (open, close) = fences(name);
    let start = text
        .find(&open)
        .with_context(|| format!("mutants/RUNS.md has no line `{open}`"))?
        + open.len();
    let end = text[start..]
        .find(&close)
        .with_context(|| format!("mutants/RUNS.md has no line `{close}`"))?
        + start;
    Ok(format!(
        "{}\n\n{}\n{}",
        &text[..start],
        content,
        &text[end..]
    ))
}

/// Both generated blocks, from the store.
pub fn render_blocks(text: &str, store: &Store) -> Result<String> {
    let problems = problems(store);
    if !problems.is_empty() {
        bail!(
            "mutants/outcomes.json: equivalent marks that do not hold:\n  {}",
            problems.join("\n  ")
        );
    }
    let text = replace_block(text, "summary", &summary(store))?;
    replace_block(&text, "equivalent", &list(store))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants_record::{self, Scope, merge};
    use crate::mutants_reference::MutantOutcome;

    fn outcome(name: &str, verdict: Verdict) -> MutantOutcome {
        MutantOutcome {
            file: "a.rs".into(),
            function: "f".into(),
            name: name.into(),
            verdict,
            seconds: 1.0,
        }
    }

    fn mark(store: &mut Store, name: &str, kind: Kind) {
        store
            .get_mut("a.rs")
            .unwrap()
            .get_mut(name)
            .unwrap()
            .equivalent = Some(Equivalent {
            kind,
            reason: format!("why {name}"),
        });
    }

    #[test]
    fn marks_survive_reruns_of_survivors_and_leave_the_count() {
        let mut s = Store::new();
        let run = [
            outcome("a.rs:1:1: m1", Verdict::Missed),
            outcome("a.rs:2:1: m2", Verdict::Missed),
            outcome("a.rs:3:1: m3", Verdict::Missed),
            outcome("a.rs:4:1: m4", Verdict::Caught),
        ];
        merge(&mut s, &run, Scope::WholeFiles, "d1");
        mark(&mut s, "a.rs:1:1: m1", Kind::SameVerdict);
        mark(&mut s, "a.rs:2:1: m2", Kind::Unreachable);
        // A whole-file run again: the marks of the mutants that still survive are kept.
        merge(&mut s, &run, Scope::WholeFiles, "d2");
        assert!(is_equivalent(&s["a.rs"]["a.rs:1:1: m1"]));
        assert!(is_equivalent(&s["a.rs"]["a.rs:2:1: m2"]));
        // A marked mutant a vector now kills loses its mark.
        merge(
            &mut s,
            &[outcome("a.rs:2:1: m2", Verdict::Caught)],
            Scope::Some,
            "d3",
        );
        assert!(s["a.rs"]["a.rs:2:1: m2"].equivalent.is_none());
        mark(&mut s, "a.rs:2:1: m2", Kind::Unreachable);
        assert_eq!(problems(&s).len(), 1, "{:?}", problems(&s));
        s.get_mut("a.rs")
            .unwrap()
            .get_mut("a.rs:2:1: m2")
            .unwrap()
            .equivalent = None;
        assert!(problems(&s).is_empty());

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("outcomes.json");
        mutants_record::save(&path, &s).unwrap();
        assert_eq!(mutants_record::load(&path).unwrap(), s);
        assert_eq!(
            mutants_record::survivors_of(&s, "a.rs"),
            ["a.rs:3:1: m3"],
            "--survivors skips the equivalent m1"
        );
        assert_eq!(
            mutants_record::row("a.rs", &s["a.rs"], 4),
            "| `a.rs` | d3 | 4 | 4 | 0 | 2 | 2 | 1 | 66% | 0.1 |"
        );
        let sum = summary(&s);
        assert!(
            sum.contains("**2 of 3 killable mutants killed (66.6%)**"),
            "{sum}"
        );
        assert!(sum.contains("2 survived of which 1 equivalent"), "{sum}");
        let l = list(&s);
        assert_eq!(
            l,
            "`a.rs`:\n\n- Same verdict and codes: why a.rs:1:1: m1\n  - `1:1: m1`\n"
        );
    }

    #[test]
    fn generated_blocks_are_replaced_in_place() {
        let (o, c) = fences("summary");
        let text = format!("head\n{o}\n\nold\n{c}\ntail\n");
        let out = replace_block(&text, "summary", "new\n").unwrap();
        assert_eq!(out, format!("head\n{o}\n\nnew\n\n{c}\ntail\n"));
        assert_eq!(replace_block(&out, "summary", "new\n").unwrap(), out);
        assert!(replace_block("no fences", "summary", "x").is_err());
        assert_eq!(Kind::parse("schema-only"), Some(Kind::SchemaOnly));
        assert_eq!(Kind::parse("equivalent"), None);
    }

    /// The committed `mutants/RUNS.md` is what the committed `mutants/outcomes.json`
    /// generates: its table, its summary and its list of equivalent mutants.
    #[test]
    fn committed_runs_md_matches_outcomes_json() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let store = mutants_record::load(&root.join("mutants/outcomes.json")).unwrap();
        let text = std::fs::read_to_string(root.join("mutants/RUNS.md")).unwrap();
        let rendered = mutants_record::render(&text, &store, &BTreeMap::new()).unwrap();
        assert!(
            rendered == text,
            "mutants/RUNS.md differs from what mutants/outcomes.json generates: run \
             `cargo xtask mutants --reference --render`"
        );
    }
}
