//! citeproof's conformance suite machinery: loading and linting the language-neutral vectors
//! of `vectors/`, the JSON-lines adapter protocol of `docs/ADAPTER.md`, the runner (in-process
//! reference or any command speaking the protocol), level verdicts and reports.
//!
//! The runner knows no spec: implementations are processes speaking the protocol, or in-process
//! [`Implementation`](citeproof_model::protocol::Implementation)s such as `citeproof-reference`;
//! [`adapter::serve`] speaks the protocol for an in-process implementation over any
//! reader/writer (`citeproof adapter`).

pub mod adapter;
pub mod claim;
pub mod evaluate;
pub mod glob;
pub mod lint;
pub mod outcome;
pub mod process;
pub mod profile;
pub mod protocol;
pub mod report;
pub mod runner;
pub mod suite;
pub mod summary;
pub mod target;
pub mod transport;
pub mod variants;
pub mod xfail;

pub use profile::Profile;
pub use runner::{RunOptions, RunResult, Status, Target, run};
pub use suite::Suite;
pub use summary::Summary;

/// What the unit tests' in-process implementations share.
#[cfg(test)]
pub(crate) mod test_support {
    use citeproof_model::protocol::ImplementationInfo;

    /// The hello of a Rust test implementation `name` (version 0) of one operation.
    pub(crate) fn info(name: &str, operation: &str) -> ImplementationInfo {
        ImplementationInfo {
            name: name.into(),
            version: "0".into(),
            language: "rust".into(),
            homepage: None,
            operations: vec![operation.into()],
        }
    }
}
