//! The body and the property it checks: `citeproof_fuzz_bodies::aef_evidence`
//! (crates/citeproof-fuzz-bodies), which `cargo test` also runs on every file of
//! `fuzz/corpus/aef_evidence/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| citeproof_fuzz_bodies::aef_evidence(data));
