//! The body and the property it checks: `citeproof_fuzz_bodies::json_tokens`
//! (crates/citeproof-fuzz-bodies), which `cargo test` also runs on every file of
//! `fuzz/corpus/json_tokens/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| citeproof_fuzz_bodies::json_tokens(data));
