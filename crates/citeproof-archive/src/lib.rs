//! Archive citations, the coverage gate, display filtering and the bundle log (seed 002,
//! profile ARCHIVE-*).
//!
//! - [`store`]: the archive a verifier is configured with (payloads by content address,
//!   snapshots in publication order, consent and policy in force);
//! - [`verify::verify_bundle`]: a response bundle and its display view against the archive,
//!   into the common report ([`report::ArchiveReport`]):
//!   citations ([`citation`], [`span`]), the coverage gate ([`gate`]), the signature
//!   ([`signature`]), relations ([`relation`]), the display gates ([`display`]), shown text
//!   ([`shown`]) and coordinate leaks ([`leak`]);
//! - [`log::verify_log`]: the append-only bundle log, the evidence budget ([`budget`]) and
//!   context requests bound to a response ([`context`]);
//! - [`build::gate`]: the producer's side: gate, sign and build the display, deterministically;
//! - [`ops`]: the conformance operations of docs/ADAPTER.md.

pub mod budget;
pub mod build;
pub mod citation;
pub mod context;
pub mod display;
pub mod findings;
pub mod gate;
pub mod leak;
pub mod log;
pub mod ops;
pub use ops::SPEC;
pub mod relation;
pub mod report;
pub mod shown;
pub mod signature;
pub mod span;
pub mod store;
pub mod text;
pub mod verify;

pub use build::{BuildError, GateOptions, Gated, gate as gate_response};
pub use log::{LogOptions, LogReport, verify_log};
pub use report::{ArchiveDetails, ArchiveReport, ClaimSummary};
pub use signature::{Signer, SignerKey, Trust};
pub use store::Store;
pub use verify::{ArchiveIncident, Document, verify_bundle};
