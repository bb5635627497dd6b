//! The body and the property it checks: `citeproof_fuzz_bodies::http_message`
//! (crates/citeproof-fuzz-bodies), which `cargo test` also runs on every file of
//! `fuzz/corpus/http_message/`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| citeproof_fuzz_bodies::http_message(data));
