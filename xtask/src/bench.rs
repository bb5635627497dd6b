//! `cargo xtask bench [--json] [--checks | --peer | --all] [-- CRITERION ARGS]`: runs the
//! criterion benchmarks once and prints every metric as a ratio of two measurements taken in the
//! same run (absolute times depend on the machine; ratios less so), with its target and whether
//! it is met. `--checks` runs the scale checks of `bench_checks` on the release binary instead;
//! `--peer` the comparison with the plain Python peer of `bench_peer`; `--all` runs all three.
//! `--json` prints one JSON object (criterion's own output goes to stderr).

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::{bench_checks, bench_peer};

/// The benchmark binaries: (package, bench target).
const BENCHES: &[(&str, &str)] = &[
    ("citeproof-model", "canon"),
    ("citeproof-aca", "verify"),
    ("citeproof-aca", "stages"),
    ("citeproof-cli", "suite"),
];

/// How a metric compares with its target.
#[derive(Debug, Clone, Copy)]
pub enum Target {
    AtLeast(f64),
    AtMost(f64),
    /// Reported, no target.
    None,
    /// A check that held or not (the value is a measurement taken while checking).
    Holds(bool),
}

impl Target {
    fn met(self, value: f64) -> Option<bool> {
        match self {
            Target::AtLeast(t) => Some(value >= t),
            Target::AtMost(t) => Some(value <= t),
            Target::None => None,
            Target::Holds(ok) => Some(ok),
        }
    }

    fn text(self) -> String {
        match self {
            Target::AtLeast(t) => format!(">= {t}"),
            Target::AtMost(t) => format!("<= {t}"),
            Target::None => "-".into(),
            Target::Holds(_) => "holds".into(),
        }
    }
}

/// One reported number.
#[derive(Debug, Clone)]
pub struct Metric {
    pub name: String,
    pub value: f64,
    pub unit: &'static str,
    /// What the value is measured against, in words, with its measurement.
    pub bound: String,
    pub target: Target,
    pub meaning: String,
}

impl Metric {
    pub fn met(&self) -> Option<bool> {
        self.target.met(self.value)
    }

    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "value": round(self.value),
            "unit": self.unit,
            "bound": self.bound,
            "target": match self.target { Target::None => Value::Null, t => Value::String(t.text()) },
            "met": self.met(),
            "meaning": self.meaning,
        })
    }
}

fn round(v: f64) -> f64 {
    if v.abs() >= 100.0 {
        (v * 10.0).round() / 10.0
    } else {
        (v * 1000.0).round() / 1000.0
    }
}

/// Where criterion keeps its results: `$CARGO_TARGET_DIR/criterion` or `target/criterion`.
fn criterion_home(root: &Path) -> PathBuf {
    crate::devenv::target_dir(root).join("criterion")
}

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let mut json_out = false;
    let mut benches = true;
    let mut checks = false;
    let mut peer = false;
    let mut criterion_args: Vec<String> = Vec::new();
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--json" => json_out = true,
            "--checks" => {
                checks = true;
                benches = false;
            }
            "--peer" => {
                peer = true;
                benches = false;
            }
            "--all" => {
                checks = true;
                peer = true;
                benches = true;
            }
            "--" => criterion_args.extend(rest.by_ref().cloned()),
            other => bail!("unknown argument `{other}` (criterion arguments go after `--`)"),
        }
    }
    let mut metrics = Vec::new();
    if benches {
        run_criterion(root, &criterion_args, json_out)?;
        let home = criterion_home(root);
        for m in bench_metrics(&home)? {
            metrics.push(match m.name.as_str() {
                "hash-bound" => with_stages(&home, m, "stages_hash_bound")?,
                "claims" => with_stages(&home, m, "stages_claims")?,
                "chain" => with_stages(&home, m, "stages_chain")?,
                _ => m,
            });
        }
    }
    if checks {
        metrics.extend(bench_checks::run(root, json_out)?);
    }
    if peer {
        let bin = bench_checks::release_binary(root, json_out)?;
        metrics.extend(bench_peer::run(root, &bin)?);
    }
    let all_met = metrics.iter().all(|m| m.met() != Some(false));
    if json_out {
        let doc = json!({
            "date": today(),
            "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            "metrics": metrics.iter().map(Metric::to_json).collect::<Vec<_>>(),
            "all_met": all_met,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_table(&metrics);
    }
    Ok(if all_met {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn today() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_default()
}

fn print_table(metrics: &[Metric]) {
    println!("\nmetrics (one run; ratios of measurements taken in the same run):");
    for m in metrics {
        let verdict = match m.met() {
            Some(true) => "met",
            Some(false) => "MISSED",
            None => "",
        };
        println!(
            "  {:<24} {:>12} {:<10} target {:<8} {verdict}\n      {}; bound: {}",
            m.name,
            round(m.value),
            m.unit,
            m.target.text(),
            m.meaning,
            m.bound
        );
    }
}

fn run_criterion(root: &Path, criterion_args: &[String], json_out: bool) -> Result<()> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root).arg("bench");
    for (package, bench) in BENCHES {
        cmd.args(["-p", package, "--bench", bench]);
    }
    cmd.arg("--").args(criterion_args);
    cmd.env("CRITERION_HOME", criterion_home(root));
    if json_out {
        // Keep stdout for the one JSON object.
        cmd.stdout(Stdio::from(std::io::stderr().as_fd().try_clone_to_owned()?));
    }
    let status = cmd.status().context("running cargo bench")?;
    if !status.success() {
        bail!("cargo bench failed");
    }
    Ok(())
}

use std::os::fd::AsFd as _;

/// Mean time per iteration of one benchmark, nanoseconds.
fn mean_ns(home: &Path, group: &str, bench: &str) -> Result<f64> {
    let path = home.join(group).join(bench).join("new/estimates.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let v: Value = serde_json::from_str(&text)?;
    v.pointer("/mean/point_estimate")
        .and_then(Value::as_f64)
        .with_context(|| format!("no mean in {}", path.display()))
}

/// Elements per iteration that a benchmark declared (its criterion throughput).
fn elements(home: &Path, group: &str, bench: &str) -> Result<f64> {
    let path = home.join(group).join(bench).join("new/benchmark.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let v: Value = serde_json::from_str(&text)?;
    v.pointer("/throughput/Elements")
        .or_else(|| v.pointer("/throughput/Bytes"))
        .and_then(Value::as_f64)
        .with_context(|| format!("no throughput in {}", path.display()))
}

/// The stages of `crates/citeproof-aca/benches/stages.rs`, as printed.
const STAGES: &[(&str, &str)] = &[
    ("manifest", "manifest parse and rules"),
    ("signature", "signature"),
    ("sources", "sources"),
    ("support", "support analysis"),
    ("binding", "binding"),
];

/// Each stage's share of the whole verification in stage group `group` (each stage measured
/// alone, in the same run), and what is left (`other`: fetching, the header, the report).
fn stage_shares(home: &Path, group: &str) -> Result<String> {
    let total = mean_ns(home, group, "total")?;
    let mut parts = Vec::new();
    let mut sum = 0.0;
    for (bench, label) in STAGES {
        let t = mean_ns(home, group, bench)?;
        sum += t;
        parts.push(format!("{label} {:.0}%", 100.0 * t / total));
    }
    // Stages measured alone can overlap (support and binding both normalize each claim): then
    // nothing is left to attribute, and a negative "other" would say more than was measured.
    if sum <= total {
        parts.push(format!("other {:.0}%", 100.0 * (total - sum) / total));
    } else {
        parts.push(format!(
            "other: none (the stages alone sum to {:.0}%, they overlap)",
            100.0 * sum / total
        ));
    }
    Ok(format!(
        "time per stage ({group}, each stage alone, share of {}): {}",
        ms(total),
        parts.join(", ")
    ))
}

/// `metric`'s bound followed by the stage shares of `group`.
fn with_stages(home: &Path, mut metric: Metric, group: &str) -> Result<Metric> {
    metric.bound = format!("{}; {}", metric.bound, stage_shares(home, group)?);
    Ok(metric)
}

fn ms(ns: f64) -> String {
    format!("{:.2} ms", ns / 1e6)
}

/// Every metric of the report, each from the criterion estimates of its group.
fn bench_metrics(home: &Path) -> Result<Vec<Metric>> {
    let mut out = Vec::new();
    for add in [
        hash_bound_metrics,
        claims_metric,
        chain_metrics,
        batch_metric,
        adapter_metric,
        suite_metric,
        ratio_metrics,
    ] {
        add(home, &mut out)?;
    }
    Ok(out)
}

/// Verification against the SHA-256 bound of its sources, from each snapshot form.
fn hash_bound_metrics(home: &Path, out: &mut Vec<Metric>) -> Result<()> {
    let t = |g: &str, b: &str| mean_ns(home, g, b);
    let sha = t("hash_bound", "sha256_sources")?;
    let src_bytes = elements(home, "hash_bound", "sha256_sources")?;
    for (bench, form, target) in [
        (
            "verify",
            "from the snapshot in memory",
            Target::AtLeast(0.8),
        ),
        (
            "verify_warc",
            "from WARC bytes (read + verify)",
            Target::AtLeast(0.8),
        ),
        (
            "verify_json",
            "from JSON snapshot bytes (base64 bodies)",
            Target::AtLeast(0.6),
        ),
    ] {
        let v = t("hash_bound", bench)?;
        out.push(Metric {
            name: format!("hash-bound{}", bench.strip_prefix("verify").unwrap_or("")),
            value: sha / v,
            unit: "ratio",
            bound: format!(
                "SHA-256 of the 10 MiB of sources {} ({:.0} MiB/s); verification {}",
                ms(sha),
                src_bytes / sha * 1e9 / 1048576.0,
                ms(v)
            ),
            target,
            meaning: format!(
                "hash time / verify time, signed Level 3 run of 100 claims over 10 sources of 1 MiB, {form}"
            ),
        });
    }
    Ok(())
}

/// Per-claim cost at 10 000 claims, next to the parse alone.
fn claims_metric(home: &Path, out: &mut Vec<Metric>) -> Result<()> {
    let t = |g: &str, b: &str| mean_ns(home, g, b);
    let claims = t("claims", "verify_10k")?;
    let parse = t("claims", "parse_manifest")?;
    let serde = t("claims", "serde_json_manifest")?;
    out.push(Metric {
        name: "claims".into(),
        value: claims / 1e4 / 1e3,
        unit: "µs/claim",
        bound: format!(
            "strict parse of the manifest alone {} ({:.2} µs/claim; ratio parse/verify {:.2}); serde_json::from_slice into a Value {} ({:.2} µs/claim)",
            ms(parse),
            parse / 1e4 / 1e3,
            parse / claims,
            ms(serde),
            serde / 1e4 / 1e3
        ),
        target: Target::AtMost(5.0),
        meaning: format!(
            "10 000 claims over 10 small sources, signed Level 3, {} in all ({:.0} claims/s)",
            ms(claims),
            1e4 / claims * 1e9
        ),
    });
    Ok(())
}

/// A 40 000-step chain, and how linear its time is.
fn chain_metrics(home: &Path, out: &mut Vec<Metric>) -> Result<()> {
    let t = |g: &str, b: &str| mean_ns(home, g, b);
    let c10 = t("chain", "verify_10k")?;
    let c20 = t("chain", "verify_20k")?;
    let c40 = t("chain", "verify_40k")?;
    out.push(Metric {
        name: "chain".into(),
        value: c40 / 1e6,
        unit: "ms",
        bound: format!("10k steps {}, 20k steps {}", ms(c10), ms(c20)),
        target: Target::AtMost(40.0),
        meaning: "a signed Level 3 manifest with a chain of 40 000 steps, verified".into(),
    });
    out.push(Metric {
        name: "chain-linearity".into(),
        value: c40 / (4.0 * c10),
        unit: "ratio",
        bound: format!("4 x the 10k-step time ({})", ms(4.0 * c10)),
        target: Target::AtMost(1.25),
        meaning: "time of 40k steps / 4 x time of 10k steps (1.0 is linear)".into(),
    });
    Ok(())
}

/// The speed-up of a batch on two cores.
fn batch_metric(home: &Path, out: &mut Vec<Metric>) -> Result<()> {
    let t = |g: &str, b: &str| mean_ns(home, g, b);
    let one = t("batch", "one_core")?;
    let two = t("batch", "two_cores")?;
    let n = elements(home, "batch", "one_core")?;
    out.push(Metric {
        name: "batch".into(),
        value: one / two,
        unit: "speed-up",
        bound: format!("one core: {:.0} snapshots/s ({})", n / one * 1e9, ms(one)),
        target: Target::AtLeast(1.5),
        meaning: format!(
            "1000 small signed JSON snapshots in one process on two cores: {:.0} snapshots/s ({})",
            n / two * 1e9,
            ms(two)
        ),
    });
    Ok(())
}

/// The static cases through a child-process adapter.
fn adapter_metric(home: &Path, out: &mut Vec<Metric>) -> Result<()> {
    let t = |g: &str, b: &str| mean_ns(home, g, b);
    let inproc = t("adapter", "in_process")?;
    let child = t("adapter", "child_process")?;
    let cases = elements(home, "adapter", "in_process")?;
    out.push(Metric {
        name: "adapter-overhead".into(),
        value: cases / child * 1e9,
        unit: "cases/s",
        bound: format!(
            "in-process: {:.0} cases/s ({}); child/in-process time {:.2}x",
            cases / inproc * 1e9,
            ms(inproc),
            child / inproc
        ),
        target: Target::None,
        meaning: format!(
            "the {cases} static cases through `citeproof adapter` as a child process ({})",
            ms(child)
        ),
    });
    Ok(())
}

/// The whole suite in-process.
fn suite_metric(home: &Path, out: &mut Vec<Metric>) -> Result<()> {
    let t = |g: &str, b: &str| mean_ns(home, g, b);
    let suite = t("suite", "in_process")?;
    let all = elements(home, "suite", "in_process")?;
    out.push(Metric {
        name: "suite".into(),
        value: suite / 1e9,
        unit: "s",
        bound: format!("{:.0} cases/s", all / suite * 1e9),
        target: Target::None,
        meaning: format!(
            "the whole conformance suite in-process, {all} cases (static and one generated variant each, seed 1)"
        ),
    });
    Ok(())
}

/// Two ratios to a baseline: canonicalization and the AEF text hash.
fn ratio_metrics(home: &Path, out: &mut Vec<Metric>) -> Result<()> {
    let t = |g: &str, b: &str| mean_ns(home, g, b);
    for (group, measured, baseline, meaning) in [
        (
            "canonicalize",
            "citeproof_strict",
            "baseline_serde_json_serde_jcs",
            "strict I-JSON parse + JCS vs serde_json + serde_jcs",
        ),
        (
            "hash",
            "aef_text_sha256",
            "raw_sha256",
            "AEF §5 text hash vs raw SHA-256",
        ),
    ] {
        let m = t(group, measured)?;
        let b = t(group, baseline)?;
        out.push(Metric {
            name: group.into(),
            value: m / b,
            unit: "x",
            bound: format!("{baseline}: {:.1} µs", b / 1e3),
            target: Target::None,
            meaning: format!("{meaning} ({measured}: {:.1} µs)", m / 1e3),
        });
    }
    Ok(())
}
