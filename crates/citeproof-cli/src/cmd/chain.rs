//! `citeproof chain id|sign|verify`: citation-chain envelopes (seed 004, profile CHAIN-*).
//!
//! - `id CLAIM.json`: the content-addressed claim id (CHAIN-002) of a claim or an envelope;
//!   exit 1 when the claim carries another id.
//! - `sign CLAIM.json (--hmac-key-file F | --key KEY.pem) --signed-by ID [--signed-at T]`: the
//!   envelope in the seed's shape, signed over the `seed-python` input.
//! - `verify FILE | --batch LIST [--hmac-key-file F]... [--key PUB|JWKS]... [--signed-by ID]
//!   [--trust FILE] [--offline | --level N] [--snapshot FILE] [--now TIME]
//!   [--accept-partial-signature] [--json] [--record DB] [--report FORMAT --out FILE]`: an envelope or a chain response, with the options and exit statuses of every
//!   `verify` (`common`): 0 verified (the required level, 2 or 1 with `--offline`, met and no
//!   envelope partially signed), 1 not verified, 2 usage error, 3 could not check. Without `--signed-by`, one secret or one key file is
//!   tried for any signer (as the seed's `verify_chain(envelope, shared_secret)`), and the
//!   report says so. A partially signed envelope is never verified: by default it reaches no
//!   level; with `--accept-partial-signature` it reaches the level, ACCEPTED, PARTIALLY SIGNED
//!   (the JSON `accepted`), and is still not verified (exit 1).

use std::process::ExitCode;

use citeproof_chain::refs::{escape, escape_invisible};
use citeproof_chain::report::{ChainReport, EnvelopeReport, Freshness, SignatureStatus};
use citeproof_chain::sign::{SignError, claim_id_of};
use citeproof_chain::{SignKey, SignOptions, TrustConfig, VerifyOptions};
use citeproof_fetch::{FetchPolicy, Fetcher, HttpFetcher, SnapshotFetcher, parse_snapshot};
use citeproof_jose::{load_public_keys, load_signing_key};
use citeproof_model::{Incident, Timestamp};
use serde_json::json;

use crate::cmd::common::{VerifyCommon, file_subject, push_incidents, verdict_line};
use crate::cmd::{Failure, batch};
use crate::input::{display, read_document, read_limited};

/// Largest secret or key file read.
const MAX_KEY_FILE_BYTES: usize = 64 * 1024;

/// Largest JSON web snapshot read (FETCH-008).
const MAX_SNAPSHOT_BYTES: usize = 256 * 1024 * 1024;

#[derive(Debug, clap::Subcommand)]
pub enum Verb {
    /// Print the content-addressed id of a claim (or of an envelope's claim).
    Id(IdArgs),
    /// Build and sign an envelope from a claim (HMAC-SHA256 or Ed25519).
    Sign(SignArgs),
    /// Verify an envelope or a chain response (answer + chains), Level 1 offline, Level 2 online.
    Verify(VerifyArgs),
}

pub fn run(verb: Verb) -> Result<ExitCode, Failure> {
    match verb {
        Verb::Id(a) => id(a),
        Verb::Sign(a) => sign(a),
        Verb::Verify(a) => verify(a),
    }
}

#[derive(Debug, clap::Args)]
pub struct IdArgs {
    /// Claim (or envelope) JSON file, or `-` for standard input.
    file: String,
    /// Print `{"command":"chain id","ok":..,"incidents":[..],"id":..,"written_id":..}`.
    #[arg(long)]
    json: bool,
}

/// One line per incident: `FILE: [code] at POINTER (byte N): message`.
fn incident_lines(file: &str, incidents: &[Incident]) -> String {
    incidents
        .iter()
        .map(|i| {
            let mut at = String::new();
            if let Some(p) = &i.location.pointer {
                at.push_str(&format!(" at {}", if p.is_empty() { "/" } else { p }));
            }
            if let Some(o) = i.location.offset {
                at.push_str(&format!(" (byte {o})"));
            }
            format!("{}: [{}]{at}: {}", display(file), i.code, i.message)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn sign_failure(file: &str, e: &SignError) -> Failure {
    let incidents = e.incidents();
    if incidents.is_empty() {
        Failure::Invalid(format!("{}: {e}", display(file)))
    } else {
        Failure::Invalid(incident_lines(file, &incidents))
    }
}

/// The `--json` answer of a `chain id` or `chain sign` that failed: the error's incidents and
/// exit status 1.
fn failed_json(command: &str, e: &SignError) -> Result<ExitCode, Failure> {
    let error = json!({ "error": e.to_string() });
    crate::out::json_report(command, false, &e.incidents(), &error)?;
    Ok(ExitCode::from(1))
}

fn id(args: IdArgs) -> Result<ExitCode, Failure> {
    let bytes = read_document(&args.file)?;
    let (id, written) = match claim_id_of(&bytes) {
        Ok(r) => r,
        Err(e) if args.json => return failed_json("chain id", &e),
        Err(e) => return Err(sign_failure(&args.file, &e)),
    };
    let matches = written.as_ref().is_none_or(|w| *w == id);
    if args.json {
        crate::out::json_report(
            "chain id",
            matches,
            &crate::out::NO_INCIDENTS,
            &json!({ "id": id, "written_id": written }),
        )?;
    } else {
        crate::out::println(&id)?;
        if !matches {
            eprintln!(
                "citeproof: {}: the claim's id `{}` differs from its computed id {id} [chain-id-mismatch]",
                display(&args.file),
                written.as_deref().unwrap_or_default()
            );
        }
    }
    Ok(if matches {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[derive(Debug, clap::Args)]
pub struct SignArgs {
    /// Claim JSON file (vertical, subject, predicate, object, sources, ...), or `-`.
    file: String,
    /// HMAC-SHA256: a file holding the shared secret (UTF-8; one trailing newline is removed).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "key",
        conflicts_with = "key"
    )]
    hmac_key_file: Option<String>,
    /// Ed25519: a private key (PKCS#8 PEM or private JWK).
    #[arg(long, value_name = "KEY")]
    key: Option<String>,
    /// `signature.signedBy`, e.g. `did:web:example.org`.
    #[arg(long, value_name = "ID")]
    signed_by: String,
    /// `signature.signedAt` (RFC 3339; default: now).
    #[arg(long, value_name = "TIMESTAMP")]
    signed_at: Option<String>,
    /// Canonical URLs are BASE<id>/ (default for a did:web signer: https://<host>/claims/).
    #[arg(long, value_name = "BASE")]
    canonical_base: Option<String>,
    /// `methodology` URL (default for a did:web signer: https://<host>/methodology/).
    #[arg(long, value_name = "URL")]
    methodology: Option<String>,
    /// Also write the envelope to FILE (exactly the bytes printed without --json).
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// Print `{"command":"chain sign",...,"claim_id","signature","envelope"}`.
    #[arg(long)]
    json: bool,
}

/// A secret file: UTF-8, one trailing LF (or CRLF) removed, not empty.
fn read_secret(path: &str) -> Result<String, Failure> {
    let bytes = read_limited(path, MAX_KEY_FILE_BYTES)?;
    let mut text = String::from_utf8(bytes)
        .map_err(|_| Failure::Usage(format!("{}: the secret is not UTF-8", display(path))))?;
    if text.ends_with('\n') {
        text.pop();
        if text.ends_with('\r') {
            text.pop();
        }
    }
    if text.is_empty() {
        return Err(Failure::Usage(format!(
            "{}: the secret is empty",
            display(path)
        )));
    }
    Ok(text)
}

fn sign(args: SignArgs) -> Result<ExitCode, Failure> {
    let bytes = read_document(&args.file)?;
    let signed_at = match &args.signed_at {
        Some(t) => t.clone(),
        None => Timestamp::from_unix(crate::cmd::now())
            .map_err(Failure::Usage)?
            .as_str()
            .to_owned(),
    };
    let options = SignOptions {
        signed_by: args.signed_by.clone(),
        signed_at,
        canonical_base: args.canonical_base.clone(),
        methodology: args.methodology.clone(),
    };
    let secret;
    let signing_key;
    let key = match (&args.hmac_key_file, &args.key) {
        (Some(f), _) => {
            secret = read_secret(f)?;
            SignKey::Hmac(&secret)
        }
        (None, Some(k)) => {
            let text = read_limited(k, MAX_KEY_FILE_BYTES)?;
            signing_key = load_signing_key(&text)
                .map_err(|e| Failure::Usage(format!("{}: [{}] {e}", display(k), e.code())))?;
            SignKey::Ed25519(&signing_key)
        }
        (None, None) => {
            return Err(Failure::Usage(
                "give --hmac-key-file FILE or --key KEY".into(),
            ));
        }
    };
    let signed = match citeproof_chain::sign(&bytes, key, &options) {
        Ok(s) => s,
        Err(
            e @ (SignError::WeakSecret(_) | SignError::NoCanonicalBase(_) | SignError::SignedAt(_)),
        ) => {
            return Err(Failure::Usage(e.to_string()));
        }
        Err(e) if args.json => return failed_json("chain sign", &e),
        Err(e) => return Err(sign_failure(&args.file, &e)),
    };
    if let Some(path) = &args.out {
        std::fs::write(path, format!("{}\n", signed.envelope))
            .map_err(|e| Failure::Usage(format!("cannot write {path}: {e}")))?;
    }
    if args.json {
        let envelope: serde_json::Value = serde_json::from_str(&signed.envelope)
            .map_err(|e| Failure::Usage(format!("cannot read back the envelope: {e}")))?;
        crate::out::json_done(
            "chain sign",
            &json!({ "claim_id": signed.claim_id, "signature": signed.signature, "envelope": envelope }),
        )?;
    } else {
        crate::out::println(&signed.envelope)?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Envelope or chain response (`{"answer","chains"}`) JSON file, or `-`.
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    file: Option<String>,
    /// Verify every envelope or chain response listed in FILE (`-`: stdin), one path a line,
    /// on every core, with the same options; prints one JSON line per file (the `--json`
    /// object plus `input` and `line`), in input order. Exit status: the worst over the lines.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    /// An HMAC-SHA256 secret of the signer named by --signed-by (repeatable: rotated secrets).
    /// Without --signed-by, one secret may be given: it is tried for any signer.
    #[arg(long, value_name = "FILE")]
    hmac_key_file: Vec<String>,
    /// Ed25519 public keys of the signer named by --signed-by: SPKI PEM, JWK or JWK Set
    /// (repeatable). Without --signed-by, one key file may be given: tried for any signer.
    #[arg(long, value_name = "PUB|JWKS")]
    key: Vec<String>,
    /// The signer id (`signedBy`) the given secrets and keys belong to: trust comes from your
    /// configuration, never from the envelope.
    #[arg(long, value_name = "ID")]
    signed_by: Option<String>,
    /// Let a partially signed envelope (its signature verifies only under the producer's
    /// `deployed-js` input, which leaves the sources, tags, lastVerified, signedAt and signedBy
    /// unsigned) reach the level (CHAIN-015). It is still reported PARTIALLY SIGNED, never
    /// VERIFIED, with its unsigned members listed.
    #[arg(long)]
    accept_partial_signature: bool,
    /// Level 1 only: no network (envelope, id, signature, answer references).
    #[arg(long, conflicts_with_all = ["level", "snapshot"])]
    offline: bool,
    /// Level to check and require (1 or 2; default 2).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    level: Option<u8>,
    /// Answer Level 2 fetches from a web snapshot (JSON) instead of the network.
    #[arg(long, value_name = "FILE")]
    snapshot: Option<String>,
    /// Allow loopback and private addresses (local tests); link-local stays refused.
    #[arg(long)]
    allow_private: bool,
    /// `--now` (decides staleness, CHAIN-010, and dates in the future, CHAIN-016), `--trust`
    /// (secrets and keys of several signers: `{"secrets": {ID: [secret...]}, "keys": {ID:
    /// JWKS}}`), `--json` (the common report: `spec`, `subject`, `level`, `required_level`,
    /// `verified` (the level met and no envelope partially signed), `incidents`, `outcome`,
    /// `trust`, `items`, and the chain's `document`, `accepted` (the level met),
    /// `envelopes` (signing input, key, verdict, `unsigned` members, `freshness`) and
    /// `references`).
    #[command(flatten)]
    common: VerifyCommon,
}

/// The trust file (`--trust`), then the secrets and keys given as flags (shorthands).
fn trust_from_args(args: &VerifyArgs) -> Result<TrustConfig, Failure> {
    let mut trust = TrustConfig::from(args.common.load_trust()?);
    let load = |k: &String| -> Result<_, Failure> {
        let bytes = read_limited(k, MAX_KEY_FILE_BYTES)?;
        load_public_keys(&bytes)
            .map_err(|e| Failure::Usage(format!("{}: [{}] {e}", display(k), e.code())))
    };
    match &args.signed_by {
        Some(signer) => {
            for f in &args.hmac_key_file {
                trust.add_secret(signer, &read_secret(f)?);
            }
            for k in &args.key {
                trust.add_keys(signer, load(k)?);
            }
        }
        // One secret or one key file without a signer: tried for any signer, as the seed's
        // `verify_chain(envelope, shared_secret)` does; the report names it `(any signer)`.
        None if args.hmac_key_file.len() + args.key.len() > 1 => {
            return Err(Failure::Usage(
                "several secrets or key files: name their signer with --signed-by (or use --trust)"
                    .into(),
            ));
        }
        None => {
            if let Some(f) = args.hmac_key_file.first() {
                trust.add_secret_for_any_signer(&read_secret(f)?);
            }
            if let Some(k) = args.key.first() {
                trust
                    .add_keys_for_any_signer(load(k)?)
                    .map_err(|e| Failure::Usage(format!("{}: {e}", display(k))))?;
            }
        }
    }
    Ok(trust)
}

fn verify(args: VerifyArgs) -> Result<ExitCode, Failure> {
    let trust = trust_from_args(&args)?;
    let level = if args.offline {
        1
    } else {
        args.level.unwrap_or(2)
    };
    let mut options = VerifyOptions::new(args.common.time(), level, trust);
    options.accept_partial_signature = args.accept_partial_signature;
    let fetcher = fetcher(&args)?;
    let verify_file = |file: &str| -> Result<ChainReport, Failure> {
        let bytes = read_document(file)?;
        let mut report = citeproof_chain::verify(&bytes, fetcher.as_ref(), &options);
        report.subject = file_subject(file, &bytes);
        Ok(report)
    };
    if let Some(list) = &args.batch {
        let in_batch = |file: &str| verify_file(batch::file_line(file)?);
        let digest = |path: &String| -> Result<String, Failure> {
            Ok(citeproof_model::sha256_bytes(&read_limited(path, MAX_SNAPSHOT_BYTES)?).to_string())
        };
        let digests = |paths: &[String]| paths.iter().map(digest).collect::<Result<Vec<_>, _>>();
        let configuration = json!({
            "hmac_key_file": digests(&args.hmac_key_file)?, "key": digests(&args.key)?,
            "signed_by": args.signed_by, "accept_partial_signature": args.accept_partial_signature,
            "level": level, "snapshot": args.snapshot.as_ref().map(digest).transpose()?,
            "allow_private": args.allow_private, "now": args.common.now,
            "trust": args.common.trust.as_ref().map(digest).transpose()?,
        });
        let mut settle =
            batch::recorder(citeproof_chain::SPEC.name(), &args.common, configuration)?;
        return batch::run("chain verify", list, in_batch, &mut settle);
    }
    let file = args.file.as_deref().unwrap_or("-");
    let report = verify_file(file)?;
    crate::cmd::record::finish("chain verify", &report, &args.common, || {
        readable(file, &report)
    })
}

/// The network, or the snapshot given; a snapshot that cannot be read or is not one leaves
/// nothing to check against (exit 3).
fn fetcher(args: &VerifyArgs) -> Result<Box<dyn Fetcher + Sync>, Failure> {
    let policy = FetchPolicy {
        allow_private: args.allow_private,
        ..FetchPolicy::default()
    };
    let Some(path) = &args.snapshot else {
        return Ok(Box::new(HttpFetcher::new(policy)));
    };
    let unreadable =
        |code: &str, e: String| Failure::Unreadable(format!("{}: [{code}] {e}", display(path)));
    let snapshot_bytes = read_limited(path, MAX_SNAPSHOT_BYTES)?;
    let snapshot =
        parse_snapshot(&snapshot_bytes).map_err(|e| unreadable(e.code(), e.to_string()))?;
    let fetcher =
        SnapshotFetcher::new(&snapshot, policy).map_err(|e| unreadable(e.code(), e.to_string()))?;
    Ok(Box::new(fetcher))
}

/// The verdict line (the common one, with what a partial signature adds): VERIFIED only when
/// the level is met and no envelope is partially signed.
fn verdict_text(r: &ChainReport) -> String {
    let partial = r
        .details
        .envelopes
        .iter()
        .filter(|e| e.verdict == citeproof_chain::Verdict::PartiallySigned)
        .count();
    let envelopes = if partial == 1 {
        "1 envelope".to_owned()
    } else {
        format!("{partial} envelopes")
    };
    if r.verdict.verified {
        verdict_line(r)
    } else if r.details.accepted {
        format!(
            "{} (ACCEPTED, PARTIALLY SIGNED: {envelopes} signed only in part, accepted by --accept-partial-signature)",
            verdict_line(r)
        )
    } else if partial > 0 && r.verdict.level == 0 {
        format!(
            "{} ({envelopes} signed only in part; see the unsigned members)",
            verdict_line(r)
        )
    } else {
        verdict_line(r)
    }
}

fn signature_line(e: &EnvelopeReport) -> String {
    let alg = e.algorithm.map(|a| a.as_str()).unwrap_or("?");
    // signedBy is the document's: escaped so that it cannot print a line of its own.
    let by = escape(e.signed_by.as_deref().unwrap_or("?"));
    let input = e.signing_input.map(|i| i.as_str()).unwrap_or("?");
    let key = e.key_used.as_deref().unwrap_or("?");
    let status = match e.signature {
        SignatureStatus::Verified if e.unsigned.is_empty() => {
            format!("verified over {input} with {key}")
        }
        SignatureStatus::Verified => format!(
            "PARTIAL: matches over {input} with {key}, which leaves {} members unsigned",
            e.unsigned.len()
        ),
        SignatureStatus::Invalid => "INVALID".into(),
        SignatureStatus::KeyUnresolved => "no key configured for this signer".into(),
        SignatureStatus::NotChecked => "not checked".into(),
    };
    format!("  signature: {alg} by `{by}`: {status}\n")
}

fn freshness_line(e: &EnvelopeReport) -> String {
    match (e.freshness, &e.fresh_as_of) {
        (Freshness::Fresh, Some(f)) => format!("  last verified: {f} (signed)\n"),
        (Freshness::Stale, Some(f)) => format!("  last verified: {f} (signed): STALE\n"),
        _ if !e.unsigned.is_empty() => {
            "  freshness: cannot be judged (lastVerified and signedAt are unsigned)\n".into()
        }
        _ if e.signature != SignatureStatus::Verified => {
            "  freshness: not judged (the signature did not verify)\n".into()
        }
        _ => "  freshness: not judged (no date the signature covers)\n".into(),
    }
}

fn envelope_lines(e: &EnvelopeReport) -> String {
    let mut out = String::new();
    let name = e.key.as_deref().or(e.claim_id.as_deref()).unwrap_or("?");
    out.push_str(&format!(
        "\nenvelope {} [{}]\n",
        escape(name),
        e.verdict.as_str()
    ));
    if let (Some(id), Some(computed)) = (&e.claim_id, &e.computed_id) {
        let same = if id == computed { "matches" } else { "DIFFERS" };
        out.push_str(&format!("  id: {id} (computed {computed}: {same})\n"));
    }
    out.push_str(&signature_line(e));
    if !e.unsigned.is_empty() {
        out.push_str(&format!(
            "  UNSIGNED (anyone could have changed them): {}\n",
            e.unsigned.join(", ")
        ));
    }
    out.push_str(&freshness_line(e));
    if let Some(c) = &e.canonical {
        let seen = match e.canonical_contains_id {
            Some(true) => " (shows the id)",
            Some(false) => " (does NOT show the id)",
            None => "",
        };
        out.push_str(&format!("  canonical: {c}{seen}\n"));
    }
    if let Some(s) = &e.reachable_source {
        let note = if e.unsigned.iter().any(|u| u.ends_with("/url")) {
            " (source URLs are unsigned)"
        } else {
            ""
        };
        out.push_str(&format!("  reachable source: {s}{note}\n"));
    }
    out
}

fn readable(file: &str, r: &ChainReport) -> String {
    let mut out = String::new();
    out.push_str(&verdict_text(r));
    out.push('\n');
    out.push_str(&format!(
        "{}: chain {}\n",
        display(file),
        r.details.document
    ));
    for e in &r.details.envelopes {
        out.push_str(&envelope_lines(e));
    }
    if !r.details.references.is_empty() {
        out.push_str("\nanswer references:\n");
        for x in &r.details.references {
            out.push_str(&format!(
                "  [{}] at {}: {}\n",
                escape(&x.text),
                x.offset,
                x.verdict.as_str()
            ));
        }
    } else if r.details.document == "response" {
        out.push_str("\nanswer references: none (nothing in the answer was verified)\n");
    }
    out.push('\n');
    // Messages quote the document (member names, values): never let them break a line.
    push_incidents(&mut out, &r.verdict.incidents, |i| {
        format!("L{} {}", i.level, escape_invisible(&i.incident.to_string()))
    });
    out
}
