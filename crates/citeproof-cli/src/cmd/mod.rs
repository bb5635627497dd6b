pub mod adapter;
pub mod canon;
pub mod conformance;
pub mod evidence;
pub mod hash;
pub mod httpsig;
pub mod keygen;
pub mod serve;
pub mod sign;
pub mod validate;
pub mod verify;

/// Why a command did not succeed; decides the exit code.
#[derive(Debug)]
pub enum Failure {
    /// Exit 2: the invocation itself is wrong (unreadable file, bad option value).
    Usage(String),
    /// Exit 1: the input was read but is invalid.
    Invalid(String),
}
