//! The console summary printed after every run.

use std::fmt::Write as _;

use super::{Context, actual_line, clip, expected_line, implementation_name};
use crate::{
    runner::{RunResult, Status},
    summary::{Summary, level_name},
};

/// Per-spec, per-level verdicts, per-operation counts, totals, a plain statement about skipped
/// cases, and the claim.
pub fn summary_text(run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> String {
    let mut out = String::new();
    header(&mut out, run, ctx);
    // Nothing ran: the tables would only repeat that every case was not run.
    if !run.could_not_start() {
        level_table(&mut out, summary);
        operations_text(&mut out, summary);
        totals(&mut out, run, summary);
    }
    conclusion(&mut out, run, summary);
    out
}

fn header(out: &mut String, run: &RunResult, ctx: &Context<'_>) {
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
        selection_text(&run.selection)
    );
    if let Some(suite) = &run.selection.other_suite {
        let _ = writeln!(out, "  note: {suite}: not a conformance claim");
    }
    if let Some(profile) = &run.selection.other_profile {
        let _ = writeln!(
            out,
            "  profile: {profile}, not the suite's own: not a conformance claim"
        );
    }
    let _ = writeln!(
        out,
        "  seed: {} (reproduce with --seed {})",
        run.seed, run.seed
    );
    generation(out, run);
    if !ctx.profile_loaded {
        let _ = writeln!(
            out,
            "  note: docs/PROFILE.md was not found; every case counts as a MUST case"
        );
    }
}

fn generation(out: &mut String, run: &RunResult) {
    let Some(g) = &run.generation else {
        let _ = writeln!(
            out,
            "  generated: none (--no-variants): static vectors only, not a conformance claim"
        );
        return;
    };
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

fn level_table(out: &mut String, summary: &Summary) {
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
        "  (static, generated: passed/cases of exactly that level. A level counts only when every"
    );
    let _ = writeln!(
        out,
        "   case of it and the levels below ran, static and generated, in a run of the whole suite,"
    );
    let _ = writeln!(out, "   and every MUST case of them passed)");
}

fn totals(out: &mut String, run: &RunResult, summary: &Summary) {
    let t = &summary.totals;
    let generated = run
        .results
        .iter()
        .filter(|r| r.case.origin.is_generated())
        .count();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  total: {} cases ({} static, {generated} generated): {} ({:.2} s)",
        t.total,
        t.total - generated,
        super::status_words(t),
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
            "  toward any level; a level with skipped cases is \"not verified\"."
        );
    }
}

/// Why the run ended early, the claim, and the one-line result.
fn conclusion(out: &mut String, run: &RunResult, summary: &Summary) {
    if let Some((message, stderr)) = &run.start_failure {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "  COULD NOT CHECK: the implementation could not be started: {message}"
        );
        let tail: Vec<&str> = stderr
            .iter()
            .flat_map(|s| s.lines().rev().take(5))
            .collect();
        for line in tail.iter().rev() {
            let _ = writeln!(out, "    stderr: {}", clip(line, 200));
        }
    } else if let Some(reason) = &run.aborted {
        let _ = writeln!(out);
        let _ = writeln!(out, "  ABORTED: {reason}");
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "  claim: {}", summary.claim.statement());
    let t = &summary.totals;
    let verdict = if run.could_not_start() {
        "COULD NOT CHECK: no case was run".to_owned()
    } else if run.aborted.is_some() || t.failed + t.errored > 0 {
        format!("FAIL: {} failed, {} errored", t.failed, t.errored)
    } else if summary.claim.is_selection() {
        format!(
            "PASS for the {} cases run: a subset, not a conformance claim",
            t.total - t.skipped
        )
    } else if summary.claim.is_subset() {
        format!(
            "PASS for the {} cases run; {} cases were NOT run",
            t.total - t.skipped,
            t.skipped
        )
    } else {
        "PASS: every case passed".to_owned()
    };
    let _ = writeln!(out, "  {verdict}");
}

/// ` (--suite X, --case Y: 18 of 1292 static cases)` when something was selected.
fn selection_text(selection: &crate::claim::Selection) -> String {
    let mut options = Vec::new();
    if !selection.files.is_empty() {
        options.push(format!("--suite {}", selection.files.join(" ")));
    }
    if !selection.cases.is_empty() {
        options.push(format!("--case {}", selection.cases.join(" ")));
    }
    if options.is_empty() {
        return String::new();
    }
    format!(
        " ({}: {} of {} static cases)",
        options.join(", "),
        selection.selected(),
        selection.loaded
    )
}

/// One line per operation that was run (what an implementer iterates on), then one line for
/// every operation the implementation does not announce.
fn operations_text(out: &mut String, summary: &Summary) {
    let unsupported: Vec<&str> = summary
        .operations
        .iter()
        .filter(|(op, c)| summary.unsupported.get(op.as_str()) == Some(&c.total))
        .map(|(op, _)| op.as_str())
        .collect();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  {:<24} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "operation", "cases", "passed", "failed", "errored", "skipped", "xfailed"
    );
    for (op, c) in &summary.operations {
        if unsupported.contains(&op.as_str()) {
            continue;
        }
        let _ = writeln!(
            out,
            "  {op:<24} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
            c.total, c.passed, c.failed, c.errored, c.skipped, c.xfailed
        );
    }
    if !unsupported.is_empty() {
        let cases: usize = unsupported
            .iter()
            .filter_map(|op| summary.unsupported.get(*op))
            .sum();
        let _ = writeln!(
            out,
            "  not supported by the implementation, not run: {} operations, {cases} cases:",
            unsupported.len(),
        );
        let mut line = String::new();
        for op in unsupported {
            if !line.is_empty() && line.len() + op.len() > 88 {
                let _ = writeln!(out, "    {line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(op);
        }
        let _ = writeln!(out, "    {line}");
    }
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
