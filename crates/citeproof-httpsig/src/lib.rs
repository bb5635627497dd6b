//! RFC 9421 HTTP Message Signatures with Ed25519, and RFC 9530 `Content-Digest` —
//! deterministic and strict.
//!
//! | function | implements |
//! |---|---|
//! | [`parse_http1`], [`parse_http1_with`] | RFC 9112 §2–§6 message syntax (strict subset: no obs-fold, no chunked coding) |
//! | [`ComponentId`] | RFC 9421 §2.1 (fields: `sf`, `key`, `bs`, `req`; `tr` refused), §2.2 (derived components), §2.4 (`req`) |
//! | [`signature_base`] | RFC 9421 §2.5 (signature base), §2.3 (`@signature-params`) |
//! | [`SignatureParams`], [`parse_signature_input`], [`parse_signature`] | RFC 9421 §2.3, §4.1, §4.2 (sf-dictionaries via `sfv`, RFC 8941) |
//! | [`sign`], [`sign_in_place`] | RFC 9421 §3.1 with §3.3.6 (Ed25519, RFC 8032 §5.1.6) |
//! | [`verify_message`], [`verify`] | RFC 9421 §3.2 with §3.3.6 (RFC 8032 §5.1.7, strict), §3.2.1 application requirements (policy); the one verifier of citeproof, with a report per label |
//! | [`ed25519_verify_strict`] | RFC 8032 §5.1.7 + canonical `S` and small-order rejection |
//! | [`content_digest_sha256`], [`check_content_digest`] | RFC 9530 §2 (`Content-Digest`), §5 (algorithms) |
//!
//! Strictness beyond the RFCs, on purpose: structured fields with a repeated dictionary key or
//! parameter are rejected (RFC 8941 would keep the last one); field names in component
//! identifiers must be lowercase; `Content-Digest` must carry `sha-256` or `sha-512`. Signature
//! parameters that RFC 9421 does not register are kept in `@signature-params` and otherwise
//! ignored (§6.3); unknown component parameters are refused.
//!
//! No function reads a clock: verification takes the caller's `now`. Nothing panics on any
//! input.
//!
//! ```
//! use citeproof_httpsig::*;
//!
//! # fn main() -> Result<()> {
//! let key = SigningKey::from_bytes(&[7u8; 32]);
//! let body = br#"{"ok":true}"#;
//! let mut resp = Response::new(200)?;
//! resp.headers.push("Content-Type", "application/json")?;
//! resp.headers.push("Content-Digest", &content_digest_sha256(body))?;
//! resp.body = body.to_vec();
//! let mut msg = Message::Response(resp);
//!
//! let params = SignatureParams::new(vec![
//!     ComponentId::new("@status")?,
//!     ComponentId::new("content-type")?,
//!     ComponentId::new("content-digest")?,
//! ])
//! .with_created(1_700_000_000)
//! .with_keyid("k1");
//! sign_in_place(&mut msg, "sig1", &params, &key)?;
//!
//! let policy = VerifyPolicy {
//!     required_components: vec![ComponentId::new("@status")?, ComponentId::new("content-digest")?],
//!     required_params: vec![ParamName::Created, ParamName::KeyId],
//!     ..VerifyPolicy::default()
//! };
//! let ok = verify(&msg, &key.verifying_key(), LabelSelector::Label("sig1"), &policy, 1_700_000_010)?;
//! assert_eq!(ok.params.keyid(), Some("k1"));
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs, unreachable_pub)]

mod component;
mod digest;
mod error;
mod http1;
mod message;
mod params;
mod sf;
mod signature;
mod verify;

pub use component::{ComponentId, ComponentParam};
pub use digest::{check_content_digest, content_digest_sha256, content_digest_sha512};
pub use error::{ALL_CODES, HttpSigError, Result};
pub use http1::{
    DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_HEADER_FIELDS, ParseOptions,
    parse_http1, parse_http1_with,
};
pub use message::{Fields, Message, Request, Response, TargetUri};
pub use params::{ParamName, SigParam, SignatureParams, parse_signature, parse_signature_input};
pub use signature::{
    ALG_ED25519, SignedFields, ed25519_verify_strict, sign, sign_in_place, signature_base,
    signing_key_from_pem, verifying_key_from_bytes, verifying_key_from_pem,
};
pub use verify::{
    DEFAULT_CLOCK_SKEW, KeyMiss, KeyResolver, LabelFailure, LabelReport, LabelSelector,
    MessageReport, SingleKey, VerifiedSignature, VerifyPolicy, verify, verify_label,
    verify_message,
};

pub use ed25519_dalek::{SigningKey, VerifyingKey};
