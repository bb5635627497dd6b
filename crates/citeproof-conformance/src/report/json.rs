//! The JSON report. Its schema is `schemas/conformance-report.json`; `report_version` changes
//! only when a member is removed or changes meaning.

use serde_json::{Map, Value, json};

use super::Context;
use crate::{
    runner::RunResult,
    summary::{Counts, LevelRow, RequirementRow, Summary},
};

/// Version of the JSON report format.
pub const REPORT_VERSION: u64 = 1;

fn counts(c: &Counts) -> Value {
    json!({
        "total": c.total, "passed": c.passed, "failed": c.failed, "errored": c.errored,
        "skipped": c.skipped, "xfailed": c.xfailed,
    })
}

fn level(l: &LevelRow) -> Value {
    json!({
        "spec": l.spec, "level": l.level, "verdict": l.verdict, "complete": l.complete,
        "cases": counts(&l.cases), "must_cases": counts(&l.must_cases),
        "static": {"verdict": l.static_verdict, "cases": counts(&l.static_cases)},
        "generated": {"verdict": l.generated_verdict, "cases": counts(&l.generated_cases)},
    })
}

fn requirement(r: &RequirementRow) -> Value {
    json!({
        "id": r.id, "keyword": r.keyword, "title": r.title, "level": r.level,
        "state": r.state(), "counts": counts(&r.counts),
        "cases": r.cases.iter().map(|(id, s)| json!({"id": id, "status": s})).collect::<Vec<_>>(),
    })
}

/// The claim as data: whether the run is a subset, the levels it claims, why not more.
fn claim(summary: &Summary) -> Value {
    let claim = &summary.claim;
    json!({
        "subset": claim.is_subset(),
        "conformance_claim": claim.is_claim(),
        "statement": claim.statement(),
        "levels": claim.levels.iter().map(|(spec, level)| json!({"spec": spec, "level": level})).collect::<Vec<_>>(),
        "gaps": claim.gaps,
    })
}

/// The JSON report as a value (`--report json` writes it, `--json` embeds it).
#[allow(
    clippy::too_many_lines,
    reason = "a renderer: one output format top to bottom"
)]
pub(super) fn report(run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> Value {
    let implementation = match &run.implementation {
        Some(i) => json!({
            "name": i.name, "version": i.version, "language": i.language,
            "homepage": i.homepage, "operations": i.operations,
            "command": run.command, "starts": run.starts,
        }),
        None => json!({
            "name": null, "version": null, "language": null, "homepage": null,
            "operations": [], "command": run.command, "starts": run.starts,
        }),
    };
    let started_at = run
        .started_at
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    let cases: Vec<Value> = run
        .results
        .iter()
        .map(|r| {
            let mut c = Map::new();
            c.insert("id".into(), json!(r.case.id));
            c.insert("file".into(), json!(r.case.file));
            c.insert("spec".into(), json!(r.case.spec));
            c.insert("level".into(), json!(r.case.level));
            c.insert("operation".into(), json!(r.case.operation));
            c.insert("requirements".into(), json!(r.case.requirements));
            c.insert("flags".into(), json!(r.case.flags));
            c.insert("origin".into(), json!(r.case.origin));
            if r.case.origin.is_generated() {
                // Not in any vector file: the input is part of the report.
                c.insert("input".into(), r.case.input.clone());
            }
            c.insert("status".into(), json!(r.status));
            if let Some(reason) = r.skip_reason {
                c.insert("skip_reason".into(), json!(reason));
            }
            if let Some(m) = &r.message {
                c.insert("message".into(), json!(m));
            }
            c.insert(
                "duration_ms".into(),
                json!(r.duration.as_secs_f64() * 1000.0),
            );
            c.insert("expected".into(), json!(r.case.expected));
            c.insert(
                "actual".into(),
                match &r.actual {
                    Some(a) => json!(a),
                    None => Value::Null,
                },
            );
            if let Some(s) = &r.stderr {
                c.insert("stderr".into(), json!(s));
            }
            Value::Object(c)
        })
        .collect();
    json!({
        "report_version": REPORT_VERSION,
        "generator": { "name": "citeproof", "version": env!("CARGO_PKG_VERSION") },
        "implementation": implementation,
        "suite": {
            "version": env!("CARGO_PKG_VERSION"),
            "digest": ctx.suite.digest,
            "files": ctx.suite.files.iter().map(|f| f.path.clone()).collect::<Vec<_>>(),
            "filters": run.selection.files,
            "case_filters": run.selection.cases,
            "static_cases": run.selection.loaded,
            "selected_cases": run.selection.selected(),
            "profile_loaded": ctx.profile_loaded,
        },
        "claim": claim(summary),
        "run": {
            "seed": run.seed,
            "shuffled": run.shuffled,
            "variants": run.generation.is_some(),
        },
        "generation": run.generation.as_ref().map(|g| json!({
            "generated": g.generated,
            "dropped": g.dropped,
            "not_derived": g.not_derived.iter().map(|(id, why)| json!({"id": id, "why": why})).collect::<Vec<_>>(),
            "no_transform": g.no_transform,
        })),
        "started_at": started_at,
        "duration_ms": run.duration.as_secs_f64() * 1000.0,
        "success": run.success(),
        "aborted": run.aborted,
        "could_not_start": run.could_not_start(),
        "totals": counts(&summary.totals),
        "levels": summary.levels.iter().map(level).collect::<Vec<_>>(),
        "requirements": summary.requirements.iter().map(requirement).collect::<Vec<_>>(),
        "cases": cases,
    })
}
