//! `citeproof aca verify --batch FILE|-`: many agent responses in one process, on every core.
//!
//! Each line of FILE is an http(s) URL (verified live) or the path of a web snapshot (verified
//! offline); empty lines and lines starting with `#` are skipped. Verifications run in parallel
//! (rayon); results are then taken in input order: reuse across responses is judged against
//! the audit store and the earlier lines (so it does not depend on timing), recorded with
//! `--record`, and printed as one JSON line each: the `--json` report plus `subject` and `line`.

use citeproof_aca::{AcaReport, VerifyOptions, verify_url};
use citeproof_audit::AuditStore;
use citeproof_fetch::{FetchPolicy, HttpFetcher};
use rayon::prelude::*;
use serde_json::{Value, json};
use std::io::BufRead;
use std::process::ExitCode;

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

/// What a finished verification line becomes.
type Finished = (usize, Result<AcaReport, String>);

/// Runs the batch. Verifications run in parallel; each is recorded as it finishes (the reuse
/// check of ACA-L2-022 and the record in one transaction), and lines are printed in input
/// order. With a store, a line whose input and configuration the store already holds is
/// skipped (a batch killed mid-way is resumed by running it again).
pub fn run(
    path: &str,
    opts: &VerifyOptions,
    mut store: Option<(&str, &mut Box<dyn AuditStore>)>,
    configuration: &Value,
    now: i64,
) -> Result<ExitCode, Failure> {
    let items = read_items(path)?;
    let mut keys: Vec<Option<String>> = Vec::with_capacity(items.len());
    let mut skipped: Vec<Option<i64>> = vec![None; items.len()];
    for (n, item) in items.iter().enumerate() {
        let key = store
            .as_ref()
            .and_then(|_| input_identity(&item.subject))
            .and_then(|input| citeproof_audit::input_key("aca", &input, configuration).ok());
        if let (Some(k), Some((target, s))) = (&key, store.as_mut()) {
            skipped[n] = s
                .find_input(k)
                .map_err(|e| crate::cmd::record::store_failure(target, &e))?;
        }
        keys.push(key);
    }
    let bar = progress(items.len());
    let (verified, failed, record_errors) = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<Finished>();
        let work: Vec<usize> = (0..items.len()).filter(|n| skipped[*n].is_none()).collect();
        let items_ref = &items;
        let bar_ref = &bar;
        scope.spawn(move || {
            work.par_iter().for_each_with(tx, |tx, &n| {
                let r = verify_one(&items_ref[n], opts);
                bar_ref.inc(1);
                let _ = tx.send((n, r));
            });
        });
        let mut printer = Printer::new(&items, &skipped);
        printer.flush()?;
        for (n, result) in rx {
            let line = match result {
                Ok(mut report) => {
                    let mut recorded = None;
                    if let Some((target, s)) = store.as_mut() {
                        recorded = Some(
                            crate::cmd::audit::check_and_record_aca(
                                s.as_mut(),
                                &mut report,
                                now,
                                keys[n].clone(),
                            )
                            .map_err(|e| crate::cmd::audit::record_failed(target, &e)),
                        );
                    }
                    Line::Report(Box::new(report), recorded)
                }
                Err(message) => Line::Error(message),
            };
            printer.done(n, line)?;
        }
        Ok::<_, Failure>((printer.verified, printer.failed, printer.record_errors))
    })?;
    bar.finish_and_clear();
    eprintln!(
        "{} responses: {verified} verified, {failed} not verified{}",
        items.len(),
        if record_errors > 0 {
            format!(", {record_errors} NOT recorded")
        } else {
            String::new()
        }
    );
    Ok(if record_errors > 0 {
        ExitCode::from(3)
    } else if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What a resumed batch compares: the URL, or the SHA-256 of the snapshot file's bytes.
fn input_identity(subject: &str) -> Option<String> {
    if is_url(subject) {
        return Some(subject.to_owned());
    }
    std::fs::read(subject)
        .ok()
        .map(|b| citeproof_model::sha256_bytes(&b).to_string())
}

enum Line {
    Report(
        Box<AcaReport>,
        Option<Result<citeproof_audit::Head, String>>,
    ),
    Error(String),
}

/// Prints lines in input order as they become available.
struct Printer<'a> {
    items: &'a [Item],
    skipped: &'a [Option<i64>],
    pending: std::collections::BTreeMap<usize, Line>,
    next: usize,
    verified: usize,
    failed: usize,
    record_errors: usize,
}

impl<'a> Printer<'a> {
    fn new(items: &'a [Item], skipped: &'a [Option<i64>]) -> Printer<'a> {
        Printer {
            items,
            skipped,
            pending: std::collections::BTreeMap::new(),
            next: 0,
            verified: 0,
            failed: 0,
            record_errors: 0,
        }
    }

    fn done(&mut self, n: usize, line: Line) -> Result<(), Failure> {
        self.pending.insert(n, line);
        self.flush()
    }

    fn flush(&mut self) -> Result<(), Failure> {
        while self.next < self.items.len() {
            let n = self.next;
            let mut line = if let Some(id) = self.skipped[n] {
                json!({"command": "aca verify", "ok": Value::Null, "incidents": [],
                       "skipped": true, "recorded_as": id})
            } else {
                match self.pending.remove(&n) {
                    None => return Ok(()),
                    Some(Line::Error(message)) => {
                        self.failed += 1;
                        json!({"command": "aca verify", "ok": false, "incidents": [], "error": message})
                    }
                    Some(Line::Report(report, recorded)) => {
                        if report.verified {
                            self.verified += 1;
                        } else {
                            self.failed += 1;
                        }
                        let mut line = report_line(&report)?;
                        if let (Value::Object(obj), Some(r)) = (&mut line, recorded) {
                            match r {
                                Ok(head) => {
                                    obj.insert("recorded_as".into(), json!(head.id));
                                }
                                Err(message) => {
                                    self.record_errors += 1;
                                    eprintln!(
                                        "citeproof: error: line {}: {message}",
                                        self.items[n].line
                                    );
                                    obj.insert("record_error".into(), json!(message));
                                }
                            }
                        }
                        line
                    }
                }
            };
            if let Value::Object(obj) = &mut line {
                obj.insert(
                    "subject".into(),
                    Value::String(self.items[n].subject.clone()),
                );
                obj.insert("line".into(), json!(self.items[n].line));
            }
            out::println(&line.to_string())?;
            self.next += 1;
        }
        Ok(())
    }
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
