//! The generator over the committed vectors, with the reference as oracle: no variant is
//! dropped (a dropped variant is a generator bug), every operation with vectors gets variants,
//! every variant is a new input, and the transforms that must change outputs do.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
    sync::Arc,
};

use citeproof_conformance::{
    Suite,
    suite::Case,
    variants::{Generator, Origin, VariantPlan, VariantRng, generate},
};
use citeproof_variants::Variants;

fn suite() -> Suite {
    Suite::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors")).unwrap()
}

fn plan() -> VariantPlan {
    VariantPlan {
        generator: Arc::new(Variants),
        oracle: Arc::new(citeproof_reference::Reference::new()),
        per_case: 1,
    }
}

#[test]
fn no_variant_is_dropped_and_every_operation_is_covered() {
    let suite = suite();
    let cases: Vec<&Case> = suite.cases().collect();
    // Operations of the specs with transforms must all get variants; a spec without any yet
    // (its cases run static only, counted as `no_transform`) is not held to it.
    let registered: BTreeSet<&str> = citeproof_model::vectors::Spec::ALL
        .iter()
        .filter(|spec| !citeproof_variants::transforms(**spec).is_empty())
        .map(|spec| spec.name())
        .collect();
    let ops: BTreeSet<&str> = cases
        .iter()
        .filter(|c| registered.contains(c.spec.as_str()))
        .map(|c| c.operation.as_str())
        .collect();
    let unregistered = cases
        .iter()
        .filter(|c| !registered.contains(c.spec.as_str()))
        .count();
    for seed in [1u64, 2, 3, 0xdead_beef] {
        let g = generate(&cases, &plan(), seed);
        assert!(
            g.dropped.is_empty(),
            "seed {seed}: generator bugs: {:#?}",
            g.dropped
        );
        assert!(g.not_derived.is_empty(), "seed {seed}: {:?}", g.not_derived);
        assert_eq!(g.no_transform, unregistered, "seed {seed}");
        let mut per_op: BTreeMap<&str, usize> = BTreeMap::new();
        for v in &g.cases {
            *per_op.entry(v.operation.as_str()).or_default() += 1;
            let Origin::Generated { from, transforms } = &v.origin else {
                panic!("{} is not generated", v.id);
            };
            let source = cases.iter().find(|c| &c.id == from).unwrap();
            assert_ne!(v.input, source.input, "{} did not change", v.id);
            assert!(!transforms.is_empty());
            assert_eq!(v.id, format!("{from}~1"));
        }
        for op in &ops {
            assert!(
                per_op.get(op).copied().unwrap_or(0) > 0,
                "seed {seed}: no variant of {op}"
            );
        }
        // Most static cases get a variant.
        let registered_cases = cases.len() - unregistered;
        assert!(
            g.cases.len() * 10 >= registered_cases * 9,
            "{} of {registered_cases}",
            g.cases.len()
        );
    }
}

#[test]
fn signatures_and_keys_are_fresh_and_the_seed_reproduces_them() {
    let suite = suite();
    let cases: Vec<&Case> = suite
        .cases()
        .filter(|c| c.operation == "aef-jws-sign" || c.operation == "aca-manifest-sign")
        .collect();
    let a = generate(&cases, &plan(), 11);
    let b = generate(&cases, &plan(), 11);
    let c = generate(&cases, &plan(), 12);
    assert_eq!(a, b, "the same seed gives the same variants");
    assert_ne!(a.cases, c.cases);
    let mut fresh = 0;
    for v in &a.cases {
        let Origin::Generated { from, .. } = &v.origin else {
            panic!()
        };
        let source = cases.iter().find(|c| &c.id == from).unwrap();
        // An unusable key (the invalid cases) is kept: replacing it would fix the case.
        if source.expected.output.is_none() {
            continue;
        }
        assert_ne!(
            v.input["private_jwk"], source.input["private_jwk"],
            "{}",
            v.id
        );
        if let (Some(new), Some(old)) = (&v.expected.output, &source.expected.output) {
            assert_ne!(new, old, "{}: the signature must change with the key", v.id);
            fresh += 1;
        }
    }
    assert!(fresh >= 8, "{fresh}");
}

#[test]
fn a_case_variant_depends_only_on_the_seed_and_its_id() {
    let suite = suite();
    let all: Vec<&Case> = suite.cases().collect();
    let one: Vec<&Case> = all
        .iter()
        .copied()
        .filter(|c| c.id == "aca-l3-verify-baseline")
        .collect();
    assert_eq!(one.len(), 1);
    let alone = generate(&one, &plan(), 5);
    let full = generate(&all, &plan(), 5);
    let in_full = full
        .cases
        .iter()
        .find(|c| c.id == "aca-l3-verify-baseline~1")
        .unwrap();
    assert_eq!(&alone.cases[0], in_full);
    // The baseline Level 3 response: fresh key in the discovery document, hosts renamed.
    let Origin::Generated { transforms, .. } = &in_full.origin else {
        panic!()
    };
    assert!(
        transforms.contains(&"new-keys".to_owned()),
        "{transforms:?}"
    );
    assert!(
        transforms.contains(&"rename-hosts".to_owned()),
        "{transforms:?}"
    );
    let text = in_full.input.to_string();
    assert!(!text.contains("agent.example"), "hosts renamed");
    // A stream per case id.
    assert_ne!(
        VariantRng::for_label(5, "a").next_u64(),
        VariantRng::for_label(5, "b").next_u64()
    );
    assert_eq!(Variants.operations().len(), 23);
}
