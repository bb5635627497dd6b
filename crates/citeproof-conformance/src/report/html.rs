//! A self-contained HTML page: the claim, verdicts, per-operation counts, failures and a
//! requirement × result matrix (one row per requirement with its counts and the cases that did
//! not pass, linked to the failures table and to the requirement in docs/PROFILE.md). The
//! markup is well-formed XML (XHTML syntax) so that it can be checked structurally. Tables have
//! a fixed layout and wrap long tokens (hashes, base64), so the page fits a 1280 px screen.

use std::fmt::Write as _;

use super::{
    Context, actual_line, clip, expected_line, half_words, implementation_name, status_words,
    variants_words, xml_escape as e,
};
use crate::{
    runner::{RunResult, Status},
    summary::{Counts, RequirementRow, Summary, Verdict, level_name},
};

const STYLE: &str = "
body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}
table.wide{table-layout:fixed;width:100%}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
td.n{text-align:right}
td.text{white-space:pre-wrap;font:12px/1.3 monospace}
.passed{background:#dff0d8}.failed,.errored{background:#f2dede}.skipped,.not-run,.no-cases{background:#eee}
.xfailed,.partial{background:#fcf8e3}.achieved{color:#2b7a0b;font-weight:bold}
.not-achieved{color:#a00;font-weight:bold}.not-verified{color:#8a6d3b;font-weight:bold}
.note,.subset{background:#fcf8e3;padding:.5em 1em;border-left:4px solid #e0c36a}
.claim{background:#dff0d8;padding:.5em 1em;border-left:4px solid #2b7a0b}
.could-not-check{background:#f2dede;padding:.5em 1em;border-left:4px solid #a00}
";

/// Where requirement ids link to: the profile of the repository the suite comes from.
const PROFILE_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/PROFILE.md");

/// Cases listed per requirement row (the failures table has them all).
const LISTED_PER_REQUIREMENT: usize = 12;

fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Achieved => "achieved",
        Verdict::NotAchieved => "not-achieved",
        Verdict::NotVerified => "not-verified",
    }
}

fn count_cells(out: &mut String, c: &Counts) {
    for s in Status::ALL {
        let _ = write!(out, "<td class=\"n\">{}</td>", c.get(s));
    }
}

fn status_headers() -> String {
    Status::ALL
        .iter()
        .map(|s| format!("<th>{s}</th>"))
        .collect()
}

pub(super) fn render(run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> String {
    let mut out = String::new();
    let title = format!("citeproof conformance: {}", implementation_name(run));
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>",
        e(&title),
        e(&title)
    );
    head(&mut out, run, summary, ctx);
    levels(&mut out, summary);
    operations(&mut out, summary);
    failures(&mut out, run);
    requirements(&mut out, summary);
    out.push_str("</body>\n</html>\n");
    out
}

/// The claim, the result, the seed and the notes.
fn head(out: &mut String, run: &RunResult, summary: &Summary, ctx: &Context<'_>) {
    let claim = &summary.claim;
    let claim_class = if run.could_not_start() {
        "could-not-check"
    } else if claim.is_subset() || !claim.is_claim() {
        "subset"
    } else {
        "claim"
    };
    let _ = writeln!(
        out,
        "<p id=\"claim\" class=\"{claim_class}\">Claim: <strong>{}</strong></p>",
        e(&claim.statement())
    );
    let t = &summary.totals;
    let result_class = if run.could_not_start() || !run.success() {
        "failed"
    } else if claim.is_subset() {
        "subset"
    } else {
        "passed"
    };
    let _ = writeln!(
        out,
        "<p id=\"result\" class=\"{result_class}\">Result: <strong>{}</strong>: {} cases, {} ({:.2} s). Command: <code>{}</code>. Suite: {} files, {} of {} static cases selected, <code>{}</code>.</p>",
        super::result_word(run, summary),
        t.total,
        status_words(t),
        run.duration.as_secs_f64(),
        e(&run.command),
        ctx.suite.files.len(),
        run.selection.selected(),
        run.selection.loaded,
        e(&ctx.suite.digest)
    );
    let _ = writeln!(
        out,
        "<p id=\"seed\">Seed: <code>{}</code> (<code>--seed {}</code> reproduces the run). Generated variants: {}.</p>",
        run.seed,
        run.seed,
        variants_words(
            run,
            "none (<code>--no-variants</code>: not a conformance claim)"
        )
    );
    if t.skipped > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} of {} cases ({:.0} %) were <strong>not run</strong> (skipped). They count neither as passed nor toward any level.</p>",
            t.skipped,
            t.total,
            100.0 * t.skipped as f64 / t.total.max(1) as f64
        );
    }
    if let Some(reason) = &run.aborted {
        let _ = writeln!(out, "<p class=\"note\">Aborted: {}</p>", e(reason));
    }
}

fn levels(out: &mut String, summary: &Summary) {
    out.push_str("<h2>Levels</h2>\n<p>A level counts only when every case of it and the levels below ran, static and generated, in a run of the whole suite, and every MUST case of them passed.</p>\n<table id=\"levels\">\n<thead><tr><th>spec</th><th>level</th><th>verdict</th><th>complete</th><th>static</th><th>generated</th><th>cases</th>");
    out.push_str(&status_headers());
    out.push_str("</tr></thead>\n<tbody>\n");
    for l in &summary.levels {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td>",
            e(&l.spec),
            level_name(l.level),
            verdict_class(l.verdict),
            l.verdict.as_str(),
            if l.complete { "yes" } else { "no" },
            half_words(l.static_verdict.as_str(), &l.static_cases),
            half_words(l.generated_verdict.as_str(), &l.generated_cases),
            l.cases.total,
        );
        count_cells(out, &l.cases);
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
}

fn operations(out: &mut String, summary: &Summary) {
    out.push_str("<h2>Operations</h2>\n<table id=\"operations\">\n<thead><tr><th>operation</th><th>cases</th>");
    out.push_str(&status_headers());
    out.push_str("<th>note</th></tr></thead>\n<tbody>\n");
    for (op, c) in &summary.operations {
        let unsupported = summary.unsupported.get(op.as_str()) == Some(&c.total);
        let _ = write!(
            out,
            "<tr class=\"{}\"><td><code>{}</code></td><td class=\"n\">{}</td>",
            if unsupported { "not-run" } else { "" },
            e(op),
            c.total
        );
        count_cells(out, c);
        let _ = writeln!(
            out,
            "<td>{}</td></tr>",
            if unsupported {
                "not supported by the implementation"
            } else {
                ""
            }
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

fn failures(out: &mut String, run: &RunResult) {
    let bad: Vec<_> = run
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed | Status::Errored))
        .collect();
    out.push_str("<h2>Failures</h2>\n");
    if bad.is_empty() {
        out.push_str("<p>None.</p>\n");
        return;
    }
    out.push_str("<table id=\"failures\" class=\"wide\">\n<colgroup><col style=\"width:20%\"/><col style=\"width:7%\"/><col style=\"width:21%\"/><col style=\"width:21%\"/><col style=\"width:31%\"/></colgroup>\n<thead><tr><th>case</th><th>status</th><th>expected</th><th>actual</th><th>why</th></tr></thead>\n<tbody>\n");
    for r in bad {
        let _ = writeln!(
            out,
            "<tr class=\"{}\" id=\"case-{}\"><td><code>{}</code><br/>{}</td><td>{}</td><td class=\"text\">{}</td><td class=\"text\">{}</td><td class=\"text\">{}</td></tr>",
            r.status,
            e(&r.case.id),
            e(&r.case.id),
            e(&clip(&r.case.description, 300)),
            r.status,
            e(&clip(&expected_line(&r.case.expected), 400)),
            e(&clip(&actual_line(r.actual.as_ref()), 400)),
            e(&clip(r.message.as_deref().unwrap_or_default(), 600))
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// One row per requirement: its counts and the cases that did not pass (failed and errored
/// ones link to the failures table); passed and skipped cases are counted, not listed.
fn requirements(out: &mut String, summary: &Summary) {
    out.push_str("<h2>Requirements</h2>\n<p>Counts of the cases naming each requirement; the cases that did not pass are listed (failed and errored ones link to the failures above). Requirement ids link to docs/PROFILE.md.</p>\n<table id=\"requirements\" class=\"wide\">\n<colgroup><col style=\"width:11%\"/><col style=\"width:6%\"/><col style=\"width:6%\"/><col style=\"width:24%\"/><col style=\"width:7%\"/><col style=\"width:4%\"/><col style=\"width:4%\"/><col style=\"width:4%\"/><col style=\"width:4%\"/><col style=\"width:4%\"/><col style=\"width:26%\"/></colgroup>\n<thead><tr><th>requirement</th><th>keyword</th><th>level</th><th>title</th><th>state</th>");
    out.push_str(&status_headers());
    out.push_str("<th>cases not passed</th></tr></thead>\n<tbody>\n");
    for r in &summary.requirements {
        let id = match &r.keyword {
            Some(k) => format!(
                "<a href=\"{PROFILE_URL}#{}\"><code>{}</code></a>",
                e(&crate::profile::anchor(&r.id, *k, &r.title)),
                e(&r.id)
            ),
            None => format!("<code>{}</code>", e(&r.id)),
        };
        let _ = write!(
            out,
            "<tr id=\"req-{}\" class=\"{}\"><td>{id}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            e(&r.id),
            r.state(),
            r.keyword
                .map(|k| k.to_string())
                .unwrap_or_else(|| "?".into()),
            e(&r.level),
            e(&r.title),
            r.state()
        );
        count_cells(out, &r.counts);
        let _ = writeln!(out, "<td>{}</td></tr>", not_passed(r));
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The failed, errored and xfailed cases of a requirement, at most [`LISTED_PER_REQUIREMENT`].
fn not_passed(row: &RequirementRow) -> String {
    let listed: Vec<&(String, Status)> = row
        .cases
        .iter()
        .filter(|(_, s)| matches!(s, Status::Failed | Status::Errored | Status::Xfailed))
        .collect();
    let mut html: Vec<String> = listed
        .iter()
        .take(LISTED_PER_REQUIREMENT)
        .map(|(id, status)| match status {
            Status::Xfailed => format!("<code class=\"xfailed\">{}</code> (xfailed)", e(id)),
            _ => format!(
                "<a class=\"{status}\" href=\"#case-{}\"><code>{}</code></a>",
                e(id),
                e(id)
            ),
        })
        .collect();
    if listed.len() > LISTED_PER_REQUIREMENT {
        html.push(format!(
            "and {} more",
            listed.len() - LISTED_PER_REQUIREMENT
        ));
    }
    html.join(", ")
}
