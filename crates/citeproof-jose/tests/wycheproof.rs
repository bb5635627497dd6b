//! Project Wycheproof `ed25519_test.json` (151 tests): every test through the strict verify
//! primitive, with the published result; every group key through the JWK and PEM loaders.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_jose::{KeySet, VerifyingKey, load_public_keys};
use citeproof_model::jwk::Jwk;
use common::read_json;
use serde_json::Value;

fn groups() -> Vec<Value> {
    let file = read_json("wycheproof/ed25519_test.json");
    assert_eq!(file["algorithm"], "EDDSA");
    assert_eq!(file["numberOfTests"], 151);
    file["testGroups"].as_array().unwrap().clone()
}

fn pk_bytes(group: &Value) -> [u8; 32] {
    let pk = hex::decode(group["publicKey"]["pk"].as_str().unwrap()).unwrap();
    pk.try_into().unwrap()
}

#[test]
fn all_151_tests_give_the_published_result() {
    let (mut run, mut valid, mut invalid) = (0, 0, 0);
    let mut failures = Vec::new();
    for group in groups() {
        assert_eq!(group["type"], "EddsaVerify");
        let key = VerifyingKey::from_bytes(&pk_bytes(&group));
        for test in group["tests"].as_array().unwrap() {
            run += 1;
            let id = test["tcId"].as_u64().unwrap();
            let msg = hex::decode(test["msg"].as_str().unwrap()).unwrap();
            let sig = hex::decode(test["sig"].as_str().unwrap()).unwrap();
            let expected = test["result"].as_str().unwrap();
            assert!(
                expected == "valid" || expected == "invalid",
                "tcId {id}: result {expected:?}"
            );
            let got = match &key {
                Ok(key) => key.verify(&msg, &sig),
                // A group key we refuse: every test of the group must then be invalid.
                Err(e) => Err(e.clone()),
            };
            match (expected, &got) {
                ("valid", Ok(())) => valid += 1,
                ("invalid", Err(e)) => {
                    invalid += 1;
                    if key.is_ok() {
                        assert_eq!(e.code(), "jws-signature-invalid", "tcId {id}");
                    }
                }
                _ => failures.push(format!(
                    "tcId {id} ({}, flags {}): expected {expected}, got {got:?}",
                    test["comment"], test["flags"]
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((run, valid, invalid), (151, 88, 63));
}

/// RFC 8032 TEST 1 (tcId 80 in this file, the key of RFC 8037 A.1) signs with our signer to the
/// published bytes.
#[test]
fn rfc8032_test1_is_reproduced_by_the_signer() {
    let secret: [u8; 32] =
        hex::decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
            .unwrap()
            .try_into()
            .unwrap();
    let key = citeproof_jose::SigningKey::from_secret_bytes(&secret);
    let found = groups()
        .into_iter()
        .flat_map(|g| {
            let pk = pk_bytes(&g);
            g["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |t| (pk, t.clone()))
                .collect::<Vec<_>>()
        })
        .find(|(_, t)| t["tcId"] == 80)
        .unwrap();
    assert_eq!(found.0, key.verifying_key().to_bytes());
    assert_eq!(found.1["msg"], "");
    assert_eq!(hex::encode(key.sign(b"")), found.1["sig"].as_str().unwrap());
}

#[test]
fn group_keys_load_from_their_jwk_and_pem() {
    for group in groups() {
        let pk = pk_bytes(&group);
        let raw = VerifyingKey::from_bytes(&pk).unwrap();

        let jwk: Jwk = serde_json::from_value(group["publicKeyJwk"].clone()).unwrap();
        assert_eq!(VerifyingKey::from_jwk(&jwk).unwrap(), raw);
        let jwk_text = serde_json::to_vec(&group["publicKeyJwk"]).unwrap();
        let set: KeySet = load_public_keys(&jwk_text).unwrap();
        assert_eq!(set.entries()[0].key, raw);
        assert_eq!(set.entries()[0].kid.as_deref(), jwk.kid.as_deref());

        let pem = group["publicKeyPem"].as_str().unwrap();
        assert_eq!(VerifyingKey::from_spki_pem(pem).unwrap(), raw);
        assert_eq!(
            load_public_keys(pem.as_bytes()).unwrap().entries()[0].key,
            raw
        );
        // Our SPKI PEM encoding is the same document (same DER, same base64 lines).
        assert_eq!(raw.to_spki_pem().unwrap(), pem);
    }
}
