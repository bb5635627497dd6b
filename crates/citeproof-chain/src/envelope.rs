//! One envelope on its own (profile CHAIN-001 to CHAIN-006, CHAIN-008, CHAIN-009): the value is
//! walked by hand so that every violation gets the specific registry code with a JSON pointer
//! (reporting rule 2), and so that the valid parts can still be used by the later checks
//! (reporting rule 3).

use citeproof_model::weburl::web_url_problem;
use citeproof_model::{Incident, IncidentCode, Location, Timestamp};
use serde_json::{Map, Value};

pub(crate) use crate::dates::{date_or_timestamp, kind, timestamp};
use crate::dates::{date_or_timestamp_kind, earliest_instant, reduced_precision_date};
use crate::id::{claim_id, is_claim_id};
use crate::keys::Algorithm;
use crate::signing::child;

/// Most sources one claim may list.
pub const MAX_SOURCES: usize = 256;

const ENVELOPE_MEMBERS: &[&str] = &[
    "apiVersion",
    "methodology",
    "canonical",
    "claim",
    "signature",
    "citedAs",
];
const CLAIM_MEMBERS: &[&str] = &[
    "id",
    "vertical",
    "subject",
    "predicate",
    "object",
    "statement",
    "confidence",
    "sources",
    "tags",
    "publishedAt",
    "lastVerified",
    "methodologyVersion",
];
const SOURCE_MEMBERS: &[&str] = &[
    "url",
    "title",
    "publisher",
    "publishedDate",
    "accessedDate",
    "type",
    "excerpt",
];
const SIGNATURE_MEMBERS: &[&str] = &["algorithm", "signedBy", "signedAt", "signature"];

/// The usable parts of an envelope: each is `Some` (or non-empty) only when valid.
#[derive(Debug, Clone, Default)]
pub struct CheckedEnvelope {
    /// Pointer of the envelope in the document (`""`, or `/chains/<key>`).
    pub base: String,
    /// `claim.id` when it is 16 lowercase hex digits.
    pub claim_id: Option<String>,
    /// The id computed from the claim's fields (CHAIN-002), when all four are strings.
    pub computed_id: Option<String>,
    /// `canonical` when it is a web URL.
    pub canonical: Option<String>,
    pub algorithm: Option<Algorithm>,
    pub signed_by: Option<String>,
    pub signed_at: Option<Timestamp>,
    /// The signature bytes, when the signature object is well-formed.
    pub signature: Option<Vec<u8>>,
    /// The claim has its own `signedAt` or `signedBy` (CHAIN-006).
    pub payload_conflict: bool,
    /// `claim.lastVerified`: Unix seconds of its start, and its text.
    pub last_verified: Option<(i64, String)>,
    /// Source URLs that are web URLs, with their pointers, in order.
    pub sources: Vec<(String, String)>,
    /// Claim and source members this profile does not define (not `x-`): the pointer of the
    /// object that has each, and its name. Whether each is accepted depends on what the
    /// signature covers (CHAIN-017), so the verification flow reports them.
    pub unrecognized: Vec<(String, String)>,
    /// The dates checked against the verification time (CHAIN-016): pointer, text, and the
    /// earliest instant the text can denote (Unix seconds).
    pub dates: Vec<(String, String, i64)>,
}

impl CheckedEnvelope {
    pub(crate) fn at(&self, code: IncidentCode, pointer: &str, message: String) -> Incident {
        let mut location = Location::pointer(format!("{}{pointer}", self.base));
        location.claim_id = self.claim_id.clone();
        Incident::new(code, message, location)
    }
}

fn unknown_members(
    e: &CheckedEnvelope,
    obj: &Map<String, Value>,
    known: &[&str],
    allow_x: bool,
    base: &str,
    out: &mut Vec<Incident>,
) {
    for k in obj.keys() {
        if known.contains(&k.as_str()) || (allow_x && k.starts_with("x-")) {
            continue;
        }
        let why = if allow_x {
            "only `x-` extension members may be added"
        } else {
            "this object allows no extension members"
        };
        // At the object that has the member, as every spec crate reports it.
        out.push(e.at(
            IncidentCode::UnknownMember,
            base,
            format!("unknown member `{k}` ({why})"),
        ));
    }
}

fn missing(e: &CheckedEnvelope, base: &str, name: &str, out: &mut Vec<Incident>) {
    out.push(e.at(
        IncidentCode::SchemaViolation,
        base,
        format!("missing member `{name}`"),
    ));
}

/// A string member; `nonempty` requires at least one character.
fn string_member<'a>(
    e: &CheckedEnvelope,
    obj: &'a Map<String, Value>,
    name: &str,
    base: &str,
    required: bool,
    nonempty: bool,
    out: &mut Vec<Incident>,
) -> Option<&'a str> {
    match obj.get(name) {
        None => {
            if required {
                missing(e, base, name, out);
            }
            None
        }
        Some(Value::String(s)) if !nonempty || !s.is_empty() => Some(s),
        Some(v) => {
            let want = if nonempty {
                "a non-empty string"
            } else {
                "a string"
            };
            out.push(e.at(
                IncidentCode::SchemaViolation,
                &child(base, name),
                format!("`{name}` must be {want}, found {}", describe(v)),
            ));
            None
        }
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() => "an empty string".into(),
        v => kind(v).into(),
    }
}

/// A web URL member (the `chain-url-invalid` rule); wrong type is `schema-violation`.
fn url_member(
    e: &CheckedEnvelope,
    obj: &Map<String, Value>,
    name: &str,
    base: &str,
    out: &mut Vec<Incident>,
) -> Option<String> {
    let s = string_member(e, obj, name, base, true, false, out)?;
    match web_url_problem(s) {
        None => Some(s.to_owned()),
        Some(why) => {
            out.push(e.at(
                IncidentCode::ChainUrlInvalid,
                &child(base, name),
                format!("`{name}` is not a web URL: {why}"),
            ));
            None
        }
    }
}

/// Checks one envelope. `base` is its pointer in the document.
pub fn check_envelope(value: &Value, base: &str, out: &mut Vec<Incident>) -> CheckedEnvelope {
    let mut e = CheckedEnvelope {
        base: base.to_owned(),
        ..CheckedEnvelope::default()
    };
    let Some(obj) = value.as_object() else {
        out.push(e.at(
            IncidentCode::SchemaViolation,
            "",
            format!("an envelope must be a JSON object, found {}", kind(value)),
        ));
        return e;
    };
    // The claim first, so that later incidents carry the claim id.
    let claim = obj.get("claim");
    if let Some(Value::Object(c)) = claim
        && let Some(Value::String(id)) = c.get("id")
        && is_claim_id(id)
    {
        e.claim_id = Some(id.clone());
    }
    unknown_members(&e, obj, ENVELOPE_MEMBERS, true, "", out);
    match obj.get("apiVersion") {
        None => missing(&e, "", "apiVersion", out),
        Some(Value::String(v)) if v == "v1" => {}
        Some(Value::String(v)) => out.push(e.at(
            IncidentCode::ChainVersionUnsupported,
            "/apiVersion",
            format!("apiVersion `{v}` is not `v1`"),
        )),
        Some(v) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/apiVersion",
            format!("apiVersion must be a string, found {}", kind(v)),
        )),
    }
    url_member(&e, obj, "methodology", "", out);
    e.canonical = url_member(&e, obj, "canonical", "", out);
    string_member(&e, obj, "citedAs", "", false, false, out);
    match claim {
        None => missing(&e, "", "claim", out),
        Some(Value::Object(c)) => check_claim(&mut e, c, out),
        Some(v) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/claim",
            format!("claim must be an object, found {}", kind(v)),
        )),
    }
    match obj.get("signature") {
        None => missing(&e, "", "signature", out),
        Some(Value::Object(s)) => check_signature(&mut e, s, out),
        Some(v) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/signature",
            format!("signature must be an object, found {}", kind(v)),
        )),
    }
    crate::canonical::check_canonical(&e, out);
    e
}

fn check_claim(e: &mut CheckedEnvelope, c: &Map<String, Value>, out: &mut Vec<Incident>) {
    let base = "/claim";
    for name in ["signedAt", "signedBy"] {
        if c.contains_key(name) {
            e.payload_conflict = true;
            out.push(e.at(
                IncidentCode::ChainPayloadConflict,
                &child(base, name),
                format!(
                    "the claim has its own `{name}`, which the seed's signing payload would overwrite"
                ),
            ));
        }
    }
    let known: Vec<&str> = CLAIM_MEMBERS
        .iter()
        .copied()
        .chain(["signedAt", "signedBy"])
        .collect();
    unrecognized_members(e, c, &known, base);
    check_claim_id(e, c, out);
    check_claim_fields(e, c, out);
    string_member(e, c, "statement", base, false, false, out);
    string_member(e, c, "methodologyVersion", base, false, false, out);
    check_confidence_and_tags(e, c, out);
    check_claim_dates(e, c, out);
    check_claim_sources(e, c, out);
}

/// `id`: present and 16 lowercase hex digits (CHAIN's claim id form).
fn check_claim_id(e: &mut CheckedEnvelope, c: &Map<String, Value>, out: &mut Vec<Incident>) {
    match c.get("id") {
        None => missing(e, "/claim", "id", out),
        Some(Value::String(id)) if is_claim_id(id) => {}
        Some(Value::String(id)) => out.push(e.at(
            IncidentCode::ChainIdInvalid,
            "/claim/id",
            format!("claim id `{id}` is not 16 lowercase hex digits"),
        )),
        Some(v) => out.push(e.at(
            IncidentCode::ChainIdInvalid,
            "/claim/id",
            format!(
                "claim id must be a string of 16 lowercase hex digits, found {}",
                kind(v)
            ),
        )),
    }
}

/// The four fields the id is computed from, and the id against them.
fn check_claim_fields(e: &mut CheckedEnvelope, c: &Map<String, Value>, out: &mut Vec<Incident>) {
    let fields: Vec<Option<&str>> = ["vertical", "subject", "predicate", "object"]
        .iter()
        .map(|name| string_member(e, c, name, "/claim", true, true, out))
        .collect();
    if let [Some(v), Some(s), Some(p), Some(o)] = fields.as_slice() {
        let computed = claim_id(v, s, p, o);
        if let Some(id) = &e.claim_id
            && *id != computed
        {
            out.push(e.at(
                IncidentCode::ChainIdMismatch,
                "/claim/id",
                format!(
                    "claim id `{id}` differs from `{computed}`, the id of its vertical, subject, predicate and object"
                ),
            ));
        }
        e.computed_id = Some(computed);
    }
}

fn check_confidence_and_tags(
    e: &mut CheckedEnvelope,
    c: &Map<String, Value>,
    out: &mut Vec<Incident>,
) {
    match c.get("confidence") {
        None => {}
        Some(Value::Number(n)) if n.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)) => {}
        Some(v) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/claim/confidence",
            format!("confidence must be a number from 0 to 1, found {v}"),
        )),
    }
    match c.get("tags") {
        None => {}
        Some(Value::Array(tags)) => {
            for (i, t) in tags.iter().enumerate() {
                if !t.is_string() {
                    out.push(e.at(
                        IncidentCode::SchemaViolation,
                        &format!("/claim/tags/{i}"),
                        format!("a tag must be a string, found {}", kind(t)),
                    ));
                }
            }
        }
        Some(v) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/claim/tags",
            format!("tags must be an array of strings, found {}", kind(v)),
        )),
    }
}

/// `publishedAt` (a timestamp) and `lastVerified` (a date or a timestamp), kept for the
/// order-of-dates checks.
fn check_claim_dates(e: &mut CheckedEnvelope, c: &Map<String, Value>, out: &mut Vec<Incident>) {
    if let Some(v) = c.get("publishedAt") {
        match timestamp(v) {
            Ok(t) => e.dates.push((
                "/claim/publishedAt".into(),
                t.as_str().to_owned(),
                t.unix_seconds(),
            )),
            Err((code, msg)) => {
                out.push(e.at(code, "/claim/publishedAt", format!("publishedAt: {msg}")));
            }
        }
    }
    if let Some(v) = c.get("lastVerified") {
        match date_or_timestamp_kind(v) {
            Ok((t, is_date)) => {
                let text = v.as_str().unwrap_or_default().to_owned();
                e.dates.push((
                    "/claim/lastVerified".into(),
                    text.clone(),
                    earliest_instant(t, is_date),
                ));
                e.last_verified = Some((t, text));
            }
            Err((code, msg)) => {
                out.push(e.at(code, "/claim/lastVerified", format!("lastVerified: {msg}")));
            }
        }
    }
}

fn check_claim_sources(e: &mut CheckedEnvelope, c: &Map<String, Value>, out: &mut Vec<Incident>) {
    match c.get("sources") {
        None => missing(e, "/claim", "sources", out),
        Some(Value::Array(sources)) if !sources.is_empty() && sources.len() <= MAX_SOURCES => {
            for (i, s) in sources.iter().enumerate() {
                check_source(e, s, &format!("/claim/sources/{i}"), out);
            }
        }
        Some(v) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/claim/sources",
            format!(
                "sources must be an array of 1 to {MAX_SOURCES} source objects, found {}",
                match v {
                    Value::Array(a) => format!("{} items", a.len()),
                    v => kind(v).to_owned(),
                }
            ),
        )),
    }
}

fn check_source(e: &mut CheckedEnvelope, s: &Value, base: &str, out: &mut Vec<Incident>) {
    let Some(obj) = s.as_object() else {
        out.push(e.at(
            IncidentCode::SchemaViolation,
            base,
            format!("a source must be an object, found {}", kind(s)),
        ));
        return;
    };
    unrecognized_members(e, obj, SOURCE_MEMBERS, base);
    if let Some(url) = url_member(e, obj, "url", base, out) {
        e.sources.push((child(base, "url"), url));
    }
    for name in ["title", "publisher", "type", "excerpt"] {
        string_member(e, obj, name, base, false, false, out);
    }
    if let Some(v) = obj.get("publishedDate") {
        let pointer = child(base, "publishedDate");
        match (date_or_timestamp(v), v.as_str()) {
            (Ok(_), _) => {}
            (Err(_), Some(text)) if reduced_precision_date(text) => out.push(e.at(
                IncidentCode::ChainDateReducedPrecision,
                &pointer,
                format!("publishedDate `{text}` gives only a year or a year and month"),
            )),
            (Err((code, msg)), _) => {
                out.push(e.at(code, &pointer, format!("publishedDate: {msg}")));
            }
        }
    }
    if let Some(v) = obj.get("accessedDate") {
        let pointer = child(base, "accessedDate");
        match date_or_timestamp_kind(v) {
            Ok((t, is_date)) => e.dates.push((
                pointer,
                v.as_str().unwrap_or_default().to_owned(),
                earliest_instant(t, is_date),
            )),
            Err((code, msg)) => out.push(e.at(code, &pointer, format!("accessedDate: {msg}"))),
        }
    }
}

/// Records the members of a claim or source object that are neither defined nor `x-`.
fn unrecognized_members(
    e: &mut CheckedEnvelope,
    obj: &Map<String, Value>,
    known: &[&str],
    base: &str,
) {
    for k in obj.keys() {
        if !known.contains(&k.as_str()) && !k.starts_with("x-") {
            e.unrecognized.push((base.to_owned(), k.clone()));
        }
    }
}

fn check_signature(e: &mut CheckedEnvelope, s: &Map<String, Value>, out: &mut Vec<Incident>) {
    let base = "/signature";
    unknown_members(e, s, SIGNATURE_MEMBERS, false, base, out);
    match s.get("algorithm") {
        None => missing(e, base, "algorithm", out),
        Some(Value::String(a)) => match Algorithm::from_name(a) {
            Some(alg) => e.algorithm = Some(alg),
            None => out.push(e.at(
                IncidentCode::ChainAlgorithmUnsupported,
                "/signature/algorithm",
                format!("algorithm `{a}` is not `HMAC-SHA256` or `Ed25519`"),
            )),
        },
        Some(v) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/signature/algorithm",
            format!("algorithm must be a string, found {}", kind(v)),
        )),
    }
    match string_member(e, s, "signedBy", base, true, true, out) {
        Some(by) if by.chars().count() <= 512 => e.signed_by = Some(by.to_owned()),
        Some(_) => out.push(e.at(
            IncidentCode::SchemaViolation,
            "/signature/signedBy",
            "signedBy is longer than 512 characters".into(),
        )),
        None => {}
    }
    match s.get("signedAt") {
        None => missing(e, base, "signedAt", out),
        Some(v) => match timestamp(v) {
            Ok(t) => {
                e.dates.push((
                    "/signature/signedAt".into(),
                    t.as_str().to_owned(),
                    t.unix_seconds(),
                ));
                e.signed_at = Some(t);
            }
            Err((code, msg)) => {
                out.push(e.at(code, "/signature/signedAt", format!("signedAt: {msg}")))
            }
        },
    }
    match s.get("signature") {
        None => missing(e, base, "signature", out),
        Some(Value::String(hex_sig)) => {
            let lowercase_hex = hex_sig
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            let expected = e.algorithm.map(|a| a.signature_len() * 2);
            let ok_len = match expected {
                Some(n) => hex_sig.len() == n,
                None => hex_sig.len() == 64 || hex_sig.len() == 128,
            };
            if lowercase_hex && ok_len {
                if e.algorithm.is_some() {
                    e.signature = hex::decode(hex_sig).ok();
                }
            } else {
                let want = match e.algorithm {
                    Some(a) => format!(
                        "{} lowercase hex digits for {}",
                        a.signature_len() * 2,
                        a.as_str()
                    ),
                    None => "64 or 128 lowercase hex digits".into(),
                };
                out.push(e.at(
                    IncidentCode::ChainSignatureMalformed,
                    "/signature/signature",
                    format!("the signature value must be {want}"),
                ));
            }
        }
        Some(v) => out.push(e.at(
            IncidentCode::ChainSignatureMalformed,
            "/signature/signature",
            format!(
                "the signature value must be a lowercase hex string, found {}",
                kind(v)
            ),
        )),
    }
}
