//! Level 2 cases: manifests and sources.

use super::*;

pub(super) fn cases() -> Vec<Case> {
    use IncidentCode::*;
    let v = vec![
        // ---- Level 2: manifests ----
        case(
            "manifest 404",
            1,
            &[AcaManifestFetchFailed, FetchHttpStatus],
            |s| {
                s.resources.insert(MANIFEST.into(), stored(404, &[], b"no"));
            },
        ),
        case(
            "manifest not in snapshot",
            1,
            &[AcaManifestFetchFailed, FetchNotInSnapshot],
            |s| {
                let h = format!(
                    "<{SRC_A}>; manifest=\"https://agent.example/other\", <{SRC_B}>; manifest=\"{MANIFEST}\""
                );
                s.header(&h);
            },
        ),
        case(
            "manifest gzip",
            1,
            &[AcaManifestFetchFailed, FetchContentEncoding],
            after_signing("content-encoding", Some("gzip")),
        ),
        case(
            "manifest redirect loop",
            1,
            &[AcaManifestFetchFailed, FetchTooManyRedirects],
            |s| {
                s.resources
                    .insert(MANIFEST.into(), stored(302, &[("location", MANIFEST)], b""));
            },
        ),
        case(
            "manifest redirect with two locations",
            1,
            &[AcaManifestFetchFailed, FetchRedirectInvalid],
            |s| {
                s.resources.insert(
                    MANIFEST.into(),
                    stored(
                        302,
                        &[
                            ("location", "https://agent.example/x"),
                            ("location", "https://agent.example/y"),
                        ],
                        b"",
                    ),
                );
            },
        ),
        case(
            "manifest address forbidden",
            1,
            &[AcaManifestFetchFailed, FetchAddressForbidden],
            |s| {
                s.header(&format!("<{SRC_A}>; manifest=\"http://169.254.169.254/m\", <{SRC_B}>; manifest=\"{MANIFEST}\""));
            },
        ),
        case(
            "manifest port forbidden",
            1,
            &[AcaManifestFetchFailed, FetchPortForbidden],
            |s| {
                s.header(&format!("<{SRC_A}>; manifest=\"https://agent.example:25/m\", <{SRC_B}>; manifest=\"{MANIFEST}\""));
            },
        ),
        case(
            "manifest as text/plain",
            1,
            &[AcaManifestContentType],
            after_signing("content-type", Some("text/plain")),
        ),
        case(
            "manifest duplicate member",
            1,
            &[JsonDuplicateMember],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    let mut b = body_of(r);
                    b.truncate(b.len() - 1);
                    b.extend_from_slice(br#","run_id":"r1"}"#);
                    set_body(r, &b);
                }));
            },
        ),
        case("manifest syntax", 1, &[JsonSyntax], |s| {
            s.tamper = Some(Box::new(|r| set_body(r, b"{\"run_id\":")))
        }),
        case("manifest invalid utf-8", 1, &[JsonInvalidUtf8], |s| {
            s.tamper = Some(Box::new(|r| set_body(r, b"{\"a\":\"\xff\"}")))
        }),
        case("manifest lone surrogate", 1, &[JsonLoneSurrogate], |s| {
            s.tamper = Some(Box::new(|r| set_body(r, br#"{"a":"\ud800"}"#)))
        }),
        case("manifest noncharacter", 1, &[JsonNoncharacter], |s| {
            s.tamper = Some(Box::new(|r| set_body(r, br#"{"a":"\ufdd0"}"#)))
        }),
        case(
            "manifest number overflow",
            1,
            &[JsonNumberOutOfRange],
            |s| s.tamper = Some(Box::new(|r| set_body(r, b"{\"a\":1e400}"))),
        ),
        case("manifest too deep", 1, &[JsonTooLarge], |s| {
            s.tamper = Some(Box::new(|r| {
                set_body(
                    r,
                    format!("{}{}", "[".repeat(200), "]".repeat(200)).as_bytes(),
                )
            }));
        }),
        case(
            "manifest over 10 MiB",
            1,
            &[AcaManifestFetchFailed, FetchTooLarge],
            |s| {
                // DEFAULT_MAX_BODY_BYTES + 1 bytes: the fetch fails before the JSON limit (16 MiB)
                // is reached, so claims and chain steps are bounded by what fits in 10 MiB.
                s.tamper = Some(Box::new(|r| set_body(r, &vec![b' '; 10 * 1024 * 1024 + 1])));
            },
        ),
        case("manifest not an object", 1, &[SchemaViolation], |s| {
            s.tamper = Some(Box::new(|r| set_body(r, b"[]")))
        }),
        case("unknown member", 1, &[UnknownMember], |s| {
            s.manifest["signature"] = json!("x")
        }),
        case("run_id with spaces", 1, &[AcaRunIdInvalid], |s| {
            s.manifest["run_id"] = json!("run 1")
        }),
        case(
            "emitted_at lowercase z",
            1,
            &[SchemaTimestampInvalid],
            |s| s.manifest["emitted_at"] = json!("2026-04-28T10:00:00z"),
        ),
        case(
            "manifest reused from another run",
            1,
            &[AcaRunMismatch],
            |s| s.manifest["run_id"] = json!("r0"),
        ),
        case("free-text claim id", 1, &[AcaClaimIdInvalid], |s| {
            s.manifest["claims"][0]["claim_id"] = json!("the first claim")
        }),
        case("duplicate claim id", 1, &[AcaClaimIdDuplicate], |s| {
            s.manifest["claims"][1]["claim_id"] = json!("c1")
        }),
        case("confidence vocabulary", 1, &[AcaConfidenceInvalid], |s| {
            s.manifest["claims"][0]["confidence"] = json!("certain")
        }),
        case("hash missing", 1, &[AcaHashMissing], |s| {
            claim_source(s).remove("hash");
        }),
        case("hash uppercase", 1, &[CanonHashSyntax], |s| {
            let h = claim_source(s)["hash"]
                .as_str()
                .unwrap()
                .to_uppercase()
                .replace("SHA256", "sha256");
            claim_source(s).insert("hash".into(), json!(h));
        }),
        case("offset missing", 1, &[AcaOffsetMissing], |s| {
            claim_source(s).remove("excerpt_offset");
        }),
        case("offset inverted", 1, &[AcaOffsetInvalid], |s| {
            claim_source(s).insert("excerpt_offset".into(), json!([20, 10]));
        }),
        case("offset negative", 1, &[AcaOffsetInvalid], |s| {
            claim_source(s).insert("excerpt_offset".into(), json!([-1, 10]));
        }),
        case("offset beyond body", 1, &[AcaOffsetOutOfRange], |s| {
            claim_source(s).insert("excerpt_offset".into(), json!([0, 100000]));
            claim_source(s).remove("excerpt_hash");
        }),
        case("offset splits a character", 1, &[AcaExcerptNotUtf8], |s| {
            let body = "caf\u{e9} programmatic\n";
            s.resources.insert(
                SRC_A.into(),
                stored(200, &[("content-type", "text/plain")], body.as_bytes()),
            );
            let src = claim_source(s);
            src.insert(
                "hash".into(),
                json!(sha256_bytes(body.as_bytes()).to_string()),
            );
            src.insert("excerpt_offset".into(), json!([0, 4]));
            src.remove("excerpt_hash");
        }),
        case(
            "retrieved after emitted",
            1,
            &[AcaRetrievedAfterEmitted],
            |s| {
                claim_source(s).insert("retrieved_at".into(), json!("2026-04-28T10:00:01Z"));
            },
        ),
        case(
            "emitted in the future (warning only)",
            3,
            &[AcaEmittedInFuture],
            |s| {
                s.manifest["emitted_at"] = json!("2026-04-28T10:06:00Z");
                s.opts.now = NOW;
                // Signed at emission by the agent's clock (within the skew of `now`), so the
                // signature does not predate the run (ACA-L3-010).
                s.created = NOW + 60;
            },
        ),
        case(
            "header source without claim",
            1,
            &[AcaSourceNotInManifest],
            |s| {
                s.header(&format!("<{SRC_A}>; manifest=\"{MANIFEST}\", <{SRC_B}>; manifest=\"{MANIFEST}\", <https://example.com/c>; manifest=\"{MANIFEST}\""));
            },
        ),
        case(
            "claim source not in header",
            1,
            &[AcaSourceNotInHeader],
            |s| s.header(&format!("<{SRC_A}>; manifest=\"{MANIFEST}\"")),
        ),
        case(
            "claim id conflict across manifests",
            1,
            &[AcaClaimIdConflict],
            |s| {
                let m2 = "https://agent.example/runs/r1/manifest-b";
                s.header(&format!(
                    "<{SRC_A}>; manifest=\"{MANIFEST}\", <{SRC_B}>; manifest=\"{m2}\""
                ));
                let mut second = s.manifest.clone();
                second["claims"][1]["claim_id"] = json!("c1");
                second["claims"].as_array_mut().unwrap().remove(0);
                s.manifest["claims"].as_array_mut().unwrap().remove(1);
                let signed = sign_manifest_value(
                    &second,
                    &key(),
                    &ManifestSignOptions {
                        keyid: "k1".into(),
                        created: NOW - 60,
                        expires: None,
                    },
                )
                .unwrap();
                s.resources.insert(
                    m2.into(),
                    StoredResponse {
                        status: 200,
                        headers: signed.headers,
                        body_base64: STANDARD.encode(&signed.body),
                    },
                );
            },
        ),
        // ---- Level 2: sources ----
        case(
            "source 500",
            1,
            &[AcaSourceFetchFailed, FetchHttpStatus],
            |s| {
                s.resources.insert(SRC_A.into(), stored(500, &[], b""));
            },
        ),
        case(
            "source too large",
            1,
            &[AcaSourceFetchFailed, FetchTooLarge],
            |s| {
                s.resources.insert(
                    SRC_A.into(),
                    stored(200, &[], &vec![b'a'; 10 * 1024 * 1024 + 1]),
                );
            },
        ),
        case(
            "source changed, excerpt intact",
            1,
            &[AcaSourceHashMismatch, AcaExcerptIntact],
            |s| {
                let body = format!("<!-- edited -->{BODY_A}");
                s.resources
                    .insert(SRC_A.into(), stored(200, &[], body.as_bytes()));
            },
        ),
        case(
            "source changed, excerpt search past its budget (ACA-L2-023)",
            1,
            &[AcaSourceHashMismatch, AcaBudgetExhausted],
            |s| {
                // The excerpt moved (as in "excerpt intact"), but locating it would hash more
                // than the 100 bytes allowed: not searched, reported once.
                let body = format!("<!-- edited -->{BODY_A}");
                s.resources
                    .insert(SRC_A.into(), stored(200, &[], body.as_bytes()));
                s.opts.max_search_bytes = 100;
            },
        ),
        case(
            "source changed, excerpt changed",
            1,
            &[AcaSourceHashMismatch, AcaExcerptChanged],
            |s| {
                let body = BODY_A.replace("one canonical", "two canonical");
                s.resources
                    .insert(SRC_A.into(), stored(200, &[], body.as_bytes()));
            },
        ),
        case(
            "source changed, excerpt now twice",
            1,
            &[AcaSourceHashMismatch, AcaExcerptChanged],
            |s| {
                let body = format!("<!-- edited -->{BODY_A}{QUOTE_A}\n");
                s.resources
                    .insert(SRC_A.into(), stored(200, &[], body.as_bytes()));
            },
        ),
        case(
            "source changed, body over the 1 MiB search bound",
            1,
            &[AcaSourceHashMismatch, AcaExcerptChanged],
            |s| {
                // The excerpt is intact but moved, in a body of 1 MiB + 1 byte: ACA-L2-015 (2)
                // does not search, so it is reported changed.
                let mut body = format!("<!-- edited -->{BODY_A}");
                body.push_str(&" ".repeat(1024 * 1024 + 1 - body.len()));
                s.resources
                    .insert(SRC_A.into(), stored(200, &[], body.as_bytes()));
            },
        ),
        case(
            "source changed, excerpt over the 1024-byte search bound",
            1,
            &[AcaSourceHashMismatch, AcaExcerptChanged],
            |s| {
                // A 1 099-byte excerpt moved by 15 bytes in a small body: not searched.
                let quote = "word ".repeat(220);
                let quote = quote.trim_end();
                let original = format!("<p>{quote}</p>\n");
                let edited = format!("<!-- edited -->{original}");
                s.resources
                    .insert(SRC_A.into(), stored(200, &[], edited.as_bytes()));
                s.manifest["claims"][0]["sources"][0] = source(SRC_A, &original, quote);
                s.manifest["claims"][0]["text"] = json!(quote);
            },
        ),
        case("excerpt hash wrong", 1, &[AcaExcerptHashMismatch], |s| {
            claim_source(s).insert("excerpt_hash".into(), json!(sha256_bytes(b"x").to_string()));
        }),
        case("claim not supported", 1, &[AcaClaimUnsupported], |s| {
            s.manifest["claims"][0]["text"] =
                json!("Programmatic GEO templates emit five canonical questions.");
        }),
        case(
            "irrelevant second source (warning)",
            3,
            &[AcaSourceIrrelevant],
            |s| {
                let extra = source(SRC_B, BODY_B, "Sitemaps list canonical URLs.");
                s.manifest["claims"][0]["sources"]
                    .as_array_mut()
                    .unwrap()
                    .push(extra);
                s.manifest["claims"][0]["text"] =
                    json!("Programmatic templates emit one question per page.");
                s.agent_body =
                    format!("Programmatic templates emit one question per page. {ANSWER}");
            },
        ),
        case("whole page as excerpt", 1, &[AcaExcerptTooLong], |s| {
            let page = format!(
                "{BODY_A}{}",
                "<p>More text about crawling and sitemaps.</p>\n".repeat(12)
            );
            s.resources
                .insert(SRC_A.into(), stored(200, &[], page.as_bytes()));
            s.manifest["claims"][0]["sources"][0] = source(SRC_A, &page, &page);
        }),
        case(
            "fetch budget of one fetch (FETCH-009)",
            1,
            &[FetchBudgetExhausted, AcaSourceFetchFailed],
            |s| {
                s.opts.budget.max_fetches = 1;
            },
        ),
        case(
            "fetch budget in bytes (FETCH-009)",
            1,
            &[FetchBudgetExhausted],
            |s| {
                s.opts.budget.max_total_bytes = 600;
            },
        ),
        case(
            "excerpt budget (ACA-L2-023)",
            1,
            &[AcaBudgetExhausted],
            |s| {
                s.opts.max_excerpt_bytes = 10;
            },
        ),
        case("an added judge disagrees", 1, &[AcaJudgeUnsupported], |s| {
            s.opts.extra_judges.push(std::sync::Arc::new(Fixed(
                citeproof_aca::Judgement::Unsupported {
                    reason: "the model says no".into(),
                },
            )));
        }),
        case("an added judge fails", 1, &[AcaJudgeFailed], |s| {
            s.opts.extra_judges.push(std::sync::Arc::new(Fixed(
                citeproof_aca::Judgement::Failed {
                    reason: "timed out".into(),
                },
            )));
        }),
    ];
    v
}
