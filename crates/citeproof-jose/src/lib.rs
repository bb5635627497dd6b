//! Ed25519 keys and detached JWS for citeproof.
//!
//! - [`SigningKey`] / [`VerifyingKey`]: Ed25519 (ed25519-dalek 3) keys; PKCS#8 `PRIVATE KEY` and
//!   SPKI `PUBLIC KEY` PEM; RFC 8037 OKP JWKs with strict checks (no weak keys, no private key in
//!   a public set); RFC 7638 thumbprints.
//! - [`KeySet`], [`load_public_keys`], [`load_signing_key`]: key files given as bytes (PEM or JWK
//!   / JWK Set, detected). This crate does no I/O.
//! - [`sign_detached`] / [`verify_detached`]: RFC 7515 compact serialization with detached
//!   content (Appendix F), `alg` `EdDSA` only (RFC 8037), strict parsing. See [`jws`].
//! - [`evidence_signing_input`]: the JCS bytes an AI Evidence Format v0.1 signature covers.
//! - [`SignerTrust`]: the one store of configured signers, HMAC secrets and Ed25519 keys (with
//!   rotation) that chain, archive and AEF signatures are checked against; its JSON form is
//!   every `verify` command's trust file. See [`trust`].
//!
//! Every error is a [`JoseError`] with a stable [`JoseError::code`]. No function panics on any
//! input; inputs are bounded ([`MAX_JWS_BYTES`], [`MAX_KEY_INPUT_BYTES`]).

pub mod b64;
pub mod error;
pub mod evidence;
pub mod jwk;
pub mod jws;
pub mod keys;
pub mod trust;

pub use ed25519_dalek::pkcs8::spki::der::zeroize::Zeroizing;
pub use error::{JoseError, JwsPart};
pub use evidence::evidence_signing_input;
pub use jwk::{
    ALG_ED25519, ALG_EDDSA, CRV_ED25519, KTY_OKP, KeyEntry, KeySet, is_ed25519_alg,
    load_public_keys, load_signing_key,
};
pub use jws::{
    MAX_JWS_BYTES, ParsedJws, VerifiedJws, parse_detached, protected_header_bytes, sign_detached,
    signing_input, verify_detached,
};
pub use keys::{MAX_KEY_INPUT_BYTES, SigningKey, VerifyingKey};
pub use trust::{BrokenKeys, Check, SignerTrust, TrustError, hmac_sign, hmac_verify};
