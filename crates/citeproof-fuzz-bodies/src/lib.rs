//! The bodies of citeproof's fuzz targets: one `pub fn <target>(data: &[u8])` per target of
//! `fuzz/fuzz_targets/`, each of which is a one-line call to its body here. Keeping the bodies
//! in a workspace crate lets stable `cargo test` replay every committed corpus file
//! (`fuzz/corpus/<target>/`) through exactly the code libFuzzer ran (`tests/corpus.rs`), so CI
//! runs a smoke of every target without nightly.
//!
//! Every body takes arbitrary bytes. Beyond "no panic, no hang", each checks a property stated
//! in its documentation where a cheap one exists: a round trip, an idempotence, or a
//! differential between two paths that must agree. A failed property is a panic, which is how a
//! fuzzer reports it; so, unlike library code, this crate asserts and unwraps on purpose.

// Panicking is how a fuzz body reports a broken property.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod aca;
mod aef;
mod archive;
mod chain;
mod css;
mod documents;
mod grammars;
mod httpsig;
mod jose;
mod json;
mod json_tokens;
mod ledger;
mod protocol;
mod snapshots;
mod span;
mod xpath;

pub use aca::{aca_documents, aca_verify, citation_source};
pub use aef::aef_evidence;
pub use archive::archive_documents;
pub use chain::chain_documents;
pub use css::css_selector;
pub use documents::documents;
pub use grammars::{fetch_url_policy, grammars};
pub use httpsig::http_message;
pub use jose::jws_detached;
pub use json::json_strict;
pub use json_tokens::json_tokens;
pub use ledger::ledger_jsonl;
pub use protocol::{adapter_protocol, adapter_serve};
pub use snapshots::snapshots;
pub use span::{aef_span, redacted_quote};
pub use xpath::xpath;

/// A fuzz body.
pub type Body = fn(&[u8]);

/// Every target: its name (the `[[bin]]` of `fuzz/Cargo.toml` and the directory of its corpus
/// under `fuzz/corpus/`) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("json_strict", json_strict),
    ("json_tokens", json_tokens),
    ("documents", documents),
    ("http_message", http_message),
    ("jws_detached", jws_detached),
    ("fetch_url_policy", fetch_url_policy),
    ("grammars", grammars),
    ("aef_span", aef_span),
    ("redacted_quote", redacted_quote),
    ("xpath", xpath),
    ("css_selector", css_selector),
    ("aef_evidence", aef_evidence),
    ("citation_source", citation_source),
    ("aca_documents", aca_documents),
    ("aca_verify", aca_verify),
    ("snapshots", snapshots),
    ("adapter_protocol", adapter_protocol),
    ("adapter_serve", adapter_serve),
    ("ledger_jsonl", ledger_jsonl),
    ("chain_documents", chain_documents),
    ("archive_documents", archive_documents),
];

/// Splits `data` at its first NUL byte, or in the middle when there is none: how the bodies
/// that take two inputs read one byte string.
pub(crate) fn halves(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => data.split_at(data.len() / 2),
    }
}

#[cfg(test)]
mod tests {
    use citeproof_model::vectors::Spec;

    /// Every spec has a target of its own, `<spec>_…`, beyond `documents` and `adapter_serve`
    /// (which reach every document kind and operation through the descriptors); canon's rules
    /// are the strict parser's and JCS, fuzzed by `json_strict`.
    #[test]
    fn every_spec_has_a_target_of_its_own() {
        for spec in Spec::ALL {
            let own = match spec {
                Spec::Canon => super::TARGETS.iter().any(|(n, _)| *n == "json_strict"),
                _ => super::TARGETS
                    .iter()
                    .any(|(n, _)| n.starts_with(&format!("{spec}_"))),
            };
            assert!(own, "no fuzz target for {spec}");
        }
    }
}
