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

const RED: &str = "#e05d44";
const YELLOW: &str = "#dfb317";
const GREEN: &str = "#4c1";
const GREY: &str = "#9f9f9f";

/// The right-hand text and its colour. Green only for a complete run; a level appears only when
/// it is claimed (achieved over a complete coverage), so a subset shows none.
pub(crate) fn message(run: &RunResult, summary: &Summary) -> (String, &'static str) {
    let t = &summary.totals;
    if run.could_not_start() {
        return ("could not start".to_owned(), RED);
    }
    if !run.success() {
        let bad = t.failed + t.errored;
        let mut text = format!("{bad} failing");
        if run.aborted.is_some() {
            text = format!("aborted, {text}");
        }
        if summary.claim.is_selection() {
            text.push_str(", subset");
        }
        return (text, RED);
    }
    let claim = &summary.claim;
    if claim.is_selection() || (claim.is_subset() && !claim.is_claim()) {
        return ("subset, not a claim".to_owned(), GREY);
    }
    let parts: Vec<String> = claim
        .levels
        .iter()
        .map(|(spec, level)| match level {
            0 => format!("{spec} ✓"),
            l => format!("{spec} L{l}"),
        })
        .collect();
    let mut text = if parts.is_empty() {
        "no level".to_owned()
    } else {
        parts.join(" · ")
    };
    if claim.is_subset() {
        let dropped = run.generation.as_ref().map_or(0, |g| g.dropped.len());
        text.push_str(&format!(" ({} not run)", t.skipped + dropped));
        (text, YELLOW)
    } else if claim.is_claim() {
        (text, GREEN)
    } else {
        (text, GREY)
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
