//! `citeproof aca verify URL | --snapshot FILE [--level N] [--allow-private] [--json]
//! [--save-snapshot FILE]`: the ACA verification flow (Levels 1-3), live or from a web snapshot.
//! Exit 0 when the required level is met, 1 when not, 2 on usage errors.

use std::process::ExitCode;

use citeproof_aca::{
    AcaReport, ClaimReport, ManifestReport, SignatureVerdict, VerifyOptions, verify_snapshot_bytes,
    verify_url,
};
use citeproof_fetch::{FetchPolicy, HttpFetcher, RecordingFetcher};

use crate::cmd::Failure;
use crate::input::read_limited;
use crate::out::one_line;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// URL of the agent response to verify.
    #[arg(required_unless_present_any = ["snapshot", "batch"], conflicts_with_all = ["snapshot", "batch"])]
    url: Option<String>,
    /// Verify every response listed in FILE (`-`: stdin), one URL or snapshot path a line, on
    /// every core; prints one JSON line per response, in input order. Exit 0 when all verify.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["snapshot", "save_snapshot"])]
    batch: Option<String>,
    /// Verify offline from a web snapshot file instead of the network.
    #[arg(long)]
    snapshot: Option<String>,
    /// Level to check and require (1-3). Default: the highest level the response claims
    /// (3 when a manifest has a chain or a signature, else 2).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
    level: Option<u8>,
    /// Allow loopback and private addresses (local demos and tests); link-local stays refused.
    #[arg(long)]
    allow_private: bool,
    /// Print the full report as JSON: `command`, `ok`, `incidents`, then `level`,
    /// `required_level`, `verified`, `url`, `manifests` (claims, sources, verdicts, key ids) and
    /// `judge`.
    #[arg(long)]
    json: bool,
    /// Write everything a live verification fetched to FILE as a web snapshot.
    #[arg(long, requires = "url")]
    save_snapshot: Option<String>,
    /// Verification time, Unix seconds (default: now).
    #[arg(long)]
    now: Option<i64>,
    /// Refuse manifest signatures whose `created` is more than SECONDS before the verification
    /// time (default 7776000, 90 days; `none` for no limit). To replay an old capture, give
    /// `--now` the time it was captured rather than lifting the limit.
    #[arg(long, value_name = "SECONDS|none", value_parser = parse_max_age)]
    max_age: Option<MaxAge>,
    /// An additional support judge: a command speaking JSON lines on stdin/stdout
    /// (`{"claim","excerpts"}` in, `{"supported","reason"?}` out). It can only add findings
    /// (`aca-judge-unsupported`, `aca-judge-failed`); the profile's rule still decides support.
    #[arg(long, value_name = "CMD")]
    judge: Option<String>,
    /// Seconds the judge may take per claim.
    #[arg(long, default_value_t = 60, requires = "judge")]
    judge_timeout: u64,
    /// Record the verification in this SQLite audit database (created if needed), and report a
    /// manifest that names no response (no `response_url`) which the database has seen under
    /// another run or for another response (`aca-manifest-reused`, ACA-L2-022); a manifest that
    /// names its response is judged by that name alone. List records with `citeproof audit
    /// --db DB list`.
    /// A SQLite file or a `postgres://` URL. The reuse check and the record are one
    /// transaction under the store's write lock.
    #[arg(long, value_name = "DB|postgres://...")]
    record: Option<String>,
}

/// `--max-age`: seconds, or `none`.
#[derive(Debug, Clone, Copy)]
pub struct MaxAge(Option<u64>);

fn parse_max_age(text: &str) -> Result<MaxAge, String> {
    if text == "none" {
        return Ok(MaxAge(None));
    }
    text.parse::<u64>()
        .map(|s| MaxAge(Some(s)))
        .map_err(|_| format!("`{text}` is neither a number of seconds nor `none`"))
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let now = args.now.unwrap_or_else(crate::cmd::now);
    let mut opts = VerifyOptions::new(now);
    opts.required_level = args.level;
    opts.allow_private = args.allow_private;
    if let Some(max_age) = args.max_age {
        opts.max_signature_age = max_age.0;
    }
    // The reuse check (ACA-L2-022) runs when the verification is recorded, in the same
    // transaction (cmd/audit.rs check_and_record_aca), not against a history read earlier.
    let mut store = match &args.record {
        Some(target) => Some(
            crate::cmd::audit::open_for_record(target)
                .map_err(|e| crate::cmd::record::store_failure(target, &e))?,
        ),
        None => None,
    };
    if let Some(cmd) = &args.judge {
        let judge = super::judge::CommandJudge::new(
            cmd,
            std::time::Duration::from_secs(args.judge_timeout),
        )
        .map_err(Failure::Usage)?;
        opts.extra_judges.push(std::sync::Arc::new(judge));
    }
    if let Some(list) = &args.batch {
        let configuration = serde_json::json!({
            "level": args.level, "now": args.now, "allow_private": args.allow_private,
            "max_age": opts.max_signature_age, "judge": args.judge.as_deref(),
        });
        let target = args.record.as_deref().zip(store.as_mut());
        return super::batch::run(list, &opts, target, &configuration, now);
    }
    let mut report = match (&args.url, &args.snapshot) {
        (_, Some(file)) => verify_snapshot_file(file, &opts)?,
        (Some(url), None) => {
            let policy = FetchPolicy {
                allow_private: args.allow_private,
                ..FetchPolicy::default()
            };
            let recorder = RecordingFetcher::new(HttpFetcher::new(policy));
            let report = verify_url(url, &recorder, &opts);
            if let Some(path) = &args.save_snapshot {
                save_snapshot(&recorder, url, path, now)?;
                if !args.json {
                    eprintln!("snapshot written to {path}");
                }
            }
            report
        }
        (None, None) => return Err(Failure::Usage("give a URL or --snapshot FILE".into())),
    };
    if args.snapshot.is_some()
        && !args.allow_private
        && report.has(citeproof_model::IncidentCode::FetchAddressForbidden)
    {
        eprintln!(
            "citeproof: note: this snapshot holds loopback or private addresses, refused like a live fetch would be; \
             add --allow-private to replay a snapshot saved with --allow-private"
        );
    }
    let mut record_failed = None;
    if let (Some(store), Some(target)) = (store.as_mut(), &args.record) {
        match crate::cmd::audit::check_and_record_aca(store.as_mut(), &mut report, now, None) {
            Ok(head) => eprintln!("recorded as verification {} ({})", head.id, head.hash),
            Err(e) => record_failed = Some(crate::cmd::audit::record_failed(target, &e)),
        }
    }
    if args.json {
        crate::out::json_report("aca verify", report.verified, &report.incidents, &report)?;
    } else {
        crate::out::print(&readable(&report))?;
    }
    if let Some(message) = record_failed {
        // Said after the verdict; the reuse check could not run either.
        eprintln!("citeproof: error: {message} (the reuse check ACA-L2-022 did not run)");
        return Ok(ExitCode::from(3));
    }
    Ok(if report.verified {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The human report. Every line agrees with the verdict (issue 19, item 6): a signature is
/// called valid only when the whole Level 3 check of its manifest passed, a claim is tagged
/// `[supported]` only when nothing it depends on failed, and every other line says what failed.
fn readable(r: &AcaReport) -> String {
    let mut out = String::new();
    out.push_str(&format!("response: {}\n", one_line(&r.url)));
    out.push_str(&format!(
        "level achieved: {} (required {}) -> {}\n",
        r.level,
        r.required_level,
        if r.verified {
            "VERIFIED"
        } else {
            "NOT VERIFIED"
        }
    ));
    let mut failed: Vec<String> = Vec::new();
    // The checks of the levels required decide the verdict; an error of a level above is in
    // the incident list, not here.
    for i in r.incidents.iter().filter(|i| {
        i.incident.severity == citeproof_model::Severity::Error && i.level <= r.required_level
    }) {
        let item = format!("L{} {}", i.level, i.incident.code);
        if !failed.contains(&item) {
            failed.push(item);
        }
    }
    if !failed.is_empty() {
        out.push_str(&format!("failed checks: {}\n", failed.join(", ")));
    }
    for m in &r.manifests {
        out.push_str(&format!("\nmanifest {}", one_line(&m.url)));
        if let Some(run) = &m.run_id {
            out.push_str(&format!(" (run {run})"));
        }
        out.push('\n');
        if !m.failed.is_empty() {
            out.push_str(&format!(
                "  manifest checks FAILED: {}\n",
                m.failed.join(", ")
            ));
        }
        out.push_str(&format!("  {}\n", signature_line(&m.signature, &m.failed)));
        for c in &m.claims {
            out.push_str(&format!(
                "  claim {} [{}]: {}\n",
                c.claim_id.as_deref().unwrap_or("?"),
                claim_tag(c, m, r),
                one_line(c.text.as_deref().unwrap_or(""))
            ));
            for s in &c.sources {
                out.push_str(&format!("    source {}: {}\n", s.url, s.verdict));
            }
        }
    }
    if r.incidents.is_empty() {
        out.push_str("\nno incidents\n");
    } else {
        out.push_str(&format!("\nincidents ({}):\n", r.incidents.len()));
        for i in &r.incidents {
            // Messages quote what the documents say (URLs, member names, texts).
            out.push_str(&format!(
                "  L{} {}\n",
                i.level,
                one_line(&i.incident.to_string())
            ));
        }
    }
    out.push_str(&format!("\nsupport check: {}\n", r.judge));
    out
}

/// `manifest_failed`: the Level 1-2 failures of the manifest, which a valid signature does not
/// make good (a replayed manifest is validly signed, for another response).
fn signature_line(v: &SignatureVerdict, manifest_failed: &[String]) -> String {
    match v {
        SignatureVerdict::Valid { keyid } if manifest_failed.is_empty() => {
            format!("signature valid (keyid {keyid}): every Level 3 check of this manifest passed")
        }
        SignatureVerdict::Valid { keyid } => format!(
            "signature valid (keyid {keyid}) over the manifest as served, but the manifest FAILED: {}",
            manifest_failed.join(", ")
        ),
        SignatureVerdict::Failed { failed } if failed.is_empty() => {
            "signature NOT valid: the Level 3 check of this manifest failed".into()
        }
        SignatureVerdict::Failed { failed } => format!(
            "signature NOT valid: the Level 3 check of this manifest failed: {}",
            failed.join(", ")
        ),
        SignatureVerdict::NotChecked { reason } => format!("signature not checked: {reason}"),
    }
}

/// `supported` only for a verified claim; otherwise what failed, then what the excerpt says.
fn claim_tag(c: &ClaimReport, m: &ManifestReport, r: &AcaReport) -> String {
    if c.verified {
        return "supported".into();
    }
    let mut why: Vec<String> = c.failed.clone();
    if !m.failed.is_empty() {
        why.push(format!("manifest: {}", m.failed.join(", ")));
    }
    if r.required_level >= 3 && !matches!(m.signature, SignatureVerdict::Valid { .. }) {
        why.push("manifest signature NOT valid".into());
    }
    if why.is_empty() {
        why.push("the response failed (see failed checks)".into());
    }
    let head = match c.supported {
        Some(false) => "NOT supported",
        None => "NOT checked",
        Some(true) => "NOT verified",
    };
    let tail = if c.supported == Some(true) {
        "; its excerpt alone supports the text"
    } else {
        ""
    };
    format!("{head}: {}{tail}", why.join("; "))
}

/// `FILE.warc` is written as WARC (ISO 28500), anything else as the JSON snapshot.
fn save_snapshot(
    recorder: &RecordingFetcher<HttpFetcher>,
    url: &str,
    path: &str,
    now: i64,
) -> Result<(), Failure> {
    let failed = |e: citeproof_fetch::FetchError| {
        Failure::Invalid(format!("cannot build the snapshot: {e} [{}]", e.code()))
    };
    if path.to_ascii_lowercase().ends_with(".warc") {
        let file = std::fs::File::create(path)
            .map_err(|e| Failure::Usage(format!("cannot write {path}: {e}")))?;
        let mut out = std::io::BufWriter::new(file);
        let date = citeproof_model::Timestamp::from_unix(now).map_err(Failure::Usage)?;
        recorder
            .write_warc(url, &mut out, date.as_str())
            .map_err(failed)?;
        std::io::Write::flush(&mut out)
            .map_err(|e| Failure::Usage(format!("cannot write {path}: {e}")))
    } else {
        let snapshot = recorder.snapshot(url).map_err(failed)?;
        let text =
            serde_json::to_string_pretty(&snapshot).map_err(|e| Failure::Usage(e.to_string()))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| Failure::Usage(format!("cannot write {path}: {e}")))
    }
}

/// A WARC file (it starts with `WARC/`) is streamed record by record; any other file is a JSON
/// snapshot, read whole (16 MiB JSON limit).
pub fn verify_snapshot_file(file: &str, opts: &VerifyOptions) -> Result<AcaReport, Failure> {
    use std::io::BufRead;
    let open = |f: &str| {
        std::fs::File::open(f).map_err(|e| Failure::Unreadable(format!("cannot read {f}: {e}")))
    };
    if file != "-" {
        let mut reader = std::io::BufReader::new(open(file)?);
        let head = reader
            .fill_buf()
            .map_err(|e| Failure::Unreadable(format!("cannot read {file}: {e}")))?;
        if head.starts_with(b"WARC/") {
            let policy = citeproof_fetch::FetchPolicy {
                allow_private: opts.allow_private,
                ..citeproof_fetch::FetchPolicy::default()
            };
            return Ok(match citeproof_fetch::read_warc(&mut reader, policy) {
                Ok(fetcher) => {
                    citeproof_aca::verify_response(fetcher.agent_response(), &fetcher, opts)
                }
                Err(e) => citeproof_aca::verify_snapshot_error(&e, file, opts),
            });
        }
    }
    let bytes = read_limited(file, 256 * 1024 * 1024)?;
    Ok(verify_snapshot_bytes(&bytes, opts))
}
