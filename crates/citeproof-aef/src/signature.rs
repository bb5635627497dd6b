//! AEF Level 3 (Sign): AEF-L3-001 to AEF-L3-005 and AEF-5-003. The JWS mechanics are
//! `citeproof-jose`'s; this module picks the key (given by the caller, or fetched from
//! `verification.signing_key_uri`) and maps the JOSE error codes to the registry's AEF codes.

use citeproof_fetch::Fetcher;
use citeproof_jose::{JoseError, KeySet, VerifyingKey, evidence_signing_input, parse_detached};
use citeproof_model::{Incident, IncidentCode, Location, json::parse_strict};
use serde_json::Value;

use citeproof_fetch::get_ok;

const SIGNATURE_PTR: &str = "/verification/signature";
const KEY_URI_PTR: &str = "/verification/signing_key_uri";

fn at(pointer: &str) -> Location {
    Location::pointer(pointer)
}

/// The registry code for a JOSE error raised while checking a JWS or a key.
pub fn jose_code(e: &JoseError) -> IncidentCode {
    match e.code() {
        "jws-signature-invalid" | "jws-signing-input-invalid" => IncidentCode::AefSignatureInvalid,
        "jws-kid-unknown" | "jws-key-ambiguous" => IncidentCode::AefKeyUnresolved,
        code => IncidentCode::from_code(code).unwrap_or(IncidentCode::AefKeyUnresolved),
    }
}

/// Where the verification key comes from (AEF-L3-004).
#[derive(Clone, Copy)]
pub enum KeySource<'a> {
    /// Fetch `verification.signing_key_uri` (https) with this fetcher.
    Fetch(&'a dyn Fetcher),
    /// The document `signing_key_uri` would serve (a JWK Set or one JWK), already in hand.
    Document(&'a [u8]),
    /// Keys given by the caller (a PEM or JWK file): they replace `signing_key_uri`.
    Given(&'a KeySet),
}

impl std::fmt::Debug for KeySource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KeySource::Fetch(_) => "Fetch",
            KeySource::Document(_) => "Document",
            KeySource::Given(_) => "Given",
        })
    }
}

/// Where the key that verified the JWS came from: what the trust decision of AEF-L3-006 is
/// made on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOrigin {
    /// Keys the caller gave ([`KeySource::Given`]): chosen by the user, so trusted.
    Given,
    /// A key document the caller gave ([`KeySource::Document`]).
    Document,
    /// Fetched from this `signing_key_uri`, a URL the document itself names.
    Fetched(String),
}

/// Runs the Level 3 checks on a Level-1-valid evidence value.
pub fn check(value: &Value, keys: KeySource<'_>) -> Vec<Incident> {
    check_with_origin(value, keys).0
}

/// [`check`], also saying where the key came from when the JWS verified.
pub fn check_with_origin(value: &Value, keys: KeySource<'_>) -> (Vec<Incident>, Option<KeyOrigin>) {
    let mut out = Vec::new();
    let origin = checked_origin(value, keys, &mut out);
    (out, origin)
}

fn checked_origin(
    value: &Value,
    keys: KeySource<'_>,
    out: &mut Vec<Incident>,
) -> Option<KeyOrigin> {
    // AEF-L3-001.
    let Some(signature) = value.pointer(SIGNATURE_PTR).and_then(Value::as_str) else {
        out.push(Incident::new(
            IncidentCode::AefSignatureMissing,
            "verification.signature is absent, so the evidence cannot reach Level 3",
            at("/verification"),
        ));
        return None;
    };
    // AEF-L3-002 and AEF-L3-003.
    let at_signature =
        |e: &JoseError| Incident::new(jose_code(e), e.to_string(), at(SIGNATURE_PTR));
    let parsed = parse_detached(signature)
        .map_err(|e| out.push(at_signature(&e)))
        .ok()?;
    // AEF-5-003.
    let payload = evidence_signing_input(value)
        .map_err(|e| out.push(at_signature(&e)))
        .ok()?;
    // AEF-L3-004.
    let kid = parsed.kid.as_deref();
    let (key, origin) = match keys {
        KeySource::Given(set) => match set.resolve(kid) {
            Ok(entry) => (Some(entry.key), KeyOrigin::Given),
            Err(e) => {
                unresolved(
                    out,
                    format!("no key given for the JWS: {e}"),
                    at(SIGNATURE_PTR),
                );
                (None, KeyOrigin::Given)
            }
        },
        KeySource::Document(doc) => (
            select_key(doc, kid, "the key document", Location::default(), out),
            KeyOrigin::Document,
        ),
        KeySource::Fetch(fetcher) => {
            let uri = value
                .pointer(KEY_URI_PTR)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            (fetch_key(value, kid, fetcher, out), KeyOrigin::Fetched(uri))
        }
    };
    let key = key?;
    // AEF-L3-005.
    if let Err(e) = parsed.verify_with(&payload, &key) {
        out.push(Incident::new(
            IncidentCode::AefSignatureInvalid,
            format!("the JWS does not verify over the JCS form of the evidence object: {e}"),
            at(SIGNATURE_PTR),
        ));
        return None;
    }
    Some(origin)
}

fn unresolved(out: &mut Vec<Incident>, message: String, location: Location) {
    out.push(Incident::new(
        IncidentCode::AefKeyUnresolved,
        message,
        location,
    ));
}

/// AEF-L3-004 with a fetched key: the JWK or JWK Set at `signing_key_uri`.
fn fetch_key(
    value: &Value,
    kid: Option<&str>,
    fetcher: &dyn Fetcher,
    out: &mut Vec<Incident>,
) -> Option<VerifyingKey> {
    let Some(uri) = value.pointer(KEY_URI_PTR).and_then(Value::as_str) else {
        unresolved(
            out,
            "verification.signing_key_uri is absent and no key was given, so no key can be obtained"
                .into(),
            at("/verification"),
        );
        return None;
    };
    if let Some(problem) = citeproof_model::weburl::web_url_problem(uri) {
        unresolved(
            out,
            format!("signing_key_uri is not a web URL: {problem}"),
            at(KEY_URI_PTR),
        );
        return None;
    }
    if !uri
        .get(..6)
        .is_some_and(|s| s.eq_ignore_ascii_case("https:"))
    {
        unresolved(
            out,
            "signing_key_uri must use https".into(),
            at(KEY_URI_PTR),
        );
        return None;
    }
    let body = match get_ok(fetcher, uri) {
        Ok(resp) => resp.body,
        Err(cause) => {
            unresolved(
                out,
                format!("the key at {uri} could not be fetched: {}", cause.message),
                Location {
                    url: Some(uri.to_owned()),
                    ..Location::default()
                },
            );
            out.push(cause);
            return None;
        }
    };
    let loc = Location {
        url: Some(uri.to_owned()),
        ..Location::default()
    };
    select_key(&body, kid, uri, loc, out)
}

/// Reads a JWK Set or a single JWK (strict, SIG-004/SIG-005) and selects the key for `kid`: from
/// a set, the key whose `kid` equals it (or the only key when the JWS has no `kid`); a single
/// JWK unless both it and the JWS have a `kid` and they differ.
fn select_key(
    body: &[u8],
    kid: Option<&str>,
    what: &str,
    loc: Location,
    out: &mut Vec<Incident>,
) -> Option<VerifyingKey> {
    let set = match KeySet::from_json(body) {
        Ok(s) => s,
        Err(e) => {
            unresolved(out, format!("{what} is not a usable key: {e}"), loc.clone());
            let code = jose_code(&e);
            if code != IncidentCode::AefKeyUnresolved {
                out.push(Incident::new(code, e.to_string(), loc));
            }
            return None;
        }
    };
    let is_set = parse_strict(body)
        .ok()
        .is_some_and(|v| v.get("keys").is_some());
    let chosen = if is_set {
        match kid {
            Some(k) => set.find(k).map(|e| e.key),
            None if set.len() == 1 => set.entries().first().map(|e| e.key),
            None => None,
        }
    } else {
        set.resolve(kid).ok().map(|e| e.key)
    };
    if chosen.is_none() {
        unresolved(
            out,
            match kid {
                Some(k) => format!("{what} has no key with kid {k:?}"),
                None => format!("the JWS has no kid and {what} has several keys"),
            },
            loc,
        );
    }
    chosen
}
