//! Synthetic signed runs of any size, for benchmarks and scale checks (`cargo xtask bench`).
//!
//! A run is made the way an agent platform makes one with this signer: source documents, one
//! Level 3 manifest per `Citation-Source` entry (claims with hashes, offsets and excerpt hashes,
//! a chain whose first step records every source), each manifest response signed (RFC 9421,
//! Ed25519), the discovery document publishing the key, and an agent response whose text states
//! every claim. Everything is deterministic: the same [`SyntheticSpec`] and key give the same
//! bytes, so a benchmark measures the same work on every machine.
//!
//! Source `s` is a sequence of sentences `Record s.k: ...` padded to `source_bytes`; claim `j`
//! of the run quotes sentence `j / sources` of source `j % sources` verbatim (so the lexical
//! support rule accepts it by substring), and each manifest cites every source.

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_fetch::{FetchError, FetchPolicy, SnapshotFetcher, StoredEntry, write_warc};
use citeproof_jose::SigningKey;
use citeproof_model::jcs::canonicalize;
use citeproof_model::snapshot::{SnapshotResponse, StoredResponse, WebSnapshot};
use citeproof_model::{aef_text_hash, sha256_bytes};
use serde_json::{Map, Value, json};

use super::chain::{ChainBuilder, StepInputs, StepRef};
use super::discovery::{DISCOVERY_PATH, DiscoveryConfig, discovery_document};
use super::error::{InputRefusal, SignError};
use super::header::{EntryText, format_citation_source};
use super::response::{ManifestSignOptions, sign_manifest_value};

/// The shape of a synthetic run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntheticSpec {
    /// The agent's origin (`https://agent.example`): its response, manifests and discovery.
    pub origin: String,
    /// Prefix of the source URLs (`https://sources.example/doc/`; source `s` is at prefix + s).
    pub source_prefix: String,
    pub run_id: String,
    /// Manifests (one `Citation-Source` entry each), at least 1.
    pub manifests: usize,
    /// Claims of each manifest.
    pub claims_per_manifest: usize,
    /// Distinct sources, at least 1 (every manifest cites all of them).
    pub sources: usize,
    /// Smallest size of each source body, bytes (a source grows past it when its quoted
    /// sentences need more room).
    pub source_bytes: usize,
    /// Steps of each manifest's chain, at least 1: a first step that records the sources, then
    /// minimal steps each consuming the previous step's output.
    pub chain_steps: usize,
    /// `emitted_at` of the manifests (RFC 3339).
    pub emitted_at: String,
    /// `created` of the signatures, Unix seconds.
    pub created: i64,
    /// `kid` of the signing key in the discovery document.
    pub kid: String,
}

impl SyntheticSpec {
    /// A run on `https://agent.example` emitted at 2026-04-28T10:00:00Z (Unix 1777370400),
    /// signed a minute later by key `bench`, one manifest, one source of 1 KiB, a 2-step chain.
    pub fn new(claims_per_manifest: usize) -> SyntheticSpec {
        SyntheticSpec {
            origin: "https://agent.example".into(),
            source_prefix: "https://sources.example/doc/".into(),
            run_id: "r".into(),
            manifests: 1,
            claims_per_manifest,
            sources: 1,
            source_bytes: 1024,
            chain_steps: 2,
            emitted_at: "2026-04-28T10:00:00Z".into(),
            created: SYNTHETIC_CREATED,
            kid: "bench".into(),
        }
    }

    /// The `claims` workload of the benchmarks: 10 000 claims over 10 small sources.
    pub fn claims_workload() -> SyntheticSpec {
        SyntheticSpec {
            sources: 10,
            ..SyntheticSpec::new(10_000)
        }
    }

    /// The `chain` workload of the benchmarks (40 000 steps there): one claim and a chain of
    /// `steps` steps.
    pub fn chain_workload(steps: usize) -> SyntheticSpec {
        SyntheticSpec {
            chain_steps: steps,
            ..SyntheticSpec::new(1)
        }
    }

    /// The `hash-bound` workload of the benchmarks: 100 claims over 10 sources of 1 MiB.
    pub fn hash_bound_workload() -> SyntheticSpec {
        SyntheticSpec {
            sources: 10,
            source_bytes: 1024 * 1024,
            ..SyntheticSpec::new(100)
        }
    }
}

/// `created` of [`SyntheticSpec::new`]; verify at [`SYNTHETIC_NOW`].
pub const SYNTHETIC_CREATED: i64 = 1_777_370_460;
/// A verification time at which a synthetic run's signatures are fresh.
pub const SYNTHETIC_NOW: i64 = 1_777_370_520;

/// One response of a synthetic run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntheticResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// A synthetic run: the agent response's URL and every response by absolute URL (the agent
/// response included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntheticRun {
    pub agent_url: String,
    /// Prefix of the source URLs.
    pub source_prefix: String,
    pub responses: BTreeMap<String, SyntheticResponse>,
}

impl SyntheticRun {
    /// The agent response.
    pub fn agent(&self) -> Option<&SyntheticResponse> {
        self.responses.get(&self.agent_url)
    }

    /// Body bytes of every source document (what a verifier must hash at least once).
    pub fn source_bytes(&self) -> impl Iterator<Item = &[u8]> {
        self.responses
            .iter()
            .filter(|(u, _)| u.starts_with(&self.source_prefix))
            .map(|(_, r)| r.body.as_slice())
    }

    fn entry(r: &SyntheticResponse) -> StoredEntry {
        StoredEntry {
            status: r.status,
            headers: r.headers.clone(),
            body: r.body.clone().into(),
        }
    }

    fn resources(&self) -> impl Iterator<Item = (&String, &SyntheticResponse)> {
        self.responses.iter().filter(|(u, _)| **u != self.agent_url)
    }

    /// The run as a JSON web snapshot (what `--save-snapshot FILE.json` writes).
    pub fn snapshot(&self) -> Result<WebSnapshot, SignError> {
        let agent = self.agent().ok_or(invalid("agent response"))?;
        let stored = |r: &SyntheticResponse| StoredResponse {
            status: r.status,
            headers: r.headers.clone(),
            body_base64: STANDARD.encode(&r.body),
        };
        Ok(WebSnapshot {
            snapshot_version: 1,
            response: SnapshotResponse {
                url: self.agent_url.clone(),
                status: agent.status,
                headers: agent.headers.clone(),
                body_base64: STANDARD.encode(&agent.body),
            },
            resources: self
                .resources()
                .map(|(u, r)| (u.clone(), stored(r)))
                .collect(),
        })
    }

    /// A fetcher that serves the run offline under `policy`.
    pub fn fetcher(&self, policy: FetchPolicy) -> Result<SnapshotFetcher, FetchError> {
        let agent = self.agent().map(Self::entry).unwrap_or(StoredEntry {
            status: 404,
            headers: Vec::new(),
            body: citeproof_fetch::Bytes::new(),
        });
        let resources = self.resources().map(|(u, r)| (u.clone(), Self::entry(r)));
        SnapshotFetcher::from_entries(&self.agent_url, agent, resources, policy)
    }

    /// The run as a WARC file (what `--save-snapshot FILE.warc` writes), dated `date`.
    pub fn warc(&self, date: &str) -> Result<Vec<u8>, FetchError> {
        let fetcher = self.fetcher(FetchPolicy::default())?;
        let resources: Vec<(String, StoredEntry)> = self
            .resources()
            .map(|(u, r)| (u.clone(), Self::entry(r)))
            .collect();
        let mut out = Vec::new();
        write_warc(&mut out, fetcher.agent_response(), &resources, date)?;
        Ok(out)
    }
}

fn sentence(source: usize, k: usize) -> String {
    format!(
        "Record {source}.{k}: node {source} stored block {k}; the auditor verified its checksum."
    )
}

struct Source {
    url: String,
    body: Vec<u8>,
    /// Byte range of sentence `k` at index `k`.
    ranges: Vec<(usize, usize)>,
}

fn make_source(prefix: &str, s: usize, quoted: usize, min_bytes: usize) -> Source {
    let mut body = String::from("Synthetic source document.\n");
    let mut ranges = Vec::with_capacity(quoted);
    let mut k = 0;
    while k < quoted || body.len() < min_bytes {
        let text = sentence(s, k);
        let start = body.len();
        body.push_str(&text);
        if k < quoted {
            ranges.push((start, body.len()));
        }
        body.push('\n');
        k += 1;
    }
    Source {
        url: format!("{prefix}{s}"),
        body: body.into_bytes(),
        ranges,
    }
}

fn invalid(what: &'static str) -> SignError {
    InputRefusal::InvalidValue {
        what,
        reason: "must be at least 1".into(),
    }
    .into()
}

/// Builds the run of `spec`, signing its manifests with `key`.
pub fn build_synthetic_run(
    spec: &SyntheticSpec,
    key: &SigningKey,
) -> Result<SyntheticRun, SignError> {
    if spec.manifests == 0 {
        return Err(invalid("manifests"));
    }
    if spec.sources == 0 {
        return Err(invalid("sources"));
    }
    if spec.chain_steps == 0 {
        return Err(invalid("chain_steps"));
    }
    let origin = spec.origin.trim_end_matches('/');
    let total = spec.manifests.saturating_mul(spec.claims_per_manifest);
    let per_source = total.div_ceil(spec.sources);
    let sources: Vec<Source> = (0..spec.sources)
        .map(|s| make_source(&spec.source_prefix, s, per_source, spec.source_bytes))
        .collect();
    let mut responses = BTreeMap::new();
    for s in &sources {
        responses.insert(s.url.clone(), text_response(s.body.clone(), Vec::new()));
    }
    let agent_url = format!("{origin}/runs/{}", spec.run_id);
    let (answer, manifest_urls) =
        sign_manifests(spec, key, origin, &agent_url, &sources, &mut responses)?;
    let source_urls: Vec<&str> = sources.iter().map(|s| s.url.as_str()).collect();
    // One entry per manifest; the entries together list every source (ACA-L2-012).
    let entries: Vec<EntryText<'_>> = (0..spec.manifests.max(spec.sources))
        .filter_map(|i| {
            Some(EntryText {
                source: source_urls.get(i % spec.sources)?,
                manifest: Some(manifest_urls.get(i % spec.manifests)?.as_str()),
                run: Some(spec.run_id.as_str()),
                params: &[],
            })
        })
        .collect();
    let header = ("citation-source".into(), format_citation_source(&entries));
    responses.insert(
        agent_url.clone(),
        text_response(answer.into_bytes(), vec![header]),
    );
    responses.insert(
        format!("{origin}{DISCOVERY_PATH}"),
        discovery_response(spec, key, origin)?,
    );
    Ok(SyntheticRun {
        agent_url,
        source_prefix: spec.source_prefix.clone(),
        responses,
    })
}

/// A 200 `text/plain` response with `extra` headers after the content type.
fn text_response(body: Vec<u8>, extra: Vec<(String, String)>) -> SyntheticResponse {
    let mut headers = vec![("content-type".into(), "text/plain; charset=utf-8".into())];
    headers.extend(extra);
    SyntheticResponse {
        status: 200,
        headers,
        body,
    }
}

/// Signs the run's manifests into `responses`; returns the answer text (every claim's quote)
/// and the manifests' URLs.
fn sign_manifests(
    spec: &SyntheticSpec,
    key: &SigningKey,
    origin: &str,
    agent_url: &str,
    sources: &[Source],
    responses: &mut BTreeMap<String, SyntheticResponse>,
) -> Result<(String, Vec<String>), SignError> {
    let source_urls: Vec<&str> = sources.iter().map(|s| s.url.as_str()).collect();
    let chain = chain_value(&spec.run_id, spec.chain_steps, &source_urls)?;
    let opts = ManifestSignOptions {
        keyid: spec.kid.clone(),
        created: spec.created,
        expires: None,
    };
    let mut answer = String::new();
    let mut manifest_urls = Vec::with_capacity(spec.manifests);
    for m in 0..spec.manifests {
        let mut claims = Vec::with_capacity(spec.claims_per_manifest);
        for i in 0..spec.claims_per_manifest {
            let j = m * spec.claims_per_manifest + i;
            let (claim, text) = claim_value(spec, sources, j)?;
            answer.push_str(&text);
            answer.push(' ');
            claims.push(claim);
        }
        let manifest = json!({
            "run_id": spec.run_id,
            "agent_id": "bench.citeproof/v1",
            "emitted_at": spec.emitted_at,
            "response_url": agent_url,
            "claims": claims,
            "chain": chain,
        });
        let signed = sign_manifest_value(&manifest, key, &opts)?;
        let url = format!("{origin}/runs/{}/manifest/{m}", spec.run_id);
        responses.insert(
            url.clone(),
            SyntheticResponse {
                status: signed.status,
                headers: signed.headers,
                body: signed.body,
            },
        );
        manifest_urls.push(url);
    }
    answer.push('\n');
    Ok((answer, manifest_urls))
}

/// Claim `j` of the run and its text: the `j / sources`-th quoted sentence of source
/// `j % sources`.
fn claim_value(
    spec: &SyntheticSpec,
    sources: &[Source],
    j: usize,
) -> Result<(Value, String), SignError> {
    let (s, k) = (j % spec.sources, j / spec.sources);
    let src = sources.get(s).ok_or(invalid("sources"))?;
    let &(a, b) = src.ranges.get(k).ok_or(invalid("sources"))?;
    let quote = src.body.get(a..b).ok_or(invalid("sources"))?;
    let text = String::from_utf8_lossy(quote).into_owned();
    let claim = json!({
        "claim_id": format!("c{j}"),
        "text": text,
        "confidence": "high",
        "sources": [{
            "url": src.url,
            "retrieved_at": spec.emitted_at,
            "hash": sha256_bytes(&src.body).to_string(),
            "excerpt_offset": [a, b],
            "excerpt_hash": aef_text_hash(quote)
                .map_err(|e| SignError::InvalidDocument(e.to_string()))?
                .to_string(),
        }],
    });
    Ok((claim, text))
}

/// The origin's discovery document, listing `key` under the spec's kid.
fn discovery_response(
    spec: &SyntheticSpec,
    key: &SigningKey,
    origin: &str,
) -> Result<SyntheticResponse, SignError> {
    let discovery = discovery_document(&DiscoveryConfig {
        manifest_schema: format!("{origin}/schema/manifest-v1.json"),
        contact: "attribution@agent.example".into(),
        keys: vec![(spec.kid.clone(), key.verifying_key())],
        jwks_uri: None,
        manifest_origins: Vec::new(),
    })?;
    let discovery =
        serde_json::to_value(&discovery).map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    Ok(SyntheticResponse {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: canonicalize(&discovery),
    })
}

/// The chain: a search step that records every source, then minimal steps.
fn chain_value(run_id: &str, steps: usize, sources: &[&str]) -> Result<Value, SignError> {
    let mut chain = ChainBuilder::new(run_id);
    let mut q = Map::new();
    q.insert("q".into(), json!("synthetic benchmark"));
    let mut last: StepRef = chain.step("web_search", StepInputs::Public(q), &[], sources)?;
    for _ in 1..steps {
        last = chain.step("t", StepInputs::None, &[last], &[])?;
    }
    let mut value = serde_json::to_value(chain.build())
        .map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    // Minimal steps: references are the step numbers alone (`"7"`, not `runs/r/step/7`), so a
    // chain of 140 000 steps fits the 10 MiB manifest body of FETCH-004.
    let prefix = format!("runs/{run_id}/step/");
    for step in value.as_array_mut().into_iter().flatten() {
        // No empty `sources` (a step that read nothing says nothing).
        if let Some(obj) = step.as_object_mut()
            && obj.get("sources") == Some(&json!([]))
        {
            obj.remove("sources");
        }
        for member in ["inputs_ref", "outputs_ref"] {
            if let Some(Value::String(r)) = step.get_mut(member)
                && let Some(n) = r.strip_prefix(&prefix)
            {
                *r = n.to_owned();
            }
        }
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_quote_their_sentences_and_grow_to_size() {
        let s = make_source("https://s.example/", 3, 2, 4096);
        assert!(s.body.len() >= 4096);
        let (a, b) = s.ranges[1];
        assert_eq!(&s.body[a..b], sentence(3, 1).as_bytes());
        assert!(
            build_synthetic_run(
                &SyntheticSpec {
                    manifests: 0,
                    ..SyntheticSpec::new(1)
                },
                &SigningKey::from_secret_bytes(&[1; 32])
            )
            .is_err()
        );
    }

    /// Hand-written: the minimal form of a step that consumes the one before it.
    #[test]
    fn chain_steps_are_minimal() {
        let chain = chain_value("r", 3, &["https://s.example/a"]).unwrap();
        let step = citeproof_model::jcs::canonicalize(&chain[1]);
        assert_eq!(
            String::from_utf8(step).unwrap(),
            r#"{"inputs_ref":"1","outputs_ref":"2","step":2,"tool":"t"}"#
        );
    }
}
