//! One manifest on its own: ACA-L2-003 to ACA-L2-010 and the chain rules ACA-L3-001 to
//! ACA-L3-006. The value is walked by hand so that every violation gets the specific registry
//! code the profile names (reporting rule 2) with a JSON pointer, and so that the parts that are
//! valid can still be used by the later steps (reporting rule 3).

use std::collections::HashMap;

use citeproof_model::json::{JsonError, parse_strict_jcs};
use citeproof_model::{ContentHash, Incident, IncidentCode, Timestamp};
use serde_json::{Map, Value};

mod across;
mod chain;
mod typed;

use across::{Chain, check_across};
use chain::check_chain;

use crate::verify::header::{is_claim_id, is_run_id};
use crate::verify::jsonpath::{Ctx, child, content_hash, index, kind, profile_integer, timestamp};
use crate::verify::url::web_url_problem;

/// What the checker found in one manifest. Incidents are split by the level they count toward:
/// everything about `chain` (and the source-in-chain rule) is Level 3.
#[derive(Debug, Clone, Default)]
pub struct ManifestFindings {
    pub level2: Vec<Incident>,
    pub level3: Vec<Incident>,
    pub manifest: CheckedManifest,
}

/// The usable parts of a manifest: each member is `Some` only when it is valid.
#[derive(Debug, Clone, Default)]
pub struct CheckedManifest {
    pub run_id: Option<String>,
    pub emitted_at: Option<Timestamp>,
    pub claims: Vec<CheckedClaim>,
    /// `Some` when `chain` is a non-empty array.
    pub chain: Option<Vec<CheckedStep>>,
    /// `true` when the manifest has a `chain` member at all (a Level 3 hint).
    pub has_chain_member: bool,
    /// `response_url` when it is a web URL (ACA-L2-024).
    pub response_url: Option<String>,
    /// `true` when the manifest has a `response_url` member at all, valid or not: such a
    /// manifest is not "unbound" (ACA-L2-025), and an invalid one has its own incident.
    pub has_response_url_member: bool,
}

#[derive(Debug, Clone, Default)]
pub struct CheckedClaim {
    pub pointer: String,
    pub claim_id: Option<String>,
    pub text: Option<String>,
    pub sources: Vec<CheckedSource>,
}

#[derive(Debug, Clone, Default)]
pub struct CheckedSource {
    pub pointer: String,
    pub url: Option<String>,
    pub retrieved_at: Option<Timestamp>,
    pub hash: Option<ContentHash>,
    pub excerpt_offset: Option<(u64, u64)>,
    pub excerpt_hash: Option<ContentHash>,
}

#[derive(Debug, Clone, Default)]
pub struct CheckedStep {
    pub step: usize,
    pub outputs_ref: Option<String>,
    /// Valid web URLs of `sources`.
    pub sources: Vec<String>,
}

/// Members of a manifest, a claim and a claim source (ACA-L2-003, -005, -008); a chain step's
/// are in `chain`.
const MANIFEST_MEMBERS: &[&str] = &[
    "run_id",
    "agent_id",
    "emitted_at",
    "claims",
    "chain",
    "response_url",
];
const CLAIM_MEMBERS: &[&str] = &["claim_id", "text", "sources", "confidence"];
const SOURCE_MEMBERS: &[&str] = &[
    "url",
    "retrieved_at",
    "hash",
    "excerpt_offset",
    "excerpt_hash",
];

/// Web-URL checks, made once per distinct URL string: a manifest of ten
/// thousand claims usually cites a handful of sources, and parsing the same URL again for every
/// claim was a third of the manifest walk.
#[derive(Debug, Default)]
struct Urls<'v> {
    problems: HashMap<&'v str, Option<String>>,
}

impl<'v> Urls<'v> {
    fn problem(&mut self, u: &'v str) -> Option<String> {
        self.problems
            .entry(u)
            .or_insert_with(|| web_url_problem(u))
            .clone()
    }
}

fn has_unknown_members(obj: &Map<String, Value>, known: &[&str]) -> bool {
    obj.keys()
        .any(|k| !known.contains(&k.as_str()) && !k.starts_with("x-"))
}

fn unknown_members(
    ctx: &Ctx,
    obj: &Map<String, Value>,
    known: &[&str],
    base: &str,
) -> Vec<Incident> {
    obj.keys()
        .filter(|k| !known.contains(&k.as_str()) && !k.starts_with("x-"))
        .map(|k| {
            ctx.at(
                IncidentCode::UnknownMember,
                base,
                format!("unknown member `{k}` (only `x-` extension members may be added)"),
            )
        })
        .collect()
}

/// Reads and checks a manifest's bytes (what the verifier does with every manifest it fetches):
/// the findings of [`check_manifest`] and whether the bytes are their own JCS form
/// (ACA-L3-012), or the strict parser's error. A valid manifest is read straight from the
/// parser's tokens without a `Value` tree; any other goes through [`read_manifest_tree`], so
/// both give the same result (a test holds them equal over the vectors).
pub fn read_manifest(
    bytes: &[u8],
    url: Option<&str>,
) -> Result<(ManifestFindings, bool), JsonError> {
    match read_manifest_tokens(bytes, url) {
        Some(read) => Ok(read),
        None => read_manifest_tree(bytes, url),
    }
}

/// The typed reading of [`read_manifest`] alone: `None` when it leaves the document to the
/// `Value` walk (anything to report but the rules across claims and steps, or not I-JSON).
pub fn read_manifest_tokens(bytes: &[u8], url: Option<&str>) -> Option<(ManifestFindings, bool)> {
    typed::read(bytes, url)
}

/// [`read_manifest`] through a `serde_json::Value`: the strict parse, then [`check_manifest`].
pub fn read_manifest_tree(
    bytes: &[u8],
    url: Option<&str>,
) -> Result<(ManifestFindings, bool), JsonError> {
    let (value, canonical) = parse_strict_jcs(bytes)?;
    Ok((check_manifest(&value, url), canonical))
}

/// Checks a parsed manifest. `url` is where it was fetched from (for incident locations).
pub fn check_manifest(value: &Value, url: Option<&str>) -> ManifestFindings {
    let ctx = Ctx {
        url: url.map(str::to_owned),
    };
    let mut f = ManifestFindings::default();
    let Some(obj) = value.as_object() else {
        f.level2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "",
            format!("a manifest must be a JSON object, found {}", kind(value)),
        ));
        return f;
    };
    f.level2
        .extend(unknown_members(&ctx, obj, MANIFEST_MEMBERS, ""));
    let mut urls = Urls::default();

    check_run_members(&ctx, obj, &mut f);
    let l2 = &mut f.level2;
    match obj.get("claims") {
        None => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "",
            "missing member `claims`".into(),
        )),
        Some(Value::Array(claims)) if !claims.is_empty() => {
            for (i, claim) in claims.iter().enumerate() {
                let checked = check_claim(&ctx, claim, i, l2, &mut urls);
                f.manifest.claims.push(checked);
            }
        }
        Some(v) => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "/claims",
            format!("claims must be a non-empty array, found {}", describe(v)),
        )),
    }

    f.manifest.has_chain_member = obj.contains_key("chain");
    let chain = match obj.get("chain") {
        None => Chain::Absent,
        Some(Value::Array(steps)) if steps.is_empty() => Chain::Empty,
        Some(Value::Array(steps)) => Chain::Steps(check_chain(&ctx, steps, &mut f.level3)),
        Some(v) => {
            f.level3.push(ctx.at(
                IncidentCode::SchemaViolation,
                "/chain",
                format!("chain must be an array of step objects, found {}", kind(v)),
            ));
            Chain::Invalid
        }
    };
    check_across(&ctx, &mut f, chain);
    f
}

/// The manifest's scalar members: `run_id`, `agent_id`, `emitted_at`, `response_url`.
fn check_run_members(ctx: &Ctx, obj: &Map<String, Value>, f: &mut ManifestFindings) {
    let l2 = &mut f.level2;
    match obj.get("run_id") {
        None => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "",
            "missing member `run_id`".into(),
        )),
        Some(Value::String(s)) if is_run_id(s) => f.manifest.run_id = Some(s.clone()),
        Some(Value::String(s)) => l2.push(ctx.at(
            IncidentCode::AcaRunIdInvalid,
            "/run_id",
            format!("run_id `{s}` does not match ^[A-Za-z0-9][A-Za-z0-9._:-]{{0,127}}$"),
        )),
        Some(v) => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "/run_id",
            format!("run_id must be a string, found {}", kind(v)),
        )),
    }
    match obj.get("agent_id") {
        None => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "",
            "missing member `agent_id`".into(),
        )),
        Some(Value::String(s)) if !s.is_empty() => {}
        Some(v) => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "/agent_id",
            format!("agent_id must be a non-empty string, found {}", describe(v)),
        )),
    }
    match obj.get("emitted_at") {
        None => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "",
            "missing member `emitted_at`".into(),
        )),
        Some(v) => match timestamp(v) {
            Ok(t) => f.manifest.emitted_at = Some(t),
            Err((code, msg)) => l2.push(ctx.at(code, "/emitted_at", format!("emitted_at: {msg}"))),
        },
    }
    f.manifest.has_response_url_member = obj.contains_key("response_url");
    match obj.get("response_url") {
        None => {}
        Some(Value::String(u)) => match web_url_problem(u) {
            None => f.manifest.response_url = Some(u.clone()),
            Some(problem) => l2.push(ctx.at(
                IncidentCode::AcaUrlInvalid,
                "/response_url",
                format!("response_url `{u}` is not a web URL: {problem}"),
            )),
        },
        Some(v) => l2.push(ctx.at(
            IncidentCode::SchemaViolation,
            "/response_url",
            format!("response_url must be a string, found {}", kind(v)),
        )),
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() => "an empty string".into(),
        Value::Array(a) if a.is_empty() => "an empty array".into(),
        other => kind(other).into(),
    }
}

fn check_claim<'v>(
    ctx: &Ctx,
    claim: &'v Value,
    i: usize,
    out: &mut Vec<Incident>,
    urls: &mut Urls<'v>,
) -> CheckedClaim {
    let base = index("/claims", i);
    let mut c = CheckedClaim {
        pointer: base.clone(),
        ..CheckedClaim::default()
    };
    let Some(obj) = claim.as_object() else {
        out.push(ctx.at(
            IncidentCode::SchemaViolation,
            &base,
            format!("a claim must be an object, found {}", kind(claim)),
        ));
        return c;
    };
    out.extend(unknown_members(ctx, obj, CLAIM_MEMBERS, &base));
    match obj.get("claim_id") {
        None => out.push(ctx.at(IncidentCode::SchemaViolation, &base, "missing member `claim_id`".into())),
        Some(Value::String(s)) if is_claim_id(s) => c.claim_id = Some(s.clone()),
        Some(Value::String(s)) => out.push(ctx.at(
            IncidentCode::AcaClaimIdInvalid,
            &child(&base, "claim_id"),
            format!(
                "claim_id {s:?} is not a stable id (^[A-Za-z0-9][A-Za-z0-9._:-]{{0,63}}$, no spaces or free text)"
            ),
        )),
        Some(v) => out.push(ctx.at(
            IncidentCode::SchemaViolation,
            &child(&base, "claim_id"),
            format!("claim_id must be a string, found {}", kind(v)),
        )),
    }
    let id = c.claim_id.clone();
    match obj.get("text") {
        None => out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            &base,
            id.as_deref(),
            "missing member `text`".into(),
        )),
        Some(Value::String(s)) if !s.is_empty() => c.text = Some(s.clone()),
        Some(v) => out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            &child(&base, "text"),
            id.as_deref(),
            format!("text must be a non-empty string, found {}", describe(v)),
        )),
    }
    if let Some(conf) = obj.get("confidence")
        && !matches!(conf.as_str(), Some("high" | "medium" | "low"))
    {
        out.push(ctx.at_claim(
            IncidentCode::AcaConfidenceInvalid,
            &child(&base, "confidence"),
            id.as_deref(),
            format!("confidence must be `high`, `medium` or `low`, found {conf}"),
        ));
    }
    match obj.get("sources") {
        None => out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            &base,
            id.as_deref(),
            "missing member `sources`".into(),
        )),
        Some(Value::Array(sources)) if !sources.is_empty() => {
            for (j, s) in sources.iter().enumerate() {
                let checked = check_source(
                    ctx,
                    s,
                    &index(&child(&base, "sources"), j),
                    id.as_deref(),
                    out,
                    urls,
                );
                c.sources.push(checked);
            }
        }
        Some(v) => out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            &child(&base, "sources"),
            id.as_deref(),
            format!("sources must be a non-empty array, found {}", describe(v)),
        )),
    }
    c
}

fn check_source<'v>(
    ctx: &Ctx,
    source: &'v Value,
    base: &str,
    claim_id: Option<&str>,
    out: &mut Vec<Incident>,
    urls: &mut Urls<'v>,
) -> CheckedSource {
    let mut s = CheckedSource {
        pointer: base.to_owned(),
        ..CheckedSource::default()
    };
    let Some(obj) = source.as_object() else {
        out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            base,
            claim_id,
            format!("a claim source must be an object, found {}", kind(source)),
        ));
        return s;
    };
    for i in unknown_members(ctx, obj, SOURCE_MEMBERS, base) {
        let mut i = i;
        i.location.claim_id = claim_id.map(str::to_owned);
        out.push(i);
    }
    match obj.get("url") {
        None => out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            base,
            claim_id,
            "missing member `url`".into(),
        )),
        Some(Value::String(u)) => match urls.problem(u) {
            None => s.url = Some(u.clone()),
            Some(problem) => out.push(ctx.at_claim(
                IncidentCode::AcaUrlInvalid,
                &child(base, "url"),
                claim_id,
                format!("source URL `{u}` is not a web URL: {problem}"),
            )),
        },
        Some(v) => out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            &child(base, "url"),
            claim_id,
            format!("url must be a string, found {}", kind(v)),
        )),
    }
    match obj.get("retrieved_at") {
        None => out.push(ctx.at_claim(
            IncidentCode::SchemaViolation,
            base,
            claim_id,
            "missing member `retrieved_at`".into(),
        )),
        Some(v) => match timestamp(v) {
            Ok(t) => s.retrieved_at = Some(t),
            Err((code, msg)) => out.push(ctx.at_claim(
                code,
                &child(base, "retrieved_at"),
                claim_id,
                format!("retrieved_at: {msg}"),
            )),
        },
    }
    check_source_hashes(ctx, obj, base, claim_id, out, &mut s);
    s
}

/// A claim source's `hash`, `excerpt_offset` and `excerpt_hash` (ACA-L2-008, ACA-L2-009).
fn check_source_hashes(
    ctx: &Ctx,
    obj: &Map<String, Value>,
    base: &str,
    claim_id: Option<&str>,
    out: &mut Vec<Incident>,
    s: &mut CheckedSource,
) {
    match obj.get("hash") {
        None => out.push(ctx.at_claim(
            IncidentCode::AcaHashMissing,
            base,
            claim_id,
            "the source has no `hash`, so a changed source cannot be detected".into(),
        )),
        Some(v) => match content_hash(v) {
            Ok(h) => s.hash = Some(h),
            Err((code, msg)) => {
                out.push(ctx.at_claim(code, &child(base, "hash"), claim_id, format!("hash: {msg}")))
            }
        },
    }
    match obj.get("excerpt_offset") {
        None => out.push(ctx.at_claim(
            IncidentCode::AcaOffsetMissing,
            base,
            claim_id,
            "the source has no `excerpt_offset`".into(),
        )),
        Some(v) => match offset_pair(v) {
            Some(pair) => s.excerpt_offset = Some(pair),
            None => out.push(ctx.at_claim(
                IncidentCode::AcaOffsetInvalid,
                &child(base, "excerpt_offset"),
                claim_id,
                format!("excerpt_offset must be two integers [start, end] with 0 <= start < end, found {v}"),
            )),
        },
    }
    if let Some(v) = obj.get("excerpt_hash") {
        match content_hash(v) {
            Ok(h) => s.excerpt_hash = Some(h),
            Err((code, msg)) => out.push(ctx.at_claim(
                code,
                &child(base, "excerpt_hash"),
                claim_id,
                format!("excerpt_hash: {msg}"),
            )),
        }
    }
}

fn offset_pair(v: &Value) -> Option<(u64, u64)> {
    let a = v.as_array()?;
    if a.len() != 2 {
        return None;
    }
    let start = profile_integer(&a[0])?;
    let end = profile_integer(&a[1])?;
    (start < end).then_some((start, end))
}
