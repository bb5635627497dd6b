//! `cargo xtask fuzz [--seconds N] [--jobs J] [--no-cmin] [TARGET...]`: a fuzzing campaign.
//!
//! For each target of `fuzz/Cargo.toml` (or the ones named), runs
//! `cargo +nightly fuzz run TARGET fuzz/corpus/TARGET fuzz/seeds/TARGET -- -max_total_time=N`
//! (seeds written by `fuzz/seed.py` when missing), then minimizes the corpus with
//! `cargo fuzz cmin`, and records what libFuzzer reported (executions, seconds, corpus files
//! before and after) as one row of `fuzz/RUNS.md`. `J` targets run at once. A crash stops
//! that target; its artifact stays under `fuzz/artifacts/TARGET/` and the task exits 1.
//!
//! Needs the nightly toolchain and `cargo install cargo-fuzz --locked`; stable `cargo test`
//! replays the committed corpora without them (`crates/citeproof-fuzz-bodies/tests/corpus.rs`).

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    sync::{Arc, Mutex},
    time::Instant,
};

use anyhow::{Context, Result, bail};

const USAGE: &str = "\
cargo xtask fuzz [--seconds N] [--jobs J] [--no-cmin] [TARGET...]

  --seconds N  wall-clock time per target (default 600)
  --jobs J     targets fuzzed at once (default 1)
  --no-cmin    keep the corpus as the run left it
  TARGET       only these targets (default: every [[bin]] of fuzz/Cargo.toml)
";

/// What one target's campaign showed.
#[derive(Debug, Clone)]
struct Row {
    target: String,
    seconds: u64,
    execs: Option<u64>,
    files_before: usize,
    files_after: usize,
    bytes_after: u64,
    outcome: String,
}

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let mut seconds: u64 = 600;
    let mut jobs: usize = 1;
    let mut cmin = true;
    let mut only: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => seconds = it.next().context(USAGE)?.parse().context(USAGE)?,
            "--jobs" => jobs = it.next().context(USAGE)?.parse().context(USAGE)?,
            "--no-cmin" => cmin = false,
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            t if !t.starts_with('-') => only.push(t.to_owned()),
            other => bail!("unknown argument `{other}`\n{USAGE}"),
        }
    }
    let fuzz = root.join("fuzz");
    let mut targets = declared_targets(&fuzz)?;
    if !only.is_empty() {
        for t in &only {
            if !targets.contains(t) {
                bail!("`{t}` is not a target of fuzz/Cargo.toml");
            }
        }
        targets.retain(|t| only.contains(t));
    }
    if !fuzz.join("seeds").is_dir() {
        let ok = Command::new("python3")
            .arg(fuzz.join("seed.py"))
            .status()
            .context("python3 fuzz/seed.py")?
            .success();
        if !ok {
            bail!("fuzz/seed.py failed");
        }
    }
    let ok = cargo_fuzz(&fuzz)
        .args(["build", "-O"])
        .status()
        .context("cargo +nightly fuzz build")?
        .success();
    if !ok {
        bail!("cargo +nightly fuzz build -O failed");
    }
    let queue = Arc::new(Mutex::new(targets.clone()));
    let rows = Arc::new(Mutex::new(Vec::<Row>::new()));
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            let queue = Arc::clone(&queue);
            let rows = Arc::clone(&rows);
            let fuzz = fuzz.clone();
            s.spawn(move || {
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.pop());
                    let Some(target) = next else { break };
                    let row = campaign(&fuzz, &target, seconds, cmin);
                    eprintln!(
                        "fuzz: {target}: {} executions in {} s, corpus {} -> {} files, {}",
                        row.execs.map_or("?".into(), |e| e.to_string()),
                        row.seconds,
                        row.files_before,
                        row.files_after,
                        row.outcome
                    );
                    if let Ok(mut r) = rows.lock() {
                        r.push(row);
                    }
                }
            });
        }
    });
    let mut rows = rows.lock().map(|r| r.clone()).unwrap_or_default();
    rows.sort_by(|a, b| a.target.cmp(&b.target));
    record(&fuzz, &rows)?;
    let crashed = rows.iter().any(|r| r.outcome != "ok");
    Ok(if crashed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn cargo_fuzz(fuzz: &Path) -> Command {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(fuzz)
        .arg("+nightly")
        .arg("fuzz")
        .env_remove("CARGO_TARGET_DIR");
    cmd
}

/// The `[[bin]]` names of `fuzz/Cargo.toml`.
fn declared_targets(fuzz: &Path) -> Result<Vec<String>> {
    let manifest =
        std::fs::read_to_string(fuzz.join("Cargo.toml")).context("reading fuzz/Cargo.toml")?;
    Ok(manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|n| *n != "citeproof-fuzz")
        .map(str::to_owned)
        .collect())
}

fn corpus_stats(dir: &Path) -> (usize, u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 0);
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .fold((0, 0), |(n, b), m| (n + 1, b + m.len()))
}

fn campaign(fuzz: &Path, target: &str, seconds: u64, cmin: bool) -> Row {
    let corpus = fuzz.join("corpus").join(target);
    let seeds = fuzz.join("seeds").join(target);
    let _ = std::fs::create_dir_all(&corpus);
    let (files_before, _) = corpus_stats(&corpus);
    let start = Instant::now();
    let mut cmd = cargo_fuzz(fuzz);
    cmd.args(["run", "-O", target])
        .arg(&corpus)
        .args(seeds.is_dir().then_some(&seeds))
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .arg("-rss_limit_mb=2048")
        .arg("-timeout=10")
        .arg("-print_final_stats=1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let (execs, outcome) = match cmd.output() {
        Ok(out) => {
            let log = String::from_utf8_lossy(&out.stderr);
            let execs = executions(&log);
            let outcome = if out.status.success() {
                "ok".to_owned()
            } else {
                let _ = std::fs::write(fuzz.join(format!("artifacts/{target}.log")), &*log);
                format!(
                    "FAILED (exit {}; fuzz/artifacts/{target}.log)",
                    out.status.code().unwrap_or(-1)
                )
            };
            (execs, outcome)
        }
        Err(e) => (None, format!("FAILED to start: {e}")),
    };
    let elapsed = start.elapsed().as_secs();
    if cmin && outcome == "ok" {
        let _ = cargo_fuzz(fuzz)
            .args(["cmin", "-O", target])
            .arg(&corpus)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let (files_after, bytes_after) = corpus_stats(&corpus);
    Row {
        target: target.to_owned(),
        seconds: elapsed,
        execs,
        files_before,
        files_after,
        bytes_after,
        outcome,
    }
}

/// libFuzzer's `Done N runs in S second(s)` (or the `stat::number_of_executed_units` line).
fn executions(log: &str) -> Option<u64> {
    let done = log.lines().rev().find_map(|l| {
        l.strip_prefix("Done ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
    });
    done.or_else(|| {
        log.lines().rev().find_map(|l| {
            l.strip_prefix("stat::number_of_executed_units:")
                .and_then(|n| n.trim().parse().ok())
        })
    })
}

/// Writes the rows into `fuzz/RUNS.md`, replacing the rows of the same targets.
fn record(fuzz: &Path, rows: &[Row]) -> Result<()> {
    let path: PathBuf = fuzz.join("RUNS.md");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let mut kept: Vec<String> = old
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter(|l| {
            !rows
                .iter()
                .any(|r| l.starts_with(&format!("| `{}` ", r.target)))
        })
        .map(str::to_owned)
        .collect();
    let date = Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    for r in rows {
        kept.push(format!(
            "| `{}` | {} | {} | {} | {} | {} → {} ({} KiB) | {} |",
            r.target,
            date,
            r.seconds,
            r.execs.map_or("?".into(), |e| e.to_string()),
            r.execs
                .map_or("?".into(), |e| (e / r.seconds.max(1)).to_string()),
            r.files_before,
            r.files_after,
            r.bytes_after / 1024,
            r.outcome
        ));
    }
    kept.sort();
    let text = format!(
        "# Fuzzing campaigns\n\n\
         Written by `cargo xtask fuzz` (one row per target, the latest campaign): wall-clock\n\
         seconds, executions libFuzzer reported, executions per second, and the committed corpus\n\
         before the run and after `cargo fuzz cmin`. Runs share a 2-core machine with builds, so\n\
         executions per second vary between rows.\n\n\
         | target | date | seconds | executions | exec/s | corpus files before → after (size) | outcome |\n\
         |---|---|---|---|---|---|---|\n{}\n",
        kept.join("\n")
    );
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::executions;

    #[test]
    fn reads_libfuzzer_execution_counts() {
        assert_eq!(
            executions("#1024 pulse\nDone 245279 runs in 61 second(s)\n"),
            Some(245_279)
        );
        assert_eq!(
            executions("stat::number_of_executed_units: 1234\nstat::peak_rss_mb: 40\n"),
            Some(1234)
        );
        assert_eq!(executions("==1== ERROR: libFuzzer: deadly signal\n"), None);
    }
}
