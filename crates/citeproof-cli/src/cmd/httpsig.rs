//! `citeproof httpsig verify --message FILE --key PUB [--label L] [--now UNIX] [--max-age S]
//! [--verbose] [--json]`: verifies the RFC 9421 signatures of any HTTP/1.1 request or response
//! in a file (LF or CRLF line endings) with citeproof's one verifier
//! ([`citeproof_httpsig::verify_message`], the one ACA Level 3 uses): valid when one signature
//! passes every check; each label's outcome is printed.

use std::process::ExitCode;

use citeproof_httpsig::{
    LabelFailure, MessageReport, SingleKey, VerifyPolicy, parse_http1, verify_label,
    verify_message, verifying_key_from_bytes,
};
use serde::Serialize;

use super::Failure;
use crate::input::{display, read_limited};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Verify the signatures of an HTTP message. Exit 0 valid, 1 invalid, 2 usage error.
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The HTTP/1.1 message (start line, header fields, empty line, content).
    #[arg(long)]
    message: String,
    /// Public key: SPKI PEM, a JWK or a JWK Set with one key.
    #[arg(long)]
    key: String,
    /// Verify only this signature label (default: valid when any label verifies).
    #[arg(long)]
    label: Option<String>,
    /// Verification time, Unix seconds (default: now); `created` may be at most 300 s after it.
    #[arg(long)]
    now: Option<i64>,
    /// Refuse a signature whose `created` is more than S seconds before the verification time.
    #[arg(long, value_name = "S")]
    max_age: Option<u64>,
    /// Print the signature base of the signature that verified.
    #[arg(long)]
    verbose: bool,
    /// Print JSON: `command`, `ok`, `incidents` (one per failing label), `labels`.
    #[arg(long)]
    json: bool,
}

/// One label's outcome, as printed.
#[derive(Debug, Serialize)]
struct LabelLine {
    label: String,
    keyid: Option<String>,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    signature_base: Option<String>,
}

#[derive(Debug, Serialize)]
struct Incident {
    code: &'static str,
    message: String,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let What::Verify(a) = args.what;
    let bytes = read_limited(&a.message, 16 * 1024 * 1024)?;
    let message = parse_http1(&bytes).map_err(|e| {
        Failure::Invalid(format!(
            "{}: not an HTTP/1.1 message: {e} [{}]",
            display(&a.message),
            e.code()
        ))
    })?;
    let key_bytes = read_limited(&a.key, citeproof_jose::MAX_KEY_INPUT_BYTES)?;
    let keys = citeproof_jose::load_public_keys(&key_bytes)
        .map_err(|e| Failure::Usage(format!("{}: {e} [{}]", a.key, e.code())))?;
    let [entry] = keys.entries() else {
        return Err(Failure::Usage(format!(
            "{}: give exactly one public key",
            a.key
        )));
    };
    let key = verifying_key_from_bytes(&entry.key.to_bytes())
        .map_err(|e| Failure::Usage(format!("{}: {e}", a.key)))?;
    let policy = VerifyPolicy {
        max_age: a.max_age,
        ..VerifyPolicy::default()
    };
    let now = a.now.unwrap_or_else(super::now);
    let keys = SingleKey(key);
    let result = match a.label.as_deref() {
        Some(label) => verify_label(&message, &keys, &policy, now, label),
        None => verify_message(&message, &keys, &policy, now),
    };
    let (lines, field_error) = match result {
        Ok(report) => (label_lines(&report, a.verbose), None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let ok = lines.iter().any(|l| l.valid);
    let mut incidents: Vec<Incident> = lines
        .iter()
        .filter_map(|l| {
            Some(Incident {
                code: l.code?,
                message: l.message.clone()?,
            })
        })
        .collect();
    if let Some(e) = &field_error {
        incidents.push(Incident {
            code: e.code(),
            message: e.to_string(),
        });
    }
    if a.json {
        crate::out::json_report(
            "httpsig verify",
            ok,
            &incidents,
            &serde_json::json!({ "labels": lines }),
        )?;
    } else {
        let mut text = String::new();
        for l in &lines {
            if l.valid {
                if let Some(base) = &l.signature_base {
                    text.push_str(&format!("signature base of `{}`:\n{base}\n\n", l.label));
                }
                text.push_str(&format!(
                    "valid: signature `{}` (keyid {})\n",
                    l.label,
                    l.keyid.as_deref().unwrap_or("-")
                ));
            }
        }
        for i in &incidents {
            text.push_str(&format!("invalid: {} [{}]\n", i.message, i.code));
        }
        crate::out::print(&text)?;
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn label_lines(report: &MessageReport, verbose: bool) -> Vec<LabelLine> {
    report
        .labels
        .iter()
        .map(|l| match &l.outcome {
            Ok(v) => LabelLine {
                label: l.label.clone(),
                keyid: l.keyid.clone(),
                valid: true,
                code: None,
                message: None,
                signature_base: verbose.then(|| v.signature_base.clone()),
            },
            Err(failure @ LabelFailure::Failed(e)) => LabelLine {
                label: l.label.clone(),
                keyid: l.keyid.clone(),
                valid: false,
                code: Some(e.code()),
                message: Some(failure.describe(&l.label)),
                signature_base: None,
            },
            Err(LabelFailure::KeyAlreadyReported) => LabelLine {
                label: l.label.clone(),
                keyid: l.keyid.clone(),
                valid: false,
                code: None,
                message: None,
                signature_base: None,
            },
        })
        .collect()
}
