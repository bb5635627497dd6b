//! `citeproof`: verifiable AI citations from the command line. Thin: parses arguments, calls the
//! library crates, prints. Exit codes: 0 success/valid/verified, 1 invalid input or not
//! verified, 2 usage error (bad arguments or configuration), 3 could not check (an input that
//! cannot be read or fetched). With `--json`, errors are a JSON object too.

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
    #[command(subcommand)]
    Aca(cmd::aca::Verb),
    /// AI Evidence Format: build, sign and verify evidence objects.
    Aef(cmd::aef::Args),
    /// Attribution ledger: audit JSONL audit files, verify ledgers against them.
    #[command(subcommand)]
    Ledger(cmd::ledger::Verb),
    /// Citation-chain envelopes: claim ids, sign and verify envelopes and chain responses.
    #[command(subcommand)]
    Chain(cmd::chain::Verb),
    /// Archive citations: gate and sign responses, verify bundles, display views and logs.
    #[command(subcommand)]
    Archive(cmd::archive::Verb),
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
    #[command(subcommand)]
    Demo(cmd::demo::Verb),
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
    let json = std::env::args_os().any(|a| a == "--json");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if json && e.use_stderr() => {
            let message = e.kind().to_string();
            let detail = e.render().to_string();
            return report_failure(
                &cmd::Failure::Usage(format!("{message}: {}", detail.trim())),
                true,
            );
        }
        Err(e) => e.exit(),
    };
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
        Err(failure) => report_failure(&failure, json),
    }
}

/// Prints a failure (to stderr, or as the `--json` object on stdout) and returns its status.
fn report_failure(failure: &cmd::Failure, json: bool) -> ExitCode {
    if json {
        let object = serde_json::json!({
            "command": command_name(),
            "ok": false,
            "incidents": [],
            "error": {"code": failure.code(), "message": failure.message()},
        });
        let text = serde_json::to_string_pretty(&object).unwrap_or_default();
        // A failed write to stdout still leaves the message on stderr below.
        let _ = out::println(&text);
    }
    // The message goes to stderr in every mode: a person watching a `--json` run sees it too.
    match failure {
        cmd::Failure::Invalid(m) => eprintln!("citeproof: {m}"),
        other => eprintln!("citeproof: error: {}", other.message()),
    }
    ExitCode::from(failure.exit_status())
}

/// The command as typed, for `--json` errors: `aca verify`, `canon`, ...
fn command_name() -> String {
    let words: Vec<String> = std::env::args()
        .skip(1)
        .take_while(|a| !a.starts_with('-'))
        .take(2)
        .collect();
    match words.as_slice() {
        [group, verb, ..] if command_groups().contains(group) => format!("{group} {verb}"),
        [first, ..] => first.clone(),
        [] => String::new(),
    }
}

/// The commands that take a verb (`aca verify`, `chain sign`, ...), read from the parser itself
/// so that a new spec's command group needs no second list.
fn command_groups() -> Vec<String> {
    use clap::CommandFactory as _;
    Cli::command()
        .get_subcommands()
        .filter(|c| c.has_subcommands())
        .map(|c| c.get_name().to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_groups_are_the_commands_with_verbs() {
        let groups = super::command_groups();
        for group in [
            "aca", "aef", "chain", "ledger", "archive", "httpsig", "audit", "demo", "evidence",
        ] {
            assert!(groups.iter().any(|g| g == group), "{group}: {groups:?}");
        }
        for single in [
            "canon",
            "hash",
            "validate",
            "keygen",
            "adapter",
            "conformance",
        ] {
            assert!(!groups.iter().any(|g| g == single), "{single}: {groups:?}");
        }
    }
}
