//! Cost of strictness: citeproof's I-JSON parser + RFC 8785 canonicalization against the
//! permissive baseline (serde_json parse + serde_jcs), and the two content hashes.
//! `cargo xtask bench` runs this and prints each pair as a ratio measured in the same run.

use std::hint::black_box;

use citeproof_model::{aef_text_hash, jcs, json::parse_strict, sha256_bytes};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The allocator of the `citeproof` binary, so that the numbers are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A manifest-like document of about 64 KiB: many claims with unicode text and numbers.
fn document() -> Vec<u8> {
    let mut claims = Vec::new();
    for i in 0..200 {
        claims.push(serde_json::json!({
            "claim_id": format!("c{i}"),
            "text": format!("Claim {i}: Zürich → 東京, ratio {} and {}", i as f64 / 7.0, 1e21 * i as f64),
            "sources": [{ "url": format!("https://example.com/a/{i}"), "retrieved_at": "2026-04-28T09:55:00Z",
                          "hash": "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                          "excerpt_offset": [i, i + 40] }],
            "confidence": "high"
        }));
    }
    serde_json::to_vec_pretty(&serde_json::json!({ "run_id": "r", "claims": claims }))
        .unwrap_or_default()
}

fn canon(c: &mut Criterion) {
    let doc = document();
    let mut group = c.benchmark_group("canonicalize");
    group.throughput(Throughput::Bytes(doc.len() as u64));
    group.bench_function("citeproof_strict", |b| {
        b.iter(|| jcs::canonicalize(&parse_strict(black_box(&doc)).unwrap_or_default()))
    });
    group.bench_function("baseline_serde_json_serde_jcs", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_slice(black_box(&doc)).unwrap_or_default();
            serde_jcs::to_vec(&v).unwrap_or_default()
        })
    });
    group.finish();

    let text = "line one\r\nline two\rline three\n"
        .repeat(2000)
        .into_bytes();
    let mut group = c.benchmark_group("hash");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("raw_sha256", |b| b.iter(|| sha256_bytes(black_box(&text))));
    group.bench_function("aef_text_sha256", |b| {
        b.iter(|| aef_text_hash(black_box(&text)))
    });
    group.finish();
}

criterion_group!(benches, canon);
criterion_main!(benches);
