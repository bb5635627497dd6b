//! Member-by-member checks of the ledger's JSON shapes, so that every violation gets the
//! specific registry code and an exact JSON pointer (reporting rules 1 and 2). The published
//! schemas in `schemas/ledger*.json` say the same thing; `tests/schema_agreement.rs` checks
//! that both accept and reject the same documents.
//!
//! Hand-written rather than driven by the JSON Schema validator: the schema's `oneOf` for a
//! nullable source only says "not valid under any of the schemas" at the source, where a
//! producer needs "missing `identifier`" at `/claims/3/source`, and records are checked by the
//! hundred thousand, where a generic validator costs far more.

use citeproof_model::{Incident, IncidentCode, Location, Timestamp};
use serde_json::{Map, Value};

/// Where incidents go, and the line of the record being checked (for an audit file).
pub(crate) struct Shape<'a> {
    pub line: Option<u64>,
    pub incidents: &'a mut Vec<Incident>,
}

pub(crate) use citeproof_model::pointer::child;

impl<'a> Shape<'a> {
    /// The shape of a whole document (not a line of an audit file), its incidents into `out`.
    pub fn document(out: &'a mut Vec<Incident>) -> Shape<'a> {
        Shape {
            line: None,
            incidents: out,
        }
    }

    /// The document's root object with its members checked (see [`Shape::members`]).
    pub fn root<'v>(
        &mut self,
        value: &'v Value,
        allowed: &[&str],
        required: &[&str],
    ) -> Option<&'v Map<String, Value>> {
        let obj = self.object(value, "")?;
        self.members(obj, "", allowed, required);
        Some(obj)
    }

    /// Each element of the array `name` of `obj` read by `item` (with its pointer), or a
    /// `schema-violation` when the member is not an array; empty when it is absent.
    pub fn array_of<T>(
        &mut self,
        obj: &Map<String, Value>,
        name: &str,
        mut item: impl FnMut(&mut Self, &Value, &str) -> Option<T>,
    ) -> Vec<T> {
        let pointer = child("", name);
        match obj.get(name) {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, value)| item(self, value, &format!("{pointer}/{i}")))
                .collect(),
            Some(other) => {
                self.violation(
                    format!("`{name}` must be an array, not {}", kind(other)),
                    &pointer,
                );
                Vec::new()
            }
            None => Vec::new(),
        }
    }
}

impl Shape<'_> {
    pub fn location(&self, pointer: &str) -> Location {
        Location {
            pointer: Some(pointer.to_owned()),
            line: self.line,
            ..Location::default()
        }
    }

    pub fn push(&mut self, code: IncidentCode, message: impl Into<String>, pointer: &str) {
        let location = self.location(pointer);
        self.incidents.push(Incident::new(code, message, location));
    }

    fn violation(&mut self, message: impl Into<String>, pointer: &str) {
        self.push(IncidentCode::SchemaViolation, message, pointer);
    }

    /// `value` as an object, or a `schema-violation`.
    pub fn object<'v>(
        &mut self,
        value: &'v Value,
        pointer: &str,
    ) -> Option<&'v Map<String, Value>> {
        match value.as_object() {
            Some(obj) => Some(obj),
            None => {
                self.violation(format!("must be an object, not {}", kind(value)), pointer);
                None
            }
        }
    }

    /// Unknown members (not in `allowed` and not `x-`) and missing `required` members.
    pub fn members(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        allowed: &[&str],
        required: &[&str],
    ) {
        for name in obj.keys() {
            if !allowed.contains(&name.as_str()) && !name.starts_with("x-") {
                self.push(
                    IncidentCode::UnknownMember,
                    format!("unknown member `{name}` (only `x-` extension members may be added)"),
                    &child(pointer, name),
                );
            }
        }
        for name in required {
            if !obj.contains_key(*name) {
                self.violation(format!("missing required member `{name}`"), pointer);
            }
        }
    }

    /// A string member (present: checked by `members`). `min_len` 1 refuses `""`.
    pub fn string<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        name: &str,
        pointer: &str,
        min_len: usize,
    ) -> Option<&'v str> {
        let v = obj.get(name)?;
        let at = child(pointer, name);
        match v.as_str() {
            Some(s) if s.chars().count() >= min_len => Some(s),
            Some(_) => {
                self.violation(format!("`{name}` must not be empty"), &at);
                None
            }
            None => {
                self.violation(format!("`{name}` must be a string, not {}", kind(v)), &at);
                None
            }
        }
    }

    /// A string or `null` member; `Some(None)` for `null`.
    pub fn nullable_string<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        name: &str,
        pointer: &str,
        max_len: Option<usize>,
    ) -> Option<Option<&'v str>> {
        let v = obj.get(name)?;
        if v.is_null() {
            return Some(None);
        }
        let s = self.string(obj, name, pointer, 1)?;
        if let Some(max) = max_len
            && s.len() > max
        {
            self.violation(
                format!("`{name}` is {} bytes; at most {max}", s.len()),
                &child(pointer, name),
            );
            return None;
        }
        Some(Some(s))
    }

    /// A member that `read` takes, or a violation: "`name` must be " and `must_be` of it.
    fn typed<T>(
        &mut self,
        (obj, name, pointer): (&Map<String, Value>, &str, &str),
        read: impl Fn(&Value) -> Option<T>,
        must_be: impl Fn(&Value) -> String,
    ) -> Option<T> {
        let v = obj.get(name)?;
        let t = read(v);
        if t.is_none() {
            let message = format!("`{name}` must be {}", must_be(v));
            self.violation(message, &child(pointer, name));
        }
        t
    }

    pub fn boolean(&mut self, obj: &Map<String, Value>, name: &str, pointer: &str) -> Option<bool> {
        let must_be = |v: &Value| format!("a boolean, not {}", kind(v));
        self.typed((obj, name, pointer), Value::as_bool, must_be)
    }

    /// A non-negative integer member.
    pub fn count(&mut self, obj: &Map<String, Value>, name: &str, pointer: &str) -> Option<u64> {
        let must_be = |v: &Value| format!("a non-negative integer, not {v}");
        self.typed((obj, name, pointer), Value::as_u64, must_be)
    }

    pub fn number(&mut self, obj: &Map<String, Value>, name: &str, pointer: &str) -> Option<f64> {
        let must_be = |v: &Value| format!("a number, not {}", kind(v));
        self.typed((obj, name, pointer), Value::as_f64, must_be)
    }

    /// A JSON-005 timestamp member (`schema-timestamp-invalid` otherwise).
    pub fn timestamp(
        &mut self,
        obj: &Map<String, Value>,
        name: &str,
        pointer: &str,
    ) -> Option<Timestamp> {
        let v = obj.get(name)?;
        let at = child(pointer, name);
        let Some(s) = v.as_str() else {
            self.violation(
                format!("`{name}` must be a timestamp string, not {}", kind(v)),
                &at,
            );
            return None;
        };
        match Timestamp::parse(s) {
            Ok(t) => match t.profile_violation() {
                None => Some(t),
                Some(why) => {
                    self.push(
                        IncidentCode::SchemaTimestampInvalid,
                        format!("`{s}`: {why}"),
                        &at,
                    );
                    None
                }
            },
            Err(e) => {
                self.push(IncidentCode::SchemaTimestampInvalid, e, &at);
                None
            }
        }
    }

    /// An optional id member matching the run-id (`max` 128) or claim-id (`max` 64) grammar.
    pub fn id<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        name: &str,
        pointer: &str,
        max: usize,
    ) -> Option<&'v str> {
        let s = self.string(obj, name, pointer, 1)?;
        let ok = if max == 64 {
            citeproof_model::ids::is_claim_id(s)
        } else {
            citeproof_model::ids::is_run_id(s)
        };
        if ok {
            Some(s)
        } else {
            self.violation(
                format!(
                    "`{name}` must match ^[A-Za-z0-9][A-Za-z0-9._:-]{{0,{}}}$",
                    max - 1
                ),
                &child(pointer, name),
            );
            None
        }
    }

    /// A source reference (LEDGER-001): `identifier`, `category` (non-empty strings),
    /// `fetched_at` (timestamp), optional `tool_call_id` (non-empty string), `endpoint` (string
    /// of at most 2048 bytes or `null`), `metadata` (object or `null`). Other members are
    /// allowed (LEDGER-018): their names come back in [`SourceFacts::undefined`], for the caller
    /// to warn about once per ledger. Returns the facts the verifier needs when the shape holds.
    pub fn source(&mut self, value: &Value, pointer: &str) -> Option<SourceFacts> {
        let obj = self.object(value, pointer)?;
        let before = self.incidents.len();
        for name in ["identifier", "category", "fetched_at"] {
            if !obj.contains_key(name) {
                self.violation(format!("missing required member `{name}`"), pointer);
            }
        }
        let identifier = self.string(obj, "identifier", pointer, 1);
        self.string(obj, "category", pointer, 1);
        let tool_call_id = self
            .string(obj, "tool_call_id", pointer, 1)
            .map(str::to_owned);
        let fetched_at = self.timestamp(obj, "fetched_at", pointer);
        self.nullable_string(
            obj,
            "endpoint",
            pointer,
            Some(citeproof_model::primitives::MAX_URL_BYTES),
        );
        if let Some(m) = obj.get("metadata")
            && !m.is_null()
            && !m.is_object()
        {
            self.violation(
                format!("`metadata` must be an object or null, not {}", kind(m)),
                &child(pointer, "metadata"),
            );
        }
        if self.incidents.len() != before {
            return None;
        }
        let undefined = obj
            .keys()
            .filter(|k| !SOURCE_MEMBERS.contains(&k.as_str()) && !k.starts_with("x-"))
            .cloned()
            .collect();
        Some(SourceFacts {
            identifier: identifier?.to_owned(),
            tool_call_id,
            fetched_at: fetched_at?,
            undefined,
        })
    }
}

/// The members of a source reference that LEDGER-001 defines.
const SOURCE_MEMBERS: [&str; 6] = [
    "identifier",
    "category",
    "tool_call_id",
    "fetched_at",
    "endpoint",
    "metadata",
];

/// What the checks after the shape need from a valid source reference.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SourceFacts {
    pub identifier: String,
    pub tool_call_id: Option<String>,
    pub fetched_at: Timestamp,
    /// Members neither defined nor `x-` (LEDGER-018), in name order.
    pub undefined: Vec<String>,
}

pub(crate) use citeproof_model::members::kind;

/// A timestamp as an instant (Unix seconds, nanoseconds): `Timestamp`'s `Ord` breaks ties by
/// text, which would make `…Z` and `…+00:00` differ.
pub(crate) fn instant(t: &Timestamp) -> (i64, u32) {
    let digits: String = match t.as_str().get(19..) {
        Some(rest) if rest.starts_with('.') => rest
            .get(1..)
            .unwrap_or_default()
            .chars()
            .take_while(char::is_ascii_digit)
            .take(9)
            .collect(),
        _ => String::new(),
    };
    let nanos = format!("{digits:0<9}").parse::<u32>().unwrap_or(0);
    (t.unix_seconds(), nanos)
}

/// The bytes two source references are compared by (LEDGER-009, LEDGER-013): the RFC 8785 form
/// of the reference with `fetched_at`, a timestamp, replaced by its instant (JSON-005:
/// timestamps compare as instants, so `…Z` and `…+00:00` are the same time). Every other
/// member, defined or not, is compared as JSON (`1` equals `1.0`).
pub(crate) fn source_key(source: &Value) -> Vec<u8> {
    let normalized = match source {
        Value::Object(obj) => {
            let mut obj = obj.clone();
            if let Some(t) = obj
                .get("fetched_at")
                .and_then(Value::as_str)
                .and_then(|s| Timestamp::parse(s).ok())
            {
                let (secs, nanos) = instant(&t);
                obj.insert(
                    "fetched_at".to_owned(),
                    Value::String(format!("{secs}.{nanos:09}")),
                );
            }
            Value::Object(obj)
        }
        other => other.clone(),
    };
    citeproof_model::jcs::canonicalize(&normalized)
}

/// Whether two optional timestamps written as strings name the same instant (both absent, or
/// both valid timestamps of one instant).
pub(crate) fn same_instant(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => match (Timestamp::parse(a), Timestamp::parse(b)) {
            (Ok(a), Ok(b)) => instant(&a) == instant(&b),
            _ => a == b,
        },
        _ => false,
    }
}
