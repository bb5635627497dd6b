//! The gate as a producer runs it: from the pipeline's claims with their citations, the archive
//! and the requestor's tier, the signed bundle and its display view, deterministically. Any
//! citation that does not verify halts assembly: nothing is delivered unsigned or unchecked.

use std::collections::HashMap;

use citeproof_model::archive::{
    ArchiveCitation, BundleClaim, Consent, DisplayCitation, DisplayClaim, DisplayView, Downgrade,
    GateRequest, LogEvent, MAX_GENERAL_CONTEXT, Refusal, RefusalReason, Relation, RelationLabel,
    RemovedReason, RemovedTopic, ResponseBundle, Rung,
};
use citeproof_model::{ContentHash, Extensions, Timestamp, jcs, sha256_bytes};
use serde_json::Value;

use crate::citation::{CitationFacts, check_citation};
use crate::display::handle;
use crate::findings::{Findings, pointer};
use crate::gate::Allowed;
use crate::log::outcome_of;
use crate::relation::{frame_negated, relation_problem};
use crate::shown::ShownText;
use crate::signature::{Signer, sign};
use crate::store::Store;
use crate::text;

mod error;
pub use error::BuildError;

/// Label of a labeled claim when the request gives none.
pub const DEFAULT_LABEL: &str = "Interpretation: inferred from the archive, not stated in it.";
/// The label of every general-context claim (seed 002: "labeled as general context, not from
/// the archive"; ARCHIVE-035).
pub const GENERAL_LABEL: &str = "General context, not from the archive.";
/// Removed topic of a claim with no counted citation, when the request gives none (or its own
/// would reveal a hidden artifact).
pub const DEFAULT_TOPIC_NO_COVERAGE: &str = "A part of the question the archive does not cover";
/// Removed topic of a claim the gate judged too thin.
pub const DEFAULT_TOPIC_THIN: &str =
    "A part of the question the archive covers too thinly to answer";

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
    /// The rung the claim's citations earn, relations verified (ARCHIVE-009, ARCHIVE-032).
    earned: Option<Rung>,
    withhold: bool,
    topic: Option<String>,
    label: Option<String>,
}

/// Where the strings the requestor would read are in the [`ShownText`] scan of a response.
struct ShownIndex {
    /// Claim `i`'s text is string `i`; then each claim's own label and topic, then the neutral
    /// wordings.
    own_label: Vec<Option<usize>>,
    own_topic: Vec<Option<usize>>,
    neutral: HashMap<&'static str, usize>,
}

fn scan_shown(prepared: &[Prepared], store: &Store, in_force: usize) -> (ShownText, ShownIndex) {
    fn push<'a>(t: Option<&'a str>, texts: &mut Vec<&'a str>) -> Option<usize> {
        t.map(|t| {
            texts.push(t);
            texts.len() - 1
        })
    }
    let mut texts: Vec<&str> = prepared.iter().map(|p| p.claim.text.as_str()).collect();
    let own_label: Vec<Option<usize>> = prepared
        .iter()
        .map(|p| push(p.label.as_deref(), &mut texts))
        .collect();
    let own_topic: Vec<Option<usize>> = prepared
        .iter()
        .map(|p| push(p.topic.as_deref(), &mut texts))
        .collect();
    let mut neutral = HashMap::new();
    for n in [DEFAULT_LABEL, DEFAULT_TOPIC_NO_COVERAGE, DEFAULT_TOPIC_THIN] {
        texts.push(n);
        neutral.insert(n, texts.len() - 1);
    }
    let scanned = ShownText::scan(texts, store, in_force);
    (
        scanned,
        ShownIndex {
            own_label,
            own_topic,
            neutral,
        },
    )
}

/// Whether string `i` of the scan shows what the gates withhold (ARCHIVE-033): text of an
/// auditor-only artifact (or, for claim texts, a hidden one), or a quote above the cap.
fn shows_too_much(scanned: &ShownText, i: usize, hidden_too: bool, cap: usize) -> bool {
    scanned.restricted(i, hidden_too).is_some() || scanned.runs_over(i, cap).is_some()
}

/// The rung of each claim: what its citations earn, unless the request withholds it, the
/// downgrade forbids it (ARCHIVE-036), its text shows what the gates withhold (ARCHIVE-033), or
/// it is general context with nothing from the archive beside it (ARCHIVE-035).
fn decide_rungs(
    prepared: &[Prepared],
    request: &GateRequest,
    scanned: &ShownText,
    cap: usize,
) -> Vec<Option<Rung>> {
    let mut rungs: Vec<Option<Rung>> = prepared
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let general = p.claim.general_context;
            let too_long = general && text::scalar_len(&p.claim.text) > MAX_GENERAL_CONTEXT;
            let forbidden = p.withhold
                || too_long
                || (request.downgrade.is_some() && p.earned == Some(Rung::Labeled))
                || shows_too_much(scanned, i, true, cap);
            if forbidden { None } else { p.earned }
        })
        .collect();
    let from_archive = prepared
        .iter()
        .zip(&rungs)
        .any(|(p, r)| r.is_some() && !p.claim.general_context);
    if !from_archive {
        rungs.iter_mut().for_each(|r| *r = None);
    }
    rungs
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
        prepared.push(prepare(i, gc, store, in_force, opts.plaintext_excerpts)?);
    }
    let (scanned, index) = scan_shown(&prepared, store, in_force);
    let rungs = decide_rungs(&prepared, request, &scanned, cap);
    let delivered_any = rungs.iter().any(Option::is_some);
    let hidden = hidden_runs(&prepared, store, in_force);
    let wording = Wording {
        hidden: &hidden,
        scanned: &scanned,
        index: &index,
        cap,
    };
    let (claims, removed_topics) = assemble(&prepared, &rungs, &wording)?;
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
        downgrade: request.downgrade.map(|category| Downgrade { category }),
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

/// The bundle claims with their final rungs, labels and removed topics.
fn assemble(
    prepared: &[Prepared],
    rungs: &[Option<Rung>],
    wording: &Wording<'_>,
) -> Result<(Vec<BundleClaim>, Vec<RemovedTopic>), BuildError> {
    let delivered_any = rungs.iter().any(Option::is_some);
    let mut claims = Vec::with_capacity(prepared.len());
    let mut removed_topics = Vec::new();
    for (i, (p, rung)) in prepared.iter().zip(rungs).enumerate() {
        let mut claim = p.claim.clone();
        claim.rung = match rung {
            Some(r) => *r,
            None if delivered_any => Rung::Narrowed,
            None => Rung::Refused,
        };
        if claim.rung == Rung::Labeled {
            claim.label = Some(if claim.general_context {
                GENERAL_LABEL.to_owned()
            } else {
                let own = p.label.as_deref().zip(wording.index.own_label[i]);
                wording.choose(own, DEFAULT_LABEL, &claim.claim_id)?
            });
        }
        if claim.rung == Rung::Narrowed {
            let reason = p.allowed.removed_reason();
            let neutral = match reason {
                RemovedReason::NoCoverage => DEFAULT_TOPIC_NO_COVERAGE,
                RemovedReason::ThinCoverage => DEFAULT_TOPIC_THIN,
            };
            let own = p.topic.as_deref().zip(wording.index.own_topic[i]);
            let topic = wording.choose(own, neutral, &claim.claim_id)?;
            removed_topics.push(RemovedTopic { topic, reason });
        }
        claims.push(claim);
    }
    Ok((claims, removed_topics))
}

fn prepare(
    i: usize,
    gc: &citeproof_model::archive::GateClaim,
    store: &Store,
    in_force: usize,
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
                code: bad.code,
                message: bad.message.clone(),
            });
        }
        citations.push(cit);
        facts.push(fact);
    }
    if gc.general_context && !citations.is_empty() {
        return Err(BuildError::GeneralContextCited(gc.claim_id.clone()));
    }
    let allowed = Allowed::from_facts(&citations, &facts);
    let earned = if gc.general_context {
        Some(Rung::Labeled)
    } else {
        earned_rung(&gc.text, &citations, &facts, allowed)
    };
    Ok(Prepared {
        claim: BundleClaim {
            claim_id: gc.claim_id.clone(),
            text: gc.text.clone(),
            rung: Rung::Refused,
            label: None,
            citations,
            general_context: gc.general_context,
            extensions: Extensions::default(),
        },
        facts,
        allowed,
        earned,
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

/// The rung a claim's counted citations earn once each text citation is verified by its
/// relation (ARCHIVE-032): a media span never earns one on its own.
fn earned_rung(
    claim: &str,
    citations: &[ArchiveCitation],
    facts: &[CitationFacts],
    allowed: Allowed,
) -> Option<Rung> {
    let text_citations: Vec<(&ArchiveCitation, &str)> = citations
        .iter()
        .zip(facts)
        .filter(|(_, f)| f.counted())
        .filter_map(|(c, f)| f.span_text.as_deref().map(|t| (c, t)))
        .collect();
    let quotes: Vec<&str> = text_citations
        .iter()
        .filter(|(c, _)| c.relation == Relation::DirectQuote)
        .map(|(_, t)| *t)
        .collect();
    let relations_hold = text_citations
        .iter()
        .all(|(c, t)| relation_problem(c.relation, claim, t).is_none())
        && (quotes.is_empty() || !frame_negated(claim, &quotes));
    let has = |inference: bool| {
        text_citations
            .iter()
            .any(|(c, _)| (c.relation == Relation::InferenceFrom) == inference)
    };
    if !relations_hold {
        None
    } else if allowed.supported && has(false) {
        Some(Rung::Supported)
    } else if allowed.labeled && has(true) {
        Some(Rung::Labeled)
    } else {
        None
    }
}

/// What the producer's own wording of a label or topic is checked against.
struct Wording<'a> {
    hidden: &'a std::collections::HashSet<String>,
    scanned: &'a ShownText,
    index: &'a ShownIndex,
    cap: usize,
}

impl Wording<'_> {
    fn shows_nothing_withheld(&self, text: &str, i: usize) -> bool {
        text::shared_run(text, self.hidden).is_none()
            && !shows_too_much(self.scanned, i, false, self.cap)
    }

    /// The producer's wording (with its index in the scan) when it reveals nothing the gates
    /// withhold (ARCHIVE-021, ARCHIVE-033), else the neutral one.
    fn choose(
        &self,
        own: Option<(&str, usize)>,
        neutral: &'static str,
        claim_id: &str,
    ) -> Result<String, BuildError> {
        if let Some((own, i)) = own
            && self.shows_nothing_withheld(own, i)
        {
            return Ok(own.to_owned());
        }
        match self.index.neutral.get(neutral) {
            Some(i) if self.shows_nothing_withheld(neutral, *i) => Ok(neutral.to_owned()),
            _ => Err(BuildError::Reveals(claim_id.to_owned())),
        }
    }
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
            general_context: c.general_context,
        });
    }
    DisplayView {
        display_version: "1".into(),
        bundle_hash,
        tier: bundle.tier.clone(),
        claims,
        removed_topics: bundle.removed_topics.clone(),
        refusal: bundle.refusal.clone(),
        downgrade: bundle.downgrade.clone(),
    }
}
