//! The verdicts a person reads agree with the incidents, and the report has the common shape.

use super::*;

/// Issue 19, item 6: what a report says about each manifest and claim agrees with the verdict.
/// A signature is `valid` (and `signed_by` set) only when the whole Level 3 check of its manifest
/// passed; a claim is `verified` only when nothing it depends on failed; `failed` names why.
#[test]
fn manifest_and_claim_verdicts_agree_with_the_incidents() {
    use citeproof_aca::SignatureVerdict;
    let verdicts = |r: &AcaReport| {
        let m = &r.details.manifests[0];
        (
            m.signature.clone(),
            m.signed_by.clone(),
            m.failed.clone(),
            m.claims
                .iter()
                .map(|c| (c.supported, c.verified, c.failed.clone()))
                .collect::<Vec<_>>(),
        )
    };
    let failed = |codes: &[&str]| SignatureVerdict::Failed {
        failed: codes.iter().map(|c| (*c).to_owned()).collect(),
    };
    let both = |supported: Option<bool>, verified: bool, failed: &[&str]| {
        let f: Vec<String> = failed.iter().map(|c| (*c).to_owned()).collect();
        vec![(supported, verified, f.clone()), (supported, verified, f)]
    };

    let r = Scenario::baseline().verify();
    assert_eq!(
        verdicts(&r),
        (
            SignatureVerdict::Valid { keyid: "k1".into() },
            Some("k1".into()),
            vec![],
            both(Some(true), true, &[])
        )
    );

    // The body rewritten after signing: the signature base still verifies (the signed
    // Content-Digest header is intact), the digest does not; every claim is still supported by
    // its excerpt but none is verified.
    let mut s = Scenario::baseline();
    s.tamper = Some(Box::new(|r| {
        let b = String::from_utf8(body_of(r))
            .unwrap()
            .replace("agent.example/v1", "agent.example/v9");
        set_body(r, b.as_bytes());
    }));
    let r = s.verify();
    assert_eq!(r.verdict.level, 2);
    assert_eq!(
        verdicts(&r),
        (
            failed(&["aca-content-digest-mismatch"]),
            None,
            vec![],
            both(Some(true), false, &[])
        )
    );

    // Signed with a key the discovery document does not publish.
    let mut s = Scenario::baseline();
    s.keyid = "k9".into();
    let r = s.verify();
    assert_eq!(
        verdicts(&r).0,
        failed(&["aca-key-unresolved"]),
        "{:?}",
        r.verdict.incidents
    );
    assert!(r.details.manifests[0].claims.iter().all(|c| !c.verified));

    // No discovery document: every manifest's signature fails with it.
    let mut s = Scenario::baseline();
    s.resources.insert(
        DISCOVERY.into(),
        stored(404, &[("content-type", "text/plain")], b"gone"),
    );
    let r = s.verify();
    assert_eq!(
        verdicts(&r).0,
        failed(&["aca-discovery-fetch-failed", "fetch-http-status"])
    );

    // Level 2 required: the signature is not checked and is never called valid.
    let mut s = Scenario::baseline();
    s.opts.required_level = Some(2);
    let r = s.verify();
    let (signature, signed_by, _, claims) = verdicts(&r);
    assert!(matches!(signature, SignatureVerdict::NotChecked { .. }));
    assert_eq!((signed_by, claims), (None, both(Some(true), true, &[])));

    // A copy at another URL: validly signed, but the manifest names another response.
    let mut s = Scenario::baseline();
    s.agent_url = "https://agent.example/runs/r1-copy".into();
    let r = s.verify();
    let (signature, _, manifest_failed, claims) = verdicts(&r);
    assert!(matches!(signature, SignatureVerdict::Valid { .. }));
    assert_eq!(manifest_failed, ["aca-response-url-mismatch"]);
    assert_eq!(claims, both(Some(true), false, &[]));

    // The body swapped: each claim says it is not in the response.
    let mut s = Scenario::baseline();
    s.agent_body = "The moon is made of cheese.\n".into();
    let r = s.verify();
    assert_eq!(
        verdicts(&r).3,
        both(Some(true), false, &["aca-claim-not-in-response"])
    );

    // One claim unsupported: only that claim fails.
    let mut s = Scenario::baseline();
    s.manifest["claims"][1]["text"] = json!("AI crawlers never revisit stable canonical URLs.");
    s.agent_body = format!("{ANSWER} AI crawlers never revisit stable canonical URLs.\n");
    let r = s.verify();
    let claims = verdicts(&r).3;
    assert_eq!(claims[0], (Some(true), true, vec![]));
    assert_eq!(
        claims[1],
        (Some(false), false, vec!["aca-claim-unsupported".to_owned()])
    );

    // A source that cannot be fetched: its claim is not checked and says why.
    let mut s = Scenario::baseline();
    s.resources.insert(SRC_B.into(), stored(500, &[], b"down"));
    let r = s.verify();
    let claims = verdicts(&r).3;
    assert_eq!(claims[0], (Some(true), true, vec![]));
    assert_eq!(
        claims[1],
        (
            None,
            false,
            vec![
                "aca-source-fetch-failed".to_owned(),
                "fetch-http-status".to_owned()
            ]
        )
    );

    // A header entry without `run` is located at its source: the claims citing it say so.
    let mut s = Scenario::baseline();
    s.header(&format!(
        "<{SRC_A}>; manifest=\"{MANIFEST}\", <{SRC_B}>; manifest=\"{MANIFEST}\""
    ));
    let r = s.verify();
    assert_eq!(
        verdicts(&r).3,
        both(Some(true), false, &["aca-run-missing"])
    );

    // A failure of the response itself, located nowhere else: no claim of it is verified.
    let mut s = Scenario::baseline();
    s.header(&format!(
        "<{SRC_A}>; manifest=\"{MANIFEST}\"; run=\"r1\", <{SRC_B}>; manifest=\"{MANIFEST}\"; run=\"r2\""
    ));
    let r = s.verify();
    assert!(
        r.has(IncidentCode::AcaRunMismatch),
        "{:?}",
        r.verdict.incidents
    );
    assert_no_claim_verified(&r);
}

/// The verdicts of issue 19, item 6, over every case of this file: a signature is `valid` only
/// when no Level 3 error concerns its manifest (at its URL, under its claims or at the
/// discovery document and key set), a claim is `verified` only when no error of a checked level
/// is located at it, at its manifest (Levels 1-2) or at a URL that is neither a manifest nor a
/// source, and a verified report has every claim verified.
#[test]
fn verdict_invariants_hold_in_every_case() {
    use citeproof_aca::SignatureVerdict;
    let mut checked = 0;
    for c in cases() {
        let mut s = Scenario::baseline();
        (c.mutate)(&mut s);
        let r = s.verify();
        let errors: Vec<_> = r
            .verdict
            .incidents
            .iter()
            .filter(|i| i.incident.severity == citeproof_model::Severity::Error)
            .collect();
        let manifest_urls: Vec<&str> = r.details.manifests.iter().map(|m| m.url.as_str()).collect();
        let source_urls: Vec<&str> = r
            .details
            .manifests
            .iter()
            .flat_map(|m| &m.claims)
            .flat_map(|c| &c.sources)
            .map(|s| s.url.as_str())
            .collect();
        for m in &r.details.manifests {
            if let SignatureVerdict::Valid { keyid } = &m.signature {
                assert_eq!(m.signed_by.as_deref(), Some(keyid.as_str()), "{}", c.name);
                let bad = errors.iter().find(|i| {
                    i.level == 3
                        && i.incident.location.url.as_deref().is_none_or(|u| {
                            u == m.url || (!manifest_urls.contains(&u) && !source_urls.contains(&u))
                        })
                });
                assert!(bad.is_none(), "{}: valid signature beside {bad:?}", c.name);
            } else {
                assert!(m.signed_by.is_none(), "{}", c.name);
            }
            for (ci, claim) in m.claims.iter().enumerate() {
                if !claim.verified {
                    continue;
                }
                assert_eq!(claim.supported, Some(true), "{}", c.name);
                let under = format!("/claims/{ci}");
                let bad = errors.iter().find(|i| {
                    let at_manifest = i.incident.location.url.as_deref() == Some(m.url.as_str());
                    let pointer = i.incident.location.pointer.as_deref().unwrap_or("");
                    let own = pointer == under || pointer.starts_with(&format!("{under}/"));
                    let response = i.level < 3
                        && i.incident.location.url.as_deref().is_none_or(|u| {
                            !manifest_urls.contains(&u) && !source_urls.contains(&u)
                        });
                    (at_manifest && (own || (!pointer.starts_with("/claims/") && i.level < 3)))
                        || response
                });
                assert!(
                    bad.is_none(),
                    "{}: claim {ci} verified beside {bad:?}",
                    c.name
                );
                checked += 1;
            }
        }
        if r.verdict.verified {
            assert!(
                r.details
                    .manifests
                    .iter()
                    .flat_map(|m| &m.claims)
                    .all(|c| c.verified),
                "{}",
                c.name
            );
        }
    }
    assert!(checked > 0);
}

/// The common report shape (issue 20): spec, subject, outcome, the trust used and the items.
/// Offsets and hashes by hand: QUOTE_A starts after `<html><body><p>` (15 bytes) and is 72
/// bytes long; BODY_A's SHA-256 is from Python's `hashlib` (`hashlib.sha256(BODY_A)`); the key
/// thumbprint is RFC 7638 §3 over the members in lexicographic order.
#[test]
fn the_report_has_the_common_shape() {
    use base64::Engine;
    use citeproof_model::{Outcome, SubjectKind};
    let s = Scenario::baseline();
    let r = s.verify();
    assert_eq!(r.spec, "aca");
    assert_eq!(
        (r.subject.kind, r.subject.name.as_str()),
        (SubjectKind::Snapshot, AGENT)
    );
    assert_eq!(r.outcome, Outcome::Verified);
    assert_eq!(r.trust.origins, ["https://agent.example"]);
    let x = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(s.signing_key.verifying_key().to_bytes());
    let members = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{x}"}}"#);
    let thumbprint = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha256_bytes(members.as_bytes()).digest());
    assert_eq!(
        r.trust.signers["https://agent.example"].keys,
        [("k1".to_owned(), thumbprint)]
    );
    assert_eq!(r.items.len(), 1);
    let m = &r.items[0];
    assert_eq!(
        (
            m.kind.as_str(),
            m.id.as_str(),
            m.verdict.as_deref(),
            m.verified
        ),
        ("manifest", MANIFEST, Some("valid"), true)
    );
    let ids: Vec<&str> = m.items.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["c1", "c2"]);
    let c1 = &m.items[0];
    assert_eq!(
        (c1.kind.as_str(), c1.text.as_deref(), c1.verdict.as_deref()),
        ("claim", Some(QUOTE_A), Some("supported"))
    );
    let src = &c1.sources[0];
    assert_eq!(src.url, SRC_A);
    assert_eq!(src.locator.as_deref(), Some("bytes [15, 87)"));
    let body_hash = "sha256:186da46de9ee6c2ce4bfd669dd9bb12f37c0fd1bdbb3fc13f814bc8f8181fa7c";
    assert_eq!(src.declared_hash.as_deref(), Some(body_hash));
    assert_eq!(src.computed_hash.as_deref(), Some(body_hash));
    assert_eq!(src.excerpt.as_deref(), Some(QUOTE_A));
    assert!(src.verified && src.failed.is_empty());

    // Source A changed after the manifest was written and the excerpt is gone: the claim, its
    // source and its manifest are not verified, and say why; claim c2 still is.
    let mut s = Scenario::baseline();
    s.resources.insert(
        SRC_A.into(),
        stored(200, &[("content-type", "text/html")], b"<p>rewritten</p>"),
    );
    let r = s.verify();
    assert_eq!(r.outcome, Outcome::NotVerified);
    let m = &r.items[0];
    assert!(!m.verified);
    let (c1, c2) = (&m.items[0], &m.items[1]);
    assert!(!c1.verified && c2.verified);
    assert_eq!(c1.verdict.as_deref(), Some("not-checked"));
    let src = &c1.sources[0];
    assert!(!src.verified);
    assert!(src.failed.contains(&"aca-source-hash-mismatch".to_owned()));
    assert_eq!(src.declared_hash.as_deref(), Some(body_hash));
    assert_ne!(src.computed_hash.as_deref(), Some(body_hash));
    assert_eq!(src.excerpt, None, "nothing was judged");
    // The key verified the signature, but that is not the whole Level 3 check only when the
    // manifest's signature is valid: it is, so the key is still named.
    assert_eq!(m.verdict.as_deref(), Some("valid"));

    // A source that could not be reached at all (not in the snapshot): transient, so the
    // response could not be checked.
    let mut s = Scenario::baseline();
    s.resources.remove(SRC_B);
    let r = s.verify();
    assert!(
        r.has(IncidentCode::FetchNotInSnapshot),
        "{:?}",
        r.verdict.incidents
    );
    assert_eq!(r.outcome, Outcome::CouldNotCheck);
    assert!(!r.items[0].items[1].verified);
}

/// PROFILE "Parts of a report": a Level 1 failure of one header entry (here a run parameter that
/// breaks ACA-L1-007's grammar) fails the claim citing that entry's source and no other. The
/// response is NOT VERIFIED at level 0; the claim whose own entry, manifest, source and signature
/// all verified is reported verified, and the text says both. (Found by the `aca_verify` fuzz
/// target's claim-verdict invariant on a corpus file.)
#[test]
fn a_broken_header_entry_fails_only_the_claims_that_cite_its_source() {
    let mut s = Scenario::baseline();
    s.header(&format!(
        "<{SRC_A}>; manifest=\"{MANIFEST}\"; run=\"https://attacker.example/r1\", <{SRC_B}>; manifest=\"{MANIFEST}\"; run=\"r1\""
    ));
    let r = s.verify();
    assert_eq!(r.verdict.level, 0);
    assert!(!r.verdict.verified);
    let claims = &r.details.manifests[0].claims;
    let c1 = claims
        .iter()
        .find(|c| c.claim_id.as_deref() == Some("c1"))
        .unwrap();
    let c2 = claims
        .iter()
        .find(|c| c.claim_id.as_deref() == Some("c2"))
        .unwrap();
    assert!(!c1.verified);
    assert!(
        c1.failed.iter().any(|f| f == "aca-run-id-invalid"),
        "{:?}",
        c1.failed
    );
    assert!(c2.verified, "{:?}", c2.failed);
    // A failure of the response as a whole (its status) fails every claim.
    let mut s = Scenario::baseline();
    s.agent_status = 500;
    let r = s.verify();
    assert_no_claim_verified(&r);
}

/// No claim of any manifest of `r` is verified.
#[track_caller]
fn assert_no_claim_verified(r: &AcaReport) {
    let mut claims = r.details.manifests.iter().flat_map(|m| &m.claims);
    assert!(claims.all(|c| !c.verified), "{:?}", r.verdict.incidents);
}
