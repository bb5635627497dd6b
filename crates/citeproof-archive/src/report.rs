//! What a bundle verification found: the common report ([`ArchiveReport`], spec `archive`)
//! with the bundle's facts in [`ArchiveDetails`] and one shared item per claim, whose sources
//! are its citations.

use citeproof_model::archive::{ArchiveCitation, ArchiveSpan, Consent, ResponseBundle, Rung};
use citeproof_model::pointer as json_pointer;
use citeproof_model::{ContentHash, Item, LeveledIncident, Report, Severity, SourceView};
use serde::Serialize;

use crate::citation::CitationFacts;
use crate::findings::pointer;
use crate::verify::Document;

/// One claim as the verifier saw it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimSummary {
    pub claim_id: String,
    pub rung: Rung,
    pub citations: usize,
    /// Citations that count toward the rung (valid, not hidden in force).
    pub counted: usize,
}

/// What an archive report carries besides the common verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArchiveDetails {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_id: Option<String>,
    /// SHA-256 of the JCS form of the bundle as received (the display view's `bundle_hash`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle_hash: Option<ContentHash>,
    /// SHA-256 of the display view's bytes (the subject's digest is the bundle's).
    pub display_digest: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    /// Signer and key id of a signature that verified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    pub claims: Vec<ClaimSummary>,
    /// The document each incident is about (bundle or display view), in the order of
    /// `incidents`.
    pub incident_documents: Vec<Document>,
}

/// Result of verifying a response bundle and its display view: the common report shape
/// ([`citeproof_model::Report`], spec `archive`, one level: verified when no incident of
/// severity error was found) with [`ArchiveDetails`].
pub type ArchiveReport = Report<ArchiveDetails>;

/// The error codes, in first-seen order, of the incidents that `concerns` selects.
fn error_codes<'a>(
    incidents: impl Iterator<Item = (&'a LeveledIncident, Document)>,
    concerns: impl Fn(&LeveledIncident, Document) -> bool,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, doc) in incidents {
        let code = i.incident.code.as_str();
        if i.incident.severity == Severity::Error
            && concerns(i, doc)
            && !out.iter().any(|c| c == code)
        {
            out.push(code.to_owned());
        }
    }
    out
}

/// `at` is `base` or a pointer under it.
fn under(at: &str, base: &str) -> bool {
    at == base || (at.starts_with(base) && at.as_bytes().get(base.len()) == Some(&b'/'))
}

fn pointer_of(i: &LeveledIncident) -> &str {
    i.incident.location.pointer.as_deref().unwrap_or("")
}

/// An incident about no claim: the bundle as a whole (signature, times, version) or the display
/// view as a whole. It concerns every claim.
fn about_no_claim(i: &LeveledIncident, doc: Document) -> bool {
    i.incident.location.claim_id.is_none()
        && !(doc == Document::Bundle && under(pointer_of(i), "/claims"))
}

/// One item per bundle claim: its text, and each citation as a source with where it points, the
/// declared and computed excerpt hashes and the span text judged. A claim (and its citations)
/// is verified only when no error concerns it or the documents as a whole; the span text of an
/// artifact hidden in force is never put in the report (ARCHIVE-021: the record and the pages
/// made from it are shown to people).
pub(crate) fn items(
    report: &ArchiveReport,
    bundle: &ResponseBundle,
    facts: &[Vec<CitationFacts>],
) -> Vec<Item> {
    let incidents = || {
        report
            .verdict
            .incidents
            .iter()
            .zip(report.details.incident_documents.iter().copied())
    };
    bundle
        .claims
        .iter()
        .zip(facts)
        .enumerate()
        .map(|(n, (claim, claim_facts))| {
            let at = json_pointer::index("/claims", n);
            let failed = error_codes(incidents(), |i, doc| {
                i.incident.location.claim_id.as_deref() == Some(claim.claim_id.as_str())
                    || (doc == Document::Bundle && under(pointer_of(i), &at))
                    || about_no_claim(i, doc)
            });
            let verified = failed.is_empty();
            let sources = claim
                .citations
                .iter()
                .zip(claim_facts)
                .enumerate()
                .map(|(j, (c, f))| {
                    let cat = json_pointer::index(&pointer(&at, "citations"), j);
                    let failed = error_codes(incidents(), |i, doc| {
                        doc == Document::Bundle && under(pointer_of(i), &cat)
                    });
                    source(c, f, verified && f.valid && failed.is_empty(), failed)
                })
                .collect();
            Item {
                kind: "claim".into(),
                id: claim.claim_id.clone(),
                text: Some(claim.text.clone()),
                verified,
                // The rung is the bundle's word; said only of a claim that verified.
                verdict: verified.then(|| rung_word(claim.rung).to_owned()),
                failed,
                sources,
                items: Vec::new(),
            }
        })
        .collect()
}

fn rung_word(rung: Rung) -> &'static str {
    match rung {
        Rung::Supported => "supported",
        Rung::Narrowed => "narrowed",
        Rung::Labeled => "labeled",
        Rung::Refused => "refused",
    }
}

fn source(
    c: &ArchiveCitation,
    f: &CitationFacts,
    verified: bool,
    failed: Vec<String>,
) -> SourceView {
    let place = match &c.span {
        ArchiveSpan::Text {
            paragraph_index,
            char_start,
            char_end,
        } => format!("paragraph {paragraph_index}, characters {char_start}..{char_end}"),
        ArchiveSpan::TimeRange { start_ms, end_ms } => format!("{start_ms}..{end_ms} ms"),
        ArchiveSpan::Region {
            x,
            y,
            width,
            height,
        } => format!("region {width}x{height} at {x},{y}"),
    };
    let relation = serde_json::to_value(c.relation)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let shown = matches!(f.consent, Some(Consent::Open | Consent::AuditorOnly));
    let withheld = if shown || f.span_text.is_none() {
        ""
    } else {
        "; text withheld: hidden in force"
    };
    SourceView {
        url: c.artifact_id.to_string(),
        locator: Some(format!(
            "{place} of archive version {} ({relation}{withheld})",
            c.archive_version
        )),
        declared_hash: c.excerpt_hash.as_ref().map(ToString::to_string),
        computed_hash: f
            .span_text
            .as_ref()
            .map(|t| citeproof_model::sha256_bytes(t.as_bytes()).to_string()),
        excerpt: f.span_text.clone().filter(|_| shown),
        verified,
        failed,
    }
}
