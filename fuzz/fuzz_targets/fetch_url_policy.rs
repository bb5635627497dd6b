//! The fetch URL policy on hostile input: never panics; whatever it accepts is http(s) without
//! credentials.
#![no_main]

use citeproof_fetch::{FetchPolicy, check_url};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(url) = check_url(text, &FetchPolicy::default()) {
        assert!(matches!(url.scheme(), "http" | "https"));
        assert!(url.username().is_empty() && url.password().is_none());
    }
});
