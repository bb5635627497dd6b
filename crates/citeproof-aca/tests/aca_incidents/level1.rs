//! Level 1 cases: the response, the header, the snapshot.

use super::*;

pub(super) fn cases() -> Vec<Case> {
    use IncidentCode::*;
    let mut v = vec![
        // ---- Level 1 ----
        // ACA-L1-009: everything else verifies at Level 3; the response's own status does not.
        case(
            "agent response 500",
            0,
            &[AcaResponseFetchFailed, FetchHttpStatus],
            |s| s.agent_status = 500,
        ),
        case(
            "agent response 404",
            0,
            &[AcaResponseFetchFailed, FetchHttpStatus],
            |s| s.agent_status = 404,
        ),
        case(
            "agent response gzip",
            0,
            &[AcaResponseFetchFailed, FetchContentEncoding],
            |s| {
                s.agent_headers
                    .push(("content-encoding".into(), "gzip".into()))
            },
        ),
        // ACA-L2-024, -025: the manifest names the response it was emitted for.
        case("served at another URL", 1, &[AcaResponseUrlMismatch], |s| {
            s.agent_url = "https://agent.example/runs/r1-copy".into()
        }),
        case("no response_url", 3, &[AcaResponseUnbound], |s| {
            s.manifest.as_object_mut().unwrap().remove("response_url");
        }),
        case("response_url not a web URL", 1, &[AcaUrlInvalid], |s| {
            s.manifest["response_url"] = json!("runs/r1");
        }),
        case("no header", 0, &[AcaHeaderMissing], |s| {
            s.agent_headers.retain(|(n, _)| n != "citation-source")
        }),
        case("empty list", 0, &[AcaHeaderMissing], |s| s.header(" , ")),
        case(
            "lost angle brackets (seed text)",
            0,
            &[AcaHeaderSyntax],
            |s| s.header(&format!("; manifest=\"{MANIFEST}\"")),
        ),
        // No HTTP client hands over a field value with a control character, so a snapshot
        // that stores one is refused before the header is read (FETCH-008); the header
        // parser's own refusal is tested in the parser's unit tests.
        case("control character", 0, &[FetchSnapshotInvalid], |s| {
            s.header(&format!("<{SRC_A}>;\u{1} manifest=\"{MANIFEST}\""))
        }),
        case("too long", 0, &[AcaHeaderTooLong], |s| {
            s.header(&format!(
                "<{SRC_A}?{}>; manifest=\"{MANIFEST}\"",
                "a".repeat(8200)
            ))
        }),
        case("too many entries", 0, &[AcaHeaderTooLong], |s| {
            // 257 header-only entries in 6 424 bytes: over MAX_HEADER_ENTRIES (256), under
            // MAX_HEADER_BYTES (8192).
            let entries: Vec<String> = (0..257)
                .map(|i| format!("<https://e.example/{i}>"))
                .collect();
            let value = entries.join(", ");
            assert!(value.len() <= 8192);
            s.header(&value)
        }),
        case("duplicate source", 0, &[AcaHeaderDuplicateSource], |s| {
            s.header(&format!("<{SRC_A}>; manifest=\"{MANIFEST}\", <HTTPS://EXAMPLE.COM:443/a>; manifest=\"{MANIFEST}\", <{SRC_B}>; manifest=\"{MANIFEST}\""))
        }),
        case(
            "manifest parameter missing (header-only entry)",
            1,
            &[AcaHeaderManifestMissing, AcaRunMissing],
            |s| {
                s.header(&format!(
                    "<{SRC_A}>; manifest=\"{MANIFEST}\"; run=\"r1\", <{SRC_B}>"
                ))
            },
        ),
        case("run parameter missing", 1, &[AcaRunMissing], |s| {
            s.header(&format!(
                "<{SRC_A}>; manifest=\"{MANIFEST}\", <{SRC_B}>; manifest=\"{MANIFEST}\""
            ))
        }),
        case(
            "response body swapped (issue 8)",
            1,
            &[AcaClaimNotInResponse],
            |s| s.agent_body = "The moon is made of cheese. Vaccines cause autism.".into(),
        ),
        case(
            "response body not textual",
            1,
            &[AcaClaimNotInResponse],
            |s| {
                s.agent_headers.retain(|(n, _)| n != "content-type");
                s.agent_headers
                    .push(("content-type".into(), "application/octet-stream".into()));
            },
        ),
        case(
            "served from another origin that publishes no discovery document (issue 8)",
            2,
            &[AcaDiscoveryFetchFailed],
            |s| {
                // A seed-shaped manifest, so that only the origin rules decide.
                s.manifest.as_object_mut().unwrap().remove("response_url");
                s.agent_url = "https://mirror.example/runs/r1".into();
            },
        ),
        case(
            "manifest on an origin the discovery document does not list",
            2,
            &[AcaManifestOriginUnauthorized],
            |s| {
                let elsewhere = "https://cdn.example/m1";
                s.header(&format!(
                    "<{SRC_A}>; manifest=\"{elsewhere}\"; run=\"r1\", <{SRC_B}>; manifest=\"{elsewhere}\"; run=\"r1\""
                ));
                let signed = s.snapshot().resources[MANIFEST].clone();
                s.resources.insert(elsewhere.into(), signed);
            },
        ),
        case(
            "manifest reused from another run (with a history)",
            1,
            &[AcaManifestReused],
            |s| {
                // ACA-L2-022 applies to manifests that do not name their response.
                s.manifest.as_object_mut().unwrap().remove("response_url");
                let digest = s.snapshot().resources[MANIFEST].clone();
                let digest = sha256_bytes(&body_of(&digest)).to_string();
                s.opts.history = Some(std::sync::Arc::new(vec![(
                    digest,
                    citeproof_aca::Sighting {
                        response_url: "https://agent.example/runs/r0".into(),
                        run_id: Some("r0".into()),
                    },
                )]));
            },
        ),
        case(
            "manifest parameter repeated",
            0,
            &[AcaHeaderParamDuplicate],
            |s| {
                s.header(&format!("<{SRC_A}>; manifest=\"{MANIFEST}\"; Manifest=\"{MANIFEST}\", <{SRC_B}>; manifest=\"{MANIFEST}\""))
            },
        ),
        case(
            "manifest parameter as token",
            0,
            &[AcaHeaderParamForm],
            |s| {
                s.header(&format!(
                    "<{SRC_A}>; manifest=\"{MANIFEST}\", <{SRC_B}>; manifest=m1"
                ))
            },
        ),
        case("source URL not http", 0, &[AcaUrlInvalid], |s| {
            s.header(&format!(
                "<{SRC_A}>; manifest=\"{MANIFEST}\", <ftp://example.com/b>; manifest=\"{MANIFEST}\""
            ))
        }),
        case("run parameter invalid", 0, &[AcaRunIdInvalid], |s| {
            s.header(&format!("<{SRC_A}>; manifest=\"{MANIFEST}\"; run=\"r 1\", <{SRC_B}>; manifest=\"{MANIFEST}\""))
        }),
        case("run parameters disagree", 0, &[AcaRunMismatch], |s| {
            s.header(&format!("<{SRC_A}>; manifest=\"{MANIFEST}\"; run=\"r1\", <{SRC_B}>; manifest=\"{MANIFEST}\"; run=\"r2\""))
        }),
    ];
    // A broken snapshot.
    v.push(case(
        "snapshot with bad base64",
        0,
        &[FetchSnapshotInvalid],
        |s| {
            s.resources.insert(
                SRC_A.into(),
                StoredResponse {
                    status: 200,
                    headers: vec![],
                    body_base64: "***".into(),
                },
            );
        },
    ));
    v
}
