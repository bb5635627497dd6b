//! An SVG badge in the usual two-part style: `citeproof | <result>`.

use super::xml_escape;
use crate::{runner::RunResult, summary::Summary};

/// Approximate width of a string in 11px Verdana (the usual badge font).
fn text_width(text: &str) -> u32 {
    text.chars()
        .map(|c| match c {
            'i' | 'l' | 'I' | '.' | ',' | ':' | ' ' | '|' | '·' => 4,
            'm' | 'w' | 'M' | 'W' => 10,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 8,
            _ => 7,
        })
        .sum()
}

/// The right-hand text and its colour.
pub(crate) fn message(run: &RunResult, summary: &Summary) -> (String, &'static str) {
    let t = &summary.totals;
    if !run.success() {
        let bad = t.failed + t.errored;
        return (
            if run.aborted.is_some() {
                format!("aborted, {bad} failing")
            } else {
                format!("{bad} failing")
            },
            "#e05d44",
        );
    }
    let mut parts = Vec::new();
    for spec in summary.specs() {
        match summary.highest_level(spec) {
            Some(0) => parts.push(format!("{spec} ✓")),
            Some(l) => parts.push(format!("{spec} L{l}")),
            None => {}
        }
    }
    let mut text = if parts.is_empty() {
        "no level".to_owned()
    } else {
        parts.join(" · ")
    };
    if t.skipped > 0 {
        text.push_str(&format!(" ({} not run)", t.skipped));
        (text, "#dfb317")
    } else {
        (text, "#4c1")
    }
}

pub(super) fn render(run: &RunResult, summary: &Summary) -> String {
    let label = "citeproof";
    let (msg, color) = message(run, summary);
    let lw = text_width(label) + 12;
    let mw = text_width(&msg) + 12;
    let w = lw + mw;
    let title = xml_escape(&format!("{label}: {msg}"));
    let (label, msg) = (xml_escape(label), xml_escape(&msg));
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" role="img" aria-label="{title}">
  <title>{title}</title>
  <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
  <clipPath id="r"><rect width="{w}" height="20" rx="3" fill="#fff"/></clipPath>
  <g clip-path="url(#r)">
    <rect width="{lw}" height="20" fill="#555"/>
    <rect x="{lw}" width="{mw}" height="20" fill="{color}"/>
    <rect width="{w}" height="20" fill="url(#s)"/>
  </g>
  <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
    <text x="{lx}" y="14">{label}</text>
    <text x="{mx}" y="14">{msg}</text>
  </g>
</svg>
"##,
        lx = lw / 2,
        mx = lw + mw / 2,
    )
}
