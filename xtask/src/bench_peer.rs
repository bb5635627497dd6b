//! `cargo xtask bench --peer` (and `--all`): the release `citeproof` binary against the plain
//! CPython verifier of the same rules (`benches/peer_aca.py`), whole process against whole
//! process, on the same JSON snapshot files, with the peak RSS of each (issue 23, item 4).
//!
//! Each workload is first checked for agreement: both verify the honest snapshot at Level 3,
//! and both refuse a tampered copy (one byte of a source changed after signing). Then each
//! side runs three times; the best times make the ratio. Peak RSS comes from `/usr/bin/time`
//! (`%M`, kilobytes) around the best-of runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use citeproof_aca::sign::SigningKey;
use citeproof_aca::sign::synthetic::{SYNTHETIC_NOW, SyntheticSpec, build_synthetic_run};

use crate::bench::{Metric, Target};

/// One workload: its name, the run, the peer's target ratio.
struct Workload {
    name: &'static str,
    meaning: &'static str,
    spec: SyntheticSpec,
    target: f64,
}

fn workloads() -> Vec<Workload> {
    vec![
        Workload {
            name: "peer-claims",
            meaning: "10 000 claims over 10 small sources, signed Level 3 (the `claims` workload)",
            spec: SyntheticSpec::claims_workload(),
            target: 8.0,
        },
        Workload {
            name: "peer-chain",
            meaning: "one claim and a chain of 40 000 steps, signed Level 3 (the `chain` workload)",
            spec: SyntheticSpec::chain_workload(40_000),
            target: 10.0,
        },
        Workload {
            name: "peer-hash-bound",
            meaning: "100 claims over 10 sources of 1 MiB (the `hash-bound` workload)",
            spec: SyntheticSpec::hash_bound_workload(),
            target: 0.0,
        },
    ]
}

/// The snapshot of `spec`, and a copy with one byte of the first source changed.
fn snapshots(spec: &SyntheticSpec) -> Result<(Vec<u8>, Vec<u8>)> {
    let key = SigningKey::from_secret_bytes(&[42u8; 32]);
    let mut run = build_synthetic_run(spec, &key).map_err(|e| anyhow::anyhow!("{e}"))?;
    let honest = serde_json::to_vec(&run.snapshot().map_err(|e| anyhow::anyhow!("{e}"))?)?;
    let source = run
        .responses
        .iter_mut()
        .find(|(u, _)| u.starts_with(&spec.source_prefix))
        .map(|(_, r)| r)
        .context("no source")?;
    // The first byte of the document's opening line ("Synthetic source document.").
    if let Some(b) = source.body.first_mut() {
        *b = b'X';
    }
    let tampered = serde_json::to_vec(&run.snapshot().map_err(|e| anyhow::anyhow!("{e}"))?)?;
    Ok((honest, tampered))
}

/// The Python of `.venv/` (made by `cargo xtask test`) when there is one, else `python3`.
fn python(root: &Path) -> PathBuf {
    let venv = root.join(".venv/bin/python3");
    if venv.exists() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

/// A command line of one side: (program, arguments).
type Side = (PathBuf, Vec<String>);

/// Runs `side` under `/usr/bin/time -f %M`: (seconds, success, stdout, peak RSS in bytes).
fn measure(side: &Side) -> Result<(f64, bool, String, u64)> {
    let start = Instant::now();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(&side.0)
        .args(&side.1)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {} under /usr/bin/time", side.0.display()))?;
    let secs = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let kib: u64 = stderr
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .with_context(|| format!("no peak RSS from /usr/bin/time: {stderr}"))?;
    Ok((
        secs,
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        kib * 1024,
    ))
}

fn level_of(stdout: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(stdout)
        .ok()?
        .get("level")?
        .as_u64()
}

/// Best of three: (seconds, peak RSS of that run).
fn best_of_3(side: &Side) -> Result<(f64, u64)> {
    let mut best = (f64::MAX, 0);
    for _ in 0..3 {
        let (secs, ok, stdout, rss) = measure(side)?;
        if !ok || level_of(&stdout) != Some(3) {
            bail!("{} did not reach Level 3: {stdout}", side.0.display());
        }
        if secs < best.0 {
            best = (secs, rss);
        }
    }
    Ok(best)
}

pub fn run(root: &Path, bin: &Path) -> Result<Vec<Metric>> {
    let dir = tempfile::tempdir()?;
    let python = python(root);
    let peer = root.join("benches/peer_aca.py");
    let now = SYNTHETIC_NOW.to_string();
    let mut out = Vec::new();
    for w in workloads() {
        let (honest, tampered) = snapshots(&w.spec)?;
        let file = dir.path().join(format!("{}.json", w.name));
        let bad = dir.path().join(format!("{}-tampered.json", w.name));
        std::fs::write(&file, &honest)?;
        std::fs::write(&bad, &tampered)?;
        let sides = |f: &Path| -> (Side, Side) {
            let f = f.to_string_lossy().into_owned();
            (
                (
                    bin.to_path_buf(),
                    ["aca", "verify", "--snapshot", &f, "--now", &now, "--json"]
                        .map(String::from)
                        .to_vec(),
                ),
                (
                    python.clone(),
                    [peer.to_string_lossy().as_ref(), &f, "--now", &now]
                        .map(String::from)
                        .to_vec(),
                ),
            )
        };
        let (ours, theirs) = sides(&file);
        let (bad_ours, bad_theirs) = sides(&bad);
        // Agreement first: a peer that verifies something else measures nothing.
        let (_, ok_ours, s_ours, _) = measure(&bad_ours)?;
        let (_, ok_theirs, s_theirs, _) = measure(&bad_theirs)?;
        let tamper_fails = !ok_ours && level_of(&s_ours) < Some(3) && !ok_theirs;
        if !tamper_fails {
            bail!(
                "{}: the tampered snapshot must fail in both: citeproof {s_ours}; peer {s_theirs}",
                w.name
            );
        }
        let (t_ours, rss_ours) = best_of_3(&ours)?;
        let (t_theirs, rss_theirs) = best_of_3(&theirs)?;
        let size = honest.len() as f64;
        out.push(Metric {
            name: w.name.into(),
            value: t_theirs / t_ours,
            unit: "x",
            bound: format!(
                "citeproof {:.3} s, peak RSS {:.1} MB = {:.2}x the {:.1} MB snapshot; Python peer {:.3} s, peak RSS {:.1} MB; both Level 3 on the snapshot and both failing a tampered copy",
                t_ours,
                rss_ours as f64 / 1e6,
                rss_ours as f64 / size,
                size / 1e6,
                t_theirs,
                rss_theirs as f64 / 1e6
            ),
            target: if w.target > 0.0 {
                Target::AtLeast(w.target)
            } else {
                Target::None
            },
            meaning: format!(
                "Python peer time / citeproof time, whole process (`citeproof aca verify --snapshot` vs `{} benches/peer_aca.py`), best of 3: {}",
                python.display(),
                w.meaning
            ),
        });
        out.push(Metric {
            name: format!("{}-rss", w.name),
            value: rss_ours as f64 / size,
            unit: "x input",
            bound: format!(
                "peak RSS {:.1} MB for a {:.1} MB snapshot",
                rss_ours as f64 / 1e6,
                size / 1e6
            ),
            target: Target::AtMost(4.0),
            meaning: format!(
                "peak RSS of `citeproof aca verify --snapshot` / snapshot size: {}",
                w.meaning
            ),
        });
    }
    Ok(out)
}
