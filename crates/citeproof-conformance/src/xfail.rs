//! Expected failures (`--xfail FILE`, docs/ADAPTER.md §3.5): reading the list, applying it to a
//! case result (strictly: an expected failure that passes fails), and finding stale entries.

use crate::{
    glob,
    outcome::{CaseResult, Status},
    suite::Suite,
    variants,
};

/// Reads an xfail file: one case-id glob per line; `#` starts a comment.
pub fn parse_xfail(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The xfail patterns that match no case id of `suite`: stale entries (a case renamed or
/// removed, a typo), which would otherwise hide nothing, silently. Give the whole suite, not a
/// selection, or entries for the cases left out are reported too. An entry naming a variant
/// (`<id>~<n>`) is judged by the static case it is derived from.
pub fn unmatched_xfail<'a>(patterns: &'a [String], suite: &Suite) -> Vec<&'a str> {
    patterns
        .iter()
        .filter(|p| {
            let of_static = p.split('~').next().unwrap_or_default();
            !suite
                .cases()
                .any(|c| glob::matches(p, &c.id) || glob::matches(of_static, &c.id))
        })
        .map(String::as_str)
        .collect()
}

/// Applies the xfail list. A pattern that matches a static case's id also covers the variants
/// generated from it.
pub(crate) fn apply_xfail(result: &mut CaseResult, xfail: &[String]) {
    let from = match &result.case.origin {
        variants::Origin::Generated { from, .. } => Some(from.as_str()),
        variants::Origin::Static => None,
    };
    let Some(pattern) = xfail
        .iter()
        .find(|p| glob::matches(p, &result.case.id) || from.is_some_and(|f| glob::matches(p, f)))
    else {
        return;
    };
    match result.status {
        Status::Failed => {
            result.status = Status::Xfailed;
            let why = result.message.take().unwrap_or_default();
            result.message = Some(format!("expected failure (xfail `{pattern}`): {why}"));
        }
        Status::Passed => {
            result.status = Status::Failed;
            result.message = Some(format!(
                "declared as an expected failure (xfail `{pattern}`) but passed; remove it from the xfail list"
            ));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xfail_parsing_and_strictness() {
        assert_eq!(
            parse_xfail("# header\naef-*  # not done\n\n  canon-x\n"),
            ["aef-*", "canon-x"]
        );
    }
}
