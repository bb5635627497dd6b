//! What the tests of the chain crate share: one signed envelope of the seed's example claim,
//! Level 1 verification with no network under the signer's HMAC secret, and the machinery of
//! the cross-checks (an oracle script asked in JSON, seeded random inputs, doubles written alike).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_chain::report::ChainReport;
use citeproof_chain::{SignKey, SignOptions, TrustConfig, VerifyOptions, sign, verify};
use citeproof_fetch::{FetchError, FetchedResponse, Fetcher};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

pub const NOW: i64 = 1_779_235_200; // 2026-05-20T00:00:00Z
pub const SIGNER: &str = "did:web:sourcescore.org";

/// Level 1 fetches nothing.
pub struct Offline;

impl Fetcher for Offline {
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        panic!("a Level 1 verification fetched {url}")
    }
}

/// The seed's example claim with `sources`, signed by [`SIGNER`] with `secret`: the envelope.
pub fn signed_envelope(secret: &str, sources: Value) -> Value {
    let claim = json!({
        "vertical": "ai-ml", "subject": "Transformer architecture",
        "predicate": "introduced_in_paper",
        "object": "Attention Is All You Need (Vaswani et al., 2017)", "confidence": 1.0,
        "sources": sources,
        "lastVerified": "2026-05-16"
    });
    let options = SignOptions {
        signed_by: SIGNER.into(),
        signed_at: "2026-05-16T00:00:00.000Z".into(),
        canonical_base: None,
        methodology: None,
    };
    let signed = sign(
        claim.to_string().as_bytes(),
        SignKey::Hmac(secret),
        &options,
    )
    .unwrap();
    serde_json::from_str(&signed.envelope).unwrap()
}

/// Level 1 of `document` at [`NOW`], [`SIGNER`] trusted with `secret`.
pub fn verify_offline(document: &[u8], secret: &str) -> ChainReport {
    let mut trust = TrustConfig::default();
    trust.add_secret(SIGNER, secret);
    verify(document, &Offline, &VerifyOptions::new(NOW, 1, trust))
}

/// Asks the oracle script at `script` (relative to this crate) run by `program` one JSON
/// request in `mode`.
pub fn oracle(program: &str, script: &str, mode: &str, request: &Value) -> Result<Value, String> {
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(script);
    citeproof_testkit::run_json(program, &script, &[mode], request)
}

/// A proptest runner with a fixed seed, so a cross-check asks the same inputs on every run.
pub fn seeded_runner(seed: u8) -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

/// 20,000 random finite doubles (bit patterns from a seeded runner), then `boundaries`.
pub fn random_doubles(seed: u8, boundaries: impl IntoIterator<Item = f64>) -> Vec<f64> {
    let mut runner = seeded_runner(seed);
    let mut doubles: Vec<f64> = (0..20_000)
        .map(|_| any::<u64>().new_tree(&mut runner).unwrap().current())
        .map(f64::from_bits)
        .filter(|x| x.is_finite())
        .collect();
    doubles.extend(boundaries);
    doubles
}

/// Asserts that `ours` writes every double as the oracle does: `ask` gets their bit patterns
/// (`{"bits": [hex, ...]}`) and answers the texts in order.
pub fn assert_doubles_written_alike(
    doubles: &[f64],
    ask: impl FnOnce(&Value) -> Result<Value, String>,
    ours: impl Fn(f64) -> String,
) {
    let bits: Vec<String> = doubles
        .iter()
        .map(|x| format!("{:016x}", x.to_bits()))
        .collect();
    let expected = ask(&json!({ "bits": bits })).unwrap();
    let expected = expected.as_array().unwrap();
    assert_eq!(expected.len(), doubles.len());
    for (x, want) in doubles.iter().zip(expected) {
        assert_eq!(ours(*x), want.as_str().unwrap(), "{:016x}", x.to_bits());
    }
}
