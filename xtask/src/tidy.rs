//! `cargo xtask tidy`: the layout rules that keep the code readable, checked rather than
//! promised (rust-analyzer's tidy test). Also run by `cargo test -p xtask`, so the README's
//! test command fails when a rule breaks.
//!
//! - every Rust file of the workspace (sources, tests, benches, fuzz targets) has at most
//!   [`MAX_FILE_LINES`] lines: a file is read in one sitting;
//! - ARCHITECTURE.md names exactly the workspace's crates: none missing, none that does not
//!   exist;
//! - every crate inherits the workspace lints (`[lints] workspace = true`), where
//!   `clippy::too_many_lines` (threshold in clippy.toml) keeps functions to one screen.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

/// The longest Rust file allowed.
pub const MAX_FILE_LINES: usize = 600;

/// Files written before the rule, with the length they may not exceed. The list only shrinks:
/// a listed file that grows fails, and so does a listed file that now fits (remove its line).
const OVER_LENGTH: &[(&str, usize)] = &[
    // Empty since 2026-11-27: every file that was over the limit when the rule came is split.
    // An entry here is a ceiling a file may not exceed, for a file merged over the limit.
];

/// Functions over clippy's `too_many_lines` threshold (100 lines, clippy.toml), by file: each
/// carries `#[allow(clippy::too_many_lines, reason = ...)]`. Renderers (one output format top to
/// bottom) may stay; the others were written before the rule and are next to split. The list
/// only shrinks: a file with more allows than listed fails, and so does one with fewer.
const LONG_FUNCTIONS: &[(&str, usize)] = &[
    // Renderers: the demo site's pages and the conformance report formats.
    ("crates/citeproof-cli/src/demo/site.rs", 1),
    ("crates/citeproof-conformance/src/report/json.rs", 1),
    ("crates/citeproof-conformance/src/report/junit.rs", 1),
    ("crates/citeproof-conformance/src/report/markdown.rs", 1),
    ("crates/citeproof-conformance/src/lint.rs", 1),
];

/// Directories whose Rust files are checked (relative to the workspace root).
const CHECKED_DIRS: [&str; 3] = ["crates", "xtask", "fuzz"];

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    if let Some(arg) = args.first() {
        anyhow::bail!("tidy takes no arguments (got `{arg}`)");
    }
    let problems = check(root)?;
    if problems.is_empty() {
        println!("tidy: every rule holds");
        return Ok(ExitCode::SUCCESS);
    }
    for problem in &problems {
        println!("tidy: {problem}");
    }
    println!("tidy: {} problem(s)", problems.len());
    Ok(ExitCode::FAILURE)
}

/// Every broken rule, one line each (empty when the tree is tidy).
pub fn check(root: &Path) -> Result<Vec<String>> {
    let files = checked_files(root)?;
    let mut problems = long_files(&files);
    problems.extend(long_functions(&files));
    let crates = workspace_crates(root)?;
    problems.extend(architecture_names(root, &crates)?);
    problems.extend(lints_inherited(root, &crates)?);
    Ok(problems)
}

/// A Rust file of [`CHECKED_DIRS`]: its path from the root with `/` separators, and its text.
struct RustFile {
    name: String,
    text: String,
}

/// Every Rust file of [`CHECKED_DIRS`], sorted by path, read once for all the rules.
fn checked_files(root: &Path) -> Result<Vec<RustFile>> {
    let mut paths = Vec::new();
    for dir in CHECKED_DIRS {
        rust_files(&root.join(dir), &mut paths)?;
    }
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            let shown = path.strip_prefix(root).unwrap_or(&path);
            let name = shown.to_string_lossy().replace('\\', "/");
            Ok(RustFile { name, text })
        })
        .collect()
}

fn long_files(files: &[RustFile]) -> Vec<String> {
    let mut problems = Vec::new();
    for RustFile { name, text } in files {
        let lines = text.lines().count();
        let ceiling = OVER_LENGTH.iter().find(|(listed, _)| listed == name);
        match ceiling {
            Some((_, max)) if lines > *max => problems.push(format!(
                "{name} has {lines} lines, more than its {max} when the rule came: split it"
            )),
            Some(_) if lines <= MAX_FILE_LINES => problems.push(format!(
                "{name} now has {lines} lines: remove it from tidy's OVER_LENGTH list"
            )),
            Some(_) => {}
            None if lines > MAX_FILE_LINES => problems.push(format!(
                "{name} has {lines} lines (at most {MAX_FILE_LINES}): split it by responsibility"
            )),
            None => {}
        }
    }
    problems
}

/// Files whose functions may exceed clippy's threshold, against [`LONG_FUNCTIONS`]. Test code
/// is not counted: a table-driven test is a table.
fn long_functions(files: &[RustFile]) -> Vec<String> {
    let mut problems = Vec::new();
    for RustFile { name, text } in files {
        if name.contains("/tests/") || name.contains("/benches/") {
            continue;
        }
        let allows = text
            .lines()
            .map(str::trim_start)
            // `#[allow(clippy::too_many_lines, reason = ...)]`, on one line or as rustfmt
            // breaks it.
            .filter(|l| {
                l.starts_with("#[allow(clippy::too_many_lines") || *l == "clippy::too_many_lines,"
            })
            .count();
        let listed = LONG_FUNCTIONS
            .iter()
            .find(|(path, _)| path == name)
            .map_or(0, |(_, n)| *n);
        if allows > listed {
            problems.push(format!(
                "{name} allows {allows} function(s) over 100 lines, more than its {listed}: split the function"
            ));
        } else if allows < listed {
            problems.push(format!(
                "{name} now allows {allows} long function(s): lower its LONG_FUNCTIONS count to {allows}"
            ));
        }
    }
    problems
}

/// The `.rs` files under `dir`, skipping build output, fuzz corpora and installed packages.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !matches!(
                name,
                "target" | "corpus" | "artifacts" | "node_modules" | ".venv"
            ) {
                rust_files(&path, out)?;
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The package names of the directories under `crates/`.
fn workspace_crates(root: &Path) -> Result<BTreeSet<String>> {
    let mut crates = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("crates"))? {
        let path = entry?.path();
        if path.join("Cargo.toml").is_file()
            && let Some(name) = path.file_name().and_then(|n| n.to_str())
        {
            crates.insert(name.to_owned());
        }
    }
    Ok(crates)
}

fn architecture_names(root: &Path, crates: &BTreeSet<String>) -> Result<Vec<String>> {
    let text =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).context("reading ARCHITECTURE.md")?;
    let named = crate_names_in(&text);
    let mut problems = Vec::new();
    for missing in crates.difference(&named) {
        problems.push(format!(
            "ARCHITECTURE.md does not describe the crate {missing}"
        ));
    }
    for unknown in named.difference(crates) {
        problems.push(format!(
            "ARCHITECTURE.md names {unknown}, which is not a crate of the workspace"
        ));
    }
    Ok(problems)
}

/// Every `citeproof-...` word of `text` (letters, digits and hyphens after the prefix; a
/// trailing hyphen is punctuation).
fn crate_names_in(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("citeproof-") {
        let preceded_by_word = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/');
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(tail.len());
        let name = tail[..end].trim_end_matches('-');
        if !preceded_by_word && name.len() > "citeproof-".len() {
            names.insert(name.to_owned());
        }
        rest = &tail[end.max(1)..];
    }
    names
}

fn lints_inherited(root: &Path, crates: &BTreeSet<String>) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let manifests = crates
        .iter()
        .map(|name| root.join("crates").join(name).join("Cargo.toml"))
        .chain([root.join("xtask/Cargo.toml")]);
    for manifest in manifests {
        let text = std::fs::read_to_string(&manifest)
            .with_context(|| format!("reading {}", manifest.display()))?;
        let inherits = text
            .split("[lints]")
            .nth(1)
            .is_some_and(|after| after.trim_start().starts_with("workspace = true"));
        if !inherits {
            let shown = manifest.strip_prefix(root).unwrap_or(&manifest);
            problems.push(format!(
                "{} does not inherit the workspace lints ([lints] workspace = true)",
                shown.display()
            ));
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_is_tidy() {
        let problems = check(&crate::workspace_root()).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_long_file_and_an_unlisted_long_function_are_problems() {
        let file = |name: &str, text: String| RustFile {
            name: name.to_owned(),
            text,
        };
        let allow =
            "#[allow(\n    clippy::too_many_lines,\n    reason = \"a table\"\n)]\nfn f() {}\n";
        let files = [
            file("crates/a/src/big.rs", "x\n".repeat(MAX_FILE_LINES + 1)),
            file("crates/a/src/ok.rs", "x\n".repeat(MAX_FILE_LINES)),
            file("crates/a/src/long.rs", allow.to_owned()),
            file("crates/a/tests/long.rs", allow.to_owned()),
        ];
        let long = long_files(&files);
        assert_eq!(long.len(), 1, "{long:?}");
        assert!(long[0].starts_with("crates/a/src/big.rs has 601 lines"));
        let functions = long_functions(&files);
        assert_eq!(functions.len(), 1, "{functions:?}");
        assert!(functions[0].starts_with("crates/a/src/long.rs allows 1 function(s)"));
        // A listed file that no longer needs its entry is a problem too.
        let listed = LONG_FUNCTIONS[0].0;
        let problems = long_functions(&[file(listed, String::new())]);
        assert!(problems[0].contains("lower its LONG_FUNCTIONS count to 0"));
    }

    #[test]
    fn crate_names_are_read_as_words() {
        let names = crate_names_in(
            "`citeproof-model` and citeproof-aca-, not crates/citeproof-x or xciteproof-y; citeproof-",
        );
        let expected: BTreeSet<String> = ["citeproof-model", "citeproof-aca"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        assert_eq!(names, expected);
    }
}
