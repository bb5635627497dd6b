pub mod aca;
pub mod adapter;
pub mod aef;
pub mod archive;
pub mod audit;
pub mod batch;
pub mod canon;
pub mod chain;
pub mod common;
pub mod conformance;
pub mod demo;
pub mod hash;
pub mod httpsig;
pub mod keygen;
pub mod ledger;
pub mod record;
pub mod validate;

/// Why a command did not succeed; decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Exit 2: the invocation itself is wrong (bad option value, malformed trust file).
    Usage(String),
    /// Exit 1: the input was read but is invalid.
    Invalid(String),
    /// Exit 3: an input could not be read (missing or unreadable file, closed standard input),
    /// so nothing was checked.
    Unreadable(String),
}

impl Failure {
    pub fn exit_status(&self) -> u8 {
        match self {
            Failure::Invalid(_) => 1,
            Failure::Usage(_) => 2,
            Failure::Unreadable(_) => 3,
        }
    }

    /// The stable code of the failure in `--json` output.
    pub fn code(&self) -> &'static str {
        match self {
            Failure::Invalid(_) => "invalid",
            Failure::Usage(_) => "usage",
            Failure::Unreadable(_) => "input-unreadable",
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Failure::Invalid(m) | Failure::Usage(m) | Failure::Unreadable(m) => m,
        }
    }
}

/// The current time, Unix seconds (the default verification and signing time).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
