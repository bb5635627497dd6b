//! Boundaries in the traceability step: a requirement of docs/PROFILE.md that states where a
//! rule's boundary is names it in a `- Boundaries:` bullet (each name in backquotes, e.g.
//! `` `run-id-length` ``), and the vectors stand on each side of it with the flags
//! `boundary:<name>:inside` (the rule holds at its limit) and `boundary:<name>:outside` (one
//! step past it). A boundary with only one side, a flag naming no stated boundary, and a case
//! on a boundary that does not cite the boundary's requirement are errors.

use std::collections::BTreeMap;

use citeproof_conformance::Suite;

/// The boundaries the profile states: name → requirement id.
pub fn stated(profile: &str) -> Result<BTreeMap<String, String>, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut errors = Vec::new();
    let mut requirement: Option<String> = None;
    for (i, line) in profile.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("### ") {
            requirement = rest.split_whitespace().next().map(str::to_owned);
            continue;
        }
        if line.starts_with("## ") {
            requirement = None;
        }
        let Some(list) = line.strip_prefix("- Boundaries:") else {
            continue;
        };
        let Some(req) = &requirement else {
            errors.push(format!(
                "PROFILE.md:{}: a Boundaries bullet outside a requirement",
                i + 1
            ));
            continue;
        };
        let names: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
        if names.is_empty() {
            errors.push(format!("PROFILE.md:{}: Boundaries names none", i + 1));
        }
        for name in names {
            if !is_name(name) {
                errors.push(format!(
                    "PROFILE.md:{}: boundary name `{name}` is not lowercase kebab-case",
                    i + 1
                ));
            } else if let Some(other) = out.insert(name.to_owned(), req.clone()) {
                errors.push(format!(
                    "PROFILE.md:{}: boundary `{name}` is stated by {other} and {req}",
                    i + 1
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// One boundary and the cases on each side.
pub struct Sides {
    pub requirement: String,
    pub inside: Vec<String>,
    pub outside: Vec<String>,
}

/// The cases on each side of every stated boundary, and the errors (one-sided boundaries,
/// unknown names, cases that do not cite the boundary's requirement).
pub fn check(
    stated: &BTreeMap<String, String>,
    suite: &Suite,
) -> (BTreeMap<String, Sides>, Vec<String>) {
    let mut sides: BTreeMap<String, Sides> = stated
        .iter()
        .map(|(name, req)| {
            (
                name.clone(),
                Sides {
                    requirement: req.clone(),
                    inside: Vec::new(),
                    outside: Vec::new(),
                },
            )
        })
        .collect();
    let mut errors = Vec::new();
    for case in suite.cases() {
        for flag in &case.flags {
            let Some(rest) = flag.strip_prefix("boundary:") else {
                continue;
            };
            let Some((name, side)) = rest.rsplit_once(':') else {
                errors.push(format!(
                    "{}: flag `{flag}` is not boundary:<name>:inside|outside",
                    case.id
                ));
                continue;
            };
            let Some(entry) = sides.get_mut(name) else {
                errors.push(format!(
                    "{}: boundary `{name}` is stated by no requirement's Boundaries bullet",
                    case.id
                ));
                continue;
            };
            if !case.requirements.contains(&entry.requirement) {
                errors.push(format!(
                    "{}: stands on boundary `{name}` of {} without citing it",
                    case.id, entry.requirement
                ));
            }
            match side {
                "inside" => entry.inside.push(case.id.clone()),
                "outside" => entry.outside.push(case.id.clone()),
                _ => errors.push(format!(
                    "{}: flag `{flag}`: the side is `inside` or `outside`",
                    case.id
                )),
            }
        }
    }
    for (name, s) in &sides {
        let missing = match (s.inside.is_empty(), s.outside.is_empty()) {
            (false, false) => continue,
            (true, true) => "either side",
            (true, false) => "the inside",
            (false, true) => "the outside",
        };
        errors.push(format!(
            "boundary `{name}` of {} has no vector on {missing} (flag boundary:{name}:inside / :outside)",
            s.requirement
        ));
    }
    (sides, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_are_read_per_requirement_and_checked() {
        let profile = "## A\n### X-001 [MUST] T\n- Level: core\n- Boundaries: `len-max` (128), `skew`\n### X-002 [MUST] U\n- Boundaries: `len-max`\n- Boundaries: `Bad_Name`\n";
        let errors = stated(profile).unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.contains("stated by X-001 and X-002"))
        );
        assert!(errors.iter().any(|e| e.contains("`Bad_Name`")));
        let ok =
            stated("### X-001 [MUST] T\n- Boundaries: `len-max` (128 bytes), `skew`\n").unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok["skew"], "X-001");

        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("canon")).unwrap();
        let case = |id: &str, flags: &str, reqs: &str| {
            format!(
                r#"{{"id": "{id}", "description": "d", "requirements": [{reqs}], "level": 0, "flags": [{flags}],
                "input": {{"data_base64": ""}}, "expected": {{"result": "valid", "output": {{"hash": "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}}}},
                "derivation": {{"kind": "hand", "detail": "d"}}}}"#
            )
        };
        let file = format!(
            r#"{{"spec": "canon", "operation": "hash-bytes", "description": "d", "cases": [{}, {}, {}]}}"#,
            case("canon-a", r#""boundary:len-max:inside""#, r#""X-001""#),
            case("canon-b", r#""boundary:skew:outside""#, r#""X-002""#),
            case("canon-c", r#""boundary:nowhere:inside""#, r#""X-001""#),
        );
        std::fs::write(dir.path().join("canon/hash-bytes.json"), file).unwrap();
        let suite = Suite::load(dir.path()).unwrap();
        let (sides, errors) = check(&ok, &suite);
        assert_eq!(sides["len-max"].inside, ["canon-a"]);
        let has = |s: &str| errors.iter().any(|e| e.contains(s));
        assert!(has(
            "boundary `len-max` of X-001 has no vector on the outside"
        ));
        assert!(has("boundary `skew` of X-001 has no vector on the inside"));
        assert!(has(
            "canon-b: stands on boundary `skew` of X-001 without citing it"
        ));
        assert!(has(
            "canon-c: boundary `nowhere` is stated by no requirement"
        ));
        assert_eq!(errors.len(), 4, "{errors:?}");
    }
}
