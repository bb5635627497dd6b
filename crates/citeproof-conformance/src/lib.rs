//! citeproof's conformance suite machinery: loading and linting the language-neutral vectors
//! of `vectors/`, the JSON-lines adapter protocol of `docs/ADAPTER.md`, the runner (in-process
//! reference or any command speaking the protocol), level verdicts and reports.
//!
//! The reference implementation of the protocol's operations is [`reference::Reference`], a
//! dispatch table with one module per spec; [`adapter::serve`] speaks the protocol for it over
//! any reader/writer (`citeproof adapter`).

pub mod adapter;
pub mod glob;
pub mod lint;
pub mod process;
pub mod profile;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod runner;
pub mod suite;
pub mod summary;

pub use profile::Profile;
pub use runner::{RunOptions, RunResult, Status, Target, run};
pub use suite::Suite;
pub use summary::Summary;
