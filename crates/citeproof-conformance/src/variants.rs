//! Generated variants: fresh cases derived from the static vectors for each run, so that an
//! implementation cannot pass by looking answers up (by case id, or by operation and input).
//!
//! The runner knows no spec: the transforms live behind [`Generator`], implemented next to the
//! reference (`citeproof-variants`). The rules that keep expected values honest:
//!
//! 1. A transform preserves the verdict **by construction** (renaming a host everywhere it
//!    occurs, re-signing with a fresh key what verified under the old one, permuting members of
//!    a JSON object): the static case's independently derived `expected` stays the expectation,
//!    rewritten by the same construction where it mentions what was renamed.
//! 2. The oracle (the reference implementation) supplies only the output members a transform
//!    changes and cannot compute by construction (a new signature, a new hash):
//!    [`Derived::oracle_outputs`].
//! 3. The oracle is also a consistency check: a variant on which it disagrees with the
//!    transformed expectation is a generator bug. It is dropped and reported
//!    ([`Generation::dropped`]), never silently. Static cases the oracle itself fails are not
//!    derived from (reported in [`Generation::not_derived`]).
//!
//! Every random choice comes from the run's seed: `--seed S` reproduces a run, and the variant
//! of one case depends only on the seed and the case id (so `--case` reproduces it alone).

use std::{fmt, sync::Arc};

use citeproof_model::protocol::{Implementation, Reply};
use rand::{Rng as _, RngExt as _, SeedableRng as _, rngs::Xoshiro256PlusPlus, seq::SliceRandom};
use serde_json::Value;

use crate::{
    runner,
    suite::{Case, Expected},
};

/// The seeded random source of a run (xoshiro256++; reproducible for a given seed and build).
#[derive(Debug, Clone)]
pub struct VariantRng(Xoshiro256PlusPlus);

impl VariantRng {
    pub fn new(seed: u64) -> VariantRng {
        VariantRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// An independent stream for `label` (a case id): the same seed and label always give the
    /// same stream, whatever else the run contains.
    pub fn for_label(seed: u64, label: &str) -> VariantRng {
        let digest = citeproof_model::sha256_bytes(format!("{seed}\0{label}").as_bytes());
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&digest.digest()[..8]);
        VariantRng::new(u64::from_le_bytes(bytes))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.0.random_bool(p.clamp(0.0, 1.0))
    }

    pub fn fill(&mut self, bytes: &mut [u8]) {
        self.0.fill_bytes(bytes);
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        items.shuffle(&mut self.0);
    }

    /// `n` random lowercase ASCII letters.
    pub fn letters(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'a' + (self.below(26) as u8)))
            .collect()
    }

    /// An opaque case token for the wire (matches the `case.id` pattern of the run schema).
    pub fn token(&mut self) -> String {
        format!("case-{:016x}", self.next_u64())
    }
}

/// One derived case, before the oracle check.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// The transforms applied, in order (e.g. `rename-hosts`, `new-keys`).
    pub transforms: Vec<String>,
    pub input: Value,
    /// The static expectation, rewritten by construction where the transform renamed something
    /// it mentions.
    pub expected: Expected,
    /// Output members whose expected value only the oracle can give (a new signature, a new
    /// hash). Empty for most transforms.
    pub oracle_outputs: Vec<String>,
}

/// Spec-specific transforms, implemented next to the reference.
pub trait Generator: Send + Sync {
    /// Variants of one static case; empty when no transform applies to it.
    fn derive(&self, case: &Case, rng: &mut VariantRng) -> Vec<Derived>;
    /// The operations this generator derives variants for.
    fn operations(&self) -> Vec<String>;
}

/// Where a case comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Origin {
    /// A case of the vector files.
    #[default]
    Static,
    /// Derived for this run from the static case `from`.
    Generated {
        from: String,
        transforms: Vec<String>,
    },
}

impl Origin {
    pub fn is_generated(&self) -> bool {
        matches!(self, Origin::Generated { .. })
    }
}

/// What a run derives its variants with.
#[derive(Clone)]
pub struct VariantPlan {
    pub generator: Arc<dyn Generator>,
    /// The reference implementation, consulted as described in the module docs.
    pub oracle: Arc<dyn Implementation>,
    /// Variants per static case (each applies every transform that fits, with fresh choices).
    pub per_case: usize,
}

impl fmt::Debug for VariantPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VariantPlan")
            .field("oracle", &self.oracle.info().name)
            .field("per_case", &self.per_case)
            .finish_non_exhaustive()
    }
}

/// A variant the oracle disagreed with (a generator bug), reported with the run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Dropped {
    pub from: String,
    pub transforms: Vec<String>,
    pub why: String,
}

/// The generated part of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Generation {
    pub cases: Vec<Case>,
    pub dropped: Vec<Dropped>,
    /// Static cases not derived from, with the reason (the oracle fails them or does not
    /// implement their operation).
    pub not_derived: Vec<(String, String)>,
    /// Static cases of operations the generator has no transform for.
    pub no_transform: usize,
    /// Derived cases whose input equals the static one (not run: they are no new case).
    pub unchanged: usize,
}

/// Derives the variants of `cases` for the run seeded with `seed`.
pub fn generate(cases: &[&Case], plan: &VariantPlan, seed: u64) -> Generation {
    let mut out = Generation::default();
    let known = plan.generator.operations();
    let oracle_info = plan.oracle.info();
    for case in cases {
        if !known.iter().any(|o| o == &case.operation) {
            out.no_transform += 1;
            continue;
        }
        if !oracle_info.supports(&case.operation) {
            out.not_derived.push((
                case.id.clone(),
                format!("the oracle does not implement `{}`", case.operation),
            ));
            continue;
        }
        if let Err(why) = check(
            &case.expected,
            &plan.oracle.run(&case.operation, &case.input),
        ) {
            out.not_derived.push((
                case.id.clone(),
                format!("the oracle fails the static case: {why}"),
            ));
            continue;
        }
        let mut rng = VariantRng::for_label(seed, &case.id);
        let mut n = 0;
        for _ in 0..plan.per_case.max(1) {
            for derived in plan.generator.derive(case, &mut rng) {
                if derived.input == case.input {
                    // Nothing changed: not a new case (a lookup by input would answer it).
                    out.unchanged += 1;
                    continue;
                }
                match settle(&derived, &plan.oracle, &case.operation) {
                    Ok(expected) => {
                        n += 1;
                        out.cases.push(Case {
                            id: format!("{}~{n}", case.id),
                            input: derived.input,
                            expected,
                            origin: Origin::Generated {
                                from: case.id.clone(),
                                transforms: derived.transforms,
                            },
                            ..(*case).clone()
                        });
                    }
                    Err(why) => out.dropped.push(Dropped {
                        from: case.id.clone(),
                        transforms: derived.transforms,
                        why,
                    }),
                }
            }
        }
    }
    out
}

/// The final expectation of a derived case: oracle outputs filled in, then the consistency
/// check.
fn settle(
    derived: &Derived,
    oracle: &Arc<dyn Implementation>,
    operation: &str,
) -> Result<Expected, String> {
    let reply = oracle.run(operation, &derived.input);
    let mut expected = derived.expected.clone();
    if !derived.oracle_outputs.is_empty() {
        let Reply::Result(r) = &reply else {
            return Err(format!("the oracle gave no result: {reply:?}"));
        };
        let Some(output) = r.output.as_ref().and_then(Value::as_object) else {
            return Err("the oracle gave no output for the changed members".into());
        };
        let mut want = expected
            .output
            .clone()
            .and_then(|o| o.as_object().cloned())
            .unwrap_or_default();
        for name in &derived.oracle_outputs {
            let Some(v) = output.get(name) else {
                return Err(format!("the oracle's output lacks `{name}`"));
            };
            want.insert(name.clone(), v.clone());
        }
        expected.output = Some(Value::Object(want));
    }
    check(&expected, &reply)?;
    Ok(expected)
}

fn check(expected: &Expected, reply: &Reply) -> Result<(), String> {
    match reply {
        Reply::Result(r) => runner::evaluate(expected, r),
        Reply::Skipped { message } => Err(format!("the oracle skipped it: {message}")),
        Reply::Errored { message } => Err(format!("the oracle errored: {message}")),
    }
}

/// Writes a JSON value with the members of every object in a random order (JSON object member
/// order carries no meaning; an implementation that depends on it is wrong).
pub fn to_text_shuffled(value: &Value, rng: &mut VariantRng) -> String {
    let mut out = String::new();
    write_shuffled(value, rng, &mut out);
    out
}

fn write_shuffled(value: &Value, rng: &mut VariantRng, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            rng.shuffle(&mut members);
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write_shuffled(v, rng, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_shuffled(v, rng, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// A seed for a run when none is given: from the operating system's random source, or the
/// clock if that fails.
pub fn fresh_seed() -> u64 {
    match getrandom::u64() {
        Ok(seed) => seed,
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x5eed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_per_label() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = VariantRng::for_label(7, "canon-x");
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut r = VariantRng::for_label(7, "canon-x");
                move |_| r.next_u64()
            })
            .collect();
        let c = VariantRng::for_label(8, "canon-x").next_u64();
        assert_eq!(a, b);
        assert_ne!(a[0], c);
        let t = VariantRng::new(1).token();
        assert!(t.starts_with("case-") && t.len() == 21, "{t}");
    }

    /// Answers `hash-bytes` with the length of the data as the "hash".
    struct LengthOracle;

    impl Implementation for LengthOracle {
        fn info(&self) -> citeproof_model::protocol::ImplementationInfo {
            crate::test_support::info("length", "hash-bytes")
        }
        fn run(&self, _: &str, input: &Value) -> Reply {
            let n = input["data"].as_str().unwrap_or_default().len();
            Reply::valid(Some(serde_json::json!({"hash": n})))
        }
    }

    /// One good variant (oracle output), one that breaks the verdict, one unchanged.
    struct Fixed;

    impl Generator for Fixed {
        fn derive(&self, case: &Case, _: &mut VariantRng) -> Vec<Derived> {
            let mut bad = case.expected.clone();
            bad.result = citeproof_model::vectors::Validity::Invalid;
            bad.errors = vec!["x".into()];
            vec![
                Derived {
                    transforms: vec!["longer".into()],
                    input: serde_json::json!({"data": "abcd"}),
                    expected: case.expected.clone(),
                    oracle_outputs: vec!["hash".into()],
                },
                Derived {
                    transforms: vec!["broken".into()],
                    input: serde_json::json!({"data": "abcde"}),
                    expected: bad,
                    oracle_outputs: Vec::new(),
                },
                Derived {
                    transforms: vec!["nothing".into()],
                    input: case.input.clone(),
                    expected: case.expected.clone(),
                    oracle_outputs: Vec::new(),
                },
            ]
        }
        fn operations(&self) -> Vec<String> {
            vec!["hash-bytes".into()]
        }
    }

    #[test]
    fn the_oracle_fills_changed_outputs_and_drops_disagreements() {
        let case = Case {
            id: "canon-x".into(),
            description: String::new(),
            requirements: Vec::new(),
            level: 0,
            flags: Vec::new(),
            input: serde_json::json!({"data": "ab"}),
            expected: Expected {
                result: citeproof_model::vectors::Validity::Valid,
                errors: Vec::new(),
                errors_match: crate::suite::ErrorsMatch::Exact,
                warnings: None,
                output: Some(serde_json::json!({"hash": 2})),
            },
            derivation: crate::suite::Derivation {
                kind: citeproof_model::vectors::DerivationKind::Hand,
                detail: String::new(),
            },
            file: "canon/x.json".into(),
            spec: "canon".into(),
            operation: "hash-bytes".into(),
            origin: Origin::Static,
        };
        let plan = VariantPlan {
            generator: Arc::new(Fixed),
            oracle: Arc::new(LengthOracle),
            per_case: 1,
        };
        let g = generate(&[&case], &plan, 1);
        assert_eq!(g.cases.len(), 1);
        assert_eq!(g.cases[0].id, "canon-x~1");
        assert_eq!(
            g.cases[0].expected.output,
            Some(serde_json::json!({"hash": 4}))
        );
        assert_eq!(g.dropped.len(), 1);
        assert_eq!(g.dropped[0].transforms, ["broken"]);
        assert!(
            g.dropped[0].why.contains("expected invalid"),
            "{}",
            g.dropped[0].why
        );
        assert_eq!(g.unchanged, 1);
        // A static case the oracle fails is not derived from.
        let mut wrong = case.clone();
        wrong.expected.output = Some(serde_json::json!({"hash": 3}));
        let g = generate(&[&wrong], &plan, 1);
        assert!(g.cases.is_empty());
        assert_eq!(g.not_derived.len(), 1);
    }

    #[test]
    fn shuffled_text_is_the_same_value() {
        let v = serde_json::json!({"a": 1, "b": [{"x": "\u{e9}", "y": null}], "c": {"d": 1.5, "e": true}});
        let mut rng = VariantRng::new(3);
        let mut orders = std::collections::BTreeSet::new();
        for _ in 0..20 {
            let text = to_text_shuffled(&v, &mut rng);
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
            orders.insert(text);
        }
        assert!(orders.len() > 1, "member order never changed");
    }
}
