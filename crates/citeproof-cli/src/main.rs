//! `citeproof`: verifiable AI citations from the command line. Thin: parses arguments, calls the
//! library crates, prints. Exit codes: 0 success/valid, 1 invalid input or failed check,
//! 2 usage error (bad arguments, unreadable file).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod input;

#[derive(Debug, Parser)]
#[command(
    name = "citeproof",
    version,
    about = "Verifiable citations for AI agents: canonical forms, validation, signing, verification"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Generate an Ed25519 key: private PEM, public PEM and a JWK Set.
    Keygen(cmd::keygen::Args),
    /// Sign an ACA manifest as an RFC 9421 signed HTTP response.
    Sign(cmd::sign::Args),
    /// RFC 9421 HTTP message signatures: verify a request or response in a file.
    Httpsig(cmd::httpsig::Args),
    /// Verify an agent response (ACA Levels 1-3), live or from a web snapshot.
    Verify(cmd::verify::Args),
    /// AI Evidence Format evidence objects: verify (Levels 1-3), sign, or build from a source.
    Evidence(cmd::evidence::Args),
    /// Serve a demo agent platform with complete and broken runs on loopback.
    Serve(cmd::serve::Args),
    /// Write the RFC 8785 (JCS) form of a JSON document to stdout (no trailing newline).
    Canon(cmd::canon::Args),
    /// Print `sha256:<hex>` of a file: raw bytes, or AEF §5 text with --text.
    Hash(cmd::hash::Args),
    /// Validate a document against its schema and the semantic rules of docs/PROFILE.md.
    Validate(cmd::validate::Args),
    /// Run the conformance vectors against the reference (in-process) or an adapter (--impl).
    Conformance(cmd::conformance::Args),
    /// Serve the reference implementation over the adapter protocol on stdin/stdout.
    Adapter(cmd::adapter::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Keygen(args) => cmd::keygen::run(args),
        Command::Sign(args) => cmd::sign::run(args),
        Command::Httpsig(args) => cmd::httpsig::run(args),
        Command::Verify(args) => cmd::verify::run(args),
        Command::Evidence(args) => cmd::evidence::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Canon(args) => cmd::canon::run(args),
        Command::Hash(args) => cmd::hash::run(args),
        Command::Validate(args) => cmd::validate::run(args),
        Command::Conformance(args) => cmd::conformance::run(args),
        Command::Adapter(args) => cmd::adapter::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(cmd::Failure::Usage(message)) => {
            eprintln!("citeproof: error: {message}");
            ExitCode::from(2)
        }
        Err(cmd::Failure::Invalid(message)) => {
            eprintln!("citeproof: {message}");
            ExitCode::from(1)
        }
    }
}
