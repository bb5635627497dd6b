//! `citeproof aca verify --batch FILE|-`: many agent responses in one process, on every core.
//!
//! Each line of FILE is an http(s) URL (verified live) or the path of a web snapshot (verified
//! offline); empty lines and lines starting with `#` are skipped. Verifications run in parallel
//! (rayon); results are then taken in input order: reuse across responses is judged against
//! the audit store and the earlier lines (so it does not depend on timing), recorded with
//! `--record`, and printed as one JSON line each: the `--json` report plus `subject` and `line`.

use std::io::BufRead;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use citeproof_aca::{AcaReport, VerifyOptions, apply_history, verify_url};
use citeproof_audit::SqliteStore;
use citeproof_fetch::{FetchPolicy, HttpFetcher};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::cmd::Failure;
use crate::out;

/// Longest line of a batch file, and most lines.
const MAX_LINE_BYTES: usize = 64 * 1024;
const MAX_LINES: usize = 1_000_000;

/// One input line.
struct Item {
    line: usize,
    subject: String,
}

fn read_items(path: &str) -> Result<Vec<Item>, Failure> {
    let reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut items = Vec::new();
    let mut reader = reader;
    for n in 1.. {
        let mut line = String::new();
        let got = std::io::Read::take(&mut reader, MAX_LINE_BYTES as u64 + 1)
            .read_line(&mut line)
            .map_err(|e| Failure::Usage(format!("{path}: line {n}: {e}")))?;
        if got == 0 {
            break;
        }
        if line.len() > MAX_LINE_BYTES && !line.ends_with('\n') {
            return Err(Failure::Usage(format!(
                "{path}: line {n} is longer than {MAX_LINE_BYTES} bytes"
            )));
        }
        let subject = line.trim();
        if subject.is_empty() || subject.starts_with('#') {
            continue;
        }
        if items.len() == MAX_LINES {
            return Err(Failure::Usage(format!(
                "{path}: more than {MAX_LINES} lines"
            )));
        }
        items.push(Item {
            line: n,
            subject: subject.to_owned(),
        });
    }
    Ok(items)
}

fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Verifies one line; `Err` is a line that could not be verified at all (unreadable file).
fn verify_one(item: &Item, opts: &VerifyOptions) -> Result<AcaReport, String> {
    if is_url(&item.subject) {
        let fetcher = HttpFetcher::new(FetchPolicy {
            allow_private: opts.allow_private,
            ..FetchPolicy::default()
        });
        Ok(verify_url(&item.subject, &fetcher, opts))
    } else {
        super::verify::verify_snapshot_file(&item.subject, opts).map_err(|f| match f {
            Failure::Usage(m) | Failure::Invalid(m) | Failure::Unreadable(m) => m,
        })
    }
}

fn progress(total: usize) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(u64::try_from(total).unwrap_or(u64::MAX));
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {pos}/{len} responses verified [{elapsed}] {wide_bar}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Runs the batch. `opts.history` must be `None`: reuse is judged afterwards, in input order.
pub fn run(
    path: &str,
    opts: &VerifyOptions,
    store: Option<&Arc<Mutex<SqliteStore>>>,
    now: i64,
) -> Result<ExitCode, Failure> {
    let items = read_items(path)?;
    let bar = progress(items.len());
    let results: Vec<Result<AcaReport, String>> = items
        .par_iter()
        .map(|item| {
            let r = verify_one(item, opts);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let history = store.map(|s| super::super::audit::StoreHistory(Arc::clone(s)));
    let (mut verified, mut failed) = (0usize, 0usize);
    for (item, result) in items.iter().zip(results) {
        let mut line = match result {
            Ok(mut report) => {
                if let Some(h) = &history {
                    apply_history(&mut report, h);
                }
                if let Some(s) = store {
                    let value =
                        serde_json::to_value(&report).map_err(|e| Failure::Usage(e.to_string()))?;
                    super::super::audit::record_aca(s, &report, now, value)?;
                }
                if report.verified {
                    verified += 1;
                } else {
                    failed += 1;
                }
                report_line(&report)?
            }
            Err(message) => {
                failed += 1;
                json!({"command": "aca verify", "ok": false, "incidents": [], "error": message})
            }
        };
        if let Value::Object(obj) = &mut line {
            obj.insert("subject".into(), Value::String(item.subject.clone()));
            obj.insert("line".into(), json!(item.line));
        }
        out::println(&line.to_string())?;
    }
    eprintln!(
        "{} responses: {verified} verified, {failed} not verified",
        items.len()
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The `--json` report of one verification, as one value.
fn report_line(report: &AcaReport) -> Result<Value, Failure> {
    let mut obj = serde_json::Map::new();
    obj.insert("command".into(), json!("aca verify"));
    obj.insert("ok".into(), json!(report.verified));
    let full = serde_json::to_value(report).map_err(|e| Failure::Usage(e.to_string()))?;
    if let Value::Object(members) = full {
        obj.extend(members);
    }
    Ok(Value::Object(obj))
}
