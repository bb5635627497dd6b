//! `citeproof hash [--text] [--json] FILE|-`: `sha256:<hex>` of raw bytes or of AEF §5 text.

use std::process::ExitCode;

use citeproof_model::{aef_text_hash, sha256_bytes};

use crate::cmd::Failure;
use crate::input::{display, read_limited};

/// Hashing streams nothing clever: sources are bounded like every other input.
const MAX_HASH_INPUT_BYTES: usize = 256 * 1024 * 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Apply AEF §5 first: UTF-8 required, CRLF/CR -> LF, strip one trailing newline.
    #[arg(long)]
    text: bool,
    /// Print `{"command":"hash","ok":true,"incidents":[],"hash":"sha256:..."}`.
    #[arg(long)]
    json: bool,
    /// File to hash, or `-` for standard input.
    file: String,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let bytes = read_limited(&args.file, MAX_HASH_INPUT_BYTES)?;
    let hash = if args.text {
        aef_text_hash(&bytes)
            .map_err(|e| Failure::Invalid(format!("{}: {e}", display(&args.file))))?
    } else {
        sha256_bytes(&bytes)
    };
    if args.json {
        crate::out::json_done("hash", &serde_json::json!({ "hash": hash }))?;
    } else {
        crate::out::println(&hash.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}
