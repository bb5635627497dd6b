pub mod adapter;
pub mod canon;
pub mod conformance;
pub mod hash;
pub mod validate;

/// Why a command did not succeed; decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Exit 2: the invocation itself is wrong (unreadable file, bad option value).
    Usage(String),
    /// Exit 1: the input was read but is invalid.
    Invalid(String),
}
