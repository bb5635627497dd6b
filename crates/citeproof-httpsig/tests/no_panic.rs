//! Property tests: no input makes the parsers, the digest checker or the verifier panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_httpsig::*;
use common::{read_bytes, read_text};
use proptest::prelude::*;

/// Characters that matter to structured fields, so random strings often get deep into the parser.
const SF_CHARS: &str = "[a-z0-9=();:\"@ ,*.\\-_/+?%\\\\\t]{0,120}";

fn rfc_key() -> VerifyingKey {
    verifying_key_from_pem(&read_text("rfc9421/test-key-ed25519-public.pem")).unwrap()
}

fn signed_b26_text() -> Vec<u8> {
    let raw = read_text("rfc9421/test-request.http");
    let (head, body) = raw.split_once("\n\n").unwrap();
    format!(
        "{head}\nSignature-Input: {}\nSignature: {}\n\n{body}",
        read_text("rfc9421/b2_6-signature-input.txt"),
        read_text("rfc9421/b2_6-signature.txt")
    )
    .into_bytes()
}

fn exercise_message(msg: &Message) {
    let key = rfc_key();
    let _ = verify(
        msg,
        &key,
        LabelSelector::Any,
        &VerifyPolicy::default(),
        1_618_884_473,
    );
    let _ = verify(
        msg,
        &key,
        LabelSelector::Label("sig-b26"),
        &VerifyPolicy::default(),
        i64::MAX,
    );
    let _ = verify(
        msg,
        &key,
        LabelSelector::Label("sig-b26"),
        &VerifyPolicy {
            max_clock_skew: u64::MAX,
            max_age: Some(u64::MAX),
            ..VerifyPolicy::default()
        },
        i64::MIN,
    );
    let _ = msg.to_http1();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parse_http1_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(msg) = parse_http1(&bytes) {
            exercise_message(&msg);
        }
    }

    #[test]
    fn parse_http1_text_never_panics(text in "(GET|POST|HTTP/1\\.1) [ -~]{0,40}(\r?\n[!-~]{0,12}: ?[ -~]{0,40}){0,6}\r?\n\r?\n[ -~]{0,20}") {
        if let Ok(msg) = parse_http1(text.as_bytes()) {
            exercise_message(&msg);
        }
    }

    #[test]
    fn mutated_signed_message_never_panics(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)
    ) {
        let original = signed_b26_text();
        let mut bytes = original.clone();
        for (pos, b) in &edits {
            let i = pos % bytes.len();
            bytes[i] = *b;
        }
        if let Ok(msg) = parse_http1(&bytes) {
            exercise_message(&msg);
        }
    }

    #[test]
    fn signature_input_parser_never_panics(s in SF_CHARS) {
        if let Ok(members) = parse_signature_input(&s) {
            for (label, params) in members {
                // Whatever parses serializes and builds a base (or fails) without panicking.
                let _ = params.serialize();
                let msg = parse_http1(&read_bytes("rfc9421/test-request.http")).unwrap();
                let _ = signature_base(&msg, &params);
                prop_assert!(!label.is_empty());
            }
        }
    }

    #[test]
    fn signature_input_parser_never_panics_on_any_string(s in ".{0,200}") {
        let _ = parse_signature_input(&s);
        let _ = parse_signature(&s);
        let _ = check_content_digest(&s, b"");
        let _ = ComponentId::parse(&s);
    }

    #[test]
    fn signature_parser_never_panics(s in SF_CHARS) {
        let _ = parse_signature(&s);
    }

    #[test]
    fn digest_checker_never_panics(s in SF_CHARS, body in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = check_content_digest(&s, &body);
    }

    #[test]
    fn component_parser_never_panics(s in SF_CHARS) {
        if let Ok(id) = ComponentId::parse(&s) {
            let _ = id.serialize();
            let msg = parse_http1(&read_bytes("rfc9421/test-response.http")).unwrap();
            let _ = signature_base(&msg, &SignatureParams::new(vec![id]));
        }
    }

    #[test]
    fn digest_round_trip(body in proptest::collection::vec(any::<u8>(), 0..256)) {
        prop_assert!(check_content_digest(&content_digest_sha256(&body), &body).is_ok());
        prop_assert!(check_content_digest(&content_digest_sha512(&body), &body).is_ok());
    }
}

#[test]
fn unmutated_signed_message_verifies() {
    let msg = parse_http1(&signed_b26_text()).unwrap();
    verify(
        &msg,
        &rfc_key(),
        LabelSelector::Any,
        &VerifyPolicy::default(),
        1_618_884_473,
    )
    .unwrap();
}
