//! `citeproof adapter`: the reference implementation speaking the adapter protocol
//! (docs/ADAPTER.md) on stdin/stdout, so it can be run beside any other implementation.

use std::process::ExitCode;

use citeproof_conformance::adapter;
use citeproof_model::protocol::Implementation as _;
use citeproof_reference::Reference;

use super::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the operations the reference implements, one per line, and exit.
    #[arg(long)]
    list: bool,
    /// With `--list`: print `{"command","ok","incidents","implementation"}` instead (the name,
    /// version, language and operations of the reference). Without `--list` the adapter always
    /// speaks JSON lines (docs/ADAPTER.md).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let reference = Reference::new();
    if args.list {
        let info = reference.info();
        if args.json {
            crate::out::json_done("adapter", &serde_json::json!({ "implementation": info }))?;
        } else {
            for op in info.operations {
                crate::out::println(&op)?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    adapter::serve(&reference, stdin, stdout, std::io::stderr())
        .map_err(|e| Failure::Usage(format!("adapter I/O error: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
