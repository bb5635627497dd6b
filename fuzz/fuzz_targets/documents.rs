//! The body and the property it checks: `citeproof_fuzz_bodies::documents`
//! (crates/citeproof-fuzz-bodies), which `cargo test` also runs on every file of
//! `fuzz/corpus/documents/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| citeproof_fuzz_bodies::documents(data));
