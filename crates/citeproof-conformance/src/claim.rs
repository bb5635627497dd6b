//! What a run can claim (docs/ADAPTER.md §3.8).
//!
//! A conformance claim names levels ("ACA Level 2"). A level is claimed only when the run
//! covered it completely: every case of its spec at that level and below, of the whole suite,
//! was run, static and generated, under the suite's own profile, and every MUST case passed.
//! Two kinds of gap stand between a run and a claim:
//!
//! - the user's **selection** (a `--suite` or `--case` that leaves a case out, `--no-variants`,
//!   another `--profile`, a `--vectors` directory that is not the suite this citeproof was
//!   built with): the run as a whole is a subset and claims no level at all, whatever it
//!   happened to cover;
//! - cases the run did **not execute** (operations the implementation does not announce, cases
//!   it declines, cases after an abort, variants dropped as generator bugs): the levels whose
//!   cases they are claim nothing; the other levels of a full run keep their verdict, because
//!   a claim of canon core does not depend on the ACA operations an implementation lacks.
//!
//! Every report prints [`Claim::statement`]; the JSON report carries the claim as data.

use std::collections::BTreeMap;

use crate::{
    glob,
    outcome::{CaseResult, SkipReason},
    suite::Case,
};

/// What the user chose of the loaded suite: the run is a subset when anything was left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// `--suite` patterns applied (empty: every file).
    pub files: Vec<String>,
    /// `--case` patterns applied (empty: every case).
    pub cases: Vec<String>,
    /// Static cases of the loaded suite before any selection.
    pub loaded: usize,
    /// Static cases left out by `--suite`.
    pub left_out_by_files: usize,
    /// Static cases left out by `--case` (of those `--suite` kept).
    pub left_out_by_cases: usize,
    /// Set when the run's profile is not the suite's own (`--profile` with other text): which
    /// cases are MUST cases, hence every level, then depends on the user's file.
    pub other_profile: Option<String>,
    /// Set when the vectors are not the suite this citeproof was built with (`--vectors DIR`
    /// with another digest): a hand-picked directory is a selection by other means.
    pub other_suite: Option<String>,
}

impl Selection {
    /// Everything of `cases`, nothing left out.
    pub fn everything(loaded: usize) -> Selection {
        Selection {
            loaded,
            ..Selection::default()
        }
    }

    /// Applies `--suite` patterns to the files and `--case` patterns to the case ids of
    /// `files`, recording what was left out.
    pub fn apply(
        &mut self,
        files: &mut Vec<crate::suite::VectorFile>,
        file_patterns: &[String],
        case_patterns: &[String],
    ) {
        if !file_patterns.is_empty() {
            let before: usize = files.iter().map(|f| f.cases.len()).sum();
            files.retain(|f| {
                file_patterns
                    .iter()
                    .any(|p| glob::matches_suite(p, &f.path))
            });
            let after: usize = files.iter().map(|f| f.cases.len()).sum();
            self.files.extend(file_patterns.iter().cloned());
            self.left_out_by_files += before - after;
        }
        if !case_patterns.is_empty() {
            let before: usize = files.iter().map(|f| f.cases.len()).sum();
            for file in files.iter_mut() {
                file.cases
                    .retain(|c| case_patterns.iter().any(|p| glob::matches(p, &c.id)));
            }
            files.retain(|f| !f.cases.is_empty());
            let after: usize = files.iter().map(|f| f.cases.len()).sum();
            self.cases.extend(case_patterns.iter().cloned());
            self.left_out_by_cases += before - after;
        }
    }

    /// Static cases of the suite that were selected.
    pub fn selected(&self) -> usize {
        self.loaded - self.left_out_by_files - self.left_out_by_cases
    }
}

/// Why cases of the suite were not run, or why the run is not the suite's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GapReason {
    /// `--suite` left vector files out.
    SuiteFilter,
    /// `--case` left cases out.
    CaseFilter,
    /// `--no-variants`: no generated variants.
    NoVariants,
    /// `--profile` is not the suite's profile.
    OtherProfile,
    /// `--vectors` is not the suite this citeproof was built with.
    OtherSuite,
    /// The implementation does not announce the operation.
    Unsupported,
    /// The implementation answered `skipped`.
    Declined,
    /// Not reached: the run was aborted, or the implementation could not be started.
    NotRun,
    /// Generated variants the reference disagreed with (a generator bug): not run.
    Dropped,
}

impl GapReason {
    /// True for the user's choices, which make the whole run a subset.
    pub fn is_selection(self) -> bool {
        matches!(
            self,
            GapReason::SuiteFilter
                | GapReason::CaseFilter
                | GapReason::NoVariants
                | GapReason::OtherProfile
                | GapReason::OtherSuite
        )
    }
}

/// One gap between the run and the whole suite.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Gap {
    pub reason: GapReason,
    /// How many cases the gap left out (static cases for the filters); `None` where the number
    /// is not defined (`--no-variants`, another profile, another suite).
    pub cases: Option<usize>,
    /// For people: the option, the operations, the abort reason.
    pub detail: String,
}

impl Gap {
    fn text(&self) -> String {
        match (self.reason, self.cases) {
            (GapReason::SuiteFilter | GapReason::CaseFilter, Some(n)) => {
                format!("{} left out {n} static cases", self.detail)
            }
            (GapReason::Unsupported, Some(n)) => {
                format!("{n} cases of operations not supported ({})", self.detail)
            }
            (GapReason::Declined, Some(n)) => {
                format!("{n} cases declined by the implementation")
            }
            (GapReason::NotRun, Some(n)) => format!("{n} cases not run ({})", self.detail),
            (GapReason::Dropped, Some(n)) => {
                format!("{n} generated variants dropped as generator bugs")
            }
            _ => self.detail.clone(),
        }
    }
}

/// The levels a run claims and what keeps it from being a claim of the whole suite.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Claim {
    /// Gaps, the user's selection first; empty when every case of the suite ran.
    pub gaps: Vec<Gap>,
    /// The highest achieved level of each spec (levels are cumulative): what the run claims.
    pub levels: Vec<(String, u8)>,
}

impl Claim {
    /// True when anything of the suite did not run (a gap of any kind).
    pub fn is_subset(&self) -> bool {
        !self.gaps.is_empty()
    }

    /// True when the user's selection makes the whole run a subset: no level can be claimed.
    pub fn is_selection(&self) -> bool {
        self.gaps.iter().any(|g| g.reason.is_selection())
    }

    /// True when the run claims at least one level.
    pub fn is_claim(&self) -> bool {
        !self.levels.is_empty()
    }

    /// The claimed levels for people: `canon core, aef Level 1`.
    pub fn levels_text(&self) -> String {
        self.levels
            .iter()
            .map(|(spec, level)| format!("{spec} {}", crate::summary::level_name(*level)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Why the run is a subset, for people (empty when it is not).
    pub fn gaps_text(&self) -> String {
        self.gaps
            .iter()
            .map(Gap::text)
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The one sentence every report prints about the claim.
    pub fn statement(&self) -> String {
        match (self.is_subset(), self.is_claim()) {
            (false, true) => format!(
                "conformance claim: {} (complete run: every case of the suite ran, static and generated)",
                self.levels_text()
            ),
            (false, false) => {
                "complete run (every case of the suite ran), but no level achieved: no conformance claim"
                    .to_owned()
            }
            (true, false) => format!("subset, not a conformance claim: {}", self.gaps_text()),
            (true, true) => format!(
                "subset, not a conformance claim except for {}, every case of which ran and passed: {}",
                self.levels_text(),
                self.gaps_text()
            ),
        }
    }
}

/// The gaps of a run: the selection, then the cases that were not executed.
pub(crate) fn gaps(
    selection: &Selection,
    variants: bool,
    results: &[CaseResult],
    dropped: usize,
    aborted: Option<&str>,
) -> Vec<Gap> {
    let mut gaps = Vec::new();
    if selection.left_out_by_files > 0 {
        gaps.push(Gap {
            reason: GapReason::SuiteFilter,
            cases: Some(selection.left_out_by_files),
            detail: format!("--suite {}", selection.files.join(" ")),
        });
    }
    if selection.left_out_by_cases > 0 {
        gaps.push(Gap {
            reason: GapReason::CaseFilter,
            cases: Some(selection.left_out_by_cases),
            detail: format!("--case {}", selection.cases.join(" ")),
        });
    }
    if !variants {
        gaps.push(Gap {
            reason: GapReason::NoVariants,
            cases: None,
            detail: "--no-variants: the static vectors only, no generated variants".into(),
        });
    }
    if let Some(profile) = &selection.other_profile {
        gaps.push(Gap {
            reason: GapReason::OtherProfile,
            cases: None,
            detail: format!("--profile {profile} is not the suite's profile"),
        });
    }
    if let Some(suite) = &selection.other_suite {
        gaps.push(Gap {
            reason: GapReason::OtherSuite,
            cases: None,
            detail: suite.clone(),
        });
    }
    let mut unsupported: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut declined, mut not_run) = (0, 0);
    for r in results {
        match r.skip_reason {
            Some(SkipReason::Unsupported) => {
                *unsupported.entry(r.case.operation.as_str()).or_default() += 1;
            }
            Some(SkipReason::Declined) => declined += 1,
            Some(SkipReason::NotRun) => not_run += 1,
            None => {}
        }
    }
    if !unsupported.is_empty() {
        let names: Vec<&str> = unsupported.keys().copied().collect();
        gaps.push(Gap {
            reason: GapReason::Unsupported,
            cases: Some(unsupported.values().sum()),
            detail: operations_text(&names),
        });
    }
    if declined > 0 {
        gaps.push(Gap {
            reason: GapReason::Declined,
            cases: Some(declined),
            detail: "answered `skipped`".into(),
        });
    }
    if not_run > 0 {
        gaps.push(Gap {
            reason: GapReason::NotRun,
            cases: Some(not_run),
            detail: aborted.unwrap_or("the run was aborted").to_owned(),
        });
    }
    if dropped > 0 {
        gaps.push(Gap {
            reason: GapReason::Dropped,
            cases: Some(dropped),
            detail: "variants the reference disagrees with".into(),
        });
    }
    gaps
}

/// `a, b, c` for a few operations, `N operations` for many.
fn operations_text(names: &[&str]) -> String {
    if names.len() <= 3 {
        names.join(", ")
    } else {
        format!("{} operations", names.len())
    }
}

/// True when a level of `spec` at `level` depends on `case` (same spec, level at or below).
pub(crate) fn in_scope(case: &Case, spec: &str, level: u8) -> bool {
    case.spec == spec && case.level <= level
}
