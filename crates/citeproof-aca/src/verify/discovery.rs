//! The discovery document and published keys (ACA-DISC-002 to ACA-DISC-004, SIG-004, SIG-005).

use citeproof_jose::{JoseError, VerifyingKey, load_public_keys};
use citeproof_model::{Incident, IncidentCode};
use serde_json::{Map, Value};

use super::jsonpath::{Ctx, child, index, kind};
use super::url::web_url_problem;

/// The signing method of RFC 9421 in `supported_signing`.
pub const HTTP_MESSAGE_SIGNATURES: &str = "http-message-signatures";

/// Path of the discovery document on an origin (ACA-DISC-001).
pub const DISCOVERY_PATH: &str = "/.well-known/agent-citation-attribution";

const DISCOVERY_MEMBERS: &[&str] = &[
    "version",
    "manifest_schema",
    "supported_signing",
    "contact",
    "keys",
    "jwks_uri",
    "manifest_origins",
];

/// One usable published key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedKey {
    pub kid: String,
    pub key: VerifyingKey,
}

/// What the checker found in a discovery document.
#[derive(Debug, Clone, Default)]
pub struct DiscoveryFindings {
    pub incidents: Vec<Incident>,
    /// Usable inline keys (SIG-005 holds, `kid` present).
    pub keys: Vec<PublishedKey>,
    /// `kid`s of published keys that are not usable (so that they are not resolved).
    pub unusable_kids: Vec<String>,
    /// A valid `jwks_uri` to fetch.
    pub jwks_uri: Option<String>,
    /// Origins other than the response's that may host this agent's manifests
    /// (`manifest_origins`, ACA-DISC-006), as ASCII serializations.
    pub manifest_origins: Vec<String>,
}

/// Checks a parsed discovery document, as Level 3 requires it.
pub fn check_discovery(value: &Value, url: Option<&str>) -> DiscoveryFindings {
    let ctx = Ctx {
        url: url.map(str::to_owned),
    };
    let mut f = DiscoveryFindings::default();
    let Some(obj) = value.as_object() else {
        f.incidents.push(ctx.at(
            IncidentCode::AcaDiscoveryInvalid,
            "",
            format!(
                "the discovery document must be a JSON object, found {}",
                kind(value)
            ),
        ));
        return f;
    };
    let out = &mut f.incidents;
    for k in obj.keys() {
        if !DISCOVERY_MEMBERS.contains(&k.as_str()) && !k.starts_with("x-") {
            out.push(ctx.at(
                IncidentCode::UnknownMember,
                "",
                format!("unknown member `{k}` (only `x-` extension members may be added)"),
            ));
        }
    }
    check_version(obj, &ctx, out);
    check_manifest_schema(obj, &ctx, out);
    let signs = check_supported_signing(obj, &ctx, out);
    check_contact(obj, &ctx, out);
    f.jwks_uri = check_jwks_uri(obj, &ctx, out);
    f.manifest_origins = check_manifest_origins(obj, &ctx, out);
    if let Some(keys) = obj.get("keys") {
        let set = check_jwk_set(keys, "/keys", &ctx);
        f.incidents.extend(set.incidents);
        f.keys = set.keys;
        f.unusable_kids = set.unusable_kids;
    }
    if signs && !obj.contains_key("keys") && !obj.contains_key("jwks_uri") {
        f.incidents.push(ctx.at(
            IncidentCode::AcaDiscoveryKeysMissing,
            "",
            "the document supports http-message-signatures but publishes neither `keys` nor `jwks_uri`".into(),
        ));
    }
    f
}

fn missing(name: &str) -> String {
    format!("missing member `{name}`")
}

/// The required string member `name`; its absence, or "`name` must be `what`, found ...",
/// reported otherwise.
fn required_string<'o>(
    obj: &'o Map<String, Value>,
    (name, what): (&str, &str),
    ctx: &Ctx,
    out: &mut Vec<Incident>,
) -> Option<&'o str> {
    let code = IncidentCode::AcaDiscoveryInvalid;
    match obj.get(name) {
        None => out.push(ctx.at(code, "", missing(name))),
        Some(Value::String(s)) => return Some(s),
        Some(v) => {
            let message = format!("{name} must be {what}, found {}", kind(v));
            out.push(ctx.at(code, &format!("/{name}"), message));
        }
    }
    None
}

/// `version`: `1.0` (ACA-DISC-002).
fn check_version(obj: &Map<String, Value>, ctx: &Ctx, out: &mut Vec<Incident>) {
    match required_string(obj, ("version", "a string"), ctx, out) {
        Some(v) if v != "1.0" => out.push(ctx.at(
            IncidentCode::AcaDiscoveryVersionUnsupported,
            "/version",
            format!("version `{v}` is not supported (expected `1.0`)"),
        )),
        _ => {}
    }
}

/// `manifest_schema`: a web URL.
fn check_manifest_schema(obj: &Map<String, Value>, ctx: &Ctx, out: &mut Vec<Incident>) {
    let u = required_string(obj, ("manifest_schema", "a URL string"), ctx, out);
    if let Some(u) = u
        && let Some(problem) = web_url_problem(u)
    {
        out.push(ctx.at(
            IncidentCode::AcaDiscoveryInvalid,
            "/manifest_schema",
            format!("manifest_schema `{u}` is not a web URL: {problem}"),
        ));
    }
}

/// `supported_signing` (ACA-DISC-003); true when it lists RFC 9421 signatures.
fn check_supported_signing(obj: &Map<String, Value>, ctx: &Ctx, out: &mut Vec<Incident>) -> bool {
    let mut signs = false;
    match obj.get("supported_signing") {
        None => out.push(ctx.at(
            IncidentCode::AcaDiscoveryInvalid,
            "",
            missing("supported_signing"),
        )),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            signs = items
                .iter()
                .any(|i| i.as_str() == Some(HTTP_MESSAGE_SIGNATURES));
            if !signs {
                out.push(ctx.at(
                    IncidentCode::AcaDiscoverySigningUnsupported,
                    "/supported_signing",
                    format!("supported_signing does not include `{HTTP_MESSAGE_SIGNATURES}`"),
                ));
            }
        }
        Some(v) => out.push(ctx.at(
            IncidentCode::AcaDiscoveryInvalid,
            "/supported_signing",
            format!("supported_signing must be an array of strings, found {v}"),
        )),
    }
    signs
}

/// `contact`: an email address, a web URL or a mailto: URI.
fn check_contact(obj: &Map<String, Value>, ctx: &Ctx, out: &mut Vec<Incident>) {
    let c = required_string(obj, ("contact", "a string"), ctx, out);
    if let Some(c) = c
        && !is_contact(c)
    {
        out.push(ctx.at(
            IncidentCode::AcaDiscoveryInvalid,
            "/contact",
            format!("contact `{c}` is neither an email address, a web URL nor a mailto: URI"),
        ));
    }
}

/// `jwks_uri`, optional: an https web URL, returned when valid.
fn check_jwks_uri(obj: &Map<String, Value>, ctx: &Ctx, out: &mut Vec<Incident>) -> Option<String> {
    match obj.get("jwks_uri") {
        None => {}
        Some(Value::String(u)) => match web_url_problem(u) {
            Some(problem) => out.push(ctx.at(
                IncidentCode::AcaDiscoveryInvalid,
                "/jwks_uri",
                format!("jwks_uri `{u}` is not a web URL: {problem}"),
            )),
            None if !u
                .get(..8)
                .is_some_and(|s| s.eq_ignore_ascii_case("https://")) =>
            {
                out.push(ctx.at(
                    IncidentCode::AcaDiscoveryInvalid,
                    "/jwks_uri",
                    format!("jwks_uri `{u}` must use https"),
                ))
            }
            None => return Some(u.clone()),
        },
        Some(v) => out.push(ctx.at(
            IncidentCode::AcaDiscoveryInvalid,
            "/jwks_uri",
            format!("jwks_uri must be a URL string, found {}", kind(v)),
        )),
    }
    None
}

/// `manifest_origins`, optional (ACA-DISC-006): the origins written as ASCII serializations.
fn check_manifest_origins(
    obj: &Map<String, Value>,
    ctx: &Ctx,
    out: &mut Vec<Incident>,
) -> Vec<String> {
    let mut origins = Vec::new();
    match obj.get("manifest_origins") {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let at = format!("/manifest_origins/{i}");
                match item.as_str() {
                    Some(o) if super::url::origin_of(o).as_deref() == Some(o) => {
                        origins.push(o.to_owned());
                    }
                    _ => out.push(ctx.at(
                        IncidentCode::AcaDiscoveryInvalid,
                        &at,
                        format!(
                            "manifest_origins entries are origins written as `scheme://host[:port]` (lowercase, default port omitted, no path), found {item}"
                        ),
                    )),
                }
            }
        }
        Some(v) => out.push(ctx.at(
            IncidentCode::AcaDiscoveryInvalid,
            "/manifest_origins",
            format!(
                "manifest_origins must be an array of origins, found {}",
                kind(v)
            ),
        )),
    }
    origins
}

/// Keys of one JWK Set with the findings about them.
#[derive(Debug, Clone, Default)]
pub struct JwkSetFindings {
    pub incidents: Vec<Incident>,
    pub keys: Vec<PublishedKey>,
    pub unusable_kids: Vec<String>,
}

/// Checks a published JWK Set (SIG-004, SIG-005, ACA-DISC-004): every key is checked and
/// reported on its own; usable keys are returned.
pub(crate) fn check_jwk_set(set: &Value, base: &str, ctx: &Ctx) -> JwkSetFindings {
    let mut f = JwkSetFindings::default();
    let Some(obj) = set.as_object() else {
        f.incidents.push(ctx.at(
            IncidentCode::JwkMalformed,
            base,
            format!("a JWK Set must be a JSON object, found {}", kind(set)),
        ));
        return f;
    };
    let keys = match obj.get("keys") {
        Some(Value::Array(keys)) => keys,
        Some(v) => {
            f.incidents.push(ctx.at(
                IncidentCode::JwkMalformed,
                &child(base, "keys"),
                format!("`keys` must be an array, found {}", kind(v)),
            ));
            return f;
        }
        None => {
            f.incidents.push(ctx.at(
                IncidentCode::JwkMalformed,
                base,
                "the JWK Set has no `keys` array".into(),
            ));
            return f;
        }
    };
    if keys.is_empty() {
        f.incidents.push(ctx.at(
            IncidentCode::JwkSetEmpty,
            &child(base, "keys"),
            "the JWK Set has no keys".into(),
        ));
        return f;
    }
    let mut seen: Vec<(String, Option<[u8; 32]>)> = Vec::new();
    for (i, jwk) in keys.iter().enumerate() {
        let p = index(&child(base, "keys"), i);
        let kid = jwk.get("kid").and_then(Value::as_str).map(str::to_owned);
        let key = match check_jwk(jwk) {
            Ok(k) => Some(k),
            Err((code, at, message)) => {
                f.incidents.push(ctx.at(code, &format!("{p}{at}"), message));
                None
            }
        };
        match &kid {
            None => {
                if jwk.is_object() && jwk.get("kid").is_none() {
                    f.incidents.push(ctx.at(
                        IncidentCode::JwkKidMissing,
                        &p,
                        "a published key has no `kid`".into(),
                    ));
                }
            }
            Some(k) => {
                let x = key.map(|k| k.to_bytes());
                if seen.iter().any(|(s, _)| s == k) {
                    f.incidents.push(ctx.at(
                        IncidentCode::JwkDuplicateKid,
                        &child(&p, "kid"),
                        format!("two published keys have kid `{k}`"),
                    ));
                    f.unusable_kids.push(k.clone());
                    continue;
                }
                seen.push((k.clone(), x));
                match key {
                    Some(key) => f.keys.push(PublishedKey {
                        kid: k.clone(),
                        key,
                    }),
                    None => f.unusable_kids.push(k.clone()),
                }
            }
        }
    }
    f
}

/// One public JWK checked under SIG-005 with the `citeproof-jose` rules. The error carries the
/// code, the pointer inside the JWK and a message.
fn check_jwk(jwk: &Value) -> Result<VerifyingKey, (IncidentCode, String, String)> {
    let Some(obj) = jwk.as_object() else {
        return Err((
            IncidentCode::JwkMalformed,
            String::new(),
            format!("a JWK must be a JSON object, found {}", kind(jwk)),
        ));
    };
    if obj.contains_key("keys") && !obj.contains_key("kty") {
        return Err((
            IncidentCode::JwkMalformed,
            String::new(),
            "a JWK must have `kty`".into(),
        ));
    }
    // `load_public_keys` reads one JWK (an object with `kty`) with all of SIG-005's checks.
    let mut single = Map::new();
    for (k, v) in obj {
        if k != "keys" {
            single.insert(k.clone(), v.clone());
        }
    }
    let bytes = serde_json::to_vec(&Value::Object(single))
        .map_err(|e| (IncidentCode::JwkMalformed, String::new(), e.to_string()))?;
    let set = load_public_keys(&bytes).map_err(|e| jose_incident(&e))?;
    set.entries().first().map(|e| e.key).ok_or((
        IncidentCode::JwkSetEmpty,
        String::new(),
        "no key".into(),
    ))
}

/// A `citeproof-jose` error as (registry code, pointer, message).
pub(crate) fn jose_incident(e: &JoseError) -> (IncidentCode, String, String) {
    let code = IncidentCode::from_code(e.code()).unwrap_or(IncidentCode::JwkMalformed);
    (
        code,
        e.pointer().unwrap_or_default().to_owned(),
        e.to_string(),
    )
}

/// `local@domain` with dot-atoms (RFC 5322 §3.2.3, ASCII), a web URL, or a `mailto:` URI.
pub fn is_contact(c: &str) -> bool {
    if web_url_problem(c).is_none() {
        return true;
    }
    if let Some(rest) = c
        .get(..7)
        .filter(|p| p.eq_ignore_ascii_case("mailto:"))
        .map(|_| &c[7..])
    {
        return !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b));
    }
    let Some((local, domain)) = c.split_once('@') else {
        return false;
    };
    is_dot_atom(local) && is_dot_atom(domain)
}

fn is_dot_atom(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts() {
        for ok in [
            "attribution@agent.example",
            "a.b+c@d.e",
            "https://agent.example/disputes",
            "mailto:attribution@agent.example",
        ] {
            assert!(is_contact(ok), "{ok}");
        }
        for bad in [
            "",
            "agent.example",
            "a@",
            "@b",
            "a..b@c",
            "a b@c",
            "mailto:",
            "a@b@c",
        ] {
            assert!(!is_contact(bad), "{bad}");
        }
    }
}
