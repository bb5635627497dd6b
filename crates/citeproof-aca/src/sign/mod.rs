//! The reference signer of ACA: what an agent platform emits.
//!
//! | module | what |
//! |---|---|
//! | [`chain`] | the chain-of-citation envelope; private inputs replaced by the SHA-256 of their JCS form |
//! | [`header`] | the `Citation-Source` header emitter |
//! | [`response`] | the signed manifest response: JCS body, RFC 9530 `Content-Digest`, RFC 9421 Ed25519 signature |
//! | [`discovery`] | the discovery document with its JWK Set; key files for `citeproof keygen` |
//! | [`synthetic`] | deterministic signed runs of any size, for benchmarks and scale checks |
//!
//! Nothing here panics on input; every failure is a [`SignError`] with a stable code.

pub mod chain;
pub mod discovery;
mod error;
pub mod header;
pub mod response;
pub mod synthetic;

pub use chain::{ChainBuilder, StepInputs, StepRef, inputs_hash};
pub use discovery::{
    DiscoveryConfig, KeyFiles, discovery_document, generate_key, jwk_set, key_files,
    load_signing_key,
};
pub use error::{InputCodes, InputRefusal, SignError, key_error};
pub use header::{EntryText, emit_citation_source, entries_for_run, format_citation_source};
pub use response::{
    ManifestSignOptions, SignedResponse, sign_manifest, sign_manifest_value,
    unsigned_manifest_response,
};

pub use citeproof_jose::{SigningKey, VerifyingKey};
