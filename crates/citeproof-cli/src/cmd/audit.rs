//! `citeproof audit list|summary|show`: the verifications recorded with `--record DB`, and the
//! glue between the ACA verifier and the audit store (history for ACA-L2-022, records).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use citeproof_aca::{AcaReport, ManifestHistory, Sighting};
use citeproof_audit::{
    AuditStore, DocumentUse, Filter, RecordedIncident, SqliteStore, VerificationRecord,
};

use crate::cmd::Failure;
use crate::out;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The audit database (`--record` of `citeproof aca verify` writes it).
    #[arg(long, default_value = "audit.db", global = true)]
    db: PathBuf,
    /// Print JSON (`command`, `ok`, `incidents`, then the listing or summary).
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, clap::Subcommand)]
enum Verb {
    /// List recorded verifications, newest first.
    List(ListArgs),
    /// Counts: verified or not, levels, incident codes, manifests seen more than once.
    Summary,
    /// The full report of one recorded verification.
    Show {
        /// The verification id (first column of `list`).
        id: i64,
    },
}

#[derive(Debug, clap::Args)]
struct ListArgs {
    /// Only this spec (`aca`, ...).
    #[arg(long)]
    spec: Option<String>,
    /// Only this subject (response URL).
    #[arg(long)]
    subject: Option<String>,
    /// Only verifications with an incident of this code.
    #[arg(long)]
    code: Option<String>,
    /// Only verifications that did not reach their required level.
    #[arg(long)]
    failed: bool,
    /// At most N rows.
    #[arg(long)]
    limit: Option<u32>,
}

/// Opens the store for reading or writing; a missing file is only created when writing.
pub fn open(path: &Path, create: bool) -> Result<SqliteStore, Failure> {
    if !create && !path.exists() {
        return Err(Failure::Usage(format!(
            "{} does not exist (record verifications with --record {})",
            path.display(),
            path.display()
        )));
    }
    SqliteStore::open(path)
        .map_err(|e| Failure::Usage(format!("{}: {e} [{}]", path.display(), e.code())))
}

/// The store as the ACA verifier's memory of manifests (ACA-L2-022).
pub struct StoreHistory(pub Arc<Mutex<SqliteStore>>);

impl ManifestHistory for StoreHistory {
    fn sightings(&self, digest: &str) -> Vec<Sighting> {
        // A store that cannot be read cannot show reuse; the failure is reported when the
        // verification is recorded (the same database).
        let Ok(store) = self.0.lock() else {
            return Vec::new();
        };
        store
            .prior_uses(digest)
            .unwrap_or_default()
            .into_iter()
            .map(|u| Sighting {
                response_url: u.subject,
                run_id: u.run_id,
            })
            .collect()
    }
}

/// Records one ACA verification; `report` is the `--json` form of it.
pub fn record_aca(
    store: &Mutex<SqliteStore>,
    r: &AcaReport,
    now: i64,
    report: serde_json::Value,
) -> Result<i64, Failure> {
    let record = VerificationRecord {
        spec: "aca".into(),
        subject: r.subject.name.clone(),
        verified_at: now,
        level: r.verdict.level,
        required_level: r.verdict.required_level,
        verified: r.verdict.verified,
        documents: r
            .details
            .manifests
            .iter()
            .filter_map(|m| {
                m.digest.as_ref().map(|d| DocumentUse {
                    url: m.url.clone(),
                    digest: d.clone(),
                    run_id: m.run_id.clone(),
                })
            })
            .collect(),
        incidents: r
            .verdict
            .incidents
            .iter()
            .map(|i| RecordedIncident {
                level: i.level,
                incident: i.incident.clone(),
            })
            .collect(),
        report,
    };
    let mut store = store
        .lock()
        .map_err(|_| Failure::Usage("the audit store lock is poisoned".into()))?;
    store.record(&record).map_err(|e| {
        Failure::Usage(format!(
            "cannot record the verification: {e} [{}]",
            e.code()
        ))
    })
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let store = open(&args.db, false)?;
    let fail = |e: citeproof_audit::AuditError| Failure::Usage(format!("{e} [{}]", e.code()));
    match args.verb {
        Verb::List(l) => {
            let rows = store
                .list(&Filter {
                    spec: l.spec,
                    subject: l.subject,
                    code: l.code,
                    verified: l.failed.then_some(false),
                    limit: l.limit,
                })
                .map_err(fail)?;
            if args.json {
                out::json_report(
                    "audit list",
                    true,
                    &out::NO_INCIDENTS,
                    &serde_json::json!({ "verifications": rows }),
                )?;
            } else {
                for v in rows {
                    let mark = if v.verified {
                        "VERIFIED"
                    } else {
                        "NOT VERIFIED"
                    };
                    out::println(&format!(
                        "{:>5}  {}  {}  level {} of {}  {mark}  {}{}",
                        v.id,
                        // The store keeps Unix seconds; people read RFC 3339 (UTC).
                        citeproof_model::Timestamp::from_unix(v.verified_at)
                            .map(|t| t.as_str().to_owned())
                            .unwrap_or_else(|_| v.verified_at.to_string()),
                        v.spec,
                        v.level,
                        v.required_level,
                        v.subject,
                        if v.errors.is_empty() {
                            String::new()
                        } else {
                            format!("  [{}]", v.errors.join(", "))
                        }
                    ))?;
                }
            }
        }
        Verb::Summary => {
            let s = store.summary().map_err(fail)?;
            if args.json {
                out::json_report("audit summary", true, &out::NO_INCIDENTS, &s)?;
            } else {
                let mut text = format!(
                    "{} verifications: {} verified, {} not verified\n",
                    s.verifications, s.verified, s.not_verified
                );
                text.push_str("levels achieved:\n");
                for (spec, level, n) in &s.by_level {
                    text.push_str(&format!("  {spec} level {level}: {n}\n"));
                }
                text.push_str("incident codes (verifications raising each):\n");
                for (code, severity, n) in &s.by_code {
                    text.push_str(&format!("  {n:>5}  {code} ({severity})\n"));
                }
                if s.reused_documents.is_empty() {
                    text.push_str("no manifest was seen under more than one run or response\n");
                } else {
                    text.push_str("manifests seen under several runs or responses:\n");
                    for (digest, runs, subjects) in &s.reused_documents {
                        text.push_str(&format!(
                            "  {digest}: {runs} run(s), {subjects} response(s)\n"
                        ));
                    }
                }
                out::print(&text)?;
            }
        }
        Verb::Show { id } => match store.report(id).map_err(fail)? {
            Some(report) => {
                let text = serde_json::to_string_pretty(&report)
                    .map_err(|e| Failure::Usage(e.to_string()))?;
                out::println(&text)?;
            }
            None => return Err(Failure::Invalid(format!("no verification {id}"))),
        },
    }
    Ok(ExitCode::SUCCESS)
}
