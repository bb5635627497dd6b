//! Where the time of an ACA verification goes (issue 23, item 4): each stage of the verifier
//! measured alone through the crate's public functions, on the same workloads as
//! `benches/verify.rs`, next to the whole verification (`total`) in the same run, so that
//! `cargo xtask bench` can print each stage's share of the total. Nothing is instrumented: the
//! verifier's own path is the one `verify.rs` measures.
//!
//! Stages (per manifest or per claim, as the verifier runs them):
//! - `manifest`: `read_manifest`, the verifier's one pass over the manifest body (the strict
//!   I-JSON parse, its JCS form and the manifest's own rules: members, claims, sources, the
//!   chain are read and checked together, so they are one stage);
//! - `signature`: the RFC 9421 check of the manifest response (Content-Digest included), key
//!   from the discovery document;
//! - `sources`: SHA-256 of each distinct source, then each claim source's offsets, UTF-8 and
//!   excerpt hash;
//! - `support`: the support check of every claim against its excerpts (ACA-L2-018 to -020);
//! - `binding`: the claims found in the agent response's text (ACA-L2-021).
//!
//! Stages measured alone may overlap a little (both `support` and `binding` normalize each
//! claim); what they leave out of `total` (fetching from the snapshot, the header, the report)
//! is what `cargo xtask bench` prints as `other`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use citeproof_aca::sign::SigningKey;
use citeproof_aca::sign::synthetic::{
    SYNTHETIC_NOW, SyntheticRun, SyntheticSpec, build_synthetic_run,
};
use citeproof_aca::verify::binding::ResponseText;
use citeproof_aca::verify::discovery::check_discovery;
use citeproof_aca::verify::manifest::read_manifest;
use citeproof_aca::verify::signature::{
    ReceivedResponse, SignatureCheck, StaticKeys, check_response_signature,
};
use citeproof_aca::verify::support::{Analyzed, ExcerptRef, LexicalJudge, assess, normalize};
use citeproof_aca::{VerifyOptions, check_manifest, verify_response};
use citeproof_fetch::FetchPolicy;
use citeproof_model::json::parse_strict;
use citeproof_model::{Location, aef_text_hash, sha256_bytes};
use criterion::{Criterion, criterion_group, criterion_main};

/// The allocator of the `citeproof` binary, so that the numbers are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn run(spec: &SyntheticSpec) -> SyntheticRun {
    build_synthetic_run(spec, &SigningKey::from_secret_bytes(&[42u8; 32])).expect("synthetic run")
}

/// Each stage of one workload as a criterion benchmark in group `group`.
fn stages(c: &mut Criterion, group: &str, spec: &SyntheticSpec) {
    let r = run(spec);
    let fetcher = r.fetcher(FetchPolicy::default()).expect("fetcher");
    let opts = VerifyOptions::new(SYNTHETIC_NOW);
    let report = verify_response(fetcher.agent_response(), &fetcher, &opts);
    assert!(
        report.verdict.verified && report.verdict.level == 3,
        "{group}"
    );
    let manifests: Vec<(&String, &citeproof_aca::sign::synthetic::SyntheticResponse)> = r
        .responses
        .iter()
        .filter(|(u, _)| u.contains("/manifest/"))
        .collect();
    let discovery = r
        .responses
        .iter()
        .find(|(u, _)| u.contains("/.well-known/"))
        .map(|(_, d)| parse_strict(&d.body).expect("discovery"))
        .expect("discovery");
    let keys = StaticKeys {
        keys: check_discovery(&discovery, None).keys,
        unusable: Vec::new(),
    };
    let checked: Vec<_> = manifests
        .iter()
        .map(|(u, m)| check_manifest(&parse_strict(&m.body).expect("manifest"), Some(u.as_str())))
        .collect();
    let claims: Vec<&citeproof_aca::verify::manifest::CheckedClaim> = checked
        .iter()
        .flat_map(|f| f.manifest.claims.iter())
        .collect();
    let bodies: BTreeMap<&str, &[u8]> = r
        .responses
        .iter()
        .map(|(u, resp)| (u.as_str(), resp.body.as_slice()))
        .collect();
    let excerpt = |s: &citeproof_aca::verify::manifest::CheckedSource| -> Option<&str> {
        let body = bodies.get(s.url.as_deref()?)?;
        let (a, b) = s.excerpt_offset?;
        std::str::from_utf8(body.get(a as usize..b as usize)?).ok()
    };
    let mut g = c.benchmark_group(group);
    g.sample_size(10).warm_up_time(Duration::from_secs(1));
    g.bench_function("total", |b| {
        b.iter(|| verify_response(fetcher.agent_response(), black_box(&fetcher), &opts))
    });
    g.bench_function("manifest", |b| {
        b.iter(|| {
            for (u, m) in &manifests {
                black_box(read_manifest(black_box(&m.body), Some(u.as_str())).expect("manifest"));
            }
        })
    });
    g.bench_function("signature", |b| {
        b.iter(|| {
            for ((u, m), f) in manifests.iter().zip(&checked) {
                let received = ReceivedResponse {
                    status: m.status,
                    headers: &m.headers,
                    body: &m.body,
                };
                let settings = SignatureCheck {
                    now: SYNTHETIC_NOW,
                    max_age: Some(7_776_000),
                    emitted_at: f.manifest.emitted_at.as_ref().map(|t| t.unix_seconds()),
                };
                black_box(check_response_signature(
                    &received,
                    &keys,
                    settings,
                    Some(u.as_str()),
                ));
            }
        })
    });
    claim_stages(&mut g, &r, &claims, &excerpt);
    g.finish();
}

type Claim = citeproof_aca::verify::manifest::CheckedClaim;
type Source = citeproof_aca::verify::manifest::CheckedSource;

/// The per-claim stages: sources, support, binding.
fn claim_stages<'a>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    r: &SyntheticRun,
    claims: &[&Claim],
    excerpt: &dyn Fn(&Source) -> Option<&'a str>,
) {
    let agent = r.agent().expect("agent");
    g.bench_function("sources", |b| {
        b.iter(|| {
            let hashes: BTreeMap<&str, _> = r
                .source_bytes()
                .zip(
                    r.responses
                        .keys()
                        .filter(|u| u.starts_with(&r.source_prefix)),
                )
                .map(|(body, u)| (u.as_str(), sha256_bytes(body)))
                .collect();
            for s in claims.iter().flat_map(|c| c.sources.iter()) {
                black_box(hashes.get(s.url.as_deref().unwrap_or("")) == s.hash.as_ref());
                let text = excerpt(s).expect("excerpt");
                black_box(aef_text_hash(text.as_bytes()).ok() == s.excerpt_hash);
            }
        })
    });
    g.bench_function("support", |b| {
        b.iter(|| {
            for claim in claims {
                let text = claim.text.as_deref().expect("text");
                let analyzed = Analyzed::new(text);
                let refs: Vec<ExcerptRef<'_>> = claim
                    .sources
                    .iter()
                    .map(|s| ExcerptRef {
                        text: excerpt(s).expect("excerpt"),
                        source_url: s.url.as_deref().unwrap_or(""),
                        location: Location::default(),
                    })
                    .collect();
                let a = assess(&analyzed, &refs, &Location::default(), &LexicalJudge, &[]);
                black_box(a.supported);
            }
        })
    });
    g.bench_function("binding", |b| {
        b.iter(|| {
            let normalized: Vec<String> = claims
                .iter()
                .map(|c| normalize(c.text.as_deref().unwrap_or("")))
                .collect();
            let refs: Vec<&str> = normalized.iter().map(String::as_str).collect();
            let text = ResponseText::of(Some("text/plain; charset=utf-8"), &agent.body);
            black_box(text.find_normalized(&refs).expect("binding"))
        })
    });
}

fn all(c: &mut Criterion) {
    stages(c, "stages_claims", &SyntheticSpec::claims_workload());
    stages(c, "stages_chain", &SyntheticSpec::chain_workload(40_000));
    stages(
        c,
        "stages_hash_bound",
        &SyntheticSpec::hash_bound_workload(),
    );
}

criterion_group!(benches, all);
criterion_main!(benches);
