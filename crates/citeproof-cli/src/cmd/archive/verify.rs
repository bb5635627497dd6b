//! `citeproof archive verify BUNDLE DISPLAY | --batch LIST --archive A [--trust FILE]
//! [--keys SIGNER=JWKS]... [--secrets SIGNER=FILE]... [--now TIME] [--json] [--record DB]
//! [--report FORMAT --out FILE]`: the common report of every verify (`common`, `record`,
//! `batch`): 0 verified, 1 not, 2 usage, 3 an input that cannot be read or a failed record.

use std::process::ExitCode;

use citeproof_archive::signature::Trust;
use citeproof_archive::{Document, Store, verify_bundle};
use citeproof_archive::{SPEC, report::ArchiveReport};
use citeproof_model::Severity;
use serde_json::{Value, json};

use super::Against;
use crate::cmd::common::{VerifyCommon, file_subject};
use crate::cmd::{Failure, batch};
use crate::input::read_document;

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Signed response bundle (JSON).
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    bundle: Option<String>,
    /// Display view (JSON).
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    display: Option<String>,
    /// Verify every bundle and display view listed in FILE (`-`: stdin), one pair a line
    /// (`BUNDLE DISPLAY`, separated by white space), on every core, with the same options;
    /// prints one JSON line per pair (the `--json` object plus `input` and `line`), in input
    /// order. Exit status: the worst over the lines.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    #[command(flatten)]
    against: Against,
    /// `--now`, `--trust` (signers' keys and secrets, each named by its `kid`; `--keys` and
    /// `--secrets` are shorthands), `--json` (the common report: `spec`, `subject` (the bundle
    /// file and its digest), `level`, `required_level`, `verified`, `incidents`, `outcome`,
    /// `trust`, `items` (one per claim, its citations as sources), and the archive's
    /// `response_id`, `bundle_hash`, `display_digest`, `archive_version`, `tier`, `signed_by`,
    /// `kid`, `claims` and `incident_documents`), `--record`, `--report`.
    #[command(flatten)]
    common: VerifyCommon,
}

/// Everything that can change a verdict besides the two documents.
fn configuration(a: &VerifyArgs) -> Result<Value, Failure> {
    let digests = |pairs: &[String]| -> Result<Vec<Value>, Failure> {
        pairs
            .iter()
            .map(|p| {
                let file = p.split_once('=').map_or(p.as_str(), |(_, f)| f);
                Ok(json!([p, crate::cmd::batch::file_digest(file)?]))
            })
            .collect()
    };
    Ok(json!({
        "archive": crate::cmd::batch::file_digest(&a.against.archive)?,
        "keys": digests(&a.against.keys)?,
        "secrets": digests(&a.against.secrets)?,
        "trust": a.common.trust.as_deref().map(crate::cmd::batch::file_digest).transpose()?,
        "now": a.common.now,
    }))
}

fn verify_pair(
    bundle_path: &str,
    display_path: &str,
    store: &Store,
    trust: &Trust,
    now: i64,
) -> Result<ArchiveReport, Failure> {
    let bundle = read_document(bundle_path)?;
    let view = read_document(display_path)?;
    let mut report = verify_bundle(&bundle, &view, store, trust, now);
    report.subject = file_subject(bundle_path, &bundle);
    Ok(report)
}

pub(super) fn run(a: VerifyArgs) -> Result<ExitCode, Failure> {
    let trust = a.against.trust(Trust::from(a.common.load_trust()?))?;
    let store = a.against.store()?;
    let now = a.common.time();
    if let Some(list) = &a.batch {
        let in_batch = |line: &str| match line.split_whitespace().collect::<Vec<_>>()[..] {
            [bundle, display] if bundle != "-" && display != "-" => {
                verify_pair(bundle, display, &store, &trust, now)
            }
            _ => Err(Failure::Usage(
                "a line of an archive batch is `BUNDLE DISPLAY` (two files)".into(),
            )),
        };
        let mut settle = batch::recorder(SPEC.name(), &a.common, configuration(&a)?)?;
        return batch::run("archive verify", list, in_batch, &mut settle);
    }
    let (Some(bundle), Some(display)) = (&a.bundle, &a.display) else {
        return Err(Failure::Usage("give BUNDLE and DISPLAY, or --batch".into()));
    };
    let report = verify_pair(bundle, display, &store, &trust, now)?;
    crate::cmd::record::finish("archive verify", &report, &a.common, || readable(&report))
}

/// The incidents, each with the document it is about.
pub(super) fn incident_lines(r: &ArchiveReport) -> String {
    let incidents = &r.verdict.incidents;
    if incidents.is_empty() {
        return "no incidents\n".into();
    }
    let mut out = format!("incidents ({}):\n", incidents.len());
    for (i, doc) in incidents.iter().zip(&r.details.incident_documents) {
        let doc = match doc {
            Document::Bundle => "bundle",
            Document::Display => "display",
            Document::Archive => "archive",
            Document::Trust => "trust",
            Document::Log => "log",
        };
        out.push_str(&format!("  {doc} {}\n", i.incident));
    }
    out
}

/// The verdict line first (as every verify prints it), then the bundle, its signature, each
/// claim's rung and the incidents.
fn readable(r: &ArchiveReport) -> String {
    let d = &r.details;
    let mut out = String::from(if r.verdict.verified {
        "bundle and display view -> VERIFIED\n"
    } else {
        "bundle and display view -> NOT VERIFIED\n"
    });
    out.push_str(&format!(
        "bundle: {} (archive version {}, tier {})\n",
        d.response_id.as_deref().unwrap_or("?"),
        d.archive_version.as_deref().unwrap_or("?"),
        d.tier.as_deref().unwrap_or("?")
    ));
    match (&d.signed_by, &d.kid) {
        (Some(s), Some(k)) => out.push_str(&format!("signature: valid, signer {s}, key {k}\n")),
        _ => out.push_str("signature: NOT verified\n"),
    }
    for c in &d.claims {
        let mut failed: Vec<String> = r
            .verdict
            .incidents
            .iter()
            .filter(|i| {
                i.incident.severity == Severity::Error
                    && i.incident.location.claim_id.as_deref() == Some(c.claim_id.as_str())
            })
            .map(|i| i.incident.code.to_string())
            .collect();
        failed.sort();
        failed.dedup();
        let verdict = if failed.is_empty() {
            String::new()
        } else {
            format!(" - FAILED: {}", failed.join(", "))
        };
        out.push_str(&format!(
            "  {} {:?}: {} of {} citations counted{verdict}\n",
            c.claim_id, c.rung, c.counted, c.citations
        ));
    }
    out.push_str(&incident_lines(r));
    out
}
