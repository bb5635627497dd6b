//! Whether the reports of a `citeproof conformance` run claim a level, format by format: the
//! kill condition of the mutants marked `"kill": "no-claim"` (examples/adapters/mutants), which
//! pass every case they run, so that only a claim the runner should not make can show their
//! fault. A report "claims" when it prints a level as achieved, says the run is a conformance
//! claim, or draws a level or a green colour on the badge.

use serde_json::Value;

/// What each format of one run says, as written by `citeproof conformance`.
pub struct Reports {
    /// The console summary (stdout).
    pub text: String,
    pub json: String,
    pub junit: String,
    pub markdown: String,
    pub html: String,
    pub svg: String,
}

/// Every claim a report makes (`format: what`); empty when none claims a level. A report that
/// does not say "not a conformance claim" counts as a claim too: silence is not enough.
pub fn claims(r: &Reports) -> Vec<String> {
    let mut found = Vec::new();
    let mut say = |format: &str, what: String| found.push(format!("{format}: {what}"));
    match serde_json::from_str::<Value>(&r.json) {
        Err(e) => say("json", format!("unreadable report ({e})")),
        Ok(v) => {
            if v.pointer("/claim/conformance_claim") != Some(&Value::Bool(false)) {
                say("json", "claim.conformance_claim is not false".into());
            }
            for l in v["levels"].as_array().into_iter().flatten() {
                if l["verdict"] == "achieved" {
                    say(
                        "json",
                        format!("{} level {} achieved", l["spec"], l["level"]),
                    );
                }
            }
        }
    }
    for (format, text) in [("text", &r.text), ("markdown", &r.markdown)] {
        if let Some(line) = achieved_line(text) {
            say(format, format!("prints `{}`", line.trim()));
        }
        if !text.contains("not a conformance claim") {
            say(format, "does not say \"not a conformance claim\"".into());
        }
    }
    let html = without_style(&r.html);
    if let Some(line) = achieved_line(&html) {
        say("html", format!("prints `{}`", line.trim()));
    }
    if html.contains("class=\"claim\"") || html.contains("id=\"result\" class=\"passed\"") {
        say("html", "a green claim or result".into());
    }
    if !html.contains("not a conformance claim") {
        say("html", "does not say \"not a conformance claim\"".into());
    }
    if r.junit
        .contains("name=\"conformance_claim\" value=\"true\"")
        || !r.junit.contains("not a conformance claim")
    {
        say(
            "junit",
            "claims, or does not say \"not a conformance claim\"".into(),
        );
    }
    let badge_level = r.svg.contains('✓')
        || r.svg
            .split(" L")
            .skip(1)
            .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    if badge_level || r.svg.contains("#4c1") {
        say("svg", "a level or a green badge".into());
    }
    found
}

/// The first line saying "achieved" other than "not achieved".
fn achieved_line(text: &str) -> Option<&str> {
    text.lines()
        .find(|l| l.replace("not achieved", "").contains("achieved"))
}

/// `html` without its `<style>` element (class names are not what a person reads).
fn without_style(html: &str) -> String {
    match (html.find("<style>"), html.find("</style>")) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &html[..a], &html[b..]),
        _ => html.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn subset() -> Reports {
        Reports {
            text: "canon core not verified\nclaim: subset, not a conformance claim: x\n".into(),
            json: r#"{"claim":{"conformance_claim":false},"levels":[{"spec":"canon","level":0,"verdict":"not-verified"}]}"#.into(),
            junit: r#"<property name="conformance_claim" value="false"/><property name="claim" value="subset, not a conformance claim"/>"#.into(),
            markdown: "- Claim: **subset, not a conformance claim**\n| canon | core | not achieved |\n".into(),
            html: "<style>.achieved{}</style><p class=\"subset\">subset, not a conformance claim</p>".into(),
            svg: "<title>citeproof: subset, not a claim</title><rect fill=\"#9f9f9f\"/>".into(),
        }
    }

    #[test]
    fn a_subset_claims_nothing() {
        assert_eq!(claims(&subset()), Vec::<String>::new());
    }

    /// One format's text in a set of reports.
    type Field = fn(&mut Reports) -> &mut String;

    /// Each format on its own is caught when it claims (the check can fail): the format, its
    /// text, and the replacement that makes a subset's report claim.
    #[test]
    fn every_format_that_claims_is_caught() {
        let cases: [(&str, Field, &str, &str); 7] = [
            ("text", |r| &mut r.text, "not verified", "achieved"),
            ("json", |r| &mut r.json, "not-verified", "achieved"),
            ("json", |r| &mut r.json, "false", "true"),
            (
                "junit",
                |r| &mut r.junit,
                "value=\"false\"",
                "value=\"true\"",
            ),
            ("markdown", |r| &mut r.markdown, "not achieved", "achieved"),
            (
                "html",
                |r| &mut r.html,
                "class=\"subset\"",
                "class=\"claim\"",
            ),
            ("svg", |r| &mut r.svg, "subset, not a claim", "canon ✓"),
        ];
        for (format, field, from, to) in cases {
            let mut r = subset();
            let text = field(&mut r);
            assert!(text.contains(from), "{format}: no {from:?} to replace");
            *text = text.replace(from, to);
            let found = claims(&r);
            assert!(
                found.iter().any(|f| f.starts_with(format)),
                "{format}: {found:?}"
            );
        }
        let mut r = subset();
        r.svg = r.svg.replace("#9f9f9f", "#4c1");
        assert!(!claims(&r).is_empty());
        let mut r = subset();
        r.svg = r.svg.replace("subset, not a claim", "aca L2");
        assert!(!claims(&r).is_empty());
    }
}
