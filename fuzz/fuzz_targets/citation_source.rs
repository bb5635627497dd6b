//! The body and the property it checks: `citeproof_fuzz_bodies::citation_source`
//! (crates/citeproof-fuzz-bodies), which `cargo test` also runs on every file of
//! `fuzz/corpus/citation_source/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| citeproof_fuzz_bodies::citation_source(data));
