//! The console summary printed after every run.

use std::fmt::Write as _;

use super::{Context, actual_line, clip, expected_line, implementation_name};
use crate::{
    runner::{RunResult, SkipReason, Status},
    summary::{Summary, level_name},
};

/// Per-spec, per-level verdicts, totals and a plain statement about skipped cases.
pub fn summary_text(run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "citeproof conformance");
    let _ = writeln!(
        out,
        "  implementation: {} [{}]",
        implementation_name(run),
        run.command
    );
    let _ = writeln!(
        out,
        "  suite: citeproof {} vectors, {} files, {} cases, {}{}",
        env!("CARGO_PKG_VERSION"),
        ctx.suite.files.len(),
        run.results
            .iter()
            .filter(|r| !r.case.origin.is_generated())
            .count(),
        clip(&ctx.suite.digest, 19),
        if ctx.filters.is_empty() {
            String::new()
        } else {
            format!(" (--suite {})", ctx.filters.join(" "))
        }
    );
    let _ = writeln!(
        out,
        "  seed: {} (reproduce with --seed {})",
        run.seed, run.seed
    );
    match &run.generation {
        Some(g) => {
            let _ = writeln!(
                out,
                "  generated: {} variants of the static cases (fresh keys, hosts, ids, member order, encodings); cases sent under per-run tokens{}",
                g.generated,
                if run.shuffled {
                    " in a random order"
                } else {
                    ""
                }
            );
            if !g.dropped.is_empty() {
                let _ = writeln!(
                    out,
                    "  GENERATOR BUG: {} variants dropped because the reference disagrees with their expectation:",
                    g.dropped.len()
                );
                for d in g.dropped.iter().take(20) {
                    let _ = writeln!(
                        out,
                        "    {} [{}]: {}",
                        d.from,
                        d.transforms.join(", "),
                        clip(&d.why, 200)
                    );
                }
            }
            if g.no_transform > 0 {
                let _ = writeln!(
                    out,
                    "  note: {} static cases have no generated variant: their operation has no transform yet",
                    g.no_transform
                );
            }
            if !g.not_derived.is_empty() {
                let _ = writeln!(
                    out,
                    "  note: {} static cases have no variants (the reference fails them or lacks their operation)",
                    g.not_derived.len()
                );
            }
        }
        None => {
            let _ = writeln!(
                out,
                "  generated: none (--no-variants): static vectors only; this run is not a conformance claim"
            );
        }
    }
    if !ctx.profile_loaded {
        let _ = writeln!(
            out,
            "  note: docs/PROFILE.md was not found; every case counts as a MUST case"
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  {:<8} {:<8} {:<13} {:>13} {:>13} {:>6} {:>7} {:>7} {:>7}",
        "spec",
        "level",
        "verdict",
        "static",
        "generated",
        "failed",
        "errored",
        "skipped",
        "xfailed"
    );
    let part = |c: &crate::summary::Counts| format!("{}/{}", c.passed, c.total);
    for l in &summary.levels {
        let c = &l.cases;
        let _ = writeln!(
            out,
            "  {:<8} {:<8} {:<13} {:>13} {:>13} {:>6} {:>7} {:>7} {:>7}",
            l.spec,
            level_name(l.level),
            l.verdict.as_str(),
            part(&l.static_cases),
            part(&l.generated_cases),
            c.failed,
            c.errored,
            c.skipped,
            c.xfailed
        );
    }
    let _ = writeln!(
        out,
        "  (static, generated: passed/cases of exactly that level; a level is achieved only when"
    );
    let _ = writeln!(
        out,
        "   every MUST case of it and the levels below passed, static and generated)"
    );
    let t = &summary.totals;
    let generated = run
        .results
        .iter()
        .filter(|r| r.case.origin.is_generated())
        .count();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  total: {} cases ({} static, {generated} generated): {} passed, {} failed, {} errored, {} skipped, {} xfailed ({:.2} s)",
        t.total,
        t.total - generated,
        t.passed,
        t.failed,
        t.errored,
        t.skipped,
        t.xfailed,
        run.duration.as_secs_f64()
    );
    if run.starts > 1 {
        let restarts = run.starts - 1;
        let _ = writeln!(
            out,
            "  the implementation was restarted {restarts} time{}",
            if restarts == 1 { "" } else { "s" }
        );
    }
    if t.skipped > 0 {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "  NOT RUN: {} cases were skipped. They were not executed and count neither as passed nor",
            t.skipped
        );
        let _ = writeln!(
            out,
            "  toward any level; a level with skipped MUST cases is \"not verified\"."
        );
        for (op, n) in &summary.unsupported {
            let _ = writeln!(
                out,
                "    {n:>5}  `{op}`: operation not supported by the implementation"
            );
        }
        let declined = run
            .results
            .iter()
            .filter(|r| r.skip_reason == Some(SkipReason::Declined))
            .count();
        if declined > 0 {
            let _ = writeln!(out, "    {declined:>5}  declined by the implementation");
        }
        if summary.not_run > 0 {
            let _ = writeln!(
                out,
                "    {:>5}  not reached: the run was aborted",
                summary.not_run
            );
        }
    }
    if let Some(reason) = &run.aborted {
        let _ = writeln!(out);
        let _ = writeln!(out, "  ABORTED: {reason}");
    }
    let _ = writeln!(out);
    let bad = t.failed + t.errored;
    let verdict = if run.aborted.is_some() || bad > 0 {
        format!("FAIL: {} failed, {} errored", t.failed, t.errored)
    } else if t.skipped > 0 {
        format!(
            "PASS for the {} cases run; {} cases were NOT run",
            t.total - t.skipped,
            t.skipped
        )
    } else {
        "PASS: every case passed".to_owned()
    };
    let _ = writeln!(out, "  {verdict}");
    out
}

/// The failed and errored cases with expected vs actual (at most `limit`).
pub fn failures_text(run: &RunResult, limit: usize) -> String {
    let bad: Vec<_> = run
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed | Status::Errored))
        .collect();
    if bad.is_empty() {
        return String::new();
    }
    let mut out = format!("failures ({}):\n", bad.len());
    for r in bad.iter().take(limit) {
        let _ = writeln!(
            out,
            "  {} {} ({}, {})",
            if r.status == Status::Failed {
                "FAILED "
            } else {
                "ERRORED"
            },
            r.case.id,
            r.case.file,
            r.case.requirements.join(", ")
        );
        if let crate::variants::Origin::Generated { from, transforms } = &r.case.origin {
            let _ = writeln!(
                out,
                "      generated from {from} by [{}] (seed {})",
                transforms.join(", "),
                run.seed
            );
        }
        let _ = writeln!(out, "      {}", clip(&r.case.description, 200));
        let _ = writeln!(
            out,
            "      expected: {}",
            clip(&expected_line(&r.case.expected), 300)
        );
        let _ = writeln!(
            out,
            "      actual:   {}",
            clip(&actual_line(r.actual.as_ref()), 300)
        );
        if let Some(m) = &r.message {
            let _ = writeln!(out, "      why:      {}", clip(m, 500));
        }
        if let Some(s) = &r.stderr {
            let tail: Vec<&str> = s.lines().rev().take(5).collect();
            for line in tail.iter().rev() {
                let _ = writeln!(out, "      stderr:   {}", clip(line, 200));
            }
        }
    }
    if bad.len() > limit {
        let _ = writeln!(
            out,
            "  ... and {} more (write a report with --report json --out FILE for all)",
            bad.len() - limit
        );
    }
    out
}
