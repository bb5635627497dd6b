pub mod aca;
pub mod adapter;
pub mod aef;
pub mod archive;
pub mod audit;
pub mod canon;
pub mod chain;
pub mod conformance;
pub mod demo;
pub mod hash;
pub mod httpsig;
pub mod keygen;
pub mod ledger;
pub mod validate;

/// Why a command did not succeed; decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Exit 2: the invocation itself is wrong (unreadable file, bad option value).
    Usage(String),
    /// Exit 1: the input was read but is invalid.
    Invalid(String),
}

/// The current time, Unix seconds (the default verification and signing time).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
