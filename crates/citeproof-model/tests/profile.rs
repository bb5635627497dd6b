//! Keeps `docs/PROFILE.md` and the incident registry (`IncidentCode::ALL`) identical, and checks
//! the machine-readable structure of the profile: requirement headings, ids, bullets and the
//! incident codes each requirement names.
//!
//! Hand-parsed on purpose (std only): the format is line-based and fixed by the profile itself.

use std::collections::{BTreeMap, BTreeSet};

use citeproof_model::{IncidentCode, Severity};

const PROFILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PROFILE.md");
const REGISTRY_HEADING: &str = "## Incident code registry";
const TABLE_HEADER: &str = "| code | severity | meaning |";
const PREFIXES: &[&str] = &[
    "JSON", "CANON", "SIG", "ACA", "AEF", "ARCHIVE", "LEDGER", "CHAIN", "FETCH",
];
const KEYWORDS: &[&str] = &["MUST", "SHOULD", "MAY"];
const REQUIRED_BULLETS: &[&str] = &["- Level:", "- Source:", "- Rule:", "- Incidents:"];

fn profile() -> String {
    std::fs::read_to_string(PROFILE).unwrap_or_else(|e| panic!("cannot read {PROFILE}: {e}"))
}

/// `^(JSON|CANON|SIG|ACA|AEF|ARCHIVE|LEDGER|CHAIN|FETCH)(-[A-Z0-9]+)*-[0-9]{3}$`
fn is_requirement_id(id: &str) -> bool {
    let parts: Vec<&str> = id.split('-').collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return false;
    };
    parts.len() >= 2
        && PREFIXES.contains(first)
        && last.len() == 3
        && last.bytes().all(|b| b.is_ascii_digit())
        && parts[1..parts.len() - 1].iter().all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
}

#[derive(Debug)]
struct Requirement {
    id: String,
    keyword: String,
    line: usize,
    bullets: Vec<String>,
}

impl Requirement {
    fn incidents(&self) -> Vec<String> {
        self.bullets
            .iter()
            .filter(|b| b.starts_with("- Incidents:"))
            .flat_map(|b| backticked(b))
            .collect()
    }
}

/// The text between each pair of backticks.
fn backticked(line: &str) -> Vec<String> {
    line.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_owned())
        .collect()
}

/// Parses `### <ID> [<KEYWORD>] <title>`; `Err` explains what is wrong.
fn parse_heading(line: &str) -> Result<(String, String), String> {
    let rest = line
        .strip_prefix("### ")
        .ok_or_else(|| "not a level-3 heading".to_owned())?;
    let (id, rest) = rest
        .split_once(' ')
        .ok_or_else(|| "expected `### <ID> [<KEYWORD>] <title>`".to_owned())?;
    if !is_requirement_id(id) {
        return Err(format!("`{id}` does not match the requirement id pattern"));
    }
    let rest = rest
        .strip_prefix('[')
        .ok_or_else(|| "expected `[` after the id".to_owned())?;
    let (keyword, title) = rest
        .split_once("] ")
        .ok_or_else(|| "expected `] <title>` after the keyword".to_owned())?;
    if !KEYWORDS.contains(&keyword) {
        return Err(format!("keyword `{keyword}` is not MUST, SHOULD or MAY"));
    }
    if title.trim().is_empty() {
        return Err("empty title".to_owned());
    }
    Ok((id.to_owned(), keyword.to_owned()))
}

/// Every requirement (from `### ` headings outside code fences) with its bullets. Panics on a
/// malformed heading.
fn requirements(text: &str) -> Vec<Requirement> {
    let mut out: Vec<Requirement> = Vec::new();
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if line.starts_with("#") && !line.starts_with("### ") {
            // A level-1/2 heading ends the bullets of the previous requirement. Headings deeper
            // than level 3 are not used by the profile.
            assert!(
                line.starts_with("# ") || line.starts_with("## "),
                "PROFILE.md:{line_no}: only `#`, `##` and requirement `###` headings are allowed: {line}"
            );
            out.push(Requirement {
                id: String::new(),
                keyword: String::new(),
                line: line_no,
                bullets: Vec::new(),
            });
            continue;
        }
        if line.starts_with("### ") {
            let (id, keyword) = parse_heading(line).unwrap_or_else(|e| {
                panic!("PROFILE.md:{line_no}: bad requirement heading: {e}\n  {line}")
            });
            out.push(Requirement {
                id,
                keyword,
                line: line_no,
                bullets: Vec::new(),
            });
            continue;
        }
        if line.starts_with("- ")
            && let Some(current) = out.last_mut()
        {
            current.bullets.push(line.to_owned());
        }
    }
    assert!(!in_fence, "PROFILE.md: unterminated code fence");
    out.retain(|r| !r.id.is_empty());
    out
}

/// The rows of the registry table: (code, severity, meaning), with their line numbers.
fn registry_rows(text: &str) -> Vec<(usize, String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let headings: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == REGISTRY_HEADING)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        headings.len(),
        1,
        "PROFILE.md must have exactly one `{REGISTRY_HEADING}` heading"
    );
    let section: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .skip(headings[0] + 1)
        .take_while(|(_, l)| !l.starts_with("## ") && !l.starts_with("# "))
        .map(|(i, l)| (i + 1, *l))
        .collect();
    let headers: Vec<usize> = section
        .iter()
        .filter(|(_, l)| *l == TABLE_HEADER)
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(
        headers.len(),
        1,
        "the registry section must hold exactly one table with header `{TABLE_HEADER}`"
    );
    let tables = section
        .iter()
        .filter(|(_, l)| l.starts_with('|'))
        .map(|(n, _)| *n)
        .collect::<Vec<_>>();
    // The table is one contiguous block of `|` lines starting at the header.
    let start = headers[0];
    for pair in tables.windows(2) {
        assert_eq!(
            pair[1],
            pair[0] + 1,
            "PROFILE.md:{}: the registry section must hold one contiguous table",
            pair[1]
        );
    }
    assert_eq!(
        tables.first(),
        Some(&start),
        "table must start at its header"
    );

    let mut rows = Vec::new();
    for (n, line) in section.iter().filter(|(n, _)| *n > start + 1) {
        if !line.starts_with('|') {
            continue;
        }
        let inner = line
            .strip_prefix("| ")
            .and_then(|l| l.strip_suffix(" |"))
            .unwrap_or_else(|| panic!("PROFILE.md:{n}: row must be `| a | b | c |`: {line}"));
        let cells: Vec<&str> = inner.split(" | ").collect();
        assert_eq!(
            cells.len(),
            3,
            "PROFILE.md:{n}: row must have 3 cells (no `|` inside a meaning): {line}"
        );
        let code = cells[0]
            .strip_prefix('`')
            .and_then(|c| c.strip_suffix('`'))
            .unwrap_or_else(|| panic!("PROFILE.md:{n}: code must be in backticks: {line}"));
        rows.push((
            *n,
            code.to_owned(),
            cells[1].to_owned(),
            cells[2].to_owned(),
        ));
    }
    // The separator line right after the header.
    let sep = section
        .iter()
        .find(|(n, _)| *n == start + 1)
        .map(|(_, l)| *l);
    assert_eq!(sep, Some("|---|---|---|"), "registry table separator");
    rows
}

#[test]
fn registry_table_equals_incident_codes_all() {
    let text = profile();
    let rows = registry_rows(&text);
    for (i, code) in IncidentCode::ALL.iter().enumerate() {
        let expected = (
            code.as_str().to_owned(),
            code.severity().to_string(),
            code.meaning().to_owned(),
        );
        let Some((line, c, s, m)) = rows.get(i) else {
            panic!(
                "registry table has {} rows but IncidentCode::ALL has {}; first missing row: \
                 | `{}` | {} | {} |",
                rows.len(),
                IncidentCode::ALL.len(),
                expected.0,
                expected.1,
                expected.2
            );
        };
        assert_eq!(
            (c.as_str(), s.as_str(), m.as_str()),
            (
                expected.0.as_str(),
                expected.1.as_str(),
                expected.2.as_str()
            ),
            "PROFILE.md:{line}: registry row {} differs from IncidentCode::ALL[{i}] \
             (left: profile, right: incident.rs)",
            i + 1
        );
    }
    if let Some((line, c, _, _)) = rows.get(IncidentCode::ALL.len()) {
        panic!(
            "PROFILE.md:{line}: registry table has extra row `{c}` not in IncidentCode::ALL ({} codes)",
            IncidentCode::ALL.len()
        );
    }
}

#[test]
fn requirement_ids_are_well_formed_and_unique() {
    let text = profile();
    let reqs = requirements(&text);
    assert!(!reqs.is_empty(), "no requirements found");
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &reqs {
        if let Some(first) = seen.insert(&r.id, r.line) {
            panic!(
                "PROFILE.md:{}: requirement id {} already used at line {first}",
                r.line, r.id
            );
        }
        for bullet in REQUIRED_BULLETS {
            let n = r.bullets.iter().filter(|b| b.starts_with(bullet)).count();
            assert_eq!(
                n, 1,
                "PROFILE.md:{}: {} must have exactly one `{bullet}` bullet (found {n})",
                r.line, r.id
            );
        }
    }
}

#[test]
fn requirement_incidents_and_registry_cover_each_other() {
    let text = profile();
    let reqs = requirements(&text);
    let mut named: BTreeSet<String> = BTreeSet::new();
    for r in &reqs {
        for code in r.incidents() {
            assert!(
                IncidentCode::from_code(&code).is_some(),
                "PROFILE.md:{}: {} names `{code}`, which is not in the incident registry",
                r.line,
                r.id
            );
            named.insert(code);
        }
    }
    let unnamed: Vec<&str> = IncidentCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !named.contains(*c))
        // Tooling codes (vector files) belong to no spec requirement.
        .filter(|c| !c.starts_with("vector-"))
        .collect();
    assert!(
        unnamed.is_empty(),
        "registry codes named by no requirement's `- Incidents:` bullet: {unnamed:?}"
    );
}

#[test]
fn keyword_matches_incident_severity() {
    let text = profile();
    for r in requirements(&text) {
        let codes: Vec<IncidentCode> = r
            .incidents()
            .iter()
            .filter_map(|c| IncidentCode::from_code(c))
            .collect();
        match r.keyword.as_str() {
            "MUST" => assert!(
                codes.iter().any(|c| c.severity() == Severity::Error),
                "PROFILE.md:{}: MUST requirement {} names no error-severity incident code",
                r.line,
                r.id
            ),
            "SHOULD" => {
                assert!(
                    !codes.is_empty(),
                    "PROFILE.md:{}: SHOULD requirement {} names no incident code",
                    r.line,
                    r.id
                );
                for c in &codes {
                    assert_eq!(
                        c.severity(),
                        Severity::Warning,
                        "PROFILE.md:{}: SHOULD requirement {} names error code `{c}`",
                        r.line,
                        r.id
                    );
                }
            }
            // The rules of an optional mode outside the levels name the codes that mode raises.
            _ if r.bullets.iter().any(|b| b.starts_with("- Level: none")) => {}
            _ => assert!(
                codes.is_empty(),
                "PROFILE.md:{}: MAY requirement {} names incident codes {codes:?}",
                r.line,
                r.id
            ),
        }
    }
}

#[test]
fn id_pattern_helper_follows_the_profile_regex() {
    for ok in [
        "ACA-L1-001",
        "ACA-L2-007",
        "ACA-DISC-001",
        "AEF-4-003",
        "AEF-L3-001",
        "CANON-001",
        "CHAIN-002",
    ] {
        assert!(is_requirement_id(ok), "{ok} should match");
    }
    for bad in [
        "ACA-1",
        "ACA-0001",
        "ACA--001",
        "aca-L1-001",
        "ACA-l1-001",
        "XYZ-001",
        "ACA-L1-00a",
        "ACA",
        "001",
    ] {
        assert!(!is_requirement_id(bad), "{bad} should not match");
    }
}
