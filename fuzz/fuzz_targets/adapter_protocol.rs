//! The runner's reading of adapter lines (hello and replies) on arbitrary bytes: never panics,
//! and an accepted reply re-serializes to a line that parses to the same reply.

#![no_main]

use citeproof_conformance::protocol::{parse_hello, parse_reply};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_hello(data);
    if let Ok(reply) = parse_reply(data, 7) {
        let line = reply.to_json(7).to_string();
        assert_eq!(parse_reply(line.as_bytes(), 7), Ok(reply));
    }
});
