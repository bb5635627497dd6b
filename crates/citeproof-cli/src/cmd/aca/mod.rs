//! `citeproof aca <verb>`: Agent Citation Attribution.

use std::process::ExitCode;

use super::Failure;

pub mod judge;
pub mod sign;
pub mod verify;

#[derive(Debug, clap::Subcommand)]
pub enum Verb {
    /// Verify an agent response (Levels 1-3), live or from a web snapshot.
    Verify(verify::Args),
    /// Sign a manifest as an RFC 9421 signed HTTP response: JCS body, Content-Digest (RFC 9530),
    /// Ed25519 signature over @status, content-type and content-digest.
    Sign(sign::Args),
}

pub fn run(verb: Verb) -> Result<ExitCode, Failure> {
    match verb {
        Verb::Verify(a) => verify::run(a),
        Verb::Sign(a) => sign::run(a),
    }
}
