use std::process::ExitCode;

use citeproof_schema::DocumentKind;
use citeproof_verify::validate_document;

use super::Failure;
use crate::input::{display, read_document};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Document kind: manifest, evidence, discovery, vectors, snapshot, envelope, bundle,
    /// display-citation, archive-citation, jwks, or any schema name in schemas/.
    #[arg(long)]
    kind: String,
    /// Print a JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// Document file, or `-` for standard input.
    file: String,
}

fn kind_from_arg(arg: &str) -> Option<DocumentKind> {
    let alias = match arg {
        "manifest" => "aca-manifest",
        "discovery" => "aca-discovery",
        "evidence" => "aef-evidence",
        "vectors" => "vector-file",
        "snapshot" => "web-snapshot",
        "envelope" => "chain-envelope",
        "bundle" => "archive-response-bundle",
        "display-citation" => "archive-display-citation",
        "jwks" => "jwk-set",
        other => other,
    };
    DocumentKind::from_name(alias)
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let kind = kind_from_arg(&args.kind).ok_or_else(|| {
        let names: Vec<&str> = DocumentKind::ALL.iter().map(|k| k.name()).collect();
        Failure::Usage(format!(
            "unknown --kind `{}`; use manifest, evidence, discovery, vectors or one of: {}",
            args.kind,
            names.join(", ")
        ))
    })?;
    let bytes = read_document(&args.file)?;
    let report = validate_document(kind, &bytes);
    if args.json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| Failure::Usage(format!("cannot serialize report: {e}")))?;
        println!("{text}");
    } else {
        for incident in &report.incidents {
            println!("{incident}");
        }
        println!(
            "{}: {} ({kind})",
            display(&args.file),
            if report.valid { "valid" } else { "invalid" }
        );
    }
    Ok(if report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
