//! `citeproof httpsig verify --message FILE (--key PUB | --trust FILE) [--label L] [--now TIME]
//! [--max-age S] [--verbose] [--json]`: verifies the RFC 9421 signatures of any HTTP/1.1
//! request or response in a file (LF or CRLF line endings) with citeproof's one verifier
//! ([`citeproof_httpsig::verify_message`], the one ACA Level 3 uses): verified when one
//! signature passes every check; each label's outcome is printed. The options and exit
//! statuses of every `verify` (`common`).

use std::process::ExitCode;

use citeproof_httpsig::{
    KeyMiss, KeyResolver, LabelFailure, MessageReport, SingleKey, VerifyPolicy, VerifyingKey,
    parse_http1, verify_label, verify_message, verifying_key_from_bytes,
};
use citeproof_model::Outcome;
use serde::Serialize;

use super::Failure;
use crate::cmd::common::{VerifyCommon, exit_code};
use crate::input::{display, read_limited};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Verify the signatures of an HTTP message. Exit 0 verified, 1 not verified, 2 usage
    /// error, 3 could not check (an input that cannot be read).
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The HTTP/1.1 message (start line, header fields, empty line, content).
    #[arg(long)]
    message: String,
    /// Public key for every `keyid`: SPKI PEM, a JWK or a JWK Set with one key (a shorthand
    /// for `--trust`, which names keys by `kid`).
    #[arg(long)]
    key: Option<String>,
    /// Verify only this signature label (default: verified when any label verifies).
    #[arg(long)]
    label: Option<String>,
    /// Refuse a signature whose `created` is more than S seconds before the verification time.
    #[arg(long, value_name = "S")]
    max_age: Option<u64>,
    /// Print the signature base of every label whose covered components could be read, failed
    /// ones included (what to compare with the base that was signed).
    #[arg(long)]
    verbose: bool,
    /// `--now` (`created` may be at most 300 s after it), `--trust` (the Ed25519 keys of its
    /// signers, found by the signature's `keyid` = the key's `kid`), `--json` (`command`, `ok`,
    /// `outcome`, `incidents` (one per failing label), `labels`).
    #[command(flatten)]
    common: VerifyCommon,
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

/// The keys of a trust file, found by `kid`: a signature's `keyid` selects the one configured
/// key with that `kid` (trust comes from the file, never from the message).
struct TrustKeys(Vec<(String, VerifyingKey)>);

impl KeyResolver for TrustKeys {
    fn resolve(&self, keyid: Option<&str>) -> Result<VerifyingKey, KeyMiss> {
        let Some(keyid) = keyid else {
            return Err(KeyMiss::Unresolved(
                "the signature has no keyid, and the trust file names its keys by kid".into(),
            ));
        };
        let mut found = self
            .0
            .iter()
            .filter(|(kid, _)| kid == keyid)
            .map(|(_, k)| k);
        match (found.next(), found.next()) {
            (Some(key), None) => Ok(*key),
            (None, _) => Err(KeyMiss::Unresolved(format!(
                "no key with kid `{keyid}` in the trust file"
            ))),
            (Some(_), Some(_)) => Err(KeyMiss::Unresolved(format!(
                "several keys of the trust file have the kid `{keyid}`"
            ))),
        }
    }
}

/// `--key` (one key for every keyid), else the keys of `--trust` by kid.
fn resolver(a: &VerifyArgs) -> Result<Box<dyn KeyResolver>, Failure> {
    if let Some(path) = &a.key {
        let key_bytes = read_limited(path, citeproof_jose::MAX_KEY_INPUT_BYTES)?;
        let keys = citeproof_jose::load_public_keys(&key_bytes)
            .map_err(|e| Failure::Usage(format!("{path}: {e} [{}]", e.code())))?;
        let [entry] = keys.entries() else {
            return Err(Failure::Usage(format!(
                "{path}: give exactly one public key"
            )));
        };
        let key = verifying_key_from_bytes(&entry.key.to_bytes())
            .map_err(|e| Failure::Usage(format!("{path}: {e}")))?;
        return Ok(Box::new(SingleKey(key)));
    }
    if a.common.trust.is_none() {
        return Err(Failure::Usage(
            "give the public key: --key FILE, or --trust FILE (keys by kid)".into(),
        ));
    }
    let trust = a.common.load_trust()?;
    let mut keys = Vec::new();
    for signer in trust.signers() {
        let Some(Ok(set)) = trust.keys(signer) else {
            continue;
        };
        for entry in set.entries() {
            let (Some(kid), Ok(key)) =
                (&entry.kid, verifying_key_from_bytes(&entry.key.to_bytes()))
            else {
                continue;
            };
            keys.push((kid.clone(), key));
        }
    }
    Ok(Box::new(TrustKeys(keys)))
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let What::Verify(a) = args.what;
    // A message is not the subject of a spec: there is no report to record or render. Refused
    // rather than ignored, so nobody believes a verification was kept.
    if a.common.record.record.is_some() || a.common.record.report.is_some() {
        return Err(Failure::Usage(
            "httpsig verify does not record (--record) or write reports (--report): it checks one HTTP message, not a spec's subject; record the aca verify of the response instead".into(),
        ));
    }
    let keys = resolver(&a)?;
    let bytes = read_limited(&a.message, 16 * 1024 * 1024)?;
    let message = parse_http1(&bytes).map_err(|e| {
        Failure::Invalid(format!(
            "{}: not an HTTP/1.1 message: {e} [{}]",
            display(&a.message),
            e.code()
        ))
    })?;
    let policy = VerifyPolicy {
        max_age: a.max_age,
        ..VerifyPolicy::default()
    };
    let now = a.common.time();
    let result = match a.label.as_deref() {
        Some(label) => verify_label(&message, keys.as_ref(), &policy, now, label),
        None => verify_message(&message, keys.as_ref(), &policy, now),
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
    let outcome = if ok {
        Outcome::Verified
    } else {
        Outcome::NotVerified
    };
    if a.common.json {
        crate::out::json_report(
            "httpsig verify",
            ok,
            &incidents,
            &serde_json::json!({ "outcome": outcome, "labels": lines }),
        )?;
    } else {
        crate::out::print(&readable(&lines, &incidents, ok))?;
    }
    Ok(exit_code(outcome))
}

/// The verdict line (the words of every `verify`; a message has no levels), then each label:
/// its signature base (with `--verbose`), and whether it verified.
fn readable(lines: &[LabelLine], incidents: &[Incident], ok: bool) -> String {
    let verified = lines.iter().filter(|l| l.valid).count();
    let mut text = format!(
        "signatures verified: {verified} of {} examined -> {}\n",
        lines.len(),
        if ok { "VERIFIED" } else { "NOT VERIFIED" }
    );
    for l in lines {
        if let Some(base) = &l.signature_base {
            text.push_str(&format!("signature base of `{}`:\n{base}\n\n", l.label));
        }
        if l.valid {
            text.push_str(&format!(
                "valid: signature `{}` (keyid {})\n",
                l.label,
                l.keyid.as_deref().unwrap_or("-")
            ));
        }
    }
    for i in incidents {
        text.push_str(&format!("invalid: {} [{}]\n", i.message, i.code));
    }
    text
}

fn label_lines(report: &MessageReport, verbose: bool) -> Vec<LabelLine> {
    report
        .labels
        .iter()
        .map(|l| {
            let (valid, code, message) = match &l.outcome {
                Ok(_) => (true, None, None),
                Err(failure @ LabelFailure::Failed(e)) => {
                    (false, Some(e.code()), Some(failure.describe(&l.label)))
                }
                Err(LabelFailure::KeyAlreadyReported) => (false, None, None),
            };
            LabelLine {
                label: l.label.clone(),
                keyid: l.keyid.clone(),
                valid,
                code,
                message,
                signature_base: if verbose {
                    l.signature_base.clone()
                } else {
                    None
                },
            }
        })
        .collect()
}
