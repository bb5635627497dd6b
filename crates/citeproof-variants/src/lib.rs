//! Generated conformance variants: for each run, fresh cases derived from the static vectors by
//! transforms that keep the verdict **by construction** (see `citeproof_conformance::variants`
//! for the rules: the static expectation stays, the reference is consulted only for outputs a
//! transform changes and as a consistency check).
//!
//! | transform | what changes | kept by construction |
//! |---|---|---|
//! | `member-order`, `whitespace` | object member order and insignificant whitespace of a JSON text | its value, every token byte for byte |
//! | `fresh-member` | a new member with a random name in a JCS input | the output: the member inserted at its RFC 8785 place |
//! | `as-bytes` | `json` sent as `json_base64` | the same bytes |
//! | `line-endings` | LF / CR LF / CR of a text | the AEF §5 normalized text |
//! | `fresh-bytes`, `prepend-text` | data appended or prepended | validity (the hash: oracle) |
//! | `rename-hosts` | example-domain hosts (same length, same structure) | every origin relation, every length bound |
//! | `rename-ids` | run ids, evidence ids, key ids (same shape) | equalities and grammar |
//! | `new-keys` | every usable Ed25519 key, and every signature that verified under it | which signatures verify |
//! | `excerpt-order` | the order of support-check excerpts | the contract says order is irrelevant |
//! | `new-secrets` | every HMAC-SHA256 secret (chain, archive), and every tag that verified under it | which tags verify (HMAC is a PRF) |
//! | `id-case-and-space`, `fresh-member` (`chain-claim-id`) | ASCII letter case and trimmed padding of `vertical`/`subject`/`predicate`/`object`; an unread `x-` member | the id: trimmed and lowercased, nothing else read |
//! | `member-order`, `whitespace` (chain, ledger, archive) | envelopes, ledgers, bundles, displays; each JSON-lines record on its own line | signing inputs (sorted or fixed property list), JCS hashes, `prev` chains, line framing |
//! | `rename-ids` (ledger) | `ledger_id`, `claim_id` everywhere, output included | id grammars and equalities |
//! | `as-bytes` (ledger) | `export` sent as `export_base64` | the same bytes |
//!
//! The runner adds `wire-member-order`: generated inputs go on the wire with their members in a
//! random order.
//!
//! Transforms are registered per spec in [`transforms`], one match arm per [`Spec`]; each
//! module says in its documentation why its transforms keep the verdict.

use citeproof_model::vectors::Spec;

use citeproof_conformance::{
    suite::Case,
    variants::{Derived, Generator, VariantRng},
};

mod aca;
mod aef;
mod archive;
mod canon;
mod chain;
mod jsonl;
pub mod jsontext;
pub mod keys;
mod ledger;
pub mod rename;
pub mod secrets;
pub mod stored;

/// Derives at most one variant of a case (`None`: no transform applies).
pub type TransformFn = fn(&Case, &mut VariantRng) -> Option<Derived>;

/// The transforms of one spec's operations. The match is exhaustive: a new [`Spec`] does not
/// compile until it has its line here (an empty slice while its cases run static only).
pub const fn transforms(spec: Spec) -> &'static [(&'static str, TransformFn)] {
    match spec {
        Spec::Canon => canon::TRANSFORMS,
        Spec::Aca => aca::TRANSFORMS,
        Spec::Aef => aef::TRANSFORMS,
        Spec::Archive => archive::TRANSFORMS,
        Spec::Ledger => ledger::TRANSFORMS,
        Spec::Chain => chain::TRANSFORMS,
    }
}

/// Every transform of every spec, with its operation, in the order of [`Spec::ALL`].
fn all_transforms() -> impl Iterator<Item = &'static (&'static str, TransformFn)> {
    Spec::ALL.iter().flat_map(|spec| transforms(*spec))
}

/// The generator of `citeproof conformance`: every transform of every spec ([`transforms`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Variants;

impl Variants {
    fn transform(operation: &str) -> Option<TransformFn> {
        all_transforms()
            .find(|(name, _)| *name == operation)
            .map(|(_, f)| *f)
    }
}

impl Generator for Variants {
    fn derive(&self, case: &Case, rng: &mut VariantRng) -> Vec<Derived> {
        Variants::transform(&case.operation)
            .and_then(|f| f(case, rng))
            .into_iter()
            .collect()
    }

    fn operations(&self) -> Vec<String> {
        all_transforms()
            .map(|(name, _)| (*name).to_owned())
            .collect()
    }
}

/// A derived case from its parts (no oracle outputs).
pub(crate) fn derived(case: &Case, transforms: &[&str], input: serde_json::Value) -> Derived {
    Derived {
        transforms: transforms.iter().map(|t| (*t).to_owned()).collect(),
        input,
        expected: case.expected.clone(),
        oracle_outputs: Vec::new(),
    }
}

/// The member `name` of the case's expected output.
pub(crate) fn expected_output<'a>(case: &'a Case, name: &str) -> Option<&'a serde_json::Value> {
    case.expected.output.as_ref()?.get(name)
}

/// Whether the case expects a `valid` answer (output members are then compared).
pub(crate) fn expects_valid(case: &Case) -> bool {
    case.expected.result == citeproof_model::vectors::Validity::Valid
}
