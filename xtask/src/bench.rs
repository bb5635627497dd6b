//! `cargo xtask bench`: runs the criterion benchmarks and prints each comparison as a ratio of
//! two measurements taken in the same run (absolute times depend on the machine; ratios less so).

use std::{path::Path, process::ExitCode};

use anyhow::{Context, Result, bail};

/// (group, measured, baseline, what the ratio means)
const COMPARISONS: &[(&str, &str, &str, &str)] = &[
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
];

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(root)
            .args(["bench", "-p", "citeproof-model", "--bench", "canon", "--"])
            .args(args)
            .status()
            .context("running cargo bench")?;
    if !status.success() {
        bail!("cargo bench failed");
    }
    println!("\nratios (same run, mean time per iteration):");
    for (group, measured, baseline, meaning) in COMPARISONS {
        let m = mean_ns(root, group, measured)?;
        let b = mean_ns(root, group, baseline)?;
        println!(
            "  {group}: {measured} / {baseline} = {:.2}x  ({meaning}; {:.1} µs vs {:.1} µs)",
            m / b,
            m / 1e3,
            b / 1e3
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn mean_ns(root: &Path, group: &str, bench: &str) -> Result<f64> {
    let path = root
        .join("target/criterion")
        .join(group)
        .join(bench)
        .join("new/estimates.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text)?;
    v.pointer("/mean/point_estimate")
        .and_then(serde_json::Value::as_f64)
        .with_context(|| format!("no mean in {}", path.display()))
}
