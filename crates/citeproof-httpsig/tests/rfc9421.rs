//! RFC 9421 Appendix B: signature bases of B.2.1–B.2.6 byte for byte, the B.2.6 Ed25519
//! signature byte for byte, verification of the published signature, and tamper detection.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_httpsig::*;
use common::{read_bytes, read_text};

const CREATED: i64 = 1_618_884_473;

fn test_request() -> Message {
    parse_http1(&read_bytes("rfc9421/test-request.http")).expect("B.2 test-request parses")
}

fn test_response() -> Message {
    parse_http1(&read_bytes("rfc9421/test-response.http")).expect("B.2 test-response parses")
}

/// The message each Appendix B.2 example signs.
fn message_for(case: &str) -> Message {
    if case == "b2_4" {
        test_response()
    } else {
        test_request()
    }
}

const CASES: [&str; 6] = ["b2_1", "b2_2", "b2_3", "b2_4", "b2_5", "b2_6"];

fn published_input(case: &str) -> (String, SignatureParams) {
    let text = read_text(&format!("rfc9421/{case}-signature-input.txt"));
    let mut members = parse_signature_input(&text).expect("published Signature-Input parses");
    assert_eq!(members.len(), 1);
    members.remove(0)
}

fn published_base(case: &str) -> String {
    read_text(&format!("rfc9421/{case}-signature-base.txt"))
}

fn id(name: &str) -> ComponentId {
    ComponentId::new(name).expect("valid component")
}

/// Parameters covering `components`, created at [`CREATED`] under `keyid`.
fn created_by(components: &[&str], keyid: &str) -> SignatureParams {
    SignatureParams::new(components.iter().map(|c| id(c)).collect())
        .with_created(CREATED)
        .with_keyid(keyid)
}

/// The same parameters built through the API, independently of the Signature-Input parser.
fn api_params(case: &str) -> SignatureParams {
    match case {
        "b2_1" => SignatureParams::new(vec![])
            .with_created(CREATED)
            .with_keyid("test-key-rsa-pss")
            .with_nonce("b3k2pp5k7z-50gnwp.yemd"),
        "b2_2" => SignatureParams::new(vec![
            id("@authority"),
            id("content-digest"),
            ComponentId::query_param("Pet").unwrap(),
        ])
        .with_created(CREATED)
        .with_keyid("test-key-rsa-pss")
        .with_tag("header-example"),
        "b2_3" => created_by(
            &[
                "date",
                "@method",
                "@path",
                "@query",
                "@authority",
                "content-type",
                "content-digest",
                "content-length",
            ],
            "test-key-rsa-pss",
        ),
        "b2_4" => created_by(
            &[
                "@status",
                "content-type",
                "content-digest",
                "content-length",
            ],
            "test-key-ecc-p256",
        ),
        "b2_5" => SignatureParams::new(["date", "@authority", "content-type"].map(id).to_vec())
            .with_created(CREATED)
            .with_keyid("test-shared-secret"),
        "b2_6" => b26_params(),
        other => panic!("unknown case {other}"),
    }
}

fn b26_params() -> SignatureParams {
    SignatureParams::new(
        [
            "date",
            "@method",
            "@path",
            "@authority",
            "content-type",
            "content-length",
        ]
        .map(id)
        .to_vec(),
    )
    .with_created(CREATED)
    .with_keyid("test-key-ed25519")
}

#[test]
fn published_signature_inputs_round_trip_byte_for_byte() {
    for case in CASES {
        let text = read_text(&format!("rfc9421/{case}-signature-input.txt"));
        let (label, params) = published_input(case);
        assert_eq!(
            format!("{label}={}", params.serialize().unwrap()),
            text,
            "{case}"
        );
        assert_eq!(params, api_params(case), "{case}: parser and API agree");
    }
}

#[test]
fn signature_bases_b2_1_to_b2_6_reproduced_byte_for_byte_from_published_input() {
    for case in CASES {
        let (_, params) = published_input(case);
        let base = signature_base(&message_for(case), &params).expect(case);
        assert_eq!(base, published_base(case), "{case}");
    }
}

#[test]
fn signature_bases_b2_1_to_b2_6_reproduced_byte_for_byte_from_api_params() {
    for case in CASES {
        let base = signature_base(&message_for(case), &api_params(case)).expect(case);
        assert_eq!(base.as_bytes(), published_base(case).as_bytes(), "{case}");
    }
}

#[test]
fn b1_4_key_pair_is_consistent() {
    let sk = signing_key_from_pem(&read_text("rfc9421/test-key-ed25519-private.pem")).unwrap();
    let pk = verifying_key_from_pem(&read_text("rfc9421/test-key-ed25519-public.pem")).unwrap();
    assert_eq!(sk.verifying_key(), pk);
}

#[test]
fn b2_6_signing_reproduces_the_published_signature_byte_for_byte() {
    let sk = signing_key_from_pem(&read_text("rfc9421/test-key-ed25519-private.pem")).unwrap();
    let signed = sign(&test_request(), "sig-b26", &b26_params(), &sk).unwrap();
    assert_eq!(signed.signature_base, published_base("b2_6"));
    assert_eq!(
        signed.signature_input,
        read_text("rfc9421/b2_6-signature-input.txt")
    );
    assert_eq!(signed.signature, read_text("rfc9421/b2_6-signature.txt"));
    // Deterministic: a second run gives the same bytes.
    let again = sign(&test_request(), "sig-b26", &b26_params(), &sk).unwrap();
    assert_eq!(signed, again);
}

/// The B.2 test request with the published B.2.6 `Signature-Input` and `Signature` attached.
fn signed_b26_request() -> Message {
    let mut msg = test_request();
    let h = msg.headers_mut();
    h.push(
        "Signature-Input",
        &read_text("rfc9421/b2_6-signature-input.txt"),
    )
    .unwrap();
    h.push("Signature", &read_text("rfc9421/b2_6-signature.txt"))
        .unwrap();
    msg
}

fn rfc_public_key() -> VerifyingKey {
    verifying_key_from_pem(&read_text("rfc9421/test-key-ed25519-public.pem")).unwrap()
}

#[test]
fn b2_6_published_signature_verifies() {
    let msg = signed_b26_request();
    let policy = VerifyPolicy {
        required_params: vec![ParamName::Created, ParamName::KeyId],
        required_components: vec![id("@method"), id("@authority"), id("@path")],
        ..VerifyPolicy::default()
    };
    for selector in [LabelSelector::Label("sig-b26"), LabelSelector::Any] {
        let ok = verify(&msg, &rfc_public_key(), selector, &policy, CREATED).unwrap();
        assert_eq!(ok.label, "sig-b26");
        assert_eq!(ok.params.keyid(), Some("test-key-ed25519"));
        assert_eq!(ok.signature_base, published_base("b2_6"));
    }
}

#[test]
fn b2_6_published_message_text_verifies_through_the_parser() {
    // The same request as HTTP/1.1 text with CRLF line endings and the signature fields added,
    // as a CLI user would hand it over.
    let raw = read_text("rfc9421/test-request.http");
    let (head, body) = raw.split_once("\n\n").unwrap();
    let text = format!(
        "{}\r\nSignature-Input: {}\r\nSignature: {}\r\n\r\n{}",
        head.replace('\n', "\r\n"),
        read_text("rfc9421/b2_6-signature-input.txt"),
        read_text("rfc9421/b2_6-signature.txt"),
        body
    );
    let msg = parse_http1(text.as_bytes()).unwrap();
    verify(
        &msg,
        &rfc_public_key(),
        LabelSelector::Label("sig-b26"),
        &VerifyPolicy::default(),
        CREATED,
    )
    .unwrap();
}

fn verify_b26(msg: &Message) -> Result<VerifiedSignature> {
    verify(
        msg,
        &rfc_public_key(),
        LabelSelector::Label("sig-b26"),
        &VerifyPolicy::default(),
        CREATED,
    )
}

fn mutate_byte(s: &str, i: usize) -> String {
    let mut b = s.as_bytes().to_vec();
    b[i] = if b[i] == b'0' { b'1' } else { b'0' };
    String::from_utf8(b).unwrap()
}

#[test]
fn any_one_byte_change_to_a_covered_field_fails() {
    for field in ["Date", "Content-Type", "Content-Length", "Host"] {
        let original = signed_b26_request()
            .headers()
            .combined(field)
            .unwrap()
            .to_owned();
        for i in 0..original.len() {
            let mut msg = signed_b26_request();
            let changed = mutate_byte(&original, i);
            msg.headers_mut().remove_all(field);
            msg.headers_mut().push(field, &changed).unwrap();
            if field == "Host" {
                // `@authority` comes from the target URI, which the parser derives from Host.
                let Message::Request(r) = &mut msg else {
                    unreachable!()
                };
                r.target = TargetUri::parse(&format!("https://{changed}/foo?param=Value&Pet=dog"))
                    .unwrap();
            }
            let err = verify_b26(&msg).unwrap_err();
            assert_eq!(
                err,
                HttpSigError::SignatureInvalid {
                    label: "sig-b26".into()
                },
                "{field} byte {i}: {changed:?}"
            );
        }
    }
}

#[test]
fn any_one_byte_change_to_the_request_line_components_fails() {
    let raw = read_text("rfc9421/test-request.http");
    let sig_lines = format!(
        "Signature-Input: {}\nSignature: {}\n",
        read_text("rfc9421/b2_6-signature-input.txt"),
        read_text("rfc9421/b2_6-signature.txt")
    );
    let (head, body) = raw.split_once("\n\n").unwrap();
    let signed_text = format!("{head}\n{sig_lines}\n{body}");
    verify_b26(&parse_http1(signed_text.as_bytes()).unwrap()).unwrap();

    // `@method` is bytes 0..4 ("POST"), `@path` is bytes 5..9 ("/foo"), `@authority` the Host value.
    let host_at = signed_text.find("Host: ").unwrap() + "Host: ".len();
    let spans = [(0, 4), (5, 9), (host_at, host_at + "example.com".len())];
    let mut signature_failures = 0;
    for (from, to) in spans {
        for i in from..to {
            let changed = mutate_byte(&signed_text, i);
            match parse_http1(changed.as_bytes()) {
                // A change that breaks the message syntax also fails (e.g. a path not starting
                // with '/').
                Err(e) => assert_eq!(e.code(), "httpsig-message-syntax"),
                Ok(msg) => {
                    assert_eq!(
                        verify_b26(&msg).unwrap_err().code(),
                        "httpsig-signature-invalid",
                        "byte {i}"
                    );
                    signature_failures += 1;
                }
            }
        }
    }
    assert!(signature_failures >= 14, "{signature_failures}");
}

#[test]
fn any_one_byte_change_to_the_signature_fails() {
    let published = read_text("rfc9421/b2_6-signature.txt");
    let (_, sig) = parse_signature(&published).unwrap().remove(0);
    for i in 0..sig.len() {
        for bit in [0x01u8, 0x80] {
            let mut bad = sig.clone();
            bad[i] ^= bit;
            let mut msg = signed_b26_request();
            msg.headers_mut().remove_all("Signature");
            let value = format!("sig-b26=:{}:", base64_encode(&bad));
            msg.headers_mut().push("Signature", &value).unwrap();
            assert_eq!(
                verify_b26(&msg).unwrap_err().code(),
                "httpsig-signature-invalid",
                "byte {i} bit {bit:#x}"
            );
        }
    }
}

#[test]
fn b2_4_response_base_needs_status_and_rejects_it_on_requests() {
    let (_, params) = published_input("b2_4");
    // Applied to the request instead of the response, `@status` is an error.
    assert_eq!(
        signature_base(&test_request(), &params).unwrap_err(),
        HttpSigError::StatusOnRequest
    );
}

#[test]
fn b2_content_digests_match_the_message_content() {
    for msg in [test_request(), test_response()] {
        let value = msg.headers().combined("content-digest").unwrap();
        assert_eq!(
            check_content_digest(&value, msg.body()).unwrap(),
            vec!["sha-512"]
        );
    }
}

fn base64_encode(bytes: &[u8]) -> String {
    citeproof_testkit::base64_std(bytes)
}
