//! The bundle signature (ARCHIVE-011, ARCHIVE-022): the signature object's form, the payload
//! (JCS of the bundle with the signature metadata in place of the signature object), signing
//! and verification against keys configured per signer.
//!
//! Keys come from the kit's signer trust store ([`SignerTrust`] in `citeproof-jose`): HMAC-SHA256
//! compared in constant time, Ed25519 with ed25519-dalek `verify_strict` (SIG-002).

use citeproof_jose::{Check, KeySet, SignerTrust, SigningKey, hmac_sign};
use citeproof_model::{Incident, IncidentCode, Location, Timestamp, TrustUsed, jcs};
use serde_json::{Map, Value};

use crate::findings::Findings;

/// The members of a signature object, in the profile's order.
const MEMBERS: [&str; 5] = ["algorithm", "signedBy", "kid", "signedAt", "signature"];

/// The keys and secrets a verifier trusts, per signer (`signedBy`) and key id: the kit's
/// [`SignerTrust`], every key and secret named by its `kid` (a bundle signature names one).
#[derive(Debug, Clone, Default)]
pub struct Trust {
    store: SignerTrust,
}

impl From<SignerTrust> for Trust {
    /// A trust file's store (keys and secrets without a `kid` match no bundle signature).
    fn from(store: SignerTrust) -> Trust {
        Trust { store }
    }
}

impl Trust {
    /// Reads `keys` (signer → JWK Set) and `secrets` (signer → key id → secret string). Every
    /// JWK must be a public Ed25519 key with a `kid` (SIG-004, SIG-005).
    pub fn from_json(
        keys: Option<&Value>,
        secrets: Option<&Value>,
    ) -> Result<Trust, Vec<Incident>> {
        let mut trust = Trust::default();
        let mut problems = Vec::new();
        let malformed = |at: String, why: &str| {
            Incident::new(IncidentCode::JwkMalformed, why, Location::pointer(at))
        };
        if let Some(keys) = keys {
            match keys.as_object() {
                None => problems.push(malformed("/keys".into(), "`keys` maps signers to JWK Sets")),
                Some(map) => {
                    for (signer, set) in map {
                        let at = format!("/keys/{signer}");
                        if set.get("keys").is_none() {
                            problems.push(malformed(at, "a signer's keys are a JWK Set"));
                            continue;
                        }
                        let bytes = jcs::canonicalize(set);
                        match KeySet::from_json(&bytes) {
                            Ok(ks) => {
                                if let Some(i) = ks.entries().iter().position(|e| e.kid.is_none()) {
                                    problems.push(Incident::new(
                                        IncidentCode::JwkKidMissing,
                                        "every key of a bundle signer has a `kid`",
                                        Location::pointer(format!("{at}/keys/{i}")),
                                    ));
                                    continue;
                                }
                                trust.add_keys(signer, ks);
                            }
                            Err(e) => {
                                let code = IncidentCode::from_code(e.code())
                                    .unwrap_or(IncidentCode::JwkMalformed);
                                problems.push(Incident::new(
                                    code,
                                    e.to_string(),
                                    Location::pointer(at),
                                ));
                            }
                        }
                    }
                }
            }
        }
        if let Some(secrets) = secrets {
            let shape = "`secrets` maps signers to objects of key id → non-empty secret string";
            match secrets.as_object() {
                None => problems.push(malformed("/secrets".into(), shape)),
                Some(map) => {
                    for (signer, kids) in map {
                        let Some(kids) = kids.as_object() else {
                            problems.push(malformed(format!("/secrets/{signer}"), shape));
                            continue;
                        };
                        for (kid, secret) in kids {
                            match secret.as_str() {
                                Some(s) if !s.is_empty() => {
                                    trust.add_secret(signer, kid, s.as_bytes());
                                }
                                _ => problems
                                    .push(malformed(format!("/secrets/{signer}/{kid}"), shape)),
                            }
                        }
                    }
                }
            }
        }
        if problems.is_empty() {
            Ok(trust)
        } else {
            Err(problems)
        }
    }

    /// Adds a public key set for `signer` (every key with a `kid`); sets added for one
    /// signer are merged.
    pub fn add_keys(&mut self, signer: &str, keys: KeySet) {
        self.store.add_keys(signer, keys);
    }

    /// Adds a shared secret for (`signer`, `kid`).
    pub fn add_secret(&mut self, signer: &str, kid: &str, secret: &[u8]) {
        self.store.add_secret(signer, Some(kid), secret);
    }

    /// Signers and key names, for reports; never a secret.
    pub fn describe(&self) -> TrustUsed {
        self.store.describe()
    }
}

/// The key a bundle is signed with.
#[derive(Debug)]
pub enum SignerKey {
    Hmac(Vec<u8>),
    Ed25519(SigningKey),
}

/// Who signs, with which key id and key.
#[derive(Debug)]
pub struct Signer {
    pub signed_by: String,
    pub kid: String,
    pub key: SignerKey,
}

impl Signer {
    fn algorithm(&self) -> &'static str {
        match self.key {
            SignerKey::Hmac(_) => "HMAC-SHA256",
            SignerKey::Ed25519(_) => "Ed25519",
        }
    }
}

/// The payload of a bundle whose signature metadata is `meta` (the signature object without
/// its `signature` member): JCS of the bundle with `signature` replaced by `meta`.
pub fn payload(bundle: &Map<String, Value>, meta: Map<String, Value>) -> Vec<u8> {
    let mut b = bundle.clone();
    b.insert("signature".into(), Value::Object(meta));
    jcs::canonicalize(&Value::Object(b))
}

/// Signs `bundle` (its `signature` member, if any, is replaced).
pub fn sign(bundle: &mut Map<String, Value>, signer: &Signer, signed_at: &Timestamp) {
    let mut meta = Map::new();
    meta.insert("algorithm".into(), Value::from(signer.algorithm()));
    meta.insert("signedBy".into(), Value::from(signer.signed_by.as_str()));
    meta.insert("kid".into(), Value::from(signer.kid.as_str()));
    meta.insert("signedAt".into(), Value::from(signed_at.as_str()));
    let bytes = payload(bundle, meta.clone());
    let signature = match &signer.key {
        SignerKey::Hmac(secret) => hex::encode(hmac_sign(secret, &bytes)),
        SignerKey::Ed25519(key) => hex::encode(key.sign(&bytes)),
    };
    meta.insert("signature".into(), Value::from(signature));
    bundle.insert("signature".into(), Value::Object(meta));
}

/// What a verified signature said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureInfo {
    pub algorithm: String,
    pub signed_by: String,
    pub kid: String,
    pub signed_at: Timestamp,
}

/// A well-formed signature object: what it says, the signature bytes, and the metadata (the
/// object without `signature`).
type ReadSignature = (SignatureInfo, Vec<u8>, Map<String, Value>);

/// The signature object's form (ARCHIVE-011), or why it is malformed.
fn read_object(sig: &Value) -> Result<ReadSignature, String> {
    let Some(obj) = sig.as_object() else {
        return Err("`signature` must be an object".into());
    };
    if let Some(extra) = obj.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
        return Err(format!(
            "the signature object has an unknown member `{extra}`"
        ));
    }
    let text = |name: &str, max: usize| -> Result<String, String> {
        match obj.get(name).and_then(Value::as_str) {
            Some(s) if !s.is_empty() && s.chars().count() <= max => Ok(s.to_owned()),
            _ => Err(format!(
                "`{name}` must be a string of 1 to {max} characters"
            )),
        }
    };
    let algorithm = text("algorithm", 32)?;
    let hex_len = match algorithm.as_str() {
        "HMAC-SHA256" => 64,
        "Ed25519" => 128,
        other => return Err(format!("algorithm `{other}` is not HMAC-SHA256 or Ed25519")),
    };
    let signed_by = text("signedBy", 512)?;
    let kid = text("kid", 256)?;
    let signed_at_text = text("signedAt", 64)?;
    let signed_at = Timestamp::parse(&signed_at_text)
        .ok()
        .filter(|t| t.profile_violation().is_none())
        .ok_or_else(|| "`signedAt` is not a profile timestamp (JSON-005)".to_owned())?;
    let hex_text = text("signature", 128)?;
    if hex_text.len() != hex_len
        || !hex_text
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(format!(
            "an {algorithm} signature is {hex_len} lowercase hex digits"
        ));
    }
    let bytes = hex::decode(&hex_text).map_err(|e| e.to_string())?;
    let mut meta = obj.clone();
    meta.remove("signature");
    Ok((
        SignatureInfo {
            algorithm,
            signed_by,
            kid,
            signed_at,
        },
        bytes,
        meta,
    ))
}

/// Checks the signature of a raw bundle object. Returns what it said when it verifies.
pub fn verify(
    bundle: &Map<String, Value>,
    trust: &Trust,
    f: &mut Findings,
) -> Option<SignatureInfo> {
    let Some(sig) = bundle.get("signature") else {
        f.at(
            IncidentCode::ArchiveSignatureMissing,
            "",
            "the bundle is not signed: nothing is delivered unsigned",
        );
        return None;
    };
    let (info, sig_bytes, meta) = match read_object(sig) {
        Ok(x) => x,
        Err(why) => {
            f.at(IncidentCode::ArchiveSignatureInvalid, "/signature", why);
            return None;
        }
    };
    let bytes = payload(bundle, meta);
    let unresolved = |f: &mut Findings, what: &str| {
        f.at(
            IncidentCode::ArchiveKeyUnresolved,
            "/signature/kid",
            format!(
                "no {what} is configured for signer `{}` and key id `{}`",
                info.signed_by, info.kid
            ),
        );
    };
    let messages: [&[u8]; 1] = [&bytes];
    let (check, what) = if info.algorithm == "HMAC-SHA256" {
        let (check, _) =
            trust
                .store
                .check_hmac(&info.signed_by, Some(&info.kid), &messages, &sig_bytes);
        (check, "shared secret")
    } else {
        let (check, _) =
            trust
                .store
                .check_ed25519(&info.signed_by, Some(&info.kid), &messages, &sig_bytes);
        (check, "Ed25519 public key")
    };
    let verified = match check {
        Check::Verified { .. } => true,
        Check::Invalid { .. } => false,
        Check::NoKey => {
            unresolved(f, what);
            return None;
        }
        Check::Broken(broken) => {
            unresolved(f, &format!("usable {what} ({})", broken.code.as_str()));
            return None;
        }
    };
    if verified {
        Some(info)
    } else {
        f.at(
            IncidentCode::ArchiveSignatureInvalid,
            "/signature/signature",
            format!(
                "the {} signature does not verify over the bundle with its signature metadata",
                info.algorithm
            ),
        );
        None
    }
}
