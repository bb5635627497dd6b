//! Reports of a run: console text, JSON (schema `schemas/conformance-report.json`), JUnit XML,
//! Markdown, HTML (a requirement × result matrix) and an SVG badge.

use std::{fmt, str::FromStr};

use crate::{
    runner::{RunResult, Status},
    suite::Suite,
    summary::{Counts, Summary},
};

mod badge;
mod html;
mod json;
mod junit;
mod markdown;
mod text;

pub use json::REPORT_VERSION;

/// The JSON Schema of the JSON report, as published in `schemas/conformance-report.json`.
pub const JSON_REPORT_SCHEMA: &str = include_str!("../../../../schemas/conformance-report.json");
pub use text::{failures_text, summary_text};

/// A report format of `--report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Json,
    Junit,
    Markdown,
    Html,
    Svg,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Json,
        Format::Junit,
        Format::Markdown,
        Format::Html,
        Format::Svg,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Markdown => "markdown",
            Format::Html => "html",
            Format::Svg => "svg",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "json" => Ok(Format::Json),
            "junit" | "xml" => Ok(Format::Junit),
            "markdown" | "md" => Ok(Format::Markdown),
            "html" => Ok(Format::Html),
            "svg" | "badge" => Ok(Format::Svg),
            _ => Err(format!(
                "unknown report format `{s}`; use json, junit, markdown, html or svg"
            )),
        }
    }
}

/// What a report needs besides the run.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The suite that was run (after `--suite`/`--case` selection, recorded in its
    /// `selection`).
    pub suite: &'a Suite,
    /// Whether docs/PROFILE.md was found (levels and MUST cases depend on it).
    pub profile_loaded: bool,
}

/// The JSON report as a value (what `--report json` writes).
pub fn json_value(run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> serde_json::Value {
    json::report(run, summary, ctx)
}

/// Renders a report.
pub fn render(format: Format, run: &RunResult, summary: &Summary, ctx: &Context<'_>) -> String {
    match format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&json::report(run, summary, ctx))
                .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
            text.push('\n');
            text
        }
        Format::Junit => junit::render(run, summary, ctx),
        Format::Markdown => markdown::render(run, summary, ctx),
        Format::Html => html::render(run, summary, ctx),
        Format::Svg => badge::render(run, summary),
    }
}

/// The run's result in a few words: `pass` only for a complete run with nothing failed.
pub(crate) fn result_word(run: &RunResult, summary: &Summary) -> &'static str {
    if run.could_not_start() {
        "could not check"
    } else if !run.success() {
        "fail"
    } else if summary.claim.is_subset() {
        "pass for the cases run (subset)"
    } else {
        "pass"
    }
}

/// "P passed, F failed, E errored, S skipped, X xfailed": the count of each status in the order
/// of [`Status::ALL`], as the text, Markdown and HTML reports word their totals.
pub(crate) fn status_words(counts: &Counts) -> String {
    Status::ALL
        .iter()
        .map(|&s| format!("{} {s}", counts.get(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "verdict (passed/cases)": the static or the generated half of a level, as the Markdown and
/// HTML tables show it.
pub(crate) fn half_words(verdict: &str, counts: &Counts) -> String {
    format!("{verdict} ({}/{})", counts.passed, counts.total)
}

/// The run's generated variants in words; `none` is what a run without them says (each format
/// marks up the option `--no-variants` its own way).
pub(crate) fn variants_words(run: &RunResult, none: &str) -> String {
    match &run.generation {
        Some(g) => format!(
            "{} (dropped as generator bugs: {})",
            g.generated,
            g.dropped.len()
        ),
        None => none.into(),
    }
}

/// The implementation's display name: `name version (language)`.
pub(crate) fn implementation_name(run: &RunResult) -> String {
    match &run.implementation {
        Some(i) => format!("{} {} ({})", i.name, i.version, i.language),
        None => format!("unknown implementation ({})", run.command),
    }
}

/// Escapes text for XML/HTML text and attribute values. Characters XML 1.0 forbids are
/// written as `\u{..}` so every report stays well-formed whatever an implementation printed.
pub(crate) fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || matches!(c as u32, 0xFFFE | 0xFFFF) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// Shortens text for tables.
pub(crate) fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let head: String = text.chars().take(max).collect();
        format!("{head}…")
    }
}

/// The expected result of a case in one line.
pub(crate) fn expected_line(expected: &crate::suite::Expected) -> String {
    use citeproof_model::vectors::Validity;
    let mut s = match expected.result {
        Validity::Valid => "valid".to_owned(),
        Validity::Invalid => "invalid".to_owned(),
    };
    if !expected.errors.is_empty() {
        s.push_str(&format!(" [{}]", expected.errors.join(", ")));
    }
    if let Some(o) = &expected.output {
        s.push_str(&format!(" output {o}"));
    }
    s
}

/// The actual answer of a case in one line.
pub(crate) fn actual_line(actual: Option<&crate::protocol::ResultReply>) -> String {
    let Some(a) = actual else {
        return "no answer".into();
    };
    let mut s = a.result.map(|r| r.to_string()).unwrap_or_default();
    if !a.errors.is_empty() {
        s.push_str(&format!(" [{}]", a.errors.join(", ")));
    }
    if !a.warnings.is_empty() {
        s.push_str(&format!(" warnings [{}]", a.warnings.join(", ")));
    }
    if let Some(o) = &a.output {
        s.push_str(&format!(" output {o}"));
    }
    s
}
