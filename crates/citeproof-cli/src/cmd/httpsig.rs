//! `citeproof httpsig verify --message FILE --key PUB.pem [--verbose]`: verifies the RFC 9421
//! signatures of any HTTP/1.1 request or response in a file (LF or CRLF line endings).

use std::process::ExitCode;

use citeproof_httpsig::{
    LabelSelector, VerifyPolicy, parse_http1, parse_signature_input, signature_base, verify,
    verifying_key_from_bytes,
};

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
    /// Verify only this signature label (default: every label must verify).
    #[arg(long)]
    label: Option<String>,
    /// Verification time, Unix seconds (default: now); `created` may be at most 60 s after it.
    #[arg(long)]
    now: Option<i64>,
    /// Print the signature base of each signature.
    #[arg(long)]
    verbose: bool,
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
    if a.verbose
        && let Some(input) = message.headers().combined("signature-input")
    {
        match parse_signature_input(&input) {
            Ok(list) => {
                for (label, params) in list {
                    if a.label.as_deref().is_some_and(|l| l != label) {
                        continue;
                    }
                    match signature_base(&message, &params) {
                        Ok(base) => println!("signature base of `{label}`:\n{base}\n"),
                        Err(e) => {
                            println!("signature base of `{label}`: cannot be built: {e}\n")
                        }
                    }
                }
            }
            Err(e) => println!("Signature-Input: {e}"),
        }
    }

    let selector = match &a.label {
        Some(l) => LabelSelector::Label(l),
        None => LabelSelector::All,
    };
    let now = a.now.unwrap_or_else(super::now);
    match verify(&message, &key, selector, &VerifyPolicy::default(), now) {
        Ok(verified) => {
            for v in verified {
                println!(
                    "valid: signature `{}` (keyid {})",
                    v.label,
                    v.params.keyid().unwrap_or("-")
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("invalid: {e} [{}]", e.code());
            Ok(ExitCode::from(1))
        }
    }
}
