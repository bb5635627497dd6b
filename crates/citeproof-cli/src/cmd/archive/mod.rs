//! `citeproof archive gate|verify|display|log-verify`: archive citations (seed 002).
//!
//! - `gate REQUEST --archive A (--key KEY | --secret-file F) --kid K --signed-by S --bundle OUT
//!   --display OUT [--log LOG] [--now T]`: gate, sign and build the display view (exit 0 written,
//!   1 the gate refused to assemble, 2 usage);
//! - `verify BUNDLE DISPLAY | --batch LIST --archive A [--trust FILE] [--keys SIGNER=JWKS]...
//!   [--secrets SIGNER=FILE]...`: the options and exit statuses of every `verify` (`verify`);
//! - `display DISPLAY --bundle BUNDLE --archive A [--keys ...] [--secrets ...] [--now T]`: what
//!   the requestor sees, shown only once the view verified against its signed bundle (exit 0
//!   verified and shown, 1 not verified and not shown, 2 usage);
//! - `log-verify LOG --archive A [--bundle FILE]... [--head SEQ:HASH] [--now T]`.

use std::process::ExitCode;

mod verify;

use citeproof_archive::build::{GateOptions, gate};
use citeproof_archive::findings::Findings;
use citeproof_archive::log::{LogOptions, next_record, read_lines, verify_log};
use citeproof_archive::signature::{Signer, SignerKey, Trust};
use citeproof_archive::verify::ArchiveIncident;
use citeproof_archive::{Store, verify_bundle};
use citeproof_jose::{load_public_keys, load_signing_key};
use citeproof_model::archive::{
    DisplayView, GateRequest, RefusalCategory, RefusalReason, RemovedReason,
};
use citeproof_model::{ContentHash, Incident, Severity, Timestamp, json::parse_strict};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde_json::{Value, json};

use crate::cmd::Failure;
use crate::input::{display, read_document, read_limited};

/// What a renderer shows for an auditor-only source (seed 002, consent gate).
const RESTRICTED: &str =
    "Supported by archived material (source restricted by the person's instructions).";
/// What a renderer shows beside a general-context claim (seed 002: "labeled as general context,
/// not from the archive"; ARCHIVE-035 fixes its label to the same words).
const GENERAL_CONTEXT: &str = citeproof_archive::build::GENERAL_LABEL;
/// What a renderer shows above a downgraded response (seed 002, private mental state).
const DOWNGRADED: &str =
    "[Only what they wrote about this is offered; no conclusions are drawn from it.]\n";
/// The seed's inventory offer of a coverage refusal.
const INVENTORY: &str =
    "I do not have enough in the archive to answer that. Would you like to browse what is there?";

#[derive(Debug, clap::Subcommand)]
pub enum Verb {
    /// Gate a response: rungs, removed topics, refusal; sign the bundle; build the display view.
    Gate(GateArgs),
    /// Verify a signed bundle and its display view against the archive (ARCHIVE-001..024).
    Verify(verify::VerifyArgs),
    /// Show a display view as the requestor sees it, once it verified against its bundle.
    Display(DisplayArgs),
    /// Verify a bundle log: hash chain, head, times, bundles logged, evidence budget.
    LogVerify(LogArgs),
}

#[derive(Debug, clap::Args)]
pub struct GateArgs {
    /// Gate request (JSON: response_id, requester, tier, created_at?, claims, category_refusal?).
    request: String,
    /// The archive (JSON: snapshots and artifacts by id).
    #[arg(long)]
    archive: String,
    /// Ed25519 private key (PKCS#8 PEM or private JWK).
    #[arg(
        long,
        conflicts_with = "secret_file",
        required_unless_present = "secret_file"
    )]
    key: Option<String>,
    /// File holding the HMAC-SHA256 shared secret (UTF-8; one final newline is ignored).
    #[arg(long)]
    secret_file: Option<String>,
    /// Key id put in the signature (`kid`).
    #[arg(long)]
    kid: String,
    /// Signer put in the signature (`signedBy`).
    #[arg(long)]
    signed_by: String,
    /// Write the signed bundle here.
    #[arg(long = "bundle")]
    bundle_out: String,
    /// Write the display view here.
    #[arg(long = "display")]
    display_out: String,
    /// Append the bundle's record to this bundle log (created if missing).
    #[arg(long)]
    log: Option<String>,
    /// Put the unredacted span text in each citation (ARCHIVE-023 advises against it).
    #[arg(long)]
    plaintext_excerpts: bool,
    /// Signing time, Unix seconds (default: now); also `created_at` when the request has none.
    #[arg(long)]
    now: Option<i64>,
    /// Print JSON: `command`, `ok`, `incidents`, `bundle_hash`, `rungs`.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
pub struct DisplayArgs {
    /// Display view (JSON).
    display: String,
    /// The signed response bundle the view is bound to (JSON): the view is verified against it
    /// and the archive before anything is shown.
    #[arg(long)]
    bundle: String,
    #[command(flatten)]
    against: Against,
    /// Verification time, Unix seconds (default: now).
    #[arg(long)]
    now: Option<i64>,
    /// Print JSON: the verification report and the view (`view`, null when not verified).
    #[arg(long)]
    json: bool,
}

/// What a bundle and its display view are verified against, in `verify` and `display`: the
/// archive and the signers' keys and secrets.
#[derive(Debug, clap::Args)]
pub struct Against {
    /// The archive (JSON).
    #[arg(long)]
    archive: String,
    /// Ed25519 public keys of a signer: SIGNER=FILE (JWK Set, every key with a `kid`).
    #[arg(long, value_name = "SIGNER=FILE")]
    keys: Vec<String>,
    /// HMAC secrets of a signer: SIGNER=FILE (JSON object: key id -> secret string).
    #[arg(long, value_name = "SIGNER=FILE")]
    secrets: Vec<String>,
}

impl Against {
    fn store(&self) -> Result<Store, Failure> {
        load_store(&self.archive)
    }

    /// `trust` with the keys of `--keys` and the secrets of `--secrets` added.
    fn trust(&self, mut trust: Trust) -> Result<Trust, Failure> {
        add_trust_flags(&mut trust, &self.keys, &self.secrets)?;
        Ok(trust)
    }
}

#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Bundle log (JSON lines).
    log: String,
    /// The archive (JSON), for the evidence budget in force.
    #[arg(long)]
    archive: String,
    /// A bundle that must be logged (repeatable).
    #[arg(long = "bundle", value_name = "FILE")]
    bundles: Vec<String>,
    /// The head obtained earlier: SEQ:sha256:HEX.
    #[arg(long)]
    head: Option<String>,
    /// Verification time, Unix seconds (default: now).
    #[arg(long)]
    now: Option<i64>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(verb: Verb) -> Result<ExitCode, Failure> {
    match verb {
        Verb::Gate(a) => run_gate(a),
        Verb::Verify(a) => verify::run(a),
        Verb::Display(a) => run_display(a),
        Verb::LogVerify(a) => run_log(a),
    }
}

fn load_store(path: &str) -> Result<Store, Failure> {
    let (store, findings) = Store::load_bytes(&read_document(path)?);
    match store {
        Some(s) => Ok(s),
        None => Err(Failure::Invalid(format!(
            "{} is not a usable archive:\n{}",
            display(path),
            lines(&findings.into_vec())
        ))),
    }
}

fn lines(incidents: &[Incident]) -> String {
    incidents.iter().map(|i| format!("  {i}\n")).collect()
}

fn write_json(path: &str, value: &serde_json::Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Usage(e.to_string()))?;
    std::fs::write(path, text + "\n")
        .map_err(|e| Failure::Usage(format!("cannot write {path}: {e}")))
}

/// A refusal to assemble: the registered code and where in the request, as an incident under
/// `--json` (exit 1, like every "checked and found wanting").
fn refused(json: bool, incident: &Incident) -> Result<ExitCode, Failure> {
    let message = format!("the gate refused to assemble the bundle: {incident}");
    if json {
        crate::out::json_report("archive gate", false, &[incident], &Value::Null)?;
        eprintln!("citeproof: {message}");
        return Ok(ExitCode::from(1));
    }
    Err(Failure::Invalid(message))
}

fn run_gate(a: GateArgs) -> Result<ExitCode, Failure> {
    let store = load_store(&a.archive)?;
    let request: GateRequest = {
        let value = parse_strict(&read_document(&a.request)?).map_err(|e| {
            Failure::Invalid(format!("{}: {}", display(&a.request), e.to_incident()))
        })?;
        let problems = SchemaValidator::cached(DocumentKind::ArchiveGateRequest)
            .map(|v| v.validate(&value))
            .map_err(|e| Failure::Usage(e.to_string()))?;
        if !problems.is_empty() {
            return Err(Failure::Invalid(format!(
                "{} is not a gate request:\n{}",
                display(&a.request),
                lines(&problems)
            )));
        }
        citeproof_model::typed(&value).map_err(|i| Failure::Invalid(i.to_string()))?
    };
    let key = match (&a.key, &a.secret_file) {
        (Some(k), _) => SignerKey::Ed25519(
            load_signing_key(&read_limited(k, 64 * 1024)?)
                .map_err(|e| Failure::Usage(format!("{k}: {e} [{}]", e.code())))?,
        ),
        (None, Some(f)) => {
            let bytes = read_limited(f, 64 * 1024)?;
            let secret = bytes.strip_suffix(b"\n").unwrap_or(&bytes).to_vec();
            if secret.is_empty() {
                return Err(Failure::Usage(format!("{f}: the secret is empty")));
            }
            SignerKey::Hmac(secret)
        }
        (None, None) => return Err(Failure::Usage("give --key or --secret-file".into())),
    };
    let signer = Signer {
        signed_by: a.signed_by.clone(),
        kid: a.kid.clone(),
        key,
    };
    let now = a.now.unwrap_or_else(crate::cmd::now);
    let signed_at = Timestamp::from_unix(now).map_err(Failure::Usage)?;
    let opts = GateOptions {
        signer: &signer,
        signed_at: signed_at.clone(),
        plaintext_excerpts: a.plaintext_excerpts,
    };
    let gated = match gate(&request, &store, &opts) {
        Ok(gated) => gated,
        Err(e) => return refused(a.json, &e.to_incident(&request)),
    };
    // Append to the log first: a bundle that cannot be logged is not delivered.
    if let Some(log) = &a.log {
        append_log(log, signed_at, gated.log_event.clone())?;
    }
    write_json(&a.bundle_out, &gated.bundle)?;
    write_json(&a.display_out, &gated.display)?;
    let rungs: Vec<(String, String)> = gated.bundle["claims"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    (
                        c["claim_id"].as_str().unwrap_or_default().to_owned(),
                        c["rung"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if a.json {
        crate::out::json_done(
            "archive gate",
            &json!({"bundle_hash": gated.bundle_hash, "rungs": rungs, "bundle": a.bundle_out, "display": a.display_out}),
        )?;
    } else {
        let mut out = format!(
            "bundle {} signed by {} (key {}) -> {}\n",
            request.response_id, a.signed_by, a.kid, a.bundle_out
        );
        for (id, rung) in &rungs {
            out.push_str(&format!("  {id}: {rung}\n"));
        }
        out.push_str(&format!(
            "display view ({}) -> {}\n",
            request.tier, a.display_out
        ));
        out.push_str(&format!("bundle hash {}\n", gated.bundle_hash));
        if let Some(log) = &a.log {
            out.push_str(&format!("logged in {log}\n"));
        }
        crate::out::print(&out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn append_log(
    path: &str,
    at: Timestamp,
    event: citeproof_model::archive::LogEvent,
) -> Result<(), Failure> {
    let existing = match std::fs::metadata(path) {
        Ok(_) => read_limited(path, citeproof_archive::log::MAX_LOG_BYTES)?,
        Err(_) => Vec::new(),
    };
    let mut f = Findings::new();
    let lines_read = read_lines(&existing, &mut f);
    if f.has_errors() {
        return Err(Failure::Invalid(format!(
            "{path} is not a well-formed bundle log; nothing appended:\n{}",
            lines(&f.into_vec())
        )));
    }
    let last = lines_read.len().checked_sub(1).and_then(|n| {
        lines_read
            .get(n)
            .and_then(|l| l.hash)
            .map(|h| (n as u64, h))
    });
    let record = next_record(last, at, event);
    let mut text = String::from_utf8(existing).map_err(|e| Failure::Usage(e.to_string()))?;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&serde_json::to_string(&record).map_err(|e| Failure::Usage(e.to_string()))?);
    text.push('\n');
    std::fs::write(path, text).map_err(|e| Failure::Usage(format!("cannot write {path}: {e}")))
}

fn split_pair(arg: &str) -> Result<(&str, &str), Failure> {
    arg.split_once('=')
        .filter(|(s, f)| !s.is_empty() && !f.is_empty())
        .ok_or_else(|| Failure::Usage(format!("`{arg}`: expected SIGNER=FILE")))
}

/// `--keys SIGNER=FILE` and `--secrets SIGNER=FILE`.
fn add_trust_flags(trust: &mut Trust, keys: &[String], secrets: &[String]) -> Result<(), Failure> {
    for arg in keys {
        let (signer, file) = split_pair(arg)?;
        let set = load_public_keys(&read_limited(file, 1024 * 1024)?)
            .map_err(|e| Failure::Usage(format!("{file}: {e} [{}]", e.code())))?;
        if set.entries().iter().any(|e| e.kid.is_none()) {
            return Err(Failure::Usage(format!(
                "{file}: every key of a bundle signer needs a `kid` [jwk-kid-missing]"
            )));
        }
        trust.add_keys(signer, set);
    }
    for arg in secrets {
        let (signer, file) = split_pair(arg)?;
        let value = parse_strict(&read_limited(file, 1024 * 1024)?)
            .map_err(|e| Failure::Usage(format!("{file}: {}", e.to_incident())))?;
        let Some(map) = value.as_object() else {
            return Err(Failure::Usage(format!(
                "{file}: expected an object of key id -> secret"
            )));
        };
        for (kid, secret) in map {
            match secret.as_str() {
                Some(s) if !s.is_empty() => trust.add_secret(signer, kid, s.as_bytes()),
                _ => {
                    return Err(Failure::Usage(format!(
                        "{file}: the secret of `{kid}` must be a non-empty string"
                    )));
                }
            }
        }
    }
    Ok(())
}

fn incident_lines(incidents: &[ArchiveIncident]) -> String {
    if incidents.is_empty() {
        return "no incidents\n".into();
    }
    let mut out = format!("incidents ({}):\n", incidents.len());
    for i in incidents {
        let doc = serde_json::to_value(i.document).ok();
        let doc = doc.as_ref().and_then(|d| d.as_str()).unwrap_or("?");
        out.push_str(&format!("  {doc} {}\n", i.incident));
    }
    out
}

fn run_display(a: DisplayArgs) -> Result<ExitCode, Failure> {
    let store = a.against.store()?;
    let trust = a.against.trust(Trust::default())?;
    let bundle = read_document(&a.bundle)?;
    let view_bytes = read_document(&a.display)?;
    let now = a.now.unwrap_or_else(crate::cmd::now);
    let report = verify_bundle(&bundle, &view_bytes, &store, &trust, now);
    // Only a view that verified is shown: an unverified one may carry what the gates withhold
    // (a restricted passage beside "source restricted by the person's instructions").
    let view: Option<DisplayView> = if report.verdict.verified {
        parse_strict(&view_bytes)
            .ok()
            .and_then(|v| citeproof_model::typed(&v).ok())
    } else {
        None
    };
    let ok = view.is_some();
    if a.json {
        crate::out::json_report(
            "archive display",
            ok,
            &report.verdict.incidents,
            &json!({ "view": view, "report": report }),
        )?;
    } else {
        match &view {
            Some(v) => crate::out::print(&render(v))?,
            None => crate::out::print(&format!(
                "display view -> NOT VERIFIED against its bundle and the archive: not shown\n{}",
                verify::incident_lines(&report)
            ))?,
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn render(v: &DisplayView) -> String {
    let mut out = format!("[tier: {}]\n", v.tier);
    if v.downgrade.is_some() {
        out.push_str(DOWNGRADED);
    }
    for c in &v.claims {
        out.push_str(&format!("\n{}\n", c.text));
        if c.general_context {
            out.push_str(&format!("  ⚠ {GENERAL_CONTEXT}\n"));
        }
        if let Some(label) = c.label.as_deref().filter(|l| *l != GENERAL_CONTEXT) {
            out.push_str(&format!("  ⚠ {label}\n"));
        }
        for d in &c.citations {
            if d.restricted {
                out.push_str(&format!(
                    "  {} ({}): {RESTRICTED}\n",
                    d.handle,
                    d.relation_label.as_str()
                ));
            } else if let Some(e) = &d.excerpt {
                out.push_str(&format!(
                    "  {} ({}): \"{e}\"\n",
                    d.handle,
                    d.relation_label.as_str()
                ));
            } else {
                out.push_str(&format!("  {} ({})\n", d.handle, d.relation_label.as_str()));
            }
        }
    }
    if !v.removed_topics.is_empty() {
        out.push_str("\nRemoved from this answer:\n");
        for t in &v.removed_topics {
            let why = match t.reason {
                RemovedReason::NoCoverage => "not in the archive",
                RemovedReason::ThinCoverage => "too little in the archive",
            };
            out.push_str(&format!("  - {} ({why})\n", t.topic));
        }
    }
    if let Some(r) = &v.refusal {
        match r.reason {
            RefusalReason::Coverage => out.push_str(&format!("\n{INVENTORY}\n")),
            RefusalReason::Category => {
                let why = match r.category {
                    Some(RefusalCategory::PostDeathEvents) => {
                        "Their archive does not extend past their death. I cannot speak to anything after that."
                    }
                    Some(RefusalCategory::GeneralWorldKnowledge) => {
                        "I am not a general assistant: I can only speak from the archive."
                    }
                    _ => "I cannot answer that.",
                };
                out.push_str(&format!("\n{why}\n"));
            }
        }
    }
    out
}

fn parse_head(text: &str) -> Result<(u64, ContentHash), Failure> {
    let bad = || Failure::Usage(format!("--head `{text}`: expected SEQ:sha256:HEX"));
    let (seq, hash) = text.split_once(':').ok_or_else(bad)?;
    Ok((
        seq.parse().map_err(|_| bad())?,
        hash.parse().map_err(|_| bad())?,
    ))
}

fn run_log(a: LogArgs) -> Result<ExitCode, Failure> {
    let store = load_store(&a.archive)?;
    let log = read_limited(&a.log, citeproof_archive::log::MAX_LOG_BYTES)?;
    let bundles = a
        .bundles
        .iter()
        .map(|b| read_document(b))
        .collect::<Result<Vec<_>, _>>()?;
    let head = a.head.as_deref().map(parse_head).transpose()?;
    let now = a.now.unwrap_or_else(crate::cmd::now);
    let report = verify_log(&log, &store, &bundles, &LogOptions { now, head });
    let errors = report
        .incidents
        .iter()
        .any(|i| i.incident.severity == Severity::Error);
    if a.json {
        crate::out::json_report("archive log-verify", !errors, &report.incidents, &report)?;
    } else {
        let mut out = format!("log: {} records\n", report.records);
        match &report.head {
            // A head is worth keeping only when the log it anchors verified.
            Some((seq, hash)) if !errors => out.push_str(&format!(
                "head: {seq}:{hash} (keep it to verify the next time)\n"
            )),
            Some(_) => {
                out.push_str("head: none to keep (the log did not verify; keep the head you had)\n")
            }
            None => {}
        }
        let c = &report.counts;
        out.push_str(&format!(
            "{}bundles: {} ({} answered, {} refused by category, {} refused for coverage); context requests: {}; extraction risks: {}\n",
            if errors { "as recorded, not verified: " } else { "" },
            c.bundles, c.answered, c.refused_category, c.refused_coverage, c.context_requests, c.extraction_risks
        ));
        out.push_str(if errors {
            "log -> NOT VERIFIED\n"
        } else {
            "log -> VERIFIED\n"
        });
        out.push_str(&incident_lines(&report.incidents));
        crate::out::print(&out)?;
    }
    Ok(if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
