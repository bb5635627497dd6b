//! The citation checks ARCHIVE-002 to ARCHIVE-007 and ARCHIVE-023, one citation at a time.

use citeproof_model::archive::{ArchiveCitation, ArchiveSpan, Consent, Relation};
use citeproof_model::{IncidentCode, sha256_bytes};

use crate::findings::{Findings, pointer};
use crate::span::{Resolved, resolve};
use crate::store::Store;
use crate::text;

/// What the checks established about one citation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CitationFacts {
    /// It passed ARCHIVE-002 to ARCHIVE-007.
    pub valid: bool,
    /// The span text, when the span resolved to one.
    pub span_text: Option<String>,
    /// The span resolved to a media locator.
    pub media: bool,
    /// Consent in force of the artifact (`None` without a snapshot in force).
    pub consent: Option<Consent>,
}

impl CitationFacts {
    /// A counted citation (profile terms): valid and not hidden in force.
    pub fn counted(&self) -> bool {
        self.valid && self.consent.is_some_and(|c| c != Consent::Hidden)
    }

    pub fn hidden(&self) -> bool {
        self.consent == Some(Consent::Hidden)
    }
}

/// Checks one citation of claim `claim_text` at `at` (its JSON pointer). `in_force` is the
/// index of the snapshot in force for the bundle, when there is one.
pub fn check_citation(
    c: &ArchiveCitation,
    claim_id: &str,
    claim_text: &str,
    at: &str,
    store: &Store,
    in_force: Option<usize>,
    f: &mut Findings,
) -> CitationFacts {
    let mut facts = CitationFacts {
        valid: false,
        span_text: None,
        media: false,
        consent: in_force.map(|i| store.consent_in(i, &c.artifact_id)),
    };
    let payload = store.payload(&c.artifact_id);
    if payload.is_none() {
        f.claim(
            IncidentCode::ArchiveArtifactUnknown,
            claim_id,
            pointer(at, "artifact_id"),
            format!("the archive holds no artifact {}", c.artifact_id),
        );
    }
    let version = store.version_index(&c.archive_version);
    if version.is_none() {
        f.claim(
            IncidentCode::ArchiveVersionUnknown,
            claim_id,
            pointer(at, "archive_version"),
            format!("the archive has no version `{}`", c.archive_version),
        );
    }
    let (Some(payload), Some(version)) = (payload, version) else {
        return facts;
    };
    let mut ok = true;
    if !store.lists(version, &c.artifact_id) {
        ok = false;
        f.claim(
            IncidentCode::ArchiveArtifactNotInVersion,
            claim_id,
            pointer(at, "artifact_id"),
            format!(
                "version `{}` does not list the cited artifact",
                c.archive_version
            ),
        );
    }
    if in_force.is_some_and(|i| version > i) {
        ok = false;
        f.claim(
            IncidentCode::ArchiveVersionNotInForce,
            claim_id,
            pointer(at, "archive_version"),
            format!(
                "version `{}` was published after the snapshot in force for the bundle",
                c.archive_version
            ),
        );
    }
    match resolve(&c.span, payload) {
        Ok(Resolved::Text(t)) => facts.span_text = Some(t),
        Ok(Resolved::Media) => facts.media = true,
        Err((code, why)) => {
            f.claim(code, claim_id, pointer(at, "span"), why);
            return facts;
        }
    }
    if c.relation == Relation::DirectQuote {
        let verbatim = match (&facts.span_text, &c.span) {
            (Some(t), ArchiveSpan::Text { .. }) => text::nfc(claim_text).contains(t.as_str()),
            _ => false,
        };
        if !verbatim {
            ok = false;
            f.claim(
                IncidentCode::ArchiveQuoteMismatch,
                claim_id,
                pointer(at, "relation"),
                "a direct quote must be a text span whose text occurs verbatim in the claim",
            );
        }
    }
    ok &= check_excerpt(c, claim_id, at, facts.span_text.as_deref(), f);
    facts.valid = ok;
    facts
}

/// ARCHIVE-007 (hash and excerpt) and ARCHIVE-023 (plaintext warning).
fn check_excerpt(
    c: &ArchiveCitation,
    claim_id: &str,
    at: &str,
    span_text: Option<&str>,
    f: &mut Findings,
) -> bool {
    let mut ok = true;
    match span_text {
        Some(t) => {
            let expected = sha256_bytes(t.as_bytes());
            match &c.excerpt_hash {
                Some(h) if *h == expected => {}
                Some(h) => {
                    ok = false;
                    f.claim(
                        IncidentCode::ArchiveExcerptHashMismatch,
                        claim_id,
                        pointer(at, "excerpt_hash"),
                        format!("the span text hashes to {expected}, not {h}"),
                    );
                }
                None => {
                    ok = false;
                    f.claim(
                        IncidentCode::ArchiveExcerptHashMismatch,
                        claim_id,
                        pointer(at, "excerpt_hash"),
                        "a text citation needs `excerpt_hash`",
                    );
                }
            }
            if let Some(e) = &c.excerpt {
                if e != t {
                    ok = false;
                    f.claim(
                        IncidentCode::ArchiveExcerptMismatch,
                        claim_id,
                        pointer(at, "excerpt"),
                        "the excerpt differs from the span text",
                    );
                }
                f.claim(
                    IncidentCode::ArchiveExcerptPlaintext,
                    claim_id,
                    pointer(at, "excerpt"),
                    "the bundle carries the unredacted excerpt in plaintext",
                );
            }
        }
        None => {
            if c.excerpt_hash.is_some() || c.excerpt.is_some() {
                ok = false;
                f.claim(
                    IncidentCode::ArchiveExcerptHashMismatch,
                    claim_id,
                    at.to_owned(),
                    "a media citation has no span text, so no excerpt or excerpt hash",
                );
            }
        }
    }
    ok
}
