//! Per-spec, per-level verdicts, the requirement × result matrix and the claim of a run.
//!
//! Level N of a spec is achieved only if every MUST case of that spec with level <= N passed
//! (a case is a MUST case when one of its requirements is a MUST in docs/PROFILE.md), static
//! and generated alike, **and** the run covered the level completely (crate::claim): no
//! selection, generated variants, no case of the level or below left unrun. The verdict is
//! taken over both parts, and each part also gets its own verdict for the report. A skipped
//! case leaves the level "not verified": work that was not done is never a success.

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    claim::{self, Claim},
    profile::{Keyword, Profile},
    runner::{RunResult, SkipReason, Status},
};

/// Counts of statuses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub total: usize,
    pub passed: usize,
    pub failed: usize,
    pub errored: usize,
    pub skipped: usize,
    pub xfailed: usize,
}

impl Counts {
    pub fn add(&mut self, status: Status) {
        self.total += 1;
        match status {
            Status::Passed => self.passed += 1,
            Status::Failed => self.failed += 1,
            Status::Errored => self.errored += 1,
            Status::Skipped => self.skipped += 1,
            Status::Xfailed => self.xfailed += 1,
        }
    }

    pub fn get(&self, status: Status) -> usize {
        match status {
            Status::Passed => self.passed,
            Status::Failed => self.failed,
            Status::Errored => self.errored,
            Status::Skipped => self.skipped,
            Status::Xfailed => self.xfailed,
        }
    }
}

/// Verdict of one level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every MUST case of this level and below passed.
    Achieved,
    /// A MUST case of this level or below failed, errored or is an expected failure.
    NotAchieved,
    /// Nothing failed, but the level was not covered completely (a selection, skipped cases)
    /// or has no MUST case: not shown either way.
    NotVerified,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Achieved => "achieved",
            Verdict::NotAchieved => "not achieved",
            Verdict::NotVerified => "not verified",
        }
    }
}

/// One row of the level table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LevelRow {
    pub spec: String,
    pub level: u8,
    /// Over static and generated cases: achieved only when both parts pass and the level is
    /// complete.
    pub verdict: Verdict,
    /// Every case of this spec at this level and below was run, static and generated, with
    /// nothing of the suite selected away: the condition for a claim of the level.
    pub complete: bool,
    /// Cases of exactly this level.
    pub cases: Counts,
    /// MUST cases of this level and below (what the verdict is based on).
    pub must_cases: Counts,
    /// The static cases only: their verdict and cases of exactly this level.
    pub static_verdict: Verdict,
    pub static_cases: Counts,
    /// The generated variants only (`not-verified` when there are none).
    pub generated_verdict: Verdict,
    pub generated_cases: Counts,
}

/// Counts of exactly `level` and MUST counts of levels <= `level`, then the verdict (which is
/// at best "not verified" when the level is not `complete`).
fn level_counts<'a>(
    results: impl Iterator<Item = &'a crate::runner::CaseResult>,
    level: u8,
    profile: &Profile,
    complete: bool,
) -> (Counts, Counts, Verdict) {
    let mut cases = Counts::default();
    let mut must = Counts::default();
    for r in results {
        if r.case.level == level {
            cases.add(r.status);
        }
        if r.case.level <= level && profile.is_must_case(&r.case.requirements) {
            must.add(r.status);
        }
    }
    let verdict = if must.failed + must.errored + must.xfailed > 0 {
        Verdict::NotAchieved
    } else if !complete || must.skipped > 0 || must.passed == 0 {
        Verdict::NotVerified
    } else {
        Verdict::Achieved
    };
    (cases, must, verdict)
}

/// One row of the requirement matrix.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RequirementRow {
    pub id: String,
    /// `None` when the id is not in the profile.
    pub keyword: Option<Keyword>,
    pub title: String,
    pub level: String,
    pub counts: Counts,
    /// `(case id, status)` in suite order.
    pub cases: Vec<(String, Status)>,
}

impl RequirementRow {
    /// One word for the row: `passed`, `failed`, `partial` (some skipped), `not-run`, `no-cases`.
    pub fn state(&self) -> &'static str {
        let c = &self.counts;
        if c.total == 0 {
            "no-cases"
        } else if c.failed + c.errored + c.xfailed > 0 {
            "failed"
        } else if c.passed == 0 {
            "not-run"
        } else if c.skipped > 0 {
            "partial"
        } else {
            "passed"
        }
    }
}

/// The summary of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub totals: Counts,
    pub levels: Vec<LevelRow>,
    pub requirements: Vec<RequirementRow>,
    /// Skipped because the operation is unsupported: operation -> count.
    pub unsupported: BTreeMap<String, usize>,
    pub not_run: usize,
    /// Counts per operation, static and generated: what an implementer iterates on.
    pub operations: BTreeMap<String, Counts>,
    /// The levels claimed and the gaps between the run and the whole suite.
    pub claim: Claim,
}

impl Summary {
    pub fn new(run: &RunResult, profile: &Profile) -> Summary {
        let mut totals = Counts::default();
        let mut unsupported = BTreeMap::new();
        let mut operations: BTreeMap<String, Counts> = BTreeMap::new();
        let mut not_run = 0;
        for r in &run.results {
            totals.add(r.status);
            operations
                .entry(r.case.operation.clone())
                .or_default()
                .add(r.status);
            match r.skip_reason {
                Some(SkipReason::Unsupported) => {
                    *unsupported.entry(r.case.operation.clone()).or_insert(0) += 1;
                }
                Some(SkipReason::NotRun) => not_run += 1,
                _ => {}
            }
        }
        let dropped = run.generation.as_ref().map_or(0, |g| g.dropped.len());
        let gaps = claim::gaps(
            &run.selection,
            run.generation.is_some(),
            &run.results,
            dropped,
            run.aborted.as_deref(),
        );
        let levels = level_rows(run, profile, gaps.iter().any(|g| g.reason.is_selection()));
        let mut summary = Summary {
            totals,
            levels,
            requirements: requirement_rows(run, profile),
            unsupported,
            not_run,
            operations,
            claim: Claim {
                gaps,
                levels: Vec::new(),
            },
        };
        summary.claim.levels = summary
            .specs()
            .into_iter()
            .filter_map(|spec| summary.highest_level(spec).map(|l| (spec.to_owned(), l)))
            .collect();
        summary
    }

    /// Highest achieved level of `spec` (levels are cumulative), if any.
    pub fn highest_level(&self, spec: &str) -> Option<u8> {
        self.levels
            .iter()
            .filter(|l| l.spec == spec)
            .take_while(|l| l.verdict == Verdict::Achieved)
            .map(|l| l.level)
            .last()
    }

    /// Specs in the run, in order.
    pub fn specs(&self) -> Vec<&str> {
        let mut specs: Vec<&str> = self.levels.iter().map(|l| l.spec.as_str()).collect();
        specs.dedup();
        specs
    }
}

/// One row per spec and level of the run. `selection`: the user's selection makes every level
/// incomplete.
fn level_rows(run: &RunResult, profile: &Profile, selection: bool) -> Vec<LevelRow> {
    let mut specs: BTreeMap<&str, BTreeSet<u8>> = BTreeMap::new();
    for r in &run.results {
        specs.entry(&r.case.spec).or_default().insert(r.case.level);
    }
    let dropped_from: BTreeSet<&str> = run
        .generation
        .iter()
        .flat_map(|g| g.dropped.iter().map(|d| d.from.as_str()))
        .collect();
    let mut levels = Vec::new();
    for (spec, spec_levels) in specs {
        let of_spec = || run.results.iter().filter(move |r| r.case.spec == spec);
        for &level in &spec_levels {
            let complete = !selection
                && !of_spec().any(|r| {
                    claim::in_scope(&r.case, spec, level)
                        && (r.status == Status::Skipped
                            || dropped_from.contains(r.case.id.as_str()))
                });
            let (cases, must, verdict) = level_counts(of_spec(), level, profile, complete);
            let (static_cases, _, static_verdict) = level_counts(
                of_spec().filter(|r| !r.case.origin.is_generated()),
                level,
                profile,
                complete,
            );
            let (generated_cases, _, generated_verdict) = level_counts(
                of_spec().filter(|r| r.case.origin.is_generated()),
                level,
                profile,
                complete,
            );
            levels.push(LevelRow {
                spec: spec.to_owned(),
                level,
                verdict,
                complete,
                cases,
                must_cases: must,
                static_verdict,
                static_cases,
                generated_verdict,
                generated_cases,
            });
        }
    }
    levels
}

/// One row per requirement of the profile, then one per unknown id a case names.
fn requirement_rows(run: &RunResult, profile: &Profile) -> Vec<RequirementRow> {
    let mut rows: Vec<RequirementRow> = profile
        .requirements
        .iter()
        .map(|r| RequirementRow {
            id: r.id.clone(),
            keyword: Some(r.keyword),
            title: r.title.clone(),
            level: r.level.clone(),
            counts: Counts::default(),
            cases: Vec::new(),
        })
        .collect();
    for result in &run.results {
        for id in &result.case.requirements {
            let index = match rows.iter().position(|r| &r.id == id) {
                Some(i) => i,
                None => {
                    rows.push(RequirementRow {
                        id: id.clone(),
                        keyword: None,
                        title: "(not in docs/PROFILE.md)".into(),
                        level: String::new(),
                        counts: Counts::default(),
                        cases: Vec::new(),
                    });
                    rows.len() - 1
                }
            };
            rows[index].counts.add(result.status);
            rows[index]
                .cases
                .push((result.case.id.clone(), result.status));
        }
    }
    rows
}

/// `core` for level 0, `Level N` otherwise.
pub fn level_name(level: u8) -> String {
    if level == 0 {
        "core".into()
    } else {
        format!("Level {level}")
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use citeproof_model::vectors::{DerivationKind, Validity};

    use super::*;
    use crate::{
        claim::{GapReason, Selection},
        outcome::CaseResult,
        runner::GenerationReport,
        suite::{Case, Derivation, ErrorsMatch, Expected},
        variants::Origin,
    };

    const PROFILE: &str = "\
### CANON-001 [MUST] m
- Level: core
### CANON-002 [SHOULD] s
- Level: core
### ACA-L1-001 [MUST] m
- Level: ACA 1
";

    fn case(id: &str, spec: &str, op: &str, level: u8, req: &str, generated: bool) -> Case {
        Case {
            id: id.into(),
            description: String::new(),
            requirements: vec![req.into()],
            level,
            flags: Vec::new(),
            input: serde_json::json!({}),
            expected: Expected {
                result: Validity::Valid,
                errors: Vec::new(),
                errors_match: ErrorsMatch::Exact,
                warnings: None,
                output: None,
            },
            derivation: Derivation {
                kind: DerivationKind::Hand,
                detail: String::new(),
            },
            file: format!("{spec}/{op}.json"),
            spec: spec.into(),
            operation: op.into(),
            origin: if generated {
                Origin::Generated {
                    from: id.trim_end_matches("~1").into(),
                    transforms: Vec::new(),
                }
            } else {
                Origin::Static
            },
        }
    }

    fn result(case: Case, status: Status, skip: Option<SkipReason>) -> CaseResult {
        CaseResult {
            case,
            status,
            skip_reason: skip,
            message: None,
            actual: None,
            stderr: None,
            duration: Duration::ZERO,
        }
    }

    /// canon core: a MUST case of `hash-bytes` and a SHOULD-only case of `jcs-canonicalize`;
    /// aca Level 1: one MUST case. Each static case with its variant; all pass.
    fn results() -> Vec<CaseResult> {
        let mut out = Vec::new();
        for (id, spec, op, level, req) in [
            ("canon-a", "canon", "hash-bytes", 0, "CANON-001"),
            ("canon-b", "canon", "jcs-canonicalize", 0, "CANON-002"),
            ("aca-a", "aca", "aca-header-parse", 1, "ACA-L1-001"),
        ] {
            out.push(result(
                case(id, spec, op, level, req, false),
                Status::Passed,
                None,
            ));
            let variant = case(&format!("{id}~1"), spec, op, level, req, true);
            out.push(result(variant, Status::Passed, None));
        }
        out
    }

    fn run_of(results: Vec<CaseResult>, variants: bool, selection: Selection) -> RunResult {
        RunResult {
            implementation: None,
            command: "test".into(),
            starts: 0,
            results,
            seed: 1,
            shuffled: false,
            generation: variants.then(GenerationReport::default),
            aborted: None,
            start_failure: None,
            selection,
            started_at: time::OffsetDateTime::UNIX_EPOCH,
            duration: Duration::ZERO,
        }
    }

    fn summary(run: &RunResult) -> Summary {
        Summary::new(run, &Profile::parse(PROFILE))
    }

    fn verdict(s: &Summary, spec: &str) -> Verdict {
        s.levels
            .iter()
            .find(|l| l.spec == spec)
            .map(|l| l.verdict)
            .unwrap_or(Verdict::NotAchieved)
    }

    #[test]
    fn a_complete_run_claims_its_levels() {
        let s = summary(&run_of(results(), true, Selection::everything(3)));
        assert_eq!(verdict(&s, "canon"), Verdict::Achieved);
        assert_eq!(verdict(&s, "aca"), Verdict::Achieved);
        assert!(!s.claim.is_subset());
        assert_eq!(s.claim.levels_text(), "aca Level 1, canon core");
        assert!(s.claim.statement().starts_with("conformance claim: "));
    }

    /// Every kind of selection makes the whole run a subset: nothing is claimed, not even a
    /// level every case of which ran (aca here).
    #[test]
    fn a_selection_claims_nothing() {
        let filtered = Selection {
            files: vec!["canon/hash-bytes".into()],
            left_out_by_files: 1,
            ..Selection::everything(3)
        };
        let by_case = Selection {
            cases: vec!["aca-*".into()],
            left_out_by_cases: 2,
            ..Selection::everything(3)
        };
        let other_profile = Selection {
            other_profile: Some("mine.md".into()),
            ..Selection::everything(3)
        };
        let other_suite = Selection {
            other_suite: Some("--vectors x".into()),
            ..Selection::everything(3)
        };
        for (selection, variants, reason) in [
            (other_suite, true, GapReason::OtherSuite),
            (filtered, true, GapReason::SuiteFilter),
            (by_case, true, GapReason::CaseFilter),
            (Selection::everything(3), false, GapReason::NoVariants),
            (other_profile, true, GapReason::OtherProfile),
        ] {
            let s = summary(&run_of(results(), variants, selection));
            assert!(
                s.levels
                    .iter()
                    .all(|l| l.verdict == Verdict::NotVerified && !l.complete)
            );
            assert!(s.claim.is_selection() && !s.claim.is_claim(), "{reason:?}");
            assert_eq!(s.claim.gaps[0].reason, reason);
            assert!(
                s.claim
                    .statement()
                    .starts_with("subset, not a conformance claim: "),
                "{}",
                s.claim.statement()
            );
        }
    }

    /// A skipped case keeps its level from being claimed even when it is not a MUST case (the
    /// old rule looked at MUST cases only); other specs keep their claim.
    #[test]
    fn cases_not_run_unclaim_their_levels_only() {
        for reason in [
            SkipReason::Unsupported,
            SkipReason::Declined,
            SkipReason::NotRun,
        ] {
            let mut results = results();
            for r in results
                .iter_mut()
                .filter(|r| r.case.operation == "jcs-canonicalize")
            {
                r.status = Status::Skipped;
                r.skip_reason = Some(reason);
            }
            let s = summary(&run_of(results, true, Selection::everything(3)));
            assert_eq!(verdict(&s, "canon"), Verdict::NotVerified, "{reason:?}");
            assert_eq!(verdict(&s, "aca"), Verdict::Achieved, "{reason:?}");
            assert_eq!(s.claim.levels, [("aca".to_owned(), 1)]);
            assert!(s.claim.is_subset() && !s.claim.is_selection());
            assert!(
                s.claim
                    .statement()
                    .starts_with("subset, not a conformance claim except for aca Level 1"),
                "{}",
                s.claim.statement()
            );
        }
    }

    #[test]
    fn a_dropped_variant_unclaims_its_level() {
        let mut run = run_of(results(), true, Selection::everything(3));
        run.generation = Some(GenerationReport {
            dropped: vec![crate::variants::Dropped {
                from: "canon-b".into(),
                transforms: Vec::new(),
                why: "x".into(),
            }],
            ..GenerationReport::default()
        });
        let s = summary(&run);
        assert_eq!(verdict(&s, "canon"), Verdict::NotVerified);
        assert_eq!(s.claim.gaps[0].reason, GapReason::Dropped);
    }

    #[test]
    fn a_failure_is_reported_in_a_subset_too() {
        let mut results = results();
        results[0].status = Status::Failed;
        let no_variants = summary(&run_of(results, false, Selection::everything(3)));
        assert_eq!(verdict(&no_variants, "canon"), Verdict::NotAchieved);
    }
}
