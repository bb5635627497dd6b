//! `cargo xtask bench --checks`: the scale checks of issue 11, each run with the release
//! `citeproof` binary the way a reviewer would run it by hand (README "Performance"):
//!
//! - `check-chain-140k`: a valid, signed manifest with a chain of 140 000 minimal steps
//!   verifies (Level 3) from a JSON snapshot in under a second;
//! - `check-claims-100k-{json,warc}`: a run of 100 000 claims (10 manifests) served on loopback
//!   is verified live with `--save-snapshot FILE.json` and `FILE.warc`, and each snapshot then
//!   verifies offline at Level 3;
//! - `check-batch`: `aca verify --batch` over 1000 small snapshots against 1000 separate
//!   `aca verify --snapshot` processes (at least 5x faster).
//!
//! Workloads come from `citeproof_aca::sign::synthetic` (signed, Level 3, deterministic key).

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::Arc,
    time::Instant,
};

use anyhow::{Context, Result, bail};
use citeproof_aca::sign::SigningKey;
use citeproof_aca::sign::synthetic::{
    SYNTHETIC_NOW, SyntheticResponse, SyntheticRun, SyntheticSpec, build_synthetic_run,
};

use crate::bench::{Metric, Target};

fn key() -> SigningKey {
    SigningKey::from_secret_bytes(&[42u8; 32])
}

fn build(spec: &SyntheticSpec) -> Result<SyntheticRun> {
    build_synthetic_run(spec, &key()).map_err(|e| anyhow::anyhow!("synthetic run: {e}"))
}

pub fn release_binary(root: &Path, quiet: bool) -> Result<PathBuf> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root)
        .args(["build", "--release", "-p", "citeproof-cli"]);
    if quiet {
        cmd.stdout(Stdio::null());
    }
    if !cmd.status().context("cargo build --release")?.success() {
        bail!("cargo build --release -p citeproof-cli failed");
    }
    Ok(crate::devenv::target_dir(root).join("release/citeproof"))
}

/// Runs `bin args`, returns (seconds, exit success, stdout).
fn timed(bin: &Path, args: &[&str]) -> Result<(f64, bool, String)> {
    let start = Instant::now();
    let out = Command::new(bin)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .with_context(|| format!("running {}", bin.display()))?;
    Ok((
        start.elapsed().as_secs_f64(),
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

/// The `--json` report of one verification (one pretty-printed JSON document).
fn report_of(stdout: &str) -> Option<serde_json::Value> {
    serde_json::from_str(stdout).ok()
}

/// The level a `--json` report says was achieved.
fn level_of(stdout: &str) -> Option<u64> {
    report_of(stdout)?
        .get("level")
        .and_then(serde_json::Value::as_u64)
}

/// The distinct incident codes of a `--json` report, for a check that did not reach its level.
fn codes_of(stdout: &str) -> String {
    let Some(v) = report_of(stdout) else {
        return "no JSON report".into();
    };
    let mut codes: Vec<String> = v
        .get("incidents")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|i| i.get("code").and_then(serde_json::Value::as_str))
        .map(str::to_owned)
        .collect();
    codes.sort();
    codes.dedup();
    codes.join(", ")
}

fn verify_offline(bin: &Path, file: &Path) -> Result<(f64, bool)> {
    let now = SYNTHETIC_NOW.to_string();
    let file = file.to_string_lossy();
    let mut best = f64::MAX;
    let mut ok = true;
    for _ in 0..3 {
        let (secs, success, stdout) = timed(
            bin,
            &[
                "aca",
                "verify",
                "--snapshot",
                &file,
                "--allow-private",
                "--now",
                &now,
                "--json",
            ],
        )?;
        let reached = success && level_of(&stdout) == Some(3);
        if !reached {
            eprintln!("bench: {}: not Level 3: {}", file, codes_of(&stdout));
        }
        ok &= reached;
        best = best.min(secs);
    }
    Ok((best, ok))
}

pub fn run(root: &Path, quiet: bool) -> Result<Vec<Metric>> {
    let bin = release_binary(root, quiet)?;
    let dir = tempfile::tempdir()?;
    let mut out = Vec::new();
    out.push(chain_140k(&bin, dir.path())?);
    out.extend(claims_100k(&bin, dir.path())?);
    out.push(batch(&bin, dir.path())?);
    Ok(out)
}

fn chain_140k(bin: &Path, dir: &Path) -> Result<Metric> {
    let spec = SyntheticSpec {
        chain_steps: 140_000,
        ..SyntheticSpec::new(1)
    };
    let run = build(&spec)?;
    let path = dir.join("chain-140k.json");
    let snapshot = run.snapshot().map_err(|e| anyhow::anyhow!("{e}"))?;
    std::fs::write(&path, serde_json::to_vec(&snapshot)?)?;
    let manifest_bytes = run
        .responses
        .iter()
        .find(|(u, _)| u.contains("/manifest/"))
        .map(|(_, r)| r.body.len())
        .unwrap_or(0);
    let (secs, ok) = verify_offline(bin, &path)?;
    Ok(Metric {
        name: "check-chain-140k".into(),
        value: secs,
        unit: "s",
        bound: format!(
            "`citeproof aca verify --snapshot` of a JSON snapshot, manifest {:.1} MB, best of 3; Level 3 reached: {ok}",
            manifest_bytes as f64 / 1e6
        ),
        target: if ok {
            Target::AtMost(1.0)
        } else {
            Target::Holds(false)
        },
        meaning: "a valid, signed manifest with a chain of 140 000 minimal steps verifies".into(),
    })
}

/// Serves `routes` (path -> response) on loopback until dropped.
struct Server {
    server: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Binds a loopback port (so the run can be built for it) without serving yet.
    fn bind() -> Result<(Server, u16)> {
        let server = Arc::new(
            tiny_http::Server::http("127.0.0.1:0").map_err(|e| anyhow::anyhow!("bind: {e}"))?,
        );
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .context("no port")?;
        Ok((
            Server {
                server,
                thread: None,
            },
            port,
        ))
    }

    /// Serves `routes` (path -> response) until dropped.
    fn serve(&mut self, routes: BTreeMap<String, SyntheticResponse>) {
        let s = Arc::clone(&self.server);
        self.thread = Some(std::thread::spawn(move || {
            for request in s.incoming_requests() {
                let path = request.url().split('?').next().unwrap_or("").to_owned();
                let response = match routes.get(&path) {
                    Some(r) => {
                        let mut resp = tiny_http::Response::from_data(r.body.clone())
                            .with_status_code(r.status);
                        for (n, v) in &r.headers {
                            if let Ok(h) = tiny_http::Header::from_bytes(n.as_bytes(), v.as_bytes())
                            {
                                resp.add_header(h);
                            }
                        }
                        resp
                    }
                    None => {
                        tiny_http::Response::from_data(b"not found".to_vec()).with_status_code(404)
                    }
                };
                let _ = request.respond(response);
            }
        }));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn claims_100k(bin: &Path, dir: &Path) -> Result<Vec<Metric>> {
    // The port is only known once bound; the run is built for it, then served.
    let (mut server, port) = Server::bind()?;
    let origin = format!("http://127.0.0.1:{port}");
    let spec = SyntheticSpec {
        origin: origin.clone(),
        source_prefix: format!("{origin}/sources/"),
        manifests: 10,
        sources: 10,
        ..SyntheticSpec::new(10_000)
    };
    let run = build(&spec)?;
    let routes: BTreeMap<String, SyntheticResponse> = run
        .responses
        .iter()
        .map(|(u, r)| (u.strip_prefix(&origin).unwrap_or(u).to_owned(), r.clone()))
        .collect();
    server.serve(routes);
    let now = SYNTHETIC_NOW.to_string();
    let mut out = Vec::new();
    for form in ["json", "warc"] {
        let file = dir.join(format!("claims-100k.{form}"));
        let file_s = file.to_string_lossy().into_owned();
        let (live, ok_live, stdout) = timed(
            bin,
            &[
                "aca",
                "verify",
                &run.agent_url,
                "--allow-private",
                "--now",
                &now,
                "--json",
                "--save-snapshot",
                &file_s,
            ],
        )?;
        let ok_live = ok_live && level_of(&stdout) == Some(3);
        if !ok_live {
            eprintln!(
                "bench: live {}: not Level 3: {}",
                run.agent_url,
                codes_of(&stdout)
            );
        }
        let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        let (offline, ok) = verify_offline(bin, &file)?;
        out.push(Metric {
            name: format!("check-claims-100k-{form}"),
            value: offline,
            unit: "s",
            bound: format!(
                "live verification with --save-snapshot {:.1} s (Level 3: {ok_live}); {form} snapshot {:.1} MB; offline best of 3",
                live,
                size as f64 / 1e6
            ),
            target: Target::Holds(ok && ok_live),
            meaning: format!(
                "a 100 000-claim run (10 manifests) saved with --save-snapshot FILE.{form} verifies offline at Level 3"
            ),
        });
    }
    drop(server);
    Ok(out)
}

fn batch(bin: &Path, dir: &Path) -> Result<Metric> {
    let mut list = String::new();
    let mut files = Vec::new();
    for i in 0..1000 {
        let spec = SyntheticSpec {
            run_id: format!("run-{i}"),
            ..SyntheticSpec::new(2)
        };
        let snapshot = build(&spec)?
            .snapshot()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let path = dir.join(format!("batch-{i}.json"));
        std::fs::write(&path, serde_json::to_vec(&snapshot)?)?;
        list.push_str(&format!("{}\n", path.display()));
        files.push(path);
    }
    let list_path = dir.join("batch.txt");
    std::fs::write(&list_path, list)?;
    let now = SYNTHETIC_NOW.to_string();
    let (batch_secs, batch_ok, stdout) = timed(
        bin,
        &[
            "aca",
            "verify",
            "--batch",
            &list_path.to_string_lossy(),
            "--now",
            &now,
        ],
    )?;
    let level3 = stdout
        .lines()
        .filter(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .ok()
                .and_then(|v| v.get("level").and_then(serde_json::Value::as_u64))
                == Some(3)
        })
        .count();
    let start = Instant::now();
    let mut each_ok = 0usize;
    for f in &files {
        let status = Command::new(bin)
            .args([
                "aca",
                "verify",
                "--snapshot",
                &f.to_string_lossy(),
                "--now",
                &now,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
        each_ok += usize::from(status.success());
    }
    let separate = start.elapsed().as_secs_f64();
    let ok = batch_ok && level3 == 1000 && each_ok == 1000;
    Ok(Metric {
        name: "check-batch".into(),
        value: separate / batch_secs,
        unit: "speed-up",
        bound: format!(
            "1000 processes {:.2} s ({:.2} ms each); --batch {:.2} s ({:.3} ms each); all Level 3: {ok}",
            separate,
            separate,
            batch_secs,
            batch_secs
        ),
        target: if ok {
            Target::AtLeast(5.0)
        } else {
            Target::Holds(false)
        },
        meaning: "`aca verify --batch` over 1000 small signed snapshots vs 1000 separate `aca verify --snapshot` processes".into(),
    })
}
