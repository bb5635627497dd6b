//! Markdown report: verdicts, totals, failures and the requirement matrix.

use std::fmt::Write as _;

use super::{
    Context, actual_line, clip, expected_line, half_words, implementation_name, status_words,
    variants_words,
};
use crate::{
    runner::{RunResult, Status},
    summary::{Counts, Summary, level_name},
};

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The count of each status, one table cell each, in the order of [`Status::ALL`].
fn count_cells(counts: &Counts) -> String {
    Status::ALL
        .iter()
        .map(|&s| counts.get(s).to_string())
        .collect::<Vec<_>>()
        .join(" | ")
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
        variants_words(run, "none (`--no-variants`: not a conformance claim)")
    );
    let t = &summary.totals;
    let _ = writeln!(out, "- Claim: **{}**", cell(&summary.claim.statement()));
    let _ = writeln!(
        out,
        "- Result: **{}**: {} cases, {}",
        super::result_word(run, summary),
        t.total,
        status_words(t)
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
            "| {} | {} | {} | {} | {} | {} | {} |",
            l.spec,
            level_name(l.level),
            l.verdict.as_str(),
            half_words(l.static_verdict.as_str(), &l.static_cases),
            half_words(l.generated_verdict.as_str(), &l.generated_cases),
            c.total,
            count_cells(c)
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
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            r.id,
            r.keyword
                .map(|k| k.to_string())
                .unwrap_or_else(|| "?".into()),
            cell(&r.level),
            r.state(),
            count_cells(&r.counts)
        );
    }
    out
}
