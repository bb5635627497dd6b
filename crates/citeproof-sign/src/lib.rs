//! citeproof reference signer for Agent Citation Attribution (seed 000) and the attribution
//! ledger (seed 003).
//!
//! | module | what |
//! |---|---|
//! | [`ledger`] | register claims with their sources at the tool boundary, audit coverage against a threshold (strict refuses to emit), append-only JSONL audit export, build the Level 2/3 manifest |
//! | [`chain`] | the chain-of-citation envelope; private inputs replaced by the SHA-256 of their JCS form |
//! | [`header`] | the `Citation-Source` header emitter |
//! | [`response`] | the signed manifest response: JCS body, RFC 9530 `Content-Digest`, RFC 9421 Ed25519 signature |
//! | [`discovery`] | the discovery document with its JWK Set; key files for `citeproof keygen` |
//! | [`demo`] | a demo agent platform as data (complete and broken runs) |
//! | [`aef`] | AI Evidence Format: build an evidence object from a source and a span (`exact_text`, `content_hash`), sign it (detached EdDSA JWS over its JCS form) |
//!
//! Nothing here panics on input; every failure is a [`SignError`] with a stable code.

pub mod aef;
pub mod chain;
pub mod demo;
pub mod discovery;
mod error;
pub mod header;
pub mod ledger;
pub mod response;

pub use chain::{ChainBuilder, StepInputs, StepRef, inputs_hash};
pub use discovery::{
    DiscoveryConfig, KeyFiles, discovery_document, generate_key, jwk_set, key_files,
    load_signing_key,
};
pub use error::SignError;
pub use header::{EntryText, emit_citation_source, entries_for_run, format_citation_source};
pub use ledger::{
    AttributionLedger, CaptureId, ClaimInput, Clock, CoverageReport, Excerpt, LedgerConfig, RunId,
    SteppingClock, SystemClock, ToolCallId,
};
pub use response::{
    ManifestSignOptions, SignedResponse, sign_manifest, sign_manifest_value,
    unsigned_manifest_response,
};

pub use citeproof_jose::{SigningKey, VerifyingKey};
