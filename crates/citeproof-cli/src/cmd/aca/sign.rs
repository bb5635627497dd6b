//! `citeproof aca sign MANIFEST.json --key KEY.pem --kid ID [--response-url URL] [--created UNIX]
//! [--json]`: prints the signed manifest response as JSON
//! `{"status":200,"headers":[[name,value],...],"body":"..."}`.
//! The legacy spelling `citeproof sign manifest ... --keyid ID` still works, with a notice.

use std::process::ExitCode;

use citeproof_aca::emit::{EmitError, prepare_for_signing};
use citeproof_aca::sign::{ManifestSignOptions, load_signing_key, sign_manifest_value};
use citeproof_model::json::parse_strict;

use crate::cmd::{Failure, now};
use crate::input::{display, read_document, read_limited};
use crate::out;

/// The legacy `citeproof sign manifest`.
#[derive(Debug, clap::Args)]
pub struct LegacyArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Sign a manifest (now `citeproof aca sign`).
    Manifest(Args),
}

pub fn run_legacy(args: LegacyArgs) -> Result<ExitCode, Failure> {
    eprintln!("citeproof: note: `citeproof sign manifest` is now `citeproof aca sign`");
    let What::Manifest(a) = args.what;
    run(a)
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The manifest JSON file, or `-` for standard input.
    manifest: String,
    /// Private key: PKCS#8 PEM (`citeproof keygen`) or a private JWK.
    #[arg(long)]
    key: String,
    /// `keyid` signature parameter: the `kid` of the public key in the discovery document.
    #[arg(long, alias = "keyid")]
    kid: String,
    /// `created`, Unix seconds (default: now).
    #[arg(long)]
    created: Option<i64>,
    /// `expires`, Unix seconds.
    #[arg(long)]
    expires: Option<i64>,
    /// The URL the agent response will be served at: written into the manifest as
    /// `response_url` before signing (ACA-L2-024), so that a copy of the response served at
    /// another URL fails verification. Refused when the manifest already names another URL.
    #[arg(long, value_name = "URL")]
    response_url: Option<String>,
    /// Sign even when the manifest breaks profile rules (for building test cases).
    #[arg(long)]
    allow_invalid: bool,
    /// Print `{"command","ok","incidents","status","headers","body"}`.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<ExitCode, Failure> {
    let bytes = read_document(&a.manifest)?;
    let value = parse_strict(&bytes)
        .map_err(|e| Failure::Invalid(format!("{}: {}", display(&a.manifest), e.to_incident())))?;
    let value = prepare_for_signing(value, a.response_url.as_deref(), a.allow_invalid)
        .map_err(|e| emit_failure(e, &a))?;
    let key_bytes = read_limited(&a.key, citeproof_jose::MAX_KEY_INPUT_BYTES)?;
    let key =
        load_signing_key(&key_bytes).map_err(|e| Failure::Usage(format!("{}: {e}", a.key)))?;
    let opts = ManifestSignOptions {
        keyid: a.kid,
        created: a.created.unwrap_or_else(now),
        expires: a.expires,
    };
    let signed =
        sign_manifest_value(&value, &key, &opts).map_err(|e| Failure::Usage(e.to_string()))?;
    if a.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            status: u16,
            headers: &'a [(String, String)],
            body: String,
        }
        let details = Out {
            status: signed.status,
            headers: &signed.headers,
            body: signed.body_text(),
        };
        out::json_done("aca sign", &details)?;
        return Ok(ExitCode::SUCCESS);
    }
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
    out::println(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The CLI's wording of a refusal of the shared emitter (`citeproof_aca::emit`).
fn emit_failure(e: EmitError, a: &Args) -> Failure {
    let file = display(&a.manifest);
    let url = a.response_url.as_deref().unwrap_or_default();
    match e {
        EmitError::ResponseUrl { problem, .. } => Failure::Usage(format!(
            "--response-url `{url}` is not a web URL: {problem}"
        )),
        EmitError::NotObject => {
            Failure::Invalid(format!("{file}: a manifest must be a JSON object"))
        }
        EmitError::AlreadyBound { named, .. } => Failure::Invalid(format!(
            "{file} already names the response {named}; refusing to re-bind it to `{url}`"
        )),
        EmitError::Invalid(errors) => {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            Failure::Invalid(format!(
                "{file} is not a valid manifest (pass --allow-invalid to sign it anyway):\n{}",
                list.join("\n")
            ))
        }
        other => Failure::Usage(other.to_string()),
    }
}
