//! The conformance suite as a workload (`cargo xtask bench` prints the ratios):
//!
//! - `suite/in_process`: the whole suite in-process, static vectors and one generated variant
//!   of each (seed 1), as `cargo xtask conformance` runs it;
//! - `adapter/in_process` against `adapter/child_process`: the static vectors through the
//!   in-process reference and through `citeproof adapter` as a child process speaking the
//!   adapter protocol (docs/ADAPTER.md), started once per run; the ratio is the protocol's cost.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use citeproof_conformance::{
    RunOptions, Suite, Target, process::ProcessOptions, variants::VariantPlan,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The allocator of the `citeproof` binary, so that the numbers are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

fn run(suite: &Suite, target: &mut Target, variants: bool) -> usize {
    let options = RunOptions {
        seed: Some(1),
        max_errors: None,
        variants: variants.then(|| VariantPlan {
            generator: Arc::new(citeproof_variants::Variants),
            oracle: Arc::new(citeproof_reference::Reference::new()),
            per_case: 1,
        }),
        ..RunOptions::default()
    };
    let result = citeproof_conformance::run(suite, target, &options, |_| {});
    assert!(result.success(), "the suite must pass to be a workload");
    result.results.len()
}

fn in_process() -> Target {
    Target::in_process(Box::new(citeproof_reference::Reference::new()))
}

fn child() -> Target {
    Target::command(
        vec![
            env!("CARGO_BIN_EXE_citeproof").to_owned(),
            "adapter".to_owned(),
        ],
        ProcessOptions::default(),
    )
}

/// A group of 10 samples after a second of warm-up, measured for `seconds`.
fn group<'c>(
    c: &'c mut Criterion,
    name: &str,
    seconds: u64,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(seconds));
    g
}

fn suite(c: &mut Criterion) {
    let suite = Suite::load(&vectors()).expect("vectors load");
    let statics = suite.len() as u64;
    let all = run(&suite, &mut in_process(), true) as u64;
    let mut g = group(c, "suite", 20);
    g.throughput(Throughput::Elements(all));
    g.bench_function("in_process", |b| {
        b.iter(|| run(&suite, &mut in_process(), true))
    });
    g.finish();

    let mut g = group(c, "adapter", 10);
    g.throughput(Throughput::Elements(statics));
    g.bench_function("in_process", |b| {
        b.iter(|| run(&suite, &mut in_process(), false))
    });
    g.bench_function("child_process", |b| {
        b.iter(|| run(&suite, &mut child(), false))
    });
    g.finish();
}

criterion_group!(benches, suite);
criterion_main!(benches);
