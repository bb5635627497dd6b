//! One audit record, in either of the forms seed 003 writes (LEDGER-010):
//!
//! - the **export** form of Step 4 `export_audit_log`:
//!   `{"claim", "source", "requires_proof", "logged_at"}`, `source` being
//!   `vars(SourceReference)` (or `null`); citeproof's records add `ledger_id` and `claim_id`,
//!   and `requires_attribution` is accepted instead of `requires_proof`;
//! - the **template** form of the Configuration Template's `_persist_audit`:
//!   `{"text", "source_id", "source_type", "requires_proof", "recorded_at"}`.
//!
//! A record with a `claim` member is read in the export form, any other in the template form
//! when it has `text`, else in the export form (whose missing members are then reported).
//! Both forms may carry citeproof's `ledger_id` and, with it, `seq` (LEDGER-011).

use citeproof_model::{Incident, Timestamp};
use serde_json::{Map, Value};

use crate::shape::{Shape, SourceFacts};

/// Which of the seed's two record forms a record is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    Export,
    Template,
}

/// A record whose shape holds, reduced to what coverage and the ledger comparison need.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub line: u64,
    pub form: Form,
    pub ledger_id: Option<String>,
    pub claim_id: Option<String>,
    /// The record's position in its ledger (LEDGER-011).
    pub seq: Option<u64>,
    /// `claim` (export form) or `text` (template form).
    pub claim: String,
    /// `requires_proof` (or its alias `requires_attribution`).
    pub requires_proof: bool,
    /// Whether the claim has a source: `source` (export) or `source_id` (template) not `null`.
    pub cited: bool,
    /// What names the source (its `identifier`, or the template's `source_id`) and the value
    /// that must be the same wherever that name is used in one ledger (the whole source
    /// reference, or the template's `source_type`): LEDGER-013.
    pub source_key: Option<(String, Value)>,
    /// The raw `source` member of an export record (`null` included).
    pub source: Value,
    /// The template form's `source_type`.
    pub source_type: Option<String>,
    pub fetched_at: Option<Timestamp>,
    /// `logged_at` (export) or `recorded_at` (template).
    pub time: Timestamp,
    /// Members of the source reference neither defined nor `x-` (LEDGER-018).
    pub undefined: Vec<String>,
}

const EXPORT_MEMBERS: &[&str] = &[
    "ledger_id",
    "seq",
    "claim_id",
    "claim",
    "source",
    "requires_proof",
    "requires_attribution",
    "logged_at",
];
const TEMPLATE_MEMBERS: &[&str] = &[
    "ledger_id",
    "seq",
    "text",
    "source_id",
    "source_type",
    "requires_proof",
    "recorded_at",
];

/// Reads one record; its incidents (located at `line` with pointers into the record) go to
/// `incidents`. `None` when the shape does not hold.
pub fn read(value: &Value, line: u64, incidents: &mut Vec<Incident>) -> Option<Record> {
    let before = incidents.len();
    let mut shape = Shape {
        line: Some(line),
        incidents,
    };
    let obj = shape.object(value, "")?;
    let template = !obj.contains_key("claim") && obj.contains_key("text");
    let ledger_id = shape.id(obj, "ledger_id", "", 128).map(str::to_owned);
    let seq = shape.count(obj, "seq", "");
    if seq.is_some() && !obj.contains_key("ledger_id") {
        shape.push(
            citeproof_model::IncidentCode::SchemaViolation,
            "`seq` numbers a record within its ledger: it needs `ledger_id`",
            "/seq",
        );
    }
    let head = Head {
        line,
        ledger_id,
        seq,
    };
    let record = if template {
        read_template(&mut shape, obj, head)
    } else {
        read_export(&mut shape, obj, head)
    }?;
    // Every member was read; an incident about any of them voids the record.
    if shape.incidents.len() != before {
        return None;
    }
    Some(record)
}

/// What both record forms carry: the line, and the ledger id and `seq` when given.
struct Head {
    line: u64,
    ledger_id: Option<String>,
    seq: Option<u64>,
}

/// The seed template's record (`text`, `source_id`, `source_type`, `recorded_at`).
fn read_template(shape: &mut Shape<'_>, obj: &Map<String, Value>, head: Head) -> Option<Record> {
    let Head {
        line,
        ledger_id,
        seq,
    } = head;
    shape.members(
        obj,
        "",
        TEMPLATE_MEMBERS,
        &[
            "text",
            "source_id",
            "source_type",
            "requires_proof",
            "recorded_at",
        ],
    );
    let claim = shape.string(obj, "text", "", 0);
    let source_id = shape.nullable_string(obj, "source_id", "", None);
    let source_type = shape.nullable_string(obj, "source_type", "", None);
    let requires = shape.boolean(obj, "requires_proof", "");
    let time = shape.timestamp(obj, "recorded_at", "");
    let (Some(claim), Some(source_id), Some(source_type), Some(requires), Some(time)) =
        (claim, source_id, source_type, requires, time)
    else {
        return None;
    };
    Some(Record {
        line,
        form: Form::Template,
        ledger_id,
        claim_id: None,
        seq,
        claim: claim.to_owned(),
        requires_proof: requires,
        cited: source_id.is_some(),
        source_key: source_id.map(|id| {
            (
                id.to_owned(),
                source_type.map_or(Value::Null, |t| Value::String(t.to_owned())),
            )
        }),
        source: Value::Null,
        source_type: source_type.map(str::to_owned),
        fetched_at: None,
        time,
        undefined: Vec::new(),
    })
}

/// citeproof's export record (`claim`, `source`, `logged_at`).
fn read_export(shape: &mut Shape<'_>, obj: &Map<String, Value>, head: Head) -> Option<Record> {
    let Head {
        line,
        ledger_id,
        seq,
    } = head;
    shape.members(obj, "", EXPORT_MEMBERS, &["claim", "source", "logged_at"]);
    let claim_id = shape.id(obj, "claim_id", "", 64).map(str::to_owned);
    let claim = shape.string(obj, "claim", "", 0);
    let requires = match (
        obj.contains_key("requires_proof"),
        obj.contains_key("requires_attribution"),
    ) {
        (true, false) => shape.boolean(obj, "requires_proof", ""),
        (false, true) => shape.boolean(obj, "requires_attribution", ""),
        (both, _) => {
            let (message, at) = if both {
                (
                    "both `requires_proof` and its alias `requires_attribution`: give one",
                    "/requires_attribution",
                )
            } else {
                (
                    "missing required member `requires_proof` (or its alias `requires_attribution`)",
                    "",
                )
            };
            shape.push(citeproof_model::IncidentCode::SchemaViolation, message, at);
            None
        }
    };
    let time = shape.timestamp(obj, "logged_at", "");
    let source = obj.get("source").cloned().unwrap_or(Value::Null);
    let facts: Option<Option<SourceFacts>> = match obj.get("source") {
        None => None,
        Some(Value::Null) => Some(None),
        Some(s) => shape.source(s, "/source").map(Some),
    };
    let (Some(claim), Some(requires), Some(time), Some(facts)) = (claim, requires, time, facts)
    else {
        return None;
    };
    Some(Record {
        line,
        form: Form::Export,
        ledger_id,
        claim_id,
        seq,
        claim: claim.to_owned(),
        requires_proof: requires,
        cited: facts.is_some(),
        source_key: facts
            .as_ref()
            .map(|f| (f.identifier.clone(), source.clone())),
        undefined: facts
            .as_ref()
            .map(|f| f.undefined.clone())
            .unwrap_or_default(),
        fetched_at: facts.map(|f| f.fetched_at),
        source,
        source_type: None,
        time,
    })
}
