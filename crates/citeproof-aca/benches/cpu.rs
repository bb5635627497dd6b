//! The manifest workloads of `verify` (criterion) timed by the CPU time of this thread, not the
//! wall clock: on a machine shared with other builds a wall-clock benchmark measures the load,
//! while the time the thread spent on a core (`/proc/thread-self/schedstat`) barely moves.
//! Workloads run in interleaved rounds, each for at least `--round-ms` of CPU time (200 by
//! default); the median of `--rounds` rounds (7) is printed per iteration.
//!
//! `cargo bench -p citeproof-aca --bench cpu [-- [--rounds N] [--round-ms MS] [GROUP|NAME]]`
//!
//! `--iterations N` runs each selected workload N times after the warm-up and times nothing:
//! the driver of an instruction count that load does not change (`valgrind --tool=callgrind
//! --toggle-collect='*verify_response*' target/release/deps/cpu-* --iterations 3 claims/verify_10k`),
//! and of allocation counts (`valgrind --tool=dhat`, N and N+1 iterations: the difference is
//! one iteration's). `--write-snapshots DIR` writes both workloads as JSON snapshot files.
//!
//! - `claims/*`: the manifest of the 10 000-claim run of `verify`: the strict parse into a
//!   `Value` (`parse_strict`), the token scan alone, serde_json's parse, the checked manifest
//!   from the tokens (`read_manifest`, the verifier's path) and through a `Value`
//!   (`read_manifest_tree`), and the whole verification (`verify_10k`);
//! - `chain/*`: the manifest of a 40 000-step chain, read both ways, and its verification.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use citeproof_aca::sign::SigningKey;
use citeproof_aca::sign::synthetic::{
    SYNTHETIC_NOW, SyntheticRun, SyntheticSpec, build_synthetic_run,
};
use citeproof_aca::verify::manifest::{read_manifest, read_manifest_tree};
use citeproof_aca::{VerifyOptions, verify_response};
use citeproof_fetch::{FetchPolicy, SnapshotFetcher};
use citeproof_model::json::{MAX_DOCUMENT_BYTES, Mode, Reader, parse_strict};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const MANIFEST: &str = "https://agent.example/runs/r/manifest/0";

/// Nanoseconds this thread has run on a core.
fn cpu_ns() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    stat.split_whitespace().next().unwrap().parse().unwrap()
}

struct Workload<'a> {
    name: String,
    run: Box<dyn FnMut() + 'a>,
    /// CPU nanoseconds per iteration, one entry per round.
    rounds: Vec<f64>,
}

fn workload<'a>(name: &str, mut f: impl FnMut() -> usize + 'a) -> Workload<'a> {
    Workload {
        name: name.to_owned(),
        run: Box::new(move || {
            black_box(f());
        }),
        rounds: Vec::new(),
    }
}

fn verify(fetcher: &SnapshotFetcher) -> usize {
    let report = verify_response(
        fetcher.agent_response(),
        fetcher,
        &VerifyOptions::new(SYNTHETIC_NOW),
    );
    assert!(report.verdict.verified && report.verdict.level == 3);
    report.verdict.incidents.len()
}

/// `--write-snapshots DIR`: write the workloads' JSON snapshots there and stop.
fn snapshot_dir() -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == "--write-snapshots")?;
    args.get(at + 1).cloned()
}

/// The workloads as JSON snapshot files, for a whole-process profile of the CLI
/// (`citeproof aca verify --snapshot DIR/claims.json --now 1777370520 --json`).
fn write_snapshots(dir: &str, runs: [(&str, &SyntheticRun); 2]) {
    for (name, run) in runs {
        let bytes = serde_json::to_vec(&run.snapshot().unwrap()).unwrap();
        std::fs::write(format!("{dir}/{name}.json"), bytes).unwrap();
    }
}

/// `--rounds`, `--round-ms` (as nanoseconds) and the filter.
fn options() -> (u64, u64, Option<String>, Option<u64>) {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let flag = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| v.parse().unwrap())
    };
    let filter = args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with("--") && (*i == 0 || !args[i - 1].starts_with("--")))
        .map(|(_, a)| a.clone());
    let iterations = args
        .iter()
        .any(|a| a == "--iterations")
        .then(|| flag("--iterations", 1));
    (
        flag("--rounds", 7),
        flag("--round-ms", 200) * 1_000_000,
        filter,
        iterations,
    )
}

fn main() {
    let (rounds, round_ns, filter, iterations) = options();
    let key = SigningKey::from_secret_bytes(&[42u8; 32]);
    let claims = build_synthetic_run(&SyntheticSpec::claims_workload(), &key).unwrap();
    let chain = build_synthetic_run(&SyntheticSpec::chain_workload(40_000), &key).unwrap();
    if let Some(dir) = snapshot_dir() {
        return write_snapshots(&dir, [("claims", &claims), ("chain", &chain)]);
    }
    let claims_fetcher = claims.fetcher(FetchPolicy::default()).unwrap();
    let chain_fetcher = chain.fetcher(FetchPolicy::default()).unwrap();
    let m = &claims.responses[MANIFEST].body;
    let c = &chain.responses[MANIFEST].body;

    let mut all = vec![
        workload("claims/parse_strict", || match parse_strict(m).unwrap() {
            serde_json::Value::Object(o) => o.len(),
            _ => 0,
        }),
        workload("claims/scan", || {
            let mut reader = Reader::new(m, Mode::Strict, MAX_DOCUMENT_BYTES).unwrap();
            let mut tokens = 0;
            while reader.next_token().unwrap().is_some() {
                tokens += 1;
            }
            tokens
        }),
        workload("claims/serde_json", || {
            serde_json::from_slice::<serde_json::Value>(m)
                .unwrap()
                .as_object()
                .map_or(0, |o| o.len())
        }),
        workload("claims/read_manifest", || {
            read_manifest(m, None).unwrap().0.manifest.claims.len()
        }),
        workload("claims/read_manifest_tree", || {
            read_manifest_tree(m, None).unwrap().0.manifest.claims.len()
        }),
        workload("claims/verify_10k", || verify(&claims_fetcher)),
        workload("chain/read_manifest", || {
            read_manifest(c, None)
                .unwrap()
                .0
                .manifest
                .chain
                .map_or(0, |s| s.len())
        }),
        workload("chain/read_manifest_tree", || {
            read_manifest_tree(c, None)
                .unwrap()
                .0
                .manifest
                .chain
                .map_or(0, |s| s.len())
        }),
        workload("chain/verify_40k", || verify(&chain_fetcher)),
    ];
    // `claims` selects a group, `claims/scan` one workload.
    all.retain(|w| {
        filter
            .as_ref()
            .is_none_or(|f| w.name == *f || w.name.starts_with(&format!("{f}/")))
    });
    for w in &mut all {
        (w.run)(); // warm up, and fail early if a workload does not verify
    }
    if let Some(n) = iterations {
        for w in &mut all {
            for _ in 0..n {
                (w.run)();
            }
        }
        return;
    }
    for _ in 0..rounds {
        for w in &mut all {
            let start = cpu_ns();
            let mut iterations = 0u64;
            while cpu_ns() - start < round_ns {
                (w.run)();
                iterations += 1;
            }
            w.rounds.push((cpu_ns() - start) as f64 / iterations as f64);
        }
    }
    report(rounds, &mut all);
}

fn report(rounds: u64, all: &mut [Workload<'_>]) {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "CPU time per iteration, median of {rounds} rounds (load average {})",
        load.trim()
    );
    for w in all.iter_mut() {
        w.rounds.sort_by(f64::total_cmp);
        let median = w.rounds[w.rounds.len() / 2];
        let (lo, hi) = (w.rounds[0], w.rounds[w.rounds.len() - 1]);
        println!(
            "{:<28} {:>10.3} ms  [{:.3} .. {:.3}]",
            w.name,
            median / 1e6,
            lo / 1e6,
            hi / 1e6
        );
    }
}
