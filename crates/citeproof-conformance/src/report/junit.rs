//! JUnit XML, in the form CI systems ingest (Jenkins/Surefire, GitLab, GitHub actions): one
//! `<testsuite>` per vector file, one `<testcase>` per case; `failed` is `<failure>`, `errored`
//! is `<error>`, `skipped` and `xfailed` are `<skipped>`. CI shows a green JUnit file as a
//! pass: the claim statement (a subset is "not a conformance claim") is in the name of the
//! `<testsuites>` and a `claim` property of every `<testsuite>`.

use std::fmt::Write as _;

use super::{Context, actual_line, expected_line, xml_escape};
use crate::{
    runner::{RunResult, Status},
    summary::Summary,
};

#[allow(
    clippy::too_many_lines,
    reason = "a renderer: one output format top to bottom"
)]
pub(super) fn render(run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> String {
    let claim = &summary.claim;
    let scope = if claim.is_subset() {
        " (subset, not a conformance claim)"
    } else {
        ""
    };
    let count = |s: Status| run.count(s);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"citeproof conformance: {}{scope}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
        xml_escape(&super::implementation_name(run)),
        run.results.len(),
        count(Status::Failed),
        count(Status::Errored),
        count(Status::Skipped) + count(Status::Xfailed),
        run.duration.as_secs_f64()
    );
    let t = run.started_at;
    let timestamp = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    );
    for file in &ctx.suite.files {
        let results: Vec<_> = run
            .results
            .iter()
            .filter(|r| r.case.file == file.path)
            .collect();
        let n = |s: Status| results.iter().filter(|r| r.status == s).count();
        let time: f64 = results.iter().map(|r| r.duration.as_secs_f64()).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{time:.3}\" timestamp=\"{timestamp}\">",
            xml_escape(&file.path),
            results.len(),
            n(Status::Failed),
            n(Status::Errored),
            n(Status::Skipped) + n(Status::Xfailed),
        );
        let _ = writeln!(
            out,
            "    <properties>\n      <property name=\"operation\" value=\"{}\"/>\n      <property name=\"spec\" value=\"{}\"/>\n      <property name=\"seed\" value=\"{}\"/>\n      <property name=\"subset\" value=\"{}\"/>\n      <property name=\"conformance_claim\" value=\"{}\"/>\n      <property name=\"claim\" value=\"{}\"/>\n    </properties>",
            xml_escape(&file.operation),
            xml_escape(&file.spec),
            run.seed,
            claim.is_subset(),
            claim.is_claim(),
            xml_escape(&claim.statement())
        );
        let classname = file.path.trim_end_matches(".json").replace('/', ".");
        for r in results {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\"",
                xml_escape(&r.case.id),
                xml_escape(&classname),
                r.duration.as_secs_f64()
            );
            let message = r.message.clone().unwrap_or_default();
            let detail = format!(
                "{}\nrequirements: {}\nexpected: {}\nactual: {}{}",
                r.case.description,
                r.case.requirements.join(", "),
                expected_line(&r.case.expected),
                actual_line(r.actual.as_ref()),
                r.stderr
                    .as_ref()
                    .map(|s| format!("\nstderr:\n{s}"))
                    .unwrap_or_default()
            );
            match r.status {
                Status::Passed => out.push_str("/>\n"),
                Status::Failed => {
                    let _ = write!(
                        out,
                        ">\n      <failure message=\"{}\" type=\"failed\">{}</failure>\n    </testcase>\n",
                        xml_escape(&message),
                        xml_escape(&detail)
                    );
                }
                Status::Errored => {
                    let _ = write!(
                        out,
                        ">\n      <error message=\"{}\" type=\"errored\">{}</error>\n    </testcase>\n",
                        xml_escape(&message),
                        xml_escape(&detail)
                    );
                }
                Status::Skipped | Status::Xfailed => {
                    let _ = write!(
                        out,
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                        xml_escape(&format!("{}: {message}", r.status))
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
