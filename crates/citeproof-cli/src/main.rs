//! `citeproof`: verifiable AI citations from the command line. Thin: parses arguments, calls the
//! library crates, prints. Exit codes: 0 success/valid, 1 invalid input or failed check,
//! 2 usage error (bad arguments, unreadable file).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod input;
mod out;

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
    /// Agent Citation Attribution: verify agent responses, sign manifests.
    Aca(cmd::aca::Args),
    /// AI Evidence Format: build, sign and verify evidence objects.
    Aef(cmd::aef::Args),
    /// Attribution ledger: audit JSONL audit files, verify ledgers against them.
    Ledger(cmd::ledger::Args),
    /// Citation-chain envelopes: claim ids, sign and verify envelopes and chain responses.
    Chain(cmd::chain::Args),
    /// Archive citations: gate and sign responses, verify bundles, display views and logs.
    Archive(cmd::archive::Args),
    /// RFC 9421 HTTP message signatures: verify a request or response in a file.
    Httpsig(cmd::httpsig::Args),
    /// The verifications recorded with `--record`: list, summarize, show.
    Audit(cmd::audit::Args),
    /// Generate an Ed25519 key: private PEM, public PEM and a JWK Set.
    Keygen(cmd::keygen::Args),
    /// Write the RFC 8785 (JCS) form of a JSON document to stdout (no trailing newline).
    Canon(cmd::canon::Args),
    /// Print `sha256:<hex>` of a file: raw bytes, or AEF §5 text with --text.
    Hash(cmd::hash::Args),
    /// Validate a document against its schema and the rules of docs/PROFILE.md.
    Validate(cmd::validate::Args),
    /// Run the conformance vectors against the reference (in-process) or an adapter (--impl).
    Conformance(cmd::conformance::Args),
    /// Serve the reference implementation over the adapter protocol on stdin/stdout.
    Adapter(cmd::adapter::Args),
    /// A demo agent platform with complete and broken runs, on loopback.
    Demo(cmd::demo::Args),
    // Spellings of the previous release, kept for one release with a notice on stderr.
    #[command(hide = true)]
    Verify(cmd::aca::verify::Args),
    #[command(hide = true)]
    Sign(cmd::aca::sign::LegacyArgs),
    #[command(hide = true)]
    Evidence(cmd::aef::Args),
    #[command(hide = true)]
    Serve(cmd::demo::ServeArgs),
}

/// Verification builds and drops large JSON trees; mimalloc does that markedly faster than the
/// system allocator (README, Performance).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Aca(args) => cmd::aca::run(args),
        Command::Aef(args) => cmd::aef::run(args),
        Command::Chain(args) => cmd::chain::run(args),
        Command::Archive(args) => cmd::archive::run(args),
        Command::Keygen(args) => cmd::keygen::run(args),
        Command::Ledger(args) => cmd::ledger::run(args),
        Command::Httpsig(args) => cmd::httpsig::run(args),
        Command::Audit(args) => cmd::audit::run(args),
        Command::Demo(args) => cmd::demo::run(args),
        Command::Verify(args) => {
            eprintln!("citeproof: note: `citeproof verify` is now `citeproof aca verify`");
            cmd::aca::verify::run(args)
        }
        Command::Sign(args) => cmd::aca::sign::run_legacy(args),
        Command::Evidence(args) => {
            eprintln!("citeproof: note: `citeproof evidence` is now `citeproof aef`");
            cmd::aef::run(args)
        }
        Command::Serve(args) => {
            eprintln!("citeproof: note: `citeproof serve` is now `citeproof demo serve`");
            cmd::demo::serve(args)
        }
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
