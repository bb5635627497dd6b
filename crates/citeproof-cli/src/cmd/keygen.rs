//! `citeproof keygen --out DIR [--kid KID] [--json]`: a fresh Ed25519 key as PKCS#8 PEM (private),
//! SPKI PEM (public) and a JWK Set (public, with `kid`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use citeproof_aca::sign::{generate_key, key_files};

use crate::cmd::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to write `private.pem`, `public.pem` and `jwks.json` to (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// Key id published in the JWK Set (and used as `keyid` when signing).
    #[arg(long, default_value = "agent-key-1")]
    kid: String,
    /// Replace existing key files.
    #[arg(long)]
    force: bool,
    /// Print `{"command":"keygen","ok":true,"incidents":[],"kid","private_key","public_key","jwks"}`.
    #[arg(long)]
    json: bool,
}

fn write(path: &Path, contents: &str, private: bool) -> Result<(), Failure> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut f = options
        .open(path)
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
    f.write_all(contents.as_bytes())
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    if args.kid.is_empty()
        || args
            .kid
            .chars()
            .any(|c| c.is_control() || c == '"' || c == '\\')
    {
        return Err(Failure::Usage(
            "--kid must be non-empty printable text without `\"` or `\\`".into(),
        ));
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Failure::Usage(format!("cannot create {}: {e}", args.out.display())))?;
    let private = args.out.join("private.pem");
    if private.exists() && !args.force {
        return Err(Failure::Usage(format!(
            "{} exists; pass --force to replace it",
            private.display()
        )));
    }
    let key = generate_key().map_err(|e| Failure::Invalid(e.to_string()))?;
    let files = key_files(&key, &args.kid).map_err(|e| Failure::Invalid(e.to_string()))?;
    write(&private, &files.private_pem, true)?;
    let public = args.out.join("public.pem");
    write(&public, &files.public_pem, false)?;
    let jwks = args.out.join("jwks.json");
    write(&jwks, &files.jwks_json, false)?;
    if args.json {
        let details = serde_json::json!({
            "kid": args.kid,
            "private_key": private.display().to_string(),
            "public_key": public.display().to_string(),
            "jwks": jwks.display().to_string(),
        });
        crate::out::json_done("keygen", &details)?;
    } else {
        crate::out::print(&format!(
            "kid: {}\nprivate key (PKCS#8 PEM, keep secret): {}\npublic key (SPKI PEM): {}\nJWK Set (publish in the discovery document): {}\n",
            args.kid,
            private.display(),
            public.display(),
            jwks.display()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
