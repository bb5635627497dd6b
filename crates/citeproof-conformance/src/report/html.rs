//! A self-contained HTML page: verdicts, failures and a requirement × result matrix (one row
//! per requirement, one column per status, and every case as a coloured chip). The markup is
//! well-formed XML (XHTML syntax) so that it can be checked structurally.

use std::fmt::Write as _;

use super::{Context, actual_line, clip, expected_line, implementation_name, xml_escape as e};
use crate::{
    runner::{RunResult, Status},
    summary::{Summary, Verdict, level_name},
};

const STYLE: &str = "
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
td.n{text-align:right}
.passed{background:#dff0d8}.failed,.errored{background:#f2dede}.skipped{background:#eee}
.xfailed{background:#fcf8e3}.achieved{color:#2b7a0b;font-weight:bold}
.not-achieved{color:#a00;font-weight:bold}.not-verified{color:#8a6d3b;font-weight:bold}
.chip{display:inline-block;margin:1px;padding:0 4px;border-radius:3px;font:12px monospace}
.note{background:#fcf8e3;padding:.5em 1em;border-left:4px solid #e0c36a}
";

fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Achieved => "achieved",
        Verdict::NotAchieved => "not-achieved",
        Verdict::NotVerified => "not-verified",
    }
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
    let t = &summary.totals;
    let _ = writeln!(
        out,
        "<p id=\"result\" class=\"{}\">Result: <strong>{}</strong>: {} cases, {} passed, {} failed, {} errored, {} skipped, {} xfailed ({:.2} s). Command: <code>{}</code>. Suite: {} files, <code>{}</code>.</p>",
        if run.success() { "passed" } else { "failed" },
        if run.success() { "pass" } else { "fail" },
        t.total,
        t.passed,
        t.failed,
        t.errored,
        t.skipped,
        t.xfailed,
        run.duration.as_secs_f64(),
        e(&run.command),
        ctx.suite.files.len(),
        e(&ctx.suite.digest)
    );
    let _ = writeln!(
        out,
        "<p id=\"seed\">Seed: <code>{}</code> (<code>--seed {}</code> reproduces the run). Generated variants: {}.</p>",
        run.seed,
        run.seed,
        match &run.generation {
            Some(g) => format!(
                "{} (dropped as generator bugs: {})",
                g.generated,
                g.dropped.len()
            ),
            None => "none (<code>--no-variants</code>: not a conformance claim)".into(),
        }
    );
    if t.skipped > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} cases were <strong>not run</strong> (skipped). They count neither as passed nor toward any level.</p>",
            t.skipped
        );
    }
    if let Some(reason) = &run.aborted {
        let _ = writeln!(out, "<p class=\"note\">Aborted: {}</p>", e(reason));
    }

    out.push_str("<h2>Levels</h2>\n<p>Level N is achieved only if every MUST case of levels up to N passed, static and generated.</p>\n<table id=\"levels\">\n<thead><tr><th>spec</th><th>level</th><th>verdict</th><th>static</th><th>generated</th><th>cases</th><th>passed</th><th>failed</th><th>errored</th><th>skipped</th><th>xfailed</th></tr></thead>\n<tbody>\n");
    for l in &summary.levels {
        let c = &l.cases;
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{} ({}/{})</td><td>{} ({}/{})</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            e(&l.spec),
            level_name(l.level),
            verdict_class(l.verdict),
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
    out.push_str("</tbody>\n</table>\n");

    let bad: Vec<_> = run
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed | Status::Errored))
        .collect();
    out.push_str("<h2>Failures</h2>\n");
    if bad.is_empty() {
        out.push_str("<p>None.</p>\n");
    } else {
        out.push_str("<table id=\"failures\">\n<thead><tr><th>case</th><th>status</th><th>expected</th><th>actual</th><th>why</th></tr></thead>\n<tbody>\n");
        for r in bad {
            let _ = writeln!(
                out,
                "<tr class=\"{}\" id=\"case-{}\"><td><code>{}</code><br/>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
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

    out.push_str("<h2>Requirements</h2>\n<table id=\"requirements\">\n<thead><tr><th>requirement</th><th>keyword</th><th>level</th><th>title</th><th>state</th>");
    for s in Status::ALL {
        let _ = write!(out, "<th>{s}</th>");
    }
    out.push_str("<th>cases</th></tr></thead>\n<tbody>\n");
    for r in &summary.requirements {
        let _ = write!(
            out,
            "<tr id=\"req-{}\" class=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            e(&r.id),
            r.state(),
            e(&r.id),
            r.keyword
                .map(|k| k.to_string())
                .unwrap_or_else(|| "?".into()),
            e(&r.level),
            e(&r.title),
            r.state()
        );
        for s in Status::ALL {
            let _ = write!(out, "<td class=\"n\">{}</td>", r.counts.get(s));
        }
        out.push_str("<td>");
        for (id, status) in &r.cases {
            let _ = write!(
                out,
                "<span class=\"chip {status}\" title=\"{status}\">{}</span>",
                e(id)
            );
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</body>\n</html>\n");
    out
}
