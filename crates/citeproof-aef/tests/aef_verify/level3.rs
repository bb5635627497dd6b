//! Level 3 failures (signatures, keys, trust): each gives Level 2.

use super::*;

fn jws_with_header(header: &str, signature: &[u8]) -> String {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    format!(
        "{}..{}",
        URL_SAFE_NO_PAD.encode(header),
        URL_SAFE_NO_PAD.encode(signature)
    )
}

#[test]
pub(crate) fn level_3_failures_give_level_2() {
    let good = signed(&evidence(), "k1");
    let good_sig = good["verification"]["signature"]
        .as_str()
        .unwrap()
        .to_owned();
    let with_sig = |s: &str| {
        let mut d = good.clone();
        set(&mut d, "/verification/signature", json!(s));
        d
    };
    let key_doc = |body: Value| {
        let mut r = resources();
        r.insert(
            KEYS.into(),
            stored(200, &[], &serde_json::to_vec(&body).unwrap()),
        );
        r
    };
    let x = key().verifying_key().to_jwk(None).x;
    let cases: Vec<(Value, BTreeMap<String, StoredResponse>, Vec<&str>)> = vec![
        (evidence(), resources(), vec!["aef-signature-missing"]),
        (
            {
                let mut d = good.clone();
                set(
                    &mut d,
                    "/claim_text",
                    json!("The AEO Protocol defines four pillars."),
                );
                d
            },
            resources(),
            vec!["aef-signature-invalid"],
        ),
        (
            {
                // signed_by is inside the payload
                let mut d = good.clone();
                set(&mut d, "/verification/signed_by", json!("someone-else"));
                d
            },
            resources(),
            vec!["aef-signature-invalid"],
        ),
        (
            signed(&evidence(), "k2"),
            resources(),
            vec!["aef-key-unresolved"],
        ),
        (
            good.clone(),
            BTreeMap::from([(PAGE.to_owned(), resources()[PAGE].clone())]),
            vec!["aef-key-unresolved", "fetch-not-in-snapshot"],
        ),
        (
            {
                let mut d = good.clone();
                remove(&mut d, "/verification/signing_key_uri");
                d
            },
            resources(),
            vec!["aef-key-unresolved"],
        ),
        (
            {
                let mut d = good.clone();
                set(
                    &mut d,
                    "/verification/signing_key_uri",
                    json!("http://keys.example.com/aef.json"),
                );
                d
            },
            resources(),
            vec!["aef-key-unresolved"],
        ),
        (
            with_sig(&good_sig.replace("..", ".e30.")),
            resources(),
            vec!["jws-payload-attached"],
        ),
        (with_sig("abc"), resources(), vec!["jws-malformed"]),
        (
            with_sig(&"a".repeat(70_000)),
            resources(),
            vec!["jws-too-large"],
        ),
        (
            with_sig(&format!("{}=..{}", "eyJhbGciOiJFZERTQSJ9", "AA")),
            resources(),
            vec!["jws-base64-invalid"],
        ),
        (
            with_sig(&jws_with_header("[1]", &[0; 64])),
            resources(),
            vec!["jws-header-invalid"],
        ),
        (
            with_sig(&jws_with_header("{}", &[0; 64])),
            resources(),
            vec!["jws-alg-missing"],
        ),
        (
            with_sig(&jws_with_header(r#"{"alg":"none"}"#, &[0; 64])),
            resources(),
            vec!["jws-alg-forbidden"],
        ),
        (
            with_sig(&jws_with_header(r#"{"alg":"HS256"}"#, &[0; 64])),
            resources(),
            vec!["jws-alg-forbidden"],
        ),
        (
            with_sig(&jws_with_header(
                r#"{"alg":"EdDSA","crit":["exp"]}"#,
                &[0; 64],
            )),
            resources(),
            vec!["jws-crit-unsupported"],
        ),
        (
            with_sig(&jws_with_header(r#"{"alg":"EdDSA","b64":false}"#, &[0; 64])),
            resources(),
            vec!["jws-b64-unsupported"],
        ),
        (
            with_sig(&jws_with_header(r#"{"alg":"EdDSA","kid":"k1"}"#, &[0; 63])),
            resources(),
            vec!["aef-signature-invalid"],
        ),
        (
            good.clone(),
            key_doc(json!({ "keys": [] })),
            vec!["aef-key-unresolved", "jwk-set-empty"],
        ),
        (
            good.clone(),
            key_doc(json!({ "kty": "RSA", "n": "x", "e": "AQAB" })),
            vec!["aef-key-unresolved", "jwk-unsupported-key-type"],
        ),
        (
            good.clone(),
            key_doc(json!({ "kty": "OKP", "crv": "X25519", "x": x })),
            vec!["aef-key-unresolved", "jwk-unsupported-curve"],
        ),
        (
            good.clone(),
            key_doc(json!({ "kty": "OKP", "crv": "Ed25519", "x": "AAAA" })),
            vec!["aef-key-unresolved", "jwk-invalid-key-length"],
        ),
        (
            good.clone(),
            key_doc(json!({ "kty": "OKP", "crv": "Ed25519", "x": x, "d": x })),
            vec!["aef-key-unresolved", "jwk-private-key-published"],
        ),
        (
            good.clone(),
            key_doc(json!({ "kty": "OKP", "crv": "Ed25519", "x": x, "use": "enc" })),
            vec!["aef-key-unresolved", "jwk-use-mismatch"],
        ),
        (
            good.clone(),
            key_doc(json!({ "kty": "OKP", "crv": "Ed25519", "x": x, "alg": "ES256" })),
            vec!["aef-key-unresolved", "jwk-alg-mismatch"],
        ),
        (
            good.clone(),
            key_doc(json!({ "kty": "OKP", "crv": "Ed25519", "x": 5 })),
            vec!["aef-key-unresolved", "jwk-malformed"],
        ),
        (
            good.clone(),
            // The identity point (0, 1) encodes as 01 00..00: small order.
            key_doc(
                json!({ "kty": "OKP", "crv": "Ed25519", "x": "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }),
            ),
            vec!["aef-key-unresolved", "jwk-weak-key"],
        ),
        (
            good.clone(),
            // y = 2^255 - 1 >= p: not a canonical encoding.
            key_doc(
                json!({ "kty": "OKP", "crv": "Ed25519", "x": "__________________________________________8" }),
            ),
            vec!["aef-key-unresolved", "jwk-invalid-point"],
        ),
        (
            good.clone(),
            key_doc(json!({ "keys": [
                serde_json::to_value(key().verifying_key().to_jwk(Some("k1"))).unwrap(),
                serde_json::to_value(key().verifying_key().to_jwk(Some("k1"))).unwrap()
            ] })),
            vec!["aef-key-unresolved", "jwk-duplicate-kid"],
        ),
    ];
    for (i, (doc, res, want)) in cases.into_iter().enumerate() {
        let r = run(&doc, res, Some(3));
        assert_eq!(r.verdict.level, 2, "case {i}: {:?}", codes(&r));
        for w in &want {
            assert!(
                codes(&r).contains(w),
                "case {i}: {w} missing from {:?}",
                codes(&r)
            );
        }
    }
}
