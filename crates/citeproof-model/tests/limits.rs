//! Keeps the `## Limits` table of `docs/PROFILE.md` true: every row names a test that exists
//! (`crate-dir/tests/file.rs::fn` or `crate-dir/src/file.rs::fn`, and for a table-driven test
//! the case name), every constant it names is defined in the named file with the value the row
//! states, every requirement id is a requirement of the profile and every incident code is in
//! the registry.
//!
//! Hand-parsed on purpose (std only), like `profile.rs`: the table format is fixed by the
//! profile itself.

use citeproof_model::IncidentCode;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
const HEADER: &str = "| bound | value | requirement | when exceeded | test that exceeds it |";

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}"))
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// The text between each pair of backticks.
fn backticked(cell: &str) -> Vec<&str> {
    cell.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s)
        .collect()
}

/// The rows of the Limits table, each as its five trimmed cells.
fn rows(profile: &str) -> Vec<Vec<String>> {
    let section = profile
        .split("\n## ")
        .find(|s| s.starts_with("Limits\n"))
        .expect("docs/PROFILE.md has a `## Limits` section");
    let mut lines = section.lines().skip_while(|l| *l != HEADER);
    assert_eq!(lines.next(), Some(HEADER), "the Limits table header");
    assert_eq!(lines.next(), Some("|---|---|---|---|---|"));
    lines
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<String> = l
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect();
            assert_eq!(cells.len(), 5, "a Limits row has five cells: {l}");
            cells
        })
        .collect()
}

/// The leading integer of a value cell (`8192 bytes (...)` → 8192).
fn leading_number(cell: &str) -> u64 {
    let digits: String = cell.chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("a value starts with its number: {cell}"))
}

/// Evaluates the integer constant expressions the bounds are written in: literals (with `_`),
/// `a * b`, `a + b`, `a << b` and `Duration::from_secs(n)` (as seconds).
fn eval(expr: &str) -> u64 {
    let expr = expr.trim();
    if let Some(inner) = expr
        .strip_prefix("Duration::from_secs(")
        .and_then(|e| e.strip_suffix(')'))
    {
        return eval(inner);
    }
    if let Some((a, b)) = expr.split_once('+') {
        return eval(a) + eval(b);
    }
    if let Some((a, b)) = expr.split_once('*') {
        return eval(a) * eval(b);
    }
    if let Some((a, b)) = expr.split_once("<<") {
        return eval(a) << eval(b);
    }
    expr.replace('_', "")
        .parse()
        .unwrap_or_else(|_| panic!("cannot evaluate `{expr}`"))
}

/// The value of `const NAME: T = EXPR;` in `source`.
fn constant(source: &str, name: &str) -> Option<u64> {
    source.lines().find_map(|line| {
        let line = line.trim_start();
        let rest = line.strip_prefix("pub ").unwrap_or(line);
        let rest = rest.strip_prefix("const ")?.strip_prefix(name)?;
        let (_, expr) = rest.strip_prefix(':')?.split_once('=')?;
        Some(eval(expr.trim().trim_end_matches(';')))
    })
}

fn is_code_like(s: &str) -> bool {
    s.contains('-')
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[test]
fn every_limit_names_an_existing_test_and_its_constant_value() {
    let profile = read("docs/PROFILE.md");
    let rows = rows(&profile);
    assert!(rows.len() >= 40, "only {} Limits rows", rows.len());
    let codes: Vec<&str> = IncidentCode::ALL.iter().map(|c| c.as_str()).collect();
    let mut problems = Vec::new();
    for cells in &rows {
        let [bound, value, requirement, exceeded, test] = cells.as_slice() else {
            unreachable!()
        };
        // The constant: "N unit (`NAME` in `path`)".
        let value_ticks = backticked(value);
        if let [name, path] = value_ticks.as_slice() {
            match constant(&read(path), name) {
                Some(v) if v == leading_number(value) => {}
                Some(v) => problems.push(format!("{bound}: {name} is {v} in {path}, not {value}")),
                None => problems.push(format!("{bound}: no const {name} in {path}")),
            }
        } else {
            leading_number(value);
        }
        // The requirement ids.
        for id in requirement.split(", ") {
            if id != "-" && id != "Definitions" && !profile.contains(&format!("\n### {id} [")) {
                problems.push(format!("{bound}: requirement {id} is not in the profile"));
            }
        }
        // Incident codes named.
        for code in backticked(exceeded).into_iter().filter(|c| is_code_like(c)) {
            if !codes.contains(&code) {
                problems.push(format!(
                    "{bound}: `{code}` is not a registered incident code"
                ));
            }
        }
        // The test, and the case of a table-driven test.
        let ticks = backticked(test);
        let Some((path, function)) = ticks.first().and_then(|t| t.split_once("::")) else {
            problems.push(format!("{bound}: no `path::fn` test"));
            continue;
        };
        let is_test_path = path.starts_with("crates/")
            && (path.contains("/tests/") || path.contains("/src/"))
            && path.ends_with(".rs");
        if !is_test_path {
            problems.push(format!("{bound}: `{path}` is not a crate test file"));
            continue;
        }
        let source = read(path);
        let defined = source.lines().any(|l| {
            l.trim_start()
                .strip_prefix("fn ")
                .and_then(|r| r.strip_prefix(function))
                .is_some_and(|r| r.starts_with('('))
        });
        if !defined {
            problems.push(format!("{bound}: no fn {function} in {path}"));
        }
        // A test directory (`tests/<name>/main.rs`) keeps its cases in its modules.
        let case_source = if path.ends_with("/main.rs") {
            sibling_sources(path)
        } else {
            source.clone()
        };
        if let Some(case) = ticks.get(1)
            && !case_source.contains(&format!("\"{case}\""))
        {
            problems.push(format!("{bound}: no case \"{case}\" in {path}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checker_reads_constants_and_rejects_wrong_values() {
    let source = "pub const A: usize = 16 * 1024 * 1024;\nconst B: u64 = 16 * 1024 * 1024 + 64 * 1024;\n\
                  pub const C: Duration = Duration::from_secs(120);\npub const D: usize = 1 << 20;\n\
                  pub const E: usize = 200_000;\n";
    assert_eq!(constant(source, "A"), Some(16_777_216));
    assert_eq!(constant(source, "B"), Some(16_842_752));
    assert_eq!(constant(source, "C"), Some(120));
    assert_eq!(constant(source, "D"), Some(1_048_576));
    assert_eq!(constant(source, "E"), Some(200_000));
    assert_eq!(constant(source, "F"), None);
    assert_eq!(leading_number("8192 bytes (`X` in `y`)"), 8192);
    assert!(is_code_like("fetch-too-large") && !is_code_like("/chains"));
}

/// Every `.rs` file next to `path` (a test directory's modules), concatenated.
fn sibling_sources(path: &str) -> String {
    let dir = std::path::Path::new(path)
        .parent()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut names: Vec<String> = std::fs::read_dir(format!("{ROOT}/{dir}"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".rs"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .iter()
        .map(|n| read(&format!("{dir}/{n}")))
        .collect::<Vec<_>>()
        .join("\n")
}
