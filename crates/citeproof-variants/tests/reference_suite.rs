//! The whole conformance suite (every static case and one generated variant of each) against
//! the in-process reference, as `citeproof conformance` runs it: the test command of
//! `cargo xtask mutants --reference` (cargo-mutants mutates the reference and this test must
//! fail). A failed, errored or dropped case fails it; the seed is fixed so that a mutant's
//! verdict is reproducible (`CITEPROOF_SUITE_SEED` overrides it).
//!
//! `CITEPROOF_SUITE_VARIANTS=0` runs the static cases only: the per-mutant test of
//! `cargo xtask mutants --reference`, which re-runs every survivor with the generated variants
//! before calling it a survivor (the variants are half the test's time and kill few mutants
//! the static cases do not).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{path::Path, sync::Arc};

use citeproof_conformance::{RunOptions, Status, Suite, Target, run, variants::VariantPlan};

const DEFAULT_SEED: u64 = 24;

#[test]
fn the_reference_passes_every_static_and_generated_case() {
    let vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let suite = Suite::load(&vectors).unwrap();
    let seed = std::env::var("CITEPROOF_SUITE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    let with_variants = std::env::var("CITEPROOF_SUITE_VARIANTS").as_deref() != Ok("0");
    let options = RunOptions {
        max_errors: None,
        seed: Some(seed),
        variants: with_variants.then(|| VariantPlan {
            generator: Arc::new(citeproof_variants::Variants),
            oracle: Arc::new(citeproof_reference::Reference::new()),
            per_case: 1,
        }),
        ..RunOptions::default()
    };
    let mut target = Target::in_process(Box::new(citeproof_reference::Reference::new()));
    let result = run(&suite, &mut target, &options, |_| {});
    let bad: Vec<String> = result
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed | Status::Errored))
        .map(|r| {
            format!(
                "{} {:?}: {}",
                r.case.id,
                r.status,
                r.message.as_deref().unwrap_or_default()
            )
        })
        .collect();
    let dropped: Vec<String> = result
        .generation
        .iter()
        .flat_map(|g| &g.dropped)
        .map(|d| format!("{} by {}: {}", d.from, d.transforms.join("+"), d.why))
        .collect();
    assert!(
        result.aborted.is_none() && bad.is_empty() && dropped.is_empty(),
        "seed {seed}: {} of {} cases did not pass, {} variants dropped{}:\n{}\n{}",
        bad.len(),
        result.results.len(),
        dropped.len(),
        result
            .aborted
            .as_deref()
            .map(|a| format!(", aborted: {a}"))
            .unwrap_or_default(),
        bad.join("\n"),
        dropped.join("\n")
    );
    // A run that ran nothing passes vacuously: the suite and its variants must be there.
    assert!(suite.len() > 1000, "only {} static cases", suite.len());
    if with_variants {
        assert!(result.results.len() > suite.len(), "no generated case ran");
    } else {
        assert_eq!(
            result.results.len(),
            suite.len(),
            "a static case did not run"
        );
    }
}
