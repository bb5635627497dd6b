//! ACA verification at scale, each workload against a bound measured in the same run
//! (`cargo xtask bench` turns the pairs into ratios; see README "Performance").
//!
//! Workloads are signed Level 3 runs made by `citeproof_aca::sign::synthetic` (real Ed25519
//! keys, JCS manifests, RFC 9421 signatures, discovery document), deterministic:
//!
//! - `hash_bound`: 100 claims over 10 sources of 1 MiB, verified from a snapshot already in
//!   memory (`verify`), from WARC bytes (`verify_warc`) and from JSON snapshot bytes
//!   (`verify_json`); the bound is SHA-256 of the 10 MiB of sources (`sha256_sources`);
//! - `claims`: 10 000 claims over 10 small sources (`verify_10k`), per-claim cost, with the
//!   strict parse of the manifest alone (`parse_manifest`), its token scan without a tree
//!   (`scan_manifest`: the floor of a typed parse from the tokens) and serde_json's
//!   (`serde_json_manifest`) as reference points;
//! - `chain`: one claim and a chain of 10k, 20k and 40k steps (linearity);
//! - `batch`: 1000 small signed JSON snapshots verified on one thread and on two.

use std::hint::black_box;
use std::time::Duration;

use citeproof_aca::sign::SigningKey;
use citeproof_aca::sign::synthetic::{
    SYNTHETIC_NOW, SyntheticRun, SyntheticSpec, build_synthetic_run,
};
use citeproof_aca::{AcaReport, VerifyOptions, verify_response, verify_snapshot_bytes};
use citeproof_fetch::{FetchPolicy, SnapshotFetcher, read_warc_bytes};
use citeproof_model::json::{MAX_DOCUMENT_BYTES, Mode, Reader, parse_strict};
use citeproof_model::sha256_bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The allocator of the `citeproof` binary, so that the numbers are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn key() -> SigningKey {
    SigningKey::from_secret_bytes(&[42u8; 32])
}

fn opts() -> VerifyOptions {
    VerifyOptions::new(SYNTHETIC_NOW)
}

fn run(spec: &SyntheticSpec) -> SyntheticRun {
    build_synthetic_run(spec, &key()).expect("synthetic run")
}

fn verify(fetcher: &SnapshotFetcher) -> AcaReport {
    verify_response(fetcher.agent_response(), fetcher, &opts())
}

/// A workload must verify at Level 3 with no incident, or the bench measures a failure path.
fn assert_level3(report: &AcaReport, what: &str) {
    assert!(
        report.verdict.verified && report.verdict.level == 3 && report.verdict.incidents.is_empty(),
        "{what}: level {} incidents {:?}",
        report.verdict.level,
        report
            .verdict
            .incidents
            .iter()
            .map(|i| i.incident.code.to_string())
            .collect::<Vec<_>>()
    );
}

fn hash_bound(c: &mut Criterion) {
    let spec = SyntheticSpec::hash_bound_workload();
    let r = run(&spec);
    let fetcher = r.fetcher(FetchPolicy::default()).unwrap();
    // Shared, so that each iteration's clone copies no byte (the CLI reads a file whole).
    let warc = bytes::Bytes::from(r.warc("2026-04-28T10:00:00Z").unwrap());
    let json = serde_json::to_vec(&r.snapshot().unwrap()).unwrap();
    assert_level3(&verify(&fetcher), "hash_bound");
    assert_level3(&verify_snapshot_bytes(&json, &opts()), "hash_bound json");
    let sources: Vec<&[u8]> = r.source_bytes().collect();
    let bytes: usize = sources.iter().map(|s| s.len()).sum();
    let mut g = c.benchmark_group("hash_bound");
    g.sample_size(20).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("sha256_sources", |b| {
        b.iter(|| {
            for s in &sources {
                black_box(sha256_bytes(black_box(s)));
            }
        })
    });
    g.bench_function("verify", |b| b.iter(|| verify(black_box(&fetcher))));
    g.bench_function("verify_warc", |b| {
        b.iter(|| {
            let f = read_warc_bytes(black_box(warc.clone()), FetchPolicy::default()).unwrap();
            verify(&f)
        })
    });
    g.bench_function("verify_json", |b| {
        b.iter(|| verify_snapshot_bytes(black_box(&json), &opts()))
    });
    g.finish();
}

fn claims(c: &mut Criterion) {
    let spec = SyntheticSpec::claims_workload();
    let r = run(&spec);
    let fetcher = r.fetcher(FetchPolicy::default()).unwrap();
    assert_level3(&verify(&fetcher), "claims");
    let manifest = &r.responses["https://agent.example/runs/r/manifest/0"].body;
    let mut g = c.benchmark_group("claims");
    g.sample_size(10).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("verify_10k", |b| b.iter(|| verify(black_box(&fetcher))));
    g.bench_function("parse_manifest", |b| {
        b.iter(|| parse_strict(black_box(manifest)).unwrap())
    });
    g.bench_function("scan_manifest", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(manifest), Mode::Strict, MAX_DOCUMENT_BYTES);
            let reader = reader.as_mut().unwrap();
            let mut tokens = 0usize;
            while reader.next_token().unwrap().is_some() {
                tokens += 1;
            }
            tokens
        })
    });
    g.bench_function("serde_json_manifest", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(manifest)).unwrap())
    });
    g.finish();
}

fn chain(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain");
    g.sample_size(10).warm_up_time(Duration::from_secs(1));
    for steps in [10_000usize, 20_000, 40_000] {
        let spec = SyntheticSpec::chain_workload(steps);
        let fetcher = run(&spec).fetcher(FetchPolicy::default()).unwrap();
        assert_level3(&verify(&fetcher), "chain");
        g.throughput(Throughput::Elements(steps as u64));
        g.bench_function(format!("verify_{}k", steps / 1000), |b| {
            b.iter(|| verify(black_box(&fetcher)))
        });
    }
    g.finish();
}

fn batch(c: &mut Criterion) {
    let snapshots: Vec<Vec<u8>> = (0..1000)
        .map(|i| {
            let spec = SyntheticSpec {
                run_id: format!("run-{i}"),
                ..SyntheticSpec::new(2)
            };
            serde_json::to_vec(&run(&spec).snapshot().unwrap()).unwrap()
        })
        .collect();
    assert_level3(&verify_snapshot_bytes(&snapshots[0], &opts()), "batch");
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut g = c.benchmark_group("batch");
    g.sample_size(10).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(snapshots.len() as u64));
    g.bench_function("one_core", |b| {
        b.iter(|| {
            snapshots
                .iter()
                .filter(|s| verify_snapshot_bytes(s, &opts()).verdict.verified)
                .count()
        })
    });
    g.bench_function("two_cores", |b| {
        use rayon::prelude::*;
        b.iter(|| {
            two.install(|| {
                snapshots
                    .par_iter()
                    .filter(|s| verify_snapshot_bytes(s, &opts()).verdict.verified)
                    .count()
            })
        })
    });
    g.finish();
}

criterion_group!(benches, hash_bound, claims, chain, batch);
criterion_main!(benches);
