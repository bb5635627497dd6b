//! `cargo xtask mutants [--seed N] [--release] [--jobs N] [NAME...]`: the mutation self-test of the suite.
//!
//! Runs `citeproof conformance` (static vectors and generated variants) against every
//! deliberately broken adapter of `examples/adapters/mutants/mutants.json`, prints the mutation
//! score (killed / total) and, for each mutant, the case that killed it. Exits 1 when a mutant
//! survives: a suite that a known-broken implementation passes is a defect of the suite.
//!
//! A mutant marked `"kill": "no-claim"` passes every case it runs (it implements part of the
//! suite correctly): no case can fail it, and what it tests is the runner's claim. It is run
//! once per entry of its `runs` (extra `citeproof conformance` arguments: the whole suite,
//! `--suite`, `--case`, `--no-variants`...) with every report format, and it is killed when every
//! run exits 0 having passed some cases and no report of any run claims a level
//! (`claims::claims`).

use std::{
    path::Path,
    process::{Command, ExitCode, Stdio},
    time::Instant,
};

use std::sync::{
    Mutex, MutexGuard,
    atomic::{AtomicUsize, Ordering},
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::claims;

const USAGE: &str = "\
cargo xtask mutants [--seed N] [--release] [--jobs N] [NAME...]
cargo xtask mutants --reference [...]   (cargo-mutants over the reference: --reference --help)

  --seed N   seed of the runs (default: a fresh one, printed)
  --release  use the citeproof binary built in release mode
  --jobs N   mutants run side by side (default: one per core)
  NAME       run only these mutants (names of examples/adapters/mutants/mutants.json)
";

struct Mutant {
    name: String,
    class: String,
    command: Vec<String>,
    /// `"kill": "no-claim"`: killed when its runs claim no level (module docs).
    no_claim: bool,
    /// Extra arguments of each run of a no-claim mutant.
    runs: Vec<Vec<String>>,
}

/// What one run against a mutant showed.
struct Outcome {
    /// The run failed with at least one wrong answer (`failed`): errored cases alone mean the
    /// mutant's harness is broken, not that the suite caught its fault.
    killed: bool,
    /// The first failed static case and the first failed generated case, described.
    killer_static: Option<String>,
    killer_generated: Option<String>,
    failed_static: usize,
    failed_generated: usize,
    errored: usize,
    seconds: f64,
}

fn load(root: &Path) -> Result<Vec<Mutant>> {
    let path = root.join("examples/adapters/mutants/mutants.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let doc: Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let Some(list) = doc.get("mutants").and_then(Value::as_array) else {
        bail!("{}: no `mutants` array", path.display());
    };
    let mut out = Vec::new();
    for m in list {
        let text = |k: &str| {
            m.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let command: Vec<String> = m
            .get("command")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|w| w.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if text("name").is_empty() || command.is_empty() {
            bail!(
                "{}: every mutant needs a name and a command",
                path.display()
            );
        }
        let runs: Vec<Vec<String>> = m
            .get("runs")
            .and_then(Value::as_array)
            .map(|runs| {
                runs.iter()
                    .map(|r| {
                        r.as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|w| w.as_str().map(str::to_owned))
                            .collect()
                    })
                    .collect()
            })
            .unwrap_or_else(|| vec![Vec::new()]);
        let no_claim = match m.get("kill").and_then(Value::as_str) {
            None | Some("fails") => false,
            Some("no-claim") => true,
            Some(other) => bail!("{}: unknown kill `{other}`", path.display()),
        };
        out.push(Mutant {
            name: text("name"),
            class: text("class"),
            command,
            no_claim,
            runs,
        });
    }
    Ok(out)
}

/// A word quoted for `citeproof conformance --impl` (split like a POSIX shell, no expansion).
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The `--impl` command line of a mutant.
fn implementation(citeproof: &Path, root: &Path, mutant: &Mutant) -> String {
    let here = root.join("examples/adapters/mutants");
    mutant
        .command
        .iter()
        .map(|w| {
            quote(
                &w.replace("{python}", &python())
                    .replace("{here}", &here.display().to_string())
                    .replace("{citeproof}", &citeproof.display().to_string()),
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `citeproof conformance` over this tree's vectors, quiet, with a fixed seed.
fn conformance(citeproof: &Path, root: &Path, seed: u64, implementation: &str) -> Command {
    let mut cmd = Command::new(citeproof);
    cmd.current_dir(root)
        .args(["conformance", "--vectors"])
        .arg(root.join("vectors"))
        .args(["--no-progress", "--show-failures", "0", "--seed"])
        .arg(seed.to_string())
        .args(["--impl", implementation]);
    cmd
}

fn run_one(
    citeproof: &Path,
    root: &Path,
    mutant: &Mutant,
    seed: u64,
    out: &Path,
) -> Result<Outcome> {
    let implementation = implementation(citeproof, root, mutant);
    let report = out.join(format!("{}.json", mutant.name));
    let clock = Instant::now();
    let status = conformance(citeproof, root, seed, &implementation)
        .args(["--report", "json", "--out"])
        .arg(&report)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .context("running citeproof conformance")?;
    let seconds = clock.elapsed().as_secs_f64();
    if status.code() == Some(2) {
        bail!(
            "`citeproof conformance` refused its arguments for mutant {}",
            mutant.name
        );
    }
    let text = std::fs::read_to_string(&report)
        .with_context(|| format!("reading the report of mutant {}", mutant.name))?;
    let report: Value = serde_json::from_str(&text)?;
    let cases = report
        .get("cases")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let status_is = |c: &Value, s: &str| c.get("status").and_then(Value::as_str) == Some(s);
    let bad = |c: &&Value| status_is(c, "failed");
    let generated =
        |c: &&Value| c.pointer("/origin/kind").and_then(Value::as_str) == Some("generated");
    let failed_static = cases.iter().filter(bad).filter(|c| !generated(c)).count();
    let failed_generated = cases.iter().filter(bad).filter(generated).count();
    let errored = cases.iter().filter(|c| status_is(c, "errored")).count();
    let describe = |c: &Value| {
        let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
        let origin = match c.pointer("/origin/from").and_then(Value::as_str) {
            Some(from) => format!(
                "generated from {from} by {}",
                c.pointer("/origin/transforms")
                    .and_then(Value::as_array)
                    .map(|t| t
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join("+"))
                    .unwrap_or_default()
            ),
            None => "static".into(),
        };
        format!("{id} ({origin})")
    };
    Ok(Outcome {
        killed: report.get("success") == Some(&Value::Bool(false))
            && failed_static + failed_generated > 0,
        killer_static: cases
            .iter()
            .filter(bad)
            .find(|c| !generated(c))
            .map(describe),
        killer_generated: cases.iter().filter(bad).find(generated).map(describe),
        failed_static,
        failed_generated,
        errored,
        seconds,
    })
}

/// What the runs of a no-claim mutant showed.
struct ClaimOutcome {
    killed: bool,
    /// Per run: its arguments, passed cases, exit code, the claims its reports make.
    runs: Vec<(String, u64, Option<i32>, Vec<String>)>,
    seconds: f64,
}

/// Runs a no-claim mutant once per entry of its `runs`, with every report format.
fn run_no_claim(
    citeproof: &Path,
    root: &Path,
    mutant: &Mutant,
    seed: u64,
    out: &Path,
) -> Result<ClaimOutcome> {
    let implementation = implementation(citeproof, root, mutant);
    let clock = Instant::now();
    let mut runs = Vec::new();
    for (i, extra) in mutant.runs.iter().enumerate() {
        let file = |ext: &str| out.join(format!("{}-{i}.{ext}", mutant.name));
        let mut cmd = conformance(citeproof, root, seed, &implementation);
        cmd.args(extra);
        for (format, ext) in [
            ("json", "json"),
            ("junit", "xml"),
            ("markdown", "md"),
            ("html", "html"),
            ("svg", "svg"),
        ] {
            cmd.args(["--report", format, "--out"]).arg(file(ext));
        }
        let output = cmd
            .stderr(Stdio::null())
            .output()
            .context("running citeproof conformance")?;
        let read = |ext: &str| std::fs::read_to_string(file(ext)).unwrap_or_default();
        let reports = claims::Reports {
            text: String::from_utf8_lossy(&output.stdout).into_owned(),
            json: read("json"),
            junit: read("xml"),
            markdown: read("md"),
            html: read("html"),
            svg: read("svg"),
        };
        let passed = serde_json::from_str::<Value>(&reports.json)
            .ok()
            .and_then(|v| v.pointer("/totals/passed").and_then(Value::as_u64))
            .unwrap_or(0);
        let what = if extra.is_empty() {
            "the whole suite".to_owned()
        } else {
            extra.join(" ")
        };
        runs.push((what, passed, output.status.code(), claims::claims(&reports)));
    }
    let killed = runs
        .iter()
        .all(|(_, passed, code, found)| *passed > 0 && *code == Some(0) && found.is_empty());
    Ok(ClaimOutcome {
        killed,
        runs,
        seconds: clock.elapsed().as_secs_f64(),
    })
}

/// The outcome of a no-claim mutant, as printed.
fn describe_no_claim(m: &Mutant, o: &ClaimOutcome) -> String {
    let verdict = if o.killed { "killed" } else { "SURVIVED" };
    let mut text = format!(
        "  {verdict:<8} {:<24} {:<26} {} runs, every case run passed, no level claimed: {} ({:.1} s)\n",
        m.name,
        m.class,
        o.runs.len(),
        if o.killed { "yes" } else { "NO" },
        o.seconds
    );
    for (what, passed, code, found) in &o.runs {
        let status = code.map_or_else(|| "killed by a signal".to_owned(), |c| format!("exit {c}"));
        text.push_str(&format!("           {what}: {passed} passed, {status}\n"));
        for f in found {
            text.push_str(&format!("             CLAIMS: {f}\n"));
        }
    }
    text
}

/// The outcome of a mutant the suite must fail, as printed.
fn describe_failed(m: &Mutant, o: &Outcome) -> String {
    let verdict = if o.killed { "killed" } else { "SURVIVED" };
    let mut text = format!(
        "  {verdict:<8} {:<24} {:<26} static {:>4} failed, generated {:>4} failed, {} errored ({:.1} s)\n",
        m.name, m.class, o.failed_static, o.failed_generated, o.errored, o.seconds
    );
    if let Some(k) = &o.killer_static {
        text.push_str(&format!("           killed by {k}\n"));
    }
    if let Some(k) = &o.killer_generated {
        text.push_str(&format!("           and by    {k}\n"));
    }
    if !o.killed && o.errored > 0 {
        text.push_str(
            "           (errored cases only: the mutant's harness is broken, not caught)\n",
        );
    }
    text
}

/// Runs one mutant; whether it was killed and what to print about it.
fn run_mutant(
    citeproof: &Path,
    root: &Path,
    m: &Mutant,
    seed: u64,
    out: &Path,
) -> Result<(bool, String)> {
    if m.no_claim {
        let o = run_no_claim(citeproof, root, m, seed, out)?;
        Ok((o.killed, describe_no_claim(m, &o)))
    } else {
        let o = run_one(citeproof, root, m, seed, out)?;
        Ok((o.killed, describe_failed(m, &o)))
    }
}

/// Runs every mutant, `jobs` at a time (default: one per core); the names of the survivors.
fn run_all(
    citeproof: &Path,
    root: &Path,
    mutants: &[Mutant],
    seed: u64,
    out: &Path,
    jobs: Option<usize>,
) -> Result<Vec<String>> {
    // Each run is a runner and an adapter answering each other in turn (about one core): the
    // mutants run side by side, one per core, each printed whole when it ends.
    let jobs = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let next = AtomicUsize::new(0);
    let survivors = Mutex::new(Vec::new());
    let first_error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, mutants.len()) {
            scope.spawn(|| {
                while let Some(m) = mutants.get(next.fetch_add(1, Ordering::Relaxed)) {
                    match run_mutant(citeproof, root, m, seed, out) {
                        Ok((killed, text)) => {
                            print!("{text}");
                            if !killed {
                                lock(&survivors).push(m.name.clone());
                            }
                        }
                        Err(e) => {
                            lock(&first_error).get_or_insert(e);
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = lock(&first_error).take() {
        return Err(e);
    }
    let mut survivors = lock(&survivors).clone();
    survivors.sort();
    Ok(survivors)
}

/// A lock that a panicked holder did not poison for the others (the data is a plain list).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    if args.iter().any(|a| a == "--reference") {
        return crate::mutants_reference::run(root, args);
    }
    let mut seed = None;
    let mut release = false;
    let mut jobs = None;
    let mut only = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seed" => {
                let v = it.next().context("--seed needs a number")?;
                seed = Some(v.parse::<u64>().context("--seed needs a number")?);
            }
            "--release" => release = true,
            "--jobs" => {
                let v = it.next().context("--jobs needs a number")?;
                jobs = Some(v.parse::<usize>().context("--jobs needs a number")?);
            }
            "--help" | "-h" | "--xtask-help" => {
                print!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            name => only.push(name.to_owned()),
        }
    }
    let mut mutants = load(root)?;
    if !only.is_empty() {
        mutants.retain(|m| only.contains(&m.name));
        if mutants.is_empty() {
            bail!("no mutant named {}", only.join(", "));
        }
    }
    let seed = seed.unwrap_or_else(citeproof_conformance::variants::fresh_seed);

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(root)
        .args(["build", "--quiet", "-p", "citeproof-cli"]);
    if release {
        build.arg("--release");
    }
    if !build.status().context("running cargo build")?.success() {
        bail!("cargo build -p citeproof-cli failed");
    }
    let citeproof = crate::devenv::target_dir(root)
        .join(if release { "release" } else { "debug" })
        .join(format!("citeproof{}", std::env::consts::EXE_SUFFIX));
    let out = tempfile::tempdir().context("creating a temporary directory")?;

    println!(
        "mutation self-test: {} deliberately broken adapters (examples/adapters/mutants), seed {seed}",
        mutants.len()
    );
    let clock = Instant::now();
    let survivors = run_all(&citeproof, root, &mutants, seed, out.path(), jobs)?;
    let total = mutants.len();
    let killed = total - survivors.len();
    println!(
        "mutation score: {killed}/{total} killed ({:.0}%) in {:.1} s; reproduce with `cargo xtask mutants --seed {seed}`",
        100.0 * killed as f64 / total.max(1) as f64,
        clock.elapsed().as_secs_f64()
    );
    if survivors.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "FAIL: the suite passes {} broken adapter(s): {}",
            survivors.len(),
            survivors.join(", ")
        );
        Ok(ExitCode::FAILURE)
    }
}
