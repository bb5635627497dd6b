//! `citeproof canon [--json] FILE|-`: the RFC 8785 (JCS) form of a JSON document.

use std::process::ExitCode;

use citeproof_model::jcs::canonicalize_json;

use crate::cmd::Failure;
use crate::input::{display, read_document};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print `{"command":"canon","ok":bool,"incidents":[...],"canonical":"..."}` instead of the
    /// canonical bytes; invalid input is reported in `incidents` (exit 1).
    #[arg(long)]
    json: bool,
    /// JSON file, or `-` for standard input.
    file: String,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let bytes = read_document(&args.file)?;
    if args.json {
        return match canonicalize_json(&bytes) {
            Ok(c) => {
                let details = serde_json::json!({ "canonical": String::from_utf8_lossy(&c) });
                crate::out::json_done("canon", &details)?;
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                crate::out::json_report(
                    "canon",
                    false,
                    &[e.to_incident()],
                    &crate::out::NO_DETAILS,
                )?;
                Ok(ExitCode::from(1))
            }
        };
    }
    let canonical = canonicalize_json(&bytes).map_err(|e| {
        let at = e
            .offset
            .map(|o| format!(" at byte {o}"))
            .unwrap_or_default();
        let ptr = e
            .pointer
            .as_deref()
            .map(|p| format!(" (member {p})"))
            .unwrap_or_default();
        Failure::Invalid(format!(
            "{}: [{}]{at}{ptr}: {e}",
            display(&args.file),
            e.code
        ))
    })?;
    crate::out::write_bytes(&canonical)?;
    Ok(ExitCode::SUCCESS)
}
