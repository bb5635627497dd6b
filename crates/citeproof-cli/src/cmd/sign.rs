//! `citeproof sign manifest MANIFEST.json --key KEY.pem --keyid ID [--created UNIX]`: prints
//! the signed manifest response as JSON `{"status":200,"headers":[[name,value],...],"body":"..."}`.

use std::process::ExitCode;

use citeproof_aca::sign::{ManifestSignOptions, load_signing_key, sign_manifest_value};
use citeproof_model::json::parse_strict;
use citeproof_model::{Incident, Severity};

use super::Failure;
use crate::input::{display, read_document, read_limited};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Sign a manifest: JCS body, Content-Digest (RFC 9530), RFC 9421 Ed25519 signature over
    /// @status, content-type and content-digest.
    Manifest(ManifestArgs),
}

#[derive(Debug, clap::Args)]
struct ManifestArgs {
    /// The manifest JSON file, or `-` for standard input.
    manifest: String,
    /// Private key: PKCS#8 PEM (`citeproof keygen`) or a private JWK.
    #[arg(long)]
    key: String,
    /// `keyid` signature parameter: the `kid` of the public key in the discovery document.
    #[arg(long)]
    keyid: String,
    /// `created`, Unix seconds (default: now).
    #[arg(long)]
    created: Option<i64>,
    /// `expires`, Unix seconds.
    #[arg(long)]
    expires: Option<i64>,
    /// Sign even when the manifest breaks profile rules (for building test cases).
    #[arg(long)]
    allow_invalid: bool,
}

pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let What::Manifest(a) = args.what;
    let bytes = read_document(&a.manifest)?;
    let value = parse_strict(&bytes)
        .map_err(|e| Failure::Invalid(format!("{}: {}", display(&a.manifest), e.to_incident())))?;
    let errors: Vec<Incident> = citeproof_aca::validate_manifest_value(&value)
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .collect();
    if !errors.is_empty() && !a.allow_invalid {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        return Err(Failure::Invalid(format!(
            "{} is not a valid manifest (pass --allow-invalid to sign it anyway):\n{}",
            display(&a.manifest),
            list.join("\n")
        )));
    }
    let key_bytes = read_limited(&a.key, citeproof_jose::MAX_KEY_INPUT_BYTES)?;
    let key =
        load_signing_key(&key_bytes).map_err(|e| Failure::Usage(format!("{}: {e}", a.key)))?;
    let opts = ManifestSignOptions {
        keyid: a.keyid,
        created: a.created.unwrap_or_else(now),
        expires: a.expires,
    };
    let signed =
        sign_manifest_value(&value, &key, &opts).map_err(|e| Failure::Usage(e.to_string()))?;
    // Pretty JSON with one `[name, value]` pair per line.
    let quote = |v: &str| serde_json::to_string(v).map_err(|e| Failure::Usage(e.to_string()));
    let mut lines = Vec::with_capacity(signed.headers.len());
    for (name, value) in &signed.headers {
        lines.push(format!("    [{}, {}]", quote(name)?, quote(value)?));
    }
    let text = format!(
        "{{\n  \"status\": {},\n  \"headers\": [\n{}\n  ],\n  \"body\": {}\n}}",
        signed.status,
        lines.join(",\n"),
        quote(&signed.body_text())?
    );
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}
