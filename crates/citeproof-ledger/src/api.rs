//! LEDGER-016: the seed's `export_for_api` dictionary agrees with its ledger.
//!
//! ```python
//! {"output_summary": " ".join(e.text for e in ledger._entries),
//!  "attribution_map": [{"claim": e.text,
//!                       "source_id": e.source.identifier if e.source else None,
//!                       "source_category": e.source.category if e.source else None,
//!                       "timestamp": e.source.fetched_at.isoformat() if e.source else None}
//!                      for e in ledger._entries]}
//! ```

use citeproof_model::{Incident, IncidentCode, Location};
use serde_json::Value;

use crate::document::Doc;
use crate::shape::{Shape, child, same_instant};

fn mismatch(message: impl Into<String>, pointer: &str) -> Incident {
    Incident::new(
        IncidentCode::LedgerApiMismatch,
        message,
        Location::pointer(pointer),
    )
}

/// Checks the shape of the export; then, when `doc` is given, that it exports that ledger.
pub(crate) fn check(value: &Value, doc: Option<&Doc>, out: &mut Vec<Incident>) {
    let before = out.len();
    let read = read_export(value, out);
    if out.len() != before {
        return;
    }
    if let (Some(read), Some(doc)) = (read, doc) {
        compare(&read, doc, out);
    }
}

/// An `export_for_api` document as read: its members and each complete entry.
struct Export<'v> {
    ledger_id: Option<&'v str>,
    summary: Option<&'v str>,
    /// `claim`, `source_id`, `source_category`, `timestamp` of each entry.
    entries: Vec<[Option<&'v str>; 4]>,
}

/// The shape of the document (its schema's rules); `None` when it is not an object.
fn read_export<'v>(value: &'v Value, out: &mut Vec<Incident>) -> Option<Export<'v>> {
    let mut s = Shape::document(out);
    let obj = s.root(
        value,
        &["ledger_id", "output_summary", "attribution_map"],
        &["output_summary", "attribution_map"],
    )?;
    let ledger_id = s.id(obj, "ledger_id", "", 128);
    let summary = s.string(obj, "output_summary", "", 0);
    let mut entries: Vec<[Option<&str>; 4]> = Vec::new();
    match obj.get("attribution_map") {
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let p = format!("/attribution_map/{i}");
                let Some(e) = s.object(item, &p) else {
                    continue;
                };
                let names = ["claim", "source_id", "source_category", "timestamp"];
                s.members(e, &p, &names, &names);
                let claim = s.string(e, "claim", &p, 0);
                let id = s.nullable_string(e, "source_id", &p, None);
                let category = s.nullable_string(e, "source_category", &p, None);
                let ts = match e.get("timestamp") {
                    Some(Value::Null) => Some(None),
                    Some(_) => s
                        .timestamp(e, "timestamp", &p)
                        .map(|_| e.get("timestamp").and_then(Value::as_str)),
                    None => None,
                };
                if let (Some(claim), Some(id), Some(category), Some(ts)) = (claim, id, category, ts)
                {
                    entries.push([Some(claim), id, category, ts]);
                }
            }
        }
        Some(_) => s.push(
            IncidentCode::SchemaViolation,
            "`attribution_map` must be an array",
            "/attribution_map",
        ),
        None => {}
    }
    Some(Export {
        ledger_id,
        summary,
        entries,
    })
}

/// The export against the ledger it claims to be of (LEDGER-016).
fn compare(read: &Export<'_>, doc: &Doc, out: &mut Vec<Incident>) {
    if let Some(id) = read.ledger_id
        && Some(id) != doc.ledger_id.as_deref()
    {
        out.push(mismatch(
            format!(
                "the export is of ledger `{id}`, not {}",
                doc.ledger_id
                    .as_deref()
                    .map_or_else(|| "a ledger without id".to_owned(), |d| format!("`{d}`"))
            ),
            "/ledger_id",
        ));
    }
    let texts: Vec<&str> = doc.claims.iter().map(|c| c.text.as_str()).collect();
    if read.summary != Some(texts.join(" ").as_str()) {
        out.push(mismatch(
            "`output_summary` is not the claim texts joined by one space, in ledger order",
            "/output_summary",
        ));
    }
    if read.entries.len() != doc.claims.len() {
        out.push(mismatch(
            format!(
                "`attribution_map` has {} entries; the ledger has {} claims",
                read.entries.len(),
                doc.claims.len()
            ),
            "/attribution_map",
        ));
        return;
    }
    for (i, (entry, c)) in read.entries.iter().zip(&doc.claims).enumerate() {
        let expected = [
            Some(c.text.as_str()),
            c.identifier.as_deref(),
            c.category.as_deref(),
            c.source.get("fetched_at").and_then(Value::as_str),
        ];
        let names = ["claim", "source_id", "source_category", "timestamp"];
        for ((got, want), name) in entry.iter().zip(expected).zip(names) {
            // The timestamp is the same instant (JSON-005), whatever its offset is written as.
            let same = if name == "timestamp" {
                same_instant(*got, want)
            } else {
                *got == want
            };
            if !same {
                out.push(mismatch(
                    format!(
                        "`{name}` is {}; claim {i} of the ledger gives {}",
                        show(*got),
                        show(want)
                    ),
                    &child(&format!("/attribution_map/{i}"), name),
                ));
            }
        }
    }
}

fn show(v: Option<&str>) -> String {
    v.map_or_else(|| "null".to_owned(), |s| format!("{s:?}"))
}
