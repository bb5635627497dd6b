//! Verification of one response bundle and its display view against the archive
//! (ARCHIVE-001 to ARCHIVE-024, ARCHIVE-032, ARCHIVE-033, ARCHIVE-035, ARCHIVE-036): the order
//! of the checks and the report.

use citeproof_model::archive::ResponseBundle;
use citeproof_model::json::parse_strict;
use citeproof_model::{
    CLOCK_SKEW_SECONDS, ContentHash, Incident, IncidentCode, Report, Subject, SubjectKind,
    Timestamp, jcs, sha256_bytes,
};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::citation::{CitationFacts, check_citation};
use crate::display::{BundleSide, check_display};
use crate::findings::{Findings, pointer};
use crate::gate::check_gate;
use crate::leak;
use crate::report::{ArchiveDetails, ArchiveReport, ClaimSummary, items};
use crate::signature::{self, SignatureInfo, Trust};
use crate::store::Store;

/// Which document an incident is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Document {
    Bundle,
    Display,
    Archive,
    Trust,
    Log,
}

/// An incident and the document it is about.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArchiveIncident {
    pub document: Document,
    #[serde(flatten)]
    pub incident: Incident,
}

/// Parses and schema-checks a document; `None` when it cannot be used further.
fn parse_checked(bytes: &[u8], f: &mut Findings) -> Option<Value> {
    let value = match parse_strict(bytes) {
        Ok(v) => v,
        Err(e) => {
            f.push(e.to_incident());
            return None;
        }
    };
    if !value.is_object() {
        f.at(
            IncidentCode::SchemaViolation,
            "",
            "the document must be a JSON object",
        );
        return None;
    }
    Some(value)
}

fn schema(kind: DocumentKind, value: &Value) -> Vec<Incident> {
    match SchemaValidator::cached(kind) {
        Ok(v) => v.validate(value),
        Err(e) => vec![Incident::new(
            IncidentCode::SchemaViolation,
            e.to_string(),
            citeproof_model::Location::default(),
        )],
    }
}

/// Reports relations outside the vocabulary with their own code (reporting rule 2).
fn check_relations(bundle: &Map<String, Value>, f: &mut Findings) -> Vec<String> {
    const RELATIONS: [&str; 4] = [
        "direct_quote",
        "paraphrase",
        "inference_from",
        "metadata_fact",
    ];
    let mut pointers = Vec::new();
    let claims = bundle.get("claims").and_then(Value::as_array);
    for (i, claim) in claims.into_iter().flatten().enumerate() {
        let cits = claim.get("citations").and_then(Value::as_array);
        for (j, c) in cits.into_iter().flatten().enumerate() {
            if let Some(r) = c.get("relation")
                && !r.as_str().is_some_and(|r| RELATIONS.contains(&r))
            {
                let at = format!("/claims/{i}/citations/{j}/relation");
                f.at(
                    IncidentCode::ArchiveRelationInvalid,
                    at.clone(),
                    format!("relation {r} is not direct_quote, paraphrase, inference_from or metadata_fact"),
                );
                pointers.push(at);
            }
        }
    }
    pointers
}

/// The bundle's own checks; returns the typed bundle when its form is right.
fn check_bundle_form(raw: &Map<String, Value>, f: &mut Findings) -> Option<ResponseBundle> {
    let relation_pointers = check_relations(raw, f);
    let mut unsigned = raw.clone();
    unsigned.remove("signature");
    let unsigned = Value::Object(unsigned);
    let form: Vec<Incident> = schema(DocumentKind::ArchiveResponseBundle, &unsigned)
        .into_iter()
        .filter(|i| {
            let p = i.location.pointer.as_deref().unwrap_or("");
            !relation_pointers.iter().any(|r| r == p)
        })
        .collect();
    if !form.is_empty() || !relation_pointers.is_empty() {
        f.extend(form);
        return None;
    }
    match citeproof_model::typed::<ResponseBundle>(&unsigned) {
        Ok(b) => Some(b),
        Err(i) => {
            f.push(i);
            None
        }
    }
}

fn check_times(bundle: &ResponseBundle, raw: &Map<String, Value>, now: i64, f: &mut Findings) {
    let limit = now.saturating_add(CLOCK_SKEW_SECONDS);
    if bundle.created_at.unix_seconds() > limit {
        f.at(
            IncidentCode::ArchiveTimeInvalid,
            "/created_at",
            "`created_at` is in the future",
        );
    }
    let signed_at = raw
        .get("signature")
        .and_then(|s| s.get("signedAt"))
        .and_then(Value::as_str)
        .and_then(|s| Timestamp::parse(s).ok())
        .filter(|t| t.profile_violation().is_none());
    if let Some(t) = signed_at {
        if t.unix_seconds() > limit {
            f.at(
                IncidentCode::ArchiveTimeInvalid,
                "/signature/signedAt",
                "`signedAt` is in the future",
            );
        }
        if t < bundle.created_at {
            f.at(
                IncidentCode::ArchiveTimeInvalid,
                "/signature/signedAt",
                "the bundle is signed before it was created",
            );
        }
    }
}

/// Verifies a bundle and its display view (raw JSON texts) against the archive, with the keys
/// and secrets of `trust`, at verification time `now` (Unix seconds). The report's subject is
/// the bundle (a value, with the digest of its bytes); a caller that read it from a file names
/// the file.
pub fn verify_bundle(
    bundle_bytes: &[u8],
    display_bytes: &[u8],
    store: &Store,
    trust: &Trust,
    now: i64,
) -> ArchiveReport {
    let mut details = ArchiveDetails {
        response_id: None,
        bundle_hash: None,
        display_digest: sha256_bytes(display_bytes).to_string(),
        archive_version: None,
        tier: None,
        signed_by: None,
        kid: None,
        claims: Vec::new(),
        incident_documents: Vec::new(),
    };
    let mut bf = Findings::new();
    let mut df = Findings::new();
    let raw_bundle = parse_checked(bundle_bytes, &mut bf);
    let raw_display = parse_checked(display_bytes, &mut df);

    let mut typed = None;
    let mut facts: Vec<Vec<CitationFacts>> = Vec::new();
    let mut in_force = None;
    if let Some(Value::Object(raw)) = &raw_bundle {
        let hash = sha256_bytes(&jcs::canonicalize(&Value::Object(raw.clone())));
        details.bundle_hash = Some(hash);
        if let Some(SignatureInfo { signed_by, kid, .. }) = signature::verify(raw, trust, &mut bf) {
            details.signed_by = Some(signed_by);
            details.kid = Some(kid);
        }
        if let Some(bundle) = check_bundle_form(raw, &mut bf) {
            check_times(&bundle, raw, now, &mut bf);
            in_force = check_version(&bundle, store, &mut bf);
            for (i, claim) in bundle.claims.iter().enumerate() {
                let mut claim_facts = Vec::with_capacity(claim.citations.len());
                for (j, c) in claim.citations.iter().enumerate() {
                    let at = pointer(&pointer(&pointer("/claims", i), "citations"), j);
                    claim_facts.push(check_citation(
                        c,
                        &claim.claim_id,
                        &claim.text,
                        &at,
                        store,
                        in_force,
                        &mut bf,
                    ));
                }
                facts.push(claim_facts);
            }
            check_gate(&bundle, &facts, store, in_force, &mut bf);
            details.response_id = Some(bundle.response_id.clone());
            details.archive_version = Some(bundle.archive_version.clone());
            details.tier = Some(bundle.tier.clone());
            details.claims = bundle
                .claims
                .iter()
                .zip(&facts)
                .map(|(c, fs)| ClaimSummary {
                    claim_id: c.claim_id.clone(),
                    rung: c.rung,
                    citations: c.citations.len(),
                    counted: fs.iter().filter(|x| x.counted()).count(),
                })
                .collect();
            typed = Some(bundle);
        }
    }

    if let Some(display_value) = &raw_display {
        check_display_doc(
            display_value,
            details.bundle_hash.as_ref(),
            typed.as_ref(),
            &facts,
            store,
            in_force,
            &mut df,
        );
    }
    // One level: every incident counts toward it, bundle first, then the display view.
    let mut leveled = citeproof_model::Findings::new();
    for (document, findings) in [(Document::Bundle, bf), (Document::Display, df)] {
        for incident in findings.into_vec() {
            details.incident_documents.push(document);
            leveled.push(1, incident);
        }
    }
    let subject = Subject::new(SubjectKind::Value, "bundle").with_digest_of(bundle_bytes);
    let mut report = Report::new(crate::SPEC.name(), subject, leveled.finish(1, 1), details);
    report.trust = trust.describe();
    if let Some(bundle) = &typed {
        report.items = items(&report, bundle, &facts);
    }
    report
}

/// ARCHIVE-003 for the bundle: it names the snapshot in force at `created_at`.
fn check_version(bundle: &ResponseBundle, store: &Store, f: &mut Findings) -> Option<usize> {
    let Some(index) = store.in_force_at(&bundle.created_at) else {
        f.at(
            IncidentCode::ArchiveVersionNotInForce,
            "/created_at",
            "no snapshot of the archive was in force when the bundle was created",
        );
        return None;
    };
    let current = store
        .snapshot(index)
        .map(|s| s.archive_version.as_str())
        .unwrap_or_default();
    if bundle.archive_version != current {
        f.at(
            IncidentCode::ArchiveVersionNotInForce,
            "/archive_version",
            format!(
                "the snapshot in force at `created_at` is `{current}`, not `{}`",
                bundle.archive_version
            ),
        );
    }
    Some(index)
}

fn check_display_doc(
    value: &Value,
    bundle_hash: Option<&ContentHash>,
    bundle: Option<&ResponseBundle>,
    facts: &[Vec<CitationFacts>],
    store: &Store,
    in_force: Option<usize>,
    f: &mut Findings,
) {
    let ids: Vec<String> = store.artifact_ids().map(ToString::to_string).collect();
    let windows = leak::id_windows(ids.iter().map(String::as_str));
    leak::check_ids(value, "", &windows, f);
    let schema_findings = schema(DocumentKind::ArchiveDisplayView, value);
    if !schema_findings.is_empty() {
        f.extend(schema_findings);
        return;
    }
    let display: citeproof_model::archive::DisplayView = match citeproof_model::typed(value) {
        Ok(d) => d,
        Err(i) => {
            f.push(i);
            return;
        }
    };
    let Some(bundle_hash) = bundle_hash else {
        return;
    };
    if display.bundle_hash != *bundle_hash {
        f.at(
            IncidentCode::ArchiveDisplayUnbound,
            "/bundle_hash",
            format!("the signed bundle hashes to {bundle_hash}"),
        );
        return;
    }
    let Some(bundle) = bundle else {
        return;
    };
    let cap = in_force
        .and_then(|i| store.tier(i, &bundle.tier))
        .map(|t| t.excerpt_cap as usize);
    let side = BundleSide { bundle, facts, cap };
    check_display(&side, &display, f);
}
