//! `citeproof demo serve [--addr 127.0.0.1:PORT] [--key KEY.pem]`: a demo agent platform on
//! loopback with one complete Level 3 run, one Level 2 run and several broken runs
//! (`GET /runs` lists them).

use std::net::SocketAddr;
use std::process::ExitCode;

use citeproof_aca::sign::{generate_key, load_signing_key};
use citeproof_cli::demo::{DemoSite, build_demo_site};

use super::Failure;
use crate::input::read_limited;

#[derive(Debug, clap::Subcommand)]
pub enum Verb {
    /// Serve the demo platform on loopback until stopped.
    Serve(ServeArgs),
}

pub fn run(verb: Verb) -> Result<ExitCode, Failure> {
    match verb {
        Verb::Serve(a) => serve(a),
    }
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Loopback address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8787")]
    addr: SocketAddr,
    /// Signing key (PKCS#8 PEM from `citeproof keygen`); default: a fresh key for this run.
    #[arg(long)]
    key: Option<String>,
    /// Key id the demo publishes and signs with.
    #[arg(long, default_value = citeproof_cli::demo::DEMO_KID)]
    kid: String,
    /// Print the address, discovery URL and runs as one JSON line (`command`, `ok`,
    /// `incidents`, `base_url`, `discovery`, `runs`) before serving: with `--addr 127.0.0.1:0`
    /// a script learns the port from it.
    #[arg(long)]
    json: bool,
}

/// Serves `site` with `server` until the process ends.
pub fn serve_site(server: &tiny_http::Server, site: &DemoSite) {
    for request in server.incoming_requests() {
        let r = site.respond(request.url());
        let mut response = tiny_http::Response::from_data(r.body).with_status_code(r.status);
        for (name, value) in &r.headers {
            if let Ok(h) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                response.add_header(h);
            }
        }
        let _ = request.respond(response);
    }
}

pub fn serve(args: ServeArgs) -> Result<ExitCode, Failure> {
    if !args.addr.ip().is_loopback() {
        return Err(Failure::Usage(format!(
            "{} is not a loopback address; the demo platform only listens on loopback",
            args.addr
        )));
    }
    let key = match &args.key {
        Some(path) => {
            let bytes = read_limited(path, citeproof_jose::MAX_KEY_INPUT_BYTES)?;
            load_signing_key(&bytes).map_err(|e| Failure::Usage(format!("{path}: {e}")))?
        }
        None => generate_key().map_err(|e| Failure::Invalid(e.to_string()))?,
    };
    let server = tiny_http::Server::http(args.addr)
        .map_err(|e| Failure::Usage(format!("cannot listen on {}: {e}", args.addr)))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| Failure::Usage("not an IP listener".into()))?;
    let base = format!("http://{addr}");
    let site = build_demo_site(&base, &key, &args.kid, super::now())
        .map_err(|e| Failure::Invalid(e.to_string()))?;
    // The banner must not take the server down when stdout is closed (a pipe whose reader went
    // away): `out` drops writes to a closed stdout.
    if args.json {
        let details = serde_json::json!({
            "base_url": base,
            "discovery": format!("{base}/.well-known/agent-citation-attribution"),
            "runs": site.runs,
        });
        let line = serde_json::json!({
            "command": "demo serve", "ok": true, "incidents": [],
            "base_url": details["base_url"], "discovery": details["discovery"], "runs": details["runs"],
        });
        // One line, so that a reader can take it before the server blocks.
        crate::out::println(&line.to_string())?;
        serve_site(&server, &site);
        return Ok(ExitCode::SUCCESS);
    }
    let mut banner = format!("citeproof demo agent platform on {base}\n");
    banner.push_str(&format!(
        "  discovery: {base}/.well-known/agent-citation-attribution\n"
    ));
    banner.push_str(&format!("  runs:      {base}/runs\n"));
    for r in &site.runs {
        banner.push_str(&format!(
            "  expected level {}: {}\n",
            r.expected_level, r.url
        ));
    }
    banner.push_str(&format!(
        "verify one with: citeproof aca verify --allow-private {base}/runs/complete\n"
    ));
    crate::out::print(&banner)?;
    serve_site(&server, &site);
    Ok(ExitCode::SUCCESS)
}
