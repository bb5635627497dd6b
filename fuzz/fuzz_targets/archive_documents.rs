//! The body and the property it checks: `citeproof_fuzz_bodies::archive_documents`
//! (crates/citeproof-fuzz-bodies), which `cargo test` also runs on every file of
//! `fuzz/corpus/archive_documents/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| citeproof_fuzz_bodies::archive_documents(data));
