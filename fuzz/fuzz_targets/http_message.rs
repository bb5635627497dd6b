//! HTTP/1.1 message parsing and RFC 9421 verification on hostile input: never panics, and a
//! message that parses re-serializes to a message that parses to the same thing.
#![no_main]

use citeproof_httpsig::{
    LabelSelector, Message, SigningKey, VerifyPolicy, parse_http1, parse_signature,
    parse_signature_input, verify,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_signature_input(text);
        let _ = parse_signature(text);
    }
    let Ok(message) = parse_http1(data) else { return };
    let again = parse_http1(&message.to_http1()).expect("serialized message must parse");
    assert_eq!(again.to_http1(), message.to_http1());
    let key = SigningKey::from_bytes(&[7u8; 32]).verifying_key();
    let _: Result<_, _> = verify(&message, &key, LabelSelector::Any, &VerifyPolicy::default(), 0);
    let _ = matches!(message, Message::Request(_));
});
