//! A small demo agent platform, as data: every route (path → response) of a site that serves
//! the discovery document, source documents, one complete Level 3 run, one complete Level 2
//! run and several runs broken in different ways. `citeproof serve` serves it over HTTP; the
//! round-trip tests serve it from a loopback server too.
//!
//! Everything is produced with the public signer API (ledger → manifest → signed response), so
//! the demo is also an end-to-end example of that API.

use std::collections::BTreeMap;

use citeproof_jose::SigningKey;
use citeproof_model::aca::{Confidence, Manifest};
use citeproof_model::jcs::canonicalize;
use citeproof_model::primitives::HttpUrl;
use serde::Serialize;
use serde_json::{Map, Value, json};

use citeproof_aca::sign::discovery::DISCOVERY_PATH;
use citeproof_aca::sign::{
    DiscoveryConfig, InputRefusal, ManifestSignOptions, SignError, SignedResponse, StepInputs,
    discovery_document, emit_citation_source, entries_for_run, jwk_set, sign_manifest,
    unsigned_manifest_response,
};
use citeproof_ledger::{
    AttributionLedger, ClaimInput, Excerpt, LedgerConfig, LedgerError, RunId, SteppingClock,
};

/// One response of the demo site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// One demo run, as listed at `GET /runs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DemoRun {
    pub url: String,
    pub expected_level: u8,
    pub description: String,
}

/// The whole site.
#[derive(Debug, Clone)]
pub struct DemoSite {
    pub base_url: String,
    /// Routes by path (no query).
    pub routes: BTreeMap<String, DemoResponse>,
    pub runs: Vec<DemoRun>,
}

impl DemoSite {
    /// The response for a request path (query ignored), or a 404.
    pub fn respond(&self, path: &str) -> DemoResponse {
        let path = path.split(['?', '#']).next().unwrap_or("/");
        self.routes
            .get(path)
            .cloned()
            .unwrap_or_else(|| DemoResponse {
                status: 404,
                headers: vec![("Content-Type".into(), "text/plain; charset=utf-8".into())],
                body: format!("not found: {path}\ntry GET /runs\n").into_bytes(),
            })
    }
}

/// The `kid` of the demo's published key.
pub const DEMO_KID: &str = "demo-2026";
/// The `kid` a broken run signs with: the key is not published.
pub const UNPUBLISHED_KID: &str = "demo-unpublished";

const GEO: &str = "<!doctype html>\n<html><head><title>Programmatic GEO framework</title></head><body>\n<h1>Programmatic GEO framework</h1>\n<p>Programmatic GEO templates emit at most one canonical question per page.</p>\n<p>Each template page links to its parent hub and to three sibling pages.</p>\n</body></html>\n";
const CRAWL: &str = "Crawl budget notes\n\nAI crawlers revisit pages with stable canonical URLs more often than pages whose URLs change.\nSitemaps should list only canonical URLs.\n";
const GEO_QUOTE: &str = "Programmatic GEO templates emit at most one canonical question per page.";
const CRAWL_QUOTE: &str =
    "AI crawlers revisit pages with stable canonical URLs more often than pages whose URLs change.";

fn text_response(status: u16, content_type: &str, body: &[u8]) -> DemoResponse {
    DemoResponse {
        status,
        headers: vec![("Content-Type".into(), content_type.into())],
        body: body.to_vec(),
    }
}

fn from_signed(r: SignedResponse) -> DemoResponse {
    DemoResponse {
        status: r.status,
        headers: r.headers,
        body: r.body,
    }
}

struct Builder<'a> {
    base: String,
    key: &'a SigningKey,
    kid: String,
    now: i64,
    site: DemoSite,
}

/// What one run cites.
#[derive(Clone, Copy)]
struct ClaimSpec {
    text: &'static str,
    source_path: &'static str,
    source_body: &'static str,
    quote: &'static str,
}

/// How one run is served.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Serve {
    Signed,
    SignedUnpublishedKey,
    Unsigned,
    Level2,
    TamperedAfterSigning,
}

impl<'a> Builder<'a> {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Builds a run through the ledger and returns its manifest.
    fn manifest(
        &self,
        run_id: &str,
        claims: &[ClaimSpec],
        with_chain: bool,
    ) -> Result<Manifest, LedgerError> {
        let clock = SteppingClock::new(self.now - 120, 1);
        let mut ledger =
            AttributionLedger::new(LedgerConfig::strict(), RunId::new(run_id)?, Box::new(clock));
        let mut q = Map::new();
        q.insert(
            "query".into(),
            json!("programmatic GEO canonical questions"),
        );
        let search = ledger.tool_call("web_search", StepInputs::Public(q), &[])?;
        let mut private = Map::new();
        private.insert("api_key_id".into(), json!("demo-internal"));
        private.insert(
            "urls".into(),
            json!(
                claims
                    .iter()
                    .map(|c| self.url(c.source_path))
                    .collect::<Vec<_>>()
            ),
        );
        let fetch = ledger.tool_call("fetch_pages", StepInputs::Private(private), &[&search])?;
        let mut captures = BTreeMap::new();
        for c in claims {
            if !captures.contains_key(c.source_path) {
                let id = ledger.capture(
                    &fetch,
                    &self.url(c.source_path),
                    c.source_body.as_bytes().to_vec(),
                    "web_fetch",
                )?;
                captures.insert(c.source_path, id);
            }
        }
        let _answer = ledger.tool_call("compose_answer", StepInputs::None, &[&fetch])?;
        for c in claims {
            let Some(cap) = captures.get(c.source_path) else {
                continue;
            };
            ledger.register(
                ClaimInput::attributed(c.text, *cap, Excerpt::quote(c.quote))
                    .with_confidence(Confidence::High),
            )?;
        }
        ledger.register(ClaimInput::unattributed(
            "This answer was composed from the pages fetched in this run.",
            false,
        ))?;
        ledger.build_manifest("demo.citeproof/v1", with_chain)
    }

    fn serve_manifest(&self, manifest: &Manifest, how: Serve) -> Result<DemoResponse, LedgerError> {
        let opts = ManifestSignOptions {
            keyid: self.kid.clone(),
            created: self.now - 60,
            expires: None,
        };
        Ok(match how {
            Serve::Signed => from_signed(sign_manifest(manifest, self.key, &opts)?),
            Serve::SignedUnpublishedKey => {
                let other = SigningKey::from_secret_bytes(&[7u8; 32]);
                let opts = ManifestSignOptions {
                    keyid: UNPUBLISHED_KID.into(),
                    ..opts
                };
                from_signed(sign_manifest(manifest, &other, &opts)?)
            }
            Serve::Unsigned | Serve::Level2 => from_signed(unsigned_manifest_response(manifest)?),
            Serve::TamperedAfterSigning => {
                let signed = sign_manifest(manifest, self.key, &opts)?;
                // Rewritten in transit: the agent id changes, the headers stay.
                let mut value: Value = serde_json::from_slice(&signed.body)
                    .map_err(|e| SignError::InvalidDocument(e.to_string()))?;
                if let Some(obj) = value.as_object_mut() {
                    obj.insert("agent_id".into(), json!("impostor.example/v9"));
                }
                DemoResponse {
                    status: 200,
                    headers: signed.headers,
                    body: canonicalize(&value),
                }
            }
        })
    }

    fn agent_response(&self, text: &str, header: Option<String>) -> DemoResponse {
        let mut headers = vec![(
            "Content-Type".to_owned(),
            "text/plain; charset=utf-8".to_owned(),
        )];
        if let Some(h) = header {
            headers.push(("Citation-Source".into(), h));
        }
        DemoResponse {
            status: 200,
            headers,
            body: text.as_bytes().to_vec(),
        }
    }

    /// Lists the run served at `path` on the demo's index, with the level it should reach.
    fn list(&mut self, path: &str, expected_level: u8, description: &str) {
        let url = self.url(path);
        self.site.runs.push(DemoRun {
            url,
            expected_level,
            description: description.to_owned(),
        });
    }

    /// A run; `bound`: the manifest names the URL of its response (`response_url`,
    /// ACA-L2-024), as a platform should (ACA-L2-025).
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        name: &str,
        claims: &[ClaimSpec],
        how: Serve,
        header_run: Option<&str>,
        manifest_run: &str,
        expected_level: u8,
        description: &str,
        bound: bool,
    ) -> Result<(), LedgerError> {
        let path = format!("/runs/{name}");
        let manifest_path = format!("{path}/manifest");
        let mut manifest = self.manifest(manifest_run, claims, how != Serve::Level2)?;
        if bound {
            // The ledger does not know where its response is served; the platform does.
            manifest.response_url = Some(HttpUrl::parse(&self.url(&path)).map_err(|reason| {
                InputRefusal::InvalidValue {
                    what: "response_url",
                    reason,
                }
            })?);
        }
        let served = self.serve_manifest(&manifest, how)?;
        self.site.routes.insert(manifest_path.clone(), served);
        let sources: Vec<String> = {
            let mut v: Vec<String> = Vec::new();
            for c in claims {
                let u = self.url(c.source_path);
                if !v.contains(&u) {
                    v.push(u);
                }
            }
            v
        };
        let entries = entries_for_run(&sources, &self.url(&manifest_path), header_run)?;
        let header = emit_citation_source(&entries)?;
        let answer: String = claims
            .iter()
            .map(|c| format!("{} ", c.text))
            .collect::<String>()
            .trim_end()
            .to_owned()
            + "\n";
        let resp = self.agent_response(&answer, Some(header));
        self.site.routes.insert(path.clone(), resp);
        self.list(&path, expected_level, description);
        Ok(())
    }
}

/// Builds the demo site for `base_url` (e.g. `http://127.0.0.1:8080`), signing with `key`
/// (published under `kid`, e.g. [`DEMO_KID`]); `now` (Unix seconds) dates the runs.
#[allow(
    clippy::too_many_lines,
    reason = "a renderer: one output format top to bottom"
)]
pub fn build_demo_site(
    base_url: &str,
    key: &SigningKey,
    kid: &str,
    now: i64,
) -> Result<DemoSite, LedgerError> {
    let base = base_url.trim_end_matches('/').to_owned();
    let mut b = Builder {
        base: base.clone(),
        key,
        kid: kid.to_owned(),
        now,
        site: DemoSite {
            base_url: base.clone(),
            routes: BTreeMap::new(),
            runs: Vec::new(),
        },
    };
    let geo = ClaimSpec {
        text: GEO_QUOTE,
        source_path: "/sources/geo-framework.html",
        source_body: GEO,
        quote: GEO_QUOTE,
    };
    let crawl = ClaimSpec {
        text: "AI crawlers revisit pages with stable canonical URLs more often.",
        source_path: "/sources/crawl-budget.txt",
        source_body: CRAWL,
        quote: CRAWL_QUOTE,
    };
    b.site.routes.insert(
        geo.source_path.into(),
        text_response(200, "text/html; charset=utf-8", GEO.as_bytes()),
    );
    b.site.routes.insert(
        crawl.source_path.into(),
        text_response(200, "text/plain; charset=utf-8", CRAWL.as_bytes()),
    );
    // Served with an edit elsewhere in the page: the hash no longer matches, the excerpt is intact.
    let changed_body = format!("<!-- updated after the run -->\n{GEO}");
    b.site.routes.insert(
        "/sources/geo-framework-live.html".into(),
        text_response(200, "text/html; charset=utf-8", changed_body.as_bytes()),
    );

    let discovery = discovery_document(&DiscoveryConfig {
        manifest_schema: format!("{base}/schema/manifest-v1.json"),
        contact: "attribution@demo.citeproof.invalid".into(),
        keys: vec![(kid.to_owned(), key.verifying_key())],
        jwks_uri: None,
        manifest_origins: Vec::new(),
    })?;
    let json_response = |v: &Value| DemoResponse {
        status: 200,
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: canonicalize(v),
    };
    let disc_value =
        serde_json::to_value(&discovery).map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    b.site
        .routes
        .insert(DISCOVERY_PATH.into(), json_response(&disc_value));
    let jwks = serde_json::to_value(jwk_set(&[(kid.to_owned(), key.verifying_key())])?)
        .map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    b.site
        .routes
        .insert("/keys/jwks.json".into(), json_response(&jwks));

    b.run("complete", &[geo, crawl], Serve::Signed, Some("demo-complete"), "demo-complete", 3,
        "Complete Level 3 run: two sources, a chain with a private step, a manifest signed with the published key.", true)?;
    b.run("level2", &[geo, crawl], Serve::Level2, Some("demo-level2"), "demo-level2", 2,
        "Complete Level 2 run: hashes, offsets and supported claims, but no chain and no signature (it claims Level 2 only).", true)?;
    b.run("unsigned", &[geo], Serve::Unsigned, Some("demo-unsigned"), "demo-unsigned", 2,
        "Broken at Level 3: the manifest has a chain but its response is not signed (aca-signature-missing).", true)?;
    b.run("tampered", &[geo], Serve::TamperedAfterSigning, Some("demo-tampered"), "demo-tampered", 2,
        "Broken at Level 3: the manifest was rewritten after signing; the signed Content-Digest no longer matches the body (aca-content-digest-mismatch).", true)?;
    b.run("wrong-key", &[geo], Serve::SignedUnpublishedKey, Some("demo-wrong-key"), "demo-wrong-key", 2,
        "Broken at Level 3: the manifest is signed with a key the discovery document does not publish (aca-key-unresolved).", true)?;
    let changed = ClaimSpec {
        source_path: "/sources/geo-framework-live.html",
        ..geo
    };
    b.run("changed-source", &[changed], Serve::Signed, Some("demo-changed"), "demo-changed", 1,
        "Broken at Level 2: the source changed after the run; the excerpt is still there (aca-source-hash-mismatch with aca-excerpt-intact).", true)?;
    b.run("reused-manifest", &[geo], Serve::Signed, Some("demo-reuse-2"), "demo-reuse-1", 1,
        "Broken at Level 2: the response of run demo-reuse-2 points to the manifest of run demo-reuse-1 (aca-run-mismatch).", true)?;
    // The complete run's response, served again at another URL: its manifest names the URL it
    // was emitted for, so the copy fails by itself, in whatever order the two are recorded.
    if let Some(complete) = b.site.routes.get("/runs/complete").cloned() {
        b.site
            .routes
            .insert("/runs/replayed".into(), complete.clone());
        b.list("/runs/replayed", 1, "Broken at Level 2: the complete run's response replayed at another URL; its signed manifest names /runs/complete (aca-response-url-mismatch), whatever an audit store has seen.");
        // The complete run's answer and header on an error page (ACA-L1-009).
        b.site.routes.insert(
            "/runs/error-page".into(),
            DemoResponse {
                status: 500,
                ..complete
            },
        );
        b.list("/runs/error-page", 0, "Broken at Level 1: the complete run's header and answer served with status 500 (aca-response-fetch-failed with fetch-http-status).");
    }
    // A stable link that redirects to the complete run: the response verified is the final one,
    // whose URL the manifest names (ACA-L2-024).
    b.site.routes.insert(
        "/runs/latest".into(),
        DemoResponse {
            status: 302,
            headers: vec![("Location".into(), "/runs/complete".into())],
            body: Vec::new(),
        },
    );
    b.list("/runs/latest", 3, "A redirect (302) to the complete run: the response verified is the final one, at /runs/complete, which its manifest names.");
    // A seed-shaped run whose manifest does not name its response, and a copy of it at another
    // URL: each is Level 3 alone (with aca-response-unbound); nothing in the manifest tells the
    // original, so with --record, once both were seen, both fail (aca-manifest-reused).
    b.run("unbound", &[geo, crawl], Serve::Signed, Some("demo-unbound"), "demo-unbound", 3,
        "Level 3 with a warning: the manifest does not name its response (aca-response-unbound); with --record, once /runs/unbound-copy was also seen, both fail (aca-manifest-reused).", false)?;
    if let Some(unbound) = b.site.routes.get("/runs/unbound").cloned() {
        b.site.routes.insert("/runs/unbound-copy".into(), unbound);
        b.list("/runs/unbound-copy", 3, "The unbound run's response at another URL: Level 3 on its own (aca-response-unbound); with --record, once /runs/unbound was also seen, both fail (aca-manifest-reused).");
    }
    let unsupported = ClaimSpec {
        text: "Programmatic GEO templates emit five canonical questions per page.",
        ..geo
    };
    b.run(
        "unsupported-claim",
        &[unsupported],
        Serve::Signed,
        Some("demo-unsupported"),
        "demo-unsupported",
        1,
        "Broken at Level 2: the claim says more than its excerpt (aca-claim-unsupported).",
        true,
    )?;
    // No header at all.
    let path = "/runs/no-header";
    b.site.routes.insert(
        path.into(),
        b.agent_response("An answer without any citation.\n", None),
    );
    b.list(
        path,
        0,
        "Broken at Level 1: the response has no Citation-Source header (aca-header-missing).",
    );

    let runs = serde_json::to_value(&b.site.runs)
        .map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    let mut runs_body =
        serde_json::to_vec_pretty(&runs).map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    runs_body.push(b'\n');
    b.site.routes.insert(
        "/runs".into(),
        text_response(200, "application/json", &runs_body),
    );
    let mut index = String::from(
        "citeproof demo agent platform\n\nGET /runs lists the demo runs. Verify one with:\n\n",
    );
    for r in &b.site.runs {
        index.push_str(&format!(
            "  citeproof aca verify --allow-private {}   # expected level {}\n",
            r.url, r.expected_level
        ));
    }
    b.site.routes.insert(
        "/".into(),
        text_response(200, "text/plain; charset=utf-8", index.as_bytes()),
    );
    Ok(b.site)
}
