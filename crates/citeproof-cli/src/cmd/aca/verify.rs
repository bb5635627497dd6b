//! `citeproof aca verify URL | --snapshot FILE | --batch FILE [--level N] [--allow-private]
//! [--save-snapshot FILE]` with the options of every verify (`--now`, `--trust`, `--json`):
//! the ACA verification flow (Levels 1-3), live or from a web snapshot. Exit statuses as every
//! verify: 0 verified, 1 not verified, 2 usage error, 3 could not check.

use std::process::ExitCode;
use std::sync::Arc;

use citeproof_aca::{
    AcaReport, ClaimReport, ManifestReport, SignatureVerdict, VerifyOptions, verify_snapshot_bytes,
    verify_url,
};
use citeproof_fetch::{FetchPolicy, HttpFetcher, RecordingFetcher};
use citeproof_model::TrustUsed;

use crate::cmd::common::{VerifyCommon, finish_report, verdict_line};
use crate::cmd::{Failure, batch};
use crate::input::read_limited;
use crate::out::one_line;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// URL of the agent response to verify.
    #[arg(required_unless_present_any = ["snapshot", "batch"], conflicts_with_all = ["snapshot", "batch"])]
    url: Option<String>,
    /// Verify every response listed in FILE (`-`: stdin), one URL or snapshot path a line, on
    /// every core; prints one JSON line per response (the `--json` object plus `input` and
    /// `line`), in input order. Exit status: the worst over the lines.
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
    /// Write everything a live verification fetched to FILE as a web snapshot.
    #[arg(long, requires = "url")]
    save_snapshot: Option<String>,
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
    /// `--now`, `--trust FILE` (checked, but ACA takes no configured keys: the keys are those
    /// of the response origin's discovery document), `--json` (the report: `spec`, `subject`,
    /// `level`, `required_level`, `verified`, `incidents`, `outcome`, `trust`, `items`,
    /// `manifests`, `judge`), `--record DB|postgres://...`: records the verification and
    /// reports a manifest that names no response (no `response_url`) which the store has seen
    /// under another run or for another response (`aca-manifest-reused`, ACA-L2-022), the check
    /// and the record in one transaction under the store's write lock; a manifest that names
    /// its response is judged by that name alone.
    #[command(flatten)]
    common: VerifyCommon,
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

fn options(args: &Args, now: i64) -> Result<VerifyOptions, Failure> {
    let mut opts = VerifyOptions::new(now);
    opts.required_level = args.level;
    opts.allow_private = args.allow_private;
    if let Some(max_age) = args.max_age {
        opts.max_signature_age = max_age.0;
    }
    if let Some(cmd) = &args.judge {
        let judge = super::judge::CommandJudge::new(
            cmd,
            std::time::Duration::from_secs(args.judge_timeout),
        )
        .map_err(Failure::Usage)?;
        opts.extra_judges.push(Arc::new(judge));
    }
    Ok(opts)
}

/// ACA takes its keys from the response origin's discovery document (ACA-DISC-001), never
/// from configuration: a trust file is checked like every verify's, and a note says that its
/// members are not used, so that nobody believes their keys were.
fn check_trust(common: &VerifyCommon) -> Result<(), Failure> {
    let trust = common.load_trust()?;
    if trust.describe() != TrustUsed::default() {
        eprintln!(
            "citeproof: note: ACA uses no member of the trust file: the keys are those the response origin's discovery document publishes (ACA-DISC-001)"
        );
    }
    Ok(())
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let now = args.common.time();
    check_trust(&args.common)?;
    let opts = options(&args, now)?;
    if let Some(list) = &args.batch {
        return run_batch(&args, list, &opts);
    }
    // Opened before verifying: a store that cannot be used stops here (exit 3), not after.
    let mut store = match &args.common.record.record {
        Some(target) => Some((
            target.as_str(),
            citeproof_audit::open(target, citeproof_audit::Access::Write)
                .map_err(|e| crate::cmd::record::store_failure(target, &e))?,
        )),
        None => None,
    };
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
                if !args.common.json {
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
    // The reuse check (ACA-L2-022) runs in the record's transaction, so it changes the report
    // before it is printed.
    let recorded = store.as_mut().map(|(target, store)| {
        citeproof_audit::aca::check_and_record(
            store.as_mut(),
            &mut report,
            crate::cmd::now(),
            now,
            None,
        )
        .map_err(|e| crate::cmd::audit::record_failed(target, &e))
    });
    let status = finish_report("aca verify", &report, args.common.json, || {
        readable(&report)
    })?;
    let head = match recorded {
        None => None,
        Some(Ok(head)) => {
            eprintln!("recorded as verification {} ({})", head.id, head.hash);
            Some(head)
        }
        Some(Err(message)) => {
            // Said after the verdict; the reuse check could not run either.
            eprintln!("citeproof: error: {message} (the reuse check ACA-L2-022 did not run)");
            return Ok(ExitCode::from(3));
        }
    };
    Ok(
        crate::cmd::record::report_file(&report, now, &args.common.record, head.as_ref())
            .unwrap_or(status),
    )
}

/// `--batch`: each line is an http(s) URL (verified live) or the path of a web snapshot
/// (verified offline). With `--record`, reuse across responses is judged against the store
/// (which holds the earlier lines) in input order, in the transaction that records each.
fn run_batch(args: &Args, list: &str, opts: &VerifyOptions) -> Result<ExitCode, Failure> {
    let verify = |input: &str| {
        if batch::is_url(input) {
            let fetcher = HttpFetcher::new(FetchPolicy {
                allow_private: opts.allow_private,
                ..FetchPolicy::default()
            });
            Ok(verify_url(input, &fetcher, opts))
        } else {
            verify_snapshot_file(batch::file_line(input)?, opts)
        }
    };
    let configuration = serde_json::json!({
        "level": args.level, "now": args.common.now, "allow_private": args.allow_private,
        "max_age": opts.max_signature_age, "judge": args.judge.as_deref(),
    });
    let mut settle = citeproof_batch::AcaReuseThenRecord(batch::recorder(
        citeproof_aca::SPEC.name(),
        &args.common,
        configuration,
    )?);
    batch::run("aca verify", list, verify, &mut settle)
}

/// The human report. Every line agrees with the verdict (issue 19, item 6): a signature is
/// called valid only when the whole Level 3 check of its manifest passed, a claim is tagged
/// `[supported]` only when nothing it depends on failed, and every other line says what failed.
fn readable(report: &AcaReport) -> String {
    let r = &report.verdict;
    let mut out = format!("{}\n", verdict_line(report));
    out.push_str(&format!("response: {}\n", one_line(&report.subject.name)));
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
    for m in &report.details.manifests {
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
                claim_tag(c, m, r.required_level),
                one_line(c.text.as_deref().unwrap_or(""))
            ));
            for s in &c.sources {
                out.push_str(&format!("    source {}: {}\n", s.url, s.verdict));
            }
        }
    }
    out.push('\n');
    // Messages quote what the documents say (URLs, member names, texts).
    crate::cmd::common::push_incidents(&mut out, &r.incidents, |i| {
        format!("L{} {}", i.level, one_line(&i.incident.to_string()))
    });
    // The trust used: the response origin's published keys (ACA-DISC-001), and those under
    // which a manifest's whole Level 3 check passed (its Level 1-2 verdict is on its own line).
    for origin in &report.trust.origins {
        let used: Vec<&str> = report
            .trust
            .signers
            .get(origin)
            .map(|s| s.keys.iter().map(|(kid, _)| kid.as_str()).collect())
            .unwrap_or_default();
        out.push_str(&format!(
            "\nkeys: the discovery document of {} (key ids under which a manifest's Level 3 check passed: {})\n",
            one_line(origin),
            if used.is_empty() {
                "none".to_owned()
            } else {
                used.join(", ")
            }
        ));
    }
    out.push_str(&format!("\nsupport check: {}\n", report.details.judge));
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
fn claim_tag(c: &ClaimReport, m: &ManifestReport, required_level: u8) -> String {
    if c.verified {
        return "supported".into();
    }
    let mut why: Vec<String> = c.failed.clone();
    if !m.failed.is_empty() {
        why.push(format!("manifest: {}", m.failed.join(", ")));
    }
    if required_level >= 3 && !matches!(m.signature, SignatureVerdict::Valid { .. }) {
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

/// A WARC file (it starts with `WARC/`) is read whole when it is a regular file within the WARC
/// body bound, else streamed record by record; any other file is a JSON snapshot, read whole
/// (16 MiB JSON limit).
pub fn verify_snapshot_file(file: &str, opts: &VerifyOptions) -> Result<AcaReport, Failure> {
    use std::io::{BufRead, Read};
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
            // A file within the body bound is read whole, each body then a slice of it (one
            // copy of the bytes, not two); a larger one is streamed, so that no more than the
            // bound is ever held (FETCH-008).
            // Only a regular file has a size to trust (a FIFO or a device says 0).
            let bound = citeproof_fetch::MAX_WARC_TOTAL_BYTES;
            let size = reader
                .get_ref()
                .metadata()
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map_or(u64::MAX, |m| m.len());
            let read = if size <= bound {
                let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
                (&mut reader)
                    .take(bound)
                    .read_to_end(&mut data)
                    .map_err(|e| Failure::Unreadable(format!("cannot read {file}: {e}")))?;
                citeproof_fetch::read_warc_bytes(data, policy)
            } else {
                citeproof_fetch::read_warc(&mut reader, policy)
            };
            return Ok(match read {
                Ok(fetcher) => {
                    let mut report =
                        citeproof_aca::verify_response(fetcher.agent_response(), &fetcher, opts);
                    report.subject.kind = citeproof_model::SubjectKind::Snapshot;
                    report
                }
                Err(e) => citeproof_aca::verify_snapshot_error(&e, file, opts),
            });
        }
    }
    let bytes = read_limited(file, 256 * 1024 * 1024)?;
    Ok(verify_snapshot_bytes(&bytes, opts))
}
