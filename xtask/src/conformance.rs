//! `cargo xtask conformance [--strict] [--lint-only] [ARGS...]`: lints the vectors, writes the
//! traceability matrix `vectors/TRACEABILITY.md`, then runs `citeproof conformance --vectors
//! <root>/vectors ARGS...` (the in-process reference unless ARGS has `--impl`): the vectors of
//! this tree, named explicitly, since the binary runs its embedded suite otherwise.
//!
//! MUST coverage: every MUST requirement of docs/PROFILE.md has a passing and a failing case,
//! unless its spec has no vector file yet (deferred: the profile fixes seeds 002-004 ahead of
//! their implementation) or it is listed in `vectors/meta/coverage-exemptions.json` with the
//! tests that cover it instead. A gap fails the task; `--allow-gaps` only reports it.
//!
//! Boundaries: every boundary a requirement states (`- Boundaries:`) has a case just inside
//! and one just outside it (`crate::boundaries`); a one-sided boundary fails the lint.

use std::{
    path::Path,
    process::{Command, ExitCode},
};

use anyhow::{Context, Result};
use citeproof_conformance::{
    Profile,
    lint::{Traceability, lint, load_exemptions},
};

const USAGE: &str = "\
cargo xtask conformance [--allow-gaps] [--lint-only] [--release] [-- ARGS...]

  --allow-gaps report MUST requirements lacking a passing or failing case without failing
  --lint-only  lint and write vectors/TRACEABILITY.md, do not run the suite
  --release    run the citeproof binary built in release mode
  ARGS         passed to `citeproof conformance` (see `citeproof conformance --help`)
";

/// Every boundary the profile states (`- Boundaries:` bullets) has a vector on each side
/// (`crate::boundaries`); prints the count and returns the errors, printed too.
fn check_boundaries(
    profile_path: &Path,
    suite: &citeproof_conformance::Suite,
) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(profile_path)
        .with_context(|| format!("reading {}", profile_path.display()))?;
    let errors = match crate::boundaries::stated(&text) {
        Err(errors) => errors,
        Ok(stated) => {
            let (sides, errors) = crate::boundaries::check(&stated, suite);
            let both = sides
                .values()
                .filter(|s| !s.inside.is_empty() && !s.outside.is_empty())
                .count();
            println!(
                "boundaries: {both} of {} stated in the profile have a vector on each side",
                sides.len()
            );
            errors
        }
    };
    for e in &errors {
        println!("  error: {e}");
    }
    Ok(errors)
}

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let mut strict = true;
    let mut lint_only = false;
    let mut release = false;
    let mut pass = Vec::new();
    for a in args {
        match a.as_str() {
            "--strict" => strict = true,
            "--allow-gaps" => strict = false,
            "--lint-only" => lint_only = true,
            "--release" => release = true,
            "--" => {}
            "--xtask-help" => {
                print!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            _ => pass.push(a.clone()),
        }
    }
    let Some(gaps) = lint_and_trace(root, strict)? else {
        return Ok(ExitCode::FAILURE);
    };
    let coverage_ok = !strict || gaps == 0;
    if lint_only {
        return Ok(if coverage_ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    run_suite(root, release, &pass, coverage_ok)
}

/// Lints the vectors, rewrites vectors/TRACEABILITY.md and checks the boundaries; the number
/// of MUST requirements without a passing and a failing case, or `None` when the lint failed.
fn lint_and_trace(root: &Path, strict: bool) -> Result<Option<usize>> {
    let vectors = root.join("vectors");
    let profile_path = root.join("docs/PROFILE.md");
    let profile = Profile::load(&profile_path)
        .with_context(|| format!("reading {}", profile_path.display()))?;
    let (report, suite) = lint(&vectors, &profile, citeproof_reference::SPECS);
    println!(
        "lint: {} vector files, {} cases, {} errors, {} warnings",
        report.files,
        report.cases,
        report.errors.len(),
        report.warnings.len()
    );
    for w in &report.warnings {
        println!("  warning: {w}");
    }
    for e in &report.errors {
        println!("  error: {e}");
    }

    let exemptions = match load_exemptions(&vectors, root, &profile) {
        Ok(list) => list,
        Err(problems) => {
            for p in &problems {
                println!("  error: {p}");
            }
            println!("lint failed: fix the coverage exemptions");
            return Ok(None);
        }
    };
    let matrix = Traceability::new(&profile, &suite).with_exemptions(&exemptions);
    let stale = matrix.stale_exemptions();
    for r in &stale {
        println!(
            "  error: {} is exempt from vectors but has a passing and a failing case: remove the exemption",
            r.id
        );
    }
    let path = vectors.join("TRACEABILITY.md");
    let text = matrix.markdown();
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    let gaps = matrix.gaps();
    let must = matrix
        .rows
        .iter()
        .filter(|r| r.keyword == citeproof_conformance::profile::Keyword::Must)
        .count();
    println!(
        "traceability: {} of {must} MUST requirements have a passing and a failing case; {} exempt (tested by integration tests), {} deferred (spec without vectors yet), {} gaps{}",
        matrix.covered_must(),
        exemptions.len(),
        matrix.deferred().len(),
        gaps.len(),
        if gaps.is_empty() {
            ""
        } else if strict {
            " (failing)"
        } else {
            " (--allow-gaps: reported only)"
        }
    );
    if !gaps.is_empty() {
        let ids: Vec<&str> = gaps.iter().map(|g| g.id.as_str()).collect();
        println!("  gaps: {}", ids.join(" "));
    }
    let boundary_errors = check_boundaries(&profile_path, &suite)?;
    if !report.errors.is_empty() || !stale.is_empty() || !boundary_errors.is_empty() {
        println!("lint failed: fix the errors above");
        return Ok(None);
    }
    Ok(Some(gaps.len()))
}

/// Runs the suite with the CLI (the built-in vectors of this tree unless `--vectors` is passed).
fn run_suite(root: &Path, release: bool, pass: &[String], coverage_ok: bool) -> Result<ExitCode> {
    let vectors = root.join("vectors");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root).args(["run", "--quiet"]);
    if release {
        cmd.arg("--release");
    }
    cmd.args(["-p", "citeproof-cli", "--", "conformance"]);
    if !pass
        .iter()
        .any(|a| a == "--vectors" || a.starts_with("--vectors="))
    {
        cmd.arg("--vectors").arg(&vectors);
    }
    cmd.args(pass);
    let status = cmd.status().context("running cargo")?;
    Ok(match status.code() {
        Some(0) if coverage_ok => ExitCode::SUCCESS,
        Some(0) => ExitCode::FAILURE,
        Some(c) => ExitCode::from(u8::try_from(c).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}
