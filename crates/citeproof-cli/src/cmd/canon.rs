use std::{io::Write, process::ExitCode};

use citeproof_model::jcs::canonicalize_json;

use super::Failure;
use crate::input::{display, read_document};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSON file, or `-` for standard input.
    file: String,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let bytes = read_document(&args.file)?;
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
    let mut out = std::io::stdout().lock();
    out.write_all(&canonical)
        .and_then(|()| out.flush())
        .map_err(|e| Failure::Usage(format!("cannot write to stdout: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
