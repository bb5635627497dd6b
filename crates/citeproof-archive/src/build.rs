//! The gate as a producer runs it: from the pipeline's claims with their citations, the archive
//! and the requestor's tier, the signed bundle and its display view, deterministically. Any
//! citation that does not verify halts assembly: nothing is delivered unsigned or unchecked.

use std::collections::HashMap;

use citeproof_model::archive::{
    ArchiveCitation, BundleClaim, Consent, DisplayCitation, DisplayClaim, DisplayView, GateRequest,
    LogEvent, Refusal, RefusalReason, RelationLabel, RemovedReason, RemovedTopic, ResponseBundle,
    Rung,
};
use citeproof_model::{ContentHash, Extensions, Timestamp, jcs, sha256_bytes};
use serde_json::Value;

use crate::citation::{CitationFacts, check_citation};
use crate::display::handle;
use crate::findings::{Findings, pointer};
use crate::gate::Allowed;
use crate::log::outcome_of;
use crate::signature::{Signer, sign};
use crate::store::Store;
use crate::text;

/// Label of a labeled claim when the request gives none.
pub const DEFAULT_LABEL: &str = "Interpretation: inferred from the archive, not stated in it.";
/// Removed topic of a claim with no counted citation, when the request gives none (or its own
/// would reveal a hidden artifact).
pub const DEFAULT_TOPIC_NO_COVERAGE: &str = "A part of the question the archive does not cover";
/// Removed topic of a claim the gate judged too thin.
pub const DEFAULT_TOPIC_THIN: &str =
    "A part of the question the archive covers too thinly to answer";

/// Why the gate refused to assemble a bundle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("no snapshot of the archive is in force at {0}")]
    NoSnapshotInForce(String),
    #[error("tier `{0}` is not defined by the policy in force")]
    TierUnknown(String),
    #[error("claim id `{0}` is used twice")]
    DuplicateClaimId(String),
    #[error("a category refusal has no claims (the archive is never queried)")]
    CategoryWithClaims,
    #[error("the bundle would be signed at {signed_at}, before its created_at {created_at}")]
    SignedBeforeCreated {
        signed_at: String,
        created_at: String,
    },
    #[error("claim `{claim_id}`: citation {index} does not verify: [{code}] {message}")]
    Citation {
        claim_id: String,
        index: usize,
        code: String,
        message: String,
    },
    #[error("claim `{0}`: even the neutral wording would reveal a hidden artifact")]
    Reveals(String),
}

/// A gated, signed response.
#[derive(Debug, Clone)]
pub struct Gated {
    /// The signed bundle (auditor-facing).
    pub bundle: Value,
    /// The display view (requestor-facing).
    pub display: Value,
    /// JCS hash of the signed bundle.
    pub bundle_hash: ContentHash,
    /// The bundle's log record (ARCHIVE-029), to append at `signed_at`.
    pub log_event: LogEvent,
}

/// What the gate needs besides the request and the archive.
#[derive(Debug)]
pub struct GateOptions<'a> {
    pub signer: &'a Signer,
    /// Signing time (also `created_at` when the request has none).
    pub signed_at: Timestamp,
    /// Put the unredacted span text in each citation (ARCHIVE-023 advises against it).
    pub plaintext_excerpts: bool,
}

struct Prepared {
    claim: BundleClaim,
    facts: Vec<CitationFacts>,
    allowed: Allowed,
    showable_inference: bool,
    withhold: bool,
    topic: Option<String>,
    label: Option<String>,
}

/// Gates, signs and builds the display of one response.
pub fn gate(
    request: &GateRequest,
    store: &Store,
    opts: &GateOptions<'_>,
) -> Result<Gated, BuildError> {
    let created_at = request
        .created_at
        .clone()
        .unwrap_or_else(|| opts.signed_at.clone());
    if opts.signed_at < created_at {
        return Err(BuildError::SignedBeforeCreated {
            signed_at: opts.signed_at.to_string(),
            created_at: created_at.to_string(),
        });
    }
    let in_force = store
        .in_force_at(&created_at)
        .ok_or_else(|| BuildError::NoSnapshotInForce(created_at.to_string()))?;
    let version = store
        .snapshot(in_force)
        .map(|s| s.archive_version.clone())
        .unwrap_or_default();
    let cap = store
        .tier(in_force, &request.tier)
        .ok_or_else(|| BuildError::TierUnknown(request.tier.clone()))?
        .excerpt_cap as usize;
    if request.category_refusal.is_some() && !request.claims.is_empty() {
        return Err(BuildError::CategoryWithClaims);
    }
    let mut prepared = Vec::with_capacity(request.claims.len());
    let mut ids = std::collections::HashSet::new();
    for (i, gc) in request.claims.iter().enumerate() {
        if !ids.insert(gc.claim_id.as_str()) {
            return Err(BuildError::DuplicateClaimId(gc.claim_id.clone()));
        }
        prepared.push(prepare(
            i,
            gc,
            store,
            in_force,
            cap,
            opts.plaintext_excerpts,
        )?);
    }
    let rungs: Vec<Option<Rung>> = prepared
        .iter()
        .map(|p| {
            if p.withhold {
                None
            } else if p.allowed.supported {
                Some(Rung::Supported)
            } else if p.allowed.labeled && p.showable_inference {
                Some(Rung::Labeled)
            } else {
                None
            }
        })
        .collect();
    let delivered_any = rungs.iter().any(Option::is_some);
    let hidden = hidden_runs(&prepared, store, in_force);
    let mut claims = Vec::with_capacity(prepared.len());
    let mut removed_topics = Vec::new();
    for (p, rung) in prepared.iter().zip(&rungs) {
        let mut claim = p.claim.clone();
        claim.rung = match rung {
            Some(r) => *r,
            None if delivered_any => Rung::Narrowed,
            None => Rung::Refused,
        };
        if claim.rung == Rung::Labeled {
            claim.label = Some(choose(
                p.label.as_deref(),
                DEFAULT_LABEL,
                &hidden,
                &claim.claim_id,
            )?);
        }
        if claim.rung == Rung::Narrowed {
            let reason = p.allowed.removed_reason();
            let neutral = match reason {
                RemovedReason::NoCoverage => DEFAULT_TOPIC_NO_COVERAGE,
                RemovedReason::ThinCoverage => DEFAULT_TOPIC_THIN,
            };
            let topic = choose(p.topic.as_deref(), neutral, &hidden, &claim.claim_id)?;
            removed_topics.push(RemovedTopic { topic, reason });
        }
        claims.push(claim);
    }
    let refusal = match (request.category_refusal, delivered_any) {
        (Some(category), _) => Some(Refusal {
            reason: RefusalReason::Category,
            category: Some(category),
            inventory_offered: false,
        }),
        (None, false) => Some(Refusal {
            reason: RefusalReason::Coverage,
            category: None,
            inventory_offered: true,
        }),
        (None, true) => None,
    };
    let bundle = ResponseBundle {
        bundle_version: "1".into(),
        response_id: request.response_id.clone(),
        requester: request.requester.clone(),
        tier: request.tier.clone(),
        archive_version: version,
        created_at,
        claims,
        removed_topics,
        refusal,
        signature: None,
        extensions: Extensions::default(),
    };
    let mut value = match serde_json::to_value(&bundle) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    sign(&mut value, opts.signer, &opts.signed_at);
    let bundle_value = Value::Object(value);
    let bundle_hash = sha256_bytes(&jcs::canonicalize(&bundle_value));
    let facts: Vec<&[CitationFacts]> = prepared.iter().map(|p| p.facts.as_slice()).collect();
    let display = display_view(&bundle, &facts, bundle_hash, cap);
    let display_value = serde_json::to_value(&display).unwrap_or(Value::Null);
    let log_event = LogEvent::Bundle {
        response_id: bundle.response_id.clone(),
        requester: bundle.requester.clone(),
        tier: bundle.tier.clone(),
        bundle_hash,
        outcome: outcome_of(&bundle),
        extensions: Extensions::default(),
    };
    Ok(Gated {
        bundle: bundle_value,
        display: display_value,
        bundle_hash,
        log_event,
    })
}

fn prepare(
    i: usize,
    gc: &citeproof_model::archive::GateClaim,
    store: &Store,
    in_force: usize,
    cap: usize,
    plaintext: bool,
) -> Result<Prepared, BuildError> {
    let mut citations = Vec::with_capacity(gc.citations.len());
    let mut facts = Vec::with_capacity(gc.citations.len());
    for (j, c) in gc.citations.iter().enumerate() {
        let mut cit = ArchiveCitation {
            artifact_id: c.artifact_id,
            archive_version: c.archive_version.clone(),
            span: c.span.clone(),
            relation: c.relation,
            excerpt_hash: None,
            excerpt: None,
            extensions: Extensions::default(),
        };
        // The span text first (to hash it), then every citation check on the full citation.
        if let Some(citeproof_model::archive::ArtifactPayload::Text { .. }) =
            store.payload(&c.artifact_id)
            && let Some(p) = store.payload(&c.artifact_id)
            && let Ok(crate::span::Resolved::Text(t)) = crate::span::resolve(&c.span, p)
        {
            cit.excerpt_hash = Some(sha256_bytes(t.as_bytes()));
            if plaintext {
                cit.excerpt = Some(t);
            }
        }
        let mut f = Findings::new();
        let at = pointer(&pointer(&pointer("/claims", i), "citations"), j);
        let fact = check_citation(
            &cit,
            &gc.claim_id,
            &gc.text,
            &at,
            store,
            Some(in_force),
            &mut f,
        );
        if let Some(bad) =
            f.0.iter()
                .find(|x| x.severity == citeproof_model::Severity::Error)
        {
            return Err(BuildError::Citation {
                claim_id: gc.claim_id.clone(),
                index: j,
                code: bad.code.to_string(),
                message: bad.message.clone(),
            });
        }
        citations.push(cit);
        facts.push(fact);
    }
    let allowed = Allowed::from_facts(&citations, &facts);
    let showable_inference = citations.iter().zip(&facts).any(|(c, f)| {
        !c.relation.is_direct_support()
            && f.counted()
            && f.consent == Some(Consent::Open)
            && f.span_text.is_some()
            && cap > 0
    });
    Ok(Prepared {
        claim: BundleClaim {
            claim_id: gc.claim_id.clone(),
            text: gc.text.clone(),
            rung: Rung::Refused,
            label: None,
            citations,
            extensions: Extensions::default(),
        },
        facts,
        allowed,
        showable_inference,
        withhold: gc.withhold,
        topic: gc.topic.clone(),
        label: gc.label.clone(),
    })
}

fn hidden_runs(
    prepared: &[Prepared],
    store: &Store,
    in_force: usize,
) -> std::collections::HashSet<String> {
    let unlisted: Vec<ContentHash> = prepared
        .iter()
        .flat_map(|p| p.claim.citations.iter())
        .map(|c| c.artifact_id)
        .filter(|id| !store.lists(in_force, id))
        .collect();
    text::token_runs(store.hidden_paragraphs(in_force, unlisted))
}

/// The producer's wording when it reveals nothing hidden, else the neutral one.
fn choose(
    own: Option<&str>,
    neutral: &str,
    hidden: &std::collections::HashSet<String>,
    claim_id: &str,
) -> Result<String, BuildError> {
    if let Some(own) = own
        && text::shared_run(own, hidden).is_none()
    {
        return Ok(own.to_owned());
    }
    if text::shared_run(neutral, hidden).is_some() {
        return Err(BuildError::Reveals(claim_id.to_owned()));
    }
    Ok(neutral.to_owned())
}

/// The display view the three gates allow for `bundle` (delivered claims only).
pub fn display_view(
    bundle: &ResponseBundle,
    facts: &[&[CitationFacts]],
    bundle_hash: ContentHash,
    cap: usize,
) -> DisplayView {
    let mut handles: HashMap<ContentHash, usize> = HashMap::new();
    let mut claims = Vec::new();
    for (c, fs) in bundle.claims.iter().zip(facts) {
        if !c.rung.is_delivered() {
            continue;
        }
        let mut citations = Vec::new();
        for (cit, fact) in c.citations.iter().zip(fs.iter()) {
            if fact.hidden() {
                continue;
            }
            let next = handles.len() + 1;
            let n = *handles.entry(cit.artifact_id).or_insert(next);
            let restricted = fact.consent == Some(Consent::AuditorOnly);
            let excerpt = match (&fact.span_text, fact.consent) {
                (Some(t), Some(Consent::Open)) if cap > 0 => Some(text::trim_excerpt(t, cap)),
                _ => None,
            };
            citations.push(DisplayCitation {
                handle: handle(n),
                relation_label: RelationLabel::from(cit.relation),
                excerpt,
                restricted,
            });
        }
        claims.push(DisplayClaim {
            claim_id: c.claim_id.clone(),
            text: c.text.clone(),
            rung: c.rung,
            citations,
            label: c.label.clone(),
        });
    }
    DisplayView {
        display_version: "1".into(),
        bundle_hash,
        tier: bundle.tier.clone(),
        claims,
        removed_topics: bundle.removed_topics.clone(),
        refusal: bundle.refusal.clone(),
    }
}
