//! Every incident code the ACA verifier can raise, produced by a tampered or malformed input.
//!
//! A baseline Level 3 response is built as a web snapshot (agent response, one signed manifest,
//! two sources, discovery document); each case changes one thing and states the codes that
//! must appear and the level achieved. The last test checks that the cases together raise every
//! `aca-*` code of the registry and the other codes the ACA flow owns.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_aca::sign::{ManifestSignOptions, SigningKey, sign_manifest_value};
use citeproof_aca::{AcaReport, VerifyOptions, verify_snapshot};
use citeproof_model::snapshot::{SnapshotResponse, StoredResponse, WebSnapshot};
use citeproof_model::{IncidentCode, aef_text_hash, jcs::canonicalize, sha256_bytes};
use serde_json::{Value, json};

const NOW: i64 = 1_777_370_400; // 2026-04-28T10:00:00Z
const AGENT: &str = "https://agent.example/runs/r1";
const MANIFEST: &str = "https://agent.example/runs/r1/manifest";
const DISCOVERY: &str = "https://agent.example/.well-known/agent-citation-attribution";
const SRC_A: &str = "https://example.com/a";
const SRC_B: &str = "https://example.com/b";
const BODY_A: &str = "<html><body><p>Programmatic GEO templates emit at most one canonical question per page.</p></body></html>\n";
const BODY_B: &str = "AI crawlers revisit pages with stable canonical URLs more often.\nSitemaps list canonical URLs.\n";
const QUOTE_A: &str = "Programmatic GEO templates emit at most one canonical question per page.";
const QUOTE_B: &str = "AI crawlers revisit pages with stable canonical URLs more often.";
/// The agent's answer: it states both claims of the baseline manifest (ACA-L2-021).
const ANSWER: &str = "Programmatic GEO templates emit at most one canonical question per page. \
AI crawlers revisit stable canonical URLs more often.\n";

fn key() -> SigningKey {
    SigningKey::from_secret_bytes(&[9u8; 32])
}

fn stored(status: u16, headers: &[(&str, &str)], body: &[u8]) -> StoredResponse {
    StoredResponse {
        status,
        headers: headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
        body_base64: STANDARD.encode(body),
    }
}

fn offsets(body: &str, quote: &str) -> (usize, usize) {
    let start = body.find(quote).unwrap();
    (start, start + quote.len())
}

fn source(url: &str, body: &str, quote: &str) -> Value {
    let (s, e) = offsets(body, quote);
    json!({
        "url": url,
        "retrieved_at": "2026-04-28T09:55:00Z",
        "hash": sha256_bytes(body.as_bytes()).to_string(),
        "excerpt_offset": [s, e],
        "excerpt_hash": aef_text_hash(&body.as_bytes()[s..e]).unwrap().to_string(),
    })
}

type Tamper = Box<dyn Fn(&mut StoredResponse)>;

struct Scenario {
    agent_status: u16,
    agent_headers: Vec<(String, String)>,
    agent_url: String,
    agent_body: String,
    manifest: Value,
    sign: bool,
    created: i64,
    expires: Option<i64>,
    keyid: String,
    signing_key: SigningKey,
    /// Applied to the manifest response after signing.
    tamper: Option<Tamper>,
    resources: BTreeMap<String, StoredResponse>,
    discovery: Value,
    opts: VerifyOptions,
}

impl Scenario {
    fn baseline() -> Scenario {
        let header = format!(
            "<{SRC_A}>; manifest=\"{MANIFEST}\"; run=\"r1\", <{SRC_B}>; manifest=\"{MANIFEST}\"; run=\"r1\""
        );
        let manifest = json!({
            "run_id": "r1",
            "agent_id": "agent.example/v1",
            "emitted_at": "2026-04-28T10:00:00Z",
            "response_url": AGENT,
            "claims": [
                {"claim_id": "c1", "text": QUOTE_A, "sources": [source(SRC_A, BODY_A, QUOTE_A)], "confidence": "high"},
                {"claim_id": "c2", "text": "AI crawlers revisit stable canonical URLs more often.", "sources": [source(SRC_B, BODY_B, QUOTE_B)]}
            ],
            "chain": [
                {"step": 1, "tool": "search", "inputs": {"q": "programmatic geo"}, "outputs_ref": "runs/r1/step/1", "sources": [SRC_A, SRC_B]},
                {"step": 2, "tool": "summarize", "inputs_ref": "runs/r1/step/1",
                 "inputs_hash": sha256_bytes(&canonicalize(&json!({"secret": "x"}))).to_string(),
                 "outputs_ref": "runs/r1/step/2", "sources": [SRC_A, SRC_B]}
            ]
        });
        let k = key();
        let x =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(k.verifying_key().to_bytes());
        let discovery = json!({
            "version": "1.0",
            "manifest_schema": "https://agent.example/schema/manifest-v1.json",
            "supported_signing": ["http-message-signatures"],
            "contact": "attribution@agent.example",
            "keys": {"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "k1", "x": x}]}
        });
        let mut resources = BTreeMap::new();
        resources.insert(
            SRC_A.to_owned(),
            stored(200, &[("content-type", "text/html")], BODY_A.as_bytes()),
        );
        resources.insert(
            SRC_B.to_owned(),
            stored(200, &[("content-type", "text/plain")], BODY_B.as_bytes()),
        );
        Scenario {
            agent_status: 200,
            agent_headers: vec![
                ("content-type".into(), "text/plain".into()),
                ("citation-source".into(), header),
            ],
            agent_url: AGENT.into(),
            agent_body: ANSWER.into(),
            manifest,
            sign: true,
            created: NOW - 60,
            expires: None,
            keyid: "k1".into(),
            signing_key: k,
            tamper: None,
            resources,
            discovery,
            opts: VerifyOptions::new(NOW),
        }
    }

    fn header(&mut self, value: &str) {
        self.agent_headers.retain(|(n, _)| n != "citation-source");
        self.agent_headers
            .push(("citation-source".into(), value.into()));
    }

    fn snapshot(&self) -> WebSnapshot {
        let mut resources = self.resources.clone();
        let mut manifest_response = if self.sign {
            let signed = sign_manifest_value(
                &self.manifest,
                &self.signing_key,
                &ManifestSignOptions {
                    keyid: self.keyid.clone(),
                    created: self.created,
                    expires: self.expires,
                },
            )
            .unwrap();
            StoredResponse {
                status: 200,
                headers: signed.headers,
                body_base64: STANDARD.encode(&signed.body),
            }
        } else {
            stored(
                200,
                &[("content-type", "application/json")],
                &canonicalize(&self.manifest),
            )
        };
        if let Some(t) = &self.tamper {
            t(&mut manifest_response);
        }
        resources
            .entry(MANIFEST.to_owned())
            .or_insert(manifest_response);
        resources.entry(DISCOVERY.to_owned()).or_insert_with(|| {
            stored(
                200,
                &[("content-type", "application/json")],
                &canonicalize(&self.discovery),
            )
        });
        WebSnapshot {
            snapshot_version: 1,
            response: SnapshotResponse {
                url: self.agent_url.clone(),
                status: self.agent_status,
                headers: self.agent_headers.clone(),
                body_base64: STANDARD.encode(self.agent_body.as_bytes()),
            },
            resources,
        }
    }

    fn verify(&self) -> AcaReport {
        verify_snapshot(&self.snapshot(), &self.opts)
    }
}

fn body_of(r: &StoredResponse) -> Vec<u8> {
    STANDARD.decode(&r.body_base64).unwrap()
}

fn set_body(r: &mut StoredResponse, body: &[u8]) {
    r.body_base64 = STANDARD.encode(body);
}

fn set_header(r: &mut StoredResponse, name: &str, value: Option<&str>) {
    r.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    if let Some(v) = value {
        r.headers.push((name.to_owned(), v.to_owned()));
    }
}

type Mutation = Box<dyn Fn(&mut Scenario)>;

struct Case {
    name: &'static str,
    mutate: Mutation,
    codes: Vec<IncidentCode>,
    level: u8,
}

fn case(
    name: &'static str,
    level: u8,
    codes: &[IncidentCode],
    mutate: impl Fn(&mut Scenario) + 'static,
) -> Case {
    Case {
        name,
        mutate: Box::new(mutate),
        codes: codes.to_vec(),
        level,
    }
}

/// A judge that always gives the same verdict.
struct Fixed(citeproof_aca::Judgement);

impl citeproof_aca::SupportJudge for Fixed {
    fn name(&self) -> &str {
        "fixed judge"
    }
    fn judge(&self, _claim: &str, _excerpts: &[&str]) -> citeproof_aca::Judgement {
        self.0.clone()
    }
}

fn claim_source(s: &mut Scenario) -> &mut serde_json::Map<String, Value> {
    s.manifest["claims"][0]["sources"][0]
        .as_object_mut()
        .unwrap()
}

fn discovery_tamper(s: &mut Scenario, f: impl Fn(&mut Value)) {
    f(&mut s.discovery);
}

fn cases() -> Vec<Case> {
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
            |s| {
                s.tamper = Some(Box::new(|r| {
                    set_header(r, "content-encoding", Some("gzip"))
                }));
            },
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
            |s| {
                s.tamper = Some(Box::new(|r| {
                    set_header(r, "content-type", Some("text/plain"))
                }));
            },
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
        case("signature without input", 2, &[AcaSignatureMissing], |s| {
            s.tamper = Some(Box::new(|r| set_header(r, "signature-input", None)));
        }),
        case(
            "signature input not a dictionary",
            2,
            &[HttpsigInvalidStructuredField],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    set_header(r, "signature-input", Some("sig1=(\"@status\""))
                }));
            },
        ),
        case(
            "label without signature",
            2,
            &[HttpsigSignatureMissing],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    let v = r
                        .headers
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case("signature"))
                        .unwrap()
                        .1
                        .replace("sig1=", "sig2=");
                    set_header(r, "signature", Some(&v));
                }));
            },
        ),
        case("short signature", 2, &[HttpsigMalformedSignature], |s| {
            s.tamper = Some(Box::new(|r| {
                set_header(r, "signature", Some("sig1=:AAAA:"))
            }));
        }),
        case(
            "unknown derived component",
            2,
            &[HttpsigInvalidComponent],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    set_header(
                        r,
                        "signature-input",
                        Some(
                            "sig1=(\"@status\" \"content-type\" \"content-digest\" \"@bogus\");created=1777370340;keyid=\"k1\"",
                        ),
                    );
                }));
            },
        ),
        case("component twice", 2, &[HttpsigDuplicateComponent], |s| {
            s.tamper = Some(Box::new(|r| {
                set_header(
                    r,
                    "signature-input",
                    Some(
                        "sig1=(\"@status\" \"content-type\" \"content-digest\" \"@status\");created=1777370340;keyid=\"k1\"",
                    ),
                );
            }));
        }),
        case(
            "covered header absent",
            2,
            &[HttpsigMissingComponent],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    set_header(
                        r,
                        "signature-input",
                        Some(
                            "sig1=(\"@status\" \"content-type\" \"content-digest\" \"x-absent\");created=1777370340;keyid=\"k1\"",
                        ),
                    );
                }));
            },
        ),
        case(
            "content-type not covered",
            2,
            &[HttpsigRequiredComponentNotCovered],
            |s| {
                s.tamper = Some(Box::new(|r| {
                    set_header(
                        r,
                        "signature-input",
                        Some(
                            "sig1=(\"@status\" \"content-digest\");created=1777370340;keyid=\"k1\"",
                        ),
                    );
                }));
            },
        ),
        case("keyid missing", 2, &[HttpsigRequiredParamMissing], |s| {
            s.tamper = Some(Box::new(|r| {
                set_header(
                    r,
                    "signature-input",
                    Some(
                        "sig1=(\"@status\" \"content-type\" \"content-digest\");created=1777370340",
                    ),
                );
            }));
        }),
        case("created as string", 2, &[HttpsigInvalidParameter], |s| {
            s.tamper = Some(Box::new(|r| {
                set_header(
                    r,
                    "signature-input",
                    Some(
                        "sig1=(\"@status\" \"content-type\" \"content-digest\");created=\"1777370340\";keyid=\"k1\"",
                    ),
                );
            }));
        }),
        case("alg rsa", 2, &[HttpsigAlgMismatch], |s| {
            s.tamper = Some(Box::new(|r| {
                set_header(
                    r,
                    "signature-input",
                    Some(
                        "sig1=(\"@status\" \"content-type\" \"content-digest\");created=1777370340;keyid=\"k1\";alg=\"rsa-pss-sha512\"",
                    ),
                );
            }));
        }),
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
            |s| {
                s.tamper = Some(Box::new(|r| set_header(r, "content-digest", None)));
            },
        ),
        case("digest md5 only", 2, &[AcaContentDigestMissing], |s| {
            s.tamper = Some(Box::new(|r| {
                set_header(r, "content-digest", Some("md5=:AAAAAAAAAAAAAAAAAAAAAA==:"))
            }));
        }),
        case("digest wrong length", 2, &[AcaContentDigestInvalid], |s| {
            s.tamper = Some(Box::new(|r| {
                set_header(r, "content-digest", Some("sha-256=:AAAA:"))
            }));
        }),
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

#[test]
fn baseline_is_level_3_without_incidents() {
    let r = Scenario::baseline().verify();
    assert_eq!(r.verdict.level, 3, "{:#?}", r.verdict.incidents);
    assert!(r.verdict.incidents.is_empty(), "{:#?}", r.verdict.incidents);
}

/// Reporting rule 3: a key that is unusable for a reason already reported (a failed discovery
/// document or JWK Set, a published private key, a missing or duplicate kid) is not reported
/// again as `aca-key-unresolved`.
#[test]
fn unusable_keys_are_not_reported_twice() {
    let names = [
        "discovery 404",
        "discovery as html",
        "discovery without keys",
        "jwks_uri unreachable",
        "published private key",
        "key without kid",
        "two keys with one kid",
    ];
    let mut checked = 0;
    for c in cases().into_iter().filter(|c| names.contains(&c.name)) {
        let mut s = Scenario::baseline();
        (c.mutate)(&mut s);
        let r = s.verify();
        assert!(
            !r.has(IncidentCode::AcaKeyUnresolved),
            "{}: {:?}",
            c.name,
            r.verdict.incidents
        );
        assert_eq!(r.verdict.level, 2, "{}", c.name);
        checked += 1;
    }
    assert_eq!(checked, names.len());
}

#[test]
fn every_case_raises_its_codes_and_reaches_its_level() {
    let mut seen: BTreeSet<&'static str> = BTreeSet::new();
    let mut failures = Vec::new();
    for c in cases() {
        let mut s = Scenario::baseline();
        (c.mutate)(&mut s);
        let r = s.verify();
        for code in &c.codes {
            if !r.has(*code) {
                failures.push(format!(
                    "{}: {} missing; got {:?}",
                    c.name,
                    code.as_str(),
                    r.verdict
                        .incidents
                        .iter()
                        .map(|i| i.incident.code.as_str())
                        .collect::<Vec<_>>()
                ));
            }
        }
        if r.verdict.level != c.level {
            failures.push(format!(
                "{}: level {} instead of {}; {:?}",
                c.name,
                r.verdict.level,
                c.level,
                r.verdict
                    .incidents
                    .iter()
                    .map(|i| (i.level, i.incident.code.as_str()))
                    .collect::<Vec<_>>()
            ));
        }
        for i in &r.verdict.incidents {
            seen.insert(i.incident.code.as_str());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Every aca-* code, and every other code the ACA flow raises itself, is covered.
    let mut must: Vec<&str> = IncidentCode::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| {
            c.starts_with("aca-")
                || c.starts_with("httpsig-")
                || c.starts_with("jwk-")
                || c.starts_with("json-")
        })
        .collect();
    must.extend([
        "schema-violation",
        "unknown-member",
        "schema-timestamp-invalid",
        "canon-hash-syntax",
    ]);
    must.extend([
        "fetch-http-status",
        "fetch-content-encoding",
        "fetch-not-in-snapshot",
        "fetch-snapshot-invalid",
        "fetch-too-many-redirects",
        "fetch-redirect-invalid",
        "fetch-address-forbidden",
        "fetch-port-forbidden",
        "fetch-too-large",
    ]);
    let missing: Vec<&&str> = must.iter().filter(|c| !seen.contains(**c)).collect();
    assert!(missing.is_empty(), "codes never raised: {missing:?}");
}

#[test]
fn required_level_bounds_the_checks() {
    // Level 2 requested: the discovery document is not fetched and an unsigned manifest passes.
    let mut s = Scenario::baseline();
    s.sign = false;
    s.opts.required_level = Some(2);
    let r = s.verify();
    assert_eq!(
        (r.verdict.level, r.verdict.verified),
        (2, true),
        "{:#?}",
        r.verdict.incidents
    );
    // Level 1 requested: manifests are not fetched.
    let mut s = Scenario::baseline();
    s.resources.insert(MANIFEST.into(), stored(404, &[], b""));
    s.opts.required_level = Some(1);
    let r = s.verify();
    assert_eq!(
        (r.verdict.level, r.verdict.verified),
        (1, true),
        "{:#?}",
        r.verdict.incidents
    );
    // Default: the claimed level (a chain is a Level 3 claim).
    let mut s = Scenario::baseline();
    s.sign = false;
    let r = s.verify();
    assert_eq!(
        (
            r.verdict.level,
            r.verdict.required_level,
            r.verdict.verified
        ),
        (2, 3, false)
    );
}

#[test]
fn a_good_label_wins_over_a_bad_one() {
    let mut s = Scenario::baseline();
    s.tamper = Some(Box::new(|r| {
        let input = r
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("signature-input"))
            .unwrap()
            .1
            .clone();
        let sig = r
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("signature"))
            .unwrap()
            .1
            .clone();
        set_header(
            r,
            "signature-input",
            Some(&format!(
                "bad=(\"@status\");created=1;keyid=\"k1\", {input}"
            )),
        );
        set_header(r, "signature", Some(&format!("bad=:AAAA:, {sig}")));
    }));
    let r = s.verify();
    assert_eq!(r.verdict.level, 3, "{:#?}", r.verdict.incidents);
}

#[test]
fn unregistered_signature_parameters_are_ignored_but_signed() {
    // Sign by hand with a `tag` and an unregistered parameter; the verifier keeps them in
    // @signature-params and otherwise ignores them (ACA-L3-009).
    let mut s = Scenario::baseline();
    s.sign = false;
    let body = canonicalize(&s.manifest);
    let digest = citeproof_httpsig::content_digest_sha256(&body);
    let params = "(\"@status\" \"content-type\" \"content-digest\");created=1777370340;keyid=\"k1\";tag=\"aca\";x-note=\"hi\"";
    let base = format!(
        "\"@status\": 200\n\"content-type\": application/json\n\"content-digest\": {digest}\n\"@signature-params\": {params}"
    );
    let sig = key().sign(base.as_bytes());
    let resp = stored(
        200,
        &[
            ("Content-Type", "application/json"),
            ("Content-Digest", &digest),
            ("Signature-Input", &format!("sig1={params}")),
            ("Signature", &format!("sig1=:{}:", STANDARD.encode(sig))),
        ],
        &body,
    );
    s.resources.insert(MANIFEST.into(), resp);
    let r = s.verify();
    assert_eq!(r.verdict.level, 3, "{:#?}", r.verdict.incidents);
}

#[test]
fn a_pluggable_judge_reports_under_the_same_code() {
    use citeproof_aca::{Judgement, SupportJudge};
    struct Strict;
    impl SupportJudge for Strict {
        fn name(&self) -> &str {
            "exact-match judge"
        }
        fn judge(&self, claim: &str, excerpts: &[&str]) -> Judgement {
            if excerpts.contains(&claim) {
                Judgement::Supported
            } else {
                Judgement::Unsupported {
                    reason: "not an exact excerpt".into(),
                }
            }
        }
    }
    let mut s = Scenario::baseline();
    s.opts.judge = std::sync::Arc::new(Strict);
    let r = s.verify();
    // c1 is its excerpt verbatim; c2 paraphrases its excerpt: the lexical judge accepts it, this
    // judge does not.
    assert_eq!(r.details.judge, "exact-match judge");
    let unsupported: Vec<_> = r
        .verdict
        .incidents
        .iter()
        .filter(|i| i.incident.code == IncidentCode::AcaClaimUnsupported)
        .collect();
    assert_eq!(unsupported.len(), 1, "{:#?}", r.verdict.incidents);
    assert_eq!(
        unsupported[0].incident.location.claim_id.as_deref(),
        Some("c2")
    );
    assert_eq!(unsupported[0].incident.message, "not an exact excerpt");
    assert_eq!(r.verdict.level, 1);
}

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
    assert!(
        r.details
            .manifests
            .iter()
            .flat_map(|m| &m.claims)
            .all(|c| !c.verified)
    );
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
