//! The ledger document on its own: members (LEDGER-001), sources captured at the tool boundary
//! (LEDGER-002), counts, coverage and compliance (LEDGER-003 to -005), the emission gate
//! (LEDGER-006/-007), one identifier per retrieval (LEDGER-013), the threshold recommendation
//! (LEDGER-014), timestamps not in the future (LEDGER-017) and source members the profile does
//! not define (LEDGER-018). The template's ledger (LEDGER-019) is read by `template` into the
//! same [`Doc`] and shares the rules after the shape.

use citeproof_model::ledger::LedgerMode;
use citeproof_model::{Incident, IncidentCode, Location, Timestamp};
use serde_json::{Map, Value};

use crate::config::{LENIENT_DEFAULT_THRESHOLD, threshold_problem};
use crate::coverage::CoverageReport;
use crate::shape::{Shape, child, instant, source_key};

/// One claim of a ledger whose shape holds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DocClaim {
    pub claim_id: Option<String>,
    pub text: String,
    pub requires_attribution: bool,
    pub recorded_at: Timestamp,
    /// The raw `source` member (`null` for an uncited claim, and in a template ledger).
    pub source: Value,
    /// The source's `identifier` (the template's `source_id`): `Some` exactly when cited.
    pub identifier: Option<String>,
    /// The source's `category` (the template's `source_type`).
    pub category: Option<String>,
    pub fetched_at: Option<Timestamp>,
    /// Members of the source neither defined nor `x-` (LEDGER-018).
    pub undefined: Vec<String>,
}

/// Which of the two ledger documents a [`Doc`] was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// citeproof's ledger document (LEDGER-001).
    Citeproof,
    /// The seed's production-template ledger (LEDGER-019).
    Template,
}

/// A ledger document whose shape holds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Doc {
    pub form: Form,
    /// Required in citeproof's ledger; optional in the template's.
    pub ledger_id: Option<String>,
    pub mode: LedgerMode,
    pub threshold: f64,
    pub claims: Vec<DocClaim>,
    /// The coverage recomputed from the claims.
    pub coverage: CoverageReport,
}

pub(crate) fn incident(code: IncidentCode, message: impl Into<String>, pointer: &str) -> Incident {
    Incident::new(code, message, Location::pointer(pointer))
}

/// Checks a parsed ledger document. The shape comes first; the rules after it run only when it
/// holds (reporting rule 3).
pub(crate) fn check(
    value: &Value,
    emitted: bool,
    now: Option<i64>,
    out: &mut Vec<Incident>,
) -> Option<Doc> {
    let doc = shape(value, out)?;
    rules(value, &doc, emitted, now, out);
    Some(doc)
}

/// The members of a ledger document, every one required.
const MEMBERS: &[&str] = &[
    "ledger_version",
    "ledger_id",
    "mode",
    "threshold",
    "claims",
    "coverage",
];

fn shape(value: &Value, out: &mut Vec<Incident>) -> Option<Doc> {
    let before = out.len();
    let mut s = Shape::document(out);
    let obj = s.root(value, MEMBERS, MEMBERS)?;
    if let Some(v) = obj.get("ledger_version")
        && v != "1"
    {
        s.push(
            IncidentCode::SchemaViolation,
            format!("`ledger_version` must be \"1\", not {v}"),
            "/ledger_version",
        );
    }
    let ledger_id = s.id(obj, "ledger_id", "", 128);
    let mode = match obj.get("mode").and_then(Value::as_str) {
        Some("strict") => Some(LedgerMode::Strict),
        Some("lenient") => Some(LedgerMode::Lenient),
        Some(_) | None if obj.contains_key("mode") => {
            s.push(
                IncidentCode::SchemaViolation,
                "`mode` must be \"strict\" or \"lenient\"",
                "/mode",
            );
            None
        }
        _ => None,
    };
    let threshold = s.number(obj, "threshold", "");
    let claims = s.array_of(obj, "claims", claim);
    if let Some(c) = obj.get("coverage") {
        coverage_shape(&mut s, c);
    }
    if s.incidents.len() != before {
        return None;
    }
    let (ledger_id, mode, threshold) = (ledger_id?, mode?, threshold?);
    let coverage = coverage_of(&claims, threshold);
    Some(Doc {
        form: Form::Citeproof,
        ledger_id: Some(ledger_id.to_owned()),
        mode,
        threshold,
        claims,
        coverage,
    })
}

fn claim(s: &mut Shape<'_>, value: &Value, pointer: &str) -> Option<DocClaim> {
    let obj = s.object(value, pointer)?;
    let before = s.incidents.len();
    s.members(
        obj,
        pointer,
        &[
            "claim_id",
            "text",
            "requires_attribution",
            "recorded_at",
            "source",
        ],
        &["text", "requires_attribution", "recorded_at", "source"],
    );
    let claim_id = s.id(obj, "claim_id", pointer, 64).map(str::to_owned);
    let text = s.string(obj, "text", pointer, 1);
    let requires = s.boolean(obj, "requires_attribution", pointer);
    let recorded_at = s.timestamp(obj, "recorded_at", pointer);
    let source = obj.get("source").cloned().unwrap_or(Value::Null);
    let facts = if source.is_null() {
        None
    } else {
        s.source(&source, &child(pointer, "source"))
    };
    if s.incidents.len() != before {
        return None;
    }
    let category = source
        .get("category")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Some(DocClaim {
        claim_id,
        text: text?.to_owned(),
        requires_attribution: requires?,
        recorded_at: recorded_at?,
        identifier: facts.as_ref().map(|f| f.identifier.clone()),
        undefined: facts
            .as_ref()
            .map(|f| f.undefined.clone())
            .unwrap_or_default(),
        fetched_at: facts.map(|f| f.fetched_at),
        category,
        source,
    })
}

fn coverage_shape(s: &mut Shape<'_>, value: &Value) {
    let Some(obj) = s.object(value, "/coverage") else {
        return;
    };
    let members = [
        "total_claims",
        "required_claims",
        "cited_claims",
        "coverage_score",
        "is_compliant",
        "uncited_claims",
    ];
    let mut allowed = members.to_vec();
    allowed.push("validated_at");
    s.members(obj, "/coverage", &allowed, &members);
    for n in &members[..3] {
        s.count(obj, n, "/coverage");
    }
    s.number(obj, "coverage_score", "/coverage");
    s.boolean(obj, "is_compliant", "/coverage");
    s.timestamp(obj, "validated_at", "/coverage");
    match obj.get("uncited_claims") {
        Some(Value::Array(items)) => {
            if let Some(i) = items.iter().position(|v| !v.is_string()) {
                s.push(
                    IncidentCode::SchemaViolation,
                    "`uncited_claims` holds claim texts (strings)",
                    &format!("/coverage/uncited_claims/{i}"),
                );
            }
        }
        Some(_) => s.push(
            IncidentCode::SchemaViolation,
            "`uncited_claims` must be an array",
            "/coverage/uncited_claims",
        ),
        None => {}
    }
}

/// The coverage of claims read from either document (LEDGER-003, -004).
pub(crate) fn coverage_of(claims: &[DocClaim], threshold: f64) -> CoverageReport {
    CoverageReport::compute(
        claims.iter().map(|c| {
            (
                c.text.as_str(),
                c.requires_attribution,
                c.identifier.is_some(),
            )
        }),
        threshold,
    )
}

fn rules(value: &Value, doc: &Doc, emitted: bool, now: Option<i64>, out: &mut Vec<Incident>) {
    sources(doc, out);
    let declared = value.get("coverage").and_then(Value::as_object);
    counts(declared, &doc.coverage, out);
    let declared_compliance = declared
        .and_then(|d| d.get("is_compliant"))
        .and_then(Value::as_bool);
    gate(
        doc,
        declared_compliance,
        "/threshold",
        "/coverage/is_compliant",
        emitted,
        out,
    );
    future(doc, now, out);
}

/// LEDGER-002, -013 and -018 over the sources of a citeproof ledger.
fn sources(doc: &Doc, out: &mut Vec<Incident>) {
    // A producer that names the tool call of one source names them all: a source without one
    // beside others that have one did not come through the tool layer (LEDGER-002).
    let traced = doc
        .claims
        .iter()
        .any(|c| c.source.get("tool_call_id").is_some());
    // Comparison bytes of the first source of each identifier: each source is keyed once, so
    // the work stays linear in the document's size.
    let mut seen: std::collections::HashMap<&str, (usize, Vec<u8>)> = Default::default();
    let mut undefined: Vec<&str> = Vec::new();
    for (i, c) in doc.claims.iter().enumerate() {
        let Some(id) = &c.identifier else { continue };
        let p = format!("/claims/{i}/source");
        if traced && c.source.get("tool_call_id").is_none() {
            out.push(incident(
                IncidentCode::LedgerSourceUntraced,
                "the source names no `tool_call_id` while other sources of the ledger name theirs: it did not come through the tool layer",
                &format!("{p}/tool_call_id"),
            ));
        }
        if let Some(f) = &c.fetched_at
            && instant(f) > instant(&c.recorded_at)
        {
            out.push(incident(
                IncidentCode::LedgerSourceAfterClaim,
                format!(
                    "the source was fetched at {f}, after the claim was recorded at {}",
                    c.recorded_at
                ),
                &format!("{p}/fetched_at"),
            ));
        }
        for name in &c.undefined {
            if !undefined.contains(&name.as_str()) {
                undefined.push(name);
                out.push(incident(
                    IncidentCode::LedgerSourceMemberUndefined,
                    format!("source member `{name}` is not defined by the profile: kept and compared, not interpreted"),
                    &child(&p, name),
                ));
            }
        }
        let key = source_key(&c.source);
        match seen.get(id.as_str()) {
            Some((first, v)) if *v != key => out.push(incident(
                IncidentCode::LedgerSourceDeduplicated,
                format!("source identifier `{id}` already names a different source reference in claim {first}: one identifier per tool call and retrieval (seed 003 pitfall 4)"),
                &format!("{p}/identifier"),
            )),
            Some(_) => {}
            None => {
                seen.insert(id, (i, key));
            }
        }
    }
}

/// LEDGER-005, -006, -007 and -014: the threshold of the mode, the declared compliance against
/// the recomputed coverage, and the emission gate.
pub(crate) fn gate(
    doc: &Doc,
    declared_compliance: Option<bool>,
    threshold_pointer: &str,
    compliance_pointer: &str,
    emitted: bool,
    out: &mut Vec<Incident>,
) {
    let computed = &doc.coverage;
    if let Some(reason) = threshold_problem(doc.mode, doc.threshold) {
        out.push(incident(
            IncidentCode::LedgerThresholdInvalid,
            format!("threshold {}: {reason}", doc.threshold),
            threshold_pointer,
        ));
    } else if doc.mode == LedgerMode::Lenient && doc.threshold < LENIENT_DEFAULT_THRESHOLD {
        out.push(incident(
            IncidentCode::LedgerThresholdLow,
            format!(
                "lenient threshold {} is below the seed's 0.90 (\"90%+\")",
                doc.threshold
            ),
            threshold_pointer,
        ));
    }
    if let Some(c) = declared_compliance
        && c != computed.is_compliant
    {
        out.push(incident(
            IncidentCode::LedgerComplianceMismatch,
            format!(
                "`is_compliant` is {c}, but coverage {} {} threshold {}",
                computed.coverage_score,
                if computed.is_compliant { ">=" } else { "<" },
                doc.threshold
            ),
            compliance_pointer,
        ));
    }
    // Judged on the recomputed coverage.
    if emitted && !computed.is_compliant {
        let (code, what) = match doc.mode {
            LedgerMode::Strict => (
                IncidentCode::LedgerBelowThreshold,
                "a strict ledger must not be emitted below its threshold",
            ),
            LedgerMode::Lenient => (
                IncidentCode::LedgerCoverageLow,
                "the lenient ledger was emitted below its threshold",
            ),
        };
        let pointer = match doc.form {
            Form::Citeproof => "/coverage/coverage_score",
            Form::Template => "/metadata/coverage_score",
        };
        out.push(incident(
            code,
            format!(
                "coverage {} is below the threshold {}: {what} ({} uncited required claim(s))",
                computed.coverage_score,
                doc.threshold,
                computed.uncited_claims.len()
            ),
            pointer,
        ));
    }
}

/// LEDGER-017: the first claim or source time later than `now` plus the skew.
pub(crate) fn future(doc: &Doc, now: Option<i64>, out: &mut Vec<Incident>) {
    let Some(now) = now else { return };
    let limit = now.saturating_add(citeproof_model::CLOCK_SKEW_SECONDS);
    let mut times: Vec<(String, &Timestamp)> = Vec::new();
    for (i, c) in doc.claims.iter().enumerate() {
        times.push((format!("/claims/{i}/recorded_at"), &c.recorded_at));
        if let Some(f) = &c.fetched_at {
            times.push((format!("/claims/{i}/source/fetched_at"), f));
        }
    }
    if let Some((p, t)) = times.into_iter().find(|(_, t)| instant(t).0 > limit) {
        out.push(incident(
            IncidentCode::LedgerTimestampFuture,
            format!(
                "{t} is later than the verification time plus {} s",
                citeproof_model::CLOCK_SKEW_SECONDS
            ),
            &p,
        ));
    }
}

/// LEDGER-003 and -004: the declared numbers against the recomputed ones.
fn counts(
    declared: Option<&Map<String, Value>>,
    computed: &CoverageReport,
    out: &mut Vec<Incident>,
) {
    let Some(d) = declared else { return };
    for (name, value) in [
        ("total_claims", computed.total_claims),
        ("required_claims", computed.required_claims),
        ("cited_claims", computed.cited_claims),
    ] {
        if let Some(v) = d.get(name).and_then(Value::as_u64)
            && v != value
        {
            out.push(incident(
                IncidentCode::LedgerCountMismatch,
                format!("`{name}` is {v}; the claims give {value}"),
                &format!("/coverage/{name}"),
            ));
        }
    }
    if let Some(Value::Array(listed)) = d.get("uncited_claims") {
        let listed: Vec<&str> = listed.iter().filter_map(Value::as_str).collect();
        let expected: Vec<&str> = computed.uncited_claims.iter().map(String::as_str).collect();
        if listed != expected {
            out.push(incident(
                IncidentCode::LedgerUncitedMismatch,
                format!(
                    "`uncited_claims` lists {} text(s); the required claims without a source are {} (in ledger order)",
                    listed.len(),
                    expected.len()
                ),
                "/coverage/uncited_claims",
            ));
        }
    }
    if let Some(score) = d.get("coverage_score").and_then(Value::as_f64)
        && score != computed.coverage_score
    {
        out.push(incident(
            IncidentCode::LedgerCoverageMismatch,
            format!(
                "`coverage_score` is {score}; {} / {} gives {}",
                computed.cited_claims, computed.required_claims, computed.coverage_score
            ),
            "/coverage/coverage_score",
        ));
    }
}
