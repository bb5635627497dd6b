//! `cargo xtask mutants --reference`: mutation testing of the reference with cargo-mutants.
//!
//! cargo-mutants (installed with `cargo install --locked cargo-mutants` when missing) mutates
//! the grammars of the model and the validators of the spec crates, one file at a time, and
//! runs the conformance suite as the test: `cargo test -p citeproof-variants --test
//! reference_suite`, every static case and one generated variant of each against the
//! in-process reference, with a fixed seed. A mutant the suite does not fail is a vector
//! missing (or an equivalent mutant, recorded as such in `mutants/RUNS.md` with its reason).
//!
//! Each mutant rebuilds the crates above the mutated one, so a full run takes hours on two
//! cores: `--file` picks files, `--shard K/N` a part of their mutants, and `--ci` is a small
//! fixed subset (the identifier grammar, 10 mutants) for a quick check by hand. `.ci/run` does
//! not run it: installing cargo-mutants and rebuilding every crate above the model for each
//! mutant would cost CI minutes it does not have (mutants/RUNS.md); CI runs the broken adapters
//! (`cargo xtask mutants`). Survivors are printed by file and function;
//! `--record` keeps every mutant's verdict in `mutants/outcomes.json` and writes the table of
//! `mutants/RUNS.md` from it (`mutants_record`).
//!
//! What a mutant costs (measured, `mutants/RUNS.md`): the build of the crates above it and the
//! test. The build is narrowed to the one test target (`--cargo-arg=--test=reference_suite`:
//! cargo-mutants' build phase otherwise links every test binary of the package), and each
//! mutant runs the static cases only (`CITEPROOF_SUITE_VARIANTS=0`); the mutants that survive
//! them are run again with the generated variants before they count as survivors (a mutant
//! only the variants kill is `caught-by-variants`). `--with-variants` runs the whole suite on
//! every mutant instead.

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::Instant,
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::mutants_record;

pub const USAGE: &str = "\
cargo xtask mutants --reference [--file PATH]... [--shard K/N] [--ci] [--list] [--record]
                                [--in-place] [--timeout SECONDS] [--with-variants]
                                [--import DIR] [--survivors] [--render]

  --file PATH     mutate this file (repeatable; default: every file of REFERENCE_FILES, the
                  model's grammars first); a glob as cargo-mutants reads it
  --shard K/N     run the K-th of N parts of the mutants (0-based, as cargo-mutants counts)
  --ci            a small fixed subset for a quick check: crates/citeproof-model/src/ids.rs
  --list          list the mutants and exit
  --record        keep the verdicts in mutants/outcomes.json (a whole-file run replaces the
                  file's mutants, a shard adds or replaces its own) and rewrite the file's row
                  of the table of mutants/RUNS.md from them
  --in-place      mutate this tree and build in its target/ (warm) instead of a copy (cold);
                  do not build or commit in the tree while it runs
  --timeout S     seconds after which a mutant's test counts as a timeout (default: from the
                  baseline run; with --in-place the baseline is skipped and S is required)
  --with-variants the generated variants on every mutant (default: static cases per mutant,
                  the variants on the survivors only)
  --survivors     run again only the mutants mutants/outcomes.json records as survivors of
                  the files (after vectors were added for them) and not marked equivalent
                  there; recorded with --record
  --render        rewrite mutants/RUNS.md (table, summary, list of equivalent mutants) from
                  mutants/outcomes.json, after marking a survivor equivalent there by hand
                  (\"equivalent\": {\"kind\": KIND, \"reason\": TEXT}, KIND one of
                  same-verdict-and-codes, exactly-equivalent, unreachable, schema-only)
  --import DIR    take the static pass of a cargo-mutants run made by hand from
                  DIR/mutants.out/outcomes.json (its survivors are still confirmed here)
";

/// The files mutated by default, in the order of issue 24: the model's grammars (identifiers,
/// timestamps and URLs, web URLs, hashes, strict JSON numbers), then each spec's validators.
pub const REFERENCE_FILES: &[&str] = &[
    "crates/citeproof-model/src/ids.rs",
    "crates/citeproof-model/src/primitives.rs",
    "crates/citeproof-model/src/weburl.rs",
    "crates/citeproof-model/src/hash.rs",
    "crates/citeproof-model/src/token.rs",
    "crates/citeproof-model/src/json/scan.rs",
    "crates/citeproof-model/src/json/strings.rs",
    "crates/citeproof-model/src/jcs.rs",
    "crates/citeproof-aca/src/verify/header.rs",
    "crates/citeproof-aca/src/verify/header/grammar.rs",
    "crates/citeproof-aca/src/verify/manifest/mod.rs",
    "crates/citeproof-aca/src/verify/manifest/chain.rs",
    "crates/citeproof-aef/src/validate.rs",
    "crates/citeproof-chain/src/checks.rs",
    "crates/citeproof-chain/src/envelope.rs",
    "crates/citeproof-chain/src/dates.rs",
    "crates/citeproof-ledger/src/document.rs",
    "crates/citeproof-archive/src/citation.rs",
];

/// The fixed subset CI runs (`--ci`): small, and at the bottom of the graph, so it measures
/// the whole suite's test command.
pub const CI_FILES: &[&str] = &["crates/citeproof-model/src/ids.rs"];

/// The test cargo-mutants runs for every mutant.
const TEST_PACKAGE: &str = "citeproof-variants";
const TEST_TARGET: &str = "reference_suite";
/// `0` in the test's environment: static cases only.
const VARIANTS_ENV: &str = "CITEPROOF_SUITE_VARIANTS";

struct Options {
    files: Vec<String>,
    shard: Option<String>,
    list: bool,
    record: bool,
    in_place: bool,
    timeout: Option<u64>,
    with_variants: bool,
    import: Option<PathBuf>,
    survivors: bool,
    render: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        files: Vec::new(),
        shard: None,
        list: false,
        record: false,
        in_place: false,
        timeout: None,
        with_variants: false,
        import: None,
        survivors: false,
        render: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--reference" => {}
            "--file" => o
                .files
                .push(it.next().context("--file needs a path")?.clone()),
            "--shard" => {
                let v = it.next().context("--shard needs K/N")?;
                let ok = v.split_once('/').is_some_and(|(k, n)| {
                    matches!((k.parse::<u32>(), n.parse::<u32>()), (Ok(k), Ok(n)) if k < n)
                });
                if !ok {
                    bail!("--shard needs K/N with 0 <= K < N, got `{v}`");
                }
                o.shard = Some(v.clone());
            }
            "--ci" => o.files.extend(CI_FILES.iter().map(|f| (*f).to_owned())),
            "--list" => o.list = true,
            "--record" => o.record = true,
            "--in-place" => o.in_place = true,
            "--with-variants" => o.with_variants = true,
            "--survivors" => o.survivors = true,
            "--render" => o.render = true,
            "--import" => o.import = Some(it.next().context("--import needs a directory")?.into()),
            "--timeout" => {
                let v = it.next().context("--timeout needs seconds")?;
                o.timeout = Some(v.parse().context("--timeout needs whole seconds")?);
            }
            "--help" | "-h" | "--xtask-help" => {
                print!("{USAGE}");
                return Ok(None);
            }
            other => bail!("unknown argument `{other}`\n{USAGE}"),
        }
    }
    if o.files.is_empty() {
        o.files = REFERENCE_FILES.iter().map(|f| (*f).to_owned()).collect();
    }
    if o.in_place && o.timeout.is_none() && !o.list {
        bail!("--in-place skips the baseline run: give --timeout SECONDS");
    }
    Ok(Some(o))
}

pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Installs cargo-mutants with `cargo install --locked` unless `cargo mutants` already runs.
fn ensure_cargo_mutants() -> Result<String> {
    let version = |c: &mut Command| {
        c.arg("--version")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    if let Some(v) = version(Command::new(cargo()).arg("mutants")) {
        return Ok(v);
    }
    println!("cargo-mutants not found: cargo install --locked cargo-mutants");
    let status = Command::new(cargo())
        .args(["install", "--locked", "cargo-mutants"])
        .status()
        .context("running cargo install")?;
    if !status.success() {
        bail!("cargo install --locked cargo-mutants failed");
    }
    version(Command::new(cargo()).arg("mutants"))
        .context("cargo mutants does not run after install")
}

/// Which mutants of a file one `cargo mutants` runs, and with which test.
enum Pass<'a> {
    /// The mutants of `--shard` (or all, or `only`), with the static cases (or the whole suite).
    First {
        with_variants: bool,
        only: Option<&'a [String]>,
    },
    /// These mutants again, with the whole suite: the static pass's survivors.
    Confirm(&'a [String]),
}

/// `cargo mutants` over `file` with the suite as its test.
fn command(root: &Path, o: &Options, file: &str, out: &Path, pass: &Pass) -> Command {
    let mut c = Command::new(cargo());
    c.current_dir(root)
        .args(["mutants", "--no-shuffle", "--file", file])
        .args(["--test-package", TEST_PACKAGE, "--output"])
        .arg(out)
        // Build the one test target, not every test binary of the package.
        .arg(format!("--cargo-arg=--test={TEST_TARGET}"));
    match pass {
        Pass::First {
            with_variants,
            only,
        } => {
            if let Some(shard) = &o.shard {
                c.args(["--shard", shard]);
            }
            for n in only.unwrap_or_default() {
                c.args(["--re", &format!("^{}$", regex_escape(n))]);
            }
            if !with_variants {
                c.env(VARIANTS_ENV, "0");
            }
        }
        Pass::Confirm(names) => {
            c.env_remove(VARIANTS_ENV);
            for n in *names {
                c.args(["--re", &format!("^{}$", regex_escape(n))]);
            }
        }
    }
    if o.list {
        c.arg("--list");
    }
    // One mutant at a time (the machine is shared); --in-place is one at a time already and
    // refuses --jobs.
    if o.in_place {
        c.args(["--in-place", "--baseline", "skip"]);
    } else {
        c.args(["--jobs", "1"]);
    }
    if let Some(t) = o.timeout {
        c.args(["--timeout", &t.to_string()]);
    }
    c
}

/// A mutant's name as a literal in cargo-mutants' `--re` (the `regex` crate's meta characters).
fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// What cargo-mutants concluded about one mutant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// The static cases failed.
    Caught,
    /// The static cases passed, the generated variants failed (the confirmation pass).
    CaughtByVariants,
    Missed,
    Timeout,
    Unviable,
}

impl Verdict {
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Caught => "caught",
            Verdict::CaughtByVariants => "caught-by-variants",
            Verdict::Missed => "missed",
            Verdict::Timeout => "timeout",
            Verdict::Unviable => "unviable",
        }
    }

    pub fn parse(s: &str) -> Option<Verdict> {
        [
            Verdict::Caught,
            Verdict::CaughtByVariants,
            Verdict::Missed,
            Verdict::Timeout,
            Verdict::Unviable,
        ]
        .into_iter()
        .find(|v| v.as_str() == s)
    }
}

/// One mutant's outcome: its file, function, description and verdict.
#[derive(Debug, Clone)]
pub struct MutantOutcome {
    pub file: String,
    pub function: String,
    pub name: String,
    pub verdict: Verdict,
    /// Build and test seconds (the sum of cargo-mutants' phase durations).
    pub seconds: f64,
}

/// Reads `<out>/mutants.out/outcomes.json` (cargo-mutants' record of the run); the baseline
/// scenario is skipped.
pub fn read_outcomes(text: &str) -> Result<Vec<MutantOutcome>> {
    let doc: Value = serde_json::from_str(text).context("parsing outcomes.json")?;
    let list = doc
        .get("outcomes")
        .and_then(Value::as_array)
        .context("outcomes.json has no `outcomes` array")?;
    let mut out = Vec::new();
    for o in list {
        let Some(m) = o.pointer("/scenario/Mutant") else {
            continue;
        };
        let verdict = match o.get("summary").and_then(Value::as_str).unwrap_or_default() {
            "CaughtMutant" => Verdict::Caught,
            "MissedMutant" => Verdict::Missed,
            "Timeout" => Verdict::Timeout,
            "Unviable" => Verdict::Unviable,
            other => bail!("unknown outcome summary `{other}`"),
        };
        let text = |p: &str| {
            m.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let function = text("/function/function_name");
        let seconds = o
            .get("phase_results")
            .and_then(Value::as_array)
            .map(|phases| {
                phases
                    .iter()
                    .filter_map(|p| p.get("duration").and_then(Value::as_f64))
                    .sum()
            })
            .unwrap_or_default();
        out.push(MutantOutcome {
            file: text("/file"),
            function: if function.is_empty() {
                "(outside a function)".into()
            } else {
                function
            },
            name: text("/name"),
            verdict,
            seconds,
        });
    }
    Ok(out)
}

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let Some(o) = parse(args)? else {
        return Ok(ExitCode::SUCCESS);
    };
    if o.render {
        mutants_record::render_file(root)?;
        return Ok(ExitCode::SUCCESS);
    }
    let version = ensure_cargo_mutants()?;
    print_header(&o, &version);
    // Kept after the run (cargo-mutants' logs and diffs of every mutant), under target/.
    let base = crate::devenv::target_dir(root).join("mutants-reference");
    let mut all = Vec::new();
    for file in &o.files {
        let out = base.join(file.replace('/', "_"));
        let clock = Instant::now();
        let mut outcomes = match &o.import {
            Some(dir) => outcomes_in(dir)?
                .into_iter()
                .filter(|m| m.file == *file)
                .collect(),
            None => {
                let recorded;
                let only = if o.survivors {
                    recorded = mutants_record::recorded_survivors(root, file)?;
                    if recorded.is_empty() {
                        println!("== {file}: no recorded survivor");
                        continue;
                    }
                    Some(recorded.as_slice())
                } else {
                    None
                };
                let first = Pass::First {
                    with_variants: o.with_variants,
                    only,
                };
                match cargo_mutants(root, &o, file, &out, &first)? {
                    Some(outcomes) => outcomes,
                    None => continue, // --list
                }
            }
        };
        let survivors: Vec<String> = outcomes
            .iter()
            .filter(|m| m.verdict == Verdict::Missed && m.file == *file)
            .map(|m| m.name.clone())
            .collect();
        if !o.with_variants && !survivors.is_empty() {
            println!(
                "== {file}: {} survived the static cases; again with the generated variants",
                survivors.len()
            );
            let confirm = out.with_extension("confirm");
            let again = cargo_mutants(root, &o, file, &confirm, &Pass::Confirm(&survivors))?
                .unwrap_or_default();
            for m in &mut outcomes {
                if let Some(a) = again.iter().find(|a| a.name == m.name) {
                    m.seconds += a.seconds;
                    m.verdict = match a.verdict {
                        Verdict::Caught => Verdict::CaughtByVariants,
                        ref v => v.clone(),
                    };
                }
            }
        }
        println!(
            "== {file}: {:.1} minutes",
            clock.elapsed().as_secs_f64() / 60.0
        );
        all.extend(outcomes);
    }
    if o.list {
        return Ok(ExitCode::SUCCESS);
    }
    mutants_record::print_summary(&all);
    if o.record {
        let scope = if o.shard.is_some() || o.import.is_some() || o.survivors {
            mutants_record::Scope::Some
        } else {
            mutants_record::Scope::WholeFiles
        };
        mutants_record::record(root, &all, scope)?;
    }
    let missed = all.iter().filter(|m| m.verdict == Verdict::Missed).count();
    Ok(if missed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// What the run does, before it starts.
fn print_header(o: &Options, version: &str) {
    println!(
        "mutation testing of the reference ({version}): test `cargo test -p {TEST_PACKAGE} --test {TEST_TARGET}` ({}), {} file(s){}",
        if o.with_variants {
            "static cases and generated variants"
        } else {
            "static cases; survivors again with the generated variants"
        },
        o.files.len(),
        o.shard
            .as_deref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
}

/// Runs one `cargo mutants` pass and reads its outcomes (`None` with `--list`).
fn cargo_mutants(
    root: &Path,
    o: &Options,
    file: &str,
    out: &Path,
    pass: &Pass,
) -> Result<Option<Vec<MutantOutcome>>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    println!("== {file} (logs in {})", out.display());
    let status = command(root, o, file, out, pass)
        .status()
        .context("running cargo mutants")?;
    if o.list {
        return Ok(None);
    }
    // cargo-mutants exits 2 when mutants survived and 3 on timeouts: both are results.
    if !matches!(status.code(), Some(0 | 2 | 3)) {
        bail!("cargo mutants failed on {file} ({status})");
    }
    outcomes_in(out).map(Some)
}

fn outcomes_in(dir: &Path) -> Result<Vec<MutantOutcome>> {
    let path = dir.join("mutants.out/outcomes.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    read_outcomes(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants_record::{survivors_text, tally};

    #[test]
    fn outcomes_are_tallied_per_file_and_survivors_grouped_by_function() {
        // The shape cargo-mutants 27 writes (trimmed): a baseline, then one entry per mutant.
        let text = r#"{"outcomes": [
          {"scenario": "Baseline", "summary": "Success"},
          {"scenario": {"Mutant": {"file": "a.rs", "name": "a.rs:3:5: replace f -> bool with true",
            "function": {"function_name": "f"}}}, "summary": "MissedMutant"},
          {"scenario": {"Mutant": {"file": "a.rs", "name": "a.rs:4:5: replace f -> bool with false",
            "function": {"function_name": "f"}}}, "summary": "CaughtMutant"},
          {"scenario": {"Mutant": {"file": "a.rs", "name": "a.rs:9:1: replace g -> u8 with 0",
            "function": {"function_name": "g"}}}, "summary": "Unviable"},
          {"scenario": {"Mutant": {"file": "b.rs", "name": "b.rs:1:1: replace h with ()",
            "function": {"function_name": "h"}}}, "summary": "Timeout"}
        ]}"#;
        let o = read_outcomes(text).unwrap();
        assert_eq!(o.len(), 4);
        let t = tally(&o);
        assert_eq!(t["a.rs"], [3, 1, 1, 0, 1]);
        assert_eq!(t["b.rs"], [1, 0, 0, 1, 0]);
        let s = survivors_text(&o);
        assert!(s.contains("a.rs :: f") && s.contains("replace f -> bool with true"));
        assert!(!s.contains("with false") && !s.contains("b.rs"));
        assert_eq!(o[0].seconds, 0.0, "no phase results, no time");
        assert!(
            read_outcomes(r#"{"outcomes": [{"scenario": {"Mutant": {}}, "summary": "?"}]}"#)
                .is_err()
        );
    }

    #[test]
    fn a_survivor_is_selected_again_by_its_literal_name() {
        // A real name (cargo-mutants 27), with the meta characters names carry.
        let name = "crates/m/src/p.rs:54:9: replace T::f -> Option<&'static str> with Some(\"\") in [*a|b]+.c-d{1}^$#~?";
        let re = regex_escape(name);
        assert_eq!(
            re,
            "crates/m/src/p\\.rs:54:9: replace T::f \\-> Option<\\&'static str> with Some\\(\"\"\\) in \\[\\*a\\|b\\]\\+\\.c\\-d\\{1\\}\\^\\$\\#\\~\\?"
        );
        assert_eq!(
            Verdict::parse("caught-by-variants"),
            Some(Verdict::CaughtByVariants)
        );
        assert_eq!(Verdict::parse("survived"), None);
    }
}
