//! The envelope builder and signer: from a claim, the envelope in the seed's shape (derived
//! id, statement, canonical URL, signature, `citedAs`), signed with HMAC-SHA256 or Ed25519 over
//! the `seed-python` signing input (CHAIN-006), which covers the whole claim.

use citeproof_jose::SigningKey;
use citeproof_model::json::JsonError;
use citeproof_model::{Incident, IncidentCode, Location, Severity, Timestamp};

use crate::canonical::did_web_authority;
use crate::envelope::check_envelope;
use crate::id::{claim_id, ecmascript_trim};
use crate::keys::{Algorithm, hmac_sign};
use crate::lossless::{self, Node, to_pretty};
use crate::signing::{SigningError, seed_python};

/// Shortest HMAC secret the signer accepts, in bytes (the producer's own build refuses shorter
/// secrets in production).
pub const MIN_SECRET_BYTES: usize = 16;

/// The signing key.
#[derive(Debug, Clone, Copy)]
pub enum SignKey<'a> {
    /// An HMAC-SHA256 shared secret (its UTF-8 bytes are the key).
    Hmac(&'a str),
    Ed25519(&'a SigningKey),
}

/// What goes into the envelope besides the claim.
#[derive(Debug, Clone)]
pub struct SignOptions {
    /// `signature.signedBy`, e.g. `did:web:example.org`.
    pub signed_by: String,
    /// `signature.signedAt`: a profile timestamp (JSON-005).
    pub signed_at: String,
    /// The canonical URL is this base followed by `<id>/`. Default for a `did:web` signer:
    /// `https://<its host>/claims/`.
    pub canonical_base: Option<String>,
    /// `methodology`. Default for a `did:web` signer: `https://<its host>/methodology/`.
    pub methodology: Option<String>,
}

/// A signed envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// The envelope as JSON text, two-space indented, numbers written as in the claim.
    pub envelope: String,
    pub claim_id: String,
    pub signature: String,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SignError {
    #[error("{0}")]
    Json(JsonError),
    #[error("the input is not a JSON object")]
    NotObject,
    #[error("the claim is not valid: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<Incident>),
    #[error("signedAt `{0}` is not a profile timestamp")]
    SignedAt(String),
    #[error(
        "the signer `{0}` is not a did:web, so a canonical base URL and a methodology URL must be given"
    )]
    NoCanonicalBase(String),
    #[error("the HMAC secret is {0} bytes; at least {MIN_SECRET_BYTES} are required")]
    WeakSecret(usize),
    #[error("{0}")]
    Signing(SigningError),
}

impl SignError {
    /// The incidents behind the error, with their locations.
    pub fn incidents(&self) -> Vec<Incident> {
        match self {
            SignError::Json(e) => vec![e.to_incident()],
            SignError::Invalid(list) => list.clone(),
            _ => Vec::new(),
        }
    }
}

fn field<'a>(claim: &'a Node, name: &str, errors: &mut Vec<Incident>) -> Option<&'a str> {
    match claim.get(name) {
        Some(Node::String(s)) if !s.is_empty() => Some(s),
        _ => {
            errors.push(Incident::new(
                IncidentCode::SchemaViolation,
                format!("`{name}` must be a non-empty string"),
                Location::pointer(format!("/{name}")),
            ));
            None
        }
    }
}

/// The id of a claim given as JSON text (CHAIN-002): the claim object, or an envelope (its
/// `claim` is used). Also returns the `id` the claim carries, if any.
pub fn claim_id_of(bytes: &[u8]) -> Result<(String, Option<String>), SignError> {
    let node = lossless::parse(bytes).map_err(SignError::Json)?;
    match node.get("claim") {
        Some(c @ Node::Object(_)) => id_of_claim(c, "/claim"),
        _ => id_of_claim(&node, ""),
    }
}

/// The id of a claim object; `prefix` is its pointer, for error locations.
fn id_of_claim(claim: &Node, prefix: &str) -> Result<(String, Option<String>), SignError> {
    if !matches!(claim, Node::Object(_)) {
        return Err(SignError::NotObject);
    }
    let mut errors = Vec::new();
    let fields: Vec<Option<&str>> = ["vertical", "subject", "predicate", "object"]
        .iter()
        .map(|f| field(claim, f, &mut errors))
        .collect();
    let [Some(v), Some(s), Some(p), Some(o)] = fields.as_slice() else {
        for e in &mut errors {
            if let Some(ptr) = &mut e.location.pointer {
                ptr.insert_str(0, prefix);
            }
        }
        return Err(SignError::Invalid(errors));
    };
    let written = claim.get("id").and_then(Node::as_str).map(str::to_owned);
    Ok((claim_id(v, s, p, o), written))
}

/// The producer's generated statement: `${subject} ${predicate.replace(/_/g, " ").trim()}: ${object}.`
pub fn generated_statement(subject: &str, predicate: &str, object: &str) -> String {
    format!(
        "{subject} {}: {object}.",
        ecmascript_trim(&predicate.replace('_', " "))
    )
}

/// Builds and signs the envelope of the claim in `claim_bytes`.
pub fn sign(
    claim_bytes: &[u8],
    key: SignKey<'_>,
    options: &SignOptions,
) -> Result<Signed, SignError> {
    let claim = lossless::parse(claim_bytes).map_err(SignError::Json)?;
    let Node::Object(members) = &claim else {
        return Err(SignError::NotObject);
    };
    let (id, written) = id_of_claim(&claim, "")?;
    if let Some(written) = written
        && written != id
    {
        return Err(SignError::Invalid(vec![Incident::new(
            IncidentCode::ChainIdMismatch,
            format!("the claim's id `{written}` differs from `{id}`, the id of its fields"),
            Location::pointer("/id"),
        )]));
    }
    let signed_at = Timestamp::parse(&options.signed_at)
        .ok()
        .filter(|t| t.profile_violation().is_none())
        .ok_or_else(|| SignError::SignedAt(options.signed_at.clone()))?;
    let (canonical, methodology) = addresses(options, &id)?;
    let claim = with_id_and_statement(&claim, members, &id);

    let at = Node::String(signed_at.as_str().to_owned());
    let by = Node::String(options.signed_by.clone());
    let payload = seed_python(&claim, &at, &by).map_err(SignError::Signing)?;
    let (algorithm, signature) = signature_of(key, &payload)?;
    let cited_as = cited_as(&claim, &signed_at, &id, &signature, &canonical);
    let envelope = Node::Object(vec![
        ("apiVersion".into(), Node::String("v1".into())),
        ("methodology".into(), Node::String(methodology)),
        ("canonical".into(), Node::String(canonical)),
        ("claim".into(), claim),
        (
            "signature".into(),
            Node::Object(vec![
                ("algorithm".into(), Node::String(algorithm.as_str().into())),
                ("signedBy".into(), by),
                ("signedAt".into(), at),
                ("signature".into(), Node::String(signature.clone())),
            ]),
        ),
        ("citedAs".into(), Node::String(cited_as)),
    ]);
    let text = to_pretty(&envelope);
    // The output must itself be a valid envelope: re-read it and run the document checks.
    let (value, _) = lossless::parse_with_value(text.as_bytes()).map_err(SignError::Json)?;
    let mut incidents = Vec::new();
    check_envelope(&value, "", &mut incidents);
    incidents.retain(|i| i.severity == Severity::Error);
    if !incidents.is_empty() {
        return Err(SignError::Invalid(incidents));
    }
    Ok(Signed {
        envelope: text,
        claim_id: id,
        signature,
    })
}

/// The envelope's `canonical` (its claim's page: the canonical base and the id) and
/// `methodology`: as given, else under the `did:web` authority of `signedBy`.
fn addresses(options: &SignOptions, id: &str) -> Result<(String, String), SignError> {
    let authority = did_web_authority(&options.signed_by).filter(|a| !a.is_empty());
    let (canonical_base, methodology) =
        match (&options.canonical_base, &options.methodology, &authority) {
            (Some(c), Some(m), _) => (c.clone(), m.clone()),
            (c, m, Some(a)) => (
                c.clone().unwrap_or_else(|| format!("https://{a}/claims/")),
                m.clone()
                    .unwrap_or_else(|| format!("https://{a}/methodology/")),
            ),
            _ => return Err(SignError::NoCanonicalBase(options.signed_by.clone())),
        };
    let canonical = if canonical_base.ends_with('/') {
        format!("{canonical_base}{id}/")
    } else {
        format!("{canonical_base}/{id}/")
    };
    Ok((canonical, methodology))
}

/// The claim with `id` first and a statement when it has none (as the producer builds it).
fn with_id_and_statement(claim: &Node, members: &[(String, Node)], id: &str) -> Node {
    let mut out_members = vec![("id".to_owned(), Node::String(id.to_owned()))];
    out_members.extend(members.iter().filter(|(k, _)| k != "id").cloned());
    if claim.get("statement").is_none() {
        let text = |n: &str| claim.get(n).and_then(Node::as_str).unwrap_or_default();
        out_members.push((
            "statement".to_owned(),
            Node::String(generated_statement(
                text("subject"),
                text("predicate"),
                text("object"),
            )),
        ));
    }
    Node::Object(out_members)
}

/// The signature of `payload` in hex, with its algorithm; an HMAC secret shorter than
/// [`MIN_SECRET_BYTES`] is refused.
fn signature_of(key: SignKey<'_>, payload: &[u8]) -> Result<(Algorithm, String), SignError> {
    Ok(match key {
        SignKey::Hmac(secret) => {
            if secret.len() < MIN_SECRET_BYTES {
                return Err(SignError::WeakSecret(secret.len()));
            }
            (
                Algorithm::HmacSha256,
                hex::encode(hmac_sign(secret.as_bytes(), payload)),
            )
        }
        SignKey::Ed25519(k) => (Algorithm::Ed25519, hex::encode(k.sign(payload))),
    })
}

/// The envelope's `citedAs` line: statement, id, the day it was verified (its `lastVerified`,
/// else the signing day), the signature's first 8 hex digits, the canonical address.
fn cited_as(
    claim: &Node,
    signed_at: &Timestamp,
    id: &str,
    signature: &str,
    canonical: &str,
) -> String {
    let verified_on = match claim.get("lastVerified") {
        Some(Node::String(d)) => d.chars().take(10).collect::<String>(),
        _ => signed_at.as_str().chars().take(10).collect(),
    };
    let statement = claim
        .get("statement")
        .and_then(Node::as_str)
        .unwrap_or_default();
    let short: String = signature.chars().take(8).collect();
    format!("{statement} — Claim {id} (verified {verified_on}, signed {short}…). {canonical}")
}
