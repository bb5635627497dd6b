//! Every JWK, JWK Set and PEM input that must be refused, with its exact error code (JWS
//! refusals: `negative_jws.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_jose::{
    JoseError, KeySet, SigningKey, VerifyingKey, b64, load_public_keys, load_signing_key,
};
use common::expect_code;
use serde_json::{Value, json};

fn key(n: u8) -> SigningKey {
    SigningKey::from_secret_bytes(&[n; 32])
}

// ---------------------------------------------------------------- JWK and JWK Set

fn jwk_set(keys: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({ "keys": keys })).unwrap()
}

fn good_jwk(n: u8, kid: &str) -> Value {
    serde_json::to_value(key(n).verifying_key().to_jwk(Some(kid))).unwrap()
}

fn with(mut v: Value, member: &str, value: Value) -> Value {
    v[member] = value;
    v
}

fn without(mut v: Value, member: &str) -> Value {
    v.as_object_mut().unwrap().remove(member);
    v
}

#[track_caller]
fn set_rejects(keys: Value, code: &str, pointer: &str) -> JoseError {
    let e = expect_code(KeySet::from_json(&jwk_set(keys)), code);
    assert_eq!(e.pointer(), Some(pointer), "{e:?}");
    e
}

/// Small-order points of edwards25519 (RFC 8032 / "weak" keys): the identity, the point of
/// order 2, the points of order 4 and 8, canonical encodings.
const SMALL_ORDER: [&str; 5] = [
    "0100000000000000000000000000000000000000000000000000000000000000", // identity (order 1)
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
    "0000000000000000000000000000000000000000000000000000000000000000", // order 4
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
];

#[test]
fn small_order_public_keys_are_weak() {
    for hex_x in SMALL_ORDER {
        let x: [u8; 32] = hex::decode(hex_x).unwrap().try_into().unwrap();
        expect_code(VerifyingKey::from_bytes(&x), "key-weak");
        let jwk = with(good_jwk(1, "w"), "x", json!(b64::encode(&x)));
        set_rejects(json!([good_jwk(2, "ok"), jwk]), "jwk-weak-key", "/keys/1/x");
    }
}

#[test]
fn non_canonical_or_undecodable_points() {
    // y = p + 1 (encodes the identity non-canonically): refused as not canonical.
    let mut y = [0xffu8; 32];
    y[0] = 0xee;
    y[31] = 0x7f;
    expect_code(VerifyingKey::from_bytes(&y), "key-invalid-point");
    let jwk = with(good_jwk(1, "a"), "x", json!(b64::encode(&y)));
    set_rejects(json!([jwk]), "jwk-invalid-point", "/keys/0/x");
    // Some small y has no point on the curve.
    let mut found = false;
    for n in 2u8..=255 {
        let mut y = [0u8; 32];
        y[0] = n;
        if let Err(JoseError::KeyInvalidPoint) = VerifyingKey::from_bytes(&y) {
            let jwk = with(good_jwk(1, "a"), "x", json!(b64::encode(&y)));
            set_rejects(json!([jwk]), "jwk-invalid-point", "/keys/0/x");
            found = true;
            break;
        }
    }
    assert!(found);
}

#[test]
fn private_key_in_a_public_set() {
    let a1 = common::rfc8037()["a1_ed25519_private_key"]["jwk"].clone();
    set_rejects(
        json!([good_jwk(2, "ok"), with(a1.clone(), "kid", json!("leaked"))]),
        "jwk-private-key-published",
        "/keys/1/d",
    );
    // Also a single JWK, and through the auto-detecting loader.
    expect_code(
        load_public_keys(&serde_json::to_vec(&a1).unwrap()),
        "jwk-private-key-published",
    );
    // d is checked first: even a malformed d on an otherwise bad key reports the leak.
    let odd = json!({"kty": "RSA", "d": "AAAA"});
    set_rejects(json!([odd]), "jwk-private-key-published", "/keys/0/d");
}

#[test]
fn x_of_wrong_length() {
    let pk = key(1).verifying_key().to_bytes();
    for bad in [
        &pk[..31],
        &[pk.as_slice(), &[0]].concat()[..],
        &[][..],
        &[0u8; 64][..],
    ] {
        let jwk = with(good_jwk(1, "a"), "x", json!(b64::encode(bad)));
        let e = set_rejects(json!([jwk]), "jwk-invalid-key-length", "/keys/0/x");
        assert_eq!(
            e,
            JoseError::JwkInvalidKeyLength {
                at: "/keys/0/x".into(),
                len: bad.len()
            }
        );
    }
}

#[test]
fn jwk_member_checks() {
    let g = good_jwk(1, "a");
    // (member, its value, the code): the error points at the member; a member removed (None)
    // is an error of the key, at its pointer.
    let member_cases: [(&str, Option<Value>, &str); 11] = [
        ("kty", Some(json!("RSA")), "jwk-unsupported-key-type"),
        ("kty", Some(json!("EC")), "jwk-unsupported-key-type"),
        ("kty", Some(json!("oct")), "jwk-unsupported-key-type"),
        ("crv", Some(json!("X25519")), "jwk-unsupported-curve"),
        ("crv", Some(json!("Ed448")), "jwk-unsupported-curve"),
        ("crv", None, "jwk-malformed"),
        ("x", None, "jwk-malformed"),
        ("kty", None, "jwk-malformed"),
        ("use", Some(json!("enc")), "jwk-use-mismatch"),
        ("alg", Some(json!("RS256")), "jwk-alg-mismatch"),
        ("alg", Some(json!("none")), "jwk-alg-mismatch"),
    ];
    for (member, value, code) in member_cases {
        match value {
            Some(value) => set_rejects(
                json!([with(g.clone(), member, value)]),
                code,
                &format!("/keys/0/{member}"),
            ),
            None => set_rejects(json!([without(g.clone(), member)]), code, "/keys/0"),
        };
    }
    for member in ["kty", "crv", "x", "kid", "alg", "use", "d"] {
        for value in [json!(1), Value::Null] {
            set_rejects(
                json!([with(g.clone(), member, value)]),
                "jwk-malformed",
                &format!("/keys/0/{member}"),
            );
        }
    }
    // x with padding, standard alphabet, whitespace.
    let x = g["x"].as_str().unwrap().to_string();
    assert_eq!(x.len(), 43);
    for bad in [
        format!("{x}="),
        x.replace('_', "/").replace('-', "+"),
        format!(" {x}"),
    ] {
        if bad == x {
            continue;
        }
        set_rejects(
            json!([with(g.clone(), "x", json!(bad))]),
            "jwk-malformed",
            "/keys/0/x",
        );
    }
    set_rejects(json!(["not an object"]), "jwk-malformed", "/keys/0");
    // Unknown members are ignored (RFC 7517 §4), key_ops included.
    let extra = with(
        with(g.clone(), "key_ops", json!(["verify"])),
        "x-note",
        json!({"a": 1}),
    );
    KeySet::from_json(&jwk_set(json!([extra]))).unwrap();
}

#[test]
fn set_level_checks() {
    set_rejects(
        json!([good_jwk(1, "a"), good_jwk(2, "b"), good_jwk(3, "a")]),
        "jwk-duplicate-kid",
        "/keys/2/kid",
    );
    expect_code(KeySet::from_json(&jwk_set(json!([]))), "jwk-set-empty");
    expect_code(KeySet::new(vec![]), "jwk-set-empty");
    let e = expect_code(KeySet::from_json(br#"{"keys":{}}"#), "jwk-malformed");
    assert_eq!(e.pointer(), Some("/keys"));
    expect_code(KeySet::from_json(br#"[]"#), "jwk-malformed");
    expect_code(KeySet::from_json(br#"{"foo":1}"#), "jwk-malformed");
    expect_code(
        KeySet::from_json(br#"{"keys":[],"keys":[]}"#),
        "jwk-malformed",
    );
    let e = expect_code(
        KeySet::from_json(br#"{"keys":[{"kty":"OKP","kty":"OKP"}]}"#),
        "jwk-malformed",
    );
    assert_eq!(e.pointer(), Some("/keys/0/kty"));
    expect_code(KeySet::from_json(b"{\"keys\":[}"), "jwk-malformed");
    // Keys without kid may repeat; the same key twice under different kids is allowed.
    KeySet::from_json(&jwk_set(json!([
        without(good_jwk(1, "a"), "kid"),
        without(good_jwk(2, "b"), "kid")
    ])))
    .unwrap();
    KeySet::from_json(&jwk_set(json!([good_jwk(1, "a"), good_jwk(1, "b")]))).unwrap();
    // Other members of the set are ignored.
    let text = serde_json::to_vec(&json!({"keys": [good_jwk(1, "a")], "comment": "x"})).unwrap();
    KeySet::from_json(&text).unwrap();
}

#[test]
fn private_jwk_checks() {
    let a1 = common::rfc8037()["a1_ed25519_private_key"]["jwk"].clone();
    let text = |v: &Value| serde_json::to_vec(v).unwrap();
    load_signing_key(&text(&a1)).unwrap();
    let e = expect_code(
        load_signing_key(&text(&without(a1.clone(), "d"))),
        "jwk-private-key-missing",
    );
    assert_eq!(e.pointer(), Some(""));
    let other_x = key(9).verifying_key().to_jwk(None).x.unwrap();
    let e = expect_code(
        load_signing_key(&text(&with(a1.clone(), "x", json!(other_x)))),
        "jwk-key-mismatch",
    );
    assert_eq!(e.pointer(), Some("/x"));
    expect_code(
        load_signing_key(&text(&without(a1.clone(), "x"))),
        "jwk-malformed",
    );
    let e = expect_code(
        load_signing_key(&text(&with(a1.clone(), "d", json!("AAAA")))),
        "jwk-invalid-key-length",
    );
    assert_eq!(e.pointer(), Some("/d"));
    expect_code(
        load_signing_key(&text(&with(a1.clone(), "crv", json!("Ed448")))),
        "jwk-unsupported-curve",
    );
}

// ---------------------------------------------------------------- PEM and format detection

const P256_SPKI: &str = "-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEcgABxQm71a8K5UFjF3CMNLDl7IK5
9BRlixaiEEtSHoZk5yyNIROFPD+oeNfDnlmjon42bUA2vNj73kpy+aZJ6g==
-----END PUBLIC KEY-----
";
const P256_PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFTMDF5FPNWbUwSt5
iaIofNJDRFiREA21KXh7rvz5YXahRANCAARyAAHFCbvVrwrlQWMXcIw0sOXsgrn0
FGWLFqIQS1IehmTnLI0hE4U8P6h418OeWaOifjZtQDa82PveSnL5pknq
-----END PRIVATE KEY-----
";
const X25519_SPKI: &str = "-----BEGIN PUBLIC KEY-----
MCowBQYDK2VuAyEAH0k5g0sTrp5h7kprgaIMkTf1q7SryFTyRvzSCPGeGy0=
-----END PUBLIC KEY-----
";
const X25519_PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VuBCIEIIBUxcsK3pi4tupNTxKDKFQWcCeALOn8A9KdVfsKto1m
-----END PRIVATE KEY-----
";
const ED448_SPKI: &str = "-----BEGIN PUBLIC KEY-----
MEMwBQYDK2VxAzoAlc2FKQFxmAf5Olgl/xXhqYxGYDUJKf2CrUo3KXowW+YMdZMW
tn/qXuaaF9HkreN2Oraj7jPs6CQA
-----END PUBLIC KEY-----
";

#[test]
fn pem_of_other_algorithms() {
    for pem in [P256_SPKI, X25519_SPKI, ED448_SPKI] {
        expect_code(
            VerifyingKey::from_spki_pem(pem),
            "key-unsupported-algorithm",
        );
        expect_code(
            load_public_keys(pem.as_bytes()),
            "key-unsupported-algorithm",
        );
    }
    for pem in [P256_PKCS8, X25519_PKCS8] {
        expect_code(SigningKey::from_pkcs8_pem(pem), "key-unsupported-algorithm");
        expect_code(
            load_signing_key(pem.as_bytes()),
            "key-unsupported-algorithm",
        );
    }
}

#[test]
fn private_pem_where_public_expected() {
    let pem = key(1).to_pkcs8_pem().unwrap();
    expect_code(
        VerifyingKey::from_spki_pem(&pem),
        "key-private-key-published",
    );
    expect_code(
        load_public_keys(pem.as_bytes()),
        "key-private-key-published",
    );
    // And the other way round: a public PEM is no signing key.
    let public = key(1).verifying_key().to_spki_pem().unwrap();
    expect_code(SigningKey::from_pkcs8_pem(&public), "key-pem-malformed");
}

#[test]
fn malformed_pem() {
    let good = key(1).verifying_key().to_spki_pem().unwrap();
    let cases = [
        good.replace("PUBLIC KEY", "RSA PUBLIC KEY"),
        good.replace("-----END PUBLIC KEY-----", "-----END PRIVATE KEY-----"),
        good.replace("MCow", "MCox"),
        good.replace("MCow", "MC*w"),
        good.lines().take(2).collect::<Vec<_>>().join("\n"),
        "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n".into(),
        "-----BEGIN ".into(),
        format!("{good}trailing text"),
        format!("{good}{good}"), // one key per document
        format!("{good}{}", key(1).to_pkcs8_pem().unwrap().as_str()),
        good.replacen("KEY-----", "KEY----- ", 1),
    ];
    for bad in cases {
        expect_code(load_public_keys(bad.as_bytes()), "key-pem-malformed");
    }
    expect_code(
        SigningKey::from_pkcs8_pem(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
        ),
        "key-pem-malformed",
    );
}

#[test]
fn weak_key_in_spki_pem() {
    // SPKI prefix for Ed25519 (RFC 8410) + the identity point.
    let mut der = hex::decode("302a300506032b6570032100").unwrap();
    der.extend(hex::decode(SMALL_ORDER[0]).unwrap());
    let pem = pem_of("PUBLIC KEY", &der);
    expect_code(VerifyingKey::from_spki_pem(&pem), "key-weak");
    expect_code(load_public_keys(pem.as_bytes()), "key-weak");
}

fn pem_of(label: &str, der: &[u8]) -> String {
    use base64::Engine as _;
    let body = base64::engine::general_purpose::STANDARD.encode(der);
    let lines: Vec<&str> = body
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    format!(
        "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
        lines.join("\n")
    )
}

#[test]
fn pkcs8_with_mismatched_public_key() {
    // A PKCS#8 v2 (RFC 5958 OneAsymmetricKey) document: version 1, then `[1] publicKey`
    // (IMPLICIT BIT STRING: 81 21 00 <32 bytes>), as in RFC 8410 §10.3.
    let v2 = |secret: &[u8; 32], public: &[u8; 32]| {
        let mut der = hex::decode("3051020101300506032b657004220420").unwrap();
        der.extend_from_slice(secret);
        der.extend_from_slice(&[0x81, 0x21, 0x00]);
        der.extend_from_slice(public);
        pem_of("PRIVATE KEY", &der)
    };
    let (s1, p1, p2) = (
        [1u8; 32],
        key(1).verifying_key().to_bytes(),
        key(2).verifying_key().to_bytes(),
    );
    // Matching public key: accepted (we read v2 even though we write v1).
    assert_eq!(
        SigningKey::from_pkcs8_pem(&v2(&s1, &p1))
            .unwrap()
            .verifying_key()
            .to_bytes(),
        p1
    );
    expect_code(SigningKey::from_pkcs8_pem(&v2(&s1, &p2)), "key-mismatch");
}

#[test]
fn unknown_key_formats() {
    for input in [
        &b""[..],
        b"   ",
        b"hello",
        b"[1,2]",
        b"\x30\x2a\x30\x05",
        b"\xff\xfe",
    ] {
        expect_code(load_public_keys(input), "key-format-unknown");
        expect_code(load_signing_key(input), "key-format-unknown");
    }
    let big = vec![b' '; citeproof_jose::MAX_KEY_INPUT_BYTES + 1];
    expect_code(load_public_keys(&big), "key-input-too-large");
    expect_code(KeySet::from_json(&big), "key-input-too-large");
}
