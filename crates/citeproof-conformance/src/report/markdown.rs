//! Markdown report: verdicts, totals, failures and the requirement matrix.

use std::fmt::Write as _;

use super::{Context, actual_line, clip, expected_line, implementation_name};
use crate::{
    runner::{RunResult, Status},
    summary::{Summary, level_name},
};

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

#[allow(
    clippy::too_many_lines,
    reason = "a renderer: one output format top to bottom"
)]
pub(super) fn render(run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> String {
    let mut out = String::from("# citeproof conformance report\n\n");
    let _ = writeln!(
        out,
        "- Implementation: **{}** (`{}`)",
        cell(&implementation_name(run)),
        cell(&run.command)
    );
    let _ = writeln!(
        out,
        "- Suite: citeproof {} vectors, {} files, `{}`",
        env!("CARGO_PKG_VERSION"),
        ctx.suite.files.len(),
        ctx.suite.digest
    );
    let _ = writeln!(
        out,
        "- Seed: `{}` (`--seed {}` reproduces the run); generated variants: {}",
        run.seed,
        run.seed,
        match &run.generation {
            Some(g) => format!(
                "{} (dropped as generator bugs: {})",
                g.generated,
                g.dropped.len()
            ),
            None => "none (`--no-variants`: not a conformance claim)".into(),
        }
    );
    let t = &summary.totals;
    let _ = writeln!(out, "- Claim: **{}**", cell(&summary.claim.statement()));
    let _ = writeln!(
        out,
        "- Result: **{}**: {} cases, {} passed, {} failed, {} errored, {} skipped, {} xfailed",
        super::result_word(run, summary),
        t.total,
        t.passed,
        t.failed,
        t.errored,
        t.skipped,
        t.xfailed
    );
    if t.skipped > 0 {
        let _ = writeln!(
            out,
            "- **{} cases were not run** (skipped); they count neither as passed nor toward a level.",
            t.skipped
        );
    }
    if let Some(reason) = &run.aborted {
        let _ = writeln!(out, "- **Aborted:** {}", cell(reason));
    }
    out.push_str(
        "\n## Levels\n\nA level counts only when every case of it and the levels below ran, static and generated, in a run of the whole suite, and every MUST case of them passed.\n\n",
    );
    out.push_str("| spec | level | verdict | static | generated | cases | passed | failed | errored | skipped | xfailed |\n|---|---|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for l in &summary.levels {
        let c = &l.cases;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} ({}/{}) | {} ({}/{}) | {} | {} | {} | {} | {} | {} |",
            l.spec,
            level_name(l.level),
            l.verdict.as_str(),
            l.static_verdict.as_str(),
            l.static_cases.passed,
            l.static_cases.total,
            l.generated_verdict.as_str(),
            l.generated_cases.passed,
            l.generated_cases.total,
            c.total,
            c.passed,
            c.failed,
            c.errored,
            c.skipped,
            c.xfailed
        );
    }
    let bad: Vec<_> = run
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed | Status::Errored))
        .collect();
    if !bad.is_empty() {
        out.push_str(
            "\n## Failures\n\n| case | status | expected | actual | why |\n|---|---|---|---|---|\n",
        );
        for r in bad {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                r.case.id,
                r.status,
                cell(&clip(&expected_line(&r.case.expected), 200)),
                cell(&clip(&actual_line(r.actual.as_ref()), 200)),
                cell(&clip(r.message.as_deref().unwrap_or_default(), 300))
            );
        }
    }
    out.push_str("\n## Requirements\n\n| requirement | keyword | level | state | passed | failed | errored | skipped | xfailed |\n|---|---|---|---|---:|---:|---:|---:|---:|\n");
    for r in &summary.requirements {
        let c = &r.counts;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.id,
            r.keyword
                .map(|k| k.to_string())
                .unwrap_or_else(|| "?".into()),
            cell(&r.level),
            r.state(),
            c.passed,
            c.failed,
            c.errored,
            c.skipped,
            c.xfailed
        );
    }
    out
}
