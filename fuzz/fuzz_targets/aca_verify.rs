//! The body and the property it checks: `citeproof_fuzz_bodies::aca_verify`
//! (crates/citeproof-fuzz-bodies), which `cargo test` also runs on every file of
//! `fuzz/corpus/aca_verify/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| citeproof_fuzz_bodies::aca_verify(data));
