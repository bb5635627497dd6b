//! `citeproof audit list|summary|show|verify|head|report`: the verifications recorded with
//! `--record`.
//!
//! Reading commands open the store read-only and never write. A store that cannot be used
//! (missing, not a citeproof store, newer schema, corrupt, unreachable) exits 3 with its code.

use std::path::PathBuf;
use std::process::ExitCode;

use citeproof_audit::render::{Format, Provenance};
use citeproof_audit::{Access, AuditError, AuditStore, Filter, chain::parse_head, parse_since};

use crate::cmd::Failure;
use crate::cmd::record::store_failure;
use crate::out;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The audit store: a SQLite file or a `postgres://` URL (`--record` of every verify
    /// writes it).
    #[arg(
        long,
        default_value = "audit.db",
        global = true,
        value_name = "DB|postgres://..."
    )]
    db: String,
    /// Print JSON (`command`, `ok`, `incidents`, then the answer).
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, clap::Subcommand)]
enum Verb {
    /// List recorded verifications, newest first.
    List(FilterArgs),
    /// Counts per outcome, spec, incident code and day, over the same filters as `list`.
    Summary(FilterArgs),
    /// One recorded verification in the common JSON envelope (`--claim ID`: one item with its
    /// sources, hashes and judged excerpts).
    Show {
        /// The verification id (first column of `list`).
        id: i64,
        /// Only this claim (or envelope, evidence, manifest) of the report.
        #[arg(long, value_name = "ID")]
        claim: Option<String>,
    },
    /// Recompute the hash chain; report the first broken row. Exit 0 intact, 1 broken.
    Verify {
        /// A head written down earlier (`ID:sha256:HEX`, from `audit head`) that the store
        /// must still contain.
        #[arg(long, value_name = "ID:sha256:HEX")]
        head: Option<String>,
    },
    /// Print the head of the chain (`ID:sha256:HEX`): write it down or publish it, and check
    /// later with `audit verify --head`.
    Head,
    /// Write a report a person reads of one recorded verification.
    Report {
        id: i64,
        #[arg(long, default_value = "html", value_parser = ["html", "markdown", "csv", "json"])]
        format: String,
        /// Output file (default: standard output).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, clap::Args)]
struct FilterArgs {
    /// Only verifications at or after: RFC 3339, Unix seconds, or an age (`7d`, `24h`, `30m`).
    #[arg(long, value_name = "TIME|AGE")]
    since: Option<String>,
    /// Only verifications before: RFC 3339, Unix seconds, or an age.
    #[arg(long, value_name = "TIME|AGE")]
    until: Option<String>,
    /// Only this spec (`aca`, `aef`, `chain`, `ledger`, `archive`).
    #[arg(long)]
    spec: Option<String>,
    /// Only this subject (response URL, file as given).
    #[arg(long)]
    subject: Option<String>,
    /// Only verifications with an incident of this code.
    #[arg(long)]
    code: Option<String>,
    /// Only this outcome.
    #[arg(long, value_parser = ["verified", "not-verified", "could-not-check"])]
    verdict: Option<String>,
    /// Only verifications that were not verified (both other outcomes).
    #[arg(long, conflicts_with = "verdict")]
    failed: bool,
    /// At most N rows (newest first).
    #[arg(long)]
    limit: Option<u32>,
}

impl FilterArgs {
    fn filter(&self) -> Result<Filter, Failure> {
        let now = crate::cmd::now();
        let time = |t: &Option<String>| {
            t.as_deref()
                .map(|t| parse_since(t, now))
                .transpose()
                .map_err(Failure::Usage)
        };
        Ok(Filter {
            since: time(&self.since)?,
            until: time(&self.until)?,
            spec: self.spec.clone(),
            subject: self.subject.clone(),
            code: self.code.clone(),
            outcome: self.verdict.clone(),
            limit: self.limit,
        })
    }
}

fn time_text(t: i64) -> String {
    citeproof_model::Timestamp::from_unix(t)
        .map(|x| x.as_str().to_owned())
        .unwrap_or_else(|_| t.to_string())
}

fn word(outcome: &str) -> &'static str {
    match outcome {
        "verified" => "VERIFIED",
        "could-not-check" => "COULD NOT CHECK",
        _ => "NOT VERIFIED",
    }
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let mut store =
        citeproof_audit::open(&args.db, Access::Read).map_err(|e| store_failure(&args.db, &e))?;
    let store = store.as_mut();
    let fail = |e: AuditError| store_failure(&args.db, &e);
    match args.verb {
        Verb::List(f) => list(store, &f, args.json).map_err(fail),
        Verb::Summary(f) => {
            let s = store.summary(&f.filter()?).map_err(fail)?;
            if args.json {
                out::json_done("audit summary", &s)?;
            } else {
                out::print(&summary_text(&s))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Verb::Show { id, claim } => {
            show(store, id, claim.as_deref()).map_err(|e| e.into_failure(&args.db))
        }
        Verb::Verify { head } => {
            verify(store, head.as_deref(), args.json).map_err(|e| e.into_failure(&args.db))
        }
        Verb::Head => {
            let head = store.head().map_err(fail)?;
            if args.json {
                out::json_done("audit head", &serde_json::json!({"head": head}))?;
            } else {
                match head {
                    Some(h) => out::println(&h.token())?,
                    None => out::println("the store is empty: no head")?,
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Verb::Report {
            id,
            format,
            out: file,
        } => report(store, id, &format, file.as_deref()).map_err(|e| e.into_failure(&args.db)),
    }
}

/// A failure of a reading command: the store's (exit 3, with its code), or the command's own.
enum ReadFailure {
    Store(AuditError),
    Command(Failure),
}

impl ReadFailure {
    fn into_failure(self, db: &str) -> Failure {
        match self {
            ReadFailure::Store(e) => store_failure(db, &e),
            ReadFailure::Command(f) => f,
        }
    }
}

impl From<AuditError> for ReadFailure {
    fn from(e: AuditError) -> Self {
        ReadFailure::Store(e)
    }
}

impl From<Failure> for ReadFailure {
    fn from(f: Failure) -> Self {
        ReadFailure::Command(f)
    }
}

/// `audit show ID [--claim C]`: the recorded report, or one item of it with its sources.
fn show(store: &mut dyn AuditStore, id: i64, claim: Option<&str>) -> Result<ExitCode, ReadFailure> {
    let stored = store.get(id)?.ok_or_else(|| missing(id))?;
    let from = provenance(&stored);
    let text = match claim {
        None => citeproof_audit::render::render(&stored.record, &from, Format::Json)?,
        Some(c) => {
            let item = citeproof_audit::render::find_item(&stored.record.report, c)
                .ok_or_else(|| Failure::Invalid(format!("verification {id} has no item `{c}`")))?;
            let v = serde_json::json!({
                "command": "audit show", "ok": stored.record.verified,
                "incidents": [], "id": id, "outcome": stored.record.outcome,
                "subject": stored.record.subject, "claim": item,
            });
            serde_json::to_string_pretty(&v).map_err(|e| Failure::Usage(e.to_string()))?
        }
    };
    out::println(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `audit verify [--head H]`: the chain recomputed; exit 1 at the first broken row.
fn verify(
    store: &mut dyn AuditStore,
    head: Option<&str>,
    json: bool,
) -> Result<ExitCode, ReadFailure> {
    let expected = head.map(parse_head).transpose().map_err(Failure::Usage)?;
    let check = store.verify_chain(expected.as_ref())?;
    let ok = check.broken.is_none();
    if json {
        out::json_report("audit verify", ok, &out::NO_INCIDENTS, &check)?;
    } else if let Some(b) = &check.broken {
        out::println(&format!(
            "chain BROKEN at row {}: {} ({} rows before it hold)",
            b.id, b.reason, check.rows
        ))?;
    } else {
        out::println(&format!(
            "chain intact: {} rows{}{}",
            check.rows,
            check
                .head
                .as_ref()
                .map(|h| format!(", head {}", h.token()))
                .unwrap_or_default(),
            expected
                .map(|h| format!(", extends the head {} written down", h.token()))
                .unwrap_or_default()
        ))?;
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `audit report ID --format F [--out FILE]`.
fn report(
    store: &mut dyn AuditStore,
    id: i64,
    format: &str,
    file: Option<&std::path::Path>,
) -> Result<ExitCode, ReadFailure> {
    let stored = store.get(id)?.ok_or_else(|| missing(id))?;
    let from = provenance(&stored);
    match file {
        Some(path) => crate::cmd::record::write_report(&stored.record, &from, format, path)
            .map_err(Failure::Unreadable)?,
        None => {
            let format = Format::parse(format)
                .ok_or_else(|| Failure::Usage(format!("unknown format {format}")))?;
            out::print(&citeproof_audit::render::render(
                &stored.record,
                &from,
                format,
            )?)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn missing(id: i64) -> Failure {
    Failure::Invalid(format!("no verification {id}"))
}

fn provenance(s: &citeproof_audit::Stored) -> Provenance {
    Provenance {
        id: Some(s.id),
        row_hash: Some(s.row_hash.clone()),
        prev_hash: Some(s.prev_hash.clone()),
    }
}

fn list(store: &mut dyn AuditStore, f: &FilterArgs, json: bool) -> Result<ExitCode, AuditError> {
    let mut filter = f
        .filter()
        .map_err(|e| AuditError::Record(e.message().to_owned()))?;
    let rows = if f.failed {
        // Not verified: both other outcomes, merged newest first.
        let mut rows = Vec::new();
        for o in ["not-verified", "could-not-check"] {
            filter.outcome = Some(o.into());
            rows.extend(store.list(&filter)?);
        }
        rows.sort_by_key(|r| std::cmp::Reverse(r.id));
        if let Some(n) = f.limit {
            rows.truncate(usize::try_from(n).unwrap_or(usize::MAX));
        }
        rows
    } else {
        store.list(&filter)?
    };
    let io = |e: Failure| AuditError::Record(e.message().to_owned());
    if json {
        out::json_done("audit list", &serde_json::json!({ "verifications": rows })).map_err(io)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    for v in rows {
        text.push_str(&format!(
            "{:>5}  {}  {}  level {} of {}  {}  {}{}\n",
            v.id,
            time_text(v.verified_at),
            v.spec,
            v.level,
            v.required_level,
            word(&v.outcome),
            crate::out::one_line(&v.subject),
            if v.errors.is_empty() {
                String::new()
            } else {
                format!("  [{}]", v.errors.join(", "))
            }
        ));
    }
    out::print(&text).map_err(io)?;
    Ok(ExitCode::SUCCESS)
}

fn summary_text(s: &citeproof_audit::Summary) -> String {
    let mut text = format!(
        "{} verifications: {} verified, {} not verified\n",
        s.verifications,
        s.verified,
        s.verifications.saturating_sub(s.verified)
    );
    text.push_str("by outcome:\n");
    for (o, n) in &s.by_outcome {
        text.push_str(&format!("  {n:>7}  {}\n", word(o)));
    }
    text.push_str("by spec:\n");
    for (spec, n) in &s.by_spec {
        text.push_str(&format!("  {n:>7}  {spec}\n"));
    }
    text.push_str("incident codes (verifications raising each):\n");
    for (code, severity, n) in &s.by_code {
        text.push_str(&format!("  {n:>7}  {code} ({severity})\n"));
    }
    text.push_str("by day (UTC; verifications, verified):\n");
    for (day, n, ok) in &s.by_day {
        text.push_str(&format!("  {day}  {n:>7}  {ok:>7}\n"));
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
    text
}

/// `citeproof: error: ...` for a record that failed, with the target redacted.
pub fn record_failed(target: &str, e: &AuditError) -> String {
    citeproof_batch::not_recorded(target, e)
}
