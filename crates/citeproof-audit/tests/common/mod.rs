//! The two backends under one test suite: a fresh SQLite file, or a fresh database on a real
//! PostgreSQL server started on loopback for the test run (initdb into a temporary directory,
//! `pg_ctl start` on a free port; as the `citeproof-pg` user when running as root, since
//! PostgreSQL refuses to run as root). Without PostgreSQL the PostgreSQL half is skipped with a
//! message, or fails when `CITEPROOF_REQUIRE_POSTGRES=1` (set in CI).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod reports;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A store location, and how to run raw SQL on it (the tamperer's tool).
pub enum Target {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Target {
    pub fn name(&self) -> String {
        match self {
            Target::Sqlite(p) => p.display().to_string(),
            Target::Postgres(url) => url.clone(),
        }
    }

    /// Runs SQL as someone with direct access to the database would.
    pub fn exec(&self, sql: &str) {
        match self {
            Target::Sqlite(p) => {
                let c = rusqlite::Connection::open(p).unwrap();
                c.execute_batch(sql).unwrap();
            }
            Target::Postgres(url) => {
                let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
                c.batch_execute(sql).unwrap();
            }
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Target::Postgres(_))
    }
}

/// A PostgreSQL server for this test process; stopped on drop.
pub struct PgServer {
    _dir: tempfile::TempDir,
    data: PathBuf,
    bin: PathBuf,
    user: Option<String>,
    pub port: u16,
    next_db: std::sync::atomic::AtomicU32,
}

fn find_bin() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("initdb").exists() && p.join("pg_ctl").exists())
        .collect();
    found.sort();
    found.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl PgServer {
    /// Starts a server, or says why it cannot (missing binaries, root without the
    /// `citeproof-pg` user).
    pub fn start() -> Result<PgServer, String> {
        let bin = find_bin().ok_or("no PostgreSQL under /usr/lib/postgresql/*/bin")?;
        let user = if is_root() {
            let name = std::env::var("CITEPROOF_PG_USER").unwrap_or_else(|_| "citeproof-pg".into());
            let exists = Command::new("id")
                .arg(&name)
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false);
            if !exists {
                return Err(format!(
                    "running as root and the user {name} does not exist (PostgreSQL refuses root; \
                     create it: useradd --system --no-create-home {name})"
                ));
            }
            Some(name)
        } else {
            None
        };
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        if let Some(u) = &user {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
            let ok = Command::new("chown")
                .args([u.as_str(), data.to_str().unwrap()])
                .status()
                .unwrap()
                .success();
            assert!(ok, "chown of the data directory failed");
        }
        let server = PgServer {
            _dir: dir,
            data,
            bin,
            user,
            port: free_port(),
            next_db: std::sync::atomic::AtomicU32::new(0),
        };
        server.run(
            "initdb",
            &[
                "-D",
                server.data.to_str().unwrap(),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        )?;
        let opts = format!(
            "-p {} -c listen_addresses=127.0.0.1 -c unix_socket_directories={} -c fsync=off -c max_connections=200",
            server.port,
            server.data.display()
        );
        let log = server.data.join("server.log");
        server.run(
            "pg_ctl",
            &[
                "-D",
                server.data.to_str().unwrap(),
                "-o",
                &opts,
                "-l",
                log.to_str().unwrap(),
                "-w",
                "-t",
                "60",
                "start",
            ],
        )?;
        Ok(server)
    }

    fn run(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(tool);
        let mut cmd = match &self.user {
            Some(u) => {
                let mut c = Command::new("runuser");
                c.args(["-u", u, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        // initdb and pg_ctl read the current directory; a root-only one is refused.
        cmd.current_dir("/").args(args);
        let out = cmd.output().map_err(|e| format!("{tool}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{tool} failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }

    /// A fresh, empty database on the server.
    pub fn fresh_url(&self) -> String {
        let n = self
            .next_db
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let admin = format!("postgres://postgres@127.0.0.1:{}/postgres", self.port);
        let mut c = postgres::Client::connect(&admin, postgres::NoTls).unwrap();
        c.batch_execute(&format!("CREATE DATABASE t{n}")).unwrap();
        format!("postgres://postgres@127.0.0.1:{}/t{n}", self.port)
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let _ = self.run(
            "pg_ctl",
            &[
                "-D",
                self.data.to_str().unwrap_or(""),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
        );
    }
}

/// The server, or `None` (skip) when PostgreSQL is unavailable and not required.
pub fn postgres_or_skip() -> Option<PgServer> {
    match PgServer::start() {
        Ok(s) => Some(s),
        Err(why) => {
            if std::env::var("CITEPROOF_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                panic!("CITEPROOF_REQUIRE_POSTGRES=1 but PostgreSQL cannot be started: {why}");
            }
            eprintln!("SKIPPED the PostgreSQL half: {why}");
            None
        }
    }
}

/// A fresh SQLite file in `dir`.
pub fn fresh_sqlite(dir: &Path, n: u32) -> Target {
    Target::Sqlite(dir.join(format!("audit-{n}.db")))
}
