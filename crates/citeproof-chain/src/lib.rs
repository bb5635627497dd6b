//! Citation-chain envelopes (seed 004, profile CHAIN-001 to CHAIN-020): content-addressed claim
//! ids, envelopes signed with HMAC-SHA256 or Ed25519 over the signing inputs that exist in the
//! wild, canonical URLs, and answers that reference claims by id.
//!
//! - [`verify::verify`]: Level 1 (offline: envelope, id, signature, answer references) and
//!   Level 2 (canonical URL and source reachability through a [`citeproof_fetch::Fetcher`]);
//!   keys come only from the caller's [`keys::TrustConfig`].
//! - [`sign::sign`]: builds and signs an envelope in the seed's shape.
//! - [`id::claim_id`]: the producer's id derivation.
//! - [`signing`]: the `seed-python` and `deployed-js` signing inputs, written by
//!   [`pyjson`] (Python `json.dumps`) and [`esjson`] (ECMAScript `JSON.stringify`) over the
//!   number-preserving tree of [`lossless`].
//! - [`ops`]: the conformance operations.

mod answer;
pub mod canonical;
mod checks;
mod dates;
pub mod envelope;
pub mod esjson;
pub mod id;
pub mod keys;
pub mod lossless;
pub mod numfmt;
pub mod online;
pub mod ops;
pub use ops::SPEC;
pub mod pyjson;
pub mod refs;
pub mod report;
pub mod sign;
pub mod signing;
pub mod verify;

pub use keys::{Algorithm, TrustConfig};
pub use report::{ChainDetails, ChainReport, Freshness, Verdict};
pub use sign::{SignKey, SignOptions, Signed, sign};
pub use signing::SigningInput;
pub use verify::{VerifyOptions, verify};
