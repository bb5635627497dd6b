//! Level 3 cases: chain, signature, discovery and keys.

use super::*;

pub(super) fn cases() -> Vec<Case> {
    use IncidentCode::*;
    let v = vec![
        // ---- Level 3: chain ----
        case("chain missing", 2, &[AcaChainMissing], |s| {
            s.manifest.as_object_mut().unwrap().remove("chain");
        }),
        case("chain empty", 2, &[AcaChainMissing], |s| {
            s.manifest["chain"] = json!([])
        }),
        case("step numbers", 2, &[AcaChainStepOrder], |s| {
            s.manifest["chain"][1]["step"] = json!(3)
        }),
        case("tool missing", 2, &[AcaChainToolMissing], |s| {
            s.manifest["chain"][0]["tool"] = json!("")
        }),
        case(
            "outputs_ref missing",
            2,
            &[AcaChainOutputsRefMissing],
            |s| {
                s.manifest["chain"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("outputs_ref");
            },
        ),
        case(
            "outputs_ref duplicate",
            2,
            &[AcaChainOutputsRefDuplicate],
            |s| s.manifest["chain"][1]["outputs_ref"] = json!("runs/r1/step/1"),
        ),
        case("inputs_ref invalid", 2, &[AcaChainRefInvalid], |s| {
            s.manifest["chain"][1]["inputs_ref"] = json!([])
        }),
        case("inputs_ref unknown", 2, &[AcaChainRefUnknown], |s| {
            s.manifest["chain"][1]["inputs_ref"] = json!("runs/r1/step/9")
        }),
        case("inputs_ref forward", 2, &[AcaChainRefForward], |s| {
            s.manifest["chain"][0]["inputs_ref"] = json!("runs/r1/step/2")
        }),
        case("inputs missing", 2, &[AcaChainInputsMissing], |s| {
            s.manifest["chain"][0]
                .as_object_mut()
                .unwrap()
                .remove("inputs");
        }),
        case(
            "inputs hash mismatch",
            2,
            &[AcaChainInputsHashMismatch],
            |s| {
                s.manifest["chain"][0]["inputs_hash"] = json!(sha256_bytes(b"{}").to_string());
            },
        ),
        case("chain source URL invalid", 2, &[AcaUrlInvalid], |s| {
            s.manifest["chain"][0]["sources"] = json!([
                "https://example.com/a",
                "https://example.com/b",
                "mailto:x@y"
            ])
        }),
        case("source not in chain", 2, &[AcaSourceNotInChain], |s| {
            s.manifest["chain"][0]["sources"] = json!([SRC_A]);
            s.manifest["chain"][1]["sources"] = json!([SRC_A]);
        }),
        // ---- Level 3: signature ----
        case("unsigned", 2, &[AcaSignatureMissing], |s| s.sign = false),
        case(
            "signature without input",
            2,
            &[AcaSignatureMissing],
            after_signing("signature-input", None),
        ),
        case(
            "signature input not a dictionary",
            2,
            &[HttpsigInvalidStructuredField],
            after_signing("signature-input", Some("sig1=(\"@status\"")),
        ),
        case(
            "label without signature",
            2,
            &[HttpsigSignatureMissing],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    let v = header_of(r, "signature").replace("sig1=", "sig2=");
                    set_header(r, "signature", Some(&v));
                }));
            },
        ),
        case(
            "short signature",
            2,
            &[HttpsigMalformedSignature],
            after_signing("signature", Some("sig1=:AAAA:")),
        ),
        case(
            "unknown derived component",
            2,
            &[HttpsigInvalidComponent],
            after_signing(
                "signature-input",
                Some(
                    "sig1=(\"@status\" \"content-type\" \"content-digest\" \"@bogus\");created=1777370340;keyid=\"k1\"",
                ),
            ),
        ),
        case(
            "component twice",
            2,
            &[HttpsigDuplicateComponent],
            after_signing(
                "signature-input",
                Some(
                    "sig1=(\"@status\" \"content-type\" \"content-digest\" \"@status\");created=1777370340;keyid=\"k1\"",
                ),
            ),
        ),
        case(
            "covered header absent",
            2,
            &[HttpsigMissingComponent],
            after_signing(
                "signature-input",
                Some(
                    "sig1=(\"@status\" \"content-type\" \"content-digest\" \"x-absent\");created=1777370340;keyid=\"k1\"",
                ),
            ),
        ),
        case(
            "content-type not covered",
            2,
            &[HttpsigRequiredComponentNotCovered],
            after_signing(
                "signature-input",
                Some("sig1=(\"@status\" \"content-digest\");created=1777370340;keyid=\"k1\""),
            ),
        ),
        case(
            "keyid missing",
            2,
            &[HttpsigRequiredParamMissing],
            after_signing(
                "signature-input",
                Some("sig1=(\"@status\" \"content-type\" \"content-digest\");created=1777370340"),
            ),
        ),
        case(
            "created as string",
            2,
            &[HttpsigInvalidParameter],
            after_signing(
                "signature-input",
                Some(
                    "sig1=(\"@status\" \"content-type\" \"content-digest\");created=\"1777370340\";keyid=\"k1\"",
                ),
            ),
        ),
        case(
            "alg rsa",
            2,
            &[HttpsigAlgMismatch],
            after_signing(
                "signature-input",
                Some(
                    "sig1=(\"@status\" \"content-type\" \"content-digest\");created=1777370340;keyid=\"k1\";alg=\"rsa-pss-sha512\"",
                ),
            ),
        ),
        case("created in the future", 2, &[HttpsigCreatedInFuture], |s| {
            s.created = NOW + 301
        }),
        case("expired", 2, &[HttpsigExpired], |s| {
            // Signed at emission, verified long after expiry.
            s.expires = Some(NOW + 100);
            s.opts.now = NOW + 401;
        }),
        case(
            "signed before the run was emitted",
            2,
            &[AcaSignaturePredatesRun],
            |s| s.created = NOW - 301,
        ),
        case(
            "too old for the configured maximum age",
            2,
            &[HttpsigTooOld],
            |s| {
                // Signed at emission (NOW - 60), verified an hour and a second later.
                s.opts.now = NOW + 3541;
                s.opts.max_signature_age = Some(3600);
            },
        ),
        case(
            "signed by an unpublished key",
            2,
            &[AcaKeyUnresolved],
            |s| s.keyid = "k2".into(),
        ),
        case("signature by another key", 2, &[AcaSignatureInvalid], |s| {
            s.signing_key = SigningKey::from_secret_bytes(&[1u8; 32])
        }),
        case(
            "digest missing",
            2,
            &[AcaContentDigestMissing, HttpsigMissingComponent],
            after_signing("content-digest", None),
        ),
        case(
            "digest md5 only",
            2,
            &[AcaContentDigestMissing],
            after_signing("content-digest", Some("md5=:AAAAAAAAAAAAAAAAAAAAAA==:")),
        ),
        case(
            "digest wrong length",
            2,
            &[AcaContentDigestInvalid],
            after_signing("content-digest", Some("sha-256=:AAAA:")),
        ),
        case(
            "body rewritten in transit",
            2,
            &[AcaContentDigestMismatch],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    let b = String::from_utf8(body_of(r))
                        .unwrap()
                        .replace("agent.example/v1", "agent.example/v2");
                    set_body(r, b.as_bytes());
                }));
            },
        ),
        case("body not JCS", 2, &[AcaManifestNotJcs], |s| {
            s.tamper = Some(Box::new(|r| {
                let v: Value = serde_json::from_slice(&body_of(r)).unwrap();
                let pretty = serde_json::to_vec_pretty(&v).unwrap();
                let digest = citeproof_httpsig::content_digest_sha256(&pretty);
                set_body(r, &pretty);
                set_header(r, "content-digest", Some(&digest));
            }));
        }),
        // ---- Level 3: discovery and keys ----
        case(
            "discovery 404",
            2,
            &[AcaDiscoveryFetchFailed, FetchHttpStatus],
            |s| {
                s.resources.insert(DISCOVERY.into(), stored(404, &[], b""));
            },
        ),
        case("discovery as html", 2, &[AcaDiscoveryFetchFailed], |s| {
            let body = canonicalize(&s.discovery);
            s.resources.insert(
                DISCOVERY.into(),
                stored(200, &[("content-type", "text/html")], &body),
            );
        }),
        case("discovery member missing", 2, &[AcaDiscoveryInvalid], |s| {
            discovery_tamper(s, |d| {
                d.as_object_mut().unwrap().remove("contact");
            })
        }),
        case(
            "discovery version 2",
            2,
            &[AcaDiscoveryVersionUnsupported],
            |s| discovery_tamper(s, |d| d["version"] = json!("2.0")),
        ),
        case(
            "discovery without signing",
            2,
            &[AcaDiscoverySigningUnsupported],
            |s| discovery_tamper(s, |d| d["supported_signing"] = json!(["jws"])),
        ),
        case(
            "discovery without keys",
            2,
            &[AcaDiscoveryKeysMissing],
            |s| {
                discovery_tamper(s, |d| {
                    d.as_object_mut().unwrap().remove("keys");
                })
            },
        ),
        case("discovery unknown member", 2, &[UnknownMember], |s| {
            discovery_tamper(s, |d| d["signing_alg"] = json!("ed25519"))
        }),
        case(
            "jwks_uri unreachable",
            2,
            &[AcaJwksFetchFailed, FetchNotInSnapshot],
            |s| {
                discovery_tamper(s, |d| {
                    d["jwks_uri"] = json!("https://agent.example/jwks.json")
                })
            },
        ),
        case("jwks_uri over http", 2, &[AcaDiscoveryInvalid], |s| {
            discovery_tamper(s, |d| {
                d["jwks_uri"] = json!("http://agent.example/jwks.json")
            })
        }),
        case("published private key", 2, &[JwkPrivateKeyPublished], |s| {
            discovery_tamper(s, |d| d["keys"]["keys"][0]["d"] = json!("AAAA"))
        }),
        case("key without kid", 2, &[JwkKidMissing], |s| {
            discovery_tamper(s, |d| {
                d["keys"]["keys"][0].as_object_mut().unwrap().remove("kid");
            })
        }),
        case("two keys with one kid", 2, &[JwkDuplicateKid], |s| {
            discovery_tamper(s, |d| {
                let mut k = d["keys"]["keys"][0].clone();
                k["x"] = json!("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
                d["keys"]["keys"].as_array_mut().unwrap().push(k);
            })
        }),
        case("empty key set", 2, &[JwkSetEmpty], |s| {
            discovery_tamper(s, |d| d["keys"]["keys"] = json!([]))
        }),
        case("keys not a set", 2, &[JwkMalformed], |s| {
            discovery_tamper(s, |d| d["keys"] = json!([]))
        }),
        case("RSA key", 2, &[JwkUnsupportedKeyType], |s| {
            discovery_tamper(s, |d| d["keys"]["keys"][0]["kty"] = json!("RSA"))
        }),
        case("X25519 key", 2, &[JwkUnsupportedCurve], |s| {
            discovery_tamper(s, |d| d["keys"]["keys"][0]["crv"] = json!("X25519"))
        }),
        case("short x", 2, &[JwkInvalidKeyLength], |s| {
            discovery_tamper(s, |d| d["keys"]["keys"][0]["x"] = json!("AAAA"))
        }),
        case("non-canonical point", 2, &[JwkInvalidPoint], |s| {
            discovery_tamper(s, |d| {
                // y = 2^255 - 18 (>= p): not a canonical encoding (RFC 8032 §5.1.3).
                d["keys"]["keys"][0]["x"] = json!("7v_______________________________________38");
            })
        }),
        case("small-order key", 2, &[JwkWeakKey], |s| {
            discovery_tamper(s, |d| {
                // The identity point (0, 1): order 1.
                d["keys"]["keys"][0]["x"] = json!("AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
            })
        }),
        case("key use enc", 2, &[JwkUseMismatch], |s| {
            discovery_tamper(s, |d| d["keys"]["keys"][0]["use"] = json!("enc"))
        }),
        case("key alg ES256", 2, &[JwkAlgMismatch], |s| {
            discovery_tamper(s, |d| d["keys"]["keys"][0]["alg"] = json!("ES256"))
        }),
    ];
    v
}
