//! The runner's reading of adapter lines (hello and replies) on arbitrary bytes: never panics,
//! and an accepted reply re-serializes to a line that parses to the same reply. The transport
//! reader (any Unicode scalar, lone surrogate escapes read as U+FFFD, duplicates refused) is
//! fuzzed directly too.

#![no_main]

use citeproof_conformance::{
    protocol::{parse_any_reply, parse_hello, parse_reply},
    transport,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_hello(data);
    let _ = parse_any_reply(data);
    if let Ok(value) = transport::parse_line(data) {
        // What was read is a JSON value again.
        let text = value.to_string();
        assert_eq!(transport::parse_line(text.as_bytes()).ok(), Some(value));
    }
    if let Ok(reply) = parse_reply(data, 7) {
        let line = reply.to_json(7).to_string();
        assert_eq!(parse_reply(line.as_bytes(), 7), Ok(reply));
    }
});
