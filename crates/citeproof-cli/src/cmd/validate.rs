use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use citeproof_conformance::{lint::lint, profile::Profile};
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use citeproof_reference::validate_document;
use citeproof_schema::DocumentKind;

use crate::cmd::Failure;
use crate::input::{display, read_document};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Document kind: a short name or any schema name in schemas/.
    #[arg(long, value_parser = kind_parser())]
    kind: String,
    /// Print a JSON report instead of text.
    #[arg(long)]
    json: bool,
    /// With `--kind vectors`: the profile whose requirement ids the cases may cite (default:
    /// `docs/PROFILE.md` in the nearest ancestor of the file or of the current directory).
    #[arg(long)]
    profile: Option<PathBuf>,
    /// Document file, or `-` for standard input.
    file: String,
}

/// Short names, then every schema name: listed by `--help` and offered by completion.
const SHORT_KINDS: [&str; 9] = [
    "manifest",
    "discovery",
    "evidence",
    "vectors",
    "snapshot",
    "envelope",
    "bundle",
    "display-citation",
    "jwks",
];

fn kind_parser() -> clap::builder::PossibleValuesParser {
    let names = SHORT_KINDS
        .iter()
        .copied()
        .chain(DocumentKind::ALL.iter().map(|k| k.name()));
    clap::builder::PossibleValuesParser::new(names)
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
    let mut report = validate_document(kind, &bytes);
    if kind == DocumentKind::VectorFile && report.valid {
        report
            .incidents
            .extend(lint_one_vector_file(&args, &bytes)?);
        report.valid = report
            .incidents
            .iter()
            .all(|i| i.severity != Severity::Error);
    }
    if args.json {
        crate::out::json_report("validate", report.valid, &report.incidents, &report)?;
    } else {
        for incident in &report.incidents {
            crate::out::println(&incident.to_string())?;
        }
        crate::out::println(&format!(
            "{}: {} ({kind})",
            display(&args.file),
            if report.valid { "valid" } else { "invalid" }
        ))?;
    }
    Ok(if report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The vector rules beyond the schema (unique ids, id prefix, flags, requirement ids, operation
/// contracts, expected results) are the conformance lint's; it runs here on a copy of the one
/// file, placed as `<spec>/<name>` in a temporary vectors directory, so the rules exist once.
fn lint_one_vector_file(args: &Args, bytes: &[u8]) -> Result<Vec<Incident>, Failure> {
    let spec = serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .and_then(|v| v.get("spec").and_then(|s| s.as_str()).map(str::to_owned))
        .unwrap_or_default();
    let profile_path = match &args.profile {
        Some(p) => p.clone(),
        None => find_profile(&args.file).ok_or_else(|| {
            Failure::Usage("cannot find docs/PROFILE.md above the file or the current directory; pass --profile".into())
        })?,
    };
    let profile = Profile::load(&profile_path)
        .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", profile_path.display())))?;
    let dir = tempfile::tempdir()
        .map_err(|e| Failure::Usage(format!("cannot create a temporary directory: {e}")))?;
    // The suite loader reads `*.json` files only.
    let name = match Path::new(&args.file).file_name() {
        Some(n) if args.file != "-" && n.to_string_lossy().ends_with(".json") => {
            n.to_string_lossy().into_owned()
        }
        _ => "standard-input.json".to_owned(),
    };
    let relative = format!("{spec}/{name}");
    std::fs::create_dir_all(dir.path().join(&spec))
        .and_then(|()| std::fs::write(dir.path().join(&relative), bytes))
        .map_err(|e| Failure::Usage(format!("cannot write a temporary copy: {e}")))?;
    let (lint_report, _) = lint(dir.path(), &profile, citeproof_reference::SPECS);
    let shown = display(&args.file);
    let incident = |severity: Severity, message: &String| {
        let message = message
            .strip_prefix(&format!("{relative}: "))
            .unwrap_or(message)
            .to_owned();
        Incident {
            severity,
            ..Incident::new(
                IncidentCode::VectorInvalid,
                format!("{shown}: {message}"),
                Location::default(),
            )
        }
    };
    Ok(lint_report
        .errors
        .iter()
        .map(|m| incident(Severity::Error, m))
        .chain(
            lint_report
                .warnings
                .iter()
                .map(|m| incident(Severity::Warning, m)),
        )
        .collect())
}

fn find_profile(file: &str) -> Option<PathBuf> {
    let start = |p: &Path| p.canonicalize().ok();
    let mut roots = Vec::new();
    if file != "-" {
        roots.extend(start(Path::new(file)));
    }
    roots.extend(std::env::current_dir().ok());
    roots.into_iter().find_map(|root| {
        root.ancestors()
            .map(|a| a.join("docs/PROFILE.md"))
            .find(|p| p.is_file())
    })
}
