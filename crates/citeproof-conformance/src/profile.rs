//! The requirements of `docs/PROFILE.md`: headings `### <ID> [MUST|SHOULD|MAY] <title>` followed
//! by bullets `- Level: ...` and `- Incidents: ...`.

use std::{fmt, path::Path};

/// Requirement keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Keyword {
    Must,
    Should,
    May,
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Keyword::Must => "MUST",
            Keyword::Should => "SHOULD",
            Keyword::May => "MAY",
        })
    }
}

/// One requirement.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Requirement {
    pub id: String,
    pub keyword: Keyword,
    pub title: String,
    /// The `Level:` bullet as written (`core`, `ACA 2`, ...).
    pub level: String,
    /// Codes named in the `Incidents:` bullet.
    pub incidents: Vec<String>,
    /// 1-based line of the heading.
    pub line: usize,
}

/// The parsed profile.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub requirements: Vec<Requirement>,
}

impl Profile {
    pub fn load(path: &Path) -> std::io::Result<Profile> {
        std::fs::read_to_string(path).map(|text| Profile::parse(&text))
    }

    pub fn parse(text: &str) -> Profile {
        let mut requirements: Vec<Requirement> = Vec::new();
        let mut in_code = false;
        for (index, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if in_code {
                continue;
            }
            if let Some(rest) = line.strip_prefix("### ") {
                if let Some(req) = parse_heading(rest, index + 1) {
                    requirements.push(req);
                }
                continue;
            }
            if line.starts_with("## ") || line.starts_with("# ") {
                // A higher-level heading ends the bullets of the previous requirement; bullets
                // below it belong to no requirement.
                requirements.push(Requirement {
                    id: String::new(),
                    keyword: Keyword::May,
                    title: String::new(),
                    level: String::new(),
                    incidents: Vec::new(),
                    line: 0,
                });
                continue;
            }
            let Some(current) = requirements.last_mut() else {
                continue;
            };
            if current.id.is_empty() {
                continue;
            }
            if let Some(level) = line.strip_prefix("- Level:") {
                current.level = level.trim().to_owned();
            } else if let Some(list) = line.strip_prefix("- Incidents:") {
                current.incidents = list
                    .split(',')
                    .map(|c| c.trim().trim_matches('`').trim().to_owned())
                    .filter(|c| !c.is_empty() && c != "none")
                    .collect();
            }
        }
        requirements.retain(|r| !r.id.is_empty());
        Profile { requirements }
    }

    pub fn get(&self, id: &str) -> Option<&Requirement> {
        self.requirements.iter().find(|r| r.id == id)
    }

    /// True when the case's requirements include a MUST. Unknown ids count as MUST, so that a
    /// typo never turns a case into one that levels ignore.
    pub fn is_must_case(&self, requirements: &[String]) -> bool {
        requirements
            .iter()
            .any(|id| self.get(id).is_none_or(|r| r.keyword == Keyword::Must))
    }
}

/// The anchor GitHub gives the heading `### <id> [<keyword>] <title>` (github-slugger):
/// lowercase, letters, digits, `_` and `-` kept, each space a `-`, everything else dropped.
/// `CANON-003 [MUST] What each content hash covers` → `canon-003-must-what-each-content-hash-covers`.
pub fn anchor(id: &str, keyword: Keyword, title: &str) -> String {
    format!("{id} [{keyword}] {title}")
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            _ => None,
        })
        .collect()
}

fn parse_heading(rest: &str, line: usize) -> Option<Requirement> {
    let (id, rest) = rest.trim().split_once(' ')?;
    let rest = rest.trim_start();
    let (keyword, title) = if let Some(t) = rest.strip_prefix("[MUST]") {
        (Keyword::Must, t)
    } else if let Some(t) = rest.strip_prefix("[SHOULD]") {
        (Keyword::Should, t)
    } else if let Some(t) = rest.strip_prefix("[MAY]") {
        (Keyword::May, t)
    } else {
        return None;
    };
    if !id
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
    {
        return None;
    }
    Some(Requirement {
        id: id.to_owned(),
        keyword,
        title: title.trim().to_owned(),
        level: String::new(),
        incidents: Vec::new(),
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
# t
## JSON
### JSON-001 [MUST] Well-formed
- Level: core
- Source: x
- Incidents: `json-syntax`, `json-invalid-utf8`

### AEF-4-004 [SHOULD] Publication before fetch

- Level: AEF 1
- Incidents: `aef-published-after-fetched`

```
### NOT-001 [MUST] inside code
```
### ACA-DISC-005 [MAY] Manifest schema not fetched
- Level: ACA 3
- Incidents: none
## Registry
- Incidents: `stray`
";

    #[test]
    fn parses_headings_and_bullets() {
        let p = Profile::parse(SAMPLE);
        let ids: Vec<_> = p.requirements.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["JSON-001", "AEF-4-004", "ACA-DISC-005"]);
        let j = p.get("JSON-001").unwrap();
        assert_eq!(j.keyword, Keyword::Must);
        assert_eq!(j.level, "core");
        assert_eq!(j.incidents, ["json-syntax", "json-invalid-utf8"]);
        assert_eq!(p.get("AEF-4-004").unwrap().keyword, Keyword::Should);
        assert!(p.get("ACA-DISC-005").unwrap().incidents.is_empty());
        assert!(p.is_must_case(&["AEF-4-004".into(), "JSON-001".into()]));
        assert!(!p.is_must_case(&["AEF-4-004".into()]));
        assert!(p.is_must_case(&["UNKNOWN-001".into()]));
    }

    /// Expected anchors written by hand from GitHub's rule (github-slugger: lowercase, drop
    /// punctuation but `-` and `_`, one `-` per space).
    #[test]
    fn anchors_follow_github_headings() {
        assert_eq!(
            anchor("CANON-003", Keyword::Must, "What each content hash covers"),
            "canon-003-must-what-each-content-hash-covers"
        );
        assert_eq!(
            anchor(
                "ACA-L2-023",
                Keyword::Must,
                "The support check's work is bounded"
            ),
            "aca-l2-023-must-the-support-checks-work-is-bounded"
        );
        assert_eq!(
            anchor(
                "LEDGER-014",
                Keyword::Should,
                "Lenient thresholds of 90% or more"
            ),
            "ledger-014-should-lenient-thresholds-of-90-or-more"
        );
        assert_eq!(
            anchor(
                "ARCHIVE-009",
                Keyword::Must,
                "Coverage gate: never above `x`"
            ),
            "archive-009-must-coverage-gate-never-above-x"
        );
    }
}
