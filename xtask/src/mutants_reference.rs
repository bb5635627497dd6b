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
//! cores: `--file` picks files, `--shard K/N` a part of their mutants, and CI runs the small
//! fixed subset `--ci` (the identifier grammar). Survivors are printed by file and function;
//! `--record` writes the run's numbers into the table of `mutants/RUNS.md`.

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::Instant,
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

pub const USAGE: &str = "\
cargo xtask mutants --reference [--file PATH]... [--shard K/N] [--ci] [--list] [--record]
                                [--in-place] [--timeout SECONDS]

  --file PATH     mutate this file (repeatable; default: every file of REFERENCE_FILES, the
                  model's grammars first); a glob as cargo-mutants reads it
  --shard K/N     run the K-th of N parts of the mutants (0-based, as cargo-mutants counts)
  --ci            the fixed subset CI runs: crates/citeproof-model/src/ids.rs
  --list          list the mutants and exit
  --record        write the run's numbers into mutants/RUNS.md (one row per file)
  --in-place      mutate this tree and build in its target/ (warm) instead of a copy (cold);
                  do not build or commit in the tree while it runs
  --timeout S     seconds after which a mutant's test counts as a timeout (default: from the
                  baseline run; with --in-place the baseline is skipped and S is required)
";

/// The files mutated by default, in the order of issue 24: the model's grammars (identifiers,
/// timestamps and URLs, web URLs, hashes, strict JSON numbers), then each spec's validators.
pub const REFERENCE_FILES: &[&str] = &[
    "crates/citeproof-model/src/ids.rs",
    "crates/citeproof-model/src/primitives.rs",
    "crates/citeproof-model/src/weburl.rs",
    "crates/citeproof-model/src/hash.rs",
    "crates/citeproof-model/src/json.rs",
    "crates/citeproof-model/src/jcs.rs",
    "crates/citeproof-aca/src/verify/header.rs",
    "crates/citeproof-aca/src/verify/manifest/mod.rs",
    "crates/citeproof-aca/src/verify/manifest/chain.rs",
    "crates/citeproof-aef/src/validate.rs",
    "crates/citeproof-chain/src/checks.rs",
    "crates/citeproof-chain/src/envelope.rs",
    "crates/citeproof-ledger/src/document.rs",
    "crates/citeproof-archive/src/citation.rs",
];

/// The fixed subset CI runs (`--ci`): small, and at the bottom of the graph, so it measures
/// the whole suite's test command.
pub const CI_FILES: &[&str] = &["crates/citeproof-model/src/ids.rs"];

/// The test cargo-mutants runs for every mutant.
const TEST_PACKAGE: &str = "citeproof-variants";
const TEST_TARGET: &str = "reference_suite";

struct Options {
    files: Vec<String>,
    shard: Option<String>,
    list: bool,
    record: bool,
    in_place: bool,
    timeout: Option<u64>,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        files: Vec::new(),
        shard: None,
        list: false,
        record: false,
        in_place: false,
        timeout: None,
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

fn cargo() -> String {
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

/// `cargo mutants` over `file` with the suite as its test.
fn command(root: &Path, o: &Options, file: &str, out: &Path) -> Command {
    let mut c = Command::new(cargo());
    c.current_dir(root)
        .args(["mutants", "--no-shuffle", "--file", file])
        .args(["--test-package", TEST_PACKAGE, "--output"])
        .arg(out);
    if let Some(shard) = &o.shard {
        c.args(["--shard", shard]);
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
    c.args(["--", "--test", TEST_TARGET]);
    c
}

/// What cargo-mutants concluded about one mutant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Caught,
    Missed,
    Timeout,
    Unviable,
}

/// One mutant's outcome: its file, function, description and verdict.
#[derive(Debug, Clone)]
pub struct MutantOutcome {
    pub file: String,
    pub function: String,
    pub name: String,
    pub verdict: Verdict,
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
        out.push(MutantOutcome {
            file: text("/file"),
            function: if function.is_empty() {
                "(outside a function)".into()
            } else {
                function
            },
            name: text("/name"),
            verdict,
        });
    }
    Ok(out)
}

/// Per file: tried, caught, missed, timeouts, unviable.
pub fn tally(outcomes: &[MutantOutcome]) -> BTreeMap<String, [usize; 5]> {
    let mut t: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    for o in outcomes {
        let row = t.entry(o.file.clone()).or_default();
        row[0] += 1;
        row[match o.verdict {
            Verdict::Caught => 1,
            Verdict::Missed => 2,
            Verdict::Timeout => 3,
            Verdict::Unviable => 4,
        }] += 1;
    }
    t
}

/// The survivors grouped by file and function, for people.
pub fn survivors_text(outcomes: &[MutantOutcome]) -> String {
    let mut by: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for o in outcomes.iter().filter(|o| o.verdict == Verdict::Missed) {
        by.entry((&o.file, &o.function)).or_default().push(&o.name);
    }
    let mut s = String::new();
    for ((file, function), names) in by {
        let _ = writeln!(s, "  {file} :: {function}");
        for n in names {
            let _ = writeln!(s, "      SURVIVED {n}");
        }
    }
    s
}

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let Some(o) = parse(args)? else {
        return Ok(ExitCode::SUCCESS);
    };
    let version = ensure_cargo_mutants()?;
    println!(
        "mutation testing of the reference ({version}): test `cargo test -p {TEST_PACKAGE} --test {TEST_TARGET}`, {} file(s){}",
        o.files.len(),
        o.shard
            .as_deref()
            .map(|s| format!(", shard {s}"))
            .unwrap_or_default()
    );
    // Kept after the run (cargo-mutants' logs and diffs of every mutant), under target/.
    let base = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("mutants-reference");
    let mut all = Vec::new();
    let mut minutes = BTreeMap::new();
    for file in &o.files {
        let out = base.join(file.replace('/', "_"));
        std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
        let clock = Instant::now();
        println!("== {file} (logs in {})", out.display());
        let status = command(root, &o, file, &out)
            .status()
            .context("running cargo mutants")?;
        if o.list {
            continue;
        }
        let elapsed = clock.elapsed().as_secs_f64() / 60.0;
        // cargo-mutants exits 2 when mutants survived and 3 on timeouts: both are results.
        if !matches!(status.code(), Some(0 | 2 | 3)) {
            bail!("cargo mutants failed on {file} ({status})");
        }
        let path = out.join("mutants.out/outcomes.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let outcomes = read_outcomes(&text)?;
        minutes.insert(file.clone(), elapsed);
        all.extend(outcomes);
    }
    if o.list {
        return Ok(ExitCode::SUCCESS);
    }
    let table = tally(&all);
    println!("\nfile: tried / caught / missed / timeout / unviable");
    for (file, [tried, caught, missed, timeout, unviable]) in &table {
        println!("  {file}: {tried} / {caught} / {missed} / {timeout} / {unviable}");
    }
    let survivors = survivors_text(&all);
    if survivors.is_empty() {
        println!("no survivor");
    } else {
        println!("survivors by file and function:\n{survivors}");
    }
    if o.record {
        record(root, &table, &minutes, o.shard.as_deref())?;
    }
    let missed = all.iter().filter(|m| m.verdict == Verdict::Missed).count();
    Ok(if missed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Replaces (or adds) the rows of the run's files in the table of `mutants/RUNS.md`; the
/// equivalent-mutant column keeps what a person wrote there.
fn record(
    root: &Path,
    table: &BTreeMap<String, [usize; 5]>,
    minutes: &BTreeMap<String, f64>,
    shard: Option<&str>,
) -> Result<()> {
    let path: PathBuf = root.join("mutants/RUNS.md");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for (file, [tried, caught, missed, timeout, unviable]) in table {
        let key = format!("| `{file}` |");
        let equivalent = lines
            .iter()
            .find(|l| l.starts_with(&key))
            .and_then(|l| l.split('|').nth(7))
            .map(|c| c.trim().to_owned())
            .unwrap_or_else(|| "0".into());
        let viable = tried - unviable;
        let killed = caught + timeout;
        let row = format!(
            "| `{file}` | {date}{} | {tried} | {unviable} | {killed} | {missed} | {equivalent} | {:.0}% | {:.1} |",
            shard.map(|s| format!(" (shard {s})")).unwrap_or_default(),
            100.0 * killed as f64 / viable.max(1) as f64,
            minutes.get(file).copied().unwrap_or_default()
        );
        match lines.iter().position(|l| l.starts_with(&key)) {
            Some(i) => lines[i] = row,
            None => {
                let end = lines
                    .iter()
                    .rposition(|l| l.starts_with("| `"))
                    .or_else(|| lines.iter().rposition(|l| l.starts_with("|---")))
                    .context("mutants/RUNS.md has no table")?;
                lines.insert(end + 1, row);
            }
        }
    }
    std::fs::write(&path, lines.join("\n") + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    println!("recorded in {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(
            read_outcomes(r#"{"outcomes": [{"scenario": {"Mutant": {}}, "summary": "?"}]}"#)
                .is_err()
        );
    }
}
