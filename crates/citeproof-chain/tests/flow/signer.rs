//! The signer: what it refuses to sign, and the seed's envelope shape it writes.

use super::*;
use citeproof_chain::sign::SignError;

#[test]
fn the_signer_refuses_what_it_must_not_sign() {
    let opts = options();
    let short = sign(claim("x").as_bytes(), SignKey::Hmac("short"), &opts);
    assert!(matches!(short, Err(SignError::WeakSecret(5))));
    let wrong_id = claim("x").replacen('{', "{\"id\":\"0000000000000000\",", 1);
    match sign(wrong_id.as_bytes(), SignKey::Hmac(SECRET), &opts) {
        Err(SignError::Invalid(incidents)) => {
            assert_eq!(incidents[0].code, IncidentCode::ChainIdMismatch)
        }
        other => panic!("{other:?}"),
    }
    let conflict = claim("x").replacen('{', "{\"signedBy\":\"me\",", 1);
    assert!(sign(conflict.as_bytes(), SignKey::Hmac(SECRET), &opts).is_err());
    let not_did = SignOptions {
        signed_by: "sourcescore-hmac".into(),
        ..opts.clone()
    };
    let bad_time = SignOptions {
        signed_at: "yesterday".into(),
        ..opts.clone()
    };
    for (options, want) in [(not_did, "NoCanonicalBase"), (bad_time, "SignedAt")] {
        let got = sign(claim("x").as_bytes(), SignKey::Hmac(SECRET), &options);
        assert!(
            matches!(&got, Err(e) if format!("{e:?}").starts_with(want)),
            "{want}: {got:?}"
        );
    }
    match sign(b"{\"a\":1,\"a\":2}", SignKey::Hmac(SECRET), &opts) {
        Err(e @ SignError::Json(_)) => {
            let i = &e.incidents()[0];
            assert_eq!(i.code, IncidentCode::JsonDuplicateMember);
            assert_eq!(i.location.offset, Some(7));
        }
        other => panic!("{other:?}"),
    }
    let no_vertical =
        r#"{"subject":"s","predicate":"p","object":"o","sources":[{"url":"https://a.example/"}]}"#;
    match sign(no_vertical.as_bytes(), SignKey::Hmac(SECRET), &opts) {
        Err(SignError::Invalid(incidents)) => {
            assert_eq!(incidents[0].location.pointer.as_deref(), Some("/vertical"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_signer_builds_the_seeds_shape() {
    let s = sign(
        claim("Transformer architecture").as_bytes(),
        SignKey::Hmac(SECRET),
        &options(),
    )
    .unwrap();
    let v: Value = serde_json::from_str(&s.envelope).unwrap();
    assert_eq!(s.claim_id, "ad17e76a8baad7a1");
    let citeproof_chain::lossless::Node::Object(members) =
        citeproof_chain::lossless::parse(s.envelope.as_bytes()).unwrap()
    else {
        panic!("not an object")
    };
    let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "apiVersion",
            "methodology",
            "canonical",
            "claim",
            "signature",
            "citedAs"
        ]
    );
    assert_eq!(
        v["canonical"],
        "https://sourcescore.org/claims/ad17e76a8baad7a1/"
    );
    assert_eq!(v["methodology"], "https://sourcescore.org/methodology/");
    assert_eq!(
        v["claim"]["statement"],
        "Transformer architecture introduced in paper: Attention Is All You Need (Vaswani et al., 2017)."
    );
    let cited = v["citedAs"].as_str().unwrap();
    assert!(
        cited.contains("ad17e76a8baad7a1")
            && cited.contains("https://sourcescore.org/claims/ad17e76a8baad7a1/")
    );
    assert!(
        s.envelope.contains("\"confidence\": 1.0"),
        "the number is written as in the claim"
    );
}
